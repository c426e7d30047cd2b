#include <stdlib.h>

#include "err.h"
#include "out.h"
#include "pairs.h"
#include "runstat.h"

static const char arm_letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Every array of x grown to hold one more (they share x->cap). */
static void series_grow(struct series *x, const struct raw_cols *c)
{
	double **v[4 + 2 * NUSE];
	size_t nv = 0, i, cap;

	if (x->n < x->cap)
		return;
	v[nv++] = &x->a, v[nv++] = &x->b, v[nv++] = &x->delay, v[nv++] = &x->spin;
	for (i = 0; i < NUSE; i++)
		if (c->use[i] >= 0)
			v[nv++] = &x->use_a[i], v[nv++] = &x->use_b[i];
	for (i = 0; i < nv; i++) {
		cap = x->cap;
		xgrow(v[i], &cap, x->n + 1, sizeof **v[i]);
	}
	x->cap = cap;
}

void series_add(struct series *x, const struct raw_cols *c, const struct raw_obs *a,
                const struct raw_obs *b)
{
	int i;

	series_grow(x, c);
	for (i = 0; i < NUSE; i++)
		if (c->use[i] >= 0) {
			x->use_a[i][x->n] = (double)a->use[i];
			x->use_b[i][x->n] = (double)b->use[i];
		}
	x->a[x->n] = (double)a->ns;
	x->b[x->n] = (double)b->ns;
	x->spin[x->n] = (double)(b->spin - a->spin);
	x->delay[x->n++] = (double)(b->delay - a->delay);
}

void series_free(struct series *x)
{
	int i;

	free(x->a);
	free(x->b);
	free(x->delay);
	free(x->spin);
	for (i = 0; i < NUSE; i++) {
		free(x->use_a[i]);
		free(x->use_b[i]);
	}
}

void pairs_row_out(const struct raw_cols *c, int64_t run, const struct raw_obs *a,
                   const struct raw_obs *b, int multi, const char *host)
{
	int i;

	out_i64(run);
	out_i64(a->pair);
	if (multi)
		out_fieldn(&arm_letters[b->arm], 1);
	if (c->duet)   /* together: neither ran first */
		out_fieldn("=", 1);
	else
		out_fieldn(&arm_letters[a->pos < b->pos ? a->arm : b->arm], 1);
	out_i64(a->ns);
	out_i64(b->ns);
	out_i64(b->ns - a->ns);
	out_i64(b->delay - a->delay);
	if (c->spin >= 0)
		out_i64(b->spin - a->spin);
	if (multi) {
		out_i64(a->pos);
		out_i64(b->pos);
	}
	if (host)
		out_field(host);
	if (a->extra)
		out_field(a->extra);
	for (i = 0; i < NUSE; i++)
		if (c->use[i] >= 0) {
			out_i64(a->use[i]);
			out_i64(b->use[i]);
		}
	if (c->cpu >= 0) {
		out_i64(a->cpu);
		out_i64(b->cpu);
	}
	out_end();
}

void pairs_run_out(struct series *x, const struct raw_cols *c, const struct run_stat *st,
                   int64_t run, int arm, const char *host, const char *extra)
{
	double a, b, lr = 0;
	int i;

	if (st->kind == RUN_LR_MEDIAN)   /* before a and b are reordered */
		lr = run_stat_paired_lr_median(x->a, x->b, x->n);
	a = run_stat_reduce(st, x->a, x->n);
	b = run_stat_reduce(st, x->b, x->n);
	out_i64(run);
	if (arm >= 0)
		out_fieldn(&arm_letters[arm], 1);
	out_i64((int64_t)x->n);
	out_num(a);
	out_num(b);
	out_num(b - a);
	out_num(run_stat_reduce(st, x->delay, x->n));
	if (c->spin >= 0)
		out_num(run_stat_reduce(st, x->spin, x->n));
	if (st->kind == RUN_LR_MEDIAN)
		out_num(lr);
	if (host)
		out_field(host);
	if (extra)
		out_field(extra);
	for (i = 0; i < NUSE; i++)
		if (c->use[i] >= 0) {
			out_num(run_stat_reduce(st, x->use_a[i], x->n));
			out_num(run_stat_reduce(st, x->use_b[i], x->n));
		}
	out_end();
}

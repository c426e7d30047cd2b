#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "err.h"
#include "hosts.h"
#include "stream.h"
#include "rng.h"
#include "stats.h"
#include "strmap.h"

/* Every check needs at least this many values in a cell (the A-first
 * pairs of a run, say) for its median to mean anything. */
enum { MIN_CELL = 3, MIN_RUNS_OUTLIERS = 5, MIN_PAIRS_WARMUP = 20, MIN_PAIRS_BIMODAL = 10,
       MIN_PAIRS_SPREAD = 8, RUNS_NAMED = 5 };

void check_defaults(struct check_opts *o)
{
	o->level = 0.99;
	o->position_share = 0.25;
	o->warmup_share = 0.1;
	o->warmup_min = 0.01;
	o->fence = 0;   /* from the number of runs and the level */
	o->spread_ratio = 1.25;
	o->resamples = 400;
	run_stat_parse(&o->stat, "stat", "median");
	o->stat_given = 0;
	o->seed = 1;
	o->pressure = 10;
}

const char *check_status_name(enum check_status s)
{
	return s == CHECK_OK ? "ok" : s == CHECK_WARN ? "warn" : "n/a";
}

/* --- text ------------------------------------------------------------ */

/* A string of its own, formatted (err.c's vformat with no buffer of ours
 * always allocates). */
static char *format_owned(const char *fmt, va_list ap)
{
	char *s = vformat(NULL, 0, fmt, ap);

	if (!s)
		die("out of memory");
	return s;
}

/* A note grown a clause at a time. */
struct text {
	char *s;
	size_t n, cap;
};

static void text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	char *c;
	size_t l;

	va_start(ap, fmt);
	c = format_owned(fmt, ap);
	va_end(ap);
	l = strlen(c);
	xgrow(&t->s, &t->cap, t->n + l + 1, 1);
	memcpy(t->s + t->n, c, l + 1);
	t->n += l;
	free(c);
}

enum { SIGBUF = 24, NUMBUF = 40 };

/* 4 significant digits, as a person reads them (pb-tint's findings);
 * plain digits up to 1e15 (a count of 12345, not 1.234e+04). */
static const char *sig(char b[SIGBUF], double x)
{
	snprintf(b, SIGBUF, "%.4g", x);
	if (strchr(b, 'e') && fabs(x) < 1e15 && fabs(x) >= 1)
		snprintf(b, SIGBUF, "%.0f", x);
	return b;
}

/* Nanoseconds in the unit that keeps them below 1000. */
static const char *dur(char b[NUMBUF], double ns)
{
	static const char *unit[] = { "ns", "\302\265s", "ms", "s" };
	double scale = 1;
	size_t u = 0;
	char d[SIGBUF];

	while (u < 3 && fabs(ns) / scale >= 999.95)
		scale *= 1000, u++;
	snprintf(b, NUMBUF, "%s %s", sig(d, ns / scale), unit[u]);
	return b;
}

static const char *pct(char b[NUMBUF], double share)
{
	char d[SIGBUF];

	snprintf(b, NUMBUF, "%s%%", sig(d, 100 * share));
	return b;
}

/* The level in percent: 0.99 is "99", 0.995 "99.5"; 10 digits, or as
 * many more as keep a level below 1 from reading "100". */
static const char *level_pct(char b[NUMBUF], double level)
{
	int digits = 10;

	do
		snprintf(b, NUMBUF, "%.*g", digits, 100 * level);
	while (level < 1 && strtod(b, NULL) >= 100 && ++digits <= 17);
	return b;
}

/* --- rows -------------------------------------------------------------- */

static struct check_row *row_add(struct check_report *rep, const char *check,
                                 enum check_status st, const char *unit)
{
	struct check_row *r;

	xgrow(&rep->row, &rep->cap, rep->n + 1, sizeof *rep->row);
	r = &rep->row[rep->n++];
	memset(r, 0, sizeof *r);
	r->check = check;
	r->status = st;
	r->unit = unit;
	return r;
}

static void row_note(struct check_row *r, struct text *t)
{
	r->note = t->s ? t->s : xstrdup("");
	t->s = NULL;
	t->n = t->cap = 0;
}

static void row_na(struct check_report *rep, const char *check, const char *unit,
                   const char *fmt, ...)
{
	struct check_row *r = row_add(rep, check, CHECK_NA, unit);
	va_list ap;

	va_start(ap, fmt);
	r->note = format_owned(fmt, ap);
	va_end(ap);
}

/* Checks that cannot be made for one reason: n/a rows with one note.
 * checks[i] is { name, unit }. */
static void rows_na(struct check_report *rep, const char *const checks[][2], size_t n,
                    const char *fmt, ...)
{
	va_list ap;
	char *note;
	size_t i;

	va_start(ap, fmt);
	note = format_owned(fmt, ap);
	va_end(ap);
	for (i = 0; i < n; i++)
		row_add(rep, checks[i][0], CHECK_NA, checks[i][1])->note = xstrdup(note);
	free(note);
}

static void row_value(struct check_row *r, double v)
{
	r->value = v;
	r->has_value = 1;
}

static void row_interval(struct check_row *r, double v, double lo, double hi)
{
	row_value(r, v);
	r->lo = lo;
	r->hi = hi;
	r->has_interval = 1;
}

static void method_add(struct check_report *rep, const char *check, const char *fmt, ...)
{
	struct check_method *m;
	va_list ap;

	xgrow(&rep->method, &rep->mcap, rep->nmethod + 1, sizeof *rep->method);
	m = &rep->method[rep->nmethod++];
	m->check = check;
	va_start(ap, fmt);
	m->text = format_owned(fmt, ap);
	va_end(ap);
}

void check_report_free(struct check_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n; i++)
		free(rep->row[i].note);
	for (i = 0; i < rep->nmethod; i++)
		free(rep->method[i].text);
	free(rep->row);
	free(rep->method);
	memset(rep, 0, sizeof *rep);
}

/* --- statistics over runs ------------------------------------------------ */

/* A t interval of the mean of per-run values. */
struct tiv {
	size_t n;
	double mean, lo, hi;
};

static int t_interval(const double *v, size_t n, double level, struct tiv *t)
{
	struct welford w = { 0, 0, 0, 0 };
	double q, se;
	size_t i;

	if (n < 2)
		return -1;
	for (i = 0; i < n; i++)
		welford_add(&w, v[i]);
	se = sqrt(welford_var(&w) / (double)n);
	q = stat_qt(1 - (1 - level) / 2, (double)(n - 1));
	t->n = n;
	t->mean = welford_mean(&w);
	t->lo = t->mean - q * se;
	t->hi = t->mean + q * se;
	return 0;
}

/* The least-squares slope of y on x, with its t interval (df = n - 2). */
static int slope_interval(const double *x, const double *y, size_t n, double level,
                          struct tiv *t)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, ss = 0, b, q, se;
	size_t i;

	if (n < 3)
		return -1;
	for (i = 0; i < n; i++)
		mx += x[i], my += y[i];
	mx /= (double)n, my /= (double)n;
	for (i = 0; i < n; i++) {
		sxx += (x[i] - mx) * (x[i] - mx);
		sxy += (x[i] - mx) * (y[i] - my);
	}
	if (!(sxx > 0))
		return -1;
	b = sxy / sxx;
	for (i = 0; i < n; i++) {
		double e = y[i] - my - b * (x[i] - mx);
		ss += e * e;
	}
	se = sqrt(ss / (double)(n - 2) / sxx);
	q = stat_qt(1 - (1 - level) / 2, (double)(n - 2));
	t->n = n;
	t->mean = b;
	t->lo = b - q * se;
	t->hi = b + q * se;
	return 0;
}

static int excludes(const struct tiv *t, double v)
{
	return t->lo > v || t->hi < v;
}

/* The level of one of k tests that share the check's level (Bonferroni):
 * the check as a whole then warns on clean data in at most 1 - level. */
static double shared_level(const struct check_opts *o, double k)
{
	return 1 - (1 - o->level) / k;
}

/* Clopper-Pearson interval of a binomial share k/n at level. */
static void binomial_interval(double k, double n, double level, double *lo, double *hi)
{
	double a = (1 - level) / 2;

	*lo = k > 0 ? stat_qbeta(a, k, n - k + 1) : 0;
	*hi = k < n ? stat_qbeta(1 - a, k + 1, n - k) : 1;
}

/* Values of one run chosen by a filter, for a median: scratch space that
 * grows to the largest run and is reused. */
struct cell {
	double *x;
	size_t n, cap;
};

static void cell_add(struct cell *c, double v)
{
	xgrow(&c->x, &c->cap, c->n + 1, sizeof *c->x);
	c->x[c->n++] = v;
}

static double cell_median(struct cell *c)
{
	return stat_median(c->x, c->n);
}

/* "runs 3, 7 and 9", the first RUNS_NAMED of them and a count of the rest. */
static void name_runs(struct text *t, const int64_t *run, size_t n)
{
	size_t i, shown = n > RUNS_NAMED ? RUNS_NAMED : n;

	text_add(t, n == 1 ? "run " : "runs ");
	for (i = 0; i < shown; i++)
		text_add(t, "%s%lld", i == 0 ? "" : i + 1 == n ? " and " : ", ", (long long)run[i]);
	if (n > shown)
		text_add(t, " and %zu more", n - shown);
}

/* Per-run values gathered for an interval over runs. */
struct per_run {
	double *v, *x;   /* the value, and the run number (drift) */
	int64_t *run;
	size_t n;
};

static void per_run_init(struct per_run *p, size_t nruns)
{
	p->v = xmalloc((nruns + 1) * sizeof *p->v);
	p->x = xmalloc((nruns + 1) * sizeof *p->x);
	p->run = xmalloc((nruns + 1) * sizeof *p->run);
	p->n = 0;
}

static void per_run_add(struct per_run *p, int64_t run, double v)
{
	p->v[p->n] = v;
	p->x[p->n] = (double)run;
	p->run[p->n++] = run;
}

static void per_run_free(struct per_run *p)
{
	free(p->v);
	free(p->x);
	free(p->run);
}

/* What every check reads, and what one check leaves for a later one. */
struct ctx {
	const struct check_run *runs;
	size_t nruns;
	const struct check_design *d;
	const struct check_events *ev;
	const struct check_opts *o;
	struct check_report *rep;
	struct cell c1, c2, c3, c4;   /* scratch */
	int have_effect;
	double effect;                /* the order-adjusted effect, for carry's note */
	char ref_first[32];           /* "A first" with two arms, else "A before C" */
	double *run_d;                /* per-run median d, for drift and outliers */
};

/* --- 1. order balance ------------------------------------------------ */

/* The share of pairs that run the reference first, by the design: 1/2,
 * but for the cyclic order of k > 2 arms, where the reference runs before
 * the candidate in k - d of every k pairs (d = the candidate's letter less
 * the reference's, mod k). */
static double expected_share(const struct check_design *d)
{
	int k = d->arms, dist;

	if (k <= 2 || !d->order || strcmp(d->order, "alternate") != 0)
		return 0.5;
	dist = ((d->cand[0] - d->ref[0]) % k + k) % k;
	return (double)(k - dist) / k;
}

static void check_order(struct ctx *c)
{
	const struct check_run *runs = c->runs;
	size_t nruns = c->nruns;
	const struct check_design *d = c->d;
	const struct check_opts *o = c->o;
	struct check_report *rep = c->rep;
	const double e = expected_share(d);
	double k = 0, n = 0, lo, hi, worst = -1, wk = 0, wn = 0, wlo = 0, whi = 1;
	double lev_all = shared_level(o, 2), lev_run = shared_level(o, 2 * (double)nruns);
	int64_t wrun = 0;
	struct check_row *r;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF];
	size_t i, j;

	for (i = 0; i < nruns; i++) {
		double rk = 0, rn = (double)runs[i].n, rlo, rhi, beyond;

		for (j = 0; j < runs[i].n; j++)
			rk += runs[i].p[j].a_first;
		k += rk, n += rn;
		binomial_interval(rk, rn, lev_run, &rlo, &rhi);
		beyond = fmax(rlo - e, e - rhi);
		if (beyond > worst)
			worst = beyond, wk = rk, wn = rn, wlo = rlo, whi = rhi, wrun = runs[i].run;
	}
	binomial_interval(k, n, lev_all, &lo, &hi);
	r = row_add(rep, "order", lo > e || hi < e ? CHECK_WARN : CHECK_OK, "share");
	row_interval(r, k / n, lo, hi);
	if (r->status == CHECK_WARN) {
		text_add(&t, "%s of the %.0f pairs ran %s (%s%% CI %s to %s", pct(b1, k / n), n,
		         c->ref_first, level_pct(b2, lev_all), pct(b3, lo), pct(b4, hi));
		if (e != 0.5)
			text_add(&t, "; the design gives %s", pct(b1, e));
		if (d->order && strcmp(d->order, "random") != 0)
			text_add(&t, "; the order was %s", d->order);
		text_add(&t, "): the order is not balanced, so the arm and its place in the pair "
		         "cannot be told apart.");
	} else if (e != 0.5) {
		text_add(&t, "%s of the %.0f pairs ran %s: what the cyclic order of %d arms gives "
		         "(%s); the order-adjusted effect allows for it.", pct(b1, k / n), n,
		         c->ref_first, d->arms, pct(b2, e));
	} else {
		text_add(&t, "%s of the %.0f pairs ran %s: balanced.", pct(b1, k / n), n,
		         c->ref_first);
	}
	row_note(r, &t);

	r = row_add(rep, "order_run", worst > 0 ? CHECK_WARN : CHECK_OK, "share");
	row_interval(r, wk / wn, wlo, whi);
	if (worst > 0)
		text_add(&t, "Run %lld ran %s in %s of its %.0f pairs (%s%% CI %s to %s, the "
		         "level shared by %zu runs): its order is not balanced.", (long long)wrun,
		         c->ref_first, pct(b1, wk / wn), wn, level_pct(b2, lev_run), pct(b3, wlo),
		         pct(b4, whi), nruns);
	else
		text_add(&t, "The most unbalanced run, run %lld, ran %s in %s of its %.0f pairs: "
		         "within what chance gives.", (long long)wrun, c->ref_first, pct(b1, wk / wn),
		         wn);
	row_note(r, &t);
}

/* --- 2. position effect (a two-period crossover), or a duet's CPU effect -- */

/* A split of each run's pairs in two cells, crossed with the arm: by the
 * arm that ran first (position), or in a duet, where the arms ran at once,
 * by the CPU the reference had (duet_cpu). One machinery reads both: per
 * run m1, m2 = the median d of each cell, effect = (m1 + m2)/2 with the
 * split averaged out, and what the split does = (m2 - m1)/2. */
struct split {
	const char *check;       /* its row */
	const char *adjusted;    /* the effect's name: "order-adjusted" */
	const char *cells;       /* for n/a: "of each order" */
	const char *none;        /* the note's end when nothing is resolved */
	int (*in_first)(const struct check_pair *p);   /* 1: cell 1, m1 */
	void (*says)(struct ctx *c, struct text *t, const struct tiv *v);
};

static void effect_note(struct ctx *c, struct text *t, const struct tiv *e, double pooled,
                        double level, const char *adjusted)
{
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF];

	text_add(t, "%s - %s, %s: %s (%s%% CI %s to %s, %zu runs); the pooled median "
	         "of d is %s", c->d->cand, c->d->ref, adjusted, dur(b1, e->mean),
	         level_pct(b2, level), dur(b3, e->lo), dur(b4, e->hi), e->n, dur(b5, pooled));
	if (c->d->delay_ns > 0 && (c->d->delay_arm == c->d->ref[0] ||
	                           c->d->delay_arm == c->d->cand[0]))
		text_add(t, ", and the injected delay on %c %s", c->d->delay_arm,
		         dur(b1, (double)c->d->delay_ns));
	text_add(t, ".");
}

/* Per run (of MIN_CELL pairs in each cell or more) (m1 + m2)/2 into arm
 * and (m2 - m1)/2 into half; returns the pooled median of d. */
static double split_runs(struct ctx *c, const struct split *sp, struct per_run *arm,
                         struct per_run *half)
{
	struct cell all = { 0 };
	double pooled, m1, m2;
	size_t i, j;

	for (i = 0; i < c->nruns; i++) {
		const struct check_run *run = &c->runs[i];

		c->c1.n = c->c2.n = 0;
		for (j = 0; j < run->n; j++) {
			double d = run->p[j].b - run->p[j].a;
			cell_add(sp->in_first(&run->p[j]) ? &c->c1 : &c->c2, d);
			cell_add(&all, d);
		}
		if (c->c1.n < MIN_CELL || c->c2.n < MIN_CELL)
			continue;
		m1 = cell_median(&c->c1);
		m2 = cell_median(&c->c2);
		per_run_add(arm, run->run, (m1 + m2) / 2);
		per_run_add(half, run->run, (m2 - m1) / 2);
	}
	pooled = all.n ? cell_median(&all) : 0;
	free(all.x);
	return pooled;
}

/* The rows effect and sp->check; it warns when its interval excludes 0
 * and it is more than position_share of the effect. */
static void check_split(struct ctx *c, const struct split *sp)
{
	struct per_run arm, half;
	struct tiv e, p;
	struct check_row *r;
	struct text t = { 0 };
	char b1[NUMBUF], b5[NUMBUF], b6[NUMBUF];
	double pooled;
	int resolved;

	per_run_init(&arm, c->nruns);
	per_run_init(&half, c->nruns);
	pooled = split_runs(c, sp, &arm, &half);
	if (t_interval(arm.v, arm.n, c->o->level, &e) < 0) {
		const char *const na[][2] = { { "effect", "ns" }, { sp->check, "ns" } };

		rows_na(c->rep, na, LEN(na), "Needs 2 runs with at least %d pairs %s; there %s %zu.",
		        MIN_CELL, sp->cells, arm.n == 1 ? "is" : "are", arm.n);
		goto out;
	}
	t_interval(half.v, half.n, c->o->level, &p);
	c->have_effect = 1;
	c->effect = e.mean;
	r = row_add(c->rep, "effect", CHECK_OK, "ns");
	row_interval(r, e.mean, e.lo, e.hi);
	effect_note(c, &t, &e, pooled, c->o->level, sp->adjusted);
	row_note(r, &t);

	resolved = excludes(&p, 0);
	r = row_add(c->rep, sp->check, resolved && fabs(p.mean) > c->o->position_share *
	            fabs(e.mean) ? CHECK_WARN : CHECK_OK, "ns");
	row_interval(r, p.mean, p.lo, p.hi);
	sp->says(c, &t, &p);
	if (r->status == CHECK_WARN)
		text_add(&t, ", more than %s of the effect: read the %s effect (%s), "
		         "not the pooled median of d (%s).", pct(b5, c->o->position_share),
		         sp->adjusted, dur(b1, e.mean), dur(b6, pooled));
	else if (resolved)
		text_add(&t, ": resolved, but not more than %s of the effect.",
		         pct(b5, c->o->position_share));
	else
		text_add(&t, "%s", sp->none);
	row_note(r, &t);
out:
	per_run_free(&arm);
	per_run_free(&half);
}

static int ran_first(const struct check_pair *p)
{
	return p->a_first;
}

static void position_says(struct ctx *c, struct text *t, const struct tiv *p)
{
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF];

	text_add(t, "The %s takes %s %s time than the %s (%s%% CI %s to %s)",
	         c->d->arms > 2 ? "later of the two in a pair" : "second observation of a pair",
	         dur(b1, fabs(p->mean)), p->mean >= 0 ? "less" : "more",
	         c->d->arms > 2 ? "earlier" : "first", level_pct(b2, c->o->level),
	         dur(b3, p->lo), dur(b4, p->hi));
}

static const struct split by_place = {
	"position", "order-adjusted", "of each order", ": no position effect resolved.",
	ran_first, position_says,
};

/* Cell 1: the reference had the second CPU of the design, so that
 * (m2 - m1)/2 is how much longer an arm takes on the second CPU than on
 * the first (a CPU that slows whichever arm it has by s adds s to d when
 * the candidate has it, and takes s off when the reference has it). */
static int had_second_cpu(const struct check_pair *p)
{
	return p->a_cpu_first == 0;
}

/* The median time of the reference over every pair: what a CPU effect
 * is a share of. */
static double reference_median(struct ctx *c)
{
	size_t i, j;

	c->c3.n = 0;
	for (i = 0; i < c->nruns; i++)
		for (j = 0; j < c->runs[i].n; j++)
			cell_add(&c->c3, c->runs[i].p[j].a);
	return cell_median(&c->c3);
}

/* Said of the CPU on which an arm is slower, as time and as a share of
 * the reference's median time. */
static void duet_cpu_says(struct ctx *c, struct text *t, const struct tiv *v)
{
	int slow = v->mean > 0;   /* the index of that CPU in the design's */
	double s = fabs(v->mean), lo = slow ? v->lo : -v->hi, hi = slow ? v->hi : -v->lo;
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF];

	text_add(t, "An arm takes %s (%s) more time on CPU %lld than on CPU %lld (%s%% CI %s "
	         "to %s)", dur(b1, s), pct(b2, s / reference_median(c)),
	         (long long)c->d->cpu[slow], (long long)c->d->cpu[!slow],
	         level_pct(b3, c->o->level), dur(b4, lo), dur(b5, hi));
}

static const struct split by_cpu = {
	"duet_cpu", "CPU-adjusted", "with each arm on each CPU", ": no CPU effect resolved.",
	had_second_cpu, duet_cpu_says,
};

/* In a duet nothing ran first: the CPUs take the place of the order. */
static void check_duet_cpu(struct ctx *c)
{
	static const char *const na[][2] = { { "effect", "ns" }, { "duet_cpu", "ns" } };
	int known = c->d->cpu[0] >= 0;
	size_t i, j;

	for (i = 0; i < c->nruns; i++)
		for (j = 0; j < c->runs[i].n; j++)
			known &= c->runs[i].p[j].a_cpu_first >= 0;
	if (known)
		check_split(c, &by_cpu);
	else
		rows_na(c->rep, na, LEN(na), "Needs the CPU of each arm (pb-pair's cpu_a and cpu_b) "
		        "and the head's # duet_cpus:, which the input has not.");
}

/* --- 3. carry-over ------------------------------------------------------ */

/* Whether the reference (arm_a) or the candidate starts pair p; with
 * more than two arms, by its place (a third arm may start it). */
static int starts(const struct ctx *c, const struct check_pair *p, int arm_a)
{
	if (c->d->arms > 2)
		return (arm_a ? p->pos_a : p->pos_b) == 1;
	return p->a_first == arm_a;
}

/* Which of the two ended pair p: 1 the candidate, 0 the reference, -1 a
 * third arm. With two arms, the candidate ends a pair the reference began. */
static int ended_with_candidate(const struct ctx *c, const struct check_pair *p)
{
	if (c->d->arms > 2)
		return p->pos_b == c->d->arms ? 1 : p->pos_a == c->d->arms ? 0 : -1;
	return p->a_first;
}

/* Per run, for the arm that starts a pair: its median time after a pair
 * that ended with the candidate (B), less after one that ended with the
 * reference (A). The place in the pair is the same (first), so a
 * position effect does not enter; within a pair of two arms the second
 * observation always follows the other arm, where carry-over and
 * position cannot be told apart. */
static int carry_of_run(struct ctx *c, const struct check_run *run, int arm_a, double *v)
{
	size_t j;
	int e;

	c->c1.n = c->c2.n = 0;
	for (j = 1; j < run->n; j++) {
		const struct check_pair *p = &run->p[j], *prev = &run->p[j - 1];

		if (p->pair != prev->pair + 1 || !starts(c, p, arm_a) ||
		    (e = ended_with_candidate(c, prev)) < 0)
			continue;
		cell_add(e ? &c->c1 : &c->c2, arm_a ? p->a : p->b);
	}
	if (c->c1.n < MIN_CELL || c->c2.n < MIN_CELL)
		return -1;
	*v = cell_median(&c->c1) - cell_median(&c->c2);
	return 0;
}

static void carry_row(struct ctx *c, const char *check, int arm_a, const struct tiv *t,
                      int adjusted, double adj, double lev)
{
	struct check_row *r = row_add(c->rep, check, excludes(t, 0) ? CHECK_WARN : CHECK_OK, "ns");
	struct text n = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF];
	const char *x = arm_a ? c->d->ref : c->d->cand;

	row_interval(r, t->mean, t->lo, t->hi);
	text_add(&n, "At the start of a pair %s takes %s %s after a pair that ended with %s than "
	         "after one that ended with %s (%s%% CI %s to %s)", x, dur(b1, fabs(t->mean)),
	         t->mean >= 0 ? "longer" : "less", c->d->cand, c->d->ref, level_pct(b2, lev),
	         dur(b3, t->lo), dur(b4, t->hi));
	if (r->status == CHECK_WARN && adjusted)
		text_add(&n, ": carry-over, which moves the order-adjusted effect by about %s "
		         "(carry-adjusted effect %s, if carry-over adds to what follows).",
		         dur(b5, adj), dur(b1, c->effect - adj));
	else if (r->status == CHECK_WARN)
		text_add(&n, ": carry-over, so the arm of one observation changes the next.");
	else
		text_add(&n, ": no carry-over resolved.");
	row_note(r, &n);
}

static void check_carry(struct ctx *c)
{
	static const char *const carry_na[][2] = { { "carry_a", "ns" }, { "carry_b", "ns" } };
	struct per_run ca, cb;
	struct tiv ta, tb;
	double lev = shared_level(c->o, 2), v;
	int have_a, have_b;
	size_t i;

	if (c->d->duet) {
		rows_na(c->rep, carry_na, LEN(carry_na), "The arms of each pair ran at once (# order: "
		        "duet): neither starts nor ends a pair, so no arm's carry-over can be told.");
		return;
	}
	if (c->d->order && strcmp(c->d->order, "blocked") == 0) {
		rows_na(c->rep, carry_na, LEN(carry_na), "The order was blocked (all A, then all B): "
		        "the observation before each one is not that of the pair before.");
		return;
	}
	if (c->d->arms > 2 && (!c->runs || !c->nruns || !c->runs[0].n || !c->runs[0].p[0].pos_a)) {
		rows_na(c->rep, carry_na, LEN(carry_na), "Needs the places of the arms in each pair "
		        "(pb-pair's pos_a and pos_b), which the input has not.");
		return;
	}
	per_run_init(&ca, c->nruns);
	per_run_init(&cb, c->nruns);
	for (i = 0; i < c->nruns; i++) {
		if (carry_of_run(c, &c->runs[i], 1, &v) == 0)
			per_run_add(&ca, c->runs[i].run, v);
		if (carry_of_run(c, &c->runs[i], 0, &v) == 0)
			per_run_add(&cb, c->runs[i].run, v);
	}
	have_a = t_interval(ca.v, ca.n, lev, &ta) == 0;
	have_b = t_interval(cb.v, cb.n, lev, &tb) == 0;
	for (i = 0; i < 2; i++) {
		int a = i == 0, have = a ? have_a : have_b;
		const char *check = a ? "carry_a" : "carry_b";

		if (!have)
			row_na(c->rep, check, "ns", "Needs 2 runs in which %s starts at least %d pairs "
			       "after each arm ended the pair before (--order random); there %s %zu.",
			       a ? c->d->ref : c->d->cand, MIN_CELL, (a ? ca.n : cb.n) == 1 ? "is" : "are",
			       a ? ca.n : cb.n);
		else   /* the carry-adjusted effect is a model of two arms */
			carry_row(c, check, a, a ? &ta : &tb, have_a && have_b && c->have_effect &&
			          c->d->arms == 2, have_a && have_b ? (tb.mean - 3 * ta.mean) / 4 : 0, lev);
	}
	per_run_free(&ca);
	per_run_free(&cb);
}

/* --- 4. drift across runs ----------------------------------------------- */

static void check_drift(struct ctx *c)
{
	struct per_run d, lr, lvl;
	double *ma = xmalloc((c->nruns + 1) * sizeof *ma), *mb = xmalloc((c->nruns + 1) * sizeof *mb);
	double lev = shared_level(c->o, 2), r;
	struct tiv td, tl, tv;
	struct check_row *row;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF];
	size_t i, j;

	per_run_init(&d, c->nruns);
	per_run_init(&lr, c->nruns);
	per_run_init(&lvl, c->nruns);
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *run = &c->runs[i];

		c->c1.n = c->c2.n = c->c3.n = 0;
		for (j = 0; j < run->n; j++) {
			cell_add(&c->c1, run->p[j].b - run->p[j].a);
			cell_add(&c->c2, run->p[j].a);
			cell_add(&c->c3, run->p[j].b);
		}
		per_run_add(&d, run->run, cell_median(&c->c1));
		ma[i] = cell_median(&c->c2);
		mb[i] = cell_median(&c->c3);
		per_run_add(&lr, run->run, stat_log_ratio(ma[i], mb[i]));
		per_run_add(&lvl, run->run, ma[i] / 2 + mb[i] / 2);
		c->run_d[i] = d.v[i];
	}
	if (slope_interval(d.x, d.v, d.n, lev, &td) < 0) {
		static const char *const na[][2] = {
			{ "drift_d", "ns/run" }, { "drift_lr", "lr/run" }, { "drift_level", "ns/run" },
		};

		rows_na(c->rep, na, LEN(na), "Needs 3 runs; there %s %zu.",
		        c->nruns == 1 ? "is" : "are", c->nruns);
		goto out;
	}
	slope_interval(lr.x, lr.v, lr.n, lev, &tl);
	slope_interval(lvl.x, lvl.v, lvl.n, c->o->level, &tv);

	row = row_add(c->rep, "drift_d", excludes(&td, 0) ? CHECK_WARN : CHECK_OK, "ns/run");
	row_interval(row, td.mean, td.lo, td.hi);
	text_add(&t, "The effect (each run's median d) changes by %s per run in run order (%s%% "
	         "CI %s to %s)", dur(b1, td.mean), level_pct(b2, lev), dur(b3, td.lo),
	         dur(b4, td.hi));
	text_add(&t, row->status == CHECK_WARN ? ": later runs differ, so an interval over runs "
	         "mixes them (pb-plot trend shows it)." : ": no drift resolved.");
	row_note(row, &t);

	row = row_add(c->rep, "drift_lr", excludes(&tl, 0) ? CHECK_WARN : CHECK_OK, "lr/run");
	row_interval(row, tl.mean, tl.lo, tl.hi);
	text_add(&t, "The log ratio ln(median a / median b) of each run changes by %.3g per run "
	         "(%s%% CI %.3g to %.3g)", tl.mean, level_pct(b2, lev), tl.lo, tl.hi);
	text_add(&t, row->status == CHECK_WARN ? ": the ratio drifts across runs." :
	         ": no drift resolved.");
	row_note(row, &t);

	r = stat_cor(ma, mb, c->nruns);
	row = row_add(c->rep, "drift_level", CHECK_OK, "ns/run");
	row_interval(row, tv.mean, tv.lo, tv.hi);
	text_add(&t, "Both arms' level changes by %s per run (%s%% CI %s to %s); pairing cancels "
	         "what the arms share", dur(b1, tv.mean), level_pct(b2, c->o->level),
	         dur(b3, tv.lo), dur(b4, tv.hi));
	if (isnan(r))
		text_add(&t, " (the runs' medians of a and b do not vary).");
	else
		text_add(&t, ", and the runs' medians of a and b correlate with r = %.3f.", r);
	row_note(row, &t);
out:
	per_run_free(&d);
	per_run_free(&lr);
	per_run_free(&lvl);
	free(ma);
	free(mb);
}

/* --- 5. warm-up ----------------------------------------------------------- */

static void check_warmup(struct ctx *c)
{
	struct per_run lv, dd;
	struct tiv tl, td;
	struct check_row *row;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF];
	size_t i, j, most = 0;

	per_run_init(&lv, c->nruns);
	per_run_init(&dd, c->nruns);
	pct(b5, c->o->warmup_share);
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *run = &c->runs[i];
		size_t k = (size_t)ceil(c->o->warmup_share * (double)run->n);

		if (run->n < MIN_PAIRS_WARMUP || k < 2 || k + 2 > run->n)
			continue;
		if (k > most)
			most = k;
		c->c1.n = c->c2.n = c->c3.n = c->c4.n = 0;
		for (j = 0; j < run->n; j++) {
			cell_add(j < k ? &c->c1 : &c->c2, run->p[j].a);
			cell_add(j < k ? &c->c3 : &c->c4, run->p[j].b - run->p[j].a);
		}
		per_run_add(&lv, run->run, stat_log_ratio(cell_median(&c->c1), cell_median(&c->c2)));
		per_run_add(&dd, run->run, cell_median(&c->c3) - cell_median(&c->c4));
	}
	if (t_interval(lv.v, lv.n, c->o->level, &tl) < 0) {
		static const char *const na[][2] = { { "warmup", "share" }, { "warmup_d", "ns" } };

		rows_na(c->rep, na, LEN(na), "Needs 2 runs of at least %d measured pairs; "
		        "there %s %zu.", MIN_PAIRS_WARMUP, lv.n == 1 ? "is" : "are", lv.n);
		goto out;
	}
	t_interval(dd.v, dd.n, c->o->level, &td);
	row = row_add(c->rep, "warmup", excludes(&tl, 0) &&
	              fabs(exp(tl.mean) - 1) > c->o->warmup_min ? CHECK_WARN : CHECK_OK, "share");
	row_interval(row, exp(tl.mean) - 1, exp(tl.lo) - 1, exp(tl.hi) - 1);
	text_add(&t, "In the first %s of each run's measured pairs %s takes %s %s time than in the "
	         "rest (%s%% CI %s to %s)", b5, c->d->ref, pct(b1, fabs(exp(tl.mean) - 1)),
	         tl.mean >= 0 ? "more" : "less", level_pct(b2, c->o->level),
	         pct(b3, exp(tl.lo) - 1), pct(b4, exp(tl.hi) - 1));
	if (row->status == CHECK_WARN && c->d->warmup >= 0)
		text_add(&t, ": the measuring began before the warm-up ended; raise --warmup "
		         "(now %lld) by %zu pairs or more.", (long long)c->d->warmup, most);
	else if (row->status == CHECK_WARN)
		text_add(&t, ": the measuring began before the warm-up ended; raise --warmup by "
		         "%zu pairs or more.", most);
	else
		text_add(&t, ": no warm-up left %s.", excludes(&tl, 0) ? "that matters" : "resolved");
	row_note(row, &t);

	row = row_add(c->rep, "warmup_d", CHECK_OK, "ns");
	row_interval(row, td.mean, td.lo, td.hi);
	text_add(&t, "In the first %s of each run the effect (median d) differs from the rest "
	         "by %s (%s%% CI %s to %s).", b5, dur(b1, td.mean), level_pct(b2, c->o->level),
	         dur(b3, td.lo), dur(b4, td.hi));
	row_note(row, &t);
out:
	per_run_free(&lv);
	per_run_free(&dd);
}

/* --- 6. outlier runs -------------------------------------------------------- */

/* A run's median d over fewer pairs than this is mostly its pairs' own
 * noise, whose tails are far from normal: with lognormal pair noise and
 * no run effect, studies of 50 runs of 5, 10 and 20 pairs crossed the
 * normal fence in 6.9 %, 2.7 % and 2.1 % (pb-check(1), outliers). */
enum { MIN_PAIRS_OUTLIERS = 20 };

static double normal(struct rng *r)
{
	double u = rng_uniform(r), v = rng_uniform(r);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* The farthest of x beyond its quartiles, in IQRs (x is reordered). */
static double iqr_distance(double *x, size_t n, double *q1, double *q3)
{
	double far = -INFINITY, iqr;
	size_t i;

	*q1 = stat_quantile(x, n, 0.25);
	*q3 = stat_quantile(x, n, 0.75);
	iqr = *q3 - *q1;
	for (i = 0; i < n; i++)
		far = fmax(far, fmax(*q1 - x[i], x[i] - *q3));
	return iqr > 0 ? far / iqr : far > 0 ? INFINITY : 0;
}

/* The fence at level 0.99, from share/dev/gen-fence (seed 20261205):
 * n = 5 .. 60 with -m 4000000, 61 .. 100 with -m 1000000 (the rate's
 * Monte Carlo standard error 2.2e-5 to 3.5e-5, and 4.5e-5, a share),
 * and the blocks of fence_far beyond with -m 250000 (9e-5). Checked by
 * plain simulation in base R, quantile type 7, the share of studies that
 * cross the fence (Rscript share/dev/verify-fence.R N K SAMPLES SEED):
 * n 5, 2e6 samples: 0.9888 % (se 0.0070); n 10, 2e6:
 * 1.0088 % (0.0071); n 20, 1e6: 0.9962 % (0.0099); n 250, 2e5: 1.018 %
 * (0.022). Off the table, gen-fence -m 200000 gives 2.6877 at n 120 and
 * 2.7611 at n 600, where fence_table gives 2.6924 and 2.7620: 0.005 IQRs
 * high at 120, which lowers the rate by about 3 % of itself (0.97 %). */
enum { FENCE_N0 = 5 };
static const double fence_near[] = {
	13.6791322, 6.90422532, 5.10334313, 4.6626985, 5.78401415, 4.66150292,
	4.12722246, 3.98949484, 4.3463779, 3.90467948, 3.66536576, 3.5992349,
	3.7733586, 3.53429282, 3.39614701, 3.36292244, 3.4621128, 3.31603464,
	3.22793263, 3.20638614, 3.27387719, 3.17246148, 3.11180547, 3.09869113,
	3.14893352, 3.07084189, 3.02902432, 3.01864485, 3.05735775, 2.99662958,
	2.96615701, 2.95960553, 2.98661492, 2.94186257, 2.91706378, 2.91283365,
	2.93652069, 2.89847096, 2.8785494, 2.87617121, 2.89445031, 2.86492484,
	2.84621025, 2.84446569, 2.86071099, 2.83550057, 2.82300513, 2.82104051,
	2.83447545, 2.81238358, 2.80023078, 2.80008529, 2.8116883, 2.79356987,
	2.783169, 2.78315291, 2.79375801, 2.77823292, 2.77075887, 2.76938104,
	2.77689221, 2.76430624, 2.75632356, 2.75729871, 2.76588115, 2.75284546,
	2.7439192, 2.74689658, 2.75316094, 2.74234952, 2.73524488, 2.73722416,
	2.74434108, 2.73366887, 2.72841014, 2.72858974, 2.73537642, 2.72567265,
	2.72028895, 2.72188951, 2.72852099, 2.71912262, 2.7138951, 2.71564435,
	2.72005939, 2.71417803, 2.70885444, 2.71001019, 2.71460821, 2.70807376,
	2.70498953, 2.70529174, 2.7125219, 2.7046538, 2.70131247, 2.70069198,
};
/* four neighbours each, n = n .. n + 3 */
static const struct {
	size_t n;
	double k[4];
} fence_far[] = {
	{ 97, { 2.7125219, 2.7046538, 2.70131247, 2.70069198 } },
	{ 148, { 2.68280352, 2.68087764, 2.68133276, 2.68016583 } },
	{ 200, { 2.68304277, 2.68531853, 2.68181341, 2.68213805 } },
	{ 248, { 2.69198844, 2.69367955, 2.69127754, 2.69007469 } },
	{ 300, { 2.70189028, 2.70002664, 2.70099094, 2.69976684 } },
	{ 400, { 2.72151298, 2.72218036, 2.72119071, 2.72233483 } },
	{ 500, { 2.7424203, 2.74134185, 2.74306513, 2.74294669 } },
	{ 700, { 2.77848587, 2.77716537, 2.77636019, 2.77694185 } },
	{ 1000, { 2.81855734, 2.81941762, 2.81831988, 2.81937725 } },
};

/* The block of fence_far that holds n's residue mod 4, and its point. */
static double fence_point(size_t blk, size_t n, size_t *at)
{
	size_t b = fence_far[blk].n, j = (n % 4 + 4 - b % 4) % 4;

	*at = b + j;
	return fence_far[blk].k[j];
}

/* The level-0.99 fence of n runs. The type-7 quartiles of n = 4j + 1
 * values are two of them, of other n a blend, so the fence goes up and
 * down with n mod 4 (0.02 IQRs at 50 runs, which moves the rate by a
 * tenth): beyond the table it is interpolated in ln n between the points
 * of its own residue, and beyond the last block it is the fence of known
 * quartiles (the farthest of n normals against q = 0.674 sd, (z_n - q)/(2q))
 * plus the last point's excess, which shrinks as the quartiles' error
 * does, 1/sqrt(n). */
static double fence_table(size_t n)
{
	const size_t last = LEN(fence_far) - 1;
	double q = -stat_qnorm(0.25), k0, k1, asym_n, asym_at;
	size_t i, n0, n1;

	if (n < FENCE_N0 + LEN(fence_near))
		return fence_near[n - FENCE_N0];
	for (i = 1; i <= last; i++) {
		k1 = fence_point(i, n, &n1);
		if (n <= n1) {
			k0 = fence_point(i - 1, n, &n0);
			return k0 + (log((double)n) - log((double)n0)) /
			       (log((double)n1) - log((double)n0)) * (k1 - k0);
		}
	}
	k1 = fence_point(last, n, &n1);
	asym_n = (stat_qnorm((1 + pow(0.99, 1.0 / (double)n)) / 2) - q) / (2 * q);
	asym_at = (stat_qnorm((1 + pow(0.99, 1.0 / (double)n1)) / 2) - q) / (2 * q);
	return asym_n + (k1 - asym_at) * sqrt((double)n1 / (double)n);
}

/* The fence that n normal run effects cross in only 1 - level of
 * studies: Tukey's 3 IQRs is crossed by 4.6 % of studies of 10 runs and
 * 13.6 % of 5 (R, 10^5 samples each), so the fence follows the number of
 * runs. At the default level it is the table's; at another level it is
 * simulated with a fixed seed, 20000 samples (the quantile's own error
 * then moves the rate by about 0.07 percentage points at 0.99). */
static double fence_for(size_t n, double level, uint64_t seed)
{
	size_t m = n * 20000 > 20000000 ? 20000000 / n : 20000, i, j;
	double *x, *far, q1, q3, k;
	struct rng r;

	if (level == 0.99)
		return fence_table(n);
	if (m < 2000)
		m = 2000;
	x = xmalloc(n * sizeof *x);
	far = xmalloc(m * sizeof *far);
	rng_seed(&r, rng_derive(seed, 0x6f75746c69657273u));
	for (i = 0; i < m; i++) {
		for (j = 0; j < n; j++)
			x[j] = normal(&r);
		far[i] = iqr_distance(x, n, &q1, &q3);
	}
	k = stat_quantile(far, m, level);
	free(x);
	free(far);
	return k;
}

static void check_outliers(struct ctx *c)
{
	double *v = xmalloc((c->nruns + 1) * sizeof *v), q1, q3, iqr, far, fence;
	int64_t *out = xmalloc((c->nruns + 1) * sizeof *out);
	size_t i, nout = 0;
	struct check_row *row;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF];

	if (c->nruns < MIN_RUNS_OUTLIERS) {
		row_na(c->rep, "outliers", "IQR", "Needs %d runs to say what an outlier run is; "
		       "there %s %zu.", MIN_RUNS_OUTLIERS, c->nruns == 1 ? "is" : "are", c->nruns);
		goto out;
	}
	for (i = 0; i < c->nruns; i++)
		v[i] = (double)c->runs[i].n;
	if (stat_median(v, c->nruns) < MIN_PAIRS_OUTLIERS) {
		row_na(c->rep, "outliers", "IQR", "Needs runs of %d pairs or more, as their median "
		       "run: the median d of fewer pairs is mostly their own noise, whose tails are "
		       "too far from normal to tell an outlier run; these have %s.", MIN_PAIRS_OUTLIERS,
		       sig(b1, stat_median(v, c->nruns)));
		goto out;
	}
	memcpy(v, c->run_d, c->nruns * sizeof *v);
	far = iqr_distance(v, c->nruns, &q1, &q3);
	iqr = q3 - q1;
	fence = c->o->fence > 0 ? c->o->fence : fence_for(c->nruns, c->o->level, c->o->seed);
	for (i = 0; i < c->nruns; i++) {
		double x = c->run_d[i], beyond = fmax(q1 - x, x - q3);

		if (beyond > 0 && (iqr == 0 || beyond > fence * iqr))
			out[nout++] = c->runs[i].run;
	}
	row = row_add(c->rep, "outliers", nout ? CHECK_WARN : CHECK_OK, "IQR");
	if (iqr > 0)
		row_value(row, fmax(far, 0));
	if (nout) {
		name_runs(&t, out, nout);
		text_add(&t, " %s an effect (median d) beyond %s IQRs of the quartiles of the runs' "
		         "effects (fences %s to %s): find out why (an interruption?) and decide with "
		         "pb-pair --exclude RUNS --why TEXT before looking at which arm it favours.",
		         nout == 1 ? "has" : "have", sig(b1, fence), dur(b2, q1 - fence * iqr),
		         dur(b3, q3 + fence * iqr));
	} else {
		text_add(&t, "No run's effect (median d) lies beyond %s IQRs of the quartiles of the "
		         "runs' effects (the farthest: %s IQRs).", sig(b1, fence), sig(b2, fmax(far, 0)));
	}
	row_note(row, &t);
out:
	free(v);
	free(out);
}

/* --- 7. partial and failed runs ------------------------------------------ */

/* Pairs that were not measured as pairs: an import from a tool that ran
 * all of A, then all of B (its "# pairing: unpaired: ..." says how). Only
 * then is there a row: a study of pb-run's is paired by design. */
static void check_pairing(struct ctx *c)
{
	struct check_row *row;
	struct text t = { 0 };
	size_t shown;

	if (!c->d->pairing || strncmp(c->d->pairing, "unpaired", 8) != 0)
		return;
	row = row_add(c->rep, "pairing", CHECK_WARN, "design");
	shown = msg_cut_len(c->d->pairing, 60);
	text_add(&t, "The input says its pairs were not measured as pairs (# pairing: %.*s%s): "
	         "the two halves of a pair were taken apart in time, so pairing cancels little, "
	         "and the order, position and carry-over checks describe the import, not a "
	         "randomized study; read the interval over runs, and measure with pb-run to "
	         "compare.", (int)shown, c->d->pairing, c->d->pairing[shown] ? "..." : "");
	row_note(row, &t);
}

static void check_partial(struct ctx *c)
{
	int64_t want = c->d->pairs, *shortrun = xmalloc((c->nruns + 1) * sizeof *shortrun);
	size_t i, nshort = 0, first_n = 0;
	const struct check_events *ev = c->ev;
	struct check_row *row;
	struct text t = { 0 };
	int known = want > 0, said = 0;

	if (!known)
		for (i = 0; i < c->nruns; i++)
			if ((int64_t)c->runs[i].n > want)
				want = (int64_t)c->runs[i].n;
	for (i = 0; i < c->nruns; i++)
		if ((int64_t)c->runs[i].n < want) {
			if (!nshort)
				first_n = c->runs[i].n;
			shortrun[nshort++] = c->runs[i].run;
		}
	row = row_add(c->rep, "partial", nshort || ev->n || ev->failed_pairs ? CHECK_WARN : CHECK_OK,
	              "runs");
	row_value(row, (double)nshort);
	if (nshort) {
		name_runs(&t, shortrun, nshort);
		if (nshort == 1)
			text_add(&t, " has %zu of %lld measured pairs", first_n, (long long)want);
		else
			text_add(&t, " have fewer than %lld measured pairs", (long long)want);
		if (!known)
			text_add(&t, " (the most any run has; the head does not say how many were planned)");
		said = 1;
	}
	for (i = 0; i < ev->n; i++)
		text_add(&t, "%s# %s", said++ ? "; " : "", ev->text[i]);
	if (ev->more)
		text_add(&t, "; and %zu more such comments", ev->more);
	if (ev->failed_pairs)
		text_add(&t, "%spb-pair dropped %ld pair%s with a failed observation", said++ ? "; " : "",
		         ev->failed_pairs, ev->failed_pairs == 1 ? "" : "s");
	if (said)
		text_add(&t, ": a run cut short is not like the others (what stopped it may have "
		         "changed it), so look at why before trusting the interval.");
	else if (known)
		text_add(&t, "Every run has its %lld measured pairs, and no failure was recorded.",
		         (long long)want);
	else
		text_add(&t, "Every run has %lld measured pairs (the head does not say how many were "
		         "planned), and no failure was recorded.", (long long)want);
	row_note(row, &t);
	free(shortrun);
}

/* --- 8. bimodal load -------------------------------------------------------- */

/* x = ln(median a / median b) and y = the median of the paired ln(a/b) of
 * one run, and the bootstrap standard error of y over its pairs. */
struct two_ratios {
	double x, y, se;
};

static struct two_ratios two_ratios(struct ctx *c, const struct check_run *run, size_t index)
{
	struct two_ratios tr;
	struct welford w = { 0, 0, 0, 0 };
	struct rng r;
	long b;
	size_t j;

	c->c1.n = c->c2.n = c->c3.n = 0;
	for (j = 0; j < run->n; j++) {
		cell_add(&c->c1, run->p[j].a);
		cell_add(&c->c2, run->p[j].b);
		cell_add(&c->c3, stat_log_ratio(run->p[j].a, run->p[j].b));
	}
	tr.x = stat_log_ratio(cell_median(&c->c1), cell_median(&c->c2));
	tr.y = cell_median(&c->c3);
	rng_seed(&r, rng_derive(c->o->seed, (uint64_t)index));
	for (b = 0; b < c->o->resamples; b++) {
		c->c4.n = 0;
		for (j = 0; j < run->n; j++) {
			const struct check_pair *p = &run->p[rng_below(&r, (uint32_t)run->n)];
			cell_add(&c->c4, stat_log_ratio(p->a, p->b));
		}
		welford_add(&w, cell_median(&c->c4));
	}
	tr.se = sqrt(welford_var(&w));
	return tr;
}

static void check_bimodal(struct ctx *c)
{
	struct two_ratios *tr = xmalloc((c->nruns + 1) * sizeof *tr), worst = { 0, 0, 0 };
	int64_t *bad = xmalloc((c->nruns + 1) * sizeof *bad);
	size_t i, used = 0, nbad = 0;
	double lev, z, far = -1;
	int64_t wrun = 0;
	struct check_row *row;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF];

	for (i = 0; i < c->nruns; i++)
		if (c->runs[i].n >= MIN_PAIRS_BIMODAL)
			used++;
	if (!used) {
		row_na(c->rep, "bimodal", "ratio", "Needs a run of at least %d pairs.",
		       MIN_PAIRS_BIMODAL);
		goto out;
	}
	lev = shared_level(c->o, (double)used);
	z = stat_qnorm(1 - (1 - lev) / 2);
	for (i = 0; i < c->nruns; i++) {
		double gap;

		if (c->runs[i].n < MIN_PAIRS_BIMODAL)
			continue;
		tr[i] = two_ratios(c, &c->runs[i], i);
		gap = fabs(tr[i].x - tr[i].y) - z * tr[i].se;
		if (gap > 0)
			bad[nbad++] = c->runs[i].run;
		if (tr[i].se > 0 ? fabs(tr[i].x - tr[i].y) / tr[i].se > far : far < 0)
			far = tr[i].se > 0 ? fabs(tr[i].x - tr[i].y) / tr[i].se : 0, worst = tr[i],
			wrun = c->runs[i].run;
	}
	row = row_add(c->rep, "bimodal", nbad ? CHECK_WARN : CHECK_OK, "ratio");
	row_interval(row, exp(worst.x - worst.y), exp(-z * worst.se), exp(z * worst.se));
	if (nbad) {
		text_add(&t, "In ");
		name_runs(&t, bad, nbad);
		text_add(&t, " the ratio of the arms' medians and the median of the paired ratios "
		         "disagree by more than the paired median's bootstrap uncertainty (run %lld: "
		         "%s against %s): each arm's times have separate levels (a load that comes "
		         "and goes, or order and carry-over effects) and its median jumps between "
		         "them; reduce with pb-pair --by-run --stat lr-median.",
		         (long long)wrun, sig(b1, exp(worst.x)), sig(b2, exp(worst.y)));
	} else {
		text_add(&t, "In every run the ratio of the arms' medians agrees with the median of "
		         "the paired ratios (the farthest, run %lld: %s against %s, within %s%% "
		         "bounds of %s to %s of their ratio).", (long long)wrun, sig(b1, exp(worst.x)),
		         sig(b2, exp(worst.y)), level_pct(b5, lev), sig(b3, exp(-z * worst.se)),
		         sig(b4, exp(z * worst.se)));
	}
	row_note(row, &t);
out:
	free(tr);
	free(bad);
}

/* --- 9. spread --------------------------------------------------------------- */

static void check_spread(struct ctx *c)
{
	struct per_run s;
	struct tiv t;
	struct check_row *row;
	struct text n = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF];
	double k = c->o->spread_ratio, ratio;
	size_t i, j;

	per_run_init(&s, c->nruns);
	for (i = 0; i < c->nruns; i++) {
		const struct check_run *run = &c->runs[i];
		double ia, ib;

		if (run->n < MIN_PAIRS_SPREAD)
			continue;
		c->c1.n = c->c2.n = 0;
		for (j = 0; j < run->n; j++) {
			cell_add(&c->c1, run->p[j].a);
			cell_add(&c->c2, run->p[j].b);
		}
		ia = stat_quantile(c->c1.x, c->c1.n, 0.75) - stat_quantile(c->c1.x, c->c1.n, 0.25);
		ib = stat_quantile(c->c2.x, c->c2.n, 0.75) - stat_quantile(c->c2.x, c->c2.n, 0.25);
		if (ia > 0 && ib > 0)
			per_run_add(&s, run->run, log(ib / ia));
	}
	if (t_interval(s.v, s.n, c->o->level, &t) < 0) {
		row_na(c->rep, "spread", "ratio", "Needs 2 runs of at least %d pairs whose arms both "
		       "vary (IQR > 0); there %s %zu.", MIN_PAIRS_SPREAD, s.n == 1 ? "is" : "are", s.n);
		goto out;
	}
	ratio = exp(t.mean);
	row = row_add(c->rep, "spread", excludes(&t, 0) && (ratio >= k || ratio <= 1 / k)
	              ? CHECK_WARN : CHECK_OK, "ratio");
	row_interval(row, ratio, exp(t.lo), exp(t.hi));
	text_add(&n, "%s's spread within a run (IQR) is %s times %s's (%s%% CI %s to %s)",
	         c->d->cand, sig(b1, ratio), c->d->ref, level_pct(b2, c->o->level),
	         sig(b3, exp(t.lo)), sig(b4, exp(t.hi)));
	if (row->status == CHECK_WARN)
		text_add(&n, ": %s is %s variable than %s, which an interval of a mean or a median "
		         "does not show.", c->d->cand, ratio > 1 ? "more" : "less", c->d->ref);
	else
		text_add(&n, ": no difference of %s or more resolved.", sig(b1, k));
	row_note(row, &n);
out:
	per_run_free(&s);
}

/* --- 10. positions, with more than two arms ----------------------------------- */

/* The chi-square statistic of counts[0 .. k-1] against equal shares, and
 * its upper tail (df = k - 1). */
static double chi_square(const long *counts, int k, double *p)
{
	double n = 0, x = 0, e;
	int i;

	for (i = 0; i < k; i++)
		n += (double)counts[i];
	e = n / k;
	for (i = 0; i < k && e > 0; i++)
		x += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
	*p = stat_pchisq_upper(x, k - 1);
	return x;
}

/* "34%, 33% and 33%": the shares of the places. */
static void place_shares(struct text *t, const long *counts, int k)
{
	double n = 0;
	char b[NUMBUF];
	int i;

	for (i = 0; i < k; i++)
		n += (double)counts[i];
	for (i = 0; i < k; i++)
		text_add(t, "%s%s", i == 0 ? "" : i + 1 == k ? " and " : ", ",
		         pct(b, n > 0 ? (double)counts[i] / n : 0));
}

void check_positions(const char *arm, const int64_t *runs, const long *counts,
                     size_t nruns, int k, const struct check_opts *o,
                     struct check_report *rep)
{
	long *all = xcalloc((size_t)k, sizeof *all), n = 0;
	double lev_all = shared_level(o, 2), lev_run = shared_level(o, 2 * (double)nruns);
	double x, p, wx = 0, wp = 2, rp;
	size_t i, worst = 0;
	int j;
	struct check_row *r;
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF];

	for (i = 0; i < nruns; i++) {
		double rx = chi_square(counts + i * (size_t)k, k, &rp);

		if (rp < wp)
			wp = rp, wx = rx, worst = i;
		for (j = 0; j < k; j++)
			all[j] += counts[i * (size_t)k + (size_t)j], n += counts[i * (size_t)k + (size_t)j];
	}
	x = chi_square(all, k, &p);
	r = row_add(rep, "positions", p < 1 - lev_all ? CHECK_WARN : CHECK_OK, "chi2");
	row_value(r, x);
	text_add(&t, "%s ran at places 1 to %d in ", arm, k);
	place_shares(&t, all, k);
	text_add(&t, " of its %ld pairs (chi-square %s, df %d, p = %s)", n, sig(b1, x), k - 1,
	         sig(b2, p));
	text_add(&t, r->status == CHECK_WARN ? ": not each place 1/%d of the time (at %s%%), so "
	         "the arm and its place cannot be told apart." : ": each place about 1/%d of the "
	         "time.", k, level_pct(b1, lev_all));
	row_note(r, &t);
	r = row_add(rep, "positions_run", wp < 1 - lev_run ? CHECK_WARN : CHECK_OK, "chi2");
	row_value(r, wx);
	if (nruns) {
		text_add(&t, "The least balanced run, run %lld, had %s at places 1 to %d in ",
		         (long long)runs[worst], arm, k);
		place_shares(&t, counts + worst * (size_t)k, k);
		text_add(&t, " of its pairs (chi-square %s, p = %s, at the %s%% level shared by %zu "
		         "runs): %s", sig(b1, wx), sig(b2, wp), level_pct(b3, lev_run), nruns,
		         r->status == CHECK_WARN ? "its order is not balanced." :
		         "within what chance gives.");
	}
	row_note(r, &t);
	free(all);
}

/* --- 10. the shape of the runs' values ------------------------------------ */

/* The t sequence (lib/seq.c) is exact for normal per-run values. Skewed
 * ones (lognormal, sigma 1) make it miss the mean in up to 22 % of
 * studies, two humps in 14 % (share/dev/sim-skew); heavy tails do not
 * hurt it. So: D'Agostino's skewness test, two-sided, and Anscombe and
 * Glynn's kurtosis test, on the flat side only, each at the level of a
 * check of two tests, on each run's log ratio as pb-run --until looks at
 * it: by the study's statistic (lib/runstat). */
enum { MIN_RUNS_SKEW = 8 };

/* Each run's log ratio by the statistic o->stat, into x. */
static void run_log_ratios(struct ctx *c, double *x)
{
	size_t i, j;

	for (i = 0; i < c->nruns; i++) {
		const struct check_run *run = &c->runs[i];

		c->c1.n = c->c2.n = 0;
		for (j = 0; j < run->n; j++) {
			cell_add(&c->c1, run->p[j].a);
			cell_add(&c->c2, run->p[j].b);
		}
		x[i] = run->n ? run_stat_log_ratio(&c->o->stat, c->c1.x, c->c2.x, run->n) : NAN;
	}
}

static void check_skew(struct ctx *c)
{
	double lev = shared_level(c->o, 2), g1, zs, b2, zk, *x;
	double cs = stat_qnorm(1 - (1 - lev) / 2), ck = stat_qnorm(lev);
	int skewed, flat, median = c->d->seq_kind && strcmp(c->d->seq_kind, "median") == 0;
	struct check_row *row;
	struct text t = { 0 };
	char b1[NUMBUF], b2s[NUMBUF], b3[NUMBUF], b4[NUMBUF], zt[NUMBUF + 8];

	if (c->nruns < MIN_RUNS_SKEW) {
		row_na(c->rep, "skew", "g1", "Needs %d runs to judge the shape of the runs' log "
		       "ratios; there %s %zu.", MIN_RUNS_SKEW, c->nruns == 1 ? "is" : "are", c->nruns);
		return;
	}
	x = xmalloc(c->nruns * sizeof *x);
	run_log_ratios(c, x);
	if (stat_skew_test(x, c->nruns, &g1, &zs) < 0 ||
	    stat_kurtosis_test(x, c->nruns, &b2, &zk) < 0) {
		row_na(c->rep, "skew", "g1", "The runs' log ratios do not vary: they have no shape "
		       "to judge.");
		free(x);
		return;
	}
	free(x);
	skewed = fabs(zs) > cs;
	flat = zk < -ck;
	row = row_add(c->rep, "skew", (skewed || flat) && !median ? CHECK_WARN : CHECK_OK, "g1");
	row_value(row, g1);
	/* z is minus infinity where the kurtosis is flatter than the test reaches */
	if (skewed)
		snprintf(zt, sizeof zt, "z = %s", sig(b4, zs));
	else if (flat && isinf(zk))
		snprintf(zt, sizeof zt, "beyond the test's reach");
	else
		snprintf(zt, sizeof zt, "z = %s", sig(b4, zk));
	if (skewed || flat)
		text_add(&t, "The runs' log ratios are %s (%s %s, %s): under that shape the t "
		         "sequence, and less so the t interval, can miss the true ratio more often "
		         "than its level; %s",
		         skewed ? "skewed" : "flat or two-humped", skewed ? "skewness" : "kurtosis",
		         sig(b1, skewed ? g1 : b2), zt,
		         median ? "this study's median sequence, of the median run, is valid whatever "
		         "their shape." : "the median sequence, of the median run, is valid whatever "
		         "their shape (pb-tint --sequence median; pb-compare --sequence median for a "
		         "new study).");
	else
		text_add(&t, "Neither skew nor a flat or two-humped shape is resolved in the runs' "
		         "log ratios (skewness %s, z = %s; kurtosis %s, z = %s; a normal's: 0 and 3).",
		         sig(b1, g1), sig(b2s, zs), sig(b3, b2), sig(b4, zk));
	row_note(row, &t);
}

/* --- 12. the machine beside the data ------------------------------------------ */

/* A governor that changes the clock with the load: any but performance
 * (each CPU's, comma-separated), where there is one to know. */
static int scaling_governor(const char *g)
{
	size_t len;

	for (; g && *g; g += len + (g[len] == ',')) {
		len = strcspn(g, ",");
		if (!(len == 11 && memcmp(g, "performance", 11) == 0) &&
		    !(len == 4 && memcmp(g, "none", 4) == 0) &&
		    !(len == 7 && memcmp(g, "unknown", 7) == 0))
			return 1;
	}
	return 0;
}

/* ", and the governor G does not scale the clock", or "" when it is not
 * known. */
static const char *steady_governor(char *b, size_t size, const char *g)
{
	if (!g || strcmp(g, "unknown") == 0)
		snprintf(b, size, "%s", "");
	else if (strcmp(g, "none") == 0)
		snprintf(b, size, ", and no governor scales the clock (# machine.governor: none)");
	else
		snprintf(b, size, ", and the governor %.100s does not scale the clock", g);
	return b;
}

/* A run_end line's reading and where it stood among them. */
struct psi_at {
	int64_t run;
	size_t line;
	double pct;
};

static int psi_cmp(const void *x, const void *y)
{
	const struct psi_at *a = x, *b = y;

	if (a->run != b->run)
		return (a->run > b->run) - (a->run < b->run);
	return (a->line > b->line) - (a->line < b->line);
}

/* The CPU pressure of each run of the data, into v (c->nruns long): one
 * "# run_end:" a run, the first where a stream repeats one (cat of two
 * files), none for a run the data does not have. How many. */
static size_t runs_psi(const struct ctx *c, double *v)
{
	size_t i, n = 0, m = c->ev->npsi, lo, hi;
	struct psi_at *s = xmalloc((m ? m : 1) * sizeof *s);

	for (i = 0; i < m; i++)
		s[i] = (struct psi_at){ c->ev->psi[i].run, i, c->ev->psi[i].pct };
	qsort(s, m, sizeof *s, psi_cmp);
	for (i = 0; i < c->nruns; i++) {
		int64_t r = c->runs[i].run;

		for (lo = 0, hi = m; lo < hi;) {   /* the first entry of run r, if any */
			size_t mid = lo + (hi - lo) / 2;

			if (s[mid].run < r)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m && s[lo].run == r)
			v[n++] = s[lo].pct;
	}
	free(s);
	return n;
}

static void check_env(struct ctx *c)
{
	const char *g = c->d->governor;
	size_t n;
	double *v, med = 0;
	int pressed, scaling = scaling_governor(g);
	struct check_row *row;
	struct text t = { 0 };
	char b[SIGBUF], b2[SIGBUF], gov[160];

	steady_governor(gov, sizeof gov, g);
	v = xmalloc((c->nruns ? c->nruns : 1) * sizeof *v);
	n = runs_psi(c, v);
	if (n)   /* to 0.01 %, as pb-run reads it: a median of two is not finer */
		med = round(stat_median(v, n) * 100) / 100;
	free(v);
	if (!n && !gov[0] && !scaling) {
		row_na(c->rep, "env", "%", "The stream records neither the CPU pressure of its runs "
		       "(# run_end: psi_run=) nor the governor (# machine.governor:): a pb-run "
		       "before it did, or a system without them.");
		return;
	}
	pressed = n && c->o->pressure <= 100 && med >= c->o->pressure;   /* above 100: off */
	row = row_add(c->rep, "env", pressed || scaling ? CHECK_WARN : CHECK_OK, "%");
	if (n)
		row_value(row, med);
	if (pressed)
		text_add(&t, "The runs ran under CPU pressure, a task waiting for a CPU %s%% of the "
		         "median run's time (psi_run of # run_end:, of %zu run%s; %s%% or more warns)%s",
		         sig(b, med), n, n == 1 ? "" : "s", sig(b2, c->o->pressure),
		         scaling ? "" : ": other work took the CPUs, by turns that differ from run "
		         "to run, so stop it or give the study idle CPUs (pb-run --env, --cpu).");
	if (scaling)
		text_add(&t, "%s governor %s%s changes the clock with the load, so runs may differ "
		         "in speed: set it to performance%s (pb-run --env says how).",
		         pressed ? ", and with the scaling" : "The CPU frequency", g,
		         pressed ? ", which" : "", pressed ? " and stop the other work" : "");
	if (!pressed && !scaling && n)
		text_add(&t, "The median run's CPU pressure was %s%% (psi_run of # run_end:, of %zu "
		         "run%s; %s%% or more warns)%s.", sig(b, med), n, n == 1 ? "" : "s",
		         sig(b2, c->o->pressure), gov);
	else if (!pressed && !scaling)
		text_add(&t, "The stream records no CPU pressure of its runs%s.", gov);
	row_note(row, &t);
}

/* --- all ------------------------------------------------------------------------ */

/* --- 13. hosts --------------------------------------------------------------- */

/* The host of a run, from its "# run:" line, or NULL. */
static const char *host_of(const struct check_events *ev, int64_t run)
{
	size_t i;

	for (i = 0; i < ev->nhosts; i++)
		if (ev->hosts[i].run == run)
			return ev->hosts[i].host;
	return NULL;
}

/* The runs' log ratios grouped by host: names, counts, and each run's
 * host index (or -1 for a run whose host is unknown). */
struct by_host {
	struct strmap names;
	size_t *n;
	long *of_run;
};

static void by_host_make(struct ctx *c, struct by_host *b)
{
	const char *h;
	size_t i, g, cap = 0;

	memset(b, 0, sizeof *b);
	b->of_run = xmalloc((c->nruns + 1) * sizeof *b->of_run);
	for (i = 0; i < c->nruns; i++) {
		h = host_of(c->ev, c->runs[i].run);
		b->of_run[i] = -1;
		if (!h)
			continue;
		g = strmap_intern(&b->names, h, strlen(h));
		xgrow_zero(&b->n, &cap, g + 1, sizeof *b->n);
		b->n[g]++;
		b->of_run[i] = (long)g;
	}
}

/* Means and squared standard errors of the hosts of 2 runs or more
 * (whose runs vary), into y and v; their indices into at. Their count. */
static size_t host_means_of(struct ctx *c, const struct by_host *b, const double *x,
                            double *y, double *v, double *nr, size_t *at)
{
	double *h = xmalloc((c->nruns + 1) * sizeof *h);
	struct host_mean m;
	size_t g, i, n, k = 0;

	for (g = 0; g < b->names.n; g++) {
		for (i = 0, n = 0; i < c->nruns; i++)
			if (b->of_run[i] == (long)g && isfinite(x[i]))
				h[n++] = x[i];
		if (n < 2)
			continue;
		m = host_mean_of(h, n, 0.95);
		if (!(m.se > 0))
			continue;
		y[k] = m.mean, v[k] = m.se * m.se, nr[k] = m.n, at[k++] = g;
	}
	free(h);
	return k;
}

static void hosts_says(struct ctx *c, const struct by_host *b, const struct hosts_re *r,
                       const double *y, const size_t *at, size_t k, int warn)
{
	struct check_row *row = row_add(c->rep, "hosts", warn ? CHECK_WARN : CHECK_OK, "I2");
	struct text t = { 0 };
	char b1[NUMBUF], b2[NUMBUF], b3[NUMBUF], b4[NUMBUF], b5[NUMBUF], b6[NUMBUF];
	const char *name = b->names.key[at[r->most]];

	row_value(row, r->i2);
	if (warn)
		text_add(&t, "The hosts disagree beyond what their runs explain (Welch's F = %s, p = "
		         "%s; I2 = %s%%), and host %s stands out most: its runs give an A/B ratio of "
		         "%s where the hosts together give %s (standardized residual %s); the pooled "
		         "interval then speaks for these hosts only: read pb-tint --unit host, whose "
		         "prediction interval is what another machine would show.",
		         sig(b1, r->f), sig(b2, r->f_p), sig(b3, 100 * r->i2), name,
		         sig(b4, exp(y[r->most])), sig(b5, exp(r->mu)), sig(b6, r->most_z));
	else
		text_add(&t, "The %zu hosts agree within what their runs explain (Welch's F = %s, "
		         "p = %s; I2 = %s%%).", k, sig(b1, r->f), sig(b2, r->f_p),
		         sig(b3, 100 * r->i2));
	row_note(row, &t);
}

static void check_hosts(struct ctx *c)
{
	struct by_host b;
	struct hosts_re r;
	double *x, *y, *v, *nr;
	size_t *at, k;

	by_host_make(c, &b);
	x = xmalloc((4 * c->nruns + 1) * sizeof *x);
	y = x + c->nruns, v = y + c->nruns, nr = v + c->nruns;
	at = xmalloc((c->nruns + 1) * sizeof *at);
	run_log_ratios(c, x);
	k = host_means_of(c, &b, x, y, v, nr, at);
	/* a study of one machine has no hosts to compare: no row, as a
	 * study that is not a duet has no duet_cpu (an n/a would read as
	 * "too little data" in findings and reports) */
	if (b.names.n < 2)
		;
	else if (k < 2)
		row_na(c->rep, "hosts", "I2", "Fewer than 2 of the %zu hosts have 2 runs or more "
		       "that vary: no host has a spread of its own to compare the others with.",
		       b.names.n);
	else {
		hosts_re_of(y, v, nr, k, c->o->level, &r);
		hosts_says(c, &b, &r, y, at, k, r.f_p < 1 - c->o->level);
	}
	free(x), free(at), free(b.n), free(b.of_run);
	strmap_free(&b.names);
}

void check_study(const struct check_run *runs, size_t nruns, const struct check_design *d,
                 const struct check_events *ev, const struct check_opts *o,
                 struct check_report *rep)
{
	struct ctx c;

	memset(&c, 0, sizeof c);
	c.runs = runs;
	c.nruns = nruns;
	c.d = d;
	c.ev = ev;
	c.o = o;
	c.rep = rep;
	if (d->arms > 2)
		snprintf(c.ref_first, sizeof c.ref_first, "%.8s before %.8s", d->ref, d->cand);
	else
		snprintf(c.ref_first, sizeof c.ref_first, "%.8s first", d->ref);
	c.run_d = xmalloc((nruns + 1) * sizeof *c.run_d);
	check_pairing(&c);
	if (d->duet) {
		check_duet_cpu(&c);
	} else {
		check_order(&c);
		check_split(&c, &by_place);
	}
	check_carry(&c);
	check_drift(&c);
	check_warmup(&c);
	check_outliers(&c);
	check_partial(&c);
	check_bimodal(&c);
	check_spread(&c);
	check_skew(&c);
	check_env(&c);
	check_hosts(&c);
	free(c.run_d);
	free(c.c1.x);
	free(c.c2.x);
	free(c.c3.x);
	free(c.c4.x);
}

/* The methods of order, position and carry: a study whose arms ran
 * one after the other. */
static void order_methods(const struct check_opts *o, struct check_report *rep, const char *l,
                          const char *l2, char s[NUMBUF])
{
	method_add(rep, "order", "share of the pairs with A first; Clopper-Pearson intervals of "
	           "all pairs at %s%% and of each run at 1 - (1 - level)/(2 runs); warns when one "
	           "excludes 1/2", l2);
	method_add(rep, "position", "per run m1, m2 = the median d of the A-first and of the "
	           "B-first pairs; effect = (m1 + m2)/2 (order-adjusted), position = (m2 - m1)/2 (what "
	           "the second place of a pair saves); t intervals over runs at %s%%; warns when "
	           "position's excludes 0 and |position| > %s |effect|", l, sig(s, o->position_share));
	method_add(rep, "carry", "per run, for the arm X that starts a pair: its median time after "
	           "a pair that ended with B less after one that ended with A (neighbouring pair "
	           "numbers; within a pair carry-over and position cannot be told apart); t intervals "
	           "over runs at %s%% each; warns when one excludes 0; carry-adjusted effect = effect "
	           "- (carry_b - 3 carry_a)/4 (carry-over adds to what follows, the same position "
	           "effect for both arms)", l2);
}

void check_methods(const struct check_opts *o, int arms, int duet, struct check_report *rep)
{
	char l[NUMBUF], l2[NUMBUF], s[NUMBUF], fence[160];

	level_pct(l, o->level);
	level_pct(l2, shared_level(o, 2));
	method_add(rep, "level", "%s%% (each check warns on clean data in at most %s%% of "
	           "studies; a check of k tests gives each 1 - (1 - level)/k)", l,
	           level_pct(s, 1 - o->level));
	if (duet)
		method_add(rep, "duet_cpu", "in place of order and position, as the arms of a pair "
		           "ran at once: per run m1, m2 = the median d of the pairs where A had the "
		           "second CPU of # duet_cpus: and of those where it had the first; effect = "
		           "(m1 + m2)/2 (CPU-adjusted), duet_cpu = (m2 - m1)/2 (how much longer an arm "
		           "takes on the second CPU than on the first); t intervals over runs at %s%%; "
		           "warns when duet_cpu's "
		           "excludes 0 and |duet_cpu| > %s |effect|; carry is n/a", l,
		           sig(s, o->position_share));
	else
		order_methods(o, rep, l, l2, s);
	method_add(rep, "drift", "least-squares slopes against the run number, t intervals with "
	           "df = runs - 2: of each run's median d and of its ln(median a / median b), at "
	           "%s%% each, warn when one excludes 0; of the level (median a + median b)/2 at "
	           "%s%%, reported, with r of the runs' medians of a and b", l2, l);
	method_add(rep, "warmup", "per run (of %d pairs or more) the first ceil(%s n) measured "
	           "pairs against the rest: ln of the ratio of the medians of a, t interval over "
	           "runs at %s%%; warns when it excludes 0 and the level differs by more than %s; "
	           "warmup_d: the difference of the medians of d, reported", MIN_PAIRS_WARMUP,
	           sig(s, o->warmup_share), l, pct(l2, o->warmup_min));
	if (o->fence > 0)
		snprintf(fence, sizeof fence, "%s", sig(s, o->fence));
	else if (o->level == 0.99)
		snprintf(fence, sizeof fence, "the fence that %s%% of studies of as many normal run effects "
		         "stay within (share/dev/gen-fence's table)", l);
	else
		snprintf(fence, sizeof fence, "the fence that %s%% of studies of as many normal run effects "
		         "stay within (simulated, seed %llu)", l, (unsigned long long)o->seed);
	method_add(rep, "outliers", "each run's median d against the quartiles of them all (R's "
	           "type 7, %d runs or more, of %d pairs or more as their median run); value = the "
	           "farthest run's distance beyond them in IQRs; warns beyond %s", MIN_RUNS_OUTLIERS,
	           MIN_PAIRS_OUTLIERS, fence);
	method_add(rep, "partial", "runs with fewer measured pairs than the head's pairs; "
	           "# failed:, # run_ended: and # interrupted: comments; # pb-pair.failed_pairs; "
	           "warns when there is any");
	method_add(rep, "bimodal", "per run (of %d pairs or more) ln(median a / median b) against "
	           "the median of the paired ln(a/b), whose standard error comes from %ld bootstrap "
	           "resamples of the pairs (seed %llu); warns when a run's disagree by more than z "
	           "standard errors, z the normal quantile of 1 - (1 - level)/(2 runs); value = the "
	           "ratio of the two of the run farthest off, lo and hi its bounds",
	           MIN_PAIRS_BIMODAL, o->resamples, (unsigned long long)o->seed);
	method_add(rep, "spread", "per run ln(IQR of b / IQR of a) (R's type 7), t interval over "
	           "runs at %s%%; warns when it excludes 0 and the ratio is %s or more, or 1/%s or "
	           "less", l, sig(s, o->spread_ratio), sig(l2, o->spread_ratio));
	method_add(rep, "skew", "each run's log ratio by the statistic %s (the head's # seq_stat:, "
	           "or --stat; median: ln(median a / median b)), %d runs or more: D'Agostino's "
	           "test of skewness, two-sided, and Anscombe and Glynn's of kurtosis, on the flat "
	           "side, at %s%% each; warns when one rejects (a skewed or two-humped "
	           "shape, under which the t sequence is not valid), but for a study stopped by the "
	           "median sequence; value = the skewness g1", o->stat.name, MIN_RUNS_SKEW,
	           level_pct(l2, shared_level(o, 2)));
	method_add(rep, "env", "the median over runs of psi_run (# run_end:, pb-run's reading of "
	           "/proc/pressure/cpu: the share of the run's time a task waited for a CPU, in %%), "
	           "and the head's # machine.governor:; warns at a median of %s%% or more, or "
	           "with a governor other than performance (one that scales the clock); n/a "
	           "without either", sig(s, o->pressure));
	method_add(rep, "hosts", "a merged study's runs grouped by the host their # run: line "
	           "names; each host of 2 runs or more reduced to the mean of its runs' log ratios "
	           "(by the statistic %s) with its standard error s/sqrt(n); Welch's "
	           "heteroscedastic F test of the host means (R's oneway.test; Cochran's Q, which "
	           "takes the standard errors as known, warns far beyond its level with a few runs "
	           "a host): warns when p < %s (the hosts disagree beyond their runs), naming the host of the largest standardized residual "
	           "(common effect); value = I2, the DerSimonian-Laird share of the spread between "
	           "hosts; no row for runs of one host, n/a with fewer than 2 hosts of 2 runs",
	           o->stat.name, sig(s, 1 - o->level));
	if (arms > 2 && !duet)
		method_add(rep, "positions", "with %d arms, per arm: how often it ran at each place "
		           "of a pair (pos_a, pos_b), against 1/%d each: the chi-square test (df %d) of "
		           "all pairs at %s%% and of each run at 1 - (1 - level)/(2 runs); warns when "
		           "p is below 1 - those levels. With %d arms the other checks compare each "
		           "candidate with the reference: A and B in the notes above are the reference "
		           "and the candidate", arms, arms, arms - 1, level_pct(l2, shared_level(o, 2)),
		           arms);
}

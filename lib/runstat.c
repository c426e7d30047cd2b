#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "opt.h"
#include "runstat.h"
#include "stats.h"

static const char *const run_stat_names[] = { "median", "mean", "min", "lr-median" };

int run_stat_read(struct run_stat *st, const char *val)
{
	size_t i;
	double p;

	for (i = 0; i < LEN(run_stat_names); i++)
		if (strcmp(val, run_stat_names[i]) == 0) {
			st->kind = (enum run_stat_kind)i, st->name = val;
			return 0;
		}
	if (strcmp(val, "p90") == 0 || strcmp(val, "p99") == 0)
		p = val[2] == '0' ? 0.9 : 0.99;
	else if (val[0] != 'q' || val[1] == '-' || val[1] == '+' || num_parse(val + 1, &p) < 0 ||
	         !(p >= 0 && p <= 1))
		return -1;
	st->kind = RUN_QUANTILE, st->p = p, st->name = val;
	return 0;
}

void run_stat_parse(struct run_stat *st, const char *name, const char *val)
{
	st->kind = (enum run_stat_kind)opt_stat(name, val, run_stat_names, LEN(run_stat_names),
	                                        &st->p);
	st->name = val;
}

double run_stat_reduce(const struct run_stat *st, double *x, size_t n)
{
	switch (st->kind) {
	case RUN_MEAN: return stat_mean(x, n);
	case RUN_MIN: return stat_min(x, n);
	case RUN_QUANTILE: return stat_quantile(x, n, st->p);
	default: return stat_median(x, n);
	}
}

double run_stat_paired_lr_median(const double *a, const double *b, size_t n)
{
	double *lr = xmalloc(n * sizeof *lr), m;
	size_t i;

	for (i = 0; i < n; i++)
		lr[i] = stat_log_ratio(a[i], b[i]);
	m = stat_median(lr, n);
	free(lr);
	return m;
}

double run_stat_log_ratio(const struct run_stat *st, double *a, double *b, size_t n)
{
	if (st->kind == RUN_LR_MEDIAN)
		return run_stat_paired_lr_median(a, b, n);
	return stat_log_ratio(run_stat_reduce(st, a, n), run_stat_reduce(st, b, n));
}

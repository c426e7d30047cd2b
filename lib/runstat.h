/* runstat: the statistic that reduces a run to one value per arm, shared
 * by pb-pair --by-run --stat and pb-run --until --stat, so that a study
 * stopped by pb-run and analysed afterwards by pb-pair | pb-logratio |
 * pb-tint reads the same numbers. */
#ifndef PB_RUNSTAT_H
#define PB_RUNSTAT_H

#include <stddef.h>

enum run_stat_kind { RUN_MEDIAN, RUN_MEAN, RUN_MIN, RUN_LR_MEDIAN, RUN_QUANTILE };

struct run_stat {
	enum run_stat_kind kind;
	double p;            /* RUN_QUANTILE's p (R's type 7) */
	const char *name;    /* as given: "median", "p99", "q0.95" ... */
};

/* --NAME VAL: median, mean, min, lr-median, p90, p99 or qQ; else a usage
 * error. */
void run_stat_parse(struct run_stat *st, const char *name, const char *val);
/* The same, as read from a stream (val kept): 0, or -1 when it is none of
 * those, for the caller to say so. */
int run_stat_read(struct run_stat *st, const char *val);
/* The statistic of x[0..n) (n >= 1); x is reordered. lr-median reduces
 * each arm by its median. */
double run_stat_reduce(const struct run_stat *st, double *x, size_t n);
/* The run's log ratio as the by-run pipeline gives it: ln(a/b) of the two
 * reductions (pb-logratio), or for lr-median the median of the pairs'
 * ln(a_i/b_i). a and b (n pairs, times > 0) are reordered. */
double run_stat_log_ratio(const struct run_stat *st, double *a, double *b, size_t n);
/* The median of the pairs' ln(a_i/b_i); a and b are left as they were. */
double run_stat_paired_lr_median(const double *a, const double *b, size_t n);

#endif

/* stats: descriptive statistics and the distributions the tools need.
 * Quantile definition: R's type 7 (linear between order statistics).
 * Medians of even counts are the mean of the two middle values. */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stddef.h>

/* Welford's running mean and sum of squared deviations, of the values
 * less the first one (zero-initialize; read the mean with welford_mean). */
struct welford {
	double n, mean, m2, shift;
};
void welford_add(struct welford *w, double x);
double welford_mean(const struct welford *w);
double welford_var(const struct welford *w);   /* n-1 denominator */

double stat_mean(const double *x, size_t n);
double stat_var(const double *x, size_t n);    /* two-pass, n-1 */
double stat_min(const double *x, size_t n);
/* Selection; these reorder x. */
double stat_select(double *x, size_t n, size_t k);   /* k-th smallest, 0-based */
double stat_median(double *x, size_t n);
double stat_quantile(double *x, size_t n, double p); /* type 7 */
double stat_cor(const double *x, const double *y, size_t n); /* Pearson */
/* ln(a/b) of a, b > 0, to full precision near a = b and finite at the
 * ends of the doubles; swapping a and b negates it exactly. */
double stat_log_ratio(double a, double b);

double stat_pnorm(double x);
double stat_qnorm(double p);
double stat_pt(double t, double df);           /* P(T <= t) */
double stat_qt(double p, double df);           /* full precision, any df >= 1 */
double stat_lbeta(double a, double b);
double stat_pbeta(double x, double a, double b);  /* regularized I_x(a,b) */
/* The x with I_x(a,b) = p, by bisection on stat_pbeta: 0 for p <= 0, 1
 * for p >= 1. For Clopper-Pearson binomial intervals. */
double stat_qbeta(double p, double a, double b);
/* P(X > x) for X chi-square with df degrees of freedom (regularized
 * upper incomplete gamma Q(df/2, x/2)). */
double stat_pchisq_upper(double x, double df);
/* The x with P(X > x) = p, by bisection on stat_pchisq_upper (0 for p
 * >= 1); for the Q-profile interval of a between-host variance. */
double stat_qchisq_upper(double p, double df);
/* D'Agostino's test of skewness (1970; R's moments::agostino.test) for
 * n >= 8 values: the sample skewness g1 = m3 / m2^(3/2) (moments with the
 * n denominator) and z, its transform to a standard normal under normal
 * values. 0, or -1 when n < 8 or the values do not vary (g1 and z left
 * as they were). */
int stat_skew_test(const double *x, size_t n, double *g1, double *z);
/* Anscombe and Glynn's test of kurtosis (1983; R's moments::anscombe.test)
 * for n >= 8 values: the sample kurtosis b2 = m4 / m2^2 (3 for a normal)
 * and z, its transform to a standard normal under normal values (below 0:
 * flatter than normal, as two humps are; -INFINITY for values flatter
 * than the transform reaches, where R gives NaN). 0, or -1 as above. */
int stat_kurtosis_test(const double *x, size_t n, double *b2, double *z);

#endif

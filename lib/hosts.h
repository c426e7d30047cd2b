/* hosts: hosts as a level of the analysis. A study merged from several
 * machines has runs nested in hosts; the runs of one host share what
 * the host does to the comparison, so they are not independent of each
 * other across hosts. Each host is reduced to its mean log ratio with
 * its within-host standard error, and the hosts are pooled by a
 * random-effects model: DerSimonian and Laird's between-host variance
 * tau^2 (1986), its Q-profile interval (Viechtbauer 2007), I^2 (Higgins
 * and Thompson 2002), and the prediction interval for a new host
 * (Higgins, Thompson and Spiegelhalter 2009). pb-tint --unit host
 * writes them, pb-check's hosts check reads Cochran's Q. */
#ifndef PB_HOSTS_H
#define PB_HOSTS_H

#include <stddef.h>

/* One host: its runs' mean log ratio and the t interval of it. */
struct host_mean {
	double n, mean, sd, se, df, t, lo, hi;
};

/* The random-effects summary of k hosts (DerSimonian-Laird). */
struct hosts_re {
	double k;
	double q, q_p;              /* Cochran's Q on k - 1 df, and P(chi2 > Q) */
	double tau2, tau2_lo, tau2_hi;   /* the Q-profile interval at the level */
	double i2;                  /* share of the spread beyond the runs' (0 to 1) */
	double mu, mu_se;           /* the pooled estimate and its standard error */
	double mu_lo, mu_hi;        /* its normal (z) interval, as metafor's rma */
	double pred_lo, pred_hi;    /* for a new host: t on k - 2 df; NAN when k < 3 */
	double f, f_df2, f_p;       /* Welch's F test on k - 1 and f_df2 df */
	size_t most;                /* the host farthest from the others ... */
	double most_z;              /* ... its standardized residual (common effect) */
};

/* The mean and t interval (df n - 1) of one host's n >= 2 values. */
struct host_mean host_mean_of(const double *x, size_t n, double level);
/* The random-effects summary of k >= 2 host means y with squared
 * standard errors v > 0. */
/* Welch's heteroscedastic one-way F test (1951; R's oneway.test) of k
 * >= 2 host means y with squared standard errors v of n[i] >= 2 runs:
 * the p value, and F with its df (k - 1, *df2). Cochran's Q takes the
 * v as known; from a few runs each they are not, and Q's chi-square
 * then warns of hosts that do not differ far more often than its level
 * (share/dev/sim-hosts: 13 % at p < 0.01, 4 runs a host); Welch's
 * correction keeps to it. */
double hosts_welch(const double *y, const double *v, const double *n, size_t k, double *f,
                   double *df2);
/* z[i]: host i's standardized residual of the common-effect model. */
void hosts_z(const double *y, const double *v, size_t k, double *z);
void hosts_re_of(const double *y, const double *v, const double *n, size_t k, double level,
                 struct hosts_re *r);

#endif

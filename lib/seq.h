/* seq: an anytime-valid confidence sequence for the mean of independent,
 * roughly normal values x1, x2, ... (per-run log ratios), valid at every
 * n at once: P(some n has an interval that misses the mean) <= alpha,
 * whatever rule decides when to stop looking.
 *
 * It inverts the Bayes factor of the one-sample t test with a normal
 * prior N(0, g) on the standardized effect and the right-Haar prior
 * 1/sigma on the scale (fixed-g form of Rouder et al. 2009):
 *   BF(t) = c^(-1/2) [(1 + t^2/nu) / (1 + t^2/(nu c))]^(n/2),
 *   nu = n - 1, c = 1 + n g.
 * Under the null it is a test martingale in the filtration of the
 * scale-invariant statistics (Perez-Ortiz, Lardy, de Heide and Grunwald,
 * "E-statistics, group invariance and anytime-valid testing"), so by
 * Ville's inequality P(exists n: BF_n >= 1/alpha) <= alpha. The interval
 * is the set of means whose BF stays below 1/alpha:
 *   mean +- tstar * sd / sqrt(n),
 *   K = (sqrt(c) / alpha)^(2/n),  tstar^2 = nu (K - 1) / (1 - K/c),
 * and unbounded while K >= c (too few values yet). */
#ifndef PB_SEQ_H
#define PB_SEQ_H

enum { SEQ_G_DEFAULT = 25 };   /* prior variance of the standardized effect */

/* The multiplier tstar for n values at level 1 - alpha; returns 0, or -1
 * when the interval is still unbounded at this n (n < 2 included). */
int seq_tstar(double n, double g, double alpha, double *tstar);
/* The interval mean +- tstar * sd / sqrt(n) at level; 0, or -1 when it
 * is unbounded (lo, hi and tstar are then left as they were). */
int seq_interval(double n, double mean, double sd, double g, double level,
                 double *tstar, double *lo, double *hi);
/* The fewest values (>= 2) at which the sequence is bounded. */
long seq_first_bounded(double g, double level);
/* log BF of the t statistic t at n values (the e-value's logarithm). */
double seq_log_bf(double t, double n, double g);

#endif

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

#include <stddef.h>

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

/* The median sequence: distribution-free, for the median of independent
 * values of any continuous shape (Howard and Ramdas, "Sequential
 * estimation of quantiles with applications to A/B-testing and best-arm
 * identification", Bernoulli 2022, their beta-binomial sequence with a
 * uniform mixture). At the true median m the count S of values <= m is
 * a walk of fair coins, and
 *   M_n(S) = integral over p of (2p)^S (2 - 2p)^(n - S) dp
 *          = 2^n / ((n + 1) C(n, S))
 * is a test martingale, so by Ville's inequality P(exists n: M_n >=
 * 1/alpha) <= alpha. The sequence holds the m whose count keeps M_n below
 * 1/alpha: S from k to n - k, that is x(k) <= m <= x(n-k+1) in the
 * sorted values (closed, which keeps it valid when values tie). */
enum seq_kind { SEQ_KIND_T, SEQ_KIND_MEDIAN };
extern const char *const seq_kind_names[2];   /* "t", "median" */
/* "t" or "median" of --NAME; a usage error otherwise. */
enum seq_kind seq_kind_parse(const char *name, const char *val);
/* k, the rank of the lower end at n values, or 0 while the sequence is
 * unbounded (n < 7 at level 0.95). */
long seq_median_rank(long n, double alpha);
/* The interval of the median of x[0..n) (reordered: sorted) at level and
 * the median itself; 0, or -1 while unbounded (lo and hi left as they
 * were). */
int seq_median_interval(double *x, size_t n, double level, double *median, double *lo,
                        double *hi);
/* The fewest values at which the sequence of this kind is bounded, or -1
 * beyond a million. */
long seq_kind_first_bounded(enum seq_kind kind, double g, double level);

/* A study that stops when its question is answered (pb-run --until): the
 * rule, and the sequence it is read from. */
enum seq_rule { SEQ_NONE, SEQ_PARITY, SEQ_THRESHOLD, SEQ_HALFWIDTH, SEQ_TOLERANCE };
struct seq_stop {
	enum seq_rule rule;
	double threshold;    /* SEQ_THRESHOLD: a ratio A/B, > 0 */
	double halfwidth;    /* SEQ_HALFWIDTH: relative, such as 0.01 */
	double tolerance;    /* SEQ_TOLERANCE: in percent, above 0 and below 100 */
	double g, level;
	enum seq_kind kind;
	long min_runs;
};
/* VAL of --NAME: "parity", "threshold", "tolerance" or "halfwidth:H"
 * (H > 0, < 1); a usage error otherwise. The threshold and the tolerance
 * are set apart (--threshold, --tolerance). */
void seq_rule_parse(struct seq_stop *s, const char *name, const char *val);
/* The rule in words for the metadata: "parity", "threshold 1.1",
 * "halfwidth 0.01", "tolerance 2"; static storage. */
const char *seq_rule_words(const struct seq_stop *s);

/* An equivalence margin of PCT percent, m = 1 + PCT/100: where an
 * interval lo..hi of the ratio A/B lies against 1/m and m. Equivalent:
 * inside (1/m, m); slower: hi < 1/m; faster: lo > m; not_slower: lo >=
 * 1/m otherwise (also where an end lies on a bound and the other inside);
 * not_faster: hi <= m otherwise; undecided: it reaches past both. */
enum tol_verdict { TOL_EQUIVALENT, TOL_SLOWER, TOL_FASTER, TOL_NOT_SLOWER, TOL_NOT_FASTER,
                   TOL_UNDECIDED };
extern const char *const tol_verdict_names[6];   /* "equivalent", ... "undecided" */
enum tol_verdict tol_verdict(double lo, double hi, double pct);
/* Whether pct is a margin: above 0, below 100, and 1 + pct/100 told
 * from 1 (or no interval could lie inside it). */
int tol_pct_ok(double pct);

/* One look at the sequence of per-run log ratios so far (w holds their
 * mean and variance, x[0..w->n) the values themselves, which the median
 * sequence reads and reorders; the t sequence takes x NULL): the ratio
 * A/B at the mean (or the median) and its interval, and whether the rule
 * is answered (never below min_runs, nor while unbounded). */
struct welford;
struct seq_look {
	double n, ratio, ratio_lo, ratio_hi;
	int bounded, answered;
	const char *why;     /* when answered: what, in words (static) */
};
void seq_look(const struct seq_stop *s, const struct welford *w, double *x,
              struct seq_look *look);

#endif

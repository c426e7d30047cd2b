#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "stats.h"

#include "seq.h"

/* K - 1 and c - K are formed from expm1 so that neither cancels: at
 * large n, K is within 1e-3 of 1 and tstar^2 is a ratio of two small
 * differences. */
int seq_tstar(double n, double g, double alpha, double *tstar)
{
	double c, km1, cmk;

	if (!(n >= 2) || !(g > 0) || !(alpha > 0 && alpha < 1))
		return -1;
	c = 1 + n * g;
	km1 = expm1(2 / n * (0.5 * log(c) - log(alpha)));
	cmk = n * g - km1;   /* c - K = (c - 1) - (K - 1) */
	if (!(cmk > 0))
		return -1;
	*tstar = sqrt((n - 1) * km1 * c / cmk);
	return 0;
}

double seq_log_bf(double t, double n, double g)
{
	double nu = n - 1, c = 1 + n * g, u = t * t / nu;

	return -0.5 * log(c) + n / 2 * (log1p(u) - log1p(u / c));
}

int seq_interval(double n, double mean, double sd, double g, double level,
                 double *tstar, double *lo, double *hi)
{
	double t, half;

	if (seq_tstar(n, g, 1 - level, &t) < 0)
		return -1;
	half = t * sd / sqrt(n);
	*tstar = t;
	*lo = mean - half;
	*hi = mean + half;
	return 0;
}

long seq_first_bounded(double g, double level)
{
	double t;
	long n;

	/* c grows like n and K falls to 1, so the loop ends; the cap only
	 * guards against a g or level no caller passes. */
	for (n = 2; n < 1000000; n++)
		if (seq_tstar((double)n, g, 1 - level, &t) == 0)
			return n;
	return -1;
}

const char *const seq_kind_names[2] = { "t", "median" };

enum seq_kind seq_kind_parse(const char *name, const char *val)
{
	if (strcmp(val, "t") == 0)
		return SEQ_KIND_T;
	if (strcmp(val, "median") == 0)
		return SEQ_KIND_MEDIAN;
	die_usage("--%s is t (the mean, for roughly normal runs) or median (any shape), "
	          "not '%s'", name, val);
}

/* log M_n(s) = n log 2 - log(n + 1) - log C(n, s), which falls as s
 * nears n/2: k is the first s from 0 up where it is below log(1/alpha). */
long seq_median_rank(long n, double alpha)
{
	double bound = -log(alpha), dn = (double)n;
	long s;

	if (n < 1 || !(alpha > 0 && alpha < 1))
		return 0;
	for (s = 0; 2 * s <= n; s++) {
		double log_choose = lgamma(dn + 1) - lgamma((double)s + 1) - lgamma(dn - (double)s + 1);

		if (dn * M_LN2 - log(dn + 1) - log_choose < bound)
			return s;
	}
	return 0;   /* not reached: at s = n/2 the walk is where it should be */
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

int seq_median_interval(double *x, size_t n, double level, double *median, double *lo,
                        double *hi)
{
	long k;

	if (n == 0)
		return -1;
	qsort(x, n, sizeof *x, by_value);
	*median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	k = seq_median_rank((long)n, 1 - level);
	if (k < 1)
		return -1;
	*lo = x[k - 1];
	*hi = x[n - (size_t)k];
	return 0;
}

long seq_kind_first_bounded(enum seq_kind kind, double g, double level)
{
	long n;

	if (kind == SEQ_KIND_T)
		return seq_first_bounded(g, level);
	for (n = 1; n < 1000000; n++)
		if (seq_median_rank(n, 1 - level) > 0)
			return n;
	return -1;
}

void seq_rule_parse(struct seq_stop *s, const char *name, const char *val)
{
	double h;

	if (strcmp(val, "parity") == 0) {
		s->rule = SEQ_PARITY;
		return;
	}
	if (strcmp(val, "threshold") == 0) {
		s->rule = SEQ_THRESHOLD;
		return;
	}
	if (strcmp(val, "tolerance") == 0) {
		s->rule = SEQ_TOLERANCE;
		return;
	}
	if (strncmp(val, "halfwidth:", 10) == 0 && num_parse(val + 10, &h) == 0 && h > 0 &&
	    h < 1) {
		s->rule = SEQ_HALFWIDTH;
		s->halfwidth = h;
		return;
	}
	die_usage("--%s is parity, threshold, tolerance or halfwidth:H (H a relative "
	          "half-width from 0 to 1, such as halfwidth:0.01), not '%s'", name, val);
}

const char *seq_rule_words(const struct seq_stop *s)
{
	static char buf[64];
	char v[NUM_BUFSZ];

	switch (s->rule) {
	case SEQ_THRESHOLD:
		num_format(v, s->threshold);
		snprintf(buf, sizeof buf, "threshold %s", v);
		return buf;
	case SEQ_HALFWIDTH:
		num_format(v, s->halfwidth);
		snprintf(buf, sizeof buf, "halfwidth %s", v);
		return buf;
	case SEQ_TOLERANCE:
		num_format(v, s->tolerance);
		snprintf(buf, sizeof buf, "tolerance %s", v);
		return buf;
	default:
		return "parity";
	}
}

const char *const tol_verdict_names[6] = { "equivalent", "slower", "faster", "not_slower",
                                            "not_faster", "undecided" };

/* On the ratio scale, as the ratio columns and the threshold's verdict
 * are: the ends a reader compares with 1/m and m are those. */
int tol_pct_ok(double pct)
{
	return pct > 0 && pct < 100 && 1 + pct / 100 != 1;
}

enum tol_verdict tol_verdict(double lo, double hi, double pct)
{
	double m = 1 + pct / 100;

	if (lo > 1 / m && hi < m)
		return TOL_EQUIVALENT;
	if (hi < 1 / m)
		return TOL_SLOWER;
	if (lo > m)
		return TOL_FASTER;
	if (lo >= 1 / m)
		return TOL_NOT_SLOWER;
	if (hi <= m)
		return TOL_NOT_FASTER;
	return TOL_UNDECIDED;
}

/* --until tolerance: answered by equivalence, or by a difference beyond
 * the margin either way; a half answer (not_slower) goes on. */
static const char *tolerance_answer(const struct seq_stop *s, const struct seq_look *l)
{
	static char buf[160];
	char p[NUM_BUFSZ], m[NUM_BUFSZ];

	num_format(p, s->tolerance);
	num_format(m, 1 + s->tolerance / 100);
	switch (tol_verdict(l->ratio_lo, l->ratio_hi, s->tolerance)) {
	case TOL_EQUIVALENT:
		snprintf(buf, sizeof buf, "the interval lies within %s%% of 1: B is equivalent to "
		         "A within %s%%", p, p);
		return buf;
	case TOL_SLOWER:
		snprintf(buf, sizeof buf, "the interval lies below 1/%s: B is slower by more "
		         "than %s%%", m, p);
		return buf;
	case TOL_FASTER:
		snprintf(buf, sizeof buf, "the interval lies above %s: B is faster by more "
		         "than %s%%", m, p);
		return buf;
	default:
		return NULL;
	}
}

/* Whether the bounded interval [lo, hi] of the ratio answers the rule. */
static const char *answer(const struct seq_stop *s, const struct seq_look *l)
{
	switch (s->rule) {
	case SEQ_TOLERANCE:
		return tolerance_answer(s, l);
	case SEQ_PARITY:
		if (l->ratio_lo > 1)
			return "the interval lies above 1: B is faster";
		if (l->ratio_hi < 1)
			return "the interval lies below 1: B is slower";
		return NULL;
	case SEQ_THRESHOLD:
		if (l->ratio_lo >= s->threshold)
			return "the interval is at or over the threshold";
		if (l->ratio_hi < s->threshold)
			return "the interval is under the threshold";
		return NULL;
	case SEQ_HALFWIDTH:
		/* within a factor 1 + H of the ratio on both sides */
		if (l->ratio_hi <= l->ratio * (1 + s->halfwidth) &&
		    l->ratio_lo * (1 + s->halfwidth) >= l->ratio)
			return "the interval is within the half-width asked for";
		return NULL;
	default:
		return NULL;
	}
}

void seq_look(const struct seq_stop *s, const struct welford *w, double *x, struct seq_look *l)
{
	double mean = welford_mean(w), sd = sqrt(welford_var(w)), t, lo, hi, mid = mean;
	int unbounded;

	memset(l, 0, sizeof *l);
	l->n = w->n;
	if (s->kind == SEQ_KIND_MEDIAN)
		unbounded = seq_median_interval(x, (size_t)w->n, s->level, &mid, &lo, &hi) < 0;
	else
		unbounded = w->n < 2 || seq_interval(w->n, mean, sd, s->g, s->level, &t, &lo, &hi) < 0;
	l->ratio = exp(mid);
	if (unbounded)
		return;
	l->bounded = 1;
	l->ratio_lo = exp(lo);
	l->ratio_hi = exp(hi);
	if (w->n >= (double)s->min_runs && (l->why = answer(s, l)) != NULL)
		l->answered = 1;
}

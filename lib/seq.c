#include <math.h>
#include <stdio.h>
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
	if (strncmp(val, "halfwidth:", 10) == 0 && num_parse(val + 10, &h) == 0 && h > 0 &&
	    h < 1) {
		s->rule = SEQ_HALFWIDTH;
		s->halfwidth = h;
		return;
	}
	die_usage("--%s is parity, threshold or halfwidth:H (H a relative half-width "
	          "from 0 to 1, such as halfwidth:0.01), not '%s'", name, val);
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
	default:
		return "parity";
	}
}

/* Whether the bounded interval [lo, hi] of the ratio answers the rule. */
static const char *answer(const struct seq_stop *s, const struct seq_look *l)
{
	switch (s->rule) {
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

void seq_look(const struct seq_stop *s, const struct welford *w, struct seq_look *l)
{
	double mean = welford_mean(w), sd = sqrt(welford_var(w)), t, lo, hi;

	memset(l, 0, sizeof *l);
	l->n = w->n;
	l->ratio = exp(mean);
	if (w->n < 2 || seq_interval(w->n, mean, sd, s->g, s->level, &t, &lo, &hi) < 0)
		return;
	l->bounded = 1;
	l->ratio_lo = exp(lo);
	l->ratio_hi = exp(hi);
	if (w->n >= (double)s->min_runs && (l->why = answer(s, l)) != NULL)
		l->answered = 1;
}

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "err.h"
#include "interval.h"
#include "num.h"
#include "out.h"
#include "seq.h"
#include "stats.h"

const char *const adjust_names[3] = { "none", "bonferroni", "holm" };

/* The t interval, or the confidence sequence at this n (lib/seq.c: the
 * same function pb-run --until uses, so the two agree to the last
 * digit). */
struct interval interval_of(const struct interval_values *v, const struct interval_method *m)
{
	struct interval r;
	const struct welford *w = &v->w;
	double level = m->each_level;
	int unbounded = 0;

	r.n = w->n;
	r.mean = r.estimate = welford_mean(w);
	r.sd = sqrt(welford_var(w));
	r.se = r.sd / sqrt(r.n);
	r.df = r.n - 1;
	r.unbounded = 0;
	if (m->sequential > 0) {
		if (m->seq_kind == SEQ_KIND_MEDIAN) {
			r.t = NAN;   /* order statistics: no multiplier */
			unbounded = seq_median_interval(v->x, (size_t)w->n, level, &r.estimate, &r.lo,
			                                &r.hi) < 0;
		} else
			unbounded = seq_interval(r.n, r.mean, r.sd, m->seq_g, level, &r.t, &r.lo,
			                         &r.hi) < 0;
		if (unbounded) {
			r.unbounded = 1;
			r.t = NAN;
			r.lo = -INFINITY;
			r.hi = INFINITY;
		}
		return r;
	}
	if (m->df_cap > 0 && r.df > (double)m->df_cap)
		r.df = (double)m->df_cap;
	r.t = stat_qt(1 - (1 - level) / 2, r.df);
	r.lo = r.mean - r.t * r.se;
	r.hi = r.mean + r.t * r.se;
	return r;
}

void interval_values_add(struct interval_values *v, double x)
{
	if (v->w.n == 0 || x < v->min)
		v->min = x;
	if (v->w.n == 0 || x > v->max)
		v->max = x;
	if (v->keep) {
		xgrow(&v->x, &v->cap, (size_t)v->w.n + 1, sizeof *v->x);
		v->x[(size_t)v->w.n] = x;
	}
	welford_add(&v->w, x);
}

void interval_values_free(struct interval_values *v)
{
	free(v->x);
	v->x = NULL;
	v->cap = 0;
}

/* The ratio A/B is exp of the log ratio: past +-709.78 it (or 1/it,
 * which the reduction is of) overflows a double. Of a bounded interval
 * its ends are checked; of a sequence still unbounded, whose ends are
 * infinite by design, the mean, which the ratio column still shows. */
static void log_ratio_check(const struct interval *r, const char *what, const char *column)
{
	char lo[NUM_BUFSZ], hi[NUM_BUFSZ];

	if (r->unbounded) {
		if (isfinite(exp(r->mean)) && isfinite(exp(-r->mean)))
			return;
		num_format(lo, r->mean);
		die("%s: the mean %s of the log ratio is beyond +-709.78, where the ratio A/B "
		    "overflows a double (is '%s' a log ratio?)", what, lo, column);
	}
	if (isfinite(exp(r->hi)) && isfinite(exp(-r->lo)))
		return;
	num_format(lo, r->lo);
	num_format(hi, r->hi);
	die("%s: the interval %s to %s of the log ratio reaches beyond +-709.78, "
	    "where the ratio A/B overflows a double (is '%s' a log ratio?)", what, lo, hi, column);
}

struct interval interval_checked(const struct interval_values *v, int grouped, const char *what,
                                 const char *column, const struct interval_method *m)
{
	struct interval r;

	if (v->w.n < 2)
		die("%s: only 1 value; an interval needs at least 2", grouped ? what : column);
	if (!isfinite(v->w.m2) || !isfinite(welford_mean(&v->w)))
		die("%s: values too large: their variance overflows a double", what);
	if (v->w.m2 < DBL_MIN && v->min != v->max)
		die("%s: values too close together: their variance underflows a double "
		    "(rescale the column)", what);
	r = interval_of(v, m);
	/* opt_level keeps t finite and a finite variance keeps t * se far
	 * from overflow; the last guard, should either change */
	if (!r.unbounded && ((!isfinite(r.t) && !isnan(r.t)) || !isfinite(r.lo) || !isfinite(r.hi)))
		die("%s: values too large: the interval's ends overflow a double", what);
	if (m->log_ratio)
		log_ratio_check(&r, what, column);
	return r;
}

void interval_warn_zero_width(const struct interval_values *v, const char *what)
{
	if (v->w.n >= 2 && v->w.m2 == 0)
		warn("%s: all %.0f values are equal (sd = 0): the interval has zero width",
		     what, v->w.n);
}

static const char *verdict(double lo, double hi, double threshold)
{
	if (lo >= threshold)
		return "above";
	if (hi < threshold)
		return "below";
	return "crosses";
}

/* What the tests are of: the mean is 0 (a ratio of 1), or the threshold. */
static double null_value(const struct interval_method *m)
{
	if (m->has_threshold)
		return m->log_ratio ? log(m->threshold) : m->threshold;
	return 0;
}

/* Of the interval; with holm, of Holm's step-down, which can resolve
 * what the wider Bonferroni interval does not (never less). */
const char *interval_verdict(const struct interval *r, const struct interval_method *m)
{
	double t = m->log_ratio ? log(m->threshold) : m->threshold;

	/* the margin is read from the interval alone: with holm, the
	 * Bonferroni interval (Holm's tests are of ratio 1, not of 1/m or m) */
	if (m->has_tolerance)
		return tol_verdict_names[tol_verdict(exp(r->lo), exp(r->hi), m->tolerance)];
	if (m->adjust == ADJUST_HOLM && r->resolved)
		return r->mean >= t ? "above" : "below";
	return m->log_ratio ? verdict(exp(r->lo), exp(r->hi), m->threshold)
	                    : verdict(r->lo, r->hi, m->threshold);
}

/* The two-sided p of the t test of the null, at the interval's df. */
static double t_test_p(const struct interval *r, double null)
{
	if (!(r->se > 0))
		return r->mean == null ? 1 : 0;
	return fmin(1, 2 * stat_pt(-fabs(r->mean - null) / r->se, r->df));
}

static int by_p(const void *x, const void *y)
{
	const struct interval *const *a = x, *const *b = y;

	if ((*a)->p != (*b)->p)
		return (*a)->p < (*b)->p ? -1 : 1;
	return (*a < *b) ? -1 : (*a > *b);
}

/* Bonferroni: m p. Holm: in increasing p, the largest (m - j) p(j) so
 * far (j from 0). */
void interval_adjust(struct interval *iv, size_t n, const struct interval_method *m)
{
	struct interval **ord = xmalloc((n + 1) * sizeof *ord);
	double null = null_value(m), most = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		iv[i].p = m->adjust && m->sequential <= 0 ? t_test_p(&iv[i], null) : NAN;
		iv[i].p_adj = isnan(iv[i].p) ? NAN : fmin(1, (double)n * iv[i].p);
		iv[i].resolved = !iv[i].unbounded && (iv[i].lo > null || iv[i].hi < null);
		ord[i] = &iv[i];
	}
	if (m->adjust == ADJUST_HOLM) {
		qsort(ord, n, sizeof *ord, by_p);
		for (i = 0; i < n; i++) {
			most = fmax(most, (double)(n - i) * ord[i]->p);
			ord[i]->p_adj = fmin(1, most);
			ord[i]->resolved |= ord[i]->p_adj <= 1 - m->level;
		}
	}
	free(ord);
}

void interval_header_fields(const struct interval_method *m)
{
	static const char *base[] = { "n", "mean", "sd", "se", "df", "t", "lo", "hi" };
	size_t i;

	for (i = 0; i < LEN(base); i++)
		out_field(base[i]);
	if (m->log_ratio) {
		out_field("ratio");
		out_field("ratio_lo");
		out_field("ratio_hi");
		out_field("reduction");
	}
	if (m->adjust) {
		out_field("p");
		out_field("p_adj");
	}
	if (m->has_threshold || m->has_tolerance)
		out_field("verdict");
}

void interval_header_out(const struct interval_method *m)
{
	interval_header_fields(m);
	out_end();
}

void interval_fields_out(const struct interval *r, const struct interval_method *m)
{
	out_num(r->n);
	out_num(r->mean);
	out_num(r->sd);
	out_num(r->se);
	out_num(r->df);
	out_num_or_empty(r->t);
	out_num_or_empty(r->lo);
	out_num_or_empty(r->hi);
	if (m->log_ratio) {
		out_num(exp(r->estimate));
		out_num_or_empty(r->unbounded ? NAN : exp(r->lo));
		out_num_or_empty(r->unbounded ? NAN : exp(r->hi));
		out_num(1 - exp(-r->estimate));
	}
	if (m->adjust) {
		out_num_or_empty(r->p);
		out_num_or_empty(r->p_adj);
	}
	if (m->has_threshold || m->has_tolerance)
		out_field(interval_verdict(r, m));
}

void interval_row_out(const struct interval *r, const struct interval_method *m)
{
	interval_fields_out(r, m);
	out_end();
}

int interval_sides(double lo, double hi, double *less, double *more)
{
	/* 100 / lo: the share is said in percent, which must be finite too */
	if (!(lo > 0 && lo <= 1 && hi >= 1 && isfinite(hi)) || !isfinite(100 / lo))
		return -1;
	*less = 1 - 1 / hi;
	*more = 1 / lo - 1;
	return 0;
}

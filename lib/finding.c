#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "finding.h"
#include "human.h"
#include "interval.h"
#include "keys.h"
#include "num.h"
#include "out.h"
#include "quantity.h"
#include "seq.h"

/* The distribution-free sequence of the median, whose words differ. */
static int median_sequence(const struct interval_method *m)
{
	return m->sequential > 0 && m->seq_kind == SEQ_KIND_MEDIAN;
}

static void sample_words(const struct finding_study *f, const struct interval *r, long runs)
{
	if (f->pairs && runs > 0)
		out_meta_text("n = %.0f pairs from %ld run%s", r->n, runs, runs == 1 ? "" : "s");
	else if (f->run_units)
		out_meta_text("n = %.0f runs", r->n);
	else
		out_meta_text("n = %.0f values", r->n);
	if (!median_sequence(f->m))   /* order statistics have no df */
		out_meta_text(", df = %.0f", r->df);
}

/* Columns pb(7) gives in nanoseconds: their findings carry a unit. */
static int is_ns_column(const char *col)
{
	static const char *ns[] = { "a", "b", "d", "delay", "ns", "delay_ns" };
	size_t i;

	for (i = 0; i < LEN(ns); i++)
		if (strcmp(col, ns[i]) == 0)
			return 1;
	return 0;
}

static const char *finding_num(char buf[SIG_BUFSZ], double x, const struct finding_study *f)
{
	return is_ns_column(f->column) && !f->m->log_ratio ? sig4_ns(buf, x) : sig4(buf, x);
}

/* A ratio's bound as sig4 writes it, unless that reads as 1 when the
 * bound is not 1 ("1.000" for 1.00006 beside "the interval excludes 1"):
 * then with as many more digits as tell it from 1. */
static const char *bound4(char buf[SIG_BUFSZ], double x)
{
	int digits = 5;

	sig4(buf, x);
	if (x == 1 || strtod(buf, NULL) != 1)
		return buf;
	do
		snprintf(buf, SIG_BUFSZ, "%.*g", digits, x);
	while (strtod(buf, NULL) == 1 && ++digits <= 17);
	return buf;
}

/* "95% CI 1.029 to 1.031", "95% CS ..." for a confidence sequence, or
 * that the sequence is still unbounded; ns columns with their unit. */
static void interval_words(const struct finding_study *f, const struct interval *r, double lo,
                           double hi, int ns)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ], b3[SIG_BUFSZ];

	level_percent(b1, f->m->level);
	if (r->unbounded) {
		out_meta_text("the %s%% confidence sequence is still unbounded (", b1);
		return;
	}
	out_meta_text("%s%% %s %s to %s (", b1, f->m->sequential > 0 ? "CS" : "CI",
	       ns ? finding_num(b2, lo, f) : bound4(b2, lo),
	       ns ? finding_num(b3, hi, f) : bound4(b3, hi));
}

/* The method, in the parenthesis after the interval, and the per-run
 * statistic it is over when pb-pair --by-run named one. */
static void method_words(const struct finding_study *f)
{
	char g[NUM_BUFSZ];

	if (f->m->sequential <= 0)
		out_meta_text("t interval");
	else if (median_sequence(f->m))
		out_meta_text("anytime-valid median sequence");
	else {
		num_format(g, f->m->seq_g);
		out_meta_text("anytime-valid confidence sequence, g = %s", g);
	}
	if (f->statistic)
		out_meta_text(" over %s", f->statistic);
	out_meta_text(", ");
}

/* A direction only when the interval excludes 1 (with --adjust holm and
 * no threshold, when Holm's step-down rejects 1); otherwise the sentence
 * starts by saying that none was resolved. */
static void ratio_sentence(const struct finding_study *f, const struct interval *r,
                           const struct finding_names *nm)
{
	const struct interval_method *m = f->m;
	double ratio = exp(r->estimate), rel = 1 / ratio, lo = exp(r->lo), hi = exp(r->hi);
	const char *the = nm->comparisons ? " (the reference)" : "";
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];
	int resolved = m->adjust == ADJUST_HOLM && !m->has_threshold ? r->resolved
	             : !(lo <= 1 && hi >= 1);

	if (!resolved && nm->comparisons)
		out_meta_text("No difference resolved between %s and %s%s: ", nm->cand, nm->ref, the);
	else if (!resolved)
		out_meta_text("No difference resolved: ");
	else
		out_meta_text("%s %s %s%% %s %s than %s%s: ", nm->cand, f->q->wall ? "took" : "used",
		              sig4(b1, 100 * (rel < 1 ? 1 - rel : rel - 1)), rel < 1 ? "less" : "more",
		              f->q->noun, nm->ref, the);
	out_meta_text("%s/%s %s%s ratio %s, ", nm->ref, nm->cand, median_sequence(m) ? "median " : "",
	              f->q->noun, sig4(b2, ratio));
	interval_words(f, r, lo, hi, 0);
}

/* With --adjust holm: the test behind the verdict. */
static void holm_words(const struct finding_study *f, const struct interval *r)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	out_meta_text("Holm's step-down over the %zu %s: p = %s, adjusted %s", f->m->family,
	              f->m->family == 1 ? "test" : "tests", sig4(b1, r->p), sig4(b2, r->p_adj));
}

/* The end of a threshold sentence of a quantity that is not time: the
 * ratio as how much of it the reference uses per unit the candidate uses. */
static void threshold_use_words(const struct finding_study *f, const char *v, int holm,
                                const char *t, const struct finding_names *nm)
{
	if (strcmp(v, "above") == 0)
		out_meta_text("%sso %s used at least %s times the %s of %s.",
		              holm ? "" : "the whole interval is at or over it, ", nm->ref, t,
		              f->q->noun, nm->cand);
	else if (strcmp(v, "below") == 0)
		out_meta_text("%sso %s did not use %s times the %s of %s.",
		              holm ? "" : "the whole interval is under it, ", nm->ref, t, f->q->noun,
		              nm->cand);
	else
		out_meta_text("%sso these data cannot say whether %s used %s times the %s of %s; "
		              "more runs would narrow it.", holm ? "" : "the interval contains it, ",
		              nm->ref, t, f->q->noun, nm->cand);
}

static void threshold_sentence(const struct finding_study *f, const char *v,
                               const struct interval *r, const struct finding_names *nm)
{
	char t[NUM_BUFSZ];
	int holm = f->m->adjust == ADJUST_HOLM;

	num_format(t, f->m->threshold);
	if (f->m->log_ratio) {
		out_meta_text(" Threshold %s: %s; ", t, v);
		if (holm) {
			out_meta_text("by ");
			holm_words(f, r);
			out_meta_text(", ");
		}
		if (!f->q->wall) {
			threshold_use_words(f, v, holm, t, nm);
			return;
		}
		if (strcmp(v, "above") == 0)
			out_meta_text("%sso %s is at least %sx as fast as %s.",
			              holm ? "" : "the whole interval is at or over it, ", nm->cand, t,
			              nm->ref);
		else if (strcmp(v, "below") == 0)
			out_meta_text("%sso %s is not %sx as fast as %s.",
			              holm ? "" : "the whole interval is under it, ", nm->cand, t, nm->ref);
		else
			out_meta_text("%sso these data cannot say whether %s is %sx as fast as %s; "
			              "more runs would narrow it.", holm ? "" : "the interval contains it, ",
			              nm->cand, t, nm->ref);
		return;
	}
	out_meta_text(" Threshold %s%s: %s; ", t, is_ns_column(f->column) ? " ns" : "", v);
	if (holm) {
		out_meta_text("by ");
		holm_words(f, r);
		out_meta_text(strcmp(v, "crosses") ? "." : "; more runs would narrow it.");
	} else if (strcmp(v, "above") == 0)
		out_meta_text("the whole interval is at or over it.");
	else if (strcmp(v, "below") == 0)
		out_meta_text("the whole interval is under it.");
	else
		out_meta_text("the interval contains it; more runs would narrow it.");
}

/* "is slower than" (more) or "is faster than", "is not ..." negated; of
 * what is not time, "uses more peak memory than", "does not use ...". */
static const char *side_words(char *buf, size_t n, const struct quantity *q, int more,
                              int negated)
{
	if (q->wall)
		snprintf(buf, n, "is %s%s than", negated ? "not " : "", more ? "slower" : "faster");
	else
		snprintf(buf, n, "%s %s %s than", negated ? "does not use" : "uses",
		         more ? "more" : "less", q->noun);
	return buf;
}

/* "may be faster" (more 0), "may use more peak memory". */
static const char *may_words(char *buf, size_t n, const struct quantity *q, int more)
{
	if (q->wall)
		snprintf(buf, n, "may be %s", more ? "slower" : "faster");
	else
		snprintf(buf, n, "may use %s %s", more ? "more" : "less", q->noun);
	return buf;
}

/* With a margin (--tolerance PCT, m = 1 + PCT/100): where the interval
 * lies against 1/m and m, and no more than that says. */
static void tolerance_sentence(const struct finding_study *f, const struct interval *r,
                               const struct finding_names *nm)
{
	double tol = f->m->tolerance, hi = exp(r->hi);
	enum tol_verdict v = tol_verdict(exp(r->lo), hi, tol);
	const char *c = nm->cand, *a = nm->ref;
	char p[NUM_BUFSZ], m[NUM_BUFSZ], w1[96], w2[96];

	num_format(p, tol);
	num_format(m, 1 + tol / 100);
	out_meta_text(" Tolerance %s%%: %s; ", p, tol_verdict_names[v]);
	if (v == TOL_EQUIVALENT)
		out_meta_text("the interval lies within %s%% of 1 (inside 1/%s to %s): %s is "
		              "equivalent to %s within %s%%.", p, m, m, c, a, p);
	else if (v == TOL_SLOWER || v == TOL_FASTER)
		out_meta_text("the whole interval is %s %s%s: %s %s %s by more than the %s%% "
		              "tolerance.", v == TOL_SLOWER ? "under" : "over",
		              v == TOL_SLOWER ? "1/" : "", m, c,
		              side_words(w1, sizeof w1, f->q, v == TOL_SLOWER, 0), a, p);
	else if (v == TOL_NOT_SLOWER && hi > 1 + tol / 100)
		out_meta_text("the interval lies at or over 1/%s: %s %s %s by more than %s%%, but "
		              "it reaches past %s: %s %s by more than %s%%; more runs would narrow it.",
		              m, c, side_words(w1, sizeof w1, f->q, 1, 1), a, p, m, c,
		              may_words(w2, sizeof w2, f->q, 0), p);
	else if (v == TOL_NOT_SLOWER)
		out_meta_text("the interval lies from 1/%s to %s with an end on a bound: %s %s %s by "
		              "more than %s%% either way, but is not shown to be strictly within %s%%.",
		              m, m, c, side_words(w1, sizeof w1, f->q, 1, 1), a, p, p);
	else if (v == TOL_NOT_FASTER)
		out_meta_text("the interval lies at or under %s: %s %s %s by more than %s%%, but it "
		              "reaches below 1/%s: %s %s by more than %s%%; more runs would narrow it.",
		              m, c, side_words(w1, sizeof w1, f->q, 0, 1), a, p, m, c,
		              may_words(w2, sizeof w2, f->q, 1), p);
	else
		out_meta_text("the interval reaches below 1/%s and past %s: these data cannot say "
		              "whether %s is within %s%% of %s; more runs would narrow it.", m, m, c, p,
		              a);
}

static const char *num_word(size_t n)
{
	static char b[24];

	snprintf(b, sizeof b, "%zu", n);
	return b;
}

/* In the parenthesis: how the interval stands with the others of its
 * family, when there are several comparisons or --adjust. */
static void family_words(const struct finding_study *f, const struct finding_names *nm)
{
	const struct interval_method *m = f->m;
	const char *what = nm->comparisons ? "comparisons" : "intervals";
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	snprintf(b1, sizeof b1, "%.4g", 100 * m->each_level);   /* 98.33, 97.5 */
	if (m->adjust && m->family == 1)
		out_meta_text("; --adjust %s of 1 interval: as it is", adjust_names[m->adjust]);
	else if (m->adjust)
		out_meta_text("; %s for %zu %s: each at %s%%, so that %s%s hold together at %s%%",
		              m->adjust == ADJUST_HOLM ? "Bonferroni interval" : "Bonferroni-adjusted",
		              m->family, what, b1,
		              m->family == 2 ? "both" : "all ", m->family == 2 ? "" : num_word(m->family),
		              level_percent(b2, m->level));
	else if (nm->comparisons && m->family > 1)
		out_meta_text("; one of %zu comparisons, not adjusted: this interval holds on its "
		              "own, not together with the others", m->family);
}

/* What an interval about 1 rules out: "B may be up to 2.9% faster or up
 * to 2.5% slower" (of CPU time: "use up to ... less or up to ... more"),
 * or, where 1/lo overflows, only that B may be either. */
static void up_to(const struct finding_study *f, double lo, double hi,
                  const struct finding_names *nm, const char *either)
{
	char a[SIG_BUFSZ], b[SIG_BUFSZ];
	double less, more;

	if (interval_sides(lo, hi, &less, &more) < 0)
		out_meta_text("%s", either);
	else if (f->q->wall)
		out_meta_text("%s may be up to %s%% faster or up to %s%% slower", nm->cand,
		              sig4(a, 100 * less), sig4(b, 100 * more));
	else
		out_meta_text("%s may use up to %s%% less or up to %s%% more %s", nm->cand,
		              sig4(a, 100 * less), sig4(b, 100 * more), f->q->noun);
}

/* The sentence after the interval, without a threshold. */
static void resolved_sentence(const struct finding_study *f, const struct interval *r,
                              const struct finding_names *nm)
{
	const struct interval_method *m = f->m;
	double lo = m->log_ratio ? exp(r->lo) : r->lo, hi = m->log_ratio ? exp(r->hi) : r->hi;
	double none = m->log_ratio ? 1 : 0;
	char b[96];

	int less = m->adjust == ADJUST_HOLM ? r->mean > 0 : lo > 1;
	char either[96];

	if (f->q->wall) {
		snprintf(b, sizeof b, "%s is %s", nm->cand, less ? "faster" : "slower");
		snprintf(either, sizeof either, "%s may be faster or slower", nm->cand);
	} else {
		snprintf(b, sizeof b, "%s uses %s %s", nm->cand, less ? "less" : "more", f->q->noun);
		snprintf(either, sizeof either, "%s may use more or less %s", nm->cand, f->q->noun);
	}
	if (m->adjust == ADJUST_HOLM) {
		out_meta_text(" ");
		holm_words(f, r);
		if (r->resolved)
		{
			out_meta_text(", at most %g: %s", 1 - m->level, m->log_ratio ? b :
			              r->mean > 0 ? "the mean is above 0" : "the mean is below 0");
			if (r->lo <= 0 && r->hi >= 0)
				out_meta_text(" (the Bonferroni interval, wider than this test needs, "
				              "still includes %g)", none);
			out_meta_text(".");
		}
		else if (m->log_ratio) {
			out_meta_text(", above %g: ", 1 - m->level);
			up_to(f, lo, hi, nm, either);
			out_meta_text("; more runs would narrow it.");
		}
		else
			out_meta_text(", above %g: no difference is resolved.", 1 - m->level);
		return;
	}
	if (lo > none || hi < none)
		out_meta_text(" The interval excludes %g: %s.", none, m->log_ratio ? b :
		              (lo > 0 ? "the mean is above 0" : "the mean is below 0"));
	else if (m->log_ratio) {
		out_meta_text(" The interval includes 1: ");
		up_to(f, lo, hi, nm, either);
		out_meta_text("; more runs would narrow it.");
	} else
		out_meta_text(" The interval includes 0: no difference is resolved.");
}

/* Whether a warning is about another comparison than cand's: pb-check's
 * "arm X: ..." of an X that is neither the candidate nor the reference. */
static int other_arm(const char *v, const struct finding_names *nm)
{
	size_t n;

	if (!nm->comparisons || strncmp(v, "arm ", 4) != 0)
		return 0;
	n = strcspn(v + 4, ":");
	if (v[4 + n] != ':')
		return 0;
	return !(strlen(nm->cand) == n && strncmp(v + 4, nm->cand, n) == 0) &&
	       !(strlen(nm->ref) == n && strncmp(v + 4, nm->ref, n) == 0);
}

static void warning_clauses(const struct finding_warnings *w, const struct finding_names *nm)
{
	size_t i, n;

	for (i = 0; i < w->n; i++) {
		if (other_arm(w->v[i], nm))
			continue;
		n = strlen(w->v[i]);
		out_meta_text(" Warning: ");
		out_meta_as_read(w->v[i]);
		if (n == 0 || w->v[i][n - 1] != '.')
			out_meta_text(".");
	}
	if (w->more)
		out_meta_text(" And %zu more warning%s in the input.", w->more, w->more == 1 ? "" : "s");
	for (i = w->first_check; i < w->n && other_arm(w->v[i], nm); i++)
		;
	if (w->checked && (!w->check_warned || (i == w->n && !w->more))) {
		out_meta_text(" pb-check warned of nothing%s", w->check_warned ?
		              " about this comparison" : "");
		/* "nothing" is not "all is well" when the checks were not made */
		if (w->check_na)
			out_meta_text(", but %zu of its %zu checks could not be made (n/a: too "
			              "little data for them)", w->check_na, w->check_rows);
		out_meta_text(".");
	}
}

/* "0.4707% (1.000 µs)": a delay as a share of the workload's median. */
static void delay_words(int64_t ns, double median)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	out_meta_text("%s%% (%s)", sig4(b1, 100 * (double)ns / median), sig4_ns(b2, (double)ns));
}

/* The smallest delay the calibration's t analysis resolved, and whether
 * it calibrated this analysis, of this workload. */
static void calibration_clause(const struct finding_calibration *c)
{
	int64_t r = c->resolved, m = c->missed;

	out_meta_text(" Calibration: this harness resolves ");
	if (r < 0 && m < 0)
		out_meta_text("nothing it was shown (no delay above 0 was tried)");
	else if (r < 0) {
		out_meta_text("none of the delays tried, up to ");
		delay_words(m, c->median);
		out_meta_text(",");
	} else {
		delay_words(r, c->median);
		if (m < 0)
			out_meta_text(", the smallest delay tried,");
	}
	if (c->other)
		out_meta_text(" on another workload or machine (%s differs)", c->other);
	else
		out_meta_text(" on this workload");
	if (r >= 0 && m >= 0) {
		out_meta_text(", but not ");
		delay_words(m, c->median);
		out_meta_text(",");
	}
	if (c->why)
		out_meta_text(" with the t interval over per-run log ratios (per-run %s, level %s), "
		              "not with this analysis (%s).", c->stat, c->level, c->why);
	else
		out_meta_text(" with this analysis.");
}

/* The finding's tag: the group's key, "[2] "; for a stream of
 * comparisons the key without the arm, which the sentence names. */
static void finding_tag(const struct finding_study *f, const struct finding_group *g)
{
	const char *key = g->key, *p = key, *end;
	long i;

	if (!g->grouped)
		return;
	if (g->arm_at < 0 || !f->m->log_ratio) {
		out_meta_text("[%s] ", key);
		return;
	}
	for (i = 0; i < g->arm_at; i++)   /* to the arm's field */
		p += strcspn(p, "\t") + 1;
	end = p + strcspn(p, "\t");
	if (p == key && !*end)
		return;   /* the arm alone */
	out_meta_text("[");
	if (p > key)
		out_meta_text("%.*s", (int)(p - key - (*end ? 0 : 1)), key);
	if (*end)
		out_meta_text("%s", end + (p == key));
	out_meta_text("] ");
}

void finding_out(const struct finding_study *f, const struct finding_group *g)
{
	const struct interval_method *m = f->m;
	const struct interval *r = g->r;
	char b1[SIG_BUFSZ];

	out_meta_begin("finding");
	finding_tag(f, g);
	if (m->log_ratio)
		ratio_sentence(f, r, g->names);
	else {
		out_meta_text("%s %s %s, ", median_sequence(m) ? "median" : "mean", f->column,
		              finding_num(b1, r->estimate, f));
		interval_words(f, r, r->lo, r->hi, 1);
	}
	method_words(f);
	sample_words(f, r, g->runs);
	family_words(f, g->names);
	out_meta_text(").");
	if (r->unbounded && seq_kind_first_bounded(m->seq_kind, m->seq_g, m->each_level) < 0)
		out_meta_text(" It stays unbounded beyond a million values at this g and level: "
		              "more runs will not bound it; a larger g would.");
	else if (r->unbounded)
		out_meta_text(" It needs at least %ld values at this %slevel; more runs "
		       "will bound it.", seq_kind_first_bounded(m->seq_kind, m->seq_g, m->each_level),
		       median_sequence(m) ? "" : "g and ");
	else if (m->has_threshold)
		threshold_sentence(f, interval_verdict(r, m), r, g->names);
	else if (m->has_tolerance)
		tolerance_sentence(f, r, g->names);
	else
		resolved_sentence(f, r, g->names);
	if (f->pairs && g->runs > 1 && !f->grouped_by_run)
		out_meta_text(" Caution: pairs inside a run are not independent, so this "
		              "interval can be too narrow; pb-pair --by-run makes runs the unit.");
	if (f->cal)
		calibration_clause(f->cal);
	warning_clauses(f->w, g->names);
	out_meta_end();
}

/* The key "TOOL.what", in memory that lives until the next call. */
static const char *tool_key(const char *tool, const char *what)
{
	static char key[64];

	snprintf(key, sizeof key, "%s.%s", tool, what);
	return key;
}

static void column_meta(const char *tool, const struct finding_study *f, int comparisons)
{
	const char *key = tool_key(tool, "column");

	if (f->m->log_ratio && !f->q->wall)
		out_meta(key, "%s (log ratio ln(a/b) of %s, a the %s, b the %s; "
		         "ratio = a/b %s, > 1 means the %s used less; reduction = 1 - 1/ratio)",
		         f->column, f->q->noun, comparisons ? "reference's" : "baseline A's",
		         comparisons ? "candidate's (arm)" : "candidate B's", f->q->noun,
		         comparisons ? "candidate" : "candidate B");
	else if (comparisons)
		out_meta(key, "%s%s", f->column, f->m->log_ratio ?
		         " (log ratio ln(a/b), a the reference's time, b the candidate's (arm); "
		         "ratio = a/b time, > 1 means the candidate took less time; reduction = "
		         "1 - 1/ratio)" : "");
	else
		out_meta(key, "%s%s", f->column, f->m->log_ratio ?
		         " (log ratio ln(A/B); ratio = A/B time, > 1 means B took less "
		         "time; reduction = 1 - 1/ratio)" : "");
}

/* "# TOOL.adjust:" with an adjustment, and for several comparisons without. */
static void adjust_meta(const char *tool, const struct interval_method *m, int comparisons)
{
	const char *key = tool_key(tool, "adjust");
	char l[NUM_BUFSZ], e[NUM_BUFSZ];

	num_format(l, m->level);
	num_format(e, m->each_level);
	if (m->adjust == ADJUST_BONFERRONI && m->sequential > 0)   /* p and p_adj stay empty */
		out_meta(key, "bonferroni: %zu sequences, each at level 1 - (1 - %s)/%zu = %s, so "
		         "that all %zu hold together at %s", m->family, l, m->family, e, m->family, l);
	else if (m->adjust == ADJUST_BONFERRONI)
		out_meta(key, "bonferroni: %zu intervals, each at level 1 - (1 - %s)/%zu "
		         "= %s, so that all %zu hold together at %s; p is the two-sided t test's of "
		         "the mean %s, p_adj = min(1, %zu p)", m->family, l, m->family, e, m->family, l,
		         m->has_threshold ? "at the threshold" : m->log_ratio ? "at ratio 1" : "at 0",
		         m->family);
	else if (m->adjust == ADJUST_HOLM)
		out_meta(key, "holm: p is the two-sided t test's of the mean %s; in "
		         "increasing p, p_adj = the largest (m - j + 1) p(j) so far, m = %zu, capped at "
		         "1; resolved (and the verdict) when p_adj <= 1 - %s, so that the %zu tests "
		         "together err with probability at most 1 - %s; the intervals are Bonferroni's, "
		         "each at level %s, which hold together at %s: a step-down procedure has no "
		         "intervals of its own that hold together and are narrower",
		         m->has_threshold ? "at the threshold" : m->log_ratio ? "at ratio 1" : "at 0",
		         m->family, l, m->family, l, e, l);
	else if (comparisons && m->family > 1)
		out_meta(key, "none: each of the %zu intervals holds on its own at %s, "
		         "not together with the others (--adjust bonferroni or holm for intervals "
		         "that hold together)", m->family, l);
}

/* "# TOOL.method:", and a note when some sequence is unbounded. */
static void method_meta(const char *tool, const struct interval_method *m,
                        const struct interval *iv, size_t n)
{
	char g[NUM_BUFSZ], l[NUM_BUFSZ];
	size_t i;

	if (m->sequential <= 0) {
		out_meta(tool_key(tool, "method"), "%s", METHOD_T);
		out_meta(tool_key(tool, "method" KEY_NOTE), "t interval (valid for a number of runs "
		         "fixed in advance)");
		return;
	}
	num_format(g, m->seq_g);
	out_meta(tool_key(tool, "method"), "%s", METHOD_SEQUENCE);
	if (median_sequence(m)) {
		num_format(l, m->each_level);
		out_meta(tool_key(tool, "method" KEY_NOTE), "confidence sequence of the median "
		         "(anytime-valid and distribution-free: holds at every number of runs at once, "
		         "whatever the values' shape; beta-binomial, Howard and Ramdas 2022; lo and hi "
		         "are order statistics, and ratio, of a log ratio, exp of the median)");
		for (i = 0; i < n && !iv[i].unbounded; i++)
			;
		if (i < n)
			out_meta(tool_key(tool, "unbounded"), "lo and hi are empty where the sequence is "
			         "still unbounded: it needs at least %ld values at level %s",
			         seq_kind_first_bounded(m->seq_kind, m->seq_g, m->each_level), l);
		return;
	}
	out_meta_begin(tool_key(tool, "method" KEY_NOTE));
	out_meta_text("confidence sequence (anytime-valid: holds at every number of runs at once; "
	              "normal prior on the standardized effect, g = %s", g);
	if (m->seq_g_note && *m->seq_g_note) {   /* as read: already escaped */
		out_meta_text(", ");
		out_meta_as_read(m->seq_g_note);
	}
	out_meta_text(")");
	out_meta_end();
	for (i = 0; i < n && !iv[i].unbounded; i++)
		;
	if (i < n && seq_kind_first_bounded(m->seq_kind, m->seq_g, m->each_level) < 0)
		out_meta(tool_key(tool, "unbounded"), "t, lo and hi are empty where the sequence is "
		         "still unbounded: it stays unbounded beyond a million values at g = %s", g);
	else if (i < n)
		out_meta(tool_key(tool, "unbounded"), "t, lo and hi are empty where the sequence is "
		         "still unbounded: it needs at least %ld values at g = %s",
		         seq_kind_first_bounded(m->seq_kind, m->seq_g, m->each_level), g);
}

/* "# TOOL.tolerance: 2" and what its verdicts mean. */
static void tolerance_meta(const char *tool, const struct interval_method *m)
{
	char b[NUM_BUFSZ];

	out_meta_num(tool_key(tool, "tolerance"), "%s", m->tolerance);
	num_format(b, 1 + m->tolerance / 100);
	out_meta(tool_key(tool, "tolerance" KEY_NOTE), "a margin in percent, m = %s: verdict "
	         "equivalent when the interval of the ratio A/B lies inside 1/m to m, slower "
	         "wholly under 1/m, faster wholly over m, not_slower at or over 1/m otherwise, "
	         "not_faster at or under m otherwise, undecided reaching past both", b);
}

void finding_method_meta(const char *tool, const struct finding_study *f,
                         const struct interval *iv, size_t n, int comparisons)
{
	const struct interval_method *m = f->m;

	column_meta(tool, f, comparisons);
	out_meta_num(tool_key(tool, "level"), "%s", m->level);
	method_meta(tool, m, iv, n);
	adjust_meta(tool, m, comparisons);
	if (m->df_cap)
		out_meta(tool_key(tool, "df"), "min(n-1, %ld)", m->df_cap);
	if (m->has_threshold) {
		out_meta_num(tool_key(tool, "threshold"), "%s", m->threshold);
		if (m->log_ratio)
			out_meta(tool_key(tool, "threshold" KEY_NOTE), "a ratio A/B");
	}
	if (m->has_tolerance)
		tolerance_meta(tool, m);
}

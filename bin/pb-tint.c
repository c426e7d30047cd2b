/* pb-tint: Student t interval of a column's mean, per group, with the
 * back-transform for log ratios, a threshold verdict and a finding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "human.h"
#include "interval.h"
#include "num.h"
#include "opt.h"
#include "out.h"
#include "quantity.h"
#include "seq.h"
#include "stream.h"
#include "strmap.h"

static const char usage[] =
	"usage: pb-tint [options] [FILE...]\n"
	"Student t interval of the mean of a column, per group.\n";

static const char usage_tail[] =
	"Output: [group...] n mean sd se df t lo hi, then ratio ratio_lo ratio_hi\n"
	"reduction for a log ratio, then p p_adj with --adjust, then verdict with\n"
	"--threshold. A stream with an arm column (a study of more than two arms)\n"
	"is grouped by arm first: one interval per candidate against the reference.\n";

static const struct pb_opt options[] = {
	{ "column", 'c', 0, "COL", NULL, "the column (default lr)", NULL, 0 },
	{ "group", 'g', 0, "COLS", NULL,
	  "one interval per value of these columns (comma list)", NULL, 0 },
	{ "level", 'l', 0, "L", NULL, "confidence level (default 0.95)", NULL, 0 },
	{ "threshold", 'T', 0, "T", NULL,
	  "verdict above/below/crosses against T (a ratio A/B\n"
	  "for a log-ratio column, the column's unit otherwise)", NULL, 0 },
	{ "df-cap", 'd', 0, "N", NULL, "use df = min(n-1, N)", NULL, 0 },
	{ "finding", 'f', 0, NULL, NULL, "add one sentence per group: '# finding: ...'", NULL, 0 },
	{ "log-ratio", 'L', 0, NULL, NULL,
	  "treat the column as a log ratio (automatic for lr\n"
	  "and for columns pb-logratio declared)", NULL, 0 },
	{ "sequential", 'S', 0, NULL, NULL,
	  "an anytime-valid confidence sequence instead of the\n"
	  "t interval (default for a study pb-run --until made)", NULL, 0 },
	{ "no-sequential", 'N', 0, NULL, NULL,
	  "the fixed-n t interval even for such a study", NULL, 0 },
	{ "seq-g", 'G', 0, "G", NULL, "the sequence's prior variance g (default 25)", NULL, 0 },
	{ "check", 'C', 0, "FILE", NULL,
	  "with --finding: cite the warnings of pb-check's output\n"
	  "FILE, one clause each", NULL, 0 },
	{ "sense", 'E', 0, "FILE", NULL,
	  "with --finding: cite what pb-sense's calibration FILE\n"
	  "resolves, and whether it calibrated this analysis", NULL, 0 },
	{ "adjust", 'a', 0, "M", "bonferroni holm",
	  "bonferroni or holm: the intervals (and verdicts) of all\n"
	  "groups hold together at the level; adds p and p_adj", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 19, usage_tail, 0 };

struct opts {
	const char *column, *group, *check, *sense;
	double level, threshold, seq_g;
	long df_cap;
	int has_threshold, finding, log_ratio;
	const struct quantity *q;   /* what the log ratio compares: time, or what
	                             * pb-logratio's declaration names */
	enum adjust adjust;
	size_t family;       /* the intervals that hold together: the groups */
	double each_level;   /* the level of each: level, or Bonferroni's */
	int sequential;      /* 1 on, 0 off, -1 not said: as the study was made */
	int seq_g_given, level_given;
};

struct acc {
	struct interval_values v;
	long runs;
};

/* What a message is about: "group 2" ("group ''" for an empty value), or
 * the column without --group. */
static const char *subject(int grouped, const char *key, const char *column)
{
	static char *buf;
	size_t n = strlen(key) + strlen(column) + 16;

	free(buf);
	buf = xmalloc(n);
	if (grouped)
		snprintf(buf, n, *key ? "group %s" : "group ''", key);
	else
		snprintf(buf, n, "column %s", column);
	return buf;
}

/* The value column; a missing lr most often means pb-logratio was left
 * out of the pipeline. */
static size_t value_column(const struct stream *s, const char *name)
{
	static char *list;   /* static: still reachable at exit */
	size_t i, n = 1;

	if (stream_col_find(s, name) >= 0 || strcmp(name, "lr") != 0)
		return stream_col(s, name);
	for (i = 0; i < s->ncol; i++)
		n += strlen(s->col[i]) + 1;
	list = xmalloc(n);
	for (i = 0, n = 0; i < s->ncol; i++)
		n += (size_t)sprintf(list + n, "%s%s", i ? " " : "", s->col[i]);
	die("%s: no column 'lr' (columns: %s); did you forget pb-logratio?", s->name, list);
}

/* pb-logratio's declaration of col ("# log_ratio: COL = ln(a/b)..."):
 * the last one, or NULL. */
static const char *log_ratio_decl(const struct stream *s, const char *col)
{
	size_t i, n = strlen(col);
	const char *d = NULL;

	for (i = 0; i < s->nmeta; i++)
		if (strcmp(s->meta[i].key, "log_ratio") == 0 &&
		    strncmp(s->meta[i].value, col, n) == 0 &&
		    strncmp(s->meta[i].value + n, " = ", 3) == 0)
			d = s->meta[i].value;
	return d;
}

/* A column is a log ratio when it is called lr, when pb-logratio said so
 * in the metadata, or when asked. */
static int is_log_ratio(const struct stream *s, const char *col, int forced)
{
	return forced || strcmp(col, "lr") == 0 || log_ratio_decl(s, col) != NULL;
}

/* What the log ratio compares: the declaration's columns say (peak memory
 * for ln(a_maxrss/b_maxrss)); time when none says otherwise. */
static const struct quantity *log_ratio_quantity(const struct stream *s, const char *col)
{
	const char *d = log_ratio_decl(s, col);

	return quantity_of_log_ratio(d ? d : "");
}

struct sample_kind {
	int pairs;      /* rows are pairs inside runs (a pair column) */
	int run_units;  /* rows are whole runs (a run column, no pair column) */
	int grouped_by_run;
	const char *statistic;   /* "per-run 99th percentiles", or NULL (medians) */
	const struct stream *stream;   /* the input, for --sense */
};

static void print_sample(const struct interval *r, long runs, const struct sample_kind *k)
{
	if (k->pairs && runs > 0)
		out_meta_text("n = %.0f pairs from %ld run%s", r->n, runs, runs == 1 ? "" : "s");
	else if (k->run_units)
		out_meta_text("n = %.0f runs", r->n);
	else
		out_meta_text("n = %.0f values", r->n);
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

static const char *finding_num(char buf[SIG_BUFSZ], double x, const struct opts *o)
{
	return is_ns_column(o->column) && !o->log_ratio ? sig4_ns(buf, x) : sig4(buf, x);
}

/* "95% CI 1.029 to 1.031", "95% CS ..." for a confidence sequence, or
 * that the sequence is still unbounded; ns columns with their unit. */
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

static void interval_words(const struct interval *r, double lo, double hi,
                           const struct opts *o, int ns)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ], b3[SIG_BUFSZ];

	level_percent(b1, o->level);
	if (r->unbounded) {
		out_meta_text("the %s%% confidence sequence is still unbounded (", b1);
		return;
	}
	out_meta_text("%s%% %s %s to %s (", b1, o->sequential > 0 ? "CS" : "CI",
	       ns ? finding_num(b2, lo, o) : bound4(b2, lo),
	       ns ? finding_num(b3, hi, o) : bound4(b3, hi));
}

/* The method, in the parenthesis after the interval, and the per-run
 * statistic it is over when pb-pair --by-run named one. */
static void method_words(const struct opts *o, const char *statistic)
{
	char g[NUM_BUFSZ];

	if (o->sequential <= 0)
		out_meta_text("t interval");
	else {
		num_format(g, o->seq_g);
		out_meta_text("anytime-valid confidence sequence, g = %s", g);
	}
	if (statistic)
		out_meta_text(" over %s", statistic);
	out_meta_text(", ");
}

/* Who is compared: the candidate and the reference, "B" and "A" but in
 * a stream of several comparisons (an arm column), where the candidate
 * is the group's arm and the reference the head's. */
struct names {
	const char *ref, *cand;
	int comparisons;     /* grouped by arm: the reference is said so */
};

/* A direction only when the interval excludes 1 (with --adjust holm and
 * no threshold, when Holm's step-down rejects 1); otherwise the sentence
 * starts by saying that none was resolved. */
static void ratio_sentence(const struct interval *r, const struct opts *o,
                           const struct names *nm)
{
	double ratio = exp(r->mean), rel = 1 / ratio, lo = exp(r->lo), hi = exp(r->hi);
	const char *the = nm->comparisons ? " (the reference)" : "";
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];
	int resolved = o->adjust == ADJUST_HOLM && !o->has_threshold ? r->resolved
	             : !(lo <= 1 && hi >= 1);

	if (!resolved && nm->comparisons)
		out_meta_text("No difference resolved between %s and %s%s: ", nm->cand, nm->ref, the);
	else if (!resolved)
		out_meta_text("No difference resolved: ");
	else
		out_meta_text("%s %s %s%% %s %s than %s%s: ", nm->cand, o->q->wall ? "took" : "used",
		              sig4(b1, 100 * (rel < 1 ? 1 - rel : rel - 1)), rel < 1 ? "less" : "more",
		              o->q->noun, nm->ref, the);
	out_meta_text("%s/%s %s ratio %s, ", nm->ref, nm->cand, o->q->noun, sig4(b2, ratio));
	interval_words(r, lo, hi, o, 0);
}

/* With --adjust holm: the test behind the verdict. */
static void holm_words(const struct interval *r, const struct opts *o)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	out_meta_text("Holm's step-down over the %zu %s: p = %s, adjusted %s", o->family,
	              o->family == 1 ? "test" : "tests", sig4(b1, r->p), sig4(b2, r->p_adj));
}

/* The end of a threshold sentence of a quantity that is not time: the
 * ratio as how much of it the reference uses per unit the candidate uses. */
static void threshold_use_words(const char *v, int holm, const char *t, const struct opts *o,
                                const struct names *nm)
{
	if (strcmp(v, "above") == 0)
		out_meta_text("%sso %s used at least %s times the %s of %s.",
		              holm ? "" : "the whole interval is at or over it, ", nm->ref, t,
		              o->q->noun, nm->cand);
	else if (strcmp(v, "below") == 0)
		out_meta_text("%sso %s did not use %s times the %s of %s.",
		              holm ? "" : "the whole interval is under it, ", nm->ref, t, o->q->noun,
		              nm->cand);
	else
		out_meta_text("%sso these data cannot say whether %s used %s times the %s of %s; "
		              "more runs would narrow it.", holm ? "" : "the interval contains it, ",
		              nm->ref, t, o->q->noun, nm->cand);
}

static void threshold_sentence(const char *v, const struct interval *r, const struct opts *o,
                               const struct names *nm)
{
	char t[NUM_BUFSZ];
	int holm = o->adjust == ADJUST_HOLM;

	num_format(t, o->threshold);
	if (o->log_ratio) {
		out_meta_text(" Threshold %s: %s; ", t, v);
		if (holm) {
			out_meta_text("by ");
			holm_words(r, o);
			out_meta_text(", ");
		}
		if (!o->q->wall) {
			threshold_use_words(v, holm, t, o, nm);
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
	out_meta_text(" Threshold %s%s: %s; ", t, is_ns_column(o->column) ? " ns" : "", v);
	if (holm) {
		out_meta_text("by ");
		holm_words(r, o);
		out_meta_text(strcmp(v, "crosses") ? "." : "; more runs would narrow it.");
	} else if (strcmp(v, "above") == 0)
		out_meta_text("the whole interval is at or over it.");
	else if (strcmp(v, "below") == 0)
		out_meta_text("the whole interval is under it.");
	else
		out_meta_text("the interval contains it; more runs would narrow it.");
}

static const char *num_word(size_t n)
{
	static char b[24];

	snprintf(b, sizeof b, "%zu", n);
	return b;
}

/* In the parenthesis: how the interval stands with the others of its
 * family, when there are several comparisons or --adjust. */
static void family_words(const struct opts *o, const struct names *nm)
{
	const char *what = nm->comparisons ? "comparisons" : "intervals";
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	snprintf(b1, sizeof b1, "%.4g", 100 * o->each_level);   /* 98.33, 97.5 */
	if (o->adjust && o->family == 1)
		out_meta_text("; --adjust %s of 1 interval: as it is", adjust_names[o->adjust]);
	else if (o->adjust)
		out_meta_text("; %s for %zu %s: each at %s%%, so that %s%s hold together at %s%%",
		              o->adjust == ADJUST_HOLM ? "Bonferroni interval" : "Bonferroni-adjusted",
		              o->family, what, b1,
		              o->family == 2 ? "both" : "all ", o->family == 2 ? "" : num_word(o->family),
		              level_percent(b2, o->level));
	else if (nm->comparisons && o->family > 1)
		out_meta_text("; one of %zu comparisons, not adjusted: this interval holds on its "
		              "own, not together with the others", o->family);
}

/* The sentence after the interval, without a threshold. */
static void resolved_sentence(const struct interval *r, const struct opts *o,
                              const struct names *nm)
{
	double lo = o->log_ratio ? exp(r->lo) : r->lo, hi = o->log_ratio ? exp(r->hi) : r->hi;
	double none = o->log_ratio ? 1 : 0;
	char b[96];

	int less = o->adjust == ADJUST_HOLM ? r->mean > 0 : lo > 1;
	char either[96];

	if (o->q->wall) {
		snprintf(b, sizeof b, "%s is %s", nm->cand, less ? "faster" : "slower");
		snprintf(either, sizeof either, "%s may be faster or slower", nm->cand);
	} else {
		snprintf(b, sizeof b, "%s uses %s %s", nm->cand, less ? "less" : "more", o->q->noun);
		snprintf(either, sizeof either, "%s may use more or less %s", nm->cand, o->q->noun);
	}
	if (o->adjust == ADJUST_HOLM) {
		out_meta_text(" ");
		holm_words(r, o);
		if (r->resolved)
		{
			out_meta_text(", at most %g: %s", 1 - o->level, o->log_ratio ? b :
			              r->mean > 0 ? "the mean is above 0" : "the mean is below 0");
			if (r->lo <= 0 && r->hi >= 0)
				out_meta_text(" (the Bonferroni interval, wider than this test needs, "
				              "still includes %g)", none);
			out_meta_text(".");
		}
		else if (o->log_ratio)
			out_meta_text(", above %g: %s; more runs would narrow it.", 1 - o->level, either);
		else
			out_meta_text(", above %g: no difference is resolved.", 1 - o->level);
		return;
	}
	if (lo > none || hi < none)
		out_meta_text(" The interval excludes %g: %s.", none, o->log_ratio ? b :
		              (lo > 0 ? "the mean is above 0" : "the mean is below 0"));
	else if (o->log_ratio)
		out_meta_text(" The interval includes 1: %s; more runs would narrow it.", either);
	else
		out_meta_text(" The interval includes 0: no difference is resolved.");
}

/* "pb-TOOL.warning": what an earlier tool said the study lacks. */
static int is_warning_key(const char *key)
{
	size_t n;

	if (strncmp(key, "pb-", 3) != 0)
		return 0;
	n = strspn(key + 3, "abcdefghijklmnopqrstuvwxyz");
	return n > 0 && strcmp(key + 3 + n, ".warning") == 0;
}

/* The warnings met anywhere in the input, head or rows, in order: the
 * first WARNINGS_KEPT of them, and a count of the rest (a finding is a
 * sentence to read, and memory must not follow the input). */
enum { WARNINGS_KEPT = 16 };
struct warnings {
	char **v;
	size_t n, cap, more;
	int checked, check_warned;   /* --check: read, and warned of something */
	size_t check_rows, check_na; /* --check: its rows, and those it could not make */
	size_t first_check;          /* v[first_check ..] came from --check */
};

static void add_warning(struct warnings *w, const char *text)
{
	if (w->n == WARNINGS_KEPT) {
		w->more++;
		return;
	}
	xgrow(&w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = xstrdup(text);
}

static void keep_warning(void *ctx, const struct stream *s, const struct meta *m)
{
	struct warnings *w = ctx;

	(void)s;
	if (is_warning_key(m->key))
		add_warning(w, m->value);
}

/* --check FILE: pb-check's output. Its warn rows' notes are the clauses
 * (its "# pb-check.warning:" lines say the same, and are not read too).
 * A check of another study than the input's is refused. */
static void read_check(struct warnings *w, const struct stream *in, const char *file)
{
	static struct stream c;   /* static: reachable when a bad row ends the program */
	char *files[1];
	size_t status, note;
	long arm;
	const char *id, *in_id = stream_head_meta(in, "study", -1);
	char b1[MSG_CUT_BUF], b2[MSG_CUT_BUF];

	files[0] = (char *)file;
	w->first_check = w->n;
	stream_open(&c, 1, files);
	stream_header(&c);
	if (stream_col_find(&c, "check") < 0 || stream_col_find(&c, "status") < 0)
		die("--check %s: not pb-check's output (no columns check and status)", file);
	status = stream_col(&c, "status");
	note = stream_col(&c, "note");
	arm = stream_col_find(&c, "arm");
	id = stream_head_meta(&c, "study", -1);
	if (id && in_id && strcmp(id, in_id) != 0)
		die("--check %s checks study %s, but the input is study %s: give pb-check the pairs "
		    "of this study", file, msg_cut(b1, id), msg_cut(b2, in_id));
	while (stream_row(&c)) {
		w->check_rows++;
		w->check_na += strcmp(c.field[status], "n/a") == 0;
		if (strcmp(c.field[status], "warn") != 0)
			continue;
		w->check_warned = 1;
		if (arm >= 0) {
			size_t n = strlen(c.field[arm]) + strlen(c.field[note]) + 8;
			char *t = xmalloc(n);

			snprintf(t, n, "arm %s: %s", c.field[arm], c.field[note]);
			add_warning(w, t);
			free(t);
		} else {
			add_warning(w, c.field[note]);
		}
	}
	w->checked = 1;
	stream_close(&c);
}

/* Whether a warning is about another comparison than cand's: pb-check's
 * "arm X: ..." of an X that is neither the candidate nor the reference. */
static int other_arm(const char *v, const struct names *nm)
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

static void warning_clauses(const struct warnings *w, const struct names *nm)
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

/* What each row of a by-run stream holds, for the finding: from the
 * first word of pb-pair's "# pb-pair.by_run:" (pb-pair(1)). NULL for the
 * median of each arm, the default the finding has always left unnamed,
 * and for what is not a by-run stream. */
static const char *by_run_statistic(const struct stream *s, const char *column, int run_units)
{
	static char buf[64];
	const char *v = stream_head_meta(s, "pb-pair.by_run", -1);
	char pct[SIG_BUFSZ], word[32];
	size_t n;
	double p;

	if (!v || !run_units || (n = strcspn(v, " :")) >= sizeof word)
		return NULL;
	memcpy(word, v, n);
	word[n] = '\0';
	if (strcmp(word, "lr-median") == 0)
		return strcmp(column, "lr") == 0 ? "per-run medians of the paired log ratios" : NULL;
	if (strcmp(word, "mean") == 0)
		return "per-run means";
	if (strcmp(word, "min") == 0 || strcmp(word, "q0") == 0)
		return "per-run minima";
	if (strcmp(word, "q1") == 0)
		return "per-run maxima";
	if (strcmp(word, "p90") == 0 || strcmp(word, "p99") == 0)
		p = word[2] == '0' ? 0.9 : 0.99;
	else if (word[0] != 'q' || num_parse(word + 1, &p) < 0 || !(p > 0 && p < 1))
		return NULL;
	if (p == 0.5)
		return NULL;
	level_percent(pct, p);
	n = strlen(pct);
	snprintf(buf, sizeof buf, "per-run %s%s percentiles", pct,
	         strchr(pct, '.') || (n > 1 && pct[n - 2] == '1') ? "th"
	         : pct[n - 1] == '1' ? "st" : pct[n - 1] == '2' ? "nd" : pct[n - 1] == '3' ? "rd" : "th");
	return buf;
}

/* --sense FILE: a calibration of this harness by pb-sense(1), A/A
 * studies with known delays. The finding cites the smallest delay its t
 * analysis resolved (pb-pair --by-run --stat S | pb-logratio | pb-tint,
 * at its level), and says so when the analysis read here is another, or
 * the calibration was made of another workload or machine. Its warnings
 * become clauses too. What pb-sense knows only at the end (the median,
 * what it resolved) follows its rows. */
static struct {
	char *level, *stat, *median, *t_resolves, *other;  /* other: a key that differs */
} sense;

static void keep_sense_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	char **slot = strcmp(m->key, "pb-sense.median_ns") == 0 ? &sense.median
	              : strcmp(m->key, "pb-sense.t_resolves") == 0 ? &sense.t_resolves : NULL;
	char *t;

	(void)s;
	if (slot) {
		free(*slot);
		*slot = xstrdup(m->value);
	} else if (strcmp(m->key, "pb-sense.warning") == 0) {
		t = xmalloc(strlen(m->value) + 20);
		sprintf(t, "the calibration: %s", m->value);
		add_warning(ctx, t);
		free(t);
	}
}

static void sense_parse(int64_t *r, int64_t *m, double *median);

static void read_sense(struct warnings *w, const struct stream *in, const char *file)
{
	static struct stream c;   /* static: reachable when a bad row ends the program */
	static const char *workload[] = { "host", "mode", "worker", "cmd_a", "sql_a" };
	char *files[1];
	const char *v, *u;
	size_t i;

	files[0] = (char *)file;
	stream_open(&c, 1, files);
	stream_on_meta(&c, keep_sense_meta, w);
	stream_header(&c);
	if (stream_col_find(&c, "delay_ns") < 0 || stream_col_find(&c, "t_resolved") < 0)
		die("--sense %s: not the output of pb-sense with its t analysis (no columns delay_ns "
		    "and t_resolved): run pb-sense again", file);
	while (stream_row(&c))
		;
	v = stream_head_meta(&c, "pb-sense.level", -1);
	u = stream_head_meta(&c, "pb-sense.stat", -1);
	if (!v || !u || !sense.median || !sense.t_resolves)
		die("--sense %s: pb-sense's level, statistic, median or what it resolved is missing "
		    "(a cut file?)", file);
	sense.level = xstrdup(v);
	sense.stat = xstrdup(u);
	{
		int64_t r, m;
		double median;

		sense_parse(&r, &m, &median);   /* refused now, before any output */
	}
	for (i = 0; i < LEN(workload); i++) {
		v = stream_head_meta(&c, workload[i], -1);
		u = stream_head_meta(in, workload[i], -1);
		if (v && u && strcmp(v, u) != 0 && !sense.other)
			sense.other = xstrdup(workload[i]);
	}
	stream_close(&c);
}

/* The first word of pb-pair's "# pb-pair.by_run:", the per-run statistic
 * as pb-pair and pb-sense name it; NULL when there is none. */
static const char *by_run_word(const struct stream *s, char buf[32])
{
	const char *v = stream_head_meta(s, "pb-pair.by_run", -1);
	size_t n;

	if (!v || (n = strcspn(v, " :")) >= 32)
		return NULL;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return buf;
}

/* Why the analysis read here is not the one pb-sense calibrated, or NULL
 * when it is. */
static const char *other_analysis(const struct opts *o, const struct sample_kind *k)
{
	static char why[160];
	char word[32], b[NUM_BUFSZ];
	const char *w = by_run_word(k->stream, word);
	double level;

	if (!o->log_ratio)
		return "here the mean of a column that is not a log ratio";
	if (k->pairs)
		return "here pairs pooled, not runs";
	if (!k->run_units)
		return "here values that are not runs";
	if (o->sequential > 0)
		return "here a confidence sequence";
	if (!w || strcmp(w, sense.stat) != 0) {
		snprintf(why, sizeof why, "here the per-run statistic %s, there %s", w ? w : "unknown",
		         sense.stat);
		return why;
	}
	if (num_parse(sense.level, &level) < 0 || level != o->level) {
		num_format(b, o->level);
		snprintf(why, sizeof why, "here level %s, there %s", b, sense.level);
		return why;
	}
	return NULL;
}

/* "0.4707% (1.000 µs)": a delay as a share of the workload's median. */
static void delay_words(int64_t ns, double median)
{
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	out_meta_text("%s%% (%s)", sig4(b1, 100 * (double)ns / median), sig4_ns(b2, (double)ns));
}

/* What pb-sense resolved and missed (-1: none) and the workload's
 * median, from its lines; checked when the file is read, before any
 * output. The median is of times in whole ns: at least 1 (a smaller one
 * makes the delays' shares of it overflow). */
static void sense_parse(int64_t *r, int64_t *m, double *median)
{
	const char *miss = strstr(sense.t_resolves, "; missed ");
	char res[32], b1[MSG_CUT_BUF], b2[MSG_CUT_BUF];
	size_t n = strcspn(sense.t_resolves, ";");

	*r = *m = -1;
	if (n >= sizeof res || num_parse(sense.median, median) < 0 || !(*median >= 1) || !miss)
		die("--sense: '# pb-sense.t_resolves: %s' or '# pb-sense.median_ns: %s' is not as "
		    "pb-sense writes them", msg_cut(b1, sense.t_resolves), msg_cut(b2, sense.median));
	memcpy(res, sense.t_resolves, n);
	res[n] = '\0';
	if ((strcmp(res, "none") != 0 && (num_parse_i64(res, r) < 0 || *r < 0)) ||
	    (strcmp(miss + 9, "none") != 0 && (num_parse_i64(miss + 9, m) < 0 || *m < 0)))
		die("--sense: '# pb-sense.t_resolves: %s' is not as pb-sense writes it",
		    msg_cut(b1, sense.t_resolves));
}

static void sense_clause(const struct opts *o, const struct sample_kind *k)
{
	const char *why = other_analysis(o, k);
	int64_t r, m;
	double median;

	sense_parse(&r, &m, &median);
	out_meta_text(" Calibration: this harness resolves ");
	if (r < 0 && m < 0)
		out_meta_text("nothing it was shown (no delay above 0 was tried)");
	else if (r < 0) {
		out_meta_text("none of the delays tried, up to ");
		delay_words(m, median);
		out_meta_text(",");
	} else {
		delay_words(r, median);
		if (m < 0)
			out_meta_text(", the smallest delay tried,");
	}
	if (sense.other)
		out_meta_text(" on another workload or machine (%s differs)", sense.other);
	else
		out_meta_text(" on this workload");
	if (r >= 0 && m >= 0) {
		out_meta_text(", but not ");
		delay_words(m, median);
		out_meta_text(",");
	}
	if (why)
		out_meta_text(" with the t interval over per-run log ratios (per-run %s, level %s), "
		              "not with this analysis (%s).", sense.stat, sense.level, why);
	else
		out_meta_text(" with this analysis.");
}

/* The finding's tag: the group's key, "[2] "; for a stream of
 * comparisons the key without the arm, which the sentence names. */
static void finding_tag(const char *key, int grouped, long arm_at, const struct opts *o)
{
	const char *p = key, *end;
	long i;

	if (!grouped)
		return;
	if (arm_at < 0 || !o->log_ratio) {
		out_meta_text("[%s] ", key);
		return;
	}
	for (i = 0; i < arm_at; i++)   /* to the arm's field */
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

static void print_finding(const struct warnings *w, const char *key, const struct interval *r,
                          long runs, const struct sample_kind *k, const struct opts *o,
                          const struct interval_method *m, int grouped, long arm_at,
                          const struct names *nm)
{
	char b1[SIG_BUFSZ];

	out_meta_begin("finding");
	finding_tag(key, grouped, arm_at, o);
	if (o->log_ratio)
		ratio_sentence(r, o, nm);
	else {
		out_meta_text("mean %s %s, ", o->column, finding_num(b1, r->mean, o));
		interval_words(r, r->lo, r->hi, o, 1);
	}
	method_words(o, k->statistic);
	print_sample(r, runs, k);
	family_words(o, nm);
	out_meta_text(").");
	if (r->unbounded && seq_first_bounded(o->seq_g, o->each_level) < 0)
		out_meta_text(" It stays unbounded beyond a million values at this g and level: "
		              "more runs will not bound it; a larger g would.");
	else if (r->unbounded)
		out_meta_text(" It needs at least %ld values at this g and level; more runs "
		       "will bound it.", seq_first_bounded(o->seq_g, o->each_level));
	else if (o->has_threshold)
		threshold_sentence(interval_verdict(r, m), r, o, nm);
	else
		resolved_sentence(r, o, nm);
	if (k->pairs && runs > 1 && !k->grouped_by_run)
		out_meta_text(" Caution: pairs inside a run are not independent, so this "
		              "interval can be too narrow; pb-pair --by-run makes runs the unit.");
	if (o->sense)
		sense_clause(o, k);
	warning_clauses(w, nm);
	out_meta_end();
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->column = "lr";
	o->level = 0.95;
	o->sequential = -1;
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'c': o->column = optarg; break;
		case 'g': o->group = optarg; break;
		case 'l': o->level = opt_level("level", optarg), o->level_given = 1; break;
		case 'T':
			o->threshold = opt_num("threshold", optarg);
			o->has_threshold = 1;
			break;
		case 'd': o->df_cap = opt_count("df-cap", optarg, 1000000000L); break;
		case 'f': o->finding = 1; break;
		case 'L': o->log_ratio = 1; break;
		case 'C': o->check = optarg; break;
		case 'E': o->sense = optarg; break;
		case 'a':
			o->adjust = (enum adjust)(1 + opt_choice("adjust", optarg, adjust_names + 1, 2));
			break;
		case 'S': o->sequential = 1; break;
		case 'N': o->sequential = 0; break;
		case 'G':
			o->seq_g = opt_num("seq-g", optarg);
			if (!(o->seq_g > 0) || o->seq_g > 1e12)
				die_usage("--seq-g wants a number above 0 (and up to 1e12), "
				          "not '%s'", optarg);
			o->seq_g_given = 1;
			break;
		}
	}
	if (o->check && !o->finding)
		die_usage("--check goes with --finding: its warnings become clauses of the finding");
	if (o->check && strcmp(o->check, "-") == 0 && optind == argc)
		die_usage("--check -: the standard input is already the input; give one of them "
		          "as a file");
	if (o->sense && !o->finding)
		die_usage("--sense goes with --finding: the calibration becomes a clause of the finding");
	if (o->sense && strcmp(o->sense, "-") == 0 && (optind == argc || (o->check &&
	    strcmp(o->check, "-") == 0)))
		die_usage("--sense -: the standard input is already read for another; give the "
		          "calibration as a file");
	if (o->seq_g_given && o->sequential == 0)
		die_usage("--seq-g goes with the confidence sequence, not --no-sequential");
	if (o->df_cap && o->sequential > 0)
		die_usage("--df-cap is for the t interval; a confidence sequence "
		          "uses df = n - 1");
	if (o->adjust == ADJUST_HOLM && o->sequential > 0)
		die_usage("--adjust holm steps down on p values, which a confidence sequence "
		          "has none of; use --adjust bonferroni");
}

/* A study pb-run --until stopped by looking at its runs ("# until:" in
 * its head) gets the confidence sequence, whose g the head gives; a
 * fixed-n t interval of it is too narrow, so forcing one is warned of. */
static void choose_method(const struct stream *s, struct opts *o)
{
	const char *until = stream_head_meta(s, "until", -1);
	const char *g = stream_head_meta(s, "seq_g", -1);
	const char *level = stream_head_meta(s, "seq_level", -1);
	char b[MSG_CUT_BUF];

	if (o->sequential == 0 && until)
		warn("this study stopped by a sequential rule (--until %s); a fixed-n t "
		     "interval of it is too narrow (optional stopping)", until);
	if (o->sequential < 0)
		o->sequential = until != NULL;
	if (o->sequential > 0 && !o->seq_g_given) {
		o->seq_g = SEQ_G_DEFAULT;
		if (until && g && (num_parse(g, &o->seq_g) < 0 || !(o->seq_g > 0) ||
		                   o->seq_g > 1e12))
			die("%s: '# seq_g: %s' is not a g above 0 and up to 1e12 (as pb-run "
			    "--seq-g takes)", s->name, msg_cut(b, g));
	}
	/* the level the study was stopped at, unless another is asked for */
	if (o->sequential > 0 && until && level && !o->level_given &&
	    (num_parse(level, &o->level) < 0 || !(o->level > 0 && o->level < 1) ||
	     1 - (1 - o->level) / 2 == 1 || 1 - (1 - o->level) / 2 == 0.5))
		die("%s: '# seq_level: %s' is not a level between 0 and 1 that a double "
		    "holds (as pb-run --level takes)", s->name, msg_cut(b, level));
	if (o->sequential > 0 && o->df_cap)
		die_usage("--df-cap is for the t interval; this study gets a confidence "
		          "sequence (--no-sequential for the t interval)");
	if (o->sequential > 0 && o->adjust == ADJUST_HOLM)
		die_usage("--adjust holm steps down on p values, which the confidence sequence "
		          "this study gets has none of; use --adjust bonferroni (or --no-sequential)");
}

/* "# pb-tint.adjust:" with --adjust, and for several comparisons without. */
static void print_adjust(const struct opts *o, int comparisons)
{
	char l[NUM_BUFSZ], e[NUM_BUFSZ];

	num_format(l, o->level);
	num_format(e, o->each_level);
	if (o->adjust == ADJUST_BONFERRONI)
		out_meta("pb-tint.adjust", "bonferroni: %zu intervals, each at level 1 - (1 - %s)/%zu "
		         "= %s, so that all %zu hold together at %s; p is the two-sided t test's of "
		         "the mean %s, p_adj = min(1, %zu p)", o->family, l, o->family, e, o->family, l,
		         o->has_threshold ? "at the threshold" : o->log_ratio ? "at ratio 1" : "at 0",
		         o->family);
	else if (o->adjust == ADJUST_HOLM)
		out_meta("pb-tint.adjust", "holm: p is the two-sided t test's of the mean %s; in "
		         "increasing p, p_adj = the largest (m - j + 1) p(j) so far, m = %zu, capped at "
		         "1; resolved (and the verdict) when p_adj <= 1 - %s, so that the %zu tests "
		         "together err with probability at most 1 - %s; the intervals are Bonferroni's, "
		         "each at level %s, which hold together at %s: a step-down procedure has no "
		         "intervals of its own that hold together and are narrower",
		         o->has_threshold ? "at the threshold" : o->log_ratio ? "at ratio 1" : "at 0",
		         o->family, l, o->family, l, e, l);
	else if (comparisons && o->family > 1)
		out_meta("pb-tint.adjust", "none: each of the %zu intervals holds on its own at %s, "
		         "not together with the others (--adjust bonferroni or holm for intervals "
		         "that hold together)", o->family, l);
}

/* "# pb-tint.method:", and a note when some sequence is unbounded. */
static void print_method(const struct opts *o, const struct interval *iv, size_t n)
{
	char g[NUM_BUFSZ];
	size_t i;

	if (o->sequential <= 0) {
		out_meta("pb-tint.method", "t interval (valid for a number of runs fixed in "
		         "advance)");
		return;
	}
	num_format(g, o->seq_g);
	out_meta("pb-tint.method", "confidence sequence (anytime-valid: holds at every "
	         "number of runs at once; normal prior on the standardized effect, g = %s)", g);
	for (i = 0; i < n && !iv[i].unbounded; i++)
		;
	if (i < n && seq_first_bounded(o->seq_g, o->each_level) < 0)
		out_meta("pb-tint.unbounded", "t, lo and hi are empty where the sequence is "
		         "still unbounded: it stays unbounded beyond a million values at g = %s", g);
	else if (i < n)
		out_meta("pb-tint.unbounded", "t, lo and hi are empty where the sequence is "
		         "still unbounded: it needs at least %ld values at g = %s",
		         seq_first_bounded(o->seq_g, o->each_level), g);
}

/* The method of the intervals, as the options and the input chose it. */
static struct interval_method method_of(const struct opts *o)
{
	struct interval_method m;

	m.level = o->level;
	m.each_level = o->each_level;
	m.sequential = o->sequential;
	m.seq_g = o->seq_g;
	m.df_cap = o->df_cap;
	m.adjust = o->adjust;
	m.family = o->family;
	m.log_ratio = o->log_ratio;
	m.has_threshold = o->has_threshold;
	m.threshold = o->threshold;
	return m;
}

/* The header and a row per group: the group's fields, then the interval's. */
static void print_rows(const struct stream *s, const struct group_cols *gc,
                       const struct strmap *g, const struct interval *iv,
                       const struct interval_method *m)
{
	size_t i;

	for (i = 0; i < gc->n; i++)
		out_field(s->col[gc->col[i]]);
	interval_header_out(m);
	for (i = 0; i < g->n; i++) {
		group_cols_put(gc, g->key[i], g->keylen[i]);
		interval_row_out(&iv[i], m);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct group_cols gc;
	struct strmap g = { 0 };
	struct acc *acc = NULL;
	struct interval *iv;
	struct interval_method im;
	struct sample_kind kind;
	size_t col, cap = 0, i, klen;
	long runcol, paircol, armcol, arm_at = -1;
	struct group_runs rt = { 0 };
	struct warnings warn = { 0 };
	struct names nm = { "A", "B", 0 };
	int arm_added;

	pb_init("pb-tint");
	out_init();
	parse_args(argc, argv, &o);
	stream_open(&s, argc - optind, argv + optind);
	stream_on_meta(&s, keep_warning, &warn);
	stream_header(&s);
	choose_method(&s, &o);
	col = value_column(&s, o.column);
	o.group = group_with_arm(&s, o.group, &arm_added);
	group_cols_parse(&gc, &s, o.group);
	armcol = stream_col_find(&s, "arm");
	for (i = 0; group_has_arms(&s) && i < gc.n; i++)
		if ((long)gc.col[i] == armcol)
			arm_at = (long)i;
	nm.comparisons = arm_at >= 0;
	if (nm.comparisons)
		nm.ref = group_reference(&s);
	runcol = stream_col_find(&s, "run");
	paircol = stream_col_find(&s, "pair");
	kind.pairs = runcol >= 0 && paircol >= 0;
	kind.run_units = runcol >= 0 && paircol < 0;
	kind.grouped_by_run = group_cols_has(&gc, runcol);
	kind.statistic = by_run_statistic(&s, o.column, kind.run_units);
	kind.stream = &s;

	while (stream_row(&s)) {
		const char *key = "";
		size_t gi = 0;

		klen = 0;
		if (gc.n || !g.n) {   /* one group without --group: made once */
			if (gc.n)
				key = group_cols_key(&gc, &s, &klen);
			gi = strmap_intern(&g, key, klen);
			xgrow_zero(&acc, &cap, gi + 1, sizeof *acc);
		}
		interval_values_add(&acc[gi].v, stream_num(&s, col));
		if (runcol >= 0)
			acc[gi].runs += group_runs_first(&rt, gi, key, klen, s.field[runcol],
			                                   stream_field_len(&s, (size_t)runcol));
	}
	if (o.check)
		read_check(&warn, &s, o.check);
	if (o.sense)
		read_sense(&warn, &s, o.sense);
	/* After all input: pb-logratio's declaration may come from any file. */
	o.log_ratio = is_log_ratio(&s, o.column, o.log_ratio);
	o.q = log_ratio_quantity(&s, o.column);
	if (o.log_ratio && o.has_threshold && !(o.threshold > 0))
		die_usage("--threshold is a ratio A/B for the log-ratio column '%s'; "
		          "it must be > 0", o.column);
	o.family = g.n;
	o.each_level = o.adjust ? 1 - (1 - o.level) / (double)g.n : o.level;
	im = method_of(&o);
	iv = xmalloc(g.n * sizeof *iv);
	for (i = 0; i < g.n; i++)
		iv[i] = interval_checked(&acc[i].v, gc.n > 0, subject(gc.n > 0, g.key[i], o.column),
		                         o.column, &im);
	interval_adjust(iv, g.n, &im);

	out_begin(&s, argc, argv);
	group_arm_meta("pb-tint", o.group, arm_added);
	if (o.log_ratio && !o.q->wall)
		out_meta("pb-tint.column", "%s (log ratio ln(a/b) of %s, a the %s, b the %s; "
		         "ratio = a/b %s, > 1 means the %s used less; reduction = 1 - 1/ratio)",
		         o.column, o.q->noun, nm.comparisons ? "reference's" : "baseline A's",
		         nm.comparisons ? "candidate's (arm)" : "candidate B's", o.q->noun,
		         nm.comparisons ? "candidate" : "candidate B");
	else if (nm.comparisons)
		out_meta("pb-tint.column", "%s%s", o.column, o.log_ratio ?
		         " (log ratio ln(a/b), a the reference's time, b the candidate's (arm); "
		         "ratio = a/b time, > 1 means the candidate took less time; reduction = "
		         "1 - 1/ratio)" : "");
	else
		out_meta("pb-tint.column", "%s%s", o.column, o.log_ratio ?
		         " (log ratio ln(A/B); ratio = A/B time, > 1 means B took less "
		         "time; reduction = 1 - 1/ratio)" : "");
	out_meta_num("pb-tint.level", "%s", o.level);
	print_method(&o, iv, g.n);
	print_adjust(&o, nm.comparisons);
	if (o.df_cap)
		out_meta("pb-tint.df", "min(n-1, %ld)", o.df_cap);
	if (o.has_threshold)
		out_meta_num("pb-tint.threshold", o.log_ratio ? "%s (ratio A/B)" : "%s",
		             o.threshold);
	print_rows(&s, &gc, &g, iv, &im);
	if (o.finding)
		for (i = 0; i < g.n; i++) {
			if (nm.comparisons)
				nm.cand = group_key_field(g.key[i], arm_at);
			print_finding(&warn, g.key[i], &iv[i], acc[i].runs, &kind, &o, &im, gc.n > 0,
			              arm_at, &nm);
		}
	free(iv);
	free(acc);
	group_runs_free(&rt);
	for (i = 0; i < warn.n; i++)
		free(warn.v[i]);
	free(warn.v);
	strmap_free(&g);
	group_cols_free(&gc);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}

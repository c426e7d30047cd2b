/* pb-tint: Student t interval of a column's mean, per group, with the
 * back-transform for log ratios, a threshold verdict and a finding. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "human.h"
#include "num.h"
#include "opt.h"
#include "out.h"
#include "seq.h"
#include "stats.h"
#include "stream.h"
#include "strmap.h"

static const char usage[] =
	"usage: pb-tint [options] [FILE...]\n"
	"Student t interval of the mean of a column, per group.\n"
	"  --column COL     the column (default lr)\n"
	"  --group COLS     one interval per value of these columns (comma list)\n"
	"  --level L        confidence level (default 0.95)\n"
	"  --threshold T    verdict above/below/crosses against T (a ratio A/B\n"
	"                   for a log-ratio column, the column's unit otherwise)\n"
	"  --df-cap N       use df = min(n-1, N)\n"
	"  --finding        add one sentence per group: '# finding: ...'\n"
	"  --log-ratio      treat the column as a log ratio (automatic for lr\n"
	"                   and for columns pb-logratio declared)\n"
	"  --sequential     an anytime-valid confidence sequence instead of the\n"
	"                   t interval (default for a study pb-run --until made)\n"
	"  --no-sequential  the fixed-n t interval even for such a study\n"
	"  --seq-g G        the sequence's prior variance g (default 25)\n"
	"  --check FILE     with --finding: cite the warnings of pb-check's output\n"
	"                   FILE, one clause each\n"
	"  --help, --version\n"
	"Output: [group...] n mean sd se df t lo hi, then ratio ratio_lo ratio_hi\n"
	"reduction for a log ratio, then verdict with --threshold.\n";

static const struct option longopts[] = {
	{ "column", required_argument, NULL, 'c' },
	{ "group", required_argument, NULL, 'g' },
	{ "level", required_argument, NULL, 'l' },
	{ "threshold", required_argument, NULL, 'T' },
	{ "df-cap", required_argument, NULL, 'd' },
	{ "finding", no_argument, NULL, 'f' },
	{ "log-ratio", no_argument, NULL, 'L' },
	{ "sequential", no_argument, NULL, 'S' },
	{ "no-sequential", no_argument, NULL, 'N' },
	{ "seq-g", required_argument, NULL, 'G' },
	{ "check", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct opts {
	const char *column, *group, *check;
	double level, threshold, seq_g;
	long df_cap;
	int has_threshold, finding, log_ratio;
	int sequential;      /* 1 on, 0 off, -1 not said: as the study was made */
	int seq_g_given, level_given;
};

struct acc {
	struct welford w;
	double min, max;
	long runs;
};

static void acc_add(struct acc *a, double x)
{
	if (a->w.n == 0 || x < a->min)
		a->min = x;
	if (a->w.n == 0 || x > a->max)
		a->max = x;
	welford_add(&a->w, x);
}

struct interval {
	double n, mean, sd, se, df, t, lo, hi;
	int unbounded;       /* a confidence sequence with too few values yet */
};

/* The t interval, or with --sequential the confidence sequence at this n
 * (lib/seq.c: the same function pb-run --until uses, so the two agree to
 * the last digit). An unbounded sequence has lo = -inf and hi = +inf,
 * which are never printed: the fields stay empty. */
static struct interval t_interval(const struct acc *a, const struct opts *o)
{
	struct interval r;

	r.n = a->w.n;
	r.mean = welford_mean(&a->w);
	r.sd = sqrt(welford_var(&a->w));
	r.se = r.sd / sqrt(r.n);
	r.df = r.n - 1;
	r.unbounded = 0;
	if (o->sequential > 0) {
		if (seq_interval(r.n, r.mean, r.sd, o->seq_g, o->level, &r.t, &r.lo, &r.hi) < 0) {
			r.unbounded = 1;
			r.t = NAN;
			r.lo = -INFINITY;
			r.hi = INFINITY;
		}
		return r;
	}
	if (o->df_cap > 0 && r.df > (double)o->df_cap)
		r.df = (double)o->df_cap;
	r.t = stat_qt(1 - (1 - o->level) / 2, r.df);
	r.lo = r.mean - r.t * r.se;
	r.hi = r.mean + r.t * r.se;
	return r;
}

static const char *verdict(double lo, double hi, double threshold)
{
	if (lo >= threshold)
		return "above";
	if (hi < threshold)
		return "below";
	return "crosses";
}

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

/* The interval of a group, or one line and exit 1 when a double cannot
 * hold it: no row or finding ever shows inf, nan or a variance that
 * underflowed to 0. */
static struct interval checked_interval(const struct acc *a, int grouped, const char *key,
                                        const struct opts *o)
{
	struct interval r;
	const char *what = subject(grouped, key, o->column);

	if (a->w.n < 2)
		die("%s: only 1 value; an interval needs at least 2",
		    grouped ? what : o->column);
	if (!isfinite(a->w.m2) || !isfinite(welford_mean(&a->w)))
		die("%s: values too large: their variance overflows a double", what);
	if (a->w.m2 < DBL_MIN && a->min != a->max)
		die("%s: values too close together: their variance underflows a double "
		    "(rescale the column)", what);
	if (a->w.m2 == 0)
		warn("%s: all %.0f values are equal (sd = 0): the interval has zero width",
		     what, a->w.n);
	r = t_interval(a, o);
	if (r.unbounded)
		return r;
	/* opt_level keeps t finite and a finite variance keeps t * se far
	 * from overflow; the last guard, should either change */
	if (!isfinite(r.t) || !isfinite(r.lo) || !isfinite(r.hi))
		die("%s: values too large: the interval's ends overflow a double", what);
	if (o->log_ratio && (!isfinite(exp(r.hi)) || !isfinite(exp(-r.lo)))) {
		char lo[NUM_BUFSZ], hi[NUM_BUFSZ];

		num_format(lo, r.lo);
		num_format(hi, r.hi);
		die("%s: the interval %s to %s of the log ratio reaches beyond +-709.78, "
		    "where the ratio A/B overflows a double (is '%s' a log ratio?)",
		    what, lo, hi, o->column);
	}
	return r;
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

/* A column is a log ratio when it is called lr, when pb-logratio said so
 * in the metadata ("# log_ratio: COL = ln(a/b)..."), or when asked. */
static int is_log_ratio(const struct stream *s, const char *col, int forced)
{
	size_t i, n = strlen(col);

	if (forced || strcmp(col, "lr") == 0)
		return 1;
	for (i = 0; i < s->nmeta; i++)
		if (strcmp(s->meta[i].key, "log_ratio") == 0 &&
		    strncmp(s->meta[i].value, col, n) == 0 &&
		    strncmp(s->meta[i].value + n, " = ", 3) == 0)
			return 1;
	return 0;
}

static void print_header(const struct stream *s, const struct group_cols *gc,
                         const struct opts *o)
{
	static const char *base[] = { "n", "mean", "sd", "se", "df", "t", "lo", "hi" };
	size_t i;

	for (i = 0; i < gc->n; i++)
		out_field(s->col[gc->col[i]]);
	for (i = 0; i < LEN(base); i++)
		out_field(base[i]);
	if (o->log_ratio) {
		out_field("ratio");
		out_field("ratio_lo");
		out_field("ratio_hi");
		out_field("reduction");
	}
	if (o->has_threshold)
		out_field("verdict");
	out_end();
}

static void print_row(const struct group_cols *gc, const char *key, size_t klen,
                      const struct interval *r, const struct opts *o)
{
	group_cols_put(gc, key, klen);
	out_num(r->n);
	out_num(r->mean);
	out_num(r->sd);
	out_num(r->se);
	out_num(r->df);
	out_num_or_empty(r->t);
	out_num_or_empty(r->lo);
	out_num_or_empty(r->hi);
	if (o->log_ratio) {
		out_num(exp(r->mean));
		out_num_or_empty(r->unbounded ? NAN : exp(r->lo));
		out_num_or_empty(r->unbounded ? NAN : exp(r->hi));
		out_num(1 - exp(-r->mean));
	}
	if (o->has_threshold)
		out_field(o->log_ratio ? verdict(exp(r->lo), exp(r->hi), o->threshold)
		                       : verdict(r->lo, r->hi, o->threshold));
	out_end();
}

struct sample_kind {
	int pairs;      /* rows are pairs inside runs (a pair column) */
	int run_units;  /* rows are whole runs (a run column, no pair column) */
	int grouped_by_run;
	const char *statistic;   /* "per-run 99th percentiles", or NULL (medians) */
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
	       ns ? finding_num(b2, lo, o) : sig4(b2, lo),
	       ns ? finding_num(b3, hi, o) : sig4(b3, hi));
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

/* A direction only when the interval excludes 1; otherwise the sentence
 * starts by saying that none was resolved. */
static void ratio_sentence(const struct interval *r, const struct opts *o)
{
	double ratio = exp(r->mean), rel = 1 / ratio, lo = exp(r->lo), hi = exp(r->hi);
	char b1[SIG_BUFSZ], b2[SIG_BUFSZ];

	if (lo <= 1 && hi >= 1)
		out_meta_text("No difference resolved: ");
	else if (rel < 1)
		out_meta_text("B took %s%% less time than A: ", sig4(b1, 100 * (1 - rel)));
	else
		out_meta_text("B took %s%% more time than A: ", sig4(b1, 100 * (rel - 1)));
	out_meta_text("A/B time ratio %s, ", sig4(b2, ratio));
	interval_words(r, lo, hi, o, 0);
}

static void threshold_sentence(const char *v, const struct opts *o)
{
	char t[NUM_BUFSZ];

	num_format(t, o->threshold);
	if (o->log_ratio) {
		out_meta_text(" Threshold %s: %s; ", t, v);
		if (strcmp(v, "above") == 0)
			out_meta_text("the whole interval is at or over it, so B is at least "
			              "%sx as fast as A.", t);
		else if (strcmp(v, "below") == 0)
			out_meta_text("the whole interval is under it, so B is not %sx as "
			              "fast as A.", t);
		else
			out_meta_text("the interval contains it, so these data cannot say whether "
			              "B is %sx as fast as A; more runs would narrow it.", t);
		return;
	}
	out_meta_text(" Threshold %s%s: %s; ", t, is_ns_column(o->column) ? " ns" : "", v);
	if (strcmp(v, "above") == 0)
		out_meta_text("the whole interval is at or over it.");
	else if (strcmp(v, "below") == 0)
		out_meta_text("the whole interval is under it.");
	else
		out_meta_text("the interval contains it; more runs would narrow it.");
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

static void warning_clauses(const struct warnings *w)
{
	size_t i, n;

	for (i = 0; i < w->n; i++) {
		n = strlen(w->v[i]);
		out_meta_text(" Warning: ");
		out_meta_as_read(w->v[i]);
		if (n == 0 || w->v[i][n - 1] != '.')
			out_meta_text(".");
	}
	if (w->more)
		out_meta_text(" And %zu more warning%s in the input.", w->more, w->more == 1 ? "" : "s");
	if (w->checked && !w->check_warned)
		out_meta_text(" pb-check warned of nothing.");
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

static void print_finding(const struct warnings *w, const char *key, const struct interval *r,
                          long runs, const struct sample_kind *k, const struct opts *o,
                          int grouped)
{
	double lo = o->log_ratio ? exp(r->lo) : r->lo, hi = o->log_ratio ? exp(r->hi) : r->hi;
	double none = o->log_ratio ? 1 : 0;
	char b1[SIG_BUFSZ];

	out_meta_begin("finding");
	if (grouped)
		out_meta_text("[%s] ", key);
	if (o->log_ratio)
		ratio_sentence(r, o);
	else {
		out_meta_text("mean %s %s, ", o->column, finding_num(b1, r->mean, o));
		interval_words(r, r->lo, r->hi, o, 1);
	}
	method_words(o, k->statistic);
	print_sample(r, runs, k);
	out_meta_text(").");
	if (r->unbounded)
		out_meta_text(" It needs at least %ld values at this g and level; more runs "
		       "will bound it.", seq_first_bounded(o->seq_g, o->level));
	else if (o->has_threshold)
		threshold_sentence(verdict(lo, hi, o->threshold), o);
	else if (lo > none || hi < none)
		out_meta_text(" The interval excludes %g: %s.", none, o->log_ratio ?
		              (lo > 1 ? "B is faster" : "B is slower") :
		              (lo > 0 ? "the mean is above 0" : "the mean is below 0"));
	else if (o->log_ratio)
		out_meta_text(" The interval includes 1: B may be faster or slower; more runs "
		              "would narrow it.");
	else
		out_meta_text(" The interval includes 0: no difference is resolved.");
	if (k->pairs && runs > 1 && !k->grouped_by_run)
		out_meta_text(" Caution: pairs inside a run are not independent, so this "
		              "interval can be too narrow; pb-pair --by-run makes runs the unit.");
	warning_clauses(w);
	out_meta_end();
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->column = "lr";
	o->level = 0.95;
	o->sequential = -1;
	while ((c = pb_getopt(argc, argv, "", longopts, usage)) != -1) {
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
	if (o->seq_g_given && o->sequential == 0)
		die_usage("--seq-g goes with the confidence sequence, not --no-sequential");
	if (o->df_cap && o->sequential > 0)
		die_usage("--df-cap is for the t interval; a confidence sequence "
		          "uses df = n - 1");
}

/* A study pb-run --until stopped by looking at its runs ("# until:" in
 * its head) gets the confidence sequence, whose g the head gives; a
 * fixed-n t interval of it is too narrow, so forcing one is warned of. */
static void choose_method(const struct stream *s, struct opts *o)
{
	const char *until = stream_head_meta(s, "until", -1);
	const char *g = stream_head_meta(s, "seq_g", -1);
	const char *level = stream_head_meta(s, "seq_level", -1);

	if (o->sequential == 0 && until)
		warn("this study stopped by a sequential rule (--until %s); a fixed-n t "
		     "interval of it is too narrow (optional stopping)", until);
	if (o->sequential < 0)
		o->sequential = until != NULL;
	if (o->sequential > 0 && !o->seq_g_given) {
		o->seq_g = SEQ_G_DEFAULT;
		if (until && g && (num_parse(g, &o->seq_g) < 0 || !(o->seq_g > 0)))
			die("%s: '# seq_g: %s' is not a g above 0", s->name, g);
	}
	/* the level the study was stopped at, unless another is asked for */
	if (o->sequential > 0 && until && level && !o->level_given &&
	    (num_parse(level, &o->level) < 0 || !(o->level > 0 && o->level < 1)))
		die("%s: '# seq_level: %s' is not a level between 0 and 1", s->name, level);
	if (o->sequential > 0 && o->df_cap)
		die_usage("--df-cap is for the t interval; this study gets a confidence "
		          "sequence (--no-sequential for the t interval)");
}

/* Counts distinct runs per group; rows of one run usually come together,
 * so the previous row's key is checked before the hash map. */
struct run_tracker {
	struct strmap seen;
	char *key, *last;
	size_t len, lastlen, cap, lastcap;
};

static int run_seen_first(struct run_tracker *t, const char *group, size_t glen,
                          const char *run)
{
	size_t before = t->seen.n, cap;
	char *tmp;

	t->len = group_subkey(&t->key, &t->cap, group, glen, run);
	if (t->len == t->lastlen && memcmp(t->key, t->last, t->len) == 0)
		return 0;
	strmap_intern(&t->seen, t->key, t->len);
	tmp = t->last, t->last = t->key, t->key = tmp;
	t->lastlen = t->len;
	cap = t->lastcap, t->lastcap = t->cap, t->cap = cap;
	return t->seen.n > before;
}

static void run_tracker_free(struct run_tracker *t)
{
	strmap_free(&t->seen);
	free(t->key);
	free(t->last);
}

static int groups_include(const struct group_cols *gc, long col)
{
	size_t i;

	for (i = 0; i < gc->n; i++)
		if ((long)gc->col[i] == col)
			return 1;
	return 0;
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
	if (i < n)
		out_meta("pb-tint.unbounded", "t, lo and hi are empty where the sequence is "
		         "still unbounded: it needs at least %ld values at g = %s",
		         seq_first_bounded(o->seq_g, o->level), g);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct group_cols gc;
	struct strmap g = { 0 };
	struct acc *acc = NULL;
	struct interval *iv;
	struct sample_kind kind;
	size_t col, cap = 0, i, klen;
	long runcol, paircol;
	struct run_tracker rt = { 0 };
	struct warnings warn = { 0 };

	pb_init("pb-tint");
	out_init();
	parse_args(argc, argv, &o);
	stream_open(&s, argc - optind, argv + optind);
	stream_on_meta(&s, keep_warning, &warn);
	stream_header(&s);
	choose_method(&s, &o);
	col = value_column(&s, o.column);
	group_cols_parse(&gc, &s, o.group);
	runcol = stream_col_find(&s, "run");
	paircol = stream_col_find(&s, "pair");
	kind.pairs = runcol >= 0 && paircol >= 0;
	kind.run_units = runcol >= 0 && paircol < 0;
	kind.grouped_by_run = groups_include(&gc, runcol);
	kind.statistic = by_run_statistic(&s, o.column, kind.run_units);

	while (stream_row(&s)) {
		const char *key = "";
		size_t gi;

		klen = 0;
		if (gc.n)
			key = group_cols_key(&gc, &s, &klen);
		gi = strmap_intern(&g, key, klen);

		xgrow_zero(&acc, &cap, gi + 1, sizeof *acc);
		acc_add(&acc[gi], stream_num(&s, col));
		if (runcol >= 0)
			acc[gi].runs += run_seen_first(&rt, key, klen, s.field[runcol]);
	}
	if (o.check)
		read_check(&warn, &s, o.check);
	/* After all input: pb-logratio's declaration may come from any file. */
	o.log_ratio = is_log_ratio(&s, o.column, o.log_ratio);
	if (o.log_ratio && o.has_threshold && !(o.threshold > 0))
		die_usage("--threshold is a ratio A/B for the log-ratio column '%s'; "
		          "it must be > 0", o.column);
	iv = xmalloc(g.n * sizeof *iv);
	for (i = 0; i < g.n; i++)
		iv[i] = checked_interval(&acc[i], gc.n > 0, g.key[i], &o);

	out_begin(&s, argc, argv);
	out_meta("pb-tint.column", "%s%s", o.column, o.log_ratio ?
	         " (log ratio ln(A/B); ratio = A/B time, > 1 means B took less "
	         "time; reduction = 1 - 1/ratio)" : "");
	out_meta_num("pb-tint.level", "%s", o.level);
	print_method(&o, iv, g.n);
	if (o.df_cap)
		out_meta("pb-tint.df", "min(n-1, %ld)", o.df_cap);
	if (o.has_threshold)
		out_meta_num("pb-tint.threshold", o.log_ratio ? "%s (ratio A/B)" : "%s",
		             o.threshold);
	print_header(&s, &gc, &o);
	for (i = 0; i < g.n; i++)
		print_row(&gc, g.key[i], g.keylen[i], &iv[i], &o);
	if (o.finding)
		for (i = 0; i < g.n; i++)
			print_finding(&warn, g.key[i], &iv[i], acc[i].runs, &kind, &o, gc.n > 0);
	free(iv);
	free(acc);
	run_tracker_free(&rt);
	for (i = 0; i < warn.n; i++)
		free(warn.v[i]);
	free(warn.v);
	strmap_free(&g);
	group_cols_free(&gc);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}

/* pb-tint: Student t interval of a column's mean, per group, with the
 * back-transform for log ratios, a threshold verdict and a finding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "finding.h"
#include "group.h"
#include "hostrep.h"
#include "hosts.h"
#include "human.h"
#include "keys.h"
#include "interval.h"
#include "num.h"
#include "opt.h"
#include "out.h"
#include "quantity.h"
#include "seq.h"
#include "stream.h"
#include "strmap.h"
#include "study.h"

static const char usage[] =
	"usage: pb-tint [options] [FILE...]\n"
	"Student t interval of the mean of a column, per group.\n";

static const char usage_tail[] =
	"Output: [group...] n mean sd se df t lo hi, then ratio ratio_lo ratio_hi\n"
	"reduction for a log ratio, then p p_adj with --adjust, then verdict with\n"
	"--threshold or --tolerance. A stream with an arm column (a study of more than two arms)\n"
	"is grouped by arm first: one interval per candidate against the reference.\n"
	"--unit host: row host n ... reduction, then z (per host), then mu mu_se mu_lo\n"
	"mu_hi tau2 tau2_lo tau2_hi i2 q q_p f f_df2 f_p pred_lo pred_hi and, for a\n"
	"log ratio, "
	"ratio_mu ratio_pred_lo ratio_pred_hi (the row 'hosts'); see pb-tint(1).\n";

static const struct pb_opt options[] = {
	{ "column", 'c', 0, "COL", NULL, "the column (default lr)", NULL, 0 },
	{ "group", 'g', 0, "COLS", NULL,
	  "one interval per value of these columns (comma list)", NULL, 0 },
	{ "level", 'l', 0, "L", NULL, "confidence level (default 0.95)", NULL, 0 },
	{ "threshold", 'T', 0, "T", NULL,
	  "verdict above/below/crosses against T (a ratio A/B\n"
	  "for a log-ratio column, the column's unit otherwise)", NULL, 0 },
	{ "tolerance", 'P', 0, "PCT", NULL,
	  "verdict equivalent, slower, faster, not_slower,\n"
	  "not_faster or undecided against a margin of PCT %\n"
	  "(2 or 2%) about ratio 1, of a log ratio (default:\n"
	  "the study's, pb-run --until tolerance)", NULL, 0 },
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
	{ "seq-g", 'G', 0, "G", NULL, "the t sequence's prior variance g (default: the\n"
	  "study's, else 25); auto: the g pb-compare tuned before\n"
	  "the study ran, refused for a study without one", NULL, 0 },
	{ "sequence", 'K', 0, "K", "t median",
	  "t: the sequence of the mean, for roughly normal runs\n"
	  "(default); median: of the median, whatever their shape", NULL, 0 },
	{ "check", 'C', 0, "FILE", NULL,
	  "with --finding: cite the warnings of pb-check's output\n"
	  "FILE, one clause each", NULL, 0 },
	{ "sense", 'E', 0, "FILE", NULL,
	  "with --finding: cite what pb-sense's calibration FILE\n"
	  "resolves, and whether it calibrated this analysis", NULL, 0 },
	{ "unit", 'u', 0, "U", "run host",
	  "run (default) or host: each host's mean over its runs,\n"
	  "the t interval over hosts and the random-effects\n"
	  "summary (tau2, I2, a prediction interval for a new\n"
	  "host) of a by-run stream with a host column", NULL, 0 },
	{ "adjust", 'a', 0, "M", "bonferroni holm",
	  "bonferroni or holm: the intervals (and verdicts) of all\n"
	  "groups hold together at the level; adds p and p_adj", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 20, usage_tail, 0 };

struct opts {
	const char *column, *group, *check, *sense;
	double level, threshold, seq_g, tolerance;
	long df_cap;
	int has_threshold, finding, log_ratio;
	int has_tolerance;   /* 1 given, 2 the head's (# tolerance:) */
	const struct quantity *q;   /* what the log ratio compares: time, or what
	                             * pb-logratio's declaration names */
	enum adjust adjust;
	int sequential;      /* 1 on, 0 off, -1 not said: as the study was made */
	int seq_g_given, level_given;   /* seq_g_given: 1, or SEQ_G_AUTO */
	int seq_g_of_head;   /* g is the head's # seq_g: */
	const char *seq_g_note;   /* then why, the head's # seq_g.note:, or NULL */
	enum seq_kind seq_kind;
	int seq_kind_given;
	int unit_host;       /* --unit host: hosts are the unit */
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

/* pb-logratio's declaration of col ("# pb-logratio.column: COL A B"):
 * "A B", of the first one, or NULL. */
static const char *log_ratio_decl(const struct study_head *h, const char *col)
{
	return study_head_for(h, KEY_LOGRATIO_COLUMN, col);
}

/* A column is a log ratio when it is called lr, when pb-logratio said so
 * in the metadata, or when asked. */
static int is_log_ratio(const struct study_head *h, const char *col, int forced)
{
	return forced || strcmp(col, "lr") == 0 || log_ratio_decl(h, col) != NULL;
}

/* What the log ratio compares: the declaration's columns say (peak memory
 * for ln(a_maxrss/b_maxrss)); time when none says otherwise. */
static const struct quantity *log_ratio_quantity(const struct study_head *h, const char *col)
{
	const char *d = log_ratio_decl(h, col);

	return quantity_of_log_ratio(d ? d : "a b");
}

struct sample_kind {
	int pairs;      /* rows are pairs inside runs (a pair column) */
	int run_units;  /* rows are whole runs (a run column, no pair column) */
	int grouped_by_run;
	const char *statistic;   /* "per-run 99th percentiles", or NULL (medians) */
	const struct study_head *head;   /* the input's, for --sense */
};

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
enum { SEQ_G_AUTO = 2 };   /* --seq-g auto: the g the study was tuned to */
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
static void read_check(struct warnings *w, const struct study_head *in, const char *file)
{
	static struct study_checks c;   /* static: reachable when a message ends the program */
	const char *in_id = study_head_str(in, "study");
	char b1[MSG_CUT_BUF], b2[MSG_CUT_BUF], *what = xmalloc(strlen(file) + 10);
	size_t i;

	w->first_check = w->n;
	sprintf(what, "--check %s", file);
	study_checks_read(&c, file, what);
	free(what);
	if (c.study && in_id && strcmp(c.study, in_id) != 0)
		die("--check %s checks study %s, but the input is study %s: give pb-check the pairs "
		    "of this study", file, msg_cut(b1, c.study), msg_cut(b2, in_id));
	for (i = 0; i < c.n; i++) {
		const struct study_check_row *r = &c.row[i];

		w->check_rows++;
		w->check_na += strcmp(r->status, "n/a") == 0;
		if (strcmp(r->status, "warn") != 0)
			continue;
		w->check_warned = 1;
		if (*r->arm) {
			size_t n = strlen(r->arm) + strlen(r->note) + 8;
			char *t = xmalloc(n);

			snprintf(t, n, "arm %s: %s", r->arm, r->note);
			add_warning(w, t);
			free(t);
		} else {
			add_warning(w, r->note);
		}
	}
	w->checked = 1;
	study_checks_free(&c);
}

/* What each row of a by-run stream holds, for the finding: from pb-pair's
 * "# pb-pair.stat:" (pb-pair(1)). NULL for the median of each arm, the
 * default the finding has always left unnamed, and for what is not a
 * by-run stream. */
static const char *by_run_statistic(const struct study_head *h, const char *column,
                                    int run_units)
{
	static char buf[64];
	const char *word = study_head_str(h, KEY_PAIR_STAT);
	char pct[SIG_BUFSZ];
	size_t n;
	double p;

	if (!word || !run_units)
		return NULL;
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
	char *level, *stat, *median, *t_resolves, *t_missed;
	char *other;   /* a key of the workload that differs */
} sense;

static void keep_sense_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	char **slot = strcmp(m->key, KEY_SENSE_MEDIAN) == 0 ? &sense.median
	              : strcmp(m->key, KEY_SENSE_T_RESOLVES) == 0 ? &sense.t_resolves
	              : strcmp(m->key, KEY_SENSE_T_MISSED) == 0 ? &sense.t_missed : NULL;
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

static void read_sense(struct warnings *w, const struct study_head *in, const char *file)
{
	static struct stream c;   /* static: reachable when a bad row ends the program */
	static const char *workload[] = { "host", "mode", "worker", "cmd_a", "sql_a" };
	struct study_head h;
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
	study_head_read(&h, &c, -1);
	v = study_head_str(&h, KEY_SENSE_LEVEL);
	u = study_head_str(&h, KEY_SENSE_STAT);
	if (!v || !u || !sense.median || !sense.t_resolves || !sense.t_missed)
		die("--sense %s: pb-sense's level, statistic, median or what it resolved is missing "
		    "(a cut file, or one of an older pb-sense?)", file);
	sense.level = xstrdup(v);
	sense.stat = xstrdup(u);
	{
		int64_t r, m;
		double median;

		sense_parse(&r, &m, &median);   /* refused now, before any output */
	}
	for (i = 0; i < LEN(workload); i++) {
		v = study_head_str(&h, workload[i]);
		u = study_head_str(in, workload[i]);
		if (v && u && strcmp(v, u) != 0 && !sense.other)
			sense.other = xstrdup(workload[i]);
	}
	study_head_free(&h);
	stream_close(&c);
}

/* Why the analysis read here is not the one pb-sense calibrated, or NULL
 * when it is. */
static const char *other_analysis(const struct opts *o, const struct sample_kind *k)
{
	static char why[160];
	char b[NUM_BUFSZ];
	const char *w = study_head_str(k->head, KEY_PAIR_STAT);   /* as pb-sense names it */
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

/* A delay of pb-sense's, whole ns or "none" (*ns = -1): 0, or -1 when
 * it is neither. */
static int sense_delay(const char *v, int64_t *ns)
{
	*ns = -1;
	return strcmp(v, "none") == 0 || (num_parse_i64(v, ns) == 0 && *ns >= 0) ? 0 : -1;
}

/* What pb-sense resolved and missed (-1: none) and the workload's
 * median, from its lines; checked when the file is read, before any
 * output. The median is of times in whole ns: at least 1 (a smaller one
 * makes the delays' shares of it overflow). */
static void sense_parse(int64_t *r, int64_t *m, double *median)
{
	char b1[MSG_CUT_BUF], b2[MSG_CUT_BUF];

	if (num_parse(sense.median, median) < 0 || !(*median >= 1))
		die("--sense: '# " KEY_SENSE_MEDIAN ": %s' is not as pb-sense writes it",
		    msg_cut(b1, sense.median));
	if (sense_delay(sense.t_resolves, r) < 0 || sense_delay(sense.t_missed, m) < 0)
		die("--sense: '# " KEY_SENSE_T_RESOLVES ": %s' or '# " KEY_SENSE_T_MISSED ": %s' is "
		    "not as pb-sense writes them", msg_cut(b1, sense.t_resolves),
		    msg_cut(b2, sense.t_missed));
}

static const char *const unit_names[] = { "run", "host" };

/* --unit host answers one question of one log ratio: what the options
 * that shape other answers would change has no meaning there. */
static void unit_host_refuse(const struct opts *o)
{
	const char *what = o->group ? "--group" : o->adjust ? "--adjust" :
	                   o->sequential > 0 || o->seq_kind_given || o->seq_g_given ?
	                   "the confidence sequence" : o->has_threshold ? "--threshold" :
	                   o->has_tolerance ? "--tolerance" : o->df_cap ? "--df-cap" :
	                   o->check ? "--check" : o->sense ? "--sense" : NULL;

	if (what)
		die_usage("--unit host: %s does not go with it (hosts are one group, a t "
		          "interval over their means and a random-effects summary)", what);
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
		case 'P':
			o->tolerance = opt_pct("tolerance", optarg);
			o->has_tolerance = 1;
			break;
		case 'd': o->df_cap = opt_count("df-cap", optarg, 1000000000L); break;
		case 'f': o->finding = 1; break;
		case 'L': o->log_ratio = 1; break;
		case 'C': o->check = optarg; break;
		case 'E': o->sense = optarg; break;
		case 'a':
			o->adjust = (enum adjust)(1 + opt_choice("adjust", optarg, adjust_names + 1, 2));
			break;
		case 'u': o->unit_host = opt_choice("unit", optarg, unit_names, 2) == 1; break;
		case 'S': o->sequential = 1; break;
		case 'K':
			o->seq_kind = seq_kind_parse("sequence", optarg);
			o->seq_kind_given = 1;
			break;
		case 'N': o->sequential = 0; break;
		case 'G':
			if (strcmp(optarg, "auto") == 0) {
				o->seq_g_given = SEQ_G_AUTO;
				break;
			}
			o->seq_g = opt_num("seq-g", optarg);
			if (!(o->seq_g > 0) || o->seq_g > 1e12)
				die_usage("--seq-g wants a number above 0 (and up to 1e12), "
				          "not '%s'", optarg);
			o->seq_g_given = 1;
			break;
		}
	}
	if (o->has_threshold && o->has_tolerance)
		die_usage("--threshold and --tolerance both give the verdict: one or the other");
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
	if (o->seq_kind_given && o->sequential == 0)
		die_usage("--sequence goes with the confidence sequence, not --no-sequential");
	if (o->seq_g_given && o->seq_kind == SEQ_KIND_MEDIAN)
		die_usage("--seq-g is the t sequence's; the median sequence has no g");
	if (o->unit_host)
		unit_host_refuse(o);
	if (o->seq_kind_given && o->sequential < 0)
		o->sequential = 1;   /* --sequence K asks for a sequence */
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
static void choose_method(const struct stream *s, const struct study_head *h, struct opts *o)
{
	const char *until = study_head_str(h, "until");
	const char *g = study_head_str(h, "seq_g");
	const char *level = study_head_str(h, "seq_level");
	const char *kind = study_head_str(h, "seq_kind");
	char b[MSG_CUT_BUF];

	if (o->sequential == 0 && until)
		warn("this study stopped by a sequential rule (--until %s); a fixed-n t "
		     "interval of it is too narrow (optional stopping)", until);
	if (o->sequential < 0)
		o->sequential = until != NULL;
	if (o->sequential > 0 && until && kind && !o->seq_kind_given) {
		if (strcmp(kind, "t") != 0 && strcmp(kind, "median") != 0)
			die("%s: '# seq_kind: %s' is not t or median (as pb-run --sequence takes)",
			    s->name, msg_cut(b, kind));
		o->seq_kind = strcmp(kind, "median") == 0 ? SEQ_KIND_MEDIAN : SEQ_KIND_T;
		if (o->seq_kind == SEQ_KIND_MEDIAN && o->seq_g_given == SEQ_G_AUTO)
			die_usage("--seq-g auto: this study was stopped by the median sequence, "
			          "which has no g");
		if (o->seq_kind == SEQ_KIND_MEDIAN && o->seq_g_given)
			die_usage("--seq-g is the t sequence's; this study was stopped by the median "
			          "sequence, which has no g (--sequence t for the t sequence)");
	}
	if (o->seq_g_given == SEQ_G_AUTO) {
		/* tuning g to the runs it then tests would void the guarantee:
		 * only a g fixed before the study ran, from a pilot, will do */
		const char *note = study_head_str(h, "seq_g" KEY_NOTE), *lack =
			!until ? "'# until:' (it was not stopped by a sequence)" : !g ? "'# seq_g:'" :
			!note || !*note ? "'# seq_g.note:' (why that g)" : NULL;

		if (lack)
			die("%s: --seq-g auto takes the g fixed before the study ran, as pb-compare "
			    "tunes it, and its head has no %s; a g chosen from the runs it tests "
			    "would void the sequence: give --seq-g G", s->name, lack);
		o->seq_g_given = 0;
	}
	if (o->sequential > 0 && !o->seq_g_given) {
		o->seq_g = SEQ_G_DEFAULT;
		if (until && g && (num_parse(g, &o->seq_g) < 0 || !(o->seq_g > 0) ||
		                   o->seq_g > 1e12))
			die("%s: '# seq_g: %s' is not a g above 0 and up to 1e12 (as pb-run "
			    "--seq-g takes)", s->name, msg_cut(b, g));
		o->seq_g_of_head = until && g;
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

/* The margin: --tolerance, else that of a study pb-run --until tolerance
 * made (its head's "# tolerance:"), for the time's log ratio only (its
 * question was of time, not of CPU time or memory, and a threshold
 * given asks another). A margin needs a ratio to be a margin of. */
static void choose_tolerance(const struct stream *s, const struct study_head *h,
                             struct opts *o)
{
	const char *v = study_head_str(h, KEY_RUN_TOLERANCE);
	const char *until = study_head_str(h, "until");
	char b[MSG_CUT_BUF];

	if (o->has_tolerance && !o->log_ratio)
		die_usage("--tolerance is a margin about ratio 1: '%s' is not a log-ratio column "
		          "(--log-ratio if it is one)", o->column);
	/* the margin is the study's question only where it stopped on it */
	if (o->has_tolerance || o->has_threshold || !v || !o->log_ratio || !o->q->wall ||
	    !until || strncmp(until, "tolerance", 9) != 0)
		return;
	if (num_parse(v, &o->tolerance) < 0 || !tol_pct_ok(o->tolerance))
		die("%s: '# " KEY_RUN_TOLERANCE ": %s' is not a percentage above 0 and below 100 "
		    "(as pb-run --tolerance takes)", s->name, msg_cut(b, v));
	o->has_tolerance = 2;
}

/* The method of the intervals, as the options and the input chose it:
 * the n groups hold together at the level with an adjustment. */
static struct interval_method method_of(const struct opts *o, size_t n)
{
	struct interval_method m;

	m.level = o->level;
	m.each_level = o->adjust ? 1 - (1 - o->level) / (double)n : o->level;
	m.sequential = o->sequential;
	m.seq_g = o->seq_g;
	m.seq_g_note = o->seq_g_note;
	m.seq_kind = o->seq_kind;
	m.df_cap = o->df_cap;
	m.adjust = o->adjust;
	m.family = n;
	m.log_ratio = o->log_ratio;
	m.has_threshold = o->has_threshold;
	m.threshold = o->threshold;
	m.has_tolerance = o->has_tolerance;
	m.tolerance = o->tolerance;
	return m;
}

/* What the findings say the intervals are of. */
static void study_of(struct finding_study *f, const struct opts *o,
                     const struct interval_method *m, const struct sample_kind *k)
{
	f->m = m;
	f->column = o->column;
	f->q = o->q;
	f->statistic = k->statistic;
	f->pairs = k->pairs;
	f->run_units = k->run_units;
	f->grouped_by_run = k->grouped_by_run;
}

/* The warnings met, as the finding cites them. */
static struct finding_warnings warnings_view(const struct warnings *w)
{
	struct finding_warnings f;

	f.v = w->v;
	f.n = w->n;
	f.more = w->more;
	f.first_check = w->first_check;
	f.checked = w->checked;
	f.check_warned = w->check_warned;
	f.check_rows = w->check_rows;
	f.check_na = w->check_na;
	return f;
}

/* --sense: what the calibration resolved, as the finding cites it. */
static void calibration_of(struct finding_calibration *c, const struct opts *o,
                           const struct sample_kind *k)
{
	sense_parse(&c->resolved, &c->missed, &c->median);
	c->stat = sense.stat;
	c->level = sense.level;
	c->other = sense.other;
	c->why = other_analysis(o, k);
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

/* --finding: a sentence per group. */
static void print_findings(const struct finding_study *f, const struct strmap *g,
                           const struct interval *iv, const struct acc *acc, int grouped,
                           long arm_at, struct finding_names *nm)
{
	struct finding_group fg;
	size_t i;

	fg.grouped = grouped;
	fg.arm_at = arm_at;
	fg.names = nm;
	for (i = 0; i < g->n; i++) {
		if (nm->comparisons)
			nm->cand = group_key_field(g->key[i], arm_at);
		fg.key = g->key[i];
		fg.r = &iv[i];
		fg.runs = acc[i].runs;
		finding_out(f, &fg);
	}
}

/* --unit host: reads all the runs, then writes. */
static void unit_host_main(struct opts *o, struct stream *s, struct study_head *head,
                           int argc, char **argv)
{
	struct host_runs h = { 0 };
	struct interval_values hv = { 0 };
	struct interval all;
	struct interval_method im;
	struct hosts_re re;
	struct host_mean *hm;
	double *y, *v, *z, *n;
	size_t i, col;

	host_stream_check(s);   /* before the value column: the likelier fault */
	col = value_column(s, o->column);
	host_runs_read(&h, s, col);
	study_head_free(head);
	study_head_read(head, s, -1);
	o->log_ratio = is_log_ratio(head, o->column, o->log_ratio);
	o->q = log_ratio_quantity(head, o->column);
	y = xmalloc(4 * h.names.n * sizeof *y);
	v = y + h.names.n, z = v + h.names.n, n = z + h.names.n;
	hm = host_means(&h, o->level, y, v, n, s->name);
	hosts_re_of(y, v, n, h.names.n, o->level, &re);
	hosts_z(y, v, h.names.n, z);
	for (i = 0; i < h.names.n; i++)
		interval_values_add(&hv, y[i]);
	im = method_of(o, 1);
	all = interval_checked(&hv, 0, "the host means", o->column, &im);
	out_begin(s, argc, argv);
	host_meta(o->column, o->level);
	host_rows(&h, hm, z, &all, &re, &im);
	if (o->finding)
		host_finding(&re, &im, o->q->noun);
	free(hm), free(y);
	interval_values_free(&hv);
	host_runs_free(&h);
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
	struct finding_names nm = { "A", "B", 0 };
	struct finding_study fs;
	struct finding_warnings fw;
	struct finding_calibration cal;
	struct study_head head;
	int arm_added;

	pb_init("pb-tint");
	out_init();
	parse_args(argc, argv, &o);
	stream_open(&s, argc - optind, argv + optind);
	stream_on_meta(&s, keep_warning, &warn);
	stream_header(&s);
	study_head_read(&head, &s, -1);   /* the first file's, for what the rows need */
	if (o.unit_host) {
		unit_host_main(&o, &s, &head, argc, argv);
		study_head_free(&head);
		stream_close(&s);
		flush_stdout_or_die();
		return 0;
	}
	choose_method(&s, &head, &o);
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
	kind.statistic = by_run_statistic(&head, o.column, kind.run_units);
	kind.head = &head;

	while (stream_row(&s)) {
		const char *key = "";
		size_t gi = 0;

		klen = 0;
		if (gc.n || !g.n) {   /* one group without --group: made once */
			if (gc.n)
				key = group_cols_key(&gc, &s, &klen);
			gi = strmap_intern(&g, key, klen);
			xgrow_zero(&acc, &cap, gi + 1, sizeof *acc);
			acc[gi].v.keep = o.sequential > 0 && o.seq_kind == SEQ_KIND_MEDIAN;
		}
		interval_values_add(&acc[gi].v, stream_num(&s, col));
		if (runcol >= 0)
			acc[gi].runs += group_runs_first(&rt, gi, key, klen, s.field[runcol],
			                                   stream_field_len(&s, (size_t)runcol));
	}
	/* After all input: every file's head (pb-logratio's declaration may
	 * come from any file). */
	study_head_free(&head);
	study_head_read(&head, &s, -1);
	if (o.check)
		read_check(&warn, &head, o.check);
	if (o.sense)
		read_sense(&warn, &head, o.sense);
	o.log_ratio = is_log_ratio(&head, o.column, o.log_ratio);
	if (o.seq_g_of_head)
		o.seq_g_note = study_head_str(&head, "seq_g" KEY_NOTE);
	o.q = log_ratio_quantity(&head, o.column);
	choose_tolerance(&s, &head, &o);
	if (o.log_ratio && o.has_threshold && !(o.threshold > 0))
		die_usage("--threshold is a ratio A/B for the log-ratio column '%s'; "
		          "it must be > 0", o.column);
	im = method_of(&o, g.n);
	iv = xmalloc(g.n * sizeof *iv);
	for (i = 0; i < g.n; i++)
		iv[i] = interval_checked(&acc[i].v, gc.n > 0, subject(gc.n > 0, g.key[i], o.column),
		                         o.column, &im);
	for (i = 0; i < g.n; i++)
		interval_warn_zero_width(&acc[i].v, subject(gc.n > 0, g.key[i], o.column));
	interval_adjust(iv, g.n, &im);
	fw = warnings_view(&warn);
	study_of(&fs, &o, &im, &kind);
	fs.w = &fw;
	if (o.sense)
		calibration_of(&cal, &o, &kind);
	fs.cal = o.sense ? &cal : NULL;

	out_begin(&s, argc, argv);
	group_arm_meta("pb-tint", o.group, arm_added);
	finding_method_meta("pb-tint", &fs, iv, g.n, nm.comparisons);
	print_rows(&s, &gc, &g, iv, &im);
	if (o.finding)
		print_findings(&fs, &g, iv, acc, gc.n > 0, arm_at, &nm);
	free(iv);
	for (i = 0; i < g.n; i++)
		interval_values_free(&acc[i].v);
	free(acc);
	group_runs_free(&rt);
	for (i = 0; i < warn.n; i++)
		free(warn.v[i]);
	free(warn.v);
	strmap_free(&g);
	group_cols_free(&gc);
	study_head_free(&head);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}

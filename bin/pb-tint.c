/* pb-tint: Student t interval of a column's mean, per group, with the
 * back-transform for log ratios, a threshold verdict and a finding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "num.h"
#include "opt.h"
#include "stats.h"
#include "stream.h"

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
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct opts {
	const char *column, *group;
	double level, threshold;
	long df_cap;
	int has_threshold, finding, log_ratio;
};

struct acc {
	struct welford w;
	long runs;
};

struct interval {
	double n, mean, sd, se, df, t, lo, hi;
};

static struct interval t_interval(const struct acc *a, const struct opts *o)
{
	struct interval r;

	r.n = a->w.n;
	r.mean = welford_mean(&a->w);
	r.sd = sqrt(welford_var(&a->w));
	r.se = r.sd / sqrt(r.n);
	r.df = r.n - 1;
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
	for (i = 0; i < sizeof base / sizeof *base; i++)
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

static void print_row(const char *key, const struct interval *r, const struct opts *o)
{
	if (*key)
		out_field(key);
	out_num(r->n);
	out_num(r->mean);
	out_num(r->sd);
	out_num(r->se);
	out_num(r->df);
	out_num(r->t);
	out_num(r->lo);
	out_num(r->hi);
	if (o->log_ratio) {
		out_num(exp(r->mean));
		out_num(exp(r->lo));
		out_num(exp(r->hi));
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
};

static void print_sample(const struct interval *r, long runs, const struct sample_kind *k)
{
	if (k->pairs && runs > 0)
		printf("n = %.0f pairs from %ld run%s", r->n, runs, runs == 1 ? "" : "s");
	else if (k->run_units)
		printf("n = %.0f runs", r->n);
	else
		printf("n = %.0f values", r->n);
	printf(", df = %.0f", r->df);
}

static void ratio_sentence(const struct interval *r, const struct opts *o)
{
	double ratio = exp(r->mean), rel = 1 / ratio;

	if (rel < 1)
		printf("B took %.1f%% less time than A: ", 100 * (1 - rel));
	else if (rel > 1)
		printf("B took %.1f%% more time than A: ", 100 * (rel - 1));
	else
		printf("B took the same time as A: ");
	printf("A/B time ratio %.4g, %g%% CI %.4g to %.4g (", ratio,
	       100 * o->level, exp(r->lo), exp(r->hi));
}

static void threshold_sentence(const char *v, const struct opts *o)
{
	if (o->log_ratio) {
		printf(" Threshold %g: %s; ", o->threshold, v);
		if (strcmp(v, "above") == 0)
			printf("the whole interval is at or over it, so B is at least "
			       "%gx as fast as A.", o->threshold);
		else if (strcmp(v, "below") == 0)
			printf("the whole interval is under it, so B is not %gx as "
			       "fast as A.", o->threshold);
		else
			printf("the interval contains it, so these data cannot say "
			       "whether B is %gx as fast as A; more runs would narrow it.",
			       o->threshold);
		return;
	}
	printf(" Threshold %g: %s; ", o->threshold, v);
	if (strcmp(v, "above") == 0)
		printf("the whole interval is at or over it.");
	else if (strcmp(v, "below") == 0)
		printf("the whole interval is under it.");
	else
		printf("the interval contains it; more runs would narrow it.");
}

static void print_finding(const char *key, const struct interval *r, long runs,
                          const struct sample_kind *k, const struct opts *o)
{
	double lo = o->log_ratio ? exp(r->lo) : r->lo, hi = o->log_ratio ? exp(r->hi) : r->hi;
	double none = o->log_ratio ? 1 : 0;

	printf("# finding: ");
	if (*key)
		printf("[%s] ", key);
	if (o->log_ratio)
		ratio_sentence(r, o);
	else
		printf("mean %s %.6g, %g%% CI %.6g to %.6g (", o->column, r->mean,
		       100 * o->level, r->lo, r->hi);
	printf("t interval, ");
	print_sample(r, runs, k);
	printf(").");
	if (o->has_threshold)
		threshold_sentence(verdict(lo, hi, o->threshold), o);
	else if (lo > none || hi < none)
		printf(" The interval excludes %g: %s.", none,
		       o->log_ratio ? (lo > 1 ? "B is faster" : "B is slower")
		                    : (lo > 0 ? "the mean is above 0" : "the mean is below 0"));
	else
		printf(" The interval includes %g: no difference is resolved.", none);
	if (k->pairs && runs > 1 && !k->grouped_by_run)
		printf(" Caution: pairs inside a run are not independent, so this "
		       "interval can be too narrow; pb-pair --by-run makes runs the unit.");
	printf("\n");
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->column = "lr";
	o->level = 0.95;
	while ((c = pb_getopt(argc, argv, "", longopts, usage)) != -1) {
		switch (c) {
		case 'c': o->column = optarg; break;
		case 'g': o->group = optarg; break;
		case 'l': o->level = opt_level("level", optarg); break;
		case 'T':
			o->threshold = opt_num("threshold", optarg);
			o->has_threshold = 1;
			break;
		case 'd': o->df_cap = opt_count("df-cap", optarg, 1000000000L); break;
		case 'f': o->finding = 1; break;
		case 'L': o->log_ratio = 1; break;
		}
	}
}

/* Counts distinct runs per group; rows of one run usually come together,
 * so the previous row's key is checked before the hash map. */
struct run_tracker {
	struct groups seen;
	char *key, *last;
	size_t len, lastlen, cap, lastcap;
};

static int run_seen_first(struct run_tracker *t, const char *group, size_t glen,
                          const char *run)
{
	size_t rl = strlen(run), before = t->seen.n;
	char *tmp;

	xgrow(&t->key, &t->cap, glen + rl + 2, 1);
	memcpy(t->key, group, glen);
	t->key[glen] = '\t';
	memcpy(t->key + glen + 1, run, rl + 1);
	t->len = glen + rl + 1;
	if (t->len == t->lastlen && memcmp(t->key, t->last, t->len) == 0)
		return 0;
	groups_index(&t->seen, t->key, t->len);
	tmp = t->last, t->last = t->key, t->key = tmp;
	t->lastlen = t->len;
	rl = t->lastcap, t->lastcap = t->cap, t->cap = rl;
	return t->seen.n > before;
}

static void run_tracker_free(struct run_tracker *t)
{
	groups_free(&t->seen);
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

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct group_cols gc;
	struct groups g = { 0 };
	struct acc *acc = NULL;
	struct interval *iv;
	struct sample_kind kind;
	size_t col, cap = 0, i, klen;
	long runcol, paircol;
	struct run_tracker rt = { 0 };
	char nb[NUM_BUFSZ];

	pb_init(argc, argv, "pb-tint");
	parse_args(argc, argv, &o);
	stream_open(&s, argc - optind, argv + optind);
	stream_header(&s);
	col = stream_col(&s, o.column);
	group_cols_parse(&gc, &s, o.group);
	runcol = stream_col_opt(&s, "run");
	paircol = stream_col_opt(&s, "pair");
	kind.pairs = runcol >= 0 && paircol >= 0;
	kind.run_units = runcol >= 0 && paircol < 0;
	kind.grouped_by_run = groups_include(&gc, runcol);

	while (stream_row(&s)) {
		const char *key = "";
		size_t gi;

		klen = 0;
		if (gc.n)
			key = group_cols_key(&gc, &s, &klen);
		gi = groups_index(&g, key, klen);

		if (gi >= cap) {
			size_t old = cap;
			xgrow(&acc, &cap, gi + 1, sizeof *acc);
			memset(acc + old, 0, (cap - old) * sizeof *acc);
		}
		welford_add(&acc[gi].w, stream_num(&s, col));
		if (runcol >= 0)
			acc[gi].runs += run_seen_first(&rt, key, klen, s.field[runcol]);
	}
	/* After all input: pb-logratio's declaration may come from any file. */
	o.log_ratio = is_log_ratio(&s, o.column, o.log_ratio);
	if (o.log_ratio && o.has_threshold && !(o.threshold > 0))
		die_usage("--threshold is a ratio A/B for the log-ratio column '%s'; "
		          "it must be > 0", o.column);
	for (i = 0; i < g.n; i++) {
		if (acc[i].w.n < 2)
			die("%s%s%s: only 1 value; an interval needs at least 2",
			    *g.key[i] ? "group " : "", g.key[i], *g.key[i] ? "" : o.column);
		if (!isfinite(acc[i].w.m2) || !isfinite(welford_mean(&acc[i].w)))
			die("%s%s: values too large: their variance overflows a double",
			    *g.key[i] ? "group " : "column ", *g.key[i] ? g.key[i] : o.column);
		if (acc[i].w.m2 == 0)
			warn("%s%s: all %.0f values are equal (sd = 0): the interval has "
			     "zero width", *g.key[i] ? "group " : "column ",
			     *g.key[i] ? g.key[i] : o.column, acc[i].w.n);
	}

	out_begin(&s);
	out_meta("pb-tint.column", "%s%s", o.column, o.log_ratio ?
	         " (log ratio ln(A/B); ratio = A/B time, > 1 means B took less "
	         "time; reduction = 1 - 1/ratio)" : "");
	num_format(nb, o.level);
	out_meta("pb-tint.level", "%s", nb);
	if (o.df_cap)
		out_meta("pb-tint.df", "min(n-1, %ld)", o.df_cap);
	if (o.has_threshold) {
		num_format(nb, o.threshold);
		out_meta("pb-tint.threshold", "%s%s", nb,
		         o.log_ratio ? " (ratio A/B)" : "");
	}
	print_header(&s, &gc, &o);
	iv = xmalloc(g.n * sizeof *iv);
	for (i = 0; i < g.n; i++) {
		iv[i] = t_interval(&acc[i], &o);
		print_row(g.key[i], &iv[i], &o);
	}
	if (o.finding)
		for (i = 0; i < g.n; i++)
			print_finding(g.key[i], &iv[i], acc[i].runs, &kind, &o);
	free(iv);
	free(acc);
	run_tracker_free(&rt);
	groups_free(&g);
	group_cols_free(&gc);
	stream_close(&s);
	return pb_finish();
}

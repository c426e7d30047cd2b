/* recipe: a study's analysis, step by step, as pb-compare runs it, as its
 * Makefile redoes it and as pb-compare --from and pb-report complete a
 * directory that lacks some of it. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "files.h"
#include "keys.h"
#include "num.h"
#include "recipe.h"
#include "seq.h"
#include "strmap.h"
#include "stream.h"
#include "study.h"

const struct use_kind use_kinds[NUSE] = {
	{ "CPU time", "cpu_time", "a_cpu", "b_cpu", "lr_cpu", "runs-cpu.tsv", "tint-cpu.tsv" },
	{ "peak memory", "peak_memory", "a_maxrss", "b_maxrss", "lr_memory", "runs-memory.tsv",
	  "tint-memory.tsv" },
	{ "whole-tree CPU time", "tree_cpu_time", "a_tree_cpu", "b_tree_cpu", "lr_tree_cpu",
	  "runs-tree-cpu.tsv", "tint-tree-cpu.tsv" },
	{ "whole-tree peak memory", "tree_peak_memory", "a_tree_maxrss", "b_tree_maxrss",
	  "lr_tree_memory", "runs-tree-memory.tsv", "tint-tree-memory.tsv" },
};

/* --- what a directory says of its analysis ----------------------------- */

/* Whether dir's raw.tsv has every one of the n columns cols. */
static int raw_has(const char *dir, const char *const *cols, size_t n)
{
	struct stream s;
	char *path;
	int have = 1;
	size_t i;

	if (!open_in_dir(&s, dir, "raw.tsv", &path))
		return 0;
	for (i = 0; i < n; i++)
		have &= stream_col_find(&s, cols[i]) >= 0;
	stream_close(&s);
	free(path);
	return have;
}

int recipe_raw_has_use(const char *dir)
{
	static const char *const cols[] = { "user_ns", "sys_ns", "maxrss_kib" };

	return raw_has(dir, cols, LEN(cols));
}

int recipe_raw_has_tree(const char *dir)
{
	static const char *const cols[] = { "tree_cpu_ns", "tree_maxrss_kib" };

	return raw_has(dir, cols, LEN(cols));
}

/* seq_stat ("median"; an older pb-run wrote "median (each run's ...)":
 * its first word), into r when it is a word pb-pair --stat could take;
 * pb-pair judges it. */
static void head_stat(struct recipe *r, const char *v)
{
	size_t len = strcspn(v, " ");

	if (len == 0 || len >= sizeof r->stat_held ||
	    strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789.-") < len)
		return;
	memcpy(r->stat_held, v, len);
	r->stat_held[len] = '\0';
	if (strcmp(r->stat_held, "median") != 0)
		r->stat = r->stat_held;
}

/* The head's number under key, written back shortest (a word make and
 * the shell take as it is), when it is one in lo..hi. */
static void head_word(char *w, const struct study_head *h, const char *key, double lo,
                      double hi)
{
	double v;

	w[0] = '\0';
	if (study_head_num(h, key, &v) == 1 && v > lo && v < hi)
		num_format(w, v);
}

/* The t sequence's study of two arms, A the reference: pb-compare's
 * sequential study, whose "no difference" a tighter answer refines. */
static void head_tighter(struct recipe *r, const struct study_head *h, int arms, int ref)
{
	const char *kind = study_head_str(h, "seq_kind");
	int64_t pairs;

	if (!study_head_str(h, "until") || arms != 2 || ref != 0 ||
	    (kind && strcmp(kind, "t") != 0))
		return;
	if (study_head_int(h, "pairs", &pairs) == 1 && pairs == 1)
		return;   /* no spread within runs to plan from (recipe_why_not) */
	r->tighter = 1;
	head_word(r->seq_g, h, "seq_g", 0, 1e12 + 1);
	head_word(r->seq_level, h, "seq_level", 0, 1);
}

/* pb-run --until tolerance's margin ("# tolerance: 2"), which pb-tint's
 * verdict is against; a value pb-run would not write is left out, and
 * pb-tint, which reads the head too, refuses it with its words. */
static void head_tolerance(struct recipe *r, const struct study_head *h)
{
	const char *v = study_head_str(h, KEY_RUN_TOLERANCE);
	double t;

	if (v && num_parse(v, &t) == 0 && tol_pct_ok(t))
		r->tolerance = t;
}

/* What raw.tsv's head says of the analysis (lib/study: the first value
 * of a key counts). */
static void recipe_of_head(struct recipe *r, const struct stream *s)
{
	struct study_head h;
	const char *until, *stat;
	int64_t n;
	double t;
	int k, ref;

	study_head_read(&h, s, -1);
	study_head_arms(&h, s->name, &k, &ref);   /* refused before any step runs */
	until = study_head_str(&h, "until");
	stat = study_head_str(&h, KEY_RUN_SEQ_STAT);
	if (k > 2)
		r->adjust = "holm";
	r->one_ratio = k == 2 && ref == 0;
	if (until && strncmp(until, "threshold ", 10) == 0 && num_parse(until + 10, &t) == 0 &&
	    t > 0 && isfinite(t))
		r->threshold = t;
	if (stat)
		head_stat(r, stat);
	head_tolerance(r, &h);
	if (study_head_int(&h, "pairs", &n) == 1 && n > 0 && n <= LONG_MAX)
		r->pairs = (long)n;
	study_head_free(&h);
}

/* The runs' hosts ("# run: ... host=H"): each host's runs counted. */
struct run_hosts {
	struct strmap names;
	long *runs;
	size_t cap;
};

static void run_host_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct run_hosts *h = ctx;
	struct run_comment rc;
	size_t i;

	(void)s;
	if (strcmp(m->key, "run") != 0 || run_comment_parse(m->value, &rc) < 0 || !rc.host.len)
		return;
	i = strmap_intern(&h->names, rc.host.p, rc.host.len);
	xgrow_zero(&h->runs, &h->cap, i + 1, sizeof *h->runs);
	h->runs[i]++;
}

/* Whether raw.tsv's runs make hosts a level of the analysis (pb-tint
 * --unit host): 3 hosts or more, so that a new host has a prediction
 * interval (t on hosts - 2 df), each with 2 runs or more, so that each
 * has a spread of its own; and every run of the rows has its host
 * (pb-pair --host refuses a run without one). */
static int raw_hosts(const char *dir)
{
	struct run_hosts h;
	struct strmap runs;
	struct stream s;
	char *path;
	int level;
	long with_host = 0;
	size_t i, run;

	memset(&h, 0, sizeof h);
	memset(&runs, 0, sizeof runs);
	if (!open_in_dir(&s, dir, "raw.tsv", &path))
		return 0;
	stream_on_meta(&s, run_host_meta, &h);
	s.rows_optional = 1;
	run = stream_col(&s, "run");
	while (stream_row(&s))
		strmap_intern(&runs, s.field[run], stream_field_len(&s, run));
	stream_close(&s);
	free(path);
	level = h.names.n >= 3;
	for (i = 0; i < h.names.n; i++) {
		level &= h.runs[i] >= 2;
		with_host += h.runs[i];
	}
	level &= with_host == (long)runs.n;
	strmap_free(&h.names);
	strmap_free(&runs);
	free(h.runs);
	return level;
}

void recipe_of_dir(struct recipe *r, const char *dir)
{
	struct stream s;
	char *path;

	memset(r, 0, sizeof *r);
	r->threshold = NAN;
	if (open_in_dir(&s, dir, "raw.tsv", &path)) {
		recipe_of_head(r, &s);
		stream_close(&s);
		free(path);
	}
	path = path_in(dir, "sense.tsv");
	r->sense = is_regular_file(path);
	free(path);
	r->use = recipe_raw_has_use(dir);
	r->tree = r->use && recipe_raw_has_tree(dir);
}

/* --- the steps ----------------------------------------------------------- */

static struct step *step_new(struct step *steps, size_t *n, const char *target,
                             const char *deps)
{
	struct step *s = &steps[(*n)++];

	memset(s, 0, sizeof *s);
	s->target = target;
	s->deps = deps;
	s->nstage = 1;
	return s;
}

/* pb-pair --by-run [--stat S] raw.tsv | pb-logratio [--a A --b B --name LR] */
static void runs_step(struct step *s, const struct recipe *r, const struct use_kind *u)
{
	strv_words(&s->stage[0], "pb-pair", "--by-run", (char *)NULL);
	if (!u && r->hosts)   /* hosts.tsv reads each run's host */
		strv_words(&s->stage[0], "--host", (char *)NULL);
	if (r->stat)
		strv_words(&s->stage[0], "--stat", r->stat, (char *)NULL);
	strv_words(&s->stage[0], "raw.tsv", (char *)NULL);
	if (!u && r->stat && strcmp(r->stat, "lr-median") == 0)
		return;   /* pb-pair wrote lr, the median of the pairs' ln(a/b) */
	strv_words(&s->stage[1], "pb-logratio", (char *)NULL);
	if (u)
		strv_words(&s->stage[1], "--a", u->a, "--b", u->b, "--name", u->lr, (char *)NULL);
	s->nstage = 2;
}

/* pb-tint's options that every interval of a study shares */
static void tint_options(struct step *s, const struct recipe *r)
{
	if (r->level)
		strv_words(&s->stage[0], "--level", r->level, (char *)NULL);
	if (r->adjust)
		strv_words(&s->stage[0], "--adjust", r->adjust, (char *)NULL);
}

static void tint_step(struct step *steps, size_t *n, const struct recipe *r)
{
	struct step *s = step_new(steps, n, "tint.tsv", r->sense ? "runs.tsv check.tsv sense.tsv"
	                                                         : "runs.tsv check.tsv");
	char t[NUM_BUFSZ];

	s->lr_of = "runs.tsv";
	strv_words(&s->stage[0], "pb-tint", "--finding", "--check", "check.tsv", (char *)NULL);
	if (r->sense)
		strv_words(&s->stage[0], "--sense", "sense.tsv", (char *)NULL);
	tint_options(s, r);
	if (!isnan(r->threshold)) {
		num_format(t, r->threshold);
		strv_words(&s->stage[0], "--threshold", t, (char *)NULL);
	} else if (r->tolerance > 0) {
		num_format(t, r->tolerance);
		strv_words(&s->stage[0], "--tolerance", t, (char *)NULL);
	}
	strv_words(&s->stage[0], "runs.tsv", (char *)NULL);
}

/* Runs on several hosts: hosts as a level, and what a new host like
 * these should expect (pb-tint --unit host, pb-tint(1)). */
static void hosts_step(struct step *steps, size_t *n, const struct recipe *r)
{
	struct step *s = step_new(steps, n, "hosts.tsv", "runs.tsv");

	s->lr_of = "runs.tsv";
	strv_words(&s->stage[0], "pb-tint", "--unit", "host", "--finding", (char *)NULL);
	if (r->level)
		strv_words(&s->stage[0], "--level", r->level, (char *)NULL);
	strv_words(&s->stage[0], "runs.tsv", (char *)NULL);
}

/* CPU time and peak memory: the steps of the time, with no finding, check
 * or threshold (those are the time's question). */
static void use_steps(const struct recipe *r, struct step *steps, size_t *n)
{
	struct step *s;
	int k;

	for (k = 0; k < (r->tree ? NUSE : NUSE_PROCESS); k++) {
		const struct use_kind *u = &use_kinds[k];
		int use = k < NUSE_PROCESS ? 1 : 2;

		s = step_new(steps, n, u->runs, "raw.tsv");
		s->use = use;
		runs_step(s, r, u);
		s = step_new(steps, n, u->tint, u->runs);
		s->use = use;
		strv_words(&s->stage[0], "pb-tint", "--column", u->lr, (char *)NULL);
		tint_options(s, r);
		strv_words(&s->stage[0], u->runs, (char *)NULL);
	}
}

static void picture_steps(const struct recipe *r, struct step *steps, size_t *n)
{
	static const char *const kind[] = { "runs", "trend", "pairs", "sense" };
	static const char *const file[] = { "runs.svg", "trend.svg", "pairs.svg", "sense.svg" };
	static const char *const from[] = { "pairs.tsv", "pairs.tsv", "pairs.tsv", "sense.tsv" };
	size_t i;

	for (i = 0; i < LEN(kind); i++) {
		struct step *s;

		if (i == 3 && !r->sense)
			break;
		if (recipe_why_not(r, file[i]))
			continue;
		s = step_new(steps, n, file[i], from[i]);
		s->picture = 1;
		strv_words(&s->stage[0], "pb-plot", kind[i], "-o", file[i], from[i], (char *)NULL);
	}
	if (r->hosts) {
		struct step *s = step_new(steps, n, "hosts.svg", "hosts.tsv");

		s->picture = 1;
		strv_words(&s->stage[0], "pb-plot", "hosts", "-o", "hosts.svg", "hosts.tsv",
		           (char *)NULL);
	}
}

/* What a tighter answer would cost: the sequence priced at the study's g
 * and level, for half the bound its interval proves (pb-plan --tighter
 * reads it from tint.tsv, so the rule stays one line of make). The pairs
 * carry each run's start stamp, from which pb-plan measures the costs. */
static void tighter_step(const struct recipe *r, struct step *steps, size_t *n)
{
	struct step *s;

	if (!r->tighter || recipe_why_not(r, "tighter.tsv"))
		return;
	s = step_new(steps, n, "tighter.tsv", "pairs.tsv tint.tsv");
	strv_words(&s->stage[0], "pb-logratio", "pairs.tsv", (char *)NULL);
	strv_words(&s->stage[1], "pb-plan", "--sequential", (char *)NULL);
	if (r->seq_g[0])
		strv_words(&s->stage[1], "--seq-g", r->seq_g, (char *)NULL);
	if (r->seq_level[0])
		strv_words(&s->stage[1], "--level", r->seq_level, (char *)NULL);
	strv_words(&s->stage[1], "--tighter", "tint.tsv", (char *)NULL);
	s->nstage = 2;
}

/* What pb-report's page shows that a pb-compare study does not keep: each
 * run's bootstrap interval and a plan from the pairs themselves. */
static void page_steps(const struct recipe *r, struct step *steps, size_t *n)
{
	struct step *s;

	if (recipe_why_not(r, "runs-boot.tsv"))
		return;
	s = step_new(steps, n, "runs-boot.tsv", "pairs.tsv");
	s->page = 1;
	strv_words(&s->stage[0], "pb-boot", "--group", "run", "pairs.tsv", (char *)NULL);
	s = step_new(steps, n, "plan.tsv", "pairs.tsv");
	s->page = 1;
	s->lr_of = "pairs.tsv";
	strv_words(&s->stage[0], "pb-plan", "pairs.tsv", (char *)NULL);
	if (!r->pilot)
		return;
	s = step_new(steps, n, "plan-study.tsv", "pairs.tsv");
	s->page = 1;
	s->lr_of = "pairs.tsv";
	strv_words(&s->stage[0], "pb-plan", "pairs.tsv", (char *)NULL);
}

/* A run of one pair has no spread of its own: no run's interval (pb-boot
 * --group run, pb-plot runs), no variance within runs (pb-plan). */
const char *recipe_why_not(const struct recipe *r, const char *target)
{
	static const char *const within[] = { "runs.svg", "runs-boot.tsv", "plan.tsv",
	                                      "plan-study.tsv", "tighter.tsv" };
	size_t i;

	for (i = 0; r->pairs == 1 && i < LEN(within); i++)
		if (strcmp(target, within[i]) == 0)
			return i >= 2 ? "each run has one pair, and the spread within runs that a "
			                "plan weighs needs two or more"
			              : "each run has one pair, and a run's interval needs two or more";
	return NULL;
}

size_t recipe_steps(const struct recipe *r, struct step *steps)
{
	struct step *s;
	size_t n = 0;

	s = step_new(steps, &n, "pairs.tsv", "raw.tsv");
	strv_words(&s->stage[0], "pb-pair", "raw.tsv", (char *)NULL);
	s = step_new(steps, &n, "runs.tsv", "raw.tsv");
	runs_step(s, r, NULL);
	s = step_new(steps, &n, "check.tsv", "pairs.tsv");
	strv_words(&s->stage[0], "pb-check", "pairs.tsv", (char *)NULL);
	if (r->stat)   /* skew reads each run as the interval does */
		strv_words(&s->stage[0], "--stat", r->stat, (char *)NULL);
	tint_step(steps, &n, r);
	if (r->hosts)
		hosts_step(steps, &n, r);
	tighter_step(r, steps, &n);
	if (r->use)
		use_steps(r, steps, &n);
	if (r->pictures)
		picture_steps(r, steps, &n);
	if (r->page)
		page_steps(r, steps, &n);
	return n;
}

void recipe_steps_free(struct step *steps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strv_free(&steps[i].stage[0]);
		strv_free(&steps[i].stage[1]);
	}
}

/* --- the words of a step, for make and for a person ------------------- */

/* A word as it is when the shell and make read it so, else in single
 * quotes, with make's '$' doubled when for make. A newline would end the
 * rule and start another that make runs: no quoting keeps it a word, so
 * it is refused (pb-compare checks every value before anything runs;
 * this is the last guard). */
static void put_word(FILE *f, const char *w, int for_make)
{
	const char *p;
	char b[MSG_CUT_BUF];

	if (for_make && strchr(w, '\n'))
		die("the study's Makefile: a word with a newline ('%s') would be a rule of its "
		    "own: not written", msg_cut(b, w));
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	                    "_./:=,+-@%") == strlen(w)) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (p = w; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else if (*p == '$' && for_make)
			fputs("$$", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

static void put_command(FILE *f, char *const *v, int for_make)
{
	size_t i;

	for (i = 0; v && v[i]; i++) {
		fputs(i ? " " : "", f);
		put_word(f, v[i], for_make);
	}
}

/* A rule writes its target through a temporary file, so that a tool
 * that fails leaves no target for make to take as made. */
static void make_rule(FILE *f, const struct step *s)
{
	fprintf(f, "%s: %s\n\t", s->target, s->deps);
	put_command(f, s->stage[0].v, 1);
	if (s->picture) {
		fputs("\n", f);
		return;
	}
	if (s->nstage == 2) {
		fprintf(f, " >%s.1 && ", s->target);
		put_command(f, s->stage[1].v, 1);
		fprintf(f, " <%s.1", s->target);
	}
	fprintf(f, " >%s.tmp && ", s->target);
	if (s->nstage == 2)
		fprintf(f, "rm -f %s.1 && ", s->target);
	fprintf(f, "mv -f %s.tmp %s\n", s->target, s->target);
}

void recipe_makefile(FILE *f, const struct recipe *r)
{
	struct step steps[RECIPE_STEPS_MAX];
	size_t n = recipe_steps(r, steps), i;

	fputs("# The analysis of this study, redone from raw.tsv: make (or make -C DIR).\n"
	      "# pb-compare wrote it and ran the same commands; they find the pb tools\n"
	      "# on PATH. The measurement itself (pilot.tsv, plan.tsv, raw.tsv, sense.tsv)\n"
	      "# is not redone: pb-compare does that.\n"
	      ".POSIX:\n.SUFFIXES:\n\nall:", f);
	for (i = 0; i < n; i++)
		if (!steps[i].page)
			fprintf(f, " %s", steps[i].target);
	fputs(" report.md\n\n", f);
	for (i = 0; i < n; i++)
		if (!steps[i].page)
			make_rule(f, &steps[i]);
	fputs("report.md:", f);
	for (i = 0; i < n; i++)
		if (!steps[i].page)
			fprintf(f, " %s", steps[i].target);
	fputs(" raw.tsv\n\tpb-compare --from . --export-report-md - >report.md.tmp && "
	      "mv -f report.md.tmp report.md\n", f);
	recipe_steps_free(steps, n);
}

/* --- running it ---------------------------------------------------------- */

/* Whether every file of the blank-separated list is in dir. */
static int have_all(const char *dir, const char *list)
{
	char name[64];
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, " ");
		char *path;
		int here;

		if (len >= sizeof name)
			return 0;
		memcpy(name, p, len);
		name[len] = '\0';
		path = path_in(dir, name);
		here = is_regular_file(path);
		free(path);
		if (!here)
			return 0;
		p += len;
		p += *p == ' ';
	}
	return 1;
}

/* Whether dir's stream name has a column lr (pb-logratio's). */
static int has_lr(const char *dir, const char *name)
{
	struct stream s;
	char *path = path_in(dir, name);
	int have;

	stream_open(&s, 1, &path);
	stream_header(&s);
	have = stream_col_find(&s, "lr") >= 0;
	stream_close(&s);
	free(path);
	return have;
}

/* A step whose input has no lr yet gets pb-logratio first, reading it:
 * "pb-logratio runs.tsv | pb-tint ...", the input no longer the tool's. */
static void add_logratio(struct step *s)
{
	struct strv tool = { 0 };
	size_t i;

	for (i = 0; i + 1 < s->stage[0].n; i++)
		strv_add(&tool, s->stage[0].v[i]);
	strv_free(&s->stage[1]);
	s->stage[1] = tool;
	strv_free(&s->stage[0]);
	strv_words(&s->stage[0], "pb-logratio", s->lr_of, (char *)NULL);
	s->nstage = 2;
	s->lr_of = NULL;
}

void recipe_step_text(char *buf, size_t n, const struct step *s)
{
	FILE *f = fmemopen(buf, n, "w");

	if (!f) {
		snprintf(buf, n, "%s", s->stage[0].v[0]);
		return;
	}
	put_command(f, s->stage[0].v, 0);
	if (s->nstage == 2) {
		fputs(" | ", f);
		put_command(f, s->stage[1].v, 0);
	}
	fclose(f);
}

static int wanted(const struct recipe *r, const struct step *s, const char *dir, int flags)
{
	char *path;
	int here;

	if ((s->use && !r->use) || (s->use == 2 && !r->tree) || (s->picture && !r->pictures))
		return 0;
	if (!(flags & RECIPE_ALL)) {
		path = path_in(dir, s->target);
		here = is_regular_file(path);
		free(path);
		if (here)
			return 0;
	}
	return have_all(dir, s->deps);
}

void recipe_tighter_of_dir(struct recipe *r, const char *dir)
{
	struct study_head h;
	struct stream s;
	char *path;
	int k, ref;

	if (r->tighter || !open_in_dir(&s, dir, "raw.tsv", &path))
		return;
	study_head_read(&h, &s, -1);
	study_head_arms(&h, s.name, &k, &ref);
	head_tighter(r, &h, k, ref);
	study_head_free(&h);
	stream_close(&s);
	free(path);
}

void recipe_make(struct recipe *r, const char *dir, int flags, recipe_done_fn *done, void *ctx)
{
	struct step steps[RECIPE_STEPS_MAX];
	size_t n, i;

	if (flags & RECIPE_ALL) {
		recipe_tighter_of_dir(r, dir);
		/* raw.tsv read whole, as pb-pair's steps will: only here */
		r->hosts = r->one_ratio && raw_hosts(dir);
	}
	n = recipe_steps(r, steps);

	/* Made again, every one: no old file outlives a step that fails, and
	 * no link planted in its place is written through. */
	for (i = 0; i < n && (flags & RECIPE_ALL); i++) {
		char *path = path_in(dir, steps[i].target);

		unlink(path);
		free(path);
	}
	for (i = 0; i < n && !tools_signal_again; i++) {
		struct step *s = &steps[i];
		char **stages[2];
		char *out;
		struct run_result res;

		if ((flags & RECIPE_STOP_AT_SIGNAL) && tools_signal)
			break;
		if (!wanted(r, s, dir, flags))
			continue;
		if (s->lr_of && !has_lr(dir, s->lr_of))
			add_logratio(s);
		stages[0] = s->stage[0].v;
		stages[1] = s->stage[1].v;
		out = s->picture ? NULL : path_in(dir, s->target);
		tools_run(&res, dir, NULL, out, stages, s->nstage, TOOLS_QUIET, NULL, NULL);
		free(out);
		if (done)
			done(ctx, r, s, &res);
	}
	recipe_steps_free(steps, n);
}

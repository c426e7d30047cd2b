/* report: one self-contained HTML page of a study directory
 * (pb-report(1)): the finding beside the picture of the runs, each arm
 * in human units, the runs, pb-check's warnings, the calibration, the
 * plan, the provenance and links to the streams beside it. What the
 * directory lacks is made by the recipe (lib/recipe), in a private
 * directory; what cannot be made is said in the page. Nothing read
 * reaches the page but as escaped text (html.h) or as an SVG picture
 * checked and written again (svg.h); the page forbids scripts and needs
 * none. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "files.h"
#include "html.h"
#include "human.h"
#include "keys.h"
#include "num.h"
#include "recipe.h"
#include "report.h"
#include "stats.h"
#include "stream.h"
#include "study.h"
#include "studydir.h"
#include "summary.h"
#include "svg.h"
#include "tools.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

/* ---- streams, held whole ------------------------------------------------ */

struct kv {
	char *key, *value;
	int head;            /* before the header */
};

struct table {
	char *path;
	char **col;
	size_t ncol;
	char **cell;         /* nrow x ncol */
	long *line;          /* each row's line, for messages */
	size_t nrow, cellcap, linecap;
	struct kv *meta;     /* every metadata line, head and rows */
	size_t nmeta, metacap;
	struct study_head head;   /* what a key says: its first value in the head */
};

static void keep_meta(void *ctx, const struct stream *s, const struct meta *m)
{
	struct table *t = ctx;

	xgrow(&t->meta, &t->metacap, t->nmeta + 1, sizeof *t->meta);
	t->meta[t->nmeta].key = xstrdup(m->key);
	t->meta[t->nmeta].value = xstrdup(m->value);
	t->meta[t->nmeta++].head = !s->header_read;
}

static long col_of(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->col[i], name) == 0)
			return (long)i;
	return -1;
}

static int has(const struct table *t, const char *name)
{
	return col_of(t, name) >= 0;
}

/* The stream at path: its header and metadata, and its rows unless
 * head_only (a raw stream: only its head is shown). */
static void table_read(struct table *t, const char *path, int head_only)
{
	struct stream s;
	char *files[1];
	size_t i;

	memset(t, 0, sizeof *t);
	t->path = xstrdup(path);
	files[0] = t->path;
	stream_open(&s, 1, files);
	stream_on_meta(&s, keep_meta, t);
	stream_header(&s);
	study_head_read(&t->head, &s, -1);
	t->ncol = s.ncol;
	t->col = xmalloc(s.ncol * sizeof *t->col);
	for (i = 0; i < s.ncol; i++)
		t->col[i] = xstrdup(s.col[i]);
	while (!head_only && stream_row(&s)) {
		xgrow(&t->cell, &t->cellcap, (t->nrow + 1) * t->ncol, sizeof *t->cell);
		xgrow(&t->line, &t->linecap, t->nrow + 1, sizeof *t->line);
		for (i = 0; i < t->ncol; i++)
			t->cell[t->nrow * t->ncol + i] = xstrdup(s.field[i]);
		t->line[t->nrow++] = s.lineno;
	}
	stream_close(&s);
}

static void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncol; i++)
		free(t->col[i]);
	for (i = 0; i < t->nrow * t->ncol; i++)
		free(t->cell[i]);
	for (i = 0; i < t->nmeta; i++)
		free(t->meta[i].key), free(t->meta[i].value);
	free(t->col), free(t->cell), free(t->line), free(t->meta), free(t->path);
	study_head_free(&t->head);
	memset(t, 0, sizeof *t);
}

/* The field of row r in column name, or NULL when there is no such column. */
static const char *cell(const struct table *t, size_t r, const char *name)
{
	long c = col_of(t, name);

	return c < 0 ? NULL : t->cell[r * t->ncol + (size_t)c];
}

/* The number in row r, column name: 1; 0 when the field is empty (an
 * undefined value, such as an unbounded end) or the column is absent. */
static int num_at(const struct table *t, size_t r, const char *name, double *x)
{
	const char *v = cell(t, r, name);
	char shown[MSG_CUT_BUF];

	if (!v || !*v)
		return 0;
	if (num_parse(v, x) < 0)
		die("%s:%ld: column '%s': not a number: '%s'", t->path, t->line[r], name,
		    msg_cut(shown, v));
	return 1;
}

/* The first value of key in the head, or NULL. */
static const char *head_meta(const struct table *t, const char *key)
{
	return study_head_str(&t->head, key);
}

/* The sentence for people beside a machine key (KEY.note), or of an older
 * stream the key's own value, which was the sentence then. */
static const char *key_note(const struct table *t, const char *key)
{
	char note[64];

	snprintf(note, sizeof note, "%s%s", key, KEY_NOTE);
	return head_meta(t, note) ? head_meta(t, note) : head_meta(t, key);
}

/* What a by-run stream's a and b are, in words. */
static const char *by_run_words(const struct table *t)
{
	return key_note(t, KEY_PAIR_BY_RUN);
}

/* ---- the study directory ------------------------------------------------ */

enum role { R_RAW, R_PAIRS, R_BYRUN, R_RUNBOOT, R_CHECK, R_TINT, R_SENSE, R_PLAN, R_PLAN_STUDY,
            NROLES };

static const char *const role_what[NROLES] = {
	"the raw stream of pb-run", "the pair stream (pb-pair)",
	"one row per run (pb-pair --by-run | pb-logratio)",
	"per-run intervals (pb-boot --group run)", "pb-check's checks",
	"the finding (pb-tint --finding)", "the calibration (pb-sense)", "the plan (pb-plan)",
	"the plan from the study's own pairs (pb-plan)",
};

static enum role kind_of(const struct table *t)
{
	if (has(t, "phase") && has(t, "arm") && has(t, "ns") && has(t, "status"))
		return R_RAW;
	if (has(t, "pair") && has(t, "first") && has(t, "a") && has(t, "b") && has(t, "d"))
		return R_PAIRS;
	if (has(t, "run") && has(t, "est") && has(t, "lo") && has(t, "hi") && has(t, "sign"))
		return R_RUNBOOT;
	if (has(t, "run") && has(t, "n") && has(t, "a") && has(t, "b") && !has(t, "pair"))
		return R_BYRUN;
	if (has(t, "check") && has(t, "status") && has(t, "note"))
		return R_CHECK;
	if (has(t, "n") && has(t, "mean") && has(t, "se") && has(t, "lo") && has(t, "hi"))
		return R_TINT;
	if (has(t, "delay_ns") && has(t, "seen") && has(t, "est"))
		return R_SENSE;
	if (has(t, "plan") && has(t, "runs") && has(t, "pairs") && has(t, "halfwidth"))
		return R_PLAN;
	return NROLES;
}

/* The streams pb-report looks for, in order; a name may serve more than
 * one role (examples/study's runs.tsv is pb-boot --group run output). */
static const struct {
	const char *name;
	enum role roles[2];
	int nroles;
} stream_files[] = {
	{ "raw.tsv", { R_RAW }, 1 },
	{ "pairs.tsv", { R_PAIRS }, 1 },
	{ "runs.tsv", { R_BYRUN, R_RUNBOOT }, 2 },
	{ "byrun.tsv", { R_BYRUN }, 1 },
	{ "by-run.tsv", { R_BYRUN }, 1 },
	{ "check.tsv", { R_CHECK }, 1 },
	{ "tint.tsv", { R_TINT }, 1 },
	{ "finding.tsv", { R_TINT }, 1 },
	{ "sense.tsv", { R_SENSE }, 1 },
	{ "plan.tsv", { R_PLAN }, 1 },
};

/* Every file the page links, with what it is. */
static const struct {
	const char *name, *what;
} known_files[] = {
	{ "raw.tsv", "the raw stream: every observation (pb-run)" },
	{ "pilot.tsv", "the pilot study the plan was made from (pb-run)" },
	{ "pairs.tsv", "the pair stream (pb-pair)" },
	{ "runs.tsv", "one row per run (pb-pair --by-run | pb-logratio)" },
	{ "byrun.tsv", "one row per run (pb-pair --by-run | pb-logratio)" },
	{ "tint.tsv", "the interval and the finding (pb-tint --finding)" },
	{ "check.tsv", "the checks of the evidence (pb-check)" },
	{ "runs-cpu.tsv", "CPU time, one row per run (pb-logratio --a a_cpu --b b_cpu)" },
	{ "tint-cpu.tsv", "the interval of CPU time (pb-tint)" },
	{ "runs-memory.tsv", "peak memory, one row per run (pb-logratio --a a_maxrss --b b_maxrss)" },
	{ "tint-memory.tsv", "the interval of peak memory (pb-tint)" },
	{ "sense.tsv", "the calibration (pb-sense)" },
	{ "plan.tsv", "the plan (pb-plan)" },
	{ "runs.svg", "picture: per-run intervals (pb-plot runs)" },
	{ "trend.svg", "picture: the pairs in the order measured (pb-plot trend)" },
	{ "pairs.svg", "picture: the distribution of the differences (pb-plot pairs)" },
	{ "sense.svg", "picture: the calibration (pb-plot sense)" },
	{ "hosts.tsv", "the hosts as a level (pb-tint --unit host runs.tsv)" },
	{ "hosts.svg", "picture: each host's interval (pb-plot hosts)" },
	{ "runs.png", "picture (PNG)" },
	{ "trend.png", "picture (PNG)" },
	{ "sense.png", "picture (PNG)" },
	{ "report.md", "the report in Markdown" },
	{ "summary.txt", "the summary in words" },
	{ "compare.json", "the comparison for scripts (pb-compare --export-json)" },
	{ "Makefile", "the study as make targets" },
};

struct source {
	const char *name;    /* in DIR; NULL when made here */
	const char *how;     /* made here: how, in words (how_text) */
	char how_text[256];
	struct table t;
	int have;
};

/* The pictures a page shows, by kind: R.pic[i] is kind i's. */
static const char *const picture_kinds[] = { "runs", "trend", "pairs", "sense", "hosts" };

/* A picture: DIR's, or made here, or missing with a reason. */
struct picture {
	const char *kind;    /* runs, trend, pairs, sense, hosts */
	char *path;
	int made;
	char *svg;           /* the checked element */
	size_t len;
	char *why;           /* why there is none */
};

static struct {
	const char *dir;
	char *tmp;           /* the private directory the recipe runs in, or NULL */
	int derive;
	struct source src[NROLES];
	struct picture pic[LEN(picture_kinds)];
	char **notes;        /* files not used, tools that refused */
	size_t nnotes, notecap;
	char *page_tmp;      /* the page being written, removed on a failure */
	struct recipe rc;    /* the recipe that made what DIR lacks */
	int have_rc;
} R;

/* A note for the page's list of files, and the same as a warning. */
static void note(const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
	char *t = xmalloc(n);

	snprintf(t, n, fmt, a, b);
	warn("%s: %s", R.dir, t);
	xgrow(&R.notes, &R.notecap, R.nnotes + 1, sizeof *R.notes);
	R.notes[R.nnotes++] = t;
}

static void scan_streams(void)
{
	size_t i;
	int k;

	for (i = 0; i < LEN(stream_files); i++) {
		char *path = path_in(R.dir, stream_files[i].name);
		struct table t;
		enum role got = NROLES;
		int wanted = 0;

		if (!is_regular_file(path)) {
			free(path);
			continue;
		}
		table_read(&t, path, strcmp(stream_files[i].name, "raw.tsv") == 0);
		free(path);
		got = kind_of(&t);
		for (k = 0; k < stream_files[i].nroles; k++)
			wanted |= stream_files[i].roles[k] == got;
		if (wanted && got == R_RAW && t.nrow == 0)
			wanted = 1;
		if (!wanted) {
			note("%s is not used: its columns are not those of %s", stream_files[i].name,
			     role_what[stream_files[i].roles[0]]);
		} else if (!R.src[got].have) {
			R.src[got].t = t;
			R.src[got].name = stream_files[i].name;
			R.src[got].have = 1;
			continue;
		}
		table_free(&t);
	}
}

/* ---- making what is missing ------------------------------------------- */

/* The name of each role's stream in the recipe (lib/recipe). */
static const char *const role_file[NROLES] = {
	"raw.tsv", "pairs.tsv", "runs.tsv", "runs-boot.tsv", "check.tsv", "tint.tsv",
	"sense.tsv", "plan.tsv", "plan-study.tsv",
};

static void cleanup(void)
{
	if (R.page_tmp)
		unlink(R.page_tmp);
	free(R.page_tmp);
	R.page_tmp = NULL;
	if (R.tmp)
		private_dir_remove(R.tmp);
	free(R.tmp);
	R.tmp = NULL;
}

static void interrupted(void)
{
	if (tools_signal) {
		int sig = tools_signal;

		cleanup();
		signal(sig, SIG_DFL);
		raise(sig);
		exit(128 + sig);
	}
}

static struct picture *picture_of(const char *target)
{
	size_t i, len;

	for (i = 0; i < LEN(picture_kinds); i++) {
		len = strlen(picture_kinds[i]);
		if (strncmp(target, picture_kinds[i], len) == 0 && strcmp(target + len, ".svg") == 0)
			return &R.pic[i];
	}
	return NULL;
}

static int role_of(const char *target)
{
	int r;

	for (r = 0; r < NROLES; r++)
		if (strcmp(role_file[r], target) == 0)
			return r;
	return -1;
}

/* A step of the recipe was run for the page: what it made is read (its
 * command is how, for the page's list of files); its failure is a note,
 * not the end. */
static void step_done(void *ctx, struct recipe *rc, const struct step *st,
                      const struct run_result *res)
{
	struct picture *p = st->picture ? picture_of(st->target) : NULL;
	const char *why = *res->msg ? res->msg : "it failed and said nothing";
	int role = role_of(st->target);

	(void)ctx, (void)rc;
	if (res->status == 0 && role >= 0) {
		struct source *s = &R.src[role];
		char *out = path_in(R.tmp, st->target);

		table_read(&s->t, out, 0);
		recipe_step_text(s->how_text, sizeof s->how_text, st);
		s->how = s->how_text;
		s->have = 1;
		free(out);
	} else if (res->status && p) {
		note("%s could not be drawn: %s", st->target, why);
		p->why = xstrdup(why);
	} else if (res->status) {
		note("%s could not be made: %s", st->target, why);
	}
}

/* pb-compare's plan.tsv is its pilot's: DIR has pilot.tsv beside it. */
static int plan_is_pilots(void)
{
	char *pilot = path_in(R.dir, "pilot.tsv");
	int yes = R.src[R_PLAN].have && R.src[R_PLAN].name && is_regular_file(pilot);

	free(pilot);
	return yes;
}

/* What DIR lacks is made by the recipe in a private directory where
 * DIR's streams and pictures stand by the recipe's names, so that each
 * tool is run as the study's Makefile runs it. */
static void derive_streams(void)
{
	struct recipe rc;
	size_t i;
	int r;

	if (!R.derive)
		return;
	R.tmp = private_dir("pb-report");
	for (r = 0; r < NROLES; r++)
		if (R.src[r].have && link_as(R.tmp, role_file[r], R.src[r].t.path) < 0)
			die("%s: cannot link it into %s:", R.src[r].t.path, R.tmp);
	for (i = 0; i < LEN(picture_kinds); i++) {
		char name[16], *path;

		snprintf(name, sizeof name, "%s.svg", picture_kinds[i]);
		path = path_in(R.dir, name);
		if (is_regular_file(path) && link_as(R.tmp, name, path) < 0)
			die("%s: cannot link it into %s:", path, R.tmp);
		free(path);
	}
	recipe_of_dir(&rc, R.tmp);
	rc.pilot = plan_is_pilots();   /* then plan from the study's pairs too */
	rc.pictures = 1;
	rc.page = 1;
	recipe_make(&rc, R.tmp, RECIPE_STOP_AT_SIGNAL, step_done, NULL);
	interrupted();
	R.rc = rc, R.have_rc = 1;
}

/* ---- pictures ----------------------------------------------------------- */

enum { SVG_MAX = 64 << 20 };

static char *read_whole(const char *path, size_t *len, char **why)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f) {
		*why = xstrdup(strerror(errno));
		return NULL;
	}
	do {
		if (n + 65536 > cap) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0 && n <= SVG_MAX);
	if (ferror(f) || n > SVG_MAX) {
		*why = xstrdup(ferror(f) ? "it cannot be read" : "it is larger than 64 MiB");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static const char *picture_label(const char *kind)
{
	return strcmp(kind, "runs") == 0 ? "Per-run intervals of the paired differences" :
	       strcmp(kind, "trend") == 0 ? "The paired differences in the order measured" :
	       strcmp(kind, "pairs") == 0 ? "The distribution of the paired differences" :
	       strcmp(kind, "hosts") == 0 ? "Each host's interval, the average host's, and where "
	                                    "a new host's would fall" :
	       "The calibration: what the harness saw of each known delay";
}

static void picture_load(struct picture *p)
{
	char name[16], prefix[16], why[SVG_WHY_MAX], *text, *err = NULL;
	size_t len;

	snprintf(name, sizeof name, "%s.svg", p->kind);
	snprintf(prefix, sizeof prefix, "%s-", p->kind);
	text = read_whole(p->path, &len, &err);
	if (!text) {
		note("%s cannot be read: %s", name, err);
		p->why = err;
		return;
	}
	if (svg_embed(text, len, prefix, picture_label(p->kind), &p->svg, &p->len, why) < 0) {
		size_t n = strlen(why) + 64;

		p->why = xmalloc(n);
		snprintf(p->why, n, "it is not embedded: %s", why);
		note("%s is not embedded: %s", name, why);
	}
	free(text);
}

/* Each picture: DIR's, else the one the recipe drew (derive_streams). */
static void load_pictures(void)
{
	size_t i;

	for (i = 0; i < LEN(picture_kinds); i++) {
		struct picture *p = &R.pic[i];
		char name[16];

		p->kind = picture_kinds[i];
		snprintf(name, sizeof name, "%s.svg", p->kind);
		p->path = path_in(R.dir, name);
		if (is_regular_file(p->path)) {
			picture_load(p);
			continue;
		}
		free(p->path);
		p->path = R.tmp ? path_in(R.tmp, name) : NULL;
		if (p->path && is_regular_file(p->path)) {
			p->made = 1;
			picture_load(p);
			continue;
		}
		free(p->path);
		p->path = NULL;
	}
}

/* ---- the page ------------------------------------------------------------ */

static FILE *page;

/* A picture's root may say overflow="visible" or transform="...": as
 * presentation attributes they yield to any rule here, so figure svg
 * keeps each picture in its box (its style attribute, which would not
 * yield, lib/svg refuses). */
static const char css[] =
	":root{--fg:#1d2329;--mute:#5b6670;--line:#d9dee3;--bg:#fff;--soft:#f5f7f9;"
	"--good:#1a7f37;--bad:#c62828;--warn:#9a6700;--warnbg:#fff8e1;--accent:#1f77b4}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;color:var(--fg);background:var(--bg);font:15px/1.45 system-ui,"
	"-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif}\n"
	"header,main,footer{max-width:1280px;margin:0 auto;padding:0 24px}\n"
	"header{padding-top:20px;border-bottom:1px solid var(--line)}\n"
	"h1{font-size:24px;margin:0 0 4px;font-weight:600;overflow-wrap:anywhere}\n"
	"h1 .vs{color:var(--mute);font-weight:400;padding:0 .4em}h1 .mono{font-size:22px}\n"
	"h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
	"h3{font-size:15px;margin:16px 0 6px}\n"
	".sub{color:var(--mute);margin:0 0 14px}\n"
	"code,.mono{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px;"
	"overflow-wrap:anywhere}\n"
	".top{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:28px;"
	"align-items:start;margin-top:20px}\n"
	"@media (max-width:960px){.top{grid-template-columns:minmax(0,1fr)}"
	".top>div:last-child{order:-1}}\n"
	"figure{margin:0}\n"
	"figure svg{display:block;width:100%;max-width:962px;height:auto;border:1px solid var(--line);"
	"border-radius:4px;background:#fff;position:static;overflow:hidden;transform:none}\n"
	"figcaption{color:var(--mute);font-size:13px;margin-top:6px}\n"
	".verdict{display:inline-block;font-size:20px;font-weight:600;padding:4px 12px;"
	"border-radius:4px;margin:0 8px 10px 0;color:#fff;background:var(--mute)}\n"
	".verdict.faster{background:var(--good)}.verdict.slower{background:var(--bad)}\n"
	".finding{font-size:16px;margin:0 0 14px}\n"
	"table{border-collapse:collapse;width:100%;margin:6px 0 10px;font-size:14px}\n"
	"th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);"
	"vertical-align:top}\n"
	"th{font-weight:600;background:var(--soft)}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.wrap{white-space:normal}td.key{white-space:nowrap;overflow-wrap:normal}\n"
	".est td.n:nth-last-child(2){font-weight:600}\n"
	".warnings{background:var(--warnbg);border-left:4px solid var(--warn);padding:8px 12px;"
	"margin:10px 0}\n"
	".warnings p{margin:4px 0}.warnings strong{color:var(--warn)}\n"
	".status-warn{color:var(--warn);font-weight:600}.status-ok{color:var(--good)}\n"
	".missing{color:var(--mute);font-style:italic}\n"
	".pair>figure{margin:0 0 20px}\n"
	"ol.chain{margin:4px 0 12px;padding-left:22px}ol.chain li{margin:2px 0}\n"
	"dl.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 14px;"
	"margin:6px 0 12px}\n"
	"dl.meta dt{color:var(--mute)}dl.meta dd{margin:0}\n"
	"footer{color:var(--mute);font-size:13px;border-top:1px solid var(--line);margin-top:32px;"
	"padding-top:10px;padding-bottom:24px}\n"
	"a{color:var(--accent)}\n"
	"@media print{body{font-size:10pt}header,main,footer{max-width:none;padding:0}"
	".top{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}"
	"figure,table,.warnings{break-inside:avoid}h2{break-after:avoid}"
	".verdict{border:1px solid #000;color:#000;background:none !important}"
	"a{color:inherit;text-decoration:none}}\n";

/* Numbers in human units. A value made from a stream's may be beyond a
 * double (1 / a ratio of 0): it is shown as a dash, never as inf. */
static int shown_finite(double x)
{
	if (isfinite(x))
		return 1;
	html_put(page, "%M", "\342\200\224");
	return 0;
}

static void put_ns(double ns)
{
	char b[SIG_BUFSZ];

	if (shown_finite(ns))
		html_put(page, "%s", sig4_ns(b, ns));
}

static void put_sig(double x)
{
	char b[SIG_BUFSZ];

	if (shown_finite(x))
		html_put(page, "%s", sig4(b, x));
}

static void put_pct(double x)
{
	char b[SIG_BUFSZ];

	if (shown_finite(x))
		html_put(page, "%s%%", sig4(b, x));
}

/* A number cell: 4 digits shown, the field as read in its title. */
static void td_num(const struct table *t, size_t r, const char *col, int ns)
{
	double x;

	if (!num_at(t, r, col, &x)) {
		html_put(page, "<td class=\"n\">%s</td>", cell(t, r, col) ? "unbounded" : "");
		return;
	}
	html_put(page, "<td class=\"n\" title=\"%s\">", cell(t, r, col));
	if (ns)
		put_ns(x);
	else
		put_sig(x);
	html_put(page, "</td>");
}

static const struct table *table_of(enum role r)
{
	return R.src[r].have ? &R.src[r].t : NULL;
}

/* The study's head: raw.tsv's, else the first stream's that has one. */
static const struct table *head_table(void)
{
	static const enum role order[] = { R_RAW, R_PAIRS, R_BYRUN, R_TINT, R_CHECK };
	size_t i;

	for (i = 0; i < LEN(order); i++)
		if (table_of(order[i]) && head_meta(table_of(order[i]), "mode"))
			return table_of(order[i]);
	for (i = 0; i < LEN(order); i++)
		if (table_of(order[i]))
			return table_of(order[i]);
	return NULL;
}

/* The runs measured: those of the by-run stream, else of the pair
 * stream (the head's "# runs:" is the most a study may take: --until and
 * --max-time stop it earlier). 0 when neither stream is there. */
static long runs_measured(void)
{
	const struct table *t = table_of(R_BYRUN);
	const char *prev = NULL, *v;
	long n = 0;
	size_t r;

	if (!t || col_of(t, "run") < 0)
		t = table_of(R_PAIRS);
	if (!t || col_of(t, "run") < 0)
		return 0;
	for (r = 0; r < t->nrow; r++, prev = v) {   /* rows come run by run */
		v = cell(t, r, "run");
		if (!prev || strcmp(prev, v) != 0)
			n++;
	}
	return n;
}

static const char *study_meta(const char *key)
{
	const struct table *t = head_table();

	return t ? head_meta(t, key) : NULL;
}

/* The command (or SQL) of the arm named by a letter, as the head says it. */
static const char *arm_command(const char *arm)
{
	char key[8];
	const char *v;

	if (!arm || strlen(arm) != 1 || arm[0] < 'A' || arm[0] > 'Z')
		return NULL;
	study_arm_key(key, "cmd_", arm[0] - 'A');
	v = study_meta(key);
	study_arm_key(key, "sql_", arm[0] - 'A');
	return v ? v : study_meta(key);
}

/* The reference arm (A unless the head names another), and the arm
 * compared with it in row r of a finding (B unless it has an arm column). */
static const char *reference(void)
{
	const char *v = study_meta("reference");

	return v && *v ? v : "A";
}

static const char *candidate(const struct table *t, size_t r)
{
	const char *v = cell(t, r, "arm");

	return v && *v ? v : "B";
}

/* The number of arms the head says, 2 when it says none. */
static long arm_count(void)
{
	const char *v = study_meta("arms");
	double x;

	return v && num_parse(v, &x) == 0 && x >= 2 && x <= 26 && x == (long)x ? (long)x : 2;
}

static void page_head(void)
{
	long k = arm_count();
	const char *a = arm_command("A"), *b = k == 2 ? arm_command("B") : NULL;

	html_put(page, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	         "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
	         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	         "<meta name=\"generator\" content=\"pb-report %M\">\n<title>", PB_VERSION);
	if (a && b)
		html_put(page, "pb report: %s vs %s", a, b);
	else
		html_put(page, "pb report: %s", R.dir);
	html_put(page, "</title>\n<style>\n%M</style>\n</head>\n<body>\n<header>\n<h1>", css);
	if (a && b)
		html_put(page, "<span class=\"mono\">%s</span><span class=\"vs\">vs</span>"
		         "<span class=\"mono\">%s</span>", a, b);
	else if (study_meta("worker"))
		html_put(page, "Worker <span class=\"mono\">%s</span>: %M", study_meta("worker"),
		         k == 2 ? "A vs B" : "");
	else
		html_put(page, "Study <span class=\"mono\">%s</span>%M", R.dir, k > 2 ? ": " : "");
	if (k > 2)
		html_put(page, "%ld arms", k);
	if (k == 2)
		html_put(page, "</h1>\n<p class=\"sub\">A is the baseline, B the candidate");
	else
		html_put(page, "</h1>\n<p class=\"sub\">%s is the reference, the other arms the "
		         "candidates", reference());
	if (runs_measured() > 0 && study_meta("pairs"))
		html_put(page, " · %ld runs × %s pairs", runs_measured(), study_meta("pairs"));
	if (study_meta("warmup"))
		html_put(page, " after %s warm-up pairs", study_meta("warmup"));
	if (study_meta("order"))
		html_put(page, " · order %s", study_meta("order"));
	if (study_meta("host"))
		html_put(page, " · on %s", study_meta("host"));
	if (study_meta("start"))
		html_put(page, " · started %s", study_meta("start"));
	html_put(page, "</p>\n</header>\n<main>\n");
}

static void figure(const struct picture *p, const char *caption)
{
	html_put(page, "<figure>\n");
	if (p->svg) {
		fwrite(p->svg, 1, p->len, page);
		html_put(page, "\n<figcaption>%s", caption);
		if (p->made)
			html_put(page, " (drawn for this page: pb-plot %s)", p->kind);
		else
			html_put(page, " (<a href=\"%s.svg\">%s.svg</a>)", p->kind, p->kind);
		html_put(page, "</figcaption>\n");
	} else {
		char name[16];
		const char *not_made;

		snprintf(name, sizeof name, "%s.svg", p->kind);
		not_made = R.have_rc ? recipe_why_not(&R.rc, name) : NULL;
		html_put(page, "<p class=\"missing\">No picture of %s: ", caption);
		if (p->why)
			html_put(page, "%s.svg: %s", p->kind, p->why);
		else if (not_made)
			html_put(page, "%s", not_made);
		else
			html_put(page, "%s.svg is missing", p->kind);
		html_put(page, ".</p>\n");
	}
	html_put(page, "</figure>\n");
}

/* The finding's numbers: each row of tint.tsv (one per candidate). */
static void estimate_table(const struct table *t)
{
	double ratio, lo, hi;
	size_t r;

	if (!has(t, "ratio")) {
		html_put(page, "<table class=\"est\"><tr><th></th><th class=\"n\">lower</th>"
		         "<th class=\"n\">estimate</th><th class=\"n\">upper</th></tr>\n");
		for (r = 0; r < t->nrow; r++) {
			html_put(page, "<tr><th>mean of %s</th>", head_meta(t, "pb-tint.column") ?
			         head_meta(t, "pb-tint.column") : "the column");
			td_num(t, r, "lo", 0), td_num(t, r, "mean", 0), td_num(t, r, "hi", 0);
			html_put(page, "</tr>\n");
		}
		html_put(page, "</table>\n");
		return;
	}
	html_put(page, "<table class=\"est\"><tr><th></th><th class=\"n\">lower</th>"
	         "<th class=\"n\">estimate</th><th class=\"n\">upper</th></tr>\n");
	for (r = 0; r < t->nrow; r++) {
		const char *ref = reference(), *cand = candidate(t, r);
		int l, h;

		html_put(page, "<tr><th>time ratio %s/%s</th>", ref, cand);
		td_num(t, r, "ratio_lo", 0), td_num(t, r, "ratio", 0), td_num(t, r, "ratio_hi", 0);
		html_put(page, "</tr>\n<tr><th>%s's time against %s's</th>", cand, ref);
		/* B/A - 1 = 1/ratio - 1: the upper end of the ratio is the lower end here */
		h = num_at(t, r, "ratio_lo", &lo);
		l = num_at(t, r, "ratio_hi", &hi);
		html_put(page, "<td class=\"n\">");
		if (l)
			put_pct(100 * (1 / hi - 1));
		html_put(page, "</td><td class=\"n\">");
		if (num_at(t, r, "ratio", &ratio))
			put_pct(100 * (1 / ratio - 1));
		html_put(page, "</td><td class=\"n\">");
		if (h)
			put_pct(100 * (1 / lo - 1));
		html_put(page, "</td></tr>\n");
	}
	html_put(page, "</table>\n");
}

/* The verdict of row r in words, from the interval of the ratio: the
 * candidate is faster, slower, or no difference is resolved. */
static void verdict(const struct table *t, size_t r)
{
	double lo, hi;
	int l = num_at(t, r, "ratio_lo", &lo), h = num_at(t, r, "ratio_hi", &hi);
	const char *cand = candidate(t, r);

	if (l && lo > 1)
		html_put(page, "<p class=\"verdict faster\">%s is faster</p>\n", cand);
	else if (h && hi < 1)
		html_put(page, "<p class=\"verdict slower\">%s is slower</p>\n", cand);
	else if (has(t, "arm"))
		html_put(page, "<p class=\"verdict unresolved\">%s: no difference resolved</p>\n",
		         cand);
	else
		html_put(page, "<p class=\"verdict unresolved\">No difference resolved</p>\n");
}

/* The checks of status st ("warn", "n/a"). */
static size_t count_status(const struct table *c, const char *st)
{
	size_t r, n = 0;

	for (r = 0; c && r < c->nrow; r++)
		n += strcmp(cell(c, r, "status"), st) == 0;
	return n;
}

static void warnings_box(void)
{
	const struct table *c = table_of(R_CHECK);
	size_t r, n = count_status(c, "warn");

	if (!c)
		return;
	if (n == 0 && count_status(c, "n/a") == 0) {
		html_put(page, "<p>pb-check: every check of the evidence is ok "
		         "(<a href=\"#checks\">the checks</a>).</p>\n");
		return;
	}
	if (n == 0) {   /* "nothing warned" is not "all is well" */
		html_put(page, "<p>pb-check warned of nothing, but %zu of its %zu checks could not be "
		         "made: too little data for them (<a href=\"#checks\">the checks</a>).</p>\n",
		         count_status(c, "n/a"), c->nrow);
		return;
	}
	html_put(page, "<div class=\"warnings\"><p><strong>pb-check warns %s:</strong></p>\n",
	         n == 1 ? "once" : "more than once");
	for (r = 0; r < c->nrow; r++)
		if (strcmp(cell(c, r, "status"), "warn") == 0) {
			html_put(page, "<p><span class=\"mono\">%s</span>", cell(c, r, "check"));
			if (has(c, "arm"))
				html_put(page, " (arm %s)", cell(c, r, "arm"));
			html_put(page, ": %s</p>\n", cell(c, r, "note"));
		}
	html_put(page, "</div>\n");
}

static void finding_text(const struct table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nmeta; i++)
		if (!t->meta[i].head && strcmp(t->meta[i].key, "finding") == 0) {
			html_put(page, "<p class=\"finding\">%s</p>\n", t->meta[i].value);
			n++;
		}
	if (n == 0)
		html_put(page, "<p class=\"missing\">tint.tsv holds no finding sentence "
		         "(pb-tint without --finding).</p>\n");
	if (key_note(t, KEY_TINT_METHOD))
		html_put(page, "<p class=\"sub\">Method: %s.</p>\n", key_note(t, KEY_TINT_METHOD));
}

static void section_arms(void);

/* The picture of the runs and each arm beside the finding, criterion.rs's way. */
/* CPU time and peak memory, in the summary's words (lib/summary), where
 * raw.tsv has pb-run's rusage columns: read as pb-compare --from reads a
 * study, from DIR or, with what was made for the page, the private one. */
static void use_lines(void)
{
	const char *dir = R.tmp ? R.tmp : R.dir;
	struct study s;
	int i, k;

	if (!recipe_raw_has_use(dir))
		return;
	study_read(&s, dir);
	if (s.have_use) {
		html_put(page, "<h3>CPU time and peak memory</h3>\n<ul class=\"use\">\n");
		for (i = 0; i < s.ncmp; i++)
			for (k = 0; k < NUSE; k++) {
				char lead[32], *text = NULL;
				size_t len = 0;
				FILE *m;

				if (!study_has_use(&s, k))
					continue;
				if (!(m = open_memstream(&text, &len)))
					die("pb-report: cannot hold a line in memory:");
				lead[0] = '\0';
				if (s.ncmp > 1)
					snprintf(lead, sizeof lead, "%c against %c, ", s.cmp[i].cand,
					         s.cmp[i].ref);
				write_use_line(m, lead, &s, &s.cmp[i], k);
				if (fclose(m) != 0)
					die("pb-report: cannot hold a line in memory:");
				if (len && text[len - 1] == '\n')
					text[len - 1] = '\0';
				html_put(page, "<li>%s</li>\n", text);
				free(text);
			}
		html_put(page, "</ul>\n");
	}
	study_free(&s);
}

static void section_top(void)
{
	const struct table *t = table_of(R_TINT);
	size_t r;

	html_put(page, "<section class=\"top\" id=\"finding\">\n<div>\n");
	section_arms();
	html_put(page, "</div>\n<div>\n");
	for (r = 0; t && has(t, "ratio") && r < t->nrow; r++)
		verdict(t, r);
	if (t) {
		estimate_table(t);
		finding_text(t);
		if (R.src[R_TINT].how)
			html_put(page, "<p class=\"sub\">Made for this page: <code>%s</code>.</p>\n",
			         R.src[R_TINT].how);
		use_lines();
	} else {
		html_put(page, "<p class=\"missing\">No finding: tint.tsv is missing, and no by-run "
		         "stream to make it from (pb-pair --by-run raw.tsv | pb-logratio | "
		         "pb-tint --finding &gt; tint.tsv).</p>\n");
	}
	warnings_box();
	html_put(page, "</div>\n</section>\n");
	/* below, at its natural size: in a column its text fell under 8 px */
	html_put(page, "<section id=\"runs-picture\">\n");
	figure(&R.pic[0], picture_label("runs"));
	html_put(page, "</section>\n");
}

/* ---- each arm ------------------------------------------------------------ */

struct arm_summary {
	size_t n;
	double median, q1, q3, run_min, run_max;
	int runs;
};

static void summarize(double *x, size_t n, struct arm_summary *s)
{
	s->n = n;
	s->median = stat_quantile(x, n, 0.5);
	s->q1 = stat_quantile(x, n, 0.25);
	s->q3 = stat_quantile(x, n, 0.75);
}

/* The column col of the rows whose arm column (if any) is arm: a copy. */
static double *column(const struct table *t, const char *col, const char *arm, size_t *n)
{
	double *x = xmalloc((t->nrow ? t->nrow : 1) * sizeof *x);
	size_t r;

	*n = 0;
	for (r = 0; r < t->nrow; r++) {
		const char *a = cell(t, r, "arm");

		if (arm && a && strcmp(a, arm) != 0)
			continue;
		if (num_at(t, r, col, &x[*n]))
			(*n)++;
	}
	return x;
}

static void arm_row(const char *arm, const char *cmd, const struct arm_summary *s)
{
	html_put(page, "<tr><th>%s</th><td class=\"mono\">%s</td><td class=\"n\">", arm,
	         cmd ? cmd : "");
	put_ns(s->median);
	html_put(page, "</td><td class=\"n wrap\">");
	put_ns(s->q1);
	html_put(page, " – ");
	put_ns(s->q3);
	html_put(page, "</td><td class=\"n wrap\">");
	if (s->runs) {
		put_ns(s->run_min);
		html_put(page, " – ");
		put_ns(s->run_max);
	}
	html_put(page, "</td></tr>\n");
}

/* One arm's pairs (a or b column) and its runs' values. */
static void arm_summary(const char *col, const char *arm, struct arm_summary *s)
{
	const struct table *p = table_of(R_PAIRS), *br = table_of(R_BYRUN);
	size_t n;
	double *x;

	memset(s, 0, sizeof *s);
	x = column(p, col, arm, &n);
	if (n)
		summarize(x, n, s);
	free(x);
	if (br) {
		x = column(br, col, arm, &n);
		if (n) {
			s->run_min = stat_quantile(x, n, 0);
			s->run_max = stat_quantile(x, n, 1);
			s->runs = 1;
		}
		free(x);
	}
}

static void section_arms(void)
{
	const struct table *p = table_of(R_PAIRS);
	struct arm_summary s;
	long c_arm;
	size_t r;

	html_put(page, "<h3>Each arm</h3>\n");
	if (!p) {
		html_put(page, "<p class=\"missing\">No pair stream: pairs.tsv is missing.</p>\n");
		return;
	}
	html_put(page, "<table><tr><th>arm</th><th>command</th><th class=\"n\">median</th>"
	         "<th class=\"n\">middle half</th><th class=\"n\">runs, lowest – highest</th></tr>\n");
	arm_summary("a", NULL, &s);
	arm_row(reference(), arm_command(reference()), &s);
	c_arm = col_of(p, "arm");
	if (c_arm < 0) {
		arm_summary("b", NULL, &s);
		arm_row("B", arm_command("B"), &s);
	} else {
		for (r = 0; r < p->nrow; r++) {
			const char *arm = p->cell[r * p->ncol + (size_t)c_arm];
			size_t q;

			for (q = 0; q < r && strcmp(p->cell[q * p->ncol + (size_t)c_arm], arm) != 0; q++)
				;
			if (q < r)
				continue;
			arm_summary("b", arm, &s);
			arm_row(arm, arm_command(arm), &s);
		}
	}
	html_put(page, "</table>\n<p class=\"sub\">Times of all %zu measured pairs: median and "
	         "middle half (quartiles, R's type 7); runs: the lowest and highest of "
	         "each run's value in the by-run stream (%s).</p>\n", p->nrow,
	         table_of(R_BYRUN) && by_run_words(table_of(R_BYRUN)) ?
	         by_run_words(table_of(R_BYRUN)) : "its medians");
}

/* ---- the runs ------------------------------------------------------------ */

struct run_note {
	const char *run, *start, *host;
	size_t nrun, nstart, nhost;
};

/* The '# run:' comments of the first stream that has them. */
static struct run_note *run_notes(size_t *n)
{
	static const enum role order[] = { R_PAIRS, R_BYRUN, R_RUNBOOT };
	struct run_note *v = NULL;
	size_t i, k, cap = 0;

	*n = 0;
	for (k = 0; k < LEN(order) && *n == 0; k++) {
		const struct table *t = table_of(order[k]);

		for (i = 0; t && i < t->nmeta; i++) {
			struct run_comment rc;

			if (strcmp(t->meta[i].key, "run") != 0 ||
			    run_comment_parse(t->meta[i].value, &rc) < 0)
				continue;
			xgrow(&v, &cap, *n + 1, sizeof *v);
			v[*n].run = rc.number.p, v[*n].nrun = rc.number.len;
			v[*n].start = rc.start.p, v[*n].nstart = rc.start.len;
			v[*n].host = rc.host.p, v[*n].nhost = rc.host.len;
			(*n)++;
		}
	}
	return v;
}

static const struct run_note *note_of(const struct run_note *v, size_t n, const char *run)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(run) == v[i].nrun &&
		    (v[i].nrun == 0 || memcmp(run, v[i].run, v[i].nrun) == 0))
			return &v[i];
	return NULL;
}

/* The row of the per-run intervals for run (and arm), or -1. */
static long boot_row(const struct table *b, const char *run, const char *arm)
{
	size_t r;

	for (r = 0; b && r < b->nrow; r++)
		if (strcmp(cell(b, r, "run"), run) == 0 &&
		    (!arm || !cell(b, r, "arm") || strcmp(cell(b, r, "arm"), arm) == 0))
			return (long)r;
	return -1;
}

static int many_hosts(const struct run_note *v, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i].nhost != v[0].nhost ||
		    (v[0].nhost && memcmp(v[i].host, v[0].host, v[0].nhost) != 0))
			return 1;
	return 0;
}

static void run_interval(const struct table *b, long r)
{
	const char *sign;

	if (r < 0) {
		html_put(page, "<td></td><td></td>");
		return;
	}
	td_num(b, (size_t)r, "est", 1);
	html_put(page, "<td class=\"n\">");
	{
		double lo, hi;

		if (num_at(b, (size_t)r, "lo", &lo) && num_at(b, (size_t)r, "hi", &hi)) {
			put_ns(lo);
			html_put(page, " to ");
			put_ns(hi);
		}
	}
	sign = cell(b, (size_t)r, "sign");
	html_put(page, "</td><td>%M</td>", !sign ? "" : strcmp(sign, "-") == 0 ? "B faster" :
	         strcmp(sign, "+") == 0 ? "B slower" : "—");
}

static void section_runs(void)
{
	const struct table *br = table_of(R_BYRUN), *b = table_of(R_RUNBOOT);
	const struct table *rows = br ? br : b;
	size_t nn, r;
	struct run_note *notes = run_notes(&nn);
	int hosts = many_hosts(notes, nn), arm = rows && has(rows, "arm");

	html_put(page, "<section id=\"runs\">\n<h2>The runs</h2>\n");
	if (!rows) {
		html_put(page, "<p class=\"missing\">No per-run values: runs.tsv is missing.</p>\n"
		         "</section>\n");
		free(notes);
		return;
	}
	html_put(page, "<p>Runs are the independent units: each is a fresh process, worker or "
	         "connection. Each row is one run");
	if (b) {
		const char *lv = head_meta(b, KEY_BOOT_LEVEL);
		char pct[SIG_BUFSZ];
		double level;
		int known = lv && num_parse(lv, &level) == 0 && level > 0 && level < 1;

		html_put(page, "; its interval is the %s%M bootstrap interval of the median paired "
		         "difference d = B − A inside that run", known ? level_percent(pct, level) : "",
		         known ? "%" : "");
	}
	html_put(page, ".</p>\n<table><tr><th>run</th>");
	if (arm)
		html_put(page, "<th>arm</th>");
	if (br)
		html_put(page, "<th class=\"n\">pairs</th><th class=\"n\">A</th><th class=\"n\">B</th>"
		         "<th class=\"n\">ratio A/B</th>");
	if (b)
		html_put(page, "<th class=\"n\">median d</th><th class=\"n\">interval of d</th>"
		         "<th>saw</th>");
	html_put(page, "<th>started</th>%M</tr>\n", hosts ? "<th>host</th>" : "");
	for (r = 0; r < rows->nrow; r++) {
		const char *run = cell(rows, r, "run"), *a = arm ? cell(rows, r, "arm") : NULL;
		const struct run_note *rn = note_of(notes, nn, run);

		html_put(page, "<tr><td>%s</td>", run);
		if (arm)
			html_put(page, "<td>%s</td>", a);
		if (br) {
			double x, y;

			html_put(page, "<td class=\"n\">%s</td>", cell(br, r, "n"));
			td_num(br, r, "a", 1);
			td_num(br, r, "b", 1);
			html_put(page, "<td class=\"n\">");
			if (num_at(br, r, "a", &x) && num_at(br, r, "b", &y) && x > 0 && y > 0)
				put_sig(x / y);
			html_put(page, "</td>");
		}
		if (b)
			run_interval(b, boot_row(b, run, a));
		html_put(page, "<td class=\"mono\">");
		if (rn)
			html_textn(page, rn->start, rn->nstart);
		html_put(page, "</td>");
		if (hosts) {
			html_put(page, "<td class=\"mono\">");
			if (rn)
				html_textn(page, rn->host, rn->nhost);
			html_put(page, "</td>");
		}
		html_put(page, "</tr>\n");
	}
	html_put(page, "</table>\n");
	if (br && by_run_words(br))
		html_put(page, "<p class=\"sub\">A and B: %s; ratio A/B = A / B of the row.</p>\n",
		         by_run_words(br));
	html_put(page, "</section>\n");
	free(notes);
}

/* Runs on several hosts: pb-compare's hosts.tsv, whose finding says what
 * the average host and a new one show (the runs above are pooled as if
 * independent), and its picture. Nothing when there is none: pb-report
 * does not make it (a study of one host has no such question). */
static void section_hosts(void)
{
	struct hosts_result h;

	study_read_hosts(&h, R.dir);
	if (h.have) {
		html_put(page, "<section id=\"hosts\">\n<h2>The hosts</h2>\n<p>The runs ran on %ld "
		         "hosts. A host's runs share its machine, so the hosts, not the runs, are "
		         "the unit for what another machine would show "
		         "(<a href=\"hosts.tsv\">hosts.tsv</a>).</p>\n", h.n);
		if (h.finding)
			html_put(page, "<p class=\"finding\">%s</p>\n", h.finding);
		figure(&R.pic[4], picture_label("hosts"));
		html_put(page, "</section>\n");
	}
	free(h.finding);
}

/* ---- the evidence, the checks ------------------------------------------- */

static void section_evidence(void)
{
	html_put(page, "<section id=\"evidence\">\n<h2>The pairs</h2>\n<div class=\"pair\">\n");
	figure(&R.pic[1], "The paired differences in the order measured, by the arm that ran "
	       "first: order effects and drift show here");
	figure(&R.pic[2], "The distribution of the paired differences d = B − A over all pairs");
	html_put(page, "</div>\n</section>\n");
}

/* A section of one stream: its heading, then the stream's table, or
 * NULL after a line that says it is missing (what, in HTML) and the
 * section's end. */
static const struct table *section_of(enum role role, const char *id, const char *title,
                                      const char *missing)
{
	const struct table *t = table_of(role);

	html_put(page, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
	if (!t)
		html_put(page, "<p class=\"missing\">%M</p>\n</section>\n", missing);
	return t;
}

static void section_checks(void)
{
	const struct table *c = section_of(R_CHECK, "checks", "Checks of the evidence (pb-check)",
	                                   "No checks: check.tsv is missing (pb-check pairs.tsv "
	                                   "&gt; check.tsv).");
	size_t r;

	if (!c)
		return;
	html_put(page, "<table><tr><th>check</th>%M<th>status</th><th>what it found</th></tr>\n",
	         has(c, "arm") ? "<th>arm</th>" : "");
	for (r = 0; r < c->nrow; r++) {
		const char *st = cell(c, r, "status");

		html_put(page, "<tr><td class=\"mono key\">%s</td>", cell(c, r, "check"));
		if (has(c, "arm"))
			html_put(page, "<td>%s</td>", cell(c, r, "arm"));
		html_put(page, "<td class=\"%M\">%s</td><td>%s</td></tr>\n",
		         strcmp(st, "warn") == 0 ? "status-warn" : strcmp(st, "ok") == 0 ?
		         "status-ok" : "", st, cell(c, r, "note"));
	}
	html_put(page, "</table>\n");
	if (R.src[R_CHECK].how)
		html_put(page, "<p class=\"sub\">Made for this page: <code>%s</code>.</p>\n",
		         R.src[R_CHECK].how);
	html_put(page, "</section>\n");
}

/* ---- the calibration, the plan ------------------------------------------ */

static void section_calibration(void)
{
	const struct table *s = section_of(R_SENSE, "calibration", "Calibration (pb-sense)",
	                                   "No calibration in this directory: sense.tsv is missing. "
	                                   "An A/A study with known delays on one arm measures the "
	                                   "smallest effect this harness sees: pb-sense --delays "
	                                   "0,2us,10us,50us … -- CMD_A &gt; sense.tsv.");
	size_t r, i;

	if (!s)
		return;
	html_put(page, "<div class=\"pair\">\n");
	figure(&R.pic[3], picture_label("sense"));
	html_put(page, "<div>\n");
	for (i = 0; i < s->nmeta; i++)
		if (!s->meta[i].head && strcmp(s->meta[i].key, "sense") == 0)
			html_put(page, "<p class=\"finding\">%s</p>\n", s->meta[i].value);
	html_put(page, "<table><tr><th class=\"n\">delay</th><th class=\"n\">runs that saw it"
	         "</th><th class=\"n\">estimate</th><th class=\"n\">interval</th></tr>\n");
	for (r = 0; r < s->nrow; r++) {
		double lo, hi;

		html_put(page, "<tr>");
		td_num(s, r, "delay_ns", 1);
		html_put(page, "<td class=\"n\">%s of %s</td>", cell(s, r, "seen"), cell(s, r, "runs"));
		td_num(s, r, "est", 1);
		html_put(page, "<td class=\"n\">");
		if (num_at(s, r, "lo", &lo) && num_at(s, r, "hi", &hi)) {
			put_ns(lo);
			html_put(page, " to ");
			put_ns(hi);
		}
		html_put(page, "</td></tr>\n");
	}
	html_put(page, "</table>\n</div>\n</div>\n</section>\n");
}

/* One plan table; its "current" row named as the design it is. */
static void plan_table(const struct table *p, const char *current)
{
	size_t r;

	html_put(page, "<table><tr><th>plan</th><th class=\"n\">runs</th>"
	         "<th class=\"n\">pairs per run</th><th class=\"n\">half-width</th>"
	         "<th class=\"n\">time</th></tr>\n");
	for (r = 0; r < p->nrow; r++) {
		const char *name = cell(p, r, "plan");
		double hw, s;

		if (strcmp(name, "current") == 0)
			html_put(page, "<tr><td>%M</td>", current);
		else
			html_put(page, "<tr><td>%s</td>", name);
		html_put(page, "<td class=\"n\">%s</td><td class=\"n\">%s</td>", cell(p, r, "runs"),
		         cell(p, r, "pairs"));
		html_put(page, "<td class=\"n\" title=\"%s\">", cell(p, r, "halfwidth"));
		if (num_at(p, r, "halfwidth", &hw))
			html_put(page, "±"), put_pct(100 * expm1(hw));
		html_put(page, "</td><td class=\"n\" title=\"%s\">", cell(p, r, "total_s"));
		if (num_at(p, r, "total_s", &s))
			put_ns(s * 1e9);
		html_put(page, "</td></tr>\n");
	}
	html_put(page, "</table>\n");
	if (head_meta(p, "pb-plan.model"))
		html_put(page, "<p class=\"sub\">Model: %s.</p>\n", head_meta(p, "pb-plan.model"));
}

/* pb-compare's plan.tsv is its pilot's: the design the study ran is not
 * in it, so a plan from the study's own pairs stands beside it. */
static void section_plan(void)
{
	const char *not_made = R.have_rc ? recipe_why_not(&R.rc, "plan.tsv") : NULL;
	const struct table *p, *st = table_of(R_PLAN_STUDY);
	int pilot = plan_is_pilots();
	char missing[160];

	snprintf(missing, sizeof missing, "No plan: %s.", not_made ? not_made : "plan.tsv is missing");
	p = section_of(R_PLAN, "plan", "Plan (pb-plan)", missing);
	if (!p)
		return;
	html_put(page, "<p>How precise a design would be, from the variance between and "
	         "within runs. Half-width: of the interval of the log ratio, as a share of the "
	         "ratio.</p>\n");
	if (pilot)
		html_put(page, "<h3>From the pilot (plan.tsv), before the study</h3>\n");
	plan_table(p, pilot ? "the pilot" : "this study");
	if (R.src[R_PLAN].how)
		html_put(page, "<p class=\"sub\">Made for this page: <code>%s</code>.</p>\n",
		         R.src[R_PLAN].how);
	if (st) {
		html_put(page, "<h3>From this study's own pairs: its design</h3>\n");
		plan_table(st, "this study");
		html_put(page, "<p class=\"sub\">Made for this page: <code>%s</code>.</p>\n",
		         R.src[R_PLAN_STUDY].how ? R.src[R_PLAN_STUDY].how : "pb-plan pairs.tsv");
	} else if (pilot) {
		const char *why = R.have_rc ? recipe_why_not(&R.rc, "plan-study.tsv") : NULL;

		html_put(page, "<p class=\"missing\">No plan from this study's own pairs: %M.</p>\n",
		         why ? why : "pairs.tsv was not made for this page");
	}
	html_put(page, "</section>\n");
}

/* ---- the provenance, the files ------------------------------------------ */

/* "pb-TOOL": a provenance line's key. */
static int is_tool_key(const char *k)
{
	if (strncmp(k, "pb-", 3) != 0 || !k[3])
		return 0;
	for (k += 3; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || *k == '-'))
			return 0;
	return 1;
}

static void study_head(const struct table *t)
{
	size_t i;

	html_put(page, "<h3>The study</h3>\n<dl class=\"meta\">\n");
	for (i = 0; i < t->nmeta; i++) {
		const char *k = t->meta[i].key;

		if (!t->meta[i].head || strncmp(k, "pb-", 3) == 0 || strcmp(k, "run") == 0 ||
		    strcmp(k, KEY_RUN_END) == 0 ||
		    strcmp(k, "pair") == 0 || strcmp(k, "log_ratio") == 0)
			continue;
		html_put(page, "<dt>%s</dt><dd class=\"mono\">%s</dd>\n", k, t->meta[i].value);
	}
	html_put(page, "</dl>\n");
}

/* The i-th provenance line of s, or NULL. */
static const struct kv *tool_line(const struct source *s, size_t i)
{
	size_t k;

	for (k = 0; k < s->t.nmeta; k++)
		if (s->t.meta[k].head && is_tool_key(s->t.meta[k].key) && i-- == 0)
			return &s->t.meta[k];
	return NULL;
}

/* The chain of a begins the chain of b (a's lines are b's first ones). */
static int chain_begins(const struct source *a, const struct source *b)
{
	const struct kv *x, *y;
	size_t i;

	for (i = 0; (x = tool_line(a, i)); i++) {
		y = tool_line(b, i);
		if (!y || strcmp(x->key, y->key) != 0 || strcmp(x->value, y->value) != 0)
			return 0;
	}
	return 1;
}

static const char *source_label(int r)
{
	return R.src[r].name ? R.src[r].name : role_what[r];
}

/* Shown unless its chain begins a longer one (or the same one, shown
 * first): the longest chains hold every line. */
static int chain_shown(int r)
{
	int q;

	for (q = 0; q < NROLES; q++)
		if (q != r && R.src[q].have && chain_begins(&R.src[r], &R.src[q]) &&
		    (!chain_begins(&R.src[q], &R.src[r]) || q < r))
			return 0;
	return 1;
}

static void chain(int r)
{
	const struct source *s = &R.src[r];
	const struct kv *line;
	size_t i;
	int q, also = 0;

	html_put(page, "<h3>%s%M</h3>\n<ol class=\"chain\">\n", source_label(r),
	         s->how ? " (made for this page)" : "");
	for (i = 0; (line = tool_line(s, i)); i++)
		html_put(page, "<li><code># %s: %s</code></li>\n", line->key, line->value);
	if (i == 0)
		html_put(page, "<li class=\"missing\">no '# pb-TOOL:' line</li>\n");
	html_put(page, "</ol>\n");
	for (q = 0; q < NROLES; q++)
		if (q != r && R.src[q].have && !chain_shown(q) && tool_line(&R.src[q], 0) &&
		    chain_begins(&R.src[q], s)) {
			html_put(page, "%M%s", also++ ? ", " : "<p class=\"sub\">Its first lines are "
			         "the chain of ", source_label(q));
		}
	if (also)
		html_put(page, ".</p>\n");
}

static void section_provenance(void)
{
	const struct table *h = head_table();
	int r;

	html_put(page, "<section id=\"provenance\">\n<h2>Provenance</h2>\n<p>Every pb tool copies "
	         "the comments it reads and adds a line that names itself, its version and its "
	         "arguments: each stream carries the chain that made it.</p>\n");
	if (h)
		study_head(h);
	for (r = 0; r < NROLES; r++)
		if (R.src[r].have && chain_shown(r))
			chain(r);
	html_put(page, "</section>\n");
}

static const char *made_how(const char *name)
{
	int r;

	for (r = 0; r < NROLES; r++)
		if (R.src[r].how && !R.src[r].name) {
			const char *p = R.src[r].how;

			if ((r == R_PAIRS && strcmp(name, "pairs.tsv") == 0) ||
			    (r == R_BYRUN && strcmp(name, "runs.tsv") == 0) ||
			    (r == R_CHECK && strcmp(name, "check.tsv") == 0) ||
			    (r == R_TINT && strcmp(name, "tint.tsv") == 0) ||
			    (r == R_PLAN && strcmp(name, "plan.tsv") == 0))
				return p;
		}
	return NULL;
}

static const char *drawn_how(const char *name)
{
	static char how[64];
	size_t i;

	for (i = 0; i < LEN(R.pic); i++)
		if (R.pic[i].made && strncmp(name, R.pic[i].kind, strlen(R.pic[i].kind)) == 0 &&
		    strcmp(name + strlen(R.pic[i].kind), ".svg") == 0) {
			snprintf(how, sizeof how, "pb-plot %s %s.tsv", R.pic[i].kind,
			         strcmp(R.pic[i].kind, "sense") == 0 ? "sense" : "pairs");
			return how;
		}
	return NULL;
}

static void section_files(void)
{
	size_t i;

	html_put(page, "<section id=\"files\">\n<h2>Files</h2>\n<p>The streams beside this page "
	         "hold every digit; the tables above show four.</p>\n<table><tr><th>file</th>"
	         "<th>what</th><th>here</th></tr>\n");
	for (i = 0; i < LEN(known_files); i++) {
		const char *name = known_files[i].name, *how = made_how(name);
		char *path = path_in(R.dir, name);
		int here = is_regular_file(path);

		free(path);
		if (!here && !how && (strstr(name, ".png") || strcmp(name, "byrun.tsv") == 0 ||
		                      strcmp(name, "pilot.tsv") == 0 || strncmp(name, "hosts.", 6) == 0))
			continue;
		if (!here && !how)
			how = drawn_how(name);
		if (here)
			html_put(page, "<tr><td><a href=\"%M\">%M</a></td><td>%M</td><td>yes</td></tr>\n",
			         name, name, known_files[i].what);
		else if (how)
			html_put(page, "<tr><td>%M</td><td>%M</td><td class=\"missing\">no: made for this "
			         "page by <code>%s</code></td></tr>\n", name, known_files[i].what, how);
		else
			html_put(page, "<tr><td>%M</td><td>%M</td><td class=\"missing\">missing</td>"
			         "</tr>\n", name, known_files[i].what);
	}
	html_put(page, "</table>\n");
	for (i = 0; i < R.nnotes; i++)
		html_put(page, "<p class=\"missing\">%s.</p>\n", R.notes[i]);
	html_put(page, "</section>\n");
}

static void page_end(int argc, char **argv)
{
	int i;

	html_put(page, "</main>\n<footer>Written by <code>pb-report %M", PB_VERSION);
	for (i = 1; i < argc; i++)
		html_put(page, " %s", argv[i]);
	html_put(page, "</code>. The page runs no script and loads nothing: the pictures are "
	         "inline.</footer>\n</body>\n</html>\n");
}

/* ---- the page as a whole ------------------------------------------------ */

/* The page goes to a temporary file beside out, renamed at the end: a
 * report.html is whole or the old one. DIR/report.html is always so
 * replaced, whatever stands there: a study directory may be another's,
 * and a link, FIFO or device planted as report.html must neither take
 * the page elsewhere nor hang us in open(). Only a file -o names that
 * exists and is not a regular file (/dev/null, a pipe) is written to
 * directly: the user chose it, and rename would put a file in its place. */
static FILE *open_page(const char *out, int chosen, char **tmp)
{
	const char *slash = strrchr(out, '/');
	size_t dn = slash ? (size_t)(slash - out) + 1 : 0, n = dn + 32;
	struct stat st;
	int fd;
	FILE *f;

	*tmp = NULL;
	if (strcmp(out, "-") == 0)
		return stdout;
	if ((chosen ? stat(out, &st) : lstat(out, &st)) == 0 && S_ISDIR(st.st_mode))
		die("%s: a directory: give -o a file name", out);
	/* a device, a pipe, or a link (/dev/stdout): written through, never
	 * replaced by a rename */
	if (chosen && ((stat(out, &st) == 0 && !S_ISREG(st.st_mode)) ||
	               (lstat(out, &st) == 0 && S_ISLNK(st.st_mode)))) {
		if (!(f = fopen(out, "w")))
			die("%s: cannot write:", out);
		return f;
	}
	*tmp = xmalloc(n);
	snprintf(*tmp, n, "%.*s.report.XXXXXX", (int)dn, out);
	fd = mkstemp(*tmp);
	if (fd < 0)
		die("%s: cannot write there:", out);
	R.page_tmp = xstrdup(*tmp);
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f)
		die("%s:", *tmp);
	return f;
}

static void close_page(FILE *f, const char *out, char *tmp)
{
	if (!tmp) {
		if (f == stdout)
			flush_stdout_or_die();
		else if (fflush(f) != 0 || ferror(f) || fclose(f) != 0)
			die("%s: cannot write:", out);
		return;
	}
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		unlink(tmp);
		die("%s: cannot write:", out);
	}
	if (rename(tmp, out) != 0) {
		unlink(tmp);
		die("%s: cannot write:", out);
	}
	free(R.page_tmp);
	R.page_tmp = NULL;
	free(tmp);
}

static void check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		die("%s:", dir);
	if (!S_ISDIR(st.st_mode))
		die("%s: not a directory (pb-report reads a study directory)", dir);
}

/* Whether path names the file the standard output writes. */
static int is_stdout(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && fstat(1, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

void report_write(const char *dir, const char *out, int derive, int argc, char **argv)
{
	char *outpath, *tmp;
	int c, r;

	R.derive = derive;
	R.dir = dir;
	if (R.dir[0] == '-') {   /* its paths go to the tools: not as options */
		char *d = xmalloc(strlen(R.dir) + 3);

		sprintf(d, "./%s", R.dir);
		R.dir = d;
	}
	check_dir(R.dir);
	tools_init(argv[0]);
	atexit(cleanup);
	scan_streams();
	if (!R.src[R_RAW].have && !R.src[R_PAIRS].have)
		die("%s: no raw.tsv (pb-run) or pairs.tsv (pb-pair): pb-report needs the "
		    "study's raw or pair stream", R.dir);
	derive_streams();
	load_pictures();
	outpath = out ? xstrdup(out) : path_in(R.dir, "report.html");
	page = open_page(outpath, out != NULL, &tmp);
	page_head();
	section_top();
	section_runs();
	section_hosts();
	section_evidence();
	section_checks();
	section_calibration();
	section_plan();
	section_provenance();
	section_files();
	page_end(argc, argv);
	interrupted();
	close_page(page, outpath, tmp);
	/* where the page is: the one line a person needs, unless the page
	 * itself went to the standard output (-o -, or its file) */
	if (!out || (strcmp(out, "-") != 0 && !is_stdout(outpath))) {
		fputs("report: ", stdout);
		put_safe_text(stdout, outpath);
		fputc('\n', stdout);
		flush_stdout_or_die();
	}
	for (r = 0; r < NROLES; r++)
		table_free(&R.src[r].t);
	for (r = 0; r < 4; r++)
		free(R.pic[r].path), free(R.pic[r].svg), free(R.pic[r].why);
	for (c = 0; c < (int)R.nnotes; c++)
		free(R.notes[c]);
	free(R.notes);
	free(outpath);
	cleanup();
}

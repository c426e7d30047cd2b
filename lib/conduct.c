/* conduct: a study conducted within a budget, as pb-compare(1) does it:
 * a probe and a pilot (pb-run) price an observation and a run, pb-plan on
 * the pilot fixes the pairs per run, pb-run --until measures until the
 * confidence sequence answers or the budget is spent, and the recipe
 * (lib/recipe) analyses it, each tool a child process (lib/tools) writing
 * its stream into the study directory. The study is read back from those
 * streams (lib/studydir): no statistic is computed here. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "conduct.h"
#include "err.h"
#include "files.h"
#include "human.h"
#include "num.h"
#include "progress.h"
#include "runopt.h"
#include "stats.h"
#include "study.h"
#include "stream.h"
#include "summary.h"
#include "export.h"
#include "tools.h"

/* The share of the budget each part may take. */
#define PILOT_SHARE 0.15
#define CALIBRATE_SHARE 0.25
/* The analysis after the study, priced from what a step of it costs
 * here as measured (step_price): a step of the streams (a pipeline of
 * one or two tools on the study's stream, larger than the pilot's) at
 * STEP_MARGIN steps, a picture (pb-plot: a shell, awk, pb-boot and
 * gnuplot) at PICTURE_STEPS: on two cores, each of 3 pictures took 15
 * to 45 times the pilot's pipeline (0.8 to 1.6 s against 25 to 60 ms
 * at a load of 6, 2 s against 0.1 s at 10). The pictures are drawn when
 * they take at most PICTURES_MOST of the budget; the streams are priced
 * whole, never capped. */
#define STEP_MARGIN 1.5
#define PICTURE_STEPS 30
#define PICTURES_MOST 0.4
/* The plan keeps room for this many runs at least: the sequence needs
 * runs to narrow. */
#define RUNS_FLOOR 20
/* A pilot and a plan when the budget affords this many pairs. */
#define SLOW_PAIRS 40

/* --- small helpers ---------------------------------------------------- */

static double now_ns(void)
{
	return (double)clock_ns();
}

static const char *dur_arg(char buf[32], double ns)
{
	snprintf(buf, 32, "%.0f", ns < 1 ? 1 : ns);
	return buf;
}

/* --- the study directory ----------------------------------------------- */

/* The directories made, removed at exit while no study has measured in
 * them (no raw.tsv): a refusal or a signal before the study began (the
 * probe, the pilot) leaves no directory for the same --dir, given again,
 * to be refused by. What the steps before the study leave goes with it;
 * rmdir keeps a directory that holds anything else (a scan's studies). */
static struct strv made;
static const char *const before_study[] = {
	"probe.tsv", "pilot.tsv", "plan.tsv", "sense.tsv", "pilot-duet.tsv", "plan-duet.tsv",
	"pilot-sequential.tsv", "plan-sequential.tsv"
};

static void remove_in(const char *dir, const char *const *names, size_t n);

static void made_remove(void)
{
	size_t i = made.n;

	while (i-- > 0) {
		char *raw = path_in(made.v[i], "raw.tsv");

		if (access(raw, F_OK) != 0) {
			remove_in(made.v[i], before_study, LEN(before_study));
			rmdir(made.v[i]);
		}
		free(raw);
	}
	strv_free(&made);
}

static void made_add(const char *dir)
{
	if (!made.n)
		atexit(made_remove);
	strv_add(&made, dir);
}

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0777) < 0) {
		if (errno == EEXIST)
			die("%s exists: pb-compare makes a new study directory (give another --dir, "
			    "or remove it)", dir);
		die("%s:", dir);
	}
	made_add(dir);
}

/* pb-compare-DATE-TIME, or -2, -3, ... after it when that is taken (two
 * started in the same second): mkdir fails on a name that exists, so two
 * never share one. */
static char *make_default_dir(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char base[64], name[80];
	int k;

	localtime_r(&t, &tm);
	strftime(base, sizeof base, "pb-compare-%Y%m%d-%H%M%S", &tm);
	for (k = 1; k <= 1000; k++) {
		if (k == 1)
			snprintf(name, sizeof name, "%s", base);
		else
			snprintf(name, sizeof name, "%s-%d", base, k);
		if (mkdir(name, 0777) == 0) {
			made_add(name);
			return xstrdup(name);
		}
		if (errno != EEXIST)
			die("%s:", name);
	}
	die("%s and %s-2 to -1000 exist: give --dir", base, base);
}

char *conduct_make_dir(const char *dir)
{
	if (!dir)
		return make_default_dir();
	make_dir(dir);
	return xstrdup(dir);
}

/* s with every {name} replaced by value. */
static char *substitute(const char *s, const char *name, const char *value)
{
	size_t nl = strlen(name), vl = strlen(value), len = 0, cap = 0;
	char *out = NULL;

	xgrow(&out, &cap, 1, 1);
	while (*s) {
		if (s[0] == '{' && strncmp(s + 1, name, nl) == 0 && s[1 + nl] == '}') {
			xgrow(&out, &cap, len + vl + 1, 1);
			memcpy(out + len, value, vl);
			len += vl;
			s += nl + 2;
		} else {
			xgrow(&out, &cap, len + 2, 1);
			out[len++] = *s++;
		}
	}
	out[len] = '\0';
	return out;
}

static int on_path(const char *prog)
{
	const char *path = getenv("PATH"), *p;
	char buf[4096];

	for (p = path ? path : ""; *p;) {
		size_t len = strcspn(p, ":");

		if (len && len + strlen(prog) + 2 < sizeof buf) {
			snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		p += len;
		p += *p == ':';
	}
	return 0;
}

/* The ratio A/B the sequential stop resolves against: --threshold; else,
 * for a gate, 1/--fail-if-slower (the question it asks); else none
 * (parity). */
static double stop_threshold(const struct compare_opts *o)
{
	if (!isnan(o->threshold))
		return o->threshold;
	if (!isnan(o->fail_if_slower))
		return 1 / o->fail_if_slower;
	return NAN;
}

static long clamp(long x, long lo, long hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

/* --- one study -------------------------------------------------------- */


static double analysis_ns(const struct conduct *s);

static void study_argv(struct conduct *s, struct strv *v)
{
	if (s->duet)
		strv_add(v, "--duet");
	strv_cat(v, &s->pass);
	if (s->cmds.n) {
		strv_add(v, "--");
		strv_cat(v, &s->cmds);
	}
}

static void tool_failed(struct conduct *s, const char *what, const struct run_result *r)
{
	char st[128];

	fprintf(stderr, "pb-compare: %s failed (%s): %s\n", what,
	        tools_status_words(st, sizeof st, r->status), tools_said(r, what, "no message"));
	s->failed = 1;
}

/* pb-run ended in the study without its own '# failed:' or
 * '# interrupted:' (killed by the OOM killer, SIGKILL): what the study
 * says of how it stopped, so that no summary or export calls it whole. */
static void run_failed_note(struct conduct *s, const struct run_result *r)
{
	char st[128], *m = xmalloc(sizeof st + sizeof r->msg + 32);
	const char *said = tools_said(r, "pb-run", "");

	sprintf(m, "pb-run ended (%s)%s%s",
	        tools_status_words(st, sizeof st, r->status), *said ? ": " : "", said);
	free(s->run_failed);
	s->run_failed = m;
}

/* pb-run failed before it measured anything: its own line, named once
 * ("pb-compare: pb-run: ..."), or that it failed. */
static noreturn void die_pb_run(const struct run_result *r, const char *fallback)
{
	die("pb-run: %s", tools_said(r, "pb-run", fallback));
}

/* The first step of the analysis, pb-pair, on the probe's stream: what a
 * step costs here before a pilot measures it (pb-run's own start, which
 * a worker's or a connection's adds to, is no measure of a tool's). */
static void probe_step(struct conduct *s)
{
	char *p[] = { "pb-pair", "probe.tsv", NULL };
	char **stages[1] = { p };
	struct run_result r;

	tools_run(&r, s->dir, NULL, NULL, stages, 1, TOOLS_QUIET, NULL, NULL);
	if (r.status && tools_signal)
		exit(128 + tools_signal);
	s->probe_step_ns = (double)r.ns;
}

/* Run one pair of observations: what a pair costs, how many arms there
 * are, which is the reference. Its stream is not kept. */
static void probe(struct conduct *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	struct stream st;
	char **stages[1], *path, *out = path_in(s->dir, "probe.tsv");
	struct study_head head;
	const char *ref;
	int64_t k;
	size_t ns, phase;

	strv_add(&v, "pb-run");
	strv_add(&v, "--quiet");
	strv_add(&v, "-r1");
	strv_add(&v, "-p1");
	strv_add(&v, "-w0");
	study_argv(s, &v);
	stages[0] = v.v;
	tools_run(&r, NULL, NULL, out, stages, 1, TOOLS_QUIET, NULL, NULL);
	strv_free(&v);
	free(out);
	if (r.status) {
		if (tools_signal)
			exit(128 + tools_signal);
		die_pb_run(&r, "failed on the first pair");
	}
	s->probe_wall_ns = (double)r.ns;
	if (!open_in_dir(&st, s->dir, "probe.tsv", &path))
		die("%s: pb-run left no probe.tsv", s->dir);
	study_head_read(&head, &st, -1);
	ref = study_head_str(&head, "reference");
	s->arms = study_head_int(&head, "arms", &k) == 1 && k >= 2 && k <= ARMS_MAX ? (int)k : 2;
	s->ref = ref && strlen(ref) == 1 ? ref[0] : 'A';
	s->delay_ns = 0;
	study_head_num(&head, "delay_ns", &s->delay_ns);
	study_head_free(&head);
	ns = stream_col(&st, "ns");
	phase = stream_col(&st, "phase");
	s->probe_pair_ns = 0;
	while (stream_row(&st))
		if (strcmp(st.field[phase], "measure") == 0)
			s->probe_pair_ns += stream_num(&st, ns);
	stream_close(&st);
	probe_step(s);
	unlink(path);
	free(path);
}

/* What a pair costs by the probe: its timed windows, a tenth more for
 * pb-run's work around them, and the untimed waits of --delay. */
static double probe_price(const struct conduct *s)
{
	return 1.1 * s->probe_pair_ns + (double)(s->arms - 1) * s->delay_ns;
}

/* The recipe analyse runs, but for what only the finished study shows
 * (sense.tsv, raw.tsv's CPU time and memory columns): s's options. */
static void analysis_recipe(const struct conduct *s, struct recipe *a)
{
	memset(a, 0, sizeof *a);
	a->stat = s->o->stat;
	a->level = s->o->level;
	a->adjust = s->arms > 2 ? "holm" : NULL;
	a->threshold = s->o->threshold;
}

/* What one step of the analysis costs here, as measured: the pilot's
 * plan, a pipeline of 3 tools on its stream; before it (or without
 * one), pb-pair on the probe's stream. */
static double step_price(const struct conduct *s)
{
	return s->plan_wall_ns > 0 ? s->plan_wall_ns : s->probe_step_ns;
}

void analysis_price(struct analysis_price *p, double step_ns, int steps, int pictures,
                    double budget_ns)
{
	p->step_ns = step_ns;
	p->steps = steps;
	p->pictures = pictures;
	p->streams_ns = STEP_MARGIN * steps * step_ns;
	p->pictures_ns = (double)pictures * PICTURE_STEPS * step_ns;
	p->drawn = pictures > 0 && p->pictures_ns <= PICTURES_MOST * budget_ns;
	p->reserve_ns = p->streams_ns + (p->drawn ? p->pictures_ns : 0);
}

/* The reserve for the analysis at what a step costs now (again after the
 * pilot, which measures it better); pictures that do not fit are not
 * drawn, and the plan says so. */
static void price_analysis(struct conduct *s)
{
	struct recipe a;
	struct step steps[RECIPE_STEPS_MAX];
	size_t n;

	analysis_recipe(s, &a);
	a.use = 1;   /* the most steps: the CPU time's and memory's too (not the tree's: four small ones) */
	a.sense = s->o->calibrate;
	n = recipe_steps(&a, steps);
	recipe_steps_free(steps, n);
	analysis_price(&s->price, step_price(s), (int)n,
	               s->pictures_wanted ? 3 + (s->o->calibrate != 0) : 0, s->budget_ns);
	s->pictures = s->price.drawn;
}

/* Whether the budget affords a pilot: SLOW_PAIRS pairs at the probe's
 * price (its timed pair, and a tenth more for pb-run's work around it;
 * the probe's wall time holds pb-run's start too, which the pairs of a
 * run do not pay). Without one (slow commands), each run is one measured pair
 * (no warm-up: the probe and the runs before warm what a command of a
 * quarter second or more shares with the next), and the least study
 * --min-runs of them: beyond the budget it runs anyway, said in one line
 * first; beyond 3 budgets it is refused. */
static void least_study(struct conduct *s)
{
	long min_runs = s->o->min_runs ? s->o->min_runs : 3;
	double pair = probe_price(s);
	double least = (double)min_runs * pair + s->probe_wall_ns;
	char p[SIG_BUFSZ], l[SIG_BUFSZ], b[SIG_BUFSZ];

	price_analysis(s);
	s->slow = SLOW_PAIRS * pair > s->budget_ns - analysis_ns(s);
	if (least <= s->budget_ns)
		return;
	if (least <= 3 * s->budget_ns) {
		s->least = 1;
		warn("a pair of observations takes %s here: the least study (%ld runs of a pair) "
		     "takes about %s, beyond the %s budget: it runs anyway "
		     "(give --budget %.0fs or more to plan for more)", h4ns(p, pair),
		     min_runs, h4ns(l, least), h4ns(b, s->budget_ns), ceil(least * 1.2 / 1e9));
		return;
	}
	die("a pair of observations takes %s here: the least study (%ld runs of a pair) takes "
	    "about %s, beyond the %s budget: give --budget %.0fs or more",
	    h4ns(p, pair), min_runs, h4ns(l, least), h4ns(b, s->budget_ns),
	    ceil(least * 1.2 / 1e9));
}

/* One tool, quiet, its output into out; a signal that stopped it ends
 * pb-compare with 128 + the signal, as the shell would. v is freed. The
 * tool's status. */
static int run_tool(struct run_result *r, const char *out, struct strv *v, const char *what)
{
	char **stages[1];

	stages[0] = v->v;
	tools_run(r, NULL, NULL, out, stages, 1, TOOLS_QUIET, NULL, NULL);
	strv_free(v);
	if (r->status && tools_signal) {
		fprintf(stderr, "pb-compare: interrupted during %s, before the study began: "
		        "nothing of the study was measured\n", what);
		exit(128 + tools_signal);
	}
	return r->status;
}

/* The pilot: 3 runs (for the spread between runs) of as many pairs as its
 * share of the budget affords at the probe's cost (its wall time: pb-run's
 * start and a pair), 2 to 10. */
static int try_pilot(struct conduct *s, struct run_result *r)
{
	struct strv v = { NULL, 0, 0 };
	char *out = path_in(s->dir, "pilot.tsv");
	double share = PILOT_SHARE * s->budget_ns;
	long pairs = (long)(share / (3 * s->probe_wall_ns)) - 1;
	int failed;

	pairs = pairs < 2 ? 2 : pairs > 10 ? 10 : pairs;
	strv_add(&v, "pb-run");
	strv_add(&v, "--quiet");
	strv_add(&v, "-r3");
	strv_addf(&v, "-p%ld", pairs);
	strv_add(&v, "-w1");
	study_argv(s, &v);
	failed = run_tool(r, out, &v, "the pilot");
	free(out);   /* before a die: a scan goes on after it (pb_die_hook) */
	s->pilot_wall_ns = (double)r->ns;
	s->pilot_pairs = pairs + 1;
	return failed;
}

static void pilot(struct conduct *s)
{
	struct run_result r;

	if (try_pilot(s, &r))
		die("pb-run (the pilot): %s", tools_said(&r, "pb-run", "failed"));
}

/* pb-plan on the pilot, with a target only to get its Kalibera-Jones row
 * (the best pairs per run does not depend on the target). */
static void plan_pilot(struct conduct *s)
{
	char *p1[] = { "pb-pair", "pilot.tsv", NULL };
	char *p2[] = { "pb-logratio", NULL };
	char *p3[] = { "pb-plan", "--target", "0.05", "--max-runs", "1000000", NULL };
	char **stages[3] = { p1, p2, p3 };
	char *out = path_in(s->dir, "plan.tsv");
	struct run_result r;

	tools_run(&r, s->dir, NULL, out, stages, 3, TOOLS_QUIET, NULL, NULL);
	s->plan_wall_ns = (double)r.ns;
	if (r.status && tools_signal)
		exit(128 + tools_signal);
	/* no plan.tsv: the plan falls back on the probe's costs */
	free(out);
}

/* The sense calibration: pb-sense's automatic search, A/A on arm A, its
 * studies of 6 runs of --pairs pairs when given, else sized so that
 * about 8 of them (the A/A study and the delays of its search) fit its
 * share. */
static void calibrate(struct conduct *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	char *out = path_in(s->dir, "sense.tsv"), d[32];

	strv_add(&v, "pb-sense");
	strv_add(&v, "--quiet");
	strv_add(&v, "--delays");
	strv_add(&v, "auto");
	strv_add(&v, "--budget");
	strv_add(&v, dur_arg(d, CALIBRATE_SHARE * s->budget_ns));
	strv_add(&v, "--runs=6");
	strv_add(&v, "--warmup=1");
	/* --pairs sizes the calibration's runs as the study's (pb-sense wants
	 * 2 at least): its work is then bounded by the pairs and the search's
	 * grid, not by the clock */
	strv_addf(&v, "--pairs=%ld", s->o->pairs ? (s->o->pairs < 2 ? 2 : s->o->pairs) :
	          clamp((long)(CALIBRATE_SHARE * s->budget_ns / (8 * 6 * s->pair_ns)) - 1, 2, 100));
	if (s->o->stat) {
		strv_add(&v, "--stat");
		strv_add(&v, s->o->stat);
	}
	strv_cat(&v, &s->pass);
	if (s->cmds.n) {
		strv_add(&v, "--");
		strv_add(&v, s->cmds.v[0]);
	}
	if (run_tool(&r, out, &v, "the calibration"))
		tool_failed(s, "pb-sense (--calibrate)", &r);
	free(out);
}

struct pilot_read {
	double pair_ns, run_ns, sd_between, sd_within;
	long kj, runs;
};

static void read_plan_tsv(struct conduct *s, struct pilot_read *p);

/* A file of the study directory renamed in it. */
static void rename_in(const char *dir, const char *from, const char *to)
{
	char *a = path_in(dir, from), *b = path_in(dir, to);

	if (rename(a, b) < 0 && errno != ENOENT)
		die("%s:", b);
	free(a);
	free(b);
}

/* What a second of pairs narrows: the variance of a pair's log ratio
 * within a run times what a pair costs, the pilot's pace included (the
 * budget's pairs divide the first and multiply the second). */
static double variance_per_pair_ns(const struct pilot_read *p)
{
	return p->sd_within * p->sd_within * p->pair_ns;
}

/* --duet auto: a second pilot in duet after the sequential one; the
 * design whose pilot measured less variance for the same wall time is
 * kept, its pilot.tsv and plan.tsv the study's, the other's beside them
 * (pilot-duet.tsv or pilot-sequential.tsv). A duet pb-run refuses here
 * (one CPU) leaves the sequential design, saying why. */
static void choose_duet(struct conduct *s)
{
	struct pilot_read seq, duet;
	struct run_result r;
	double seq_wall = s->pilot_wall_ns, vs, vd;
	char a[SIG_BUFSZ], b[SIG_BUFSZ];

	read_plan_tsv(s, &seq);
	rename_in(s->dir, "pilot.tsv", "pilot-sequential.tsv");
	rename_in(s->dir, "plan.tsv", "plan-sequential.tsv");
	s->duet = 1;
	if (try_pilot(s, &r)) {
		s->duet = 0;
		rename_in(s->dir, "pilot.tsv", "pilot-duet.tsv");
		rename_in(s->dir, "pilot-sequential.tsv", "pilot.tsv");
		rename_in(s->dir, "plan-sequential.tsv", "plan.tsv");
		s->pilot_wall_ns = seq_wall;
		snprintf(s->duet_why, sizeof s->duet_why, "duet auto: sequential pairs, as duet "
		         "cannot run here (%.200s)", tools_said(&r, "pb-run", "it failed"));
		return;
	}
	plan_pilot(s);
	read_plan_tsv(s, &duet);
	vs = variance_per_pair_ns(&seq);
	vd = variance_per_pair_ns(&duet);
	s->duet = vd < vs;
	if (isnan(vd) || isnan(vs))
		snprintf(s->duet_why, sizeof s->duet_why, "duet auto: sequential pairs, as the %s "
		         "pilot measured no spread within runs to choose by", isnan(vs) ? "sequential"
		         : "duet");
	else
		snprintf(s->duet_why, sizeof s->duet_why, "duet auto: %s kept, less variance for "
		         "the time (%s: within %s %% at %s a pair)", s->duet ? "duet (A and B at once)"
		         : "sequential pairs", s->duet ? "in sequence" : "in duet",
		         h4(a, 100 * (s->duet ? seq : duet).sd_within),
		         h4ns(b, (s->duet ? seq : duet).pair_ns));
	if (s->duet)
		return;
	rename_in(s->dir, "pilot.tsv", "pilot-duet.tsv");
	rename_in(s->dir, "plan.tsv", "plan-duet.tsv");
	rename_in(s->dir, "pilot-sequential.tsv", "pilot.tsv");
	rename_in(s->dir, "plan-sequential.tsv", "plan.tsv");
	s->pilot_wall_ns = seq_wall;
}

static void read_plan_tsv(struct conduct *s, struct pilot_read *p)
{
	struct study_plan pl;
	char *path = path_in(s->dir, "plan.tsv");

	p->pair_ns = p->run_ns = p->sd_between = p->sd_within = NAN;
	p->kj = p->runs = 0;
	if (is_regular_file(path)) {
		study_plan_read(&pl, path);
		p->pair_ns = pl.pair_ns > 0 ? pl.pair_ns : NAN;
		p->run_ns = pl.run_ns > 0 ? pl.run_ns : NAN;
		p->sd_between = sqrt(pl.sigma2_between);
		p->sd_within = sqrt(pl.sigma2_within);
		p->runs = pl.runs;
		p->kj = pl.kj_pairs;
	}
	free(path);
	if (isnan(p->pair_ns))
		p->pair_ns = s->probe_pair_ns;
	if (isnan(p->run_ns))
		p->run_ns = s->probe_wall_ns > s->probe_pair_ns ? s->probe_wall_ns - s->probe_pair_ns
		                                                : 0;
	/* The pilot's pace: what a pair costs beyond its timed windows too
	 * (pb-run's own work between observations, a loaded machine). */
	if (p->runs > 0) {
		double pace = (s->pilot_wall_ns - (double)p->runs * p->run_ns) /
		              (double)(p->runs * s->pilot_pairs);

		if (pace > p->pair_ns)
			p->pair_ns = pace;
	}
}

/* What the analysis after the study takes, kept out of the study's time
 * (price_analysis). */
static double analysis_ns(const struct conduct *s)
{
	return s->price.reserve_ns;
}

enum { PLAN_MAX = 768 };

/* The plan's words for the reserve: what the analysis was priced at, and
 * from what; the pictures left out, and the budget that affords them. */
static void plan_analysis_words(const struct conduct *s, char *buf, size_t n)
{
	const struct analysis_price *p = &s->price;
	char a[SIG_BUFSZ], b[SIG_BUFSZ], c[SIG_BUFSZ], pics[32] = "";
	int len;

	if (p->drawn)
		snprintf(pics, sizeof pics, " and %d pictures", p->pictures);
	len = snprintf(buf, n, ", the analysis included: %d steps%s, %s at the %s %s a step",
	               p->steps, pics, h4ns(a, p->reserve_ns),
	               s->plan_wall_ns > 0 ? "pilot's" : "probe's", h4ns(b, p->step_ns));
	if (p->pictures && !p->drawn && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, "; no pictures: %d would take %s, more than "
		         "%.0f%% of the budget (give --budget %.0fs or more)", p->pictures,
		         h4ns(c, p->pictures_ns), 100 * PICTURES_MOST,
		         ceil(p->pictures_ns / PICTURES_MOST / 1e9));
}

/* The t sequence's g, tuned to the effect that matters: g = 1.5 delta^2,
 * delta that effect over the spread of a run's log ratio, bounded to
 * [0.01, 25]. Simulated (share/dev/sim-seq-g.R), it brings the runs to
 * an answer at that effect within 1.10-1.25x those of the fixed design
 * with 80 % power while delta is at most 0.8, and 1.24-1.36x beyond; g
 * = 25 took 1.57x at delta 0.63. The pilot is not the study, so choosing
 * g from it keeps the sequence valid. The effect: --min-effect, else the
 * threshold's distance from 1, else the least one the runs the budget
 * affords resolve with 80 % power in a fixed design, whose delta needs
 * no spread. Into s->seq_g, and the reason into s->seq_g_why. */
static void tune_seq_g(struct conduct *s, const struct pilot_read *p, double level)
{
	const struct compare_opts *o = s->o;
	double sd = sqrt(p->sd_between * p->sd_between + p->sd_within * p->sd_within /
	                 (double)s->pairs), t = stop_threshold(o), effect = NAN, delta, g;
	double runs = o->runs ? (double)o->runs : fmax(3, floor((double)s->runs / 1.5));
	int given = o->min_effect > 0 || o->tolerance > 0 || (!isnan(t) && t != 1);
	char b[SIG_BUFSZ], *why = s->seq_g_why;
	size_t n = sizeof s->seq_g_why;
	double g0;
	int len;

	s->seq_g[0] = why[0] = '\0';
	if (o->sequence == SEQ_KIND_MEDIAN)
		return;
	if (o->seq_g) {
		num_format(s->seq_g, runopt_seq_g("seq-g", o->seq_g));
		snprintf(why, n, "as given");
		return;
	}
	if (given && !(sd > 0)) {
		snprintf(s->seq_g, sizeof s->seq_g, "%d", SEQ_G_DEFAULT);
		snprintf(why, n, "the default: the pilot measured no spread to tune it with");
		return;
	}
	if (given) {
		effect = o->min_effect > 0 ? log1p(o->min_effect / 100)
		         : o->tolerance > 0 ? log1p(o->tolerance / 100) : fabs(log(t));
		delta = effect / sd;
	} else {
		delta = (stat_qt(1 - (1 - level) / 2, runs - 1) + stat_qt(0.8, runs - 1)) / sqrt(runs);
		if (sd > 0)
			effect = delta * sd;
	}
	g = g0 = fmin(25, fmax(0.01, 1.5 * delta * delta));
	/* never so small that the sequence is still unbounded at half the
	 * runs the budget affords: a larger effect must be able to stop it */
	while (g < 25 && (double)seq_first_bounded(g, level) > fmax(3, runs / 2))
		g = fmin(25, g * 1.25);
	snprintf(s->seq_g, sizeof s->seq_g, "%.3g", g);
	if (given)
		len = snprintf(why, n, "tuned to a %s %% effect%s", h4(b, 100 * expm1(effect)),
		               o->min_effect > 0 ? "" : o->tolerance > 0 ? ", the tolerance's"
		               : ", the threshold's");
	else if (!isnan(effect))
		len = snprintf(why, n, "tuned to a %s %% effect, the least that %.0f runs resolve",
		               h4(b, 100 * expm1(effect)), runs);
	else
		len = snprintf(why, n, "tuned to the least effect that %.0f runs resolve", runs);
	if (g > g0 && len > 0 && (size_t)len < n)
		len += snprintf(why + len, n - (size_t)len, ", raised from %.3g to be bounded by run "
		                "%.0f", g0, fmax(3, floor(runs / 2)));
	if (!given && len > 0 && (size_t)len < n)
		snprintf(why + len, n - (size_t)len, "; --min-effect chooses the effect");
}

/* Pairs per run: pb-plan's Kalibera-Jones optimum (or, when the pilot saw
 * no spread between runs, the most), bounded so that RUNS_FLOOR runs fit
 * what is left; warm-up a tenth of it; runs what is left affords. */
static void plan(struct conduct *s)
{
	struct pilot_read p;
	const struct compare_opts *o = s->o;
	double left = s->budget_ns - (now_ns() - s->t0) - analysis_ns(s);
	double run_ns;
	long most, floor_runs = o->min_runs > RUNS_FLOOR ? o->min_runs : RUNS_FLOOR;
	char a[SIG_BUFSZ], b[SIG_BUFSZ], c[SIG_BUFSZ], d[SIG_BUFSZ], e[SIG_BUFSZ];
	char why[64], stop[400], lv[SIG_BUFSZ], t[NUM_BUFSZ], tuned[208], kind[272];
	size_t len;

	if (o->calibrate)
		left -= CALIBRATE_SHARE * s->budget_ns;
	read_plan_tsv(s, &p);
	if (s->slow)   /* no pilot: the probe's price */
		p.pair_ns = probe_price(s), p.run_ns = 0;
	/* (pairs + pairs/10) pairs and a start per run, floor_runs of them */
	most = (long)((left / floor_runs - p.run_ns) / (1.1 * p.pair_ns));
	most = clamp(most, 2, 1000);
	if (s->least && !o->pairs)
		s->pairs = 1, snprintf(why, sizeof why, "the least study, beyond the budget");
	else if (s->slow && !o->pairs)
		s->pairs = 1, snprintf(why, sizeof why, "no pilot: the budget affords about %.0f pairs",
		                       fmax(0, floor((s->budget_ns - analysis_ns(s)) / p.pair_ns)));
	else if (o->pairs)
		s->pairs = o->pairs, snprintf(why, sizeof why, "--pairs");
	else if (p.kj)
		s->pairs = clamp(p.kj, 2, most),
		snprintf(why, sizeof why, p.kj > most ? "Kalibera-Jones %ld, bounded" :
		         p.kj < 2 ? "Kalibera-Jones %ld, at least 2" : "Kalibera-Jones", p.kj);
	else
		s->pairs = most, snprintf(why, sizeof why, "pb-plan gave no optimum: the most");
	/* pb-check's duet_cpu compares, within each run, the pairs where A
	 * had each CPU: at least 3 of each, so 6 pairs when the budget
	 * affords them */
	if (s->duet && !o->pairs && !s->least && !s->slow && s->pairs < 6 && most >= 6)
		s->pairs = 6, snprintf(why, sizeof why, "at least 6 in duet, for pb-check's duet_cpu");
	s->warmup = o->warmup ? o->warmup - 1 : s->slow ? 0 : clamp((s->pairs + 9) / 10, 1, 10);
	run_ns = p.run_ns + (double)(s->pairs + s->warmup) * p.pair_ns;
	s->pair_ns = p.pair_ns;
	s->run_ns = run_ns;
	/* half as many again as the pace says: --max-time keeps the budget,
	 * and a pilot that ran slow does not leave budget unused */
	s->runs = left > 0 ? (long)(1.5 * left / run_ns) : 0;
	if (s->runs < (o->min_runs ? o->min_runs : 3))   /* the least pb-run --until takes */
		s->runs = o->min_runs ? o->min_runs : 3;
	if (s->least)
		s->runs = o->min_runs ? o->min_runs : 3;
	if (s->runs > RUNOPT_COUNT_MAX)   /* pb-run's most; --max-time ends it anyway */
		s->runs = RUNOPT_COUNT_MAX;
	if (o->runs)
		s->runs = o->runs;
	s->sequential = s->arms == 2 && s->ref == 'A';
	if (!s->sequential && (o->sequence_given || o->min_effect > 0 || o->seq_g ||
	                       o->tolerance > 0))
		die_usage("%s tunes the sequence that stops a study of two arms, A the reference; "
		          "this one has a fixed design", o->sequence_given ? "--sequence"
		          : o->seq_g ? "--seq-g" : o->tolerance > 0 ? "--tolerance" : "--min-effect");
	level_percent(lv, o->level ? atof(o->level) : 0.95);
	tuned[0] = '\0';
	if (s->sequential) {
		double level = o->level ? atof(o->level) : 0.95;
		long first;

		tune_seq_g(s, &p, level);
		/* a budget that affords fewer runs than the sequence needs to be
		 * bounded still gives it those runs: --max-time ends the study
		 * at the budget, unanswered if so, which is the honest end */
		first = seq_kind_first_bounded(o->sequence, s->seq_g[0] ? atof(s->seq_g) : 0, level);
		if (!o->runs && first > s->runs && first <= RUNOPT_COUNT_MAX)
			s->runs = first;
	}
	if (s->seq_g[0])
		snprintf(tuned, sizeof tuned, "g %s, %s", s->seq_g, s->seq_g_why);
	snprintf(kind, sizeof kind, "%s%% %ssequence%s%s%s", lv,
	         o->sequence == SEQ_KIND_MEDIAN ? "median " : "", *tuned ? " (" : "", tuned,
	         *tuned ? ")" : "");
	if (!s->sequential)
		snprintf(stop, sizeof stop, "a fixed design (%d arms: Holm-adjusted %s%% intervals)",
		         s->arms, lv);
	else if (o->tolerance > 0) {
		num_format(t, o->tolerance);
		snprintf(stop, sizeof stop, "stop when the %s lies within %s%% of 1 or beyond it on "
		         "one side", kind, t);
	} else if (!isnan(stop_threshold(o))) {
		snprintf(stop, sizeof stop, "stop when the %s resolves the ratio against %s", kind,
		         h4(e, stop_threshold(o)));   /* 1/1.05 to a person: 0.9524 */
	} else
		snprintf(stop, sizeof stop, "stop when the %s excludes 1", kind);
	s->plan = xmalloc(PLAN_MAX);
	if (s->slow)
		len = (size_t)snprintf(s->plan, PLAN_MAX, "plan: %ld pair%s x up to %ld runs, warm-up %ld "
		                       "(%s; the probe: a pair %s", s->pairs, s->pairs == 1 ? "" : "s",
		                       s->runs, s->warmup, why, h4ns(a, p.pair_ns));
	else
		len = (size_t)snprintf(s->plan, PLAN_MAX, "plan: %ld pairs x up to %ld runs, warm-up %ld "
		                       "(%s; pilot: a pair %s, a run's start %s", s->pairs, s->runs,
		                       s->warmup, why, h4ns(a, p.pair_ns), h4ns(b, p.run_ns));
	if (!isnan(p.sd_between))
		len += (size_t)snprintf(s->plan + len, PLAN_MAX - len, "; between-run spread %s %%, "
		                        "within %s %%", h4(c, 100 * p.sd_between),
		                        h4(d, 100 * p.sd_within));
	if (*s->duet_why)
		len += (size_t)snprintf(s->plan + len, PLAN_MAX - len, "; %s", s->duet_why);
	else if (s->duet)
		len += (size_t)snprintf(s->plan + len, PLAN_MAX - len, "; duet: A and B at once");
	len += (size_t)snprintf(s->plan + len, PLAN_MAX - len, "), %s, within %s", stop,
	                        h4ns(e, s->budget_ns));
	plan_analysis_words(s, s->plan + len, PLAN_MAX - len);
}

/* --- the study's progress: pb-run's stream as it grows ----------------- */

/* "At most ... left": what the budget leaves until a run has ended and
 * set the pace, then the runs left at that pace, never past the budget.
 * It may grow by one run's pace at most over what the last line said
 * less the time since: a new pace, not a jump (a first run's few
 * milliseconds times the runs once grew 6 ms -> 6 s -> 9 s). */
static double progress_eta(struct conduct *s, double el)
{
	double now = now_ns(), left = s->budget_ns - (now - s->t0), pace, eta;

	if (s->run_now <= 1)
		eta = left;
	else {
		pace = el / (double)(s->run_now - 1);
		eta = fmin(left, pace * (double)(s->runs - s->run_now + 1));
		if (s->eta_at > 0)
			eta = fmin(eta, s->eta_shown - (now - s->eta_at) + pace);
	}
	eta = fmax(eta, 0);
	s->eta_shown = eta, s->eta_at = now;
	return eta;
}

/* A number of pb-run's named words, or NAN. */
static double word_num(struct word w)
{
	double x;

	return w.len && num_parse_len(w.p, w.len, &x) == 0 ? x : NAN;
}

static void progress_line(struct conduct *s)
{
	char *tmp = path_in(s->dir, "raw.tsv.tmp"), buf[8192];
	FILE *f = fopen(tmp, "r");
	double el, eta;
	char e1[SIG_BUFSZ], e2[SIG_BUFSZ];

	free(tmp);
	if (!f)
		return;
	if (fseeko(f, (off_t)s->seen, SEEK_SET) == 0) {
		while (fgets(buf, sizeof buf, f)) {
			size_t len = strlen(buf);

			if (buf[len - 1] != '\n')
				break;   /* a line half written: read it next time */
			s->seen += (long long)len;
			if (strncmp(buf, "# run: ", 7) == 0)
				s->run_now = atol(buf + 7);
			else if (strncmp(buf, "# sequential: run ", 18) == 0) {
				double r, lo, hi;
				char x[SIG_BUFSZ], y[SIG_BUFSZ], z[SIG_BUFSZ];

				buf[len - 1] = '\0';   /* its named words (pb(7)), not a sentence */
				r = word_num(study_word(buf + 14, "ratio"));
				lo = word_num(study_word(buf + 14, "lo"));
				hi = word_num(study_word(buf + 14, "hi"));
				if (!isnan(r) && !isnan(lo) && !isnan(hi))
					snprintf(s->interval, sizeof s->interval, "ratio %s, CS %s to %s",
					         h4(x, r), h4(y, lo), h4(z, hi));
				else if (!isnan(r))
					snprintf(s->interval, sizeof s->interval, "ratio %s, unbounded",
					         h4(x, r));
			}
		}
	}
	fclose(f);
	el = now_ns() - s->study_t0;
	eta = progress_eta(s, el);
	fprintf(stderr, "\r\033[Kpb-compare: run %ld of up to %ld, %s%s%s, at most %s left",
	        s->run_now, s->runs, h4ns(e1, el), *s->interval ? "; " : "", s->interval,
	        h4ns(e2, eta > 0 ? eta : 0));
}

static void tick(void *ctx)
{
	struct conduct *s = ctx;
	static double last;

	if (now_ns() - last < 200e6)
		return;
	last = now_ns();
	progress_line(s);
}

/* Whether pb-run's stream at path has a row after its header: when it
 * failed on its first observation it has none, and its own line says all
 * (not the analysis of nothing, step by step). */
static int has_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;

	if (!f)
		return 0;
	while (lines < 2 && getline(&line, &cap, f) > 0)
		lines += line[0] != '#';
	free(line);
	fclose(f);
	return lines == 2;
}

static void measure(struct conduct *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	char **stages[1], *out = path_in(s->dir, "raw.tsv"), d[32];
	const struct compare_opts *o = s->o;
	double left = s->budget_ns - (now_ns() - s->t0) - analysis_ns(s);
	char t[NUM_BUFSZ];

	strv_add(&v, "pb-run");
	strv_add(&v, "--quiet");
	strv_addf(&v, "-r%ld", s->runs);
	strv_addf(&v, "-p%ld", s->pairs);
	strv_addf(&v, "-w%ld", s->warmup);
	if (s->sequential) {
		strv_add(&v, "--until");
		if (o->tolerance > 0) {
			num_format(t, o->tolerance);
			strv_add(&v, "tolerance");
			strv_add(&v, "--tolerance");
			strv_add(&v, t);
		} else if (isnan(stop_threshold(o)))
			strv_add(&v, "parity");
		else {
			strv_add(&v, "threshold");
			strv_add(&v, "-t");
			num_format(t, stop_threshold(o));
			strv_add(&v, t);
		}
		if (o->min_runs)
			strv_addf(&v, "--min-runs=%ld", o->min_runs);
		if (o->stat)
			strv_addf(&v, "--stat=%s", o->stat);
		if (o->sequence_given)
			strv_addf(&v, "--sequence=%s", seq_kind_names[o->sequence]);
		if (s->seq_g[0])
			strv_addf(&v, "--seq-g=%s", s->seq_g), strv_addf(&v, "--seq-g-note=%s", s->seq_g_why);
		if (o->level)
			strv_addf(&v, "--level=%s", o->level);
	}
	if (!o->runs && !s->least) {
		double least = ((double)(o->min_runs ? o->min_runs : 3) + 0.5) * s->run_ns;

		strv_add(&v, "--max-time");   /* never before --min-runs runs */
		strv_add(&v, dur_arg(d, left > least ? left : least));
	}
	study_argv(s, &v);
	stages[0] = v.v;
	s->study_t0 = now_ns();
	tools_run(&r, NULL, NULL, out, stages, 1, TOOLS_QUIET | TOOLS_KEEP,
	          s->progress ? tick : NULL, s);
	if (s->progress)
		fputs("\r\033[K", stderr);
	strv_free(&v);
	if (r.status && !tools_signal) {
		struct stat sb;

		if (stat(out, &sb) == 0 && (sb.st_size == 0 || !has_rows(out))) {   /* nothing measured */
			unlink(out);
			free(out);
			die_pb_run(&r, "failed");
		}
		tool_failed(s, "pb-run", &r);
		run_failed_note(s, &r);
	}
	free(out);
}

/* Remove the files of the names in dir (quiet: some were never made). */
static void remove_in(const char *dir, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char *p = path_in(dir, names[i]);

		unlink(p);
		free(p);
	}
}

/* A step of the analysis failed. One of CPU time or peak memory (e.g. a 0
 * that pb-logratio refuses): the time's analysis stands; those files and
 * rules go, and the person is told why in one line. A picture: none is
 * kept, nor in the Makefile. Any other: the study failed. */
static void step_failed(void *ctx, struct recipe *rc, const struct step *st,
                        const struct run_result *r)
{
	static const char *const svg[] = { "runs.svg", "trend.svg", "pairs.svg", "sense.svg" };
	struct conduct *s = ctx;
	char what[64];
	int k;

	if (!r->status)
		return;
	if (st->use) {
		int tree = st->use == 2;

		fprintf(stderr, "pb-compare: %sCPU time and peak memory are not compared (%s): %s\n",
		        tree ? "the whole tree's " : "", st->target, *r->msg ? r->msg : "failed");
		for (k = tree ? NUSE_PROCESS : 0; k < (tree ? NUSE : NUSE_PROCESS); k++) {
			const char *files[2] = { use_kinds[k].runs, use_kinds[k].tint };

			remove_in(s->dir, files, 2);
		}
		if (tree)
			rc->tree = 0;
		else
			rc->use = 0;
	} else if (st->picture) {
		remove_in(s->dir, svg, LEN(svg));
		rc->pictures = 0;
	} else {
		snprintf(what, sizeof what, "%s (for %s)", st->stage[0].v[0], st->target);
		tool_failed(s, what, r);
	}
}

/* The analysis, in the directory: the recipe its Makefile redoes. */
static void analyse(struct conduct *s, struct recipe *a)
{
	char *sense = path_in(s->dir, "sense.tsv");

	analysis_recipe(s, a);
	a->sense = s->o->calibrate && is_regular_file(sense);
	free(sense);
	a->pictures = s->pictures;
	a->use = recipe_raw_has_use(s->dir);
	a->tree = a->use && recipe_raw_has_tree(s->dir);
	recipe_make(a, s->dir, RECIPE_ALL, step_failed, s);
}

/* --- the files written from the streams --------------------------------- */

void w_makefile(FILE *f, const void *a)
{
	recipe_makefile(f, a);
}

void w_report(FILE *f, const void *s)
{
	write_report(f, s);
}


void w_summary(FILE *f, const void *ctx)
{
	const struct summary_ctx *c = ctx;
	const struct style plain = { 0, SAY_ALL, NULL, 0 };

	write_summary(f, c->r, c->l, &plain);
}


void w_json(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;

	write_json(f, c->r, c->l, c->n, c->param);
}


/* Run one study into s->dir; r is it read back. */
void conduct_run(struct conduct *s, struct study *r)
{
	struct recipe a;
	struct summary_ctx sc;
	const struct study *one[1];
	const struct live *ol[1];
	struct json_ctx jc;

	memset(&a, 0, sizeof a);
	s->t0 = now_ns();
	s->budget_ns = s->o->budget_ns;
	probe(s);
	least_study(s);
	if (!s->slow) {
		pilot(s);
		plan_pilot(s);
		if (s->o->duet == DUET_AUTO)
			choose_duet(s);
		price_analysis(s);
	} else if (s->o->duet == DUET_AUTO)
		snprintf(s->duet_why, sizeof s->duet_why, "duet auto: sequential pairs, as the "
		         "budget affords no pilot to choose with");
	plan(s);
	if (!s->o->quiet && isatty(2))
		fprintf(stderr, "%s\n", s->plan), s->live.plan_shown = 1;
	if (s->o->calibrate && !tools_signal)
		calibrate(s);
	if (!tools_signal)
		measure(s);
	tools_forward(0);   /* the analysis runs on what was measured */
	analyse(s, &a);
	write_in(s->dir, "Makefile", w_makefile, &a);
	study_read(r, s->dir);
	if (s->run_failed && !r->failed && !r->interrupted)
		r->failed = xstrdup(s->run_failed);
	write_in(s->dir, "report.md", w_report, r);
	s->live.plan = s->plan;
	s->live.budget_ns = s->budget_ns;
	s->live.wall_ns = now_ns() - s->t0;
	s->live.fail_if_slower = s->o->fail_if_slower;
	s->live.bisect = s->o->bisect;
	/* what pb-compare exits with, so that compare.json says it too */
	s->live.signal_name = tools_signal_name();
	s->live.exit_status = tools_signal ? 128 + tools_signal : s->failed ?
	                      gate_error_status(&s->live) : study_exit_status(r, &s->live);
	sc.r = r;
	sc.l = &s->live;
	write_in(s->dir, "summary.txt", w_summary, &sc);
	one[0] = r;
	ol[0] = &s->live;
	jc.r = one;
	jc.l = ol;
	jc.n = 1;
	jc.param = NULL;
	write_in(s->dir, "compare.json", w_json, &jc);
}

void conduct_init(struct conduct *s, const struct compare_opts *o, char *dir, const char *name,
                       const char *value)
{
	size_t i;

	memset(s, 0, sizeof *s);
	s->o = o;
	s->dir = dir;
	for (i = 0; i < o->pass.n; i++) {
		char *w = name ? substitute(o->pass.v[i], name, value) : xstrdup(o->pass.v[i]);

		strv_add(&s->pass, w);
		free(w);
	}
	for (i = 0; i < (size_t)o->ncmds; i++) {
		char *c = name ? substitute(o->cmds[i], name, value) : xstrdup(o->cmds[i]);

		strv_add(&s->cmds, c);
		free(c);
	}
	s->progress = !o->quiet && isatty(2);
	s->duet = o->duet == DUET_ON;
	s->pictures = s->pictures_wanted = !o->no_pictures && on_path("gnuplot");
	s->live.budget_ns = s->live.wall_ns = s->live.fail_if_slower = NAN;
}

void conduct_done(struct conduct *s)
{
	strv_free(&s->pass);
	strv_free(&s->cmds);
	free(s->plan);
	free(s->run_failed);
	free(s->live.value);
	free(s->dir);
}


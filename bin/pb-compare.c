/* pb-compare: one command from "is B faster?" to a defensible answer,
 * within a time budget. The porcelain over pb's plumbing: a probe and a
 * pilot (pb-run) price an observation and a run, pb-plan on the pilot
 * fixes the pairs per run, pb-run --until measures until the confidence
 * sequence answers or the budget is spent, and pb-pair, pb-logratio,
 * pb-check, pb-tint (and pb-plot) analyse it, each a child process
 * writing its stream into the study directory. The summary is read back
 * from those streams: no statistic is computed here. */
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
#include "conninfo.h"
#include "err.h"
#include "human.h"
#include "num.h"
#include "opt.h"
#include "export.h"
#include "files.h"
#include "human.h"
#include "recipe.h"
#include "strv.h"
#include "studydir.h"
#include "summary.h"
#include "tools.h"
#include "stream.h"

static const char usage[] =
	"usage: pb-compare [options] -- CMD_A CMD_B [CMD_C ...]\n"
	"       pb-compare [options] --worker CMD [--arms K]\n"
	"       pb-compare [options] --pg CONNINFO --sql-a SQL --sql-b SQL\n"
	"       pb-compare --from DIR [exports]\n"
	"       pb-compare --analyse DIR [--stat S] [--level L] [-t T] [exports]\n"
	"Is B faster than A? A pilot prices an observation and a run, pb-plan\n"
	"fixes the pairs per run, and pb-run --until adds runs until the 95%\n"
	"confidence sequence of the A/B time ratio answers, within the budget.\n"
	"In command mode the CPU time and peak memory ratios too (pb-run measures\n"
	"them per observation). The summary on stdout; every stream in the study\n"
	"directory.\n"
	"  -b, --budget DUR      wall time for it all, the pilot included (default 10s)\n"
	"  -t, --threshold T     stop when the ratio A/B is resolved against T\n"
	"                        (default: against 1, parity)\n"
	"  -r, --runs R          the most runs (default: what the budget affords)\n"
	"  -p, --pairs P         pairs per run (default: pb-plan on the pilot)\n"
	"  -w, --warmup W        warm-up pairs per run (default: a tenth of P, >= 1)\n"
	"  --min-runs M          no answer before M runs (default 3)\n"
	"  --stat S              each run's statistic (default median)\n"
	"  --level L             the sequence's level (default 0.95)\n"
	"  --dir DIR             the study directory (default pb-compare-DATE-TIME)\n"
	"  -P, --parameter-scan NAME LIST  one study per value of LIST (a,b,c)\n"
	"                        with {NAME} replaced in the commands\n"
	"  --calibrate           a quarter of the budget on pb-sense's search for the\n"
	"                        smallest delay this harness resolves here\n"
	"  --fail-if-slower R    exit 3 when a candidate is slower than R with\n"
	"                        confidence (the upper end of A/X below 1/R)\n"
	"  --export-json FILE, --export-markdown FILE, --export-csv FILE,\n"
	"  --export-report FILE  also write these (FILE - is stdout)\n"
	"  --color WHEN          auto (default), always or never; NO_COLOR\n"
	"  --quiet               no plan line and no progress on stderr\n"
	"  --no-pictures         no pb-plot pictures (they take about a second)\n"
	"  --from DIR            the summary and exports of a study made before\n"
	"  --analyse DIR         analyse DIR's raw.tsv (pb-run's) in DIR as a study\n"
	"                        is: its streams, Makefile, report.md, summary\n"
	"Every other pb-run option is passed to pb-run (--no-shell, --setup,\n"
	"--prepare, --cleanup, --timeout, --order, --output, --seed, ...).\n"
	"Durations: 250us, 1.5ms, 2s, 10ns; a bare number is ns.\n";

/* --fail-if-slower: a candidate is slower than it with confidence. */
enum { EXIT_SLOWER = 3 };

/* Options of pb-run that pb-compare sets itself or cannot pass on. */
static const char *const refused[] = { "until", "max-time", "first-run", "list-options",
                                       NULL };

enum {
	O_BUDGET = 'b', O_THRESHOLD = 't', O_RUNS = 'r', O_PAIRS = 'p', O_WARMUP = 'w',
	O_SCAN = 'P',
	O_MIN_RUNS = 256, O_STAT, O_LEVEL, O_DIR, O_CALIBRATE, O_FAIL, O_JSON, O_MD, O_CSV,
	O_REPORT, O_COLOR, O_QUIET, O_FROM, O_ANALYSE, O_NO_PICTURES, O_PASS = 1000
};

static const struct option own[] = {
	{ "budget", required_argument, NULL, O_BUDGET },
	{ "threshold", required_argument, NULL, O_THRESHOLD },
	{ "runs", required_argument, NULL, O_RUNS },
	{ "pairs", required_argument, NULL, O_PAIRS },
	{ "warmup", required_argument, NULL, O_WARMUP },
	{ "parameter-scan", required_argument, NULL, O_SCAN },
	{ "min-runs", required_argument, NULL, O_MIN_RUNS },
	{ "stat", required_argument, NULL, O_STAT },
	{ "level", required_argument, NULL, O_LEVEL },
	{ "dir", required_argument, NULL, O_DIR },
	{ "calibrate", no_argument, NULL, O_CALIBRATE },
	{ "fail-if-slower", required_argument, NULL, O_FAIL },
	{ "export-json", required_argument, NULL, O_JSON },
	{ "export-markdown", required_argument, NULL, O_MD },
	{ "export-csv", required_argument, NULL, O_CSV },
	{ "export-report", required_argument, NULL, O_REPORT },
	{ "color", required_argument, NULL, O_COLOR },
	{ "quiet", no_argument, NULL, O_QUIET },
	{ "from", required_argument, NULL, O_FROM },
	{ "analyse", required_argument, NULL, O_ANALYSE },
	{ "analyze", required_argument, NULL, O_ANALYSE },
	{ "no-pictures", no_argument, NULL, O_NO_PICTURES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};
enum { NOWN = sizeof own / sizeof own[0] };

/* The share of the budget each part may take. */
#define PILOT_SHARE 0.15
#define CALIBRATE_SHARE 0.25
/* The analysis after the study: its streams take little; each picture
 * (pb-plot: pb-boot and gnuplot) about 0.4 s on a loaded machine, or 5
 * times what pb-plan's pipeline of 3 tools took on the pilot when the
 * machine is slower still. */
#define ANALYSIS_NS 0.2e9
#define PICTURE_NS 0.4e9
#define ANALYSIS_MOST 0.4
/* The plan keeps room for this many runs at least: the sequence needs
 * runs to narrow. */
#define RUNS_FLOOR 20
/* A pilot and a plan when the budget affords this many pairs. */
#define SLOW_PAIRS 40

struct opts {
	double budget_ns, threshold, fail_if_slower;
	long runs, pairs, warmup, min_runs;
	const char *stat, *level, *dir, *from, *analyse;
	const char *json, *md, *csv, *report;
	const char *scan_name;
	struct strv scan;
	int calibrate, color, quiet, no_pictures;
	struct strv pass;    /* pb-run's options, as given */
	char **cmds;
	int ncmds;
};

/* --- options ---------------------------------------------------------- */

static int is_refused(const char *name)
{
	int i;

	for (i = 0; refused[i]; i++)
		if (strcmp(refused[i], name) == 0)
			return 1;
	return 0;
}

static int is_own(const char *name)
{
	int i;

	for (i = 0; i < NOWN; i++)
		if (strcmp(own[i].name, name) == 0)
			return 1;
	return 0;
}

/* Our options, then pb-run's that are not ours (pb-run --list-options:
 * "name" or "name:" for one that takes a value), as getopt_long reads
 * them; a refused one is kept to be refused by name. */
static struct option *all_options(char ***names)
{
	struct run_result r;
	char *argv[] = { "pb-run", "--list-options", NULL }, *text, *line, *save = NULL;
	struct option *o = NULL;
	size_t n = 0, cap = 0, nn = 0, capn = 0;

	text = tools_capture(&r, argv);
	if (!text && strstr(r.msg, "(install pb whole"))   /* the hint is there once */
		die("pb-run --list-options failed: %s", r.msg);
	if (!text)
		die("pb-run --list-options failed: %s (install pb whole: pb-compare runs pb-run)",
		    *r.msg ? r.msg : "no output");
	xgrow(&o, &cap, NOWN + 1, sizeof *o);
	memcpy(o, own, sizeof own);
	n = NOWN;
	*names = NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);
		int val = len && line[len - 1] == ':';

		if (val)
			line[--len] = '\0';
		if (!len || is_own(line) || strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789-") != len)
			continue;
		xgrow(names, &capn, nn + 1, sizeof **names);
		(*names)[nn] = xstrdup(line);
		xgrow(&o, &cap, n + 2, sizeof *o);
		o[n].name = (*names)[nn];
		o[n].has_arg = val ? required_argument : no_argument;
		o[n].flag = NULL;
		o[n].val = O_PASS + (int)nn;
		n++, nn++;
	}
	memset(&o[n], 0, sizeof o[n]);
	free(text);
	return o;
}

static void split_list(struct strv *v, const char *list)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0)
			die_usage("--parameter-scan: an empty value in '%s'", list);
		strv_addf(v, "%.*s", (int)len, p);
		if (!p[len])
			break;
		p += len + 1;
	}
}

/* Each value names a directory: checked before the first study runs, not
 * when its turn comes after the others have spent their budgets. */
static void check_scan_values(const struct strv *v)
{
	size_t i, k;

	for (i = 0; i < v->n; i++) {
		if (strchr(v->v[i], '/'))
			die_usage("--parameter-scan: the value '%s' has a '/' (each value names a "
			          "directory)", v->v[i]);
		for (k = 0; k < i; k++)
			if (strcmp(v->v[k], v->v[i]) == 0)
				die_usage("--parameter-scan: the value '%s' is given twice", v->v[i]);
	}
}

static int color_choice(const char *v)
{
	static const char *const names[] = { "auto", "always", "never" };
	int c = opt_choice("--color", v, names, 3);
	const char *no = getenv("NO_COLOR");

	if (c == 1)
		return 1;
	if (c == 2)
		return 0;
	return isatty(1) && !(no && *no);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	char **names;
	struct option *longopts = all_options(&names);
	int opt, color = -1;

	memset(o, 0, sizeof *o);
	o->budget_ns = 10e9;
	o->threshold = o->fail_if_slower = NAN;
	while ((opt = pb_getopt(argc, argv, "+b:t:r:p:w:P:", longopts, usage)) != -1) {
		switch (opt) {
		case O_BUDGET: o->budget_ns = (double)opt_dur("budget", optarg); break;
		case O_THRESHOLD: o->threshold = opt_num("--threshold", optarg); break;
		case O_RUNS: o->runs = opt_count("--runs", optarg, 1000000); break;
		case O_PAIRS: o->pairs = opt_count("--pairs", optarg, 1000000); break;
		case O_WARMUP: o->warmup = opt_nonneg("--warmup", optarg, 1000000) + 1; break;
		case O_MIN_RUNS: o->min_runs = opt_count("--min-runs", optarg, 1000000); break;
		case O_STAT: o->stat = optarg; break;
		case O_LEVEL: opt_level("--level", optarg), o->level = optarg; break;
		case O_DIR: o->dir = optarg; break;
		case O_CALIBRATE: o->calibrate = 1; break;
		case O_FAIL: o->fail_if_slower = opt_num("--fail-if-slower", optarg); break;
		case O_JSON: o->json = optarg; break;
		case O_MD: o->md = optarg; break;
		case O_CSV: o->csv = optarg; break;
		case O_REPORT: o->report = optarg; break;
		case O_COLOR: color = color_choice(optarg); break;
		case O_QUIET: o->quiet = 1; break;
		case O_FROM: o->from = optarg; break;
		case O_ANALYSE: o->analyse = optarg; break;
		case O_NO_PICTURES: o->no_pictures = 1; break;
		case O_SCAN:
			if (o->scan_name)
				die_usage("--parameter-scan is given twice (one NAME per study)");
			if (optind >= argc)
				die_usage("--parameter-scan needs NAME and LIST: -P rows 1000,10000");
			if (!*optarg || strpbrk(optarg, "{}/= "))
				die_usage("--parameter-scan: NAME '%s' is not a plain word", optarg);
			o->scan_name = optarg;
			split_list(&o->scan, argv[optind++]);
			check_scan_values(&o->scan);
			break;
		default: {
			const char *name = names[opt - O_PASS];

			if (is_refused(name))
				die_usage("--%s is pb-compare's to set (it plans from --budget): "
				            "leave it out, or use pb-run", name);
			strv_addf(&o->pass, "--%s", name);
			if (optarg)
				strv_add(&o->pass, optarg);
			if (optarg && strcmp(name, "pg") == 0)
				conninfo_scrub(optarg);   /* pb-run has the copy; ps shows no password */
		}
		}
	}
	o->color = color < 0 ? color_choice("auto") : color;
	if (o->budget_ns <= 0)
		die_usage("--budget must be above 0");
	if (!isnan(o->threshold) && !(o->threshold > 0 && isfinite(o->threshold)))
		die_usage("--threshold is a ratio A/B above 0, not '%g'", o->threshold);
	if (!isnan(o->fail_if_slower) && !(o->fail_if_slower > 0 && isfinite(o->fail_if_slower)))
		die_usage("--fail-if-slower is a ratio above 0 (1.05: 5 %% slower)");
	o->cmds = argv + optind;
	o->ncmds = argc - optind;
	if (o->calibrate && o->ncmds == 0)
		die_usage("--calibrate runs A/A of the first command after --: with --worker or "
		          "--pg, run pb-sense --delays auto yourself");
	if (o->from && (o->ncmds || o->pass.n || o->scan_name || o->calibrate))
		die_usage("--from DIR reads a study made before: no commands or pb-run options");
	if (o->analyse && (o->ncmds || o->pass.n || o->scan_name || o->calibrate || o->from))
		die_usage("--analyse DIR analyses the raw.tsv there: no commands, pb-run options "
		          "or --from");
	for (opt = 0; longopts[NOWN + opt].name; opt++)
		free(names[opt]);
	free(names);
	free(longopts);
}

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

static void make_dir(const char *dir)
{
	if (mkdir(dir, 0777) < 0) {
		if (errno == EEXIST)
			die("%s exists: pb-compare makes a new study directory (give another --dir, "
			    "or remove it)", dir);
		die("%s:", dir);
	}
}

static char *default_dir(void)
{
	time_t t = time(NULL);
	struct tm tm;
	char buf[64];

	localtime_r(&t, &tm);
	strftime(buf, sizeof buf, "pb-compare-%Y%m%d-%H%M%S", &tm);
	return xstrdup(buf);
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
static double stop_threshold(const struct opts *o)
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

struct study {
	const struct opts *o;
	char *dir;
	struct strv pass;    /* pb-run options, {NAME} replaced */
	struct strv cmds;
	const char *value;   /* NAME=VALUE of a scan, or NULL */
	double t0, budget_ns;
	/* the probe */
	int arms;
	char ref;
	double probe_pair_ns, probe_wall_ns, pilot_wall_ns, plan_wall_ns;
	double delay_ns;     /* pb-run --delay: the other arms wait as long, untimed */
	long pilot_pairs;    /* per run, its warm-up pair included */
	int pictures;        /* gnuplot is there */
	/* the plan */
	long runs, pairs, warmup;
	double pair_ns;      /* what a pair costs, the plan's */
	double run_ns;       /* and a run */
	int sequential;
	int least;           /* the least study, beyond the budget */
	int slow;            /* no pilot: the budget affords too few pairs */
	char *plan;
	struct live live;
	int failed;          /* a tool failed: exit 1 */
	int progress;        /* draw a progress line */
	double study_t0;
	long long seen;      /* bytes of raw.tsv.tmp read by the progress */
	long run_now;
	char interval[96];
};

static double analysis_ns(const struct study *s);

static void study_argv(struct study *s, struct strv *v)
{
	strv_cat(v, &s->pass);
	if (s->cmds.n) {
		strv_add(v, "--");
		strv_cat(v, &s->cmds);
	}
}

static void tool_failed(struct study *s, const char *what, const struct run_result *r)
{
	fprintf(stderr, "pb-compare: %s failed (exit %d): %s\n", what, r->status,
	        *r->msg ? r->msg : "no message");
	s->failed = 1;
}

/* A stream of the study directory, opened to its header (0: not there). */
static int open_stream(struct stream *st, const char *dir, const char *name, char **path)
{
	*path = path_in(dir, name);
	if (!is_regular_file(*path))
		return 0;
	stream_open(st, 1, path);
	stream_header(st);
	return 1;
}

/* Run one pair of observations: what a pair costs, how many arms there
 * are, which is the reference. Its stream is not kept. */
static void probe(struct study *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	struct stream st;
	char **stages[1], *path, *out = path_in(s->dir, "probe.tsv");
	const char *k, *ref, *delay;
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
	if (r.status) {
		rmdir(s->dir);
		if (tools_signal)
			exit(128 + tools_signal);
		die("pb-run: %s", *r.msg ? r.msg : "failed on the first pair");
	}
	s->probe_wall_ns = (double)r.ns;
	open_stream(&st, s->dir, "probe.tsv", &path);
	k = stream_head_meta(&st, "arms", -1);
	ref = stream_head_meta(&st, "reference", -1);
	s->arms = k ? atoi(k) : 2;
	if (s->arms < 2 || s->arms > ARMS_MAX)
		s->arms = 2;
	s->ref = ref && strlen(ref) == 1 ? ref[0] : 'A';
	delay = stream_head_meta(&st, "delay_ns", -1);
	s->delay_ns = delay ? atof(delay) : 0;
	ns = stream_col(&st, "ns");
	phase = stream_col(&st, "phase");
	s->probe_pair_ns = 0;
	while (stream_row(&st))
		if (strcmp(st.field[phase], "measure") == 0)
			s->probe_pair_ns += stream_num(&st, ns);
	stream_close(&st);
	unlink(path);
	free(path);
	free(out);
}

/* What a pair costs by the probe: its timed windows, a tenth more for
 * pb-run's work around them, and the untimed waits of --delay. */
static double probe_price(const struct study *s)
{
	return 1.1 * s->probe_pair_ns + (double)(s->arms - 1) * s->delay_ns;
}

/* Whether the budget affords a pilot: SLOW_PAIRS pairs at the probe's
 * price (its timed pair, and a tenth more for pb-run's work around it;
 * the probe's wall time holds pb-run's start too, which the pairs of a
 * run do not pay). Without one (slow commands), each run is one measured pair
 * (no warm-up: the probe and the runs before warm what a command of a
 * quarter second or more shares with the next), and the least study
 * --min-runs of them: beyond the budget it runs anyway, said in one line
 * first; beyond 3 budgets it is refused. */
static void least_study(struct study *s)
{
	long min_runs = s->o->min_runs ? s->o->min_runs : 3;
	double pair = probe_price(s);
	double least = (double)min_runs * pair + s->probe_wall_ns;
	char p[SIG_BUFSZ], l[SIG_BUFSZ], b[SIG_BUFSZ];

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
	rmdir(s->dir);
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
static void pilot(struct study *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	char *out = path_in(s->dir, "pilot.tsv");
	double share = PILOT_SHARE * s->budget_ns;
	long pairs = (long)(share / (3 * s->probe_wall_ns)) - 1;

	pairs = pairs < 2 ? 2 : pairs > 10 ? 10 : pairs;
	strv_add(&v, "pb-run");
	strv_add(&v, "--quiet");
	strv_add(&v, "-r3");
	strv_addf(&v, "-p%ld", pairs);
	strv_add(&v, "-w1");
	study_argv(s, &v);
	if (run_tool(&r, out, &v, "the pilot"))
		die("pb-run (the pilot): %s", *r.msg ? r.msg : "failed");
	free(out);
	s->pilot_wall_ns = (double)r.ns;
	s->pilot_pairs = pairs + 1;
}

/* pb-plan on the pilot, with a target only to get its Kalibera-Jones row
 * (the best pairs per run does not depend on the target). */
static void plan_pilot(struct study *s)
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
static void calibrate(struct study *s)
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

static double plan_cost(const struct stream *st, const char *key)
{
	const char *v = stream_head_meta(st, key, -1);
	char num[NUM_BUFSZ];
	double x;

	if (!v)
		return NAN;
	snprintf(num, sizeof num, "%.*s", (int)strcspn(v, " "), v);
	return num_parse(num, &x) == 0 && x > 0 ? x : NAN;
}

struct pilot_read {
	double pair_ns, run_ns, sd_between, sd_within;
	long kj, runs;
};

static void read_plan_tsv(struct study *s, struct pilot_read *p)
{
	struct stream st;
	char *path;
	size_t plan, between, within, pairs;

	p->pair_ns = p->run_ns = p->sd_between = p->sd_within = NAN;
	p->kj = p->runs = 0;
	if (open_stream(&st, s->dir, "plan.tsv", &path)) {
		p->pair_ns = plan_cost(&st, "pb-plan.pair_cost");
		p->run_ns = plan_cost(&st, "pb-plan.run_cost");
		plan = stream_col(&st, "plan");
		between = stream_col(&st, "sigma2_between");
		within = stream_col(&st, "sigma2_within");
		pairs = stream_col(&st, "pairs");
		while (stream_row(&st)) {
			if (strcmp(st.field[plan], "current") == 0 && isnan(p->sd_between)) {
				p->sd_between = sqrt(stream_num(&st, between));
				p->sd_within = sqrt(stream_num(&st, within));
				p->runs = atol(st.field[stream_col(&st, "runs")]);
			} else if (strcmp(st.field[plan], "kalibera_jones") == 0 && !p->kj)
				p->kj = atol(st.field[pairs]);
		}
		stream_close(&st);
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

/* What the analysis after the study takes, kept out of the study's time. */
static double analysis_ns(const struct study *s)
{
	double picture = 5 * s->plan_wall_ns > PICTURE_NS ? 5 * s->plan_wall_ns : PICTURE_NS;
	double ns = ANALYSIS_NS + (s->pictures ? 3 * picture : 0);

	return ns < ANALYSIS_MOST * s->budget_ns ? ns : ANALYSIS_MOST * s->budget_ns;
}

/* Pairs per run: pb-plan's Kalibera-Jones optimum (or, when the pilot saw
 * no spread between runs, the most), bounded so that RUNS_FLOOR runs fit
 * what is left; warm-up a tenth of it; runs what is left affords. */
static void plan(struct study *s)
{
	struct pilot_read p;
	const struct opts *o = s->o;
	double left = s->budget_ns - (now_ns() - s->t0) - analysis_ns(s);
	double run_ns;
	long most, floor_runs = o->min_runs > RUNS_FLOOR ? o->min_runs : RUNS_FLOOR;
	char a[SIG_BUFSZ], b[SIG_BUFSZ], c[SIG_BUFSZ], d[SIG_BUFSZ], e[SIG_BUFSZ];
	char why[64], stop[160], lv[SIG_BUFSZ], t[NUM_BUFSZ];
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
		                       floor((s->budget_ns - analysis_ns(s)) / p.pair_ns));
	else if (o->pairs)
		s->pairs = o->pairs, snprintf(why, sizeof why, "--pairs");
	else if (p.kj)
		s->pairs = clamp(p.kj, 2, most),
		snprintf(why, sizeof why, p.kj > most ? "Kalibera-Jones %ld, bounded" :
		         p.kj < 2 ? "Kalibera-Jones %ld, at least 2" : "Kalibera-Jones", p.kj);
	else
		s->pairs = most, snprintf(why, sizeof why, "pb-plan gave no optimum: the most");
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
	if (o->runs)
		s->runs = o->runs;
	s->sequential = s->arms == 2 && s->ref == 'A';
	level_percent(lv, o->level ? atof(o->level) : 0.95);
	if (!s->sequential)
		snprintf(stop, sizeof stop, "a fixed design (%d arms: Holm-adjusted %s%% intervals)",
		         s->arms, lv);
	else if (!isnan(stop_threshold(o))) {
		num_format(t, stop_threshold(o));
		snprintf(stop, sizeof stop, "stop when the %s%% sequence resolves the ratio against %s",
		         lv, t);
	} else
		snprintf(stop, sizeof stop, "stop when the %s%% sequence excludes 1", lv);
	s->plan = xmalloc(512);
	if (s->slow)
		len = (size_t)snprintf(s->plan, 512, "plan: %ld pair%s x up to %ld runs, warm-up %ld "
		                       "(%s; the probe: a pair %s", s->pairs, s->pairs == 1 ? "" : "s",
		                       s->runs, s->warmup, why, h4ns(a, p.pair_ns));
	else
		len = (size_t)snprintf(s->plan, 512, "plan: %ld pairs x up to %ld runs, warm-up %ld "
		                       "(%s; pilot: a pair %s, a run's start %s", s->pairs, s->runs,
		                       s->warmup, why, h4ns(a, p.pair_ns), h4ns(b, p.run_ns));
	if (!isnan(p.sd_between))
		len += (size_t)snprintf(s->plan + len, 512 - len, "; between-run spread %s %%, "
		                        "within %s %%", h4(c, 100 * p.sd_between),
		                        h4(d, 100 * p.sd_within));
	snprintf(s->plan + len, 512 - len, "), %s, within %s", stop, h4ns(e, s->budget_ns));
}

/* --- the study's progress: pb-run's stream as it grows ----------------- */

static void progress_line(struct study *s)
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
				const char *r = strstr(buf, "ratio="), *lo = strstr(buf, "lo="),
				           *hi = strstr(buf, "hi=");
				char x[SIG_BUFSZ], y[SIG_BUFSZ], z[SIG_BUFSZ];

				if (r && lo && hi)
					snprintf(s->interval, sizeof s->interval, "ratio %s, CS %s to %s",
					         h4(x, atof(r + 6)), h4(y, atof(lo + 3)),
					         h4(z, atof(hi + 3)));
				else if (r)
					snprintf(s->interval, sizeof s->interval, "ratio %s, unbounded",
					         h4(x, atof(r + 6)));
			}
		}
	}
	fclose(f);
	el = now_ns() - s->study_t0;
	eta = s->run_now > 1 ? el / (double)(s->run_now - 1) * (double)(s->runs - s->run_now + 1)
	                     : (double)s->runs * el;
	if (eta > s->budget_ns - (now_ns() - s->t0))
		eta = s->budget_ns - (now_ns() - s->t0);
	fprintf(stderr, "\r\033[Kpb-compare: run %ld of up to %ld, %s%s%s, at most %s left",
	        s->run_now, s->runs, h4ns(e1, el), *s->interval ? "; " : "", s->interval,
	        h4ns(e2, eta > 0 ? eta : 0));
}

static void tick(void *ctx)
{
	struct study *s = ctx;
	static double last;

	if (now_ns() - last < 200e6)
		return;
	last = now_ns();
	progress_line(s);
}

static void measure(struct study *s)
{
	struct strv v = { NULL, 0, 0 };
	struct run_result r;
	char **stages[1], *out = path_in(s->dir, "raw.tsv"), d[32];
	const struct opts *o = s->o;
	double left = s->budget_ns - (now_ns() - s->t0) - analysis_ns(s);
	char t[NUM_BUFSZ];

	strv_add(&v, "pb-run");
	strv_add(&v, "--quiet");
	strv_addf(&v, "-r%ld", s->runs);
	strv_addf(&v, "-p%ld", s->pairs);
	strv_addf(&v, "-w%ld", s->warmup);
	if (s->sequential) {
		strv_add(&v, "--until");
		if (isnan(stop_threshold(o)))
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

		if (stat(out, &sb) == 0 && sb.st_size == 0) {   /* nothing measured */
			unlink(out);
			die("pb-run: %s", *r.msg ? r.msg : "failed");
		}
		tool_failed(s, "pb-run", &r);
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
	struct study *s = ctx;
	char what[64];
	int k;

	if (!r->status)
		return;
	if (st->use) {
		fprintf(stderr, "pb-compare: CPU time and peak memory are not compared (%s): %s\n",
		        st->target, *r->msg ? r->msg : "failed");
		for (k = 0; k < NUSE; k++) {
			const char *files[2] = { use_kinds[k].runs, use_kinds[k].tint };

			remove_in(s->dir, files, 2);
		}
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
static void analyse(struct study *s, struct recipe *a)
{
	char *sense = path_in(s->dir, "sense.tsv");

	memset(a, 0, sizeof *a);
	a->stat = s->o->stat;
	a->level = s->o->level;
	a->adjust = s->arms > 2 ? "holm" : NULL;
	a->threshold = s->o->threshold;
	a->sense = s->o->calibrate && is_regular_file(sense);
	free(sense);
	a->pictures = s->pictures;
	a->use = recipe_raw_has_use(s->dir);
	recipe_make(a, s->dir, RECIPE_ALL, step_failed, s);
}

/* --- the files written from the streams --------------------------------- */

static FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");

	if (!f)
		die("%s:", path);
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (f == stdout) {
		if (fflush(f) != 0)
			die("stdout:");
		return;
	}
	if (ferror(f) | fclose(f))
		die("%s: cannot write", path);
}

static void write_in(const char *dir, const char *name, void (*fn)(FILE *, const void *),
                     const void *ctx)
{
	char *p = path_in(dir, name);
	FILE *f = open_out(p);

	fn(f, ctx);
	close_out(f, p);
	free(p);
}

static void w_makefile(FILE *f, const void *a)
{
	recipe_makefile(f, a);
}

static void w_report(FILE *f, const void *s)
{
	write_report(f, s);
}

struct summary_ctx {
	const struct study_result *r;
	const struct live *l;
};

static void w_summary(FILE *f, const void *ctx)
{
	const struct summary_ctx *c = ctx;
	const struct style plain = { 0 };

	if (c->l->plan)
		fprintf(f, "%s\n", c->l->plan);
	write_summary(f, c->r, c->l, &plain);
}

struct json_ctx {
	const struct study_result *const *r;
	const struct live *const *l;
	size_t n;
	const char *param;
};

static void w_json(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;

	write_json(f, c->r, c->l, c->n, c->param);
}

static void w_scan_report(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;

	fprintf(f, "# pb-compare: a scan of %s\n\n", c->param);
	write_markdown_table(f, c->r, c->l, c->n, c->param);
	fputs("\nEach value is a study of its own: its directory holds its streams and "
	      "report.md.\n", f);
}

static int exit_status(const struct study_result *r, const struct live *l)
{
	int i;

	if (!isnan(l->fail_if_slower))
		for (i = 0; i < r->ncmp; i++)
			if (cmp_slower_than(&r->cmp[i], l->fail_if_slower))
				return EXIT_SLOWER;
	return 0;
}

/* Run one study into s->dir; r is it read back. */
static void study_run(struct study *s, struct study_result *r)
{
	struct recipe a;
	struct summary_ctx sc;
	const struct study_result *one[1];
	const struct live *ol[1];
	struct json_ctx jc;

	memset(&a, 0, sizeof a);
	s->t0 = now_ns();
	s->budget_ns = s->o->budget_ns;
	make_dir(s->dir);
	probe(s);
	least_study(s);
	if (!s->slow) {
		pilot(s);
		plan_pilot(s);
	}
	plan(s);
	if (!s->o->quiet && isatty(2))
		fprintf(stderr, "%s\n", s->plan);
	if (s->o->calibrate && !tools_signal)
		calibrate(s);
	if (!tools_signal)
		measure(s);
	tools_forward(0);   /* the analysis runs on what was measured */
	analyse(s, &a);
	write_in(s->dir, "Makefile", w_makefile, &a);
	study_read(r, s->dir);
	write_in(s->dir, "report.md", w_report, r);
	s->live.plan = s->plan;
	s->live.budget_ns = s->budget_ns;
	s->live.wall_ns = now_ns() - s->t0;
	s->live.fail_if_slower = s->o->fail_if_slower;
	s->live.exit_status = exit_status(r, &s->live);
	s->live.signal_name = NULL;
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

static void study_init(struct study *s, const struct opts *o, char *dir, const char *name,
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
	s->pictures = !o->no_pictures && on_path("gnuplot");
	s->live.budget_ns = s->live.wall_ns = s->live.fail_if_slower = NAN;
}

static void study_done(struct study *s)
{
	strv_free(&s->pass);
	strv_free(&s->cmds);
	free(s->plan);
	free(s->live.value);
	free(s->dir);
}

/* --- exports ------------------------------------------------------------ */

static int exports_to_stdout(const struct opts *o)
{
	return (o->json && !strcmp(o->json, "-")) || (o->md && !strcmp(o->md, "-")) ||
	       (o->csv && !strcmp(o->csv, "-")) || (o->report && !strcmp(o->report, "-"));
}

static void exports(const struct opts *o, const struct study_result *const *r,
                    const struct live *const *l, size_t n, const char *param)
{
	FILE *f;

	if (o->json) {
		f = open_out(o->json);
		write_json(f, r, l, n, param);
		close_out(f, o->json);
	}
	if (o->md) {
		f = open_out(o->md);
		write_markdown_table(f, r, l, n, param);
		close_out(f, o->md);
	}
	if (o->csv) {
		f = open_out(o->csv);
		write_csv(f, r, l, n, param);
		close_out(f, o->csv);
	}
	if (o->report && n == 1) {
		f = open_out(o->report);
		write_report(f, r[0]);
		close_out(f, o->report);
	}
}

static void print_summary(const struct opts *o, const struct study_result *r,
                          const struct live *l, const char *dir)
{
	struct style st;

	if (exports_to_stdout(o))
		return;
	st.color = o->color;
	if (l->plan)
		printf("%s\n", l->plan);
	write_summary(stdout, r, l, &st);
	if (dir)
		printf("study: %s\n", dir);
	if (fflush(stdout) != 0)
		die("stdout:");
}

/* A step failed in the directory --from reads: a warning, and what it
 * would have made is missing from the summary, as from any directory. */
static void from_failed(void *ctx, struct recipe *rc, const struct step *st,
                        const struct run_result *r)
{
	(void)rc;
	if (r->status)
		warn("%s: %s could not be made: %s", (const char *)ctx, st->target,
		     *r->msg ? r->msg : "it failed");
}

/* Whether dir holds what the recipe makes (pictures aside). */
static int analysed(const struct recipe *rc, const char *dir)
{
	struct step steps[RECIPE_STEPS_MAX];
	size_t n = recipe_steps(rc, steps), i;
	int all = 1;

	for (i = 0; i < n; i++) {
		char *p = path_in(dir, steps[i].target);

		all &= steps[i].picture || steps[i].page || is_regular_file(p);
		free(p);
	}
	recipe_steps_free(steps, n);
	return all;
}

/* dir read back as pb-compare leaves it: what its analysis lacks is made
 * first by the recipe (as pb-report does), in a private directory beside
 * links to dir's files, so that dir itself is only read. */
static void study_read_completed(struct study_result *r, const char *dir)
{
	struct recipe rc;
	char *work;

	recipe_of_dir(&rc, dir);
	if (analysed(&rc, dir)) {
		study_read(r, dir);
		return;
	}
	work = private_dir("pb-compare");
	link_regular_files(dir, work);
	recipe_make(&rc, work, 0, from_failed, (void *)dir);
	study_read(r, work);
	free(r->dir);
	r->dir = xstrdup(dir);
	private_dir_remove(work);
	free(work);
}

static int from_dir(const struct opts *o)
{
	struct study_result r;
	struct live l = { NULL, NAN, NAN, NAN, 0, NULL, NULL };
	const struct study_result *one[1] = { &r };
	const struct live *ol[1] = { &l };
	int status;

	study_read_completed(&r, o->from);
	l.fail_if_slower = o->fail_if_slower;
	l.exit_status = status = exit_status(&r, &l);
	print_summary(o, &r, &l, NULL);
	exports(o, one, ol, 1, NULL);
	study_free(&r);
	return status;
}

/* A step of --analyse failed: said, and the exit status is 1. */
static void analyse_failed(void *ctx, struct recipe *rc, const struct step *st,
                           const struct run_result *r)
{
	(void)rc;
	if (r->status && !st->use && !st->picture) {
		warn("%s: %s failed (exit %d): %s", st->target, st->stage[0].v[0], r->status,
		     *r->msg ? r->msg : "no message");
		*(int *)ctx = 1;
	} else if (r->status) {
		warn("%s could not be made: %s", st->target, *r->msg ? r->msg : "it failed");
	}
}

/* --analyse DIR: DIR's raw.tsv (pb-run's) analysed in DIR as a study of
 * pb-compare is, every file of the recipe made again, and the Makefile,
 * report.md, summary.txt and compare.json written beside it. */
static int analyse_dir(const struct opts *o)
{
	struct recipe rc;
	struct study_result r;
	struct live l = { NULL, NAN, NAN, NAN, 0, NULL, NULL };
	const struct study_result *one[1] = { &r };
	const struct live *ol[1] = { &l };
	struct summary_ctx sc = { &r, &l };
	struct json_ctx jc = { one, ol, 1, NULL };
	char *raw = path_in(o->analyse, "raw.tsv");
	int failed = 0;

	if (!is_regular_file(raw))
		die("%s: no raw.tsv to analyse (pb-run writes one)", o->analyse);
	free(raw);
	recipe_of_dir(&rc, o->analyse);
	rc.stat = o->stat ? o->stat : rc.stat;
	rc.level = o->level;
	rc.threshold = isnan(o->threshold) ? rc.threshold : o->threshold;
	rc.pictures = !o->no_pictures;
	tools_forward(0);
	recipe_make(&rc, o->analyse, RECIPE_ALL, analyse_failed, &failed);
	write_in(o->analyse, "Makefile", w_makefile, &rc);
	study_read(&r, o->analyse);
	write_in(o->analyse, "report.md", w_report, &r);
	l.fail_if_slower = o->fail_if_slower;
	l.exit_status = exit_status(&r, &l);
	write_in(o->analyse, "summary.txt", w_summary, &sc);
	write_in(o->analyse, "compare.json", w_json, &jc);
	print_summary(o, &r, &l, o->analyse);
	exports(o, one, ol, 1, NULL);
	study_free(&r);
	return tools_signal ? 128 + tools_signal : failed ? 1 : l.exit_status;
}

static int interrupted_status(void)
{
	return tools_signal ? 128 + tools_signal : 0;
}

static const char *signal_name(void)
{
	return tools_signal == SIGINT ? "SIGINT" : tools_signal == SIGHUP ? "SIGHUP" : "SIGTERM";
}

static int one_study(const struct opts *o)
{
	struct study s;
	struct study_result r;
	const struct study_result *one[1] = { &r };
	const struct live *ol[1];
	int status;

	study_init(&s, o, o->dir ? xstrdup(o->dir) : default_dir(), NULL, NULL);
	study_run(&s, &r);
	if (tools_signal)
		s.live.signal_name = signal_name();
	ol[0] = &s.live;
	print_summary(o, &r, &s.live, s.dir);
	exports(o, one, ol, 1, NULL);
	status = interrupted_status() ? interrupted_status() : s.failed ? 1 : s.live.exit_status;
	study_free(&r);
	study_done(&s);
	return status;
}

static void w_scan_summary(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;
	const struct style plain = { 0 };
	size_t i;

	for (i = 0; i < c->n; i++) {
		write_summary(f, c->r[i], c->l[i], &plain);
		fputs("\n", f);
	}
}

static int scan(const struct opts *o)
{
	char *top = o->dir ? xstrdup(o->dir) : default_dir();
	size_t n = o->scan.n, i, done = 0;
	struct study *s = xmalloc(n * sizeof *s);
	struct study_result *r = xmalloc(n * sizeof *r);
	const struct study_result **rp = xmalloc(n * sizeof *rp);
	const struct live **lp = xmalloc(n * sizeof *lp);
	struct json_ctx jc;
	int status = 0;

	make_dir(top);
	for (i = 0; i < n && !tools_signal; i++) {
		char *sub = xmalloc(strlen(top) + strlen(o->scan_name) + strlen(o->scan.v[i]) + 3);

		sprintf(sub, "%s/%s=%s", top, o->scan_name, o->scan.v[i]);
		study_init(&s[i], o, sub, o->scan_name, o->scan.v[i]);
		s[i].live.value = xmalloc(strlen(o->scan_name) + strlen(o->scan.v[i]) + 2);
		sprintf(s[i].live.value, "%s=%s", o->scan_name, o->scan.v[i]);
		study_run(&s[i], &r[i]);
		if (tools_signal)
			s[i].live.signal_name = signal_name();
		print_summary(o, &r[i], &s[i].live, s[i].dir);
		if (!exports_to_stdout(o))
			putchar('\n');
		rp[i] = &r[i];
		lp[i] = &s[i].live;
		if (s[i].failed)
			status = 1;
		else if (s[i].live.exit_status > status)
			status = s[i].live.exit_status;
		done++;
	}
	jc.r = rp;
	jc.l = lp;
	jc.n = done;
	jc.param = o->scan_name;
	write_in(top, "summary.txt", w_scan_summary, &jc);
	write_in(top, "compare.json", w_json, &jc);
	write_in(top, "report.md", w_scan_report, &jc);
	exports(o, rp, lp, done, o->scan_name);
	if (!exports_to_stdout(o))
		printf("scan: %s\n", top);
	for (i = 0; i < done; i++) {
		study_free(&r[i]);
		study_done(&s[i]);
	}
	free(s), free(r), free(rp), free(lp), free(top);
	return interrupted_status() ? interrupted_status() : status;
}

int main(int argc, char **argv)
{
	struct opts o;
	int status;

	pb_init("pb-compare");
	tools_init(argv[0]);
	parse_args(argc, argv, &o);
	if (o.from)
		return from_dir(&o);
	if (o.analyse)
		return analyse_dir(&o);
	if (o.ncmds == 0 && !o.pass.n)
		die_usage("nothing to compare: give the commands after --, or --worker CMD, "
		            "or --pg CONNINFO --sql-a SQL --sql-b SQL");
	status = o.scan_name ? scan(&o) : one_study(&o);
	strv_free(&o.pass);
	strv_free(&o.scan);
	return status;
}

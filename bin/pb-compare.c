/* pb-compare: one command from "is B faster?" to a defensible answer,
 * within a time budget: its options, then lib/conduct makes the study
 * (lib/recipe analyses it, lib/tools runs pb's tools) and lib/studydir,
 * lib/summary and lib/export read it back and say it. --from and
 * --analyse read a study directory made before. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conduct.h"
#include "conninfo.h"
#include "err.h"
#include "export.h"
#include "files.h"
#include "opt.h"
#include "recipe.h"
#include "runopt.h"
#include "runstat.h"
#include "seq.h"
#include "stream.h"
#include "strv.h"
#include "studydir.h"
#include "summary.h"
#include "tools.h"

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
	"directory.\n";

static const char usage_tail[] =
	"Every other pb-run option is passed to pb-run (--no-shell, --setup,\n"
	"--prepare, --cleanup, --timeout, --order, --output, --seed, ...).\n"
	"Durations: 250us, 1.5ms, 2s, 10ns; a bare number is ns.\n";

/* The longest budget: 11.6 days (a plan for more is beyond pb-run's runs
 * of commands this fast, and more is a typing error more often than not). */
#define BUDGET_MOST_NS 1e15

/* Options of pb-run that pb-compare sets itself or cannot pass on. */
static const char *const refused[] = { "until", "max-time", "first-run", "seq-g-note", NULL };

enum {
	O_BUDGET = 'b', O_THRESHOLD = 't', O_RUNS = 'r', O_PAIRS = 'p', O_WARMUP = 'w',
	O_SCAN = 'P',
	O_MIN_RUNS = 256, O_STAT, O_LEVEL, O_DIR, O_CALIBRATE, O_FAIL, O_JSON, O_MD, O_CSV,
	O_REPORT, O_COLOR, O_QUIET, O_FROM, O_ANALYSE, O_NO_PICTURES, O_SEQUENCE, O_MIN_EFFECT, O_SEQ_G,
	O_TOLERANCE, O_DUET, O_BISECT, O_JUNIT, O_VERBOSE = 'v',
	O_PASS = 1000
};

static const char *const color_names[] = { "auto", "always", "never" };

/* Ours; then pb-run's that are not ours, passed through (all_options). */
static const struct pb_opt own[] = {
	{ "budget", O_BUDGET, 'b', "DUR", NULL,
	  "wall time for it all, the pilot included (default 10s)", NULL, 0 },
	{ "threshold", O_THRESHOLD, 't', "T", NULL, "stop when the ratio A/B is resolved against T\n"
	  "(default: against 1, parity)", NULL, 0 },
	{ "runs", O_RUNS, 'r', "R", NULL, "the most runs (default: what the budget affords)", NULL, 0 },
	{ "pairs", O_PAIRS, 'p', "P", NULL, "pairs per run (default: pb-plan on the pilot)", NULL, 0 },
	{ "warmup", O_WARMUP, 'w', "W", NULL, "warm-up pairs per run (default: a tenth of P, >= 1)",
	  NULL, 0 },
	{ "min-runs", O_MIN_RUNS, 0, "M", NULL, "no answer before M runs (default 3)", NULL, 0 },
	{ "stat", O_STAT, 0, "S", "median mean min lr-median p90 p99",
	  "each run's statistic (default median)", NULL, 0 },
	{ "level", O_LEVEL, 0, "L", NULL, "the sequence's level (default 0.95)", NULL, 0 },
	{ "sequence", O_SEQUENCE, 0, "K", "t median", "t: of the mean (default); median: of the\n"
	  "median, valid whatever the runs' shape", NULL, 0 },
	{ "seq-g", O_SEQ_G, 0, "G", NULL, "the t sequence's g (default: tuned to the effect)",
	  NULL, 0 },
	{ "min-effect", O_MIN_EFFECT, 0, "PCT", NULL, "the smallest effect that matters, in %: the\n"
	  "sequence is tuned to it (default: what the budget\nresolves, or the threshold)", NULL, 0 },
	{ "tolerance", O_TOLERANCE, 0, "PCT", NULL, "stop when B is shown within PCT % of A, or\n"
	  "beyond it on one side (an equivalence margin)", NULL, 0 },
	{ "duet", O_DUET, 0, NULL, NULL, "A and B of each pair at once, each on its own CPU\n"
	  "(pb-run --duet); --duet auto: the pilot measures both\n"
	  "designs and keeps the one with less spread", NULL, 0 },
	{ "dir", O_DIR, 0, "DIR", NULL, "the study directory (default pb-compare-DATE-TIME)", NULL, 0 },
	{ "parameter-scan", O_SCAN, 'P', "NAME LIST", NULL, "one study per value of LIST (a,b,c)\n"
	  "with {NAME} replaced in the commands", NULL, 0 },
	{ "calibrate", O_CALIBRATE, 0, NULL, NULL,
	  "a quarter of the budget on pb-sense's search for the\n"
	  "smallest delay this harness resolves here", NULL, 0 },
	{ "fail-if-slower", O_FAIL, 0, "R", NULL, "exit 3 when a candidate is slower than R with\n"
	  "confidence (the upper end of A/X below 1/R); with\n"
	  "--tolerance, exit 0 only when B is shown within it\n"
	  "or faster, 4 when the budget ends undecided", NULL, 0 },
	{ "bisect", O_BISECT, 0, NULL, NULL, "for git bisect run (with --fail-if-slower R or\n"
	  "--tolerance): exit 0 when B is shown not slower\n"
	  "than R, 1 when shown slower, 125 when the budget\n"
	  "ends first; 255 on an error", NULL, 0 },
	{ "export-json", O_JSON, 0, "FILE", NULL, NULL, NULL, 0 },
	{ "export-markdown", O_MD, 0, "FILE", NULL, NULL, NULL, 0 },
	{ "export-csv", O_CSV, 0, "FILE", NULL, NULL, NULL, 0 },
	{ "export-junit", O_JUNIT, 0, "FILE", NULL, NULL, NULL, 0 },
	{ "export-report-md", O_REPORT, 0, "FILE", NULL, "also write these (FILE - is stdout)", NULL, 0 },
	/* the old name of --export-report-md: it wrote report.md, not pb-report's page */
	{ "export-report", O_REPORT, 0, "FILE", NULL, NULL, NULL, PB_OPT_NOHELP },
	{ "color", O_COLOR, 0, "WHEN", "auto always never", "auto (default), always or never; NO_COLOR",
	  NULL, 0 },
	{ "verbose", O_VERBOSE, 'v', NULL, NULL, "after the answer: the plan, the arms, CPU time,\n"
	  "memory, the design, the warnings whole, the findings", NULL, 0 },
	{ "quiet", O_QUIET, 0, NULL, NULL, "the answer alone: no warning line, no plan and no\n"
	  "progress on stderr", NULL, 0 },
	{ "no-pictures", O_NO_PICTURES, 0, NULL, NULL,
	  "no pb-plot pictures (they take about a second)", NULL, 0 },
	{ "from", O_FROM, 0, "DIR", NULL, "the summary and exports of a study made before", NULL, 0 },
	{ "analyse", O_ANALYSE, 0, "DIR", NULL, "analyse DIR's raw.tsv (pb-run's) in DIR as a study\n"
	  "is: its streams, Makefile, report.md, summary\n"
	  "(--analyze too; with --stat, --level, -t, --no-pictures)", NULL, 0 },
	{ "analyze", O_ANALYSE, 0, "DIR", NULL, NULL, NULL, PB_OPT_NOHELP },
};
enum { NOWN = sizeof own / sizeof own[0] };

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

/* Our options, then pb-run's that are not ours (lib/runopt's table),
 * passed through: listed by --list-options, not in our --help (its tail
 * says they pass); a refused one is kept to be refused by name. */
static struct pb_opt *all_options(void)
{
	struct pb_opt *o = NULL;
	size_t n = NOWN, cap = 0, i;

	xgrow(&o, &cap, NOWN + 1, sizeof *o);
	memcpy(o, own, sizeof own);
	for (i = 0; run_opts[i].name; i++) {
		if (is_own(run_opts[i].name))
			continue;
		xgrow(&o, &cap, n + 2, sizeof *o);
		o[n] = run_opts[i];
		o[n].key = O_PASS + (int)i;
		o[n].letter = 0;
		o[n].flags = PB_OPT_NOHELP | (is_refused(run_opts[i].name) ? PB_OPT_NOLIST : 0);
		n++;
	}
	memset(&o[n], 0, sizeof o[n]);
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

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Each value names a directory, NAME=VALUE: checked before the first
 * study runs, not when its turn comes after the others have spent their
 * budgets. */
static void check_scan_values(const char *name, const struct strv *v)
{
	size_t i, k;

	for (i = 0; i < v->n; i++) {
		if (strchr(v->v[i], '/'))
			die_usage("--parameter-scan: the value '%s' has a '/' (each value names a "
			          "directory)", v->v[i]);
		if (strlen(name) + 1 + strlen(v->v[i]) > NAME_MAX)
			die_usage("--parameter-scan: the value '%.40s...' is too long to name a "
			          "directory (%s=VALUE: %d bytes at most)", v->v[i], name, NAME_MAX);
		for (k = 0; k < i; k++)
			if (strcmp(v->v[k], v->v[i]) == 0)
				die_usage("--parameter-scan: the value '%s' is given twice", v->v[i]);
	}
}

static const struct pb_opt *run_opt(const char *name)
{
	int i;

	for (i = 0; run_opts[i].name; i++)
		if (strcmp(run_opts[i].name, name) == 0)
			return &run_opts[i];
	return NULL;
}

/* The pb-run options of each study of a scan, {NAME} replaced by its
 * value, checked as pb-run would before the first study runs (a value
 * with {NAME} is not checked as given). */
static void check_scan_options(const struct compare_opts *o)
{
	size_t i, k;

	for (i = 0; i < o->scan.n; i++) {
		struct conduct c;

		conduct_init(&c, o, NULL, o->scan_name, o->scan.v[i]);
		for (k = 0; k + 1 < c.pass.n; k++) {
			const struct pb_opt *r = run_opt(c.pass.v[k] + 2);

			if (r && r->arg && r->check && strchr(o->pass.v[k + 1], '{'))
				r->check(r->name, c.pass.v[k + 1]);
			k += r && r->arg;
		}
		conduct_done(&c);
	}
}

static int color_choice(const char *v)
{
	int c = opt_choice("color", v, color_names, (int)LEN(color_names));
	const char *no = getenv("NO_COLOR");

	if (c == 1)
		return 1;
	if (c == 2)
		return 0;
	return isatty(1) && !(no && *no);
}

/* The first option of a kind given, for a refusal that names it. */
static void first_given(const char **first, const char *name)
{
	if (!*first)
		*first = name;
}

/* What pb-run --duet refuses, refused here before anything runs, also
 * for --duet auto, which would otherwise fall back without being asked. */
static void check_duet(const struct compare_opts *o)
{
	size_t i;

	if (!o->duet)
		return;
	for (i = 0; i < o->pass.n; i++) {
		const char *w = o->pass.v[i];

		if (!strcmp(w, "--order") || !strcmp(w, "--pg") ||
		    (!strcmp(w, "--resources") && i + 1 < o->pass.n && !strcmp(o->pass.v[i + 1], "tree")))
			die_usage("--duet%s and %s%s do not go together: %s", o->duet == DUET_AUTO ?
			          " auto" : "", w, !strcmp(w, "--resources") ? " tree" : "",
			          !strcmp(w, "--order") ? "a duet starts A and B at the same moment"
			          : !strcmp(w, "--pg") ? "with --pg the work is the server's, not on a "
			          "CPU pb-run chooses" : "each observation's cgroups are made one at a time");
	}
	if (o->ncmds > 2)
		die_usage("--duet runs two arms at once, on two CPUs: not %d", o->ncmds);
	for (i = 0; i + 1 < o->pass.n; i++)
		if (!strcmp(o->pass.v[i], "--arms") && strcmp(o->pass.v[i + 1], "2"))
			die_usage("--duet runs two arms at once, on two CPUs: not --arms %s",
			          o->pass.v[i + 1]);
}

static void parse_args(int argc, char **argv, struct compare_opts *o)
{
	static struct pb_cmd cmd = { usage, NULL, 24, usage_tail, 1 };   /* kept to exit */
	struct run_stat stat;
	const char *making = NULL, *analysing = NULL;   /* the first such option given */
	const char *budget_arg = NULL;
	int opt, color = -1;

	memset(o, 0, sizeof *o);
	o->budget_ns = 10e9;
	o->threshold = o->fail_if_slower = NAN;
	cmd.opts = all_options();
	while ((opt = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (opt) {
		case O_BUDGET: o->budget_ns = (double)opt_dur("budget", optarg);
			budget_arg = optarg;
			first_given(&making, "--budget");
			break;
		case O_THRESHOLD: o->threshold = opt_num("threshold", optarg);
			first_given(&analysing, "--threshold");
			break;
		case O_RUNS: o->runs = opt_count("runs", optarg, 1000000);
			first_given(&making, "--runs");
			break;
		case O_PAIRS: o->pairs = opt_count("pairs", optarg, 1000000);
			first_given(&making, "--pairs");
			break;
		case O_WARMUP: o->warmup = opt_nonneg("warmup", optarg, 1000000) + 1;
			first_given(&making, "--warmup");
			break;
		case O_MIN_RUNS: o->min_runs = opt_count("min-runs", optarg, 1000000);
			first_given(&making, "--min-runs");
			break;
		case O_STAT: run_stat_parse(&stat, "stat", optarg), o->stat = optarg;
			first_given(&analysing, "--stat");
			break;
		case O_LEVEL: opt_level("level", optarg), o->level = optarg;
			first_given(&analysing, "--level");
			break;
		case O_SEQUENCE: o->sequence = seq_kind_parse("sequence", optarg), o->sequence_given = 1;
			first_given(&making, "--sequence");
			break;
		case O_SEQ_G: runopt_seq_g("seq-g", optarg), o->seq_g = optarg;
			first_given(&making, "--seq-g");
			break;
		case O_MIN_EFFECT: o->min_effect = opt_pct("min-effect", optarg);
			first_given(&making, "--min-effect");
			break;
		case O_TOLERANCE: o->tolerance = opt_pct("tolerance", optarg);
			first_given(&making, "--tolerance");
			break;
		case O_DIR: o->dir = optarg;
			first_given(&making, "--dir");
			break;
		case O_DUET:   /* "auto" after it is its value: commands come after -- */
			o->duet = DUET_ON;
			if (optind < argc && strcmp(argv[optind], "auto") == 0)
				o->duet = DUET_AUTO, optind++;
			else if (optind < argc && argv[optind][0] != '-')
				die_usage("--duet takes 'auto' or nothing, not '%s' (commands go after --)",
				          argv[optind]);
			first_given(&making, "--duet");
			break;
		case O_CALIBRATE: o->calibrate = 1;
			first_given(&making, "--calibrate");
			break;
		case O_FAIL: o->fail_if_slower = opt_num("fail-if-slower", optarg); break;
		case O_JSON: o->json = optarg; break;
		case O_MD: o->md = optarg; break;
		case O_CSV: o->csv = optarg; break;
		case O_JUNIT: o->junit = optarg; break;
		case O_BISECT: o->bisect = 1; break;
		case O_REPORT: o->report = optarg; break;
		case O_COLOR: color = color_choice(optarg); break;
		case O_QUIET: o->quiet = 1; break;
		case O_VERBOSE: o->verbose = 1; break;
		case O_FROM: o->from = optarg; break;
		case O_ANALYSE: o->analyse = optarg; break;
		case O_NO_PICTURES: o->no_pictures = 1;
			first_given(&analysing, "--no-pictures");
			break;
		case O_SCAN:
			if (o->scan_name)
				die_usage("--parameter-scan is given twice (one NAME per study)");
			if (optind >= argc)
				die_usage("--parameter-scan needs NAME and LIST: -P rows 1000,10000");
			if (!*optarg || strpbrk(optarg, "{}/= "))
				die_usage("--parameter-scan: NAME '%s' is not a plain word", optarg);
			o->scan_name = optarg;
			split_list(&o->scan, argv[optind++]);
			check_scan_values(o->scan_name, &o->scan);
			break;
		default: {
			const struct pb_opt *r = &run_opts[opt - O_PASS];

			if (is_refused(r->name))
				die_usage("--%s is pb-compare's to set (it plans from --budget): "
				            "leave it out, or use pb-run", r->name);
			/* what pb-run would refuse, before anything runs (a value
			 * with {NAME} of a scan is pb-run's to check) */
			if (optarg && r->check && !strchr(optarg, '{'))
				r->check(r->name, optarg);
			strv_addf(&o->pass, "--%s", r->name);
			if (optarg)
				strv_add(&o->pass, optarg);
			if (optarg && strcmp(r->name, "pg") == 0)
				conninfo_scrub(optarg);   /* pb-run has the copy; ps shows no password */
		}
		}
	}
	o->color = color < 0 ? color_choice("auto") : color;
	if (o->budget_ns <= 0)
		die_usage("--budget must be above 0");
	/* refused here, not by pb-run after the probe and the pilot spent theirs */
	if (o->budget_ns > BUDGET_MOST_NS)
		die_usage("--budget is at most 1000000s (11.6 days), not '%s'", budget_arg);
	if (o->seq_g && o->sequence == SEQ_KIND_MEDIAN)
		die_usage("--seq-g is the t sequence's; the median sequence has no g");
	if (o->min_effect > 0 && o->seq_g)
		die_usage("--min-effect tunes the t sequence's g, which --seq-g gives: one or the other");
	if (o->min_effect > 0 && o->sequence == SEQ_KIND_MEDIAN)
		die_usage("--min-effect tunes the t sequence's g; the median sequence has none");
	if (o->verbose && o->quiet)
		die_usage("--verbose says all and --quiet the answer alone: one or the other");
	if (o->tolerance > 0 && !isnan(o->threshold))
		die_usage("--tolerance and --threshold each ask the study's question: one or the other");
	if (!isnan(o->threshold) && !(o->threshold > 0 && isfinite(o->threshold)))
		die_usage("--threshold is a ratio A/B above 0, not '%g'", o->threshold);
	if (!isnan(o->fail_if_slower) && !(o->fail_if_slower > 0 && isfinite(o->fail_if_slower)))
		die_usage("--fail-if-slower is a ratio above 0 (1.05: 5 %% slower)");
	o->cmds = argv + optind;
	o->ncmds = argc - optind;
	check_duet(o);
	if (o->from && (o->ncmds || o->pass.n || o->scan_name || o->analyse))
		die_usage("--from DIR reads a study made before: no commands, pb-run options "
		          "or --analyse");
	if (o->from && (making || analysing))
		die_usage("--from DIR reads a study as it was analysed: %s does not apply "
		          "(--analyse DIR analyses it again)", making ? making : analysing);
	if (o->analyse && (o->ncmds || o->pass.n || o->scan_name || making))
		die_usage("--analyse DIR analyses the raw.tsv there: %s does not apply",
		          making ? making : o->ncmds ? "a command" : o->scan_name ?
		          "--parameter-scan" : "a pb-run option");
	if (o->bisect && isnan(o->fail_if_slower) && !(o->tolerance > 0))
		die_usage("--bisect needs the gate's ratio: --fail-if-slower R (1.02: 2 %% slower is "
		          "bad)%s", o->from || o->analyse ? "" : ", or --tolerance PCT");
	if (o->bisect && o->scan_name)
		die_usage("--bisect answers one study, not a scan: leave out --parameter-scan");
	if (o->scan_name)
		check_scan_options(o);
	if (o->calibrate && o->ncmds == 0)
		die_usage("--calibrate runs A/A of the first command after --: with --worker or "
		          "--pg, run pb-sense --delays auto yourself");
}

static void w_scan_report(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;

	fprintf(f, "# pb-compare: a scan of %s\n\n", c->param);
	write_markdown_table(f, c->r, c->l, c->n, c->param);
	write_markdown_failed(f, c->r, c->l, c->n);
	fputs("\nEach value is a study of its own: its directory holds its streams and "
	      "report.md.\n", f);
}

/* --- exports ------------------------------------------------------------ */

static int exports_to_stdout(const struct compare_opts *o)
{
	return (o->json && !strcmp(o->json, "-")) || (o->md && !strcmp(o->md, "-")) ||
	       (o->csv && !strcmp(o->csv, "-")) || (o->report && !strcmp(o->report, "-")) ||
	       (o->junit && !strcmp(o->junit, "-"));
}

/* stdout's first write error (errno), or 0. EPIPE, a reader that went
 * away (| head), ends what we print there quietly; another (a full disk)
 * is said once. Neither stops the study, its files or the exports, nor
 * takes the gate's exit status (see final_status). */
static int stdout_error;

static void stdout_flush(void)
{
	if (stdout_error || (fflush(stdout) == 0 && !ferror(stdout)))
		return;
	stdout_error = errno ? errno : EIO;
	if (stdout_error != EPIPE)
		warn("write error on standard output: %s", strerror(stdout_error));
}

static int bisecting;   /* --bisect: an error is 255, not git bisect run's bad */

/* The exit status, with a write error on stdout (not EPIPE): 1 (255
 * under --bisect) where it would be 0; the gate's 3 and a signal's
 * 128 + N stand. */
static int final_status(int status)
{
	if (status == 0 && stdout_error && stdout_error != EPIPE)
		return bisecting ? EXIT_BISECT_ERROR : 1;
	return status;
}

/* Under --bisect, die's 1 would read as "bad": 255 (after a signal,
 * 128 + N, as lib/tools' hook has it). */
static void die_bisect(void)
{
	exit(tools_signal ? 128 + tools_signal : EXIT_BISECT_ERROR);
}

static void export_done(FILE *f, const char *path)
{
	if (f == stdout)
		stdout_flush();
	else
		close_out(f, path);
}

static void exports(const struct compare_opts *o, const struct study *const *r,
                    const struct live *const *l, size_t n, const char *param)
{
	FILE *f;

	if (o->json) {
		f = open_out(o->json);
		write_json(f, r, l, n, param);
		export_done(f, o->json);
	}
	if (o->md) {
		f = open_out(o->md);
		write_markdown_table(f, r, l, n, param);
		export_done(f, o->md);
	}
	if (o->csv) {
		f = open_out(o->csv);
		write_csv(f, r, l, n, param);
		export_done(f, o->csv);
	}
	if (o->junit) {
		f = open_out(o->junit);
		write_junit(f, r, l, n, param);
		export_done(f, o->junit);
	}
	if (o->report && n == 1) {
		f = open_out(o->report);
		write_report(f, r[0]);
		export_done(f, o->report);
	}
}

static void print_summary(const struct compare_opts *o, const struct study *r,
                          const struct live *l, const char *dir)
{
	struct style st;

	if (exports_to_stdout(o) || stdout_error)
		return;
	st.color = o->color;
	st.say = o->verbose ? SAY_ALL : o->quiet ? SAY_QUIET : SAY_ANSWER;
	st.dir = dir;
	st.plan_said = l->plan_shown;   /* said once: on the terminal before the runs */
	write_summary(stdout, r, l, &st);
	stdout_flush();
}

/* A step failed in the directory --from reads: a warning, and what it
 * would have made is missing from the summary, as from any directory. */
/* What a step of --from or --analyse that failed is told with: the
 * directory, and whether the study's own analysis failed (its CPU time,
 * memory and pictures may fail and leave the rest standing). */
struct made {
	const char *dir;
	int failed;
};

static void step_done(void *ctx, struct recipe *rc, const struct step *st,
                      const struct run_result *r)
{
	struct made *m = ctx;

	(void)rc;
	if (!r->status || tools_signal)
		return;
	warn("%s: %s could not be made: %s", m->dir, st->target, *r->msg ? r->msg : "it failed");
	m->failed |= !st->use && !st->picture;
}

/* A signal during the analysis: what is made stands, the rest is not
 * said as if it were whole. */
static void stop_if_interrupted(const char *dir)
{
	if (!tools_signal)
		return;
	warn("%s: the analysis was interrupted (%s): nothing is summarized", dir,
	     tools_signal_name());
	exit(128 + tools_signal);
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

static char *work_dir;   /* --from's private directory, removed at exit */

static void work_dir_remove(void)
{
	if (work_dir)
		private_dir_remove(work_dir);
	free(work_dir);
	work_dir = NULL;
}

/* dir read back as pb-compare leaves it: what its analysis lacks is made
 * first by the recipe (as pb-report does), in a private directory beside
 * links to dir's files, so that dir itself is only read. 1 when a step
 * of the study's analysis failed. */
static int study_read_completed(struct study *r, const char *dir)
{
	struct recipe rc;
	struct made m = { dir, 0 };
	char *raw = path_in(dir, "raw.tsv");
	int have_raw = is_regular_file(raw);

	free(raw);
	recipe_of_dir(&rc, dir);
	if (analysed(&rc, dir)) {
		study_read(r, dir);
		return 0;
	}
	if (!have_raw)
		die("%s: no raw.tsv (pb-run's) to make the rest of its analysis from", dir);
	work_dir = private_dir("pb-compare");
	atexit(work_dir_remove);
	link_regular_files(dir, work_dir);
	recipe_make(&rc, work_dir, RECIPE_STOP_AT_SIGNAL, step_done, &m);
	stop_if_interrupted(dir);
	study_read(r, work_dir);
	free(r->dir);
	r->dir = xstrdup(dir);
	work_dir_remove();
	return m.failed;
}

static int from_dir(const struct compare_opts *o)
{
	struct study r;
	struct live l = { NULL, 0, NAN, NAN, NAN, 0, NULL, NULL, 0 };
	const struct study *one[1] = { &r };
	const struct live *ol[1] = { &l };
	int failed, status;

	failed = study_read_completed(&r, o->from);
	l.fail_if_slower = o->fail_if_slower;
	l.bisect = o->bisect;
	l.exit_status = status = failed ? gate_error_status(&l) : study_exit_status(&r, &l);
	exports(o, one, ol, 1, NULL);
	print_summary(o, &r, &l, NULL);
	study_free(&r);
	return status;
}

/* --analyse DIR: DIR's raw.tsv (pb-run's) analysed in DIR as a study of
 * pb-compare is, every file of the recipe made again, and the Makefile,
 * report.md, summary.txt and compare.json written beside it. */
static int analyse_dir(const struct compare_opts *o)
{
	struct recipe rc;
	struct study r;
	struct live l = { NULL, 0, NAN, NAN, NAN, 0, NULL, NULL, 0 };
	const struct study *one[1] = { &r };
	const struct live *ol[1] = { &l };
	struct summary_ctx sc = { &r, &l };
	struct json_ctx jc = { one, ol, 1, NULL };
	struct made m = { o->analyse, 0 };
	char *raw = path_in(o->analyse, "raw.tsv");

	if (!is_regular_file(raw))
		die("%s: no raw.tsv to analyse (pb-run writes one)", o->analyse);
	free(raw);
	recipe_of_dir(&rc, o->analyse);
	rc.stat = o->stat ? o->stat : rc.stat;
	rc.level = o->level;
	rc.threshold = isnan(o->threshold) ? rc.threshold : o->threshold;
	rc.pictures = !o->no_pictures;
	recipe_make(&rc, o->analyse, RECIPE_ALL | RECIPE_STOP_AT_SIGNAL, step_done, &m);
	stop_if_interrupted(o->analyse);
	write_in(o->analyse, "Makefile", w_makefile, &rc);
	study_read(&r, o->analyse);
	write_in(o->analyse, "report.md", w_report, &r);
	l.fail_if_slower = o->fail_if_slower;
	l.bisect = o->bisect;
	l.exit_status = m.failed ? gate_error_status(&l) : study_exit_status(&r, &l);
	write_in(o->analyse, "summary.txt", w_summary, &sc);
	write_in(o->analyse, "compare.json", w_json, &jc);
	exports(o, one, ol, 1, NULL);
	print_summary(o, &r, &l, o->analyse);
	study_free(&r);
	return l.exit_status;
}

static int interrupted_status(void)
{
	return tools_signal ? 128 + tools_signal : 0;
}

static int one_study(const struct compare_opts *o)
{
	struct conduct s;
	struct study r;
	const struct study *one[1] = { &r };
	const struct live *ol[1];
	int status;

	conduct_init(&s, o, conduct_make_dir(o->dir), NULL, NULL);
	conduct_run(&s, &r);
	ol[0] = &s.live;
	exports(o, one, ol, 1, NULL);   /* first: a summary cut short loses nothing */
	print_summary(o, &r, &s.live, s.dir);
	status = s.live.exit_status;
	study_free(&r);
	conduct_done(&s);
	return status;
}

static void w_scan_summary(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;
	const struct style plain = { 0, SAY_ALL, NULL, 0 };
	size_t i;

	for (i = 0; i < c->n; i++) {
		write_summary(f, c->r[i], c->l[i], &plain);
		fputs("\n", f);
	}
	write_scan_table(f, c->r, c->l, c->n, c->param, &plain);
}

static jmp_buf study_gone;
static void (*die_before_scan)(void);   /* lib/tools': 128 + N after a signal */

/* A study that died goes back to the scan, unless a signal ended it:
 * then pb-compare ends as lib/tools' hook would have it. */
static void study_gone_back(void)
{
	if (tools_signal && die_before_scan)
		die_before_scan();
	longjmp(study_gone, 1);
}

/* One study of a scan. One that cannot be made (its directory, its probe
 * or pilot failed: conduct's die) has said why in its line; it is kept
 * as a study that failed, with nothing measured, and the scan goes on. 1
 * when it failed. */
static int scan_study(struct conduct *s, struct study *r)
{
	memset(r, 0, sizeof *r);
	tools_forward(1);   /* the study before ended with its analysis */
	die_before_scan = pb_die_hook;
	if (setjmp(study_gone)) {
		pb_die_hook = die_before_scan;
		study_free(r);
		r->dir = xstrdup(s->dir);
		r->failed = xstrdup(pb_last_message());
		r->level = 0.95;
		r->stat = xstrdup("median");
		r->threshold = r->maxrss_floor_kib = NAN;
		return 1;
	}
	pb_die_hook = study_gone_back;
	conduct_run(s, r);
	pb_die_hook = die_before_scan;
	return 0;
}

static int scan(const struct compare_opts *o)
{
	char *top = conduct_make_dir(o->dir);
	size_t n = o->scan.n, i, done = 0;
	struct conduct *s = xmalloc(n * sizeof *s);
	struct study *r = xmalloc(n * sizeof *r);
	const struct study **rp = xmalloc(n * sizeof *rp);
	const struct live **lp = xmalloc(n * sizeof *lp);
	struct json_ctx jc;
	int status = 0;

	for (i = 0; i < n && !tools_signal; i++) {
		char *sub = xmalloc(strlen(top) + strlen(o->scan_name) + strlen(o->scan.v[i]) + 3);

		sprintf(sub, "%s/%s=%s", top, o->scan_name, o->scan.v[i]);
		conduct_init(&s[i], o, conduct_make_dir(sub), o->scan_name, o->scan.v[i]);
		free(sub);
		s[i].live.value = xmalloc(strlen(o->scan_name) + strlen(o->scan.v[i]) + 2);
		sprintf(s[i].live.value, "%s=%s", o->scan_name, o->scan.v[i]);
		if (scan_study(&s[i], &r[i])) {   /* it died before its end: its status */
			s[i].failed = 1;
			s[i].live.signal_name = tools_signal_name();
			s[i].live.exit_status = tools_signal ? 128 + tools_signal : 1;
		}
		/* a study that could not be made has no directory to point at */
		print_summary(o, &r[i], &s[i].live, r[i].narms ? s[i].dir : NULL);
		if (!exports_to_stdout(o) && !stdout_error)
			putchar('\n');
		rp[i] = &r[i];
		lp[i] = &s[i].live;
		if (s[i].live.exit_status > status)   /* as compare.json's: the largest */
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
	if (!exports_to_stdout(o) && !stdout_error) {
		struct style st = { o->color, SAY_ANSWER, NULL, 0 };

		write_scan_table(stdout, rp, lp, done, o->scan_name, &st);
		fputs("\nscan: ", stdout), put_safe_text(stdout, top), fputs("\n", stdout);
	}
	stdout_flush();
	for (i = 0; i < done; i++) {
		study_free(&r[i]);
		conduct_done(&s[i]);
	}
	free(s), free(r), free(rp), free(lp), free(top);
	return interrupted_status() ? interrupted_status() : status;
}

/* Whether --bisect (or a prefix of it that no other option has) comes
 * before the commands: its errors exit 255 from the first. */
static int asks_bisect(char **argv)
{
	for (argv++; *argv && strcmp(*argv, "--") != 0; argv++)
		if (strlen(*argv) >= 5 && strncmp(*argv, "--bisect", strlen(*argv)) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct compare_opts o;
	int status;

	pb_init("pb-compare");
	tools_init(argv[0]);
	/* a write to a reader gone is EPIPE (stdout_flush), not our death:
	 * the exports and the gate's status outlive | head */
	signal(SIGPIPE, SIG_IGN);
	if (asks_bisect(argv))   /* before the refusal of a closed stdout */
		bisecting = 1, pb_die_hook = die_bisect;
	if (std_fds_fill())
		die("standard output is closed: the summary has nowhere to go (redirect it: "
		    ">/dev/null, or > FILE)");
	parse_args(argc, argv, &o);
	if (o.from)
		return final_status(from_dir(&o));
	if (o.analyse)
		return final_status(analyse_dir(&o));
	if (o.ncmds == 0 && !o.pass.n)
		die_usage("nothing to compare: give the commands after --, or --worker CMD, "
		            "or --pg CONNINFO --sql-a SQL --sql-b SQL");
	status = o.scan_name ? scan(&o) : one_study(&o);
	strv_free(&o.pass);
	strv_free(&o.scan);
	return final_status(status);
}

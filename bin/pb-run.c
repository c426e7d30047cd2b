/* pb-run: run A and B (or k arms, A to Z) as randomized pairs (blocks of
 * one observation per arm) inside fresh runs, after warm-up, with an
 * optional busy-wait delay of known size on one arm; write the raw pb
 * stream, one flushed pair at a time. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "conninfo.h"
#include "duet.h"
#include "err.h"
#include "files.h"
#include "machine.h"
#include "num.h"
#include "opt.h"
#include "order.h"
#include "out.h"
#include "pb-run.h"
#include "proc.h"
#include "progress.h"
#include "runhead.h"
#include "rng.h"
#include "runopt.h"
#include "stream.h"
#include "study.h"

static const char usage[] =
	"usage: pb-run [options] -- CMD_A [CMD_B [CMD_C ...]]\n"
	"       pb-run [options] [--arms K] --worker CMD\n"
	"       pb-run [options] --pg CONNINFO --sql-a SQL [--sql-b SQL] [--sql C=SQL ...]\n"
	"Run A and B as pairs in random order inside fresh runs; write the raw\n"
	"pb stream (run pair phase arm pos delay_ns ns status spin_ns; in command\n"
	"mode user_ns sys_ns maxrss_kib too) to stdout.\n"
	"CMD_B omitted: A/A, the same command in both arms. Up to 26 commands:\n"
	"arms A to Z, each pair a block of one observation of every arm.\n";

static const char usage_tail[] =
	"Durations: 250us, 1.5ms, 2s, 10ns; a bare number is ns.\n";

/* "+": no reordering, so that a stray word (--delay 5 us -- CMD) is
 * caught after the options instead of being run as a command. The short
 * options are pb-compare's letters for the same options. */
static struct pb_cmd cmd = { usage, NULL, 21, usage_tail, 1 };

/* --env is pb-run's alone: not in lib/runopt's table, which pb-compare
 * and pb-sense pass through to a study. */
enum { OPT_ENV = 2000 };
static const struct pb_opt env_opt = {
	"env", OPT_ENV, 0, NULL, NULL, "print the machine's state (governor, boost, SMT,\n"
	"ASLR, isolated CPUs, load, CPU pressure) and what\nto do about each; alone, no study",
	NULL, 0
};

static const struct pb_opt *options(void)
{
	static struct pb_opt *o;
	size_t n = 0;

	while (run_opts[n].name)
		n++;
	o = xcalloc(n + 2, sizeof *o);
	memcpy(o, run_opts, n * sizeof *o);
	o[n] = env_opt;
	return o;
}

static const long COUNT_MAX = RUNOPT_COUNT_MAX;
static const char arm_letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* An SQL file is the value of one metadata line (key sql_a or sql_b):
 * read no more than that line can carry (/dev/zero is refused, not read
 * until memory runs out), and refuse one whose escapes make it too long. */
static char *read_sql_file(const char *path, const char *key)
{
	size_t limit = STREAM_LINE_MAX - out_meta_len(key, ""), len = 0, cap = 0, n;
	FILE *f = fopen(path, "r");
	char *buf = NULL;

	if (!f)
		die("%s:", path);
	while (len <= limit) {   /* at most limit + 1 bytes */
		size_t want = limit + 1 - len;

		xgrow(&buf, &cap, len + (want < 65536 ? want : 65536) + 1, 1);
		n = fread(buf + len, 1, cap - len - 1 < want ? cap - len - 1 : want, f);
		if (n == 0)
			break;
		len += n;
	}
	xgrow(&buf, &cap, len + 1, 1);
	if (ferror(f))
		die("%s:", path);
	fclose(f);
	if (len > limit)
		die("%s: more than %zu bytes: an SQL file must fit in one metadata line "
		    "of the stream (%u bytes)", path, limit, STREAM_LINE_MAX);
	buf[len] = '\0';
	if (strlen(buf) != len)
		die("%s: NUL byte in SQL file", path);
	if (out_meta_len(key, buf) > STREAM_LINE_MAX)
		die("%s: %zu bytes, %zu once escaped as '# %s:': more than one metadata "
		    "line of the stream carries (%u bytes)", path, len,
		    out_meta_len(key, buf), key, STREAM_LINE_MAX);
	return buf;
}

static void open_output(struct config *c)
{
	c->out_fd = c->err_fd = -1;
	if (!c->output)
		return;
	if (strcmp(c->output, "inherit") == 0) {
		c->out_fd = c->err_fd = 2;
		return;
	}
	c->out_fd = open(c->output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	if (c->out_fd < 0)
		die("%s:", c->output);
	c->err_fd = c->out_fd;
}

static int seed_given, order_given;
/* --cpu: the list asked for, and the set pinned to (for the metadata). */
static const char *cpu_list;
static char cpu_affinity[512];

/* A copy for libpq; the argument itself loses its password at once, so
 * that ps and /proc/PID/cmdline show it no longer (the provenance line,
 * made from argv, shows the same). Only the last --pg counts. */
static const char *keep_conninfo(char *arg)
{
	static char *copy;

	free(copy);
	copy = xstrdup(arg);
	conninfo_scrub(arg);
	return copy;
}

/* How each arm's SQL was given: --sql-a and its kin may be given again,
 * the last counts (as they always have); --sql X= names an arm once. */
enum { SQL_NONE, SQL_NAMED, SQL_LETTERED };
static int sql_given[ORDER_ARMS_MAX];
static int arms_given;

/* The script of an arm: an argument, or a file's text (freed when a later
 * option replaces it). */
static const char *keep_sql(int arm, const char *arg, char *file_text, int how)
{
	static char *text[ORDER_ARMS_MAX];

	if (sql_given[arm] == SQL_LETTERED || (how == SQL_LETTERED && sql_given[arm]))
		die_usage("the SQL of arm %c is given twice (by --sql %c=..., --sql-file %c=...%s%s): "
		          "give each arm one", arm_letters[arm], arm_letters[arm], arm_letters[arm],
		          arm == 0 ? " or --sql-a" : arm == 1 ? " or --sql-b" : "",
		          arm < 2 ? "[-file]" : "");
	sql_given[arm] = how;
	free(text[arm]);
	text[arm] = file_text;
	return file_text ? file_text : arg;
}

/* --sql X=SQL and --sql-file X=FILE: the arm, and the value after '='. */
static int arm_and_value(const char *name, const char *val, const char **rest)
{
	if (val[0] < 'A' || val[0] > 'Z' || val[1] != '=')
		die_usage("--%s wants an arm's letter, '=' and the %s (such as C=%s), not '%.40s'",
		          name, strcmp(name, "sql") ? "file" : "SQL",
		          strcmp(name, "sql") ? "c.sql" : "'select 1'", val);
	*rest = val + 2;
	return val[0] - 'A';
}

static void sql_lettered(struct config *c, const char *name, const char *val)
{
	const char *rest;
	int arm = arm_and_value(name, val, &rest);
	char key[8];

	if (strcmp(name, "sql") == 0) {
		c->sql[arm] = keep_sql(arm, rest, NULL, SQL_LETTERED);
		return;
	}
	study_arm_key(key, "sql_", arm);
	c->sql[arm] = keep_sql(arm, NULL, read_sql_file(rest, key), SQL_LETTERED);
}

static void parse_option(struct config *c, int opt)
{
	switch (opt) {
	case RUNOPT_RUNS: c->runs = opt_count("runs", optarg, COUNT_MAX); break;
	case RUNOPT_PAIRS: c->pairs = opt_count("pairs", optarg, COUNT_MAX); break;
	case RUNOPT_WARMUP: c->warmup = opt_nonneg("warmup", optarg, COUNT_MAX); break;
	case RUNOPT_ORDER:
		c->order = opt_choice("order", optarg, order_names, NORDERS);
		order_given = 1;
		break;
	case RUNOPT_SEED: c->seed = opt_seed("seed", optarg); seed_given = 1; break;
	case RUNOPT_DELAY: c->delay_ns = opt_dur("delay", optarg); break;
	case RUNOPT_DELAY_ARM:
		c->delay_arm = runopt_arm("delay-arm", optarg);
		break;
	case RUNOPT_REFERENCE:
		c->reference = runopt_arm("reference", optarg);
		break;
	case RUNOPT_ARMS:
		c->arms = runopt_arms("arms", optarg);
		arms_given = 1;
		break;
	case RUNOPT_FIRST_RUN: c->first_run = opt_count("first-run", optarg, COUNT_MAX); break;
	case RUNOPT_NO_SHELL: c->no_shell = 1; break;
	case RUNOPT_WORKER: c->worker = optarg; break;
	case RUNOPT_SETUP: c->setup = optarg; break;
	case RUNOPT_PREPARE: c->prepare = optarg; break;
	case RUNOPT_CLEANUP: c->cleanup = optarg; break;
	case RUNOPT_OUTPUT: c->output = optarg; break;
	case RUNOPT_TIMEOUT:
		c->timeout_ns = opt_dur("timeout", optarg);
		if (c->timeout_ns <= 0)
			die_usage("--timeout must be more than 0");
		break;
	case RUNOPT_MAX_TIME:
		c->max_time_ns = opt_dur("max-time", optarg);
		if (c->max_time_ns <= 0)
			die_usage("--max-time must be more than 0");
		break;
	case RUNOPT_IGNORE: c->ignore_failure = 1; break;
	case RUNOPT_QUIET: c->quiet = 1; break;
	case RUNOPT_PG: c->pg = keep_conninfo(optarg); break;
	case RUNOPT_SQL_A: c->sql[0] = keep_sql(0, optarg, NULL, SQL_NAMED); break;
	case RUNOPT_SQL_B: c->sql[1] = keep_sql(1, optarg, NULL, SQL_NAMED); break;
	case RUNOPT_SQL_A_FILE:
		c->sql[0] = keep_sql(0, NULL, read_sql_file(optarg, "sql_a"), SQL_NAMED);
		break;
	case RUNOPT_SQL_B_FILE:
		c->sql[1] = keep_sql(1, NULL, read_sql_file(optarg, "sql_b"), SQL_NAMED);
		break;
	case RUNOPT_SQL: sql_lettered(c, "sql", optarg); break;
	case RUNOPT_SQL_FILE: sql_lettered(c, "sql-file", optarg); break;
	case RUNOPT_ROLLBACK: c->rollback = 1; break;
	case RUNOPT_SETUP_SQL: c->setup_sql = optarg; break;
	case RUNOPT_CPU: cpu_list = optarg; break;
	case RUNOPT_DUET: c->duet = 1; break;
	case RUNOPT_RESOURCES: c->tree = opt_choice("resources", optarg, runopt_resources, 2); break;
	case RUNOPT_UNTIL: seq_rule_parse(&c->until, "until", optarg); break;
	case RUNOPT_THRESHOLD:
		c->until.threshold = opt_num("threshold", optarg);
		if (!(c->until.threshold > 0))
			die_usage("--threshold is a ratio A/B: it must be > 0, not '%s'", optarg);
		c->threshold_given = 1;
		break;
	case RUNOPT_TOLERANCE: c->until.tolerance = opt_pct("tolerance", optarg); break;
	case RUNOPT_MIN_RUNS: c->until.min_runs = opt_count("min-runs", optarg, COUNT_MAX); break;
	case RUNOPT_STAT: run_stat_parse(&c->until_stat, "stat", optarg); break;
	case RUNOPT_LEVEL: c->until.level = opt_level("level", optarg); break;
	case RUNOPT_SEQ_G:
		c->until.g = runopt_seq_g("seq-g", optarg);
		break;
	case RUNOPT_SEQUENCE: c->until.kind = seq_kind_parse("sequence", optarg); break;
	case RUNOPT_SEQ_G_NOTE:
		if (!*optarg)
			die_usage("--seq-g-note wants a text: why the g is what it is");
		c->seq_g_note = optarg;
		break;
	}
}

/* --until and the options that go with it: each only with it, and a
 * threshold with the threshold rule. */
static void check_until(const struct config *c, int stat_given, int level_given,
                        int g_given, int min_given, int kind_given)
{
	long first;
	char g[NUM_BUFSZ], level[NUM_BUFSZ];

	const char *lone = stat_given ? "--stat" : level_given ? "--level" : g_given ? "--seq-g"
	                 : min_given ? "--min-runs" : c->threshold_given ? "--threshold"
	                 : kind_given ? "--sequence" : c->seq_g_note ? "--seq-g-note"
	                 : c->until.tolerance > 0 ? "--tolerance" : NULL;

	if (c->until.rule == SEQ_NONE) {
		if (lone)
			die_usage("%s goes with --until (a study that stops when answered)", lone);
		return;
	}
	if (c->until.rule == SEQ_THRESHOLD && !c->threshold_given)
		die_usage("--until threshold needs --threshold T (a ratio A/B)");
	if (c->until.rule != SEQ_THRESHOLD && c->threshold_given)
		die_usage("--threshold goes with --until threshold");
	if (c->until.rule == SEQ_TOLERANCE && !(c->until.tolerance > 0))
		die_usage("--until tolerance needs --tolerance PCT (a margin in %%, such as 2)");
	if (c->until.rule != SEQ_TOLERANCE && c->until.tolerance > 0)
		die_usage("--tolerance goes with --until tolerance");
	if (c->until.min_runs < 2)
		die_usage("--min-runs must be at least 2: one run has no spread");
	if (c->until.min_runs > c->runs)
		die_usage(min_given ? "--min-runs %ld is more than --runs %ld (the most runs)"
		                    : "--until stops from run %ld on: --runs %ld leaves it no choice",
		          c->until.min_runs, c->runs);
	/* g and the level as given, every digit: %g made 0.99999999999 "1" */
	num_format(g, c->until.g);
	num_format(level, c->until.level);
	if (c->seq_g_note && c->until.kind == SEQ_KIND_MEDIAN)
		die_usage("--seq-g-note says why the t sequence's g is what it is; the median "
		          "sequence has no g");
	if (c->seq_g_note && !g_given)
		die_usage("--seq-g-note says why --seq-g is what it is: give --seq-g too");
	if (c->until.kind == SEQ_KIND_MEDIAN) {
		if (g_given)
			die_usage("--seq-g is the t sequence's; the median sequence has no g");
		first = seq_kind_first_bounded(SEQ_KIND_MEDIAN, c->until.g, c->until.level);
		if (first > c->runs)
			die_usage("--until: the median sequence at level %s is bounded from run %ld on, "
			          "beyond --runs %ld: give more runs", level, first, c->runs);
		return;
	}
	first = seq_first_bounded(c->until.g, c->until.level);
	if (first < 0)
		die_usage("--until: with --seq-g %s the sequence is never bounded: give a larger g", g);
	if (first > c->runs)
		die_usage("--until: with g %s at level %s the sequence is bounded from run %ld on, "
		          "beyond --runs %ld: give more runs or a larger --seq-g", g, level, first,
		          c->runs);
}


/* pg mode: the arms are A up to the last letter given SQL, with none
 * left out between; SQL for A only is A/A. */
static void sql_arms(struct config *c)
{
	int last = 0, i;

	for (i = 0; i < ORDER_ARMS_MAX; i++)
		if (c->sql[i])
			last = i;
	for (i = 0; i < last; i++)
		if (!c->sql[i])
			die_usage("--sql %c=... but no SQL for arm %c: the arms are A up to the "
			          "last letter given, with none left out", arm_letters[last],
			          arm_letters[i]);
	c->aa = last == 0;
	if (c->aa)
		c->sql[1] = c->sql[0];
	c->arms = last < 1 ? 2 : last + 1;
}

/* An arm named by an option must be one of the study's. */
static void check_arm(const struct config *c, const char *name, int arm)
{
	if (arm >= c->arms)
		die_usage("--%s '%c': there is no arm %c; the study has arms A %s %c%s", name,
		          arm_letters[arm], arm_letters[arm], c->arms == 2 ? "and" : "to",
		          arm_letters[c->arms - 1], c->worker ? " (--arms K for more)" : "");
}
/* --duet: two arms, a command or a worker, and no order to choose. */
static void check_duet(const struct config *c)
{
	if (!c->duet)
		return;
	if (c->pg)
		die_usage("--duet runs each arm in a process of its own on its CPU; with --pg the "
		          "work is the server's, not on a CPU pb-run chooses");
	if (c->arms > 2)
		die_usage("--duet runs two arms at once, on two CPUs: not %d", c->arms);
	if (order_given)
		die_usage("--duet starts A and B at the same moment: no --order to choose");
	if (c->tree)
		die_usage("--duet and --resources tree do not go together yet: each observation's "
		          "cgroups are made one at a time");
}

static void check_mode(struct config *c, int nargs, char **args)
{
	int modes = (nargs > 0) + (c->worker != NULL) + (c->pg != NULL), i, any_sql = 0;

	for (i = 0; i < ORDER_ARMS_MAX; i++)
		any_sql |= c->sql[i] != NULL;
	if (modes == 0)
		die_usage("no command: give -- CMD_A [CMD_B ...], --worker CMD or --pg");
	if (modes > 1)
		die_usage("choose one of: commands after --, --worker, --pg");
	if (nargs > ORDER_ARMS_MAX)
		die_usage("at most %d commands (arms A to Z); quote each command", ORDER_ARMS_MAX);
	if (!c->pg && (any_sql || c->rollback || c->setup_sql))
		die_usage("--sql-a, --sql-b, --sql, --rollback and --setup-sql need --pg");
	if (c->pg && !c->sql[0])
		die_usage("--pg needs --sql-a SQL (or --sql-a-file)");
	if (c->pg && c->no_shell)
		die_usage("--no-shell has no meaning with --pg");
	if (c->tree && (c->worker || c->pg))
		die_usage("--resources tree measures each observation's processes: a command's, "
		          "not a %s's (command mode only)", c->worker ? "worker request" : "query");
	if (arms_given && !c->worker)
		die_usage("--arms goes with --worker; %s", c->pg ? "with --pg the arms are those "
		          "given SQL" : "the commands after -- are the arms");
	if (nargs > 0) {
		for (i = 0; i < nargs; i++)
			if (!*(c->cmd[i] = args[i]))
				die_usage("empty command");
		c->aa = nargs == 1;
		if (c->aa)
			c->cmd[1] = args[0];
		c->arms = c->aa ? 2 : nargs;
	}
	if (c->pg)
		sql_arms(c);
	if (c->worker) {
		c->aa = 1;   /* the worker decides what A and B mean */
		if (!arms_given)
			c->arms = 2;
	}
	check_arm(c, "delay-arm", c->delay_arm);
	check_arm(c, "reference", c->reference);
	check_duet(c);
}

/* Every value pb-run writes as metadata, and the provenance line, must fit
 * in one line of the stream: refused up front, before anything runs. (SQL
 * files are checked as they are read, with their names; the conninfo by
 * the pg executor.) */
static void check_fits(const char *key, const char *val)
{
	if (val && out_meta_len(key, val) > STREAM_LINE_MAX)
		die("the value of '# %s:' is %zu bytes once escaped: more than one "
		    "metadata line of the stream carries (%u bytes)", key,
		    out_meta_len(key, val), STREAM_LINE_MAX);
}

static void check_metadata_fits(const struct config *c, int argc, char **argv)
{
	const char *key[] = { "worker", "setup", "prepare", "cleanup", "output" };
	const char *val[] = { c->worker, c->setup, c->prepare, c->cleanup, c->output };
	char arm_key[8];
	size_t i;
	int arm;

	for (arm = 0; arm < c->arms; arm++) {
		study_arm_key(arm_key, "cmd_", arm);
		check_fits(arm_key, c->cmd[arm]);
	}
	for (i = 0; i < LEN(key); i++)
		check_fits(key[i], val[i]);
	for (arm = 0; arm < c->arms; arm++) {
		study_arm_key(arm_key, "sql_", arm);
		check_fits(arm_key, c->sql[arm]);
	}
	check_fits("setup_sql", c->setup_sql);
	if (out_provenance_len(argc, argv) > STREAM_LINE_MAX)
		die("the command line is %zu bytes as the stream's first line (# pb-run: ...): "
		    "more than a line of the stream carries (%u bytes)",
		    out_provenance_len(argc, argv), STREAM_LINE_MAX);
}

static void parse_args(int argc, char **argv, struct config *c)
{
	int opt, stat_given = 0, level_given = 0, g_given = 0, min_given = 0, kind_given = 0;

	memset(c, 0, sizeof *c);
	c->runs = 10;
	c->pairs = 100;
	c->warmup = 10;
	c->first_run = 1;
	c->delay_arm = 1;
	c->until.g = SEQ_G_DEFAULT;
	c->until.level = 0.95;
	c->until.min_runs = 3;
	run_stat_parse(&c->until_stat, "stat", "median");
	cmd.opts = options();
	while ((opt = pb_getopt(argc, argv, &cmd)) != -1) {
		if (opt == OPT_ENV) {
			if (argc != 2)
				die_usage("--env prints the machine's state and runs no study: give it "
				          "alone (pb-run --env)");
			machine_env_out(argc, argv);
			flush_stdout_or_die();
			exit(0);
		}
		parse_option(c, opt);
		stat_given |= opt == RUNOPT_STAT, level_given |= opt == RUNOPT_LEVEL;
		g_given |= opt == RUNOPT_SEQ_G, min_given |= opt == RUNOPT_MIN_RUNS;
		kind_given |= opt == RUNOPT_SEQUENCE;
	}
	check_until(c, stat_given, level_given, g_given, min_given, kind_given);
	if (optind < argc && strcmp(argv[optind - 1], "--") != 0)
		die_usage("unexpected '%s': commands go after -- "
		          "(pb-run [options] -- CMD_A [CMD_B ...])", argv[optind]);
	check_mode(c, argc - optind, argv + optind);
	if (c->until.rule != SEQ_NONE && c->arms > 2)
		die_usage("--until follows one comparison: it takes two arms, not %d "
		          "(run the %d arms for a fixed number of runs)", c->arms, c->arms);
	if (c->until.rule != SEQ_NONE && c->reference != 0)
		die_usage("--until compares B with A: leave out --reference");
	if (c->first_run + c->runs - 1 > COUNT_MAX)
		die_usage("--first-run + --runs is beyond %ld", COUNT_MAX);
	if (!seed_given)
		c->seed = rng_seed_from_system();
	/* Two draws: a seed has 53 bits (it must survive a double). */
	c->study = rng_seed_from_system() << 11 ^ rng_seed_from_system();
	check_metadata_fits(c, argc, argv);
}

/* The head is written by lib/runhead.c, the study run by lib/runner.c,
 * which calls run_hook. */

/* Hooks: through /bin/sh, not timed, with PB_RUN, PB_PAIR, PB_ARM and
 * PB_PHASE in their environment. A failing hook stops the study. */

static void run_hook(struct runner *st, const char *name, const char *cmd,
                     const struct where *w)
{
	static char *argv[5] = { "/bin/sh", "-c", "--", NULL, NULL };   /* as commands */
	const struct config *c = st->c;
	char vars[4][64], *add[4], **env, msg[512];
	struct proc_spec spec;
	struct proc_io io = { -1, c->out_fd >= 0 ? c->out_fd : 2, c->err_fd >= 0 ? c->err_fd : 2, -1 };
	size_t i;
	int ws;
	pid_t pid;

	snprintf(vars[0], sizeof vars[0], "PB_RUN=%ld", w->run);
	snprintf(vars[1], sizeof vars[1], "PB_PAIR=%ld", w->pair);
	snprintf(vars[2], sizeof vars[2], "PB_ARM=%.*s", w->arm < 0 ? 0 : 1,
	         w->arm < 0 ? "" : arm_letters + w->arm);
	snprintf(vars[3], sizeof vars[3], "PB_PHASE=%s", w->phase);
	for (i = 0; i < 4; i++)
		add[i] = vars[i];
	env = proc_environ_with(add, 4);
	argv[3] = (char *)cmd;
	io.in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	proc_prepare(&spec, argv, 0, &io, env);
	pid = proc_start(&spec);
	proc_unprepare(&spec);
	close(io.in);
	free(env);
	if (pid < 0) {
		snprintf(msg, sizeof msg, "--%s: cannot start /bin/sh: %s", name, strerror(errno));
		runner_stop(st, w, msg);
	}
	if (proc_wait(pid, 0, &ws) == PROC_INTERRUPTED)
		runner_interrupted(st, w);
	if (proc_status_code(ws) != 0) {
		snprintf(msg, sizeof msg, "--%s hook failed with status %lld: %.400s", name,
		         (long long)proc_status_code(ws), cmd);
		runner_stop(st, w, msg);
	}
}

/* --resources tree: a place for each quantity, or exit 2 before
 * anything runs; what is made is removed at exit, however it comes. */
static void tree_init(void)
{
	char why[8192];

	if (cgroup_tree_init(why, sizeof why) < 0) {
		fprintf(stderr, "pb-run: %s\n", why);
		exit(EXIT_USAGE);
	}
	atexit(cgroup_tree_cleanup);
}

/* --duet: the first two CPUs pb-run may use (after --cpu), or exit 2. */
static void duet_init(struct config *c)
{
	if (duet_cpus(c->duet_cpu) < 2)
		die_usage("--duet needs two CPUs, and %s: it runs A and B at once, each on its own",
		          cpu_list ? "--cpu leaves pb-run one" : "this process may use only one");
}

int main(int argc, char **argv)
{
	static struct config c;
	static struct executor ex;   /* static: its state lives to exit */
	struct runner st;
	int64_t start = clock_ns();

	pb_init("pb-run");
	out_init();
	if (std_fds_fill())
		die("standard output is closed: the stream has nowhere to go "
		    "(redirect it to a file: > FILE)");
	parse_args(argc, argv, &c);
	if (cpu_list)   /* before anything starts: children inherit it */
		run_pin_cpus(cpu_list, cpu_affinity, sizeof cpu_affinity);
	if (c.duet)
		duet_init(&c);
	if (c.tree)
		tree_init();
	open_output(&c);
	proc_signals_init();
	atexit(proc_kill_live);   /* die() in the middle of a run; before the cgroups' end */
	memset(&ex, 0, sizeof ex);
	if (c.pg)
		exec_pg_init(&ex, &c);
	else if (c.worker)
		exec_worker_init(&ex, &c);
	else
		exec_command_init(&ex, &c);
	memset(&st, 0, sizeof st);
	st.c = &c;
	st.ex = &ex;
	st.hook = run_hook;
	st.duet = duet_observe;
	progress_init(&st.prog, !c.quiet && isatty(2), 78);
	st.observations = c.runs * (c.pairs + c.warmup) * c.arms;
	runhead_out(argc, argv, &c, &ex, cpu_list, cpu_affinity);
	runner_study(&st, start);
	flush_stdout_or_die();
	return 0;
}

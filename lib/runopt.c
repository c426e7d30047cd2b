#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "opt.h"
#include "num.h"
#include "order.h"
#include "runopt.h"
#include "seq.h"
#include "runstat.h"

/* The checks pb-run's own parsing makes, with its words. */
static void check_order(const char *name, const char *val)
{
	opt_choice(name, val, order_names, NORDERS);
}

static void check_seed(const char *name, const char *val)
{
	opt_seed(name, val);
}

static void check_dur(const char *name, const char *val)
{
	opt_dur(name, val);
}

static void check_dur_above_0(const char *name, const char *val)
{
	if (opt_dur(name, val) <= 0)
		die_usage("--%s must be more than 0", name);
}

static void check_stat(const char *name, const char *val)
{
	struct run_stat st;

	run_stat_parse(&st, name, val);
}

static void check_pct(const char *name, const char *val)
{
	opt_pct(name, val);
}

static void check_level(const char *name, const char *val)
{
	opt_level(name, val);
}

int runopt_arm(const char *name, const char *val)
{
	if (val[0] < 'A' || val[0] > 'Z' || val[1])
		die_usage("--%s is an arm's letter, A to Z, not '%s'", name, val);
	return val[0] - 'A';
}

int runopt_arms(const char *name, const char *val)
{
	int64_t k;

	if (num_parse_i64(val, &k) < 0 || k < 2 || k > ORDER_ARMS_MAX)
		die_usage("--%s is 2 to %d (arms A to Z), not '%s'", name, ORDER_ARMS_MAX, val);
	return (int)k;
}

double runopt_seq_g(const char *name, const char *val)
{
	double g = opt_num(name, val);

	if (!(g > 0) || g > 1e12)
		die_usage("--%s wants a number above 0 (and up to 1e12), not '%s'", name, val);
	return g;
}

static void check_arm(const char *name, const char *val)
{
	runopt_arm(name, val);
}

static void check_arms(const char *name, const char *val)
{
	runopt_arms(name, val);
}

static void check_seq_g(const char *name, const char *val)
{
	runopt_seq_g(name, val);
}

static void check_sequence(const char *name, const char *val)
{
	seq_kind_parse(name, val);
}

const char *const runopt_resources[] = { "process", "tree" };

static void check_resources(const char *name, const char *val)
{
	opt_choice(name, val, runopt_resources, 2);
}

#define ARMS "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z"

/* name, key, letter, arg, choices, help, check, flags; in the order
 * pb-run has always had them (pb-sense lists an ambiguous abbreviation's
 * options in it). */
const struct pb_opt run_opts[] = {
	{ "runs", RUNOPT_RUNS, 'r', "R", NULL, "runs (default 10)", NULL, 0 },
	{ "pairs", RUNOPT_PAIRS, 'p', "P", NULL, "measured pairs per run (default 100)", NULL, 0 },
	{ "warmup", RUNOPT_WARMUP, 'w', "W", NULL, "warm-up pairs per run, not analysed (default 10)",
	  NULL, 0 },
	{ "order", RUNOPT_ORDER, 0, "O", "random alternate blocked",
	  "random (default), alternate or blocked", check_order, 0 },
	{ "seed", RUNOPT_SEED, 0, "N", NULL, "seed of the order (default: drawn, and recorded)",
	  check_seed, 0 },
	{ "delay", RUNOPT_DELAY, 0, "DUR", NULL, "busy-wait DUR inside the timed window of one arm",
	  check_dur, 0 },
	{ "delay-arm", RUNOPT_DELAY_ARM, 0, "X", ARMS, "the arm that gets the delay (default B)",
	  check_arm, 0 },
	{ "reference", RUNOPT_REFERENCE, 0, "X", ARMS,
	  "the arm the others are compared with (default A)", check_arm, 0 },
	{ "first-run", RUNOPT_FIRST_RUN, 0, "K", NULL, "number runs from K (shards of one study)",
	  NULL, 0 },
	{ "no-shell", RUNOPT_NO_SHELL, 0, NULL, NULL, "exec the commands' words, no /bin/sh -c",
	  NULL, 0 },
	{ "worker", RUNOPT_WORKER, 0, "CMD", NULL, "one worker process per run, one request per\n"
	  "observation on its stdin (see pb-run(1))", NULL, 0 },
	{ "arms", RUNOPT_ARMS, 0, "K", NULL, "with --worker: the arms it serves, A to the K-th\n"
	  "letter (default 2)", check_arms, 0 },
	{ "setup", RUNOPT_SETUP, 0, "CMD", NULL, "before each run (not timed)", NULL, 0 },
	{ "prepare", RUNOPT_PREPARE, 0, "CMD", NULL, "before each observation (not timed)", NULL, 0 },
	{ "cleanup", RUNOPT_CLEANUP, 0, "CMD", NULL, "after each run (not timed)", NULL, 0 },
	{ "output", RUNOPT_OUTPUT, 0, "FILE|inherit", "inherit",
	  "where the commands' output goes (default\n/dev/null; inherit = pb-run's stderr)",
	  NULL, 0 },
	{ "timeout", RUNOPT_TIMEOUT, 0, "DUR", NULL,
	  "kill an observation that takes longer; a failure", check_dur_above_0, 0 },
	{ "max-time", RUNOPT_MAX_TIME, 0, "DUR", NULL,
	  "start no run that would end past DUR from the start,\nat the pace of the runs so far",
	  check_dur_above_0, 0 },
	{ "ignore-failure", RUNOPT_IGNORE, 0, NULL, NULL,
	  "record a failed observation's status and go on", NULL, 0 },
	{ "quiet", RUNOPT_QUIET, 0, NULL, NULL, "no progress on stderr", NULL, 0 },
	{ "cpu", RUNOPT_CPU, 0, "LIST", NULL,
	  "pin pb-run and what it starts to these CPUs (0,2-3;\nLinux)", NULL, 0 },
	{ "duet", RUNOPT_DUET, 0, NULL, NULL,
	  "each pair's A and B at the same moment, each pinned\n"
	  "to its own CPU (the first two of --cpu or of those\n"
	  "allowed; which arm gets which drawn per pair; Linux)", NULL, 0 },
	{ "resources", RUNOPT_RESOURCES, 0, "R", "process tree",
	  "process (default: wait4's columns) or tree: also\n"
	  "the whole tree's memory, CPU time and I/O from\n"
	  "cgroups of each observation's own (Linux, root)", check_resources, 0 },
	{ "pg", RUNOPT_PG, 0, "CONNINFO", NULL, NULL, NULL, 0 },
	{ "sql-a", RUNOPT_SQL_A, 0, "SQL", NULL, NULL, NULL, 0 },
	{ "sql-b", RUNOPT_SQL_B, 0, "SQL", NULL, NULL, NULL, 0 },
	{ "sql-a-file", RUNOPT_SQL_A_FILE, 0, "F", NULL, NULL, NULL, 0 },
	{ "sql-b-file", RUNOPT_SQL_B_FILE, 0, "F", NULL, NULL, NULL, 0 },
	{ "sql", RUNOPT_SQL, 0, "X=SQL", NULL, NULL, NULL, 0 },
	{ "sql-file", RUNOPT_SQL_FILE, 0, "X=F", NULL, NULL, NULL, 0 },
	{ "rollback", RUNOPT_ROLLBACK, 0, NULL, NULL, NULL, NULL, 0 },
	{ "setup-sql", RUNOPT_SETUP_SQL, 0, "SQL", NULL, "SQL mode, X any arm (pb-run(1))", NULL, 0 },
	{ "until", RUNOPT_UNTIL, 0, "RULE", "parity threshold tolerance halfwidth:0.01",
	  "after each run, stop as soon as the anytime-valid\n"
	  "confidence sequence of the time ratio answers RULE:\n"
	  "parity, threshold (--threshold T), tolerance\n"
	  "(--tolerance PCT) or halfwidth:H; --runs is then\n"
	  "the most runs", NULL, 0 },
	{ "threshold", RUNOPT_THRESHOLD, 't', "T", NULL, "the ratio A/B of --until threshold",
	  NULL, 0 },
	{ "tolerance", RUNOPT_TOLERANCE, 0, "PCT", NULL,
	  "the margin of --until tolerance, in % (2 or 2%):\n"
	  "stop when B is within PCT% of A, or beyond it", check_pct, 0 },
	{ "min-runs", RUNOPT_MIN_RUNS, 0, "M", NULL, "with --until: not before M runs (default 3)",
	  NULL, 0 },
	{ "stat", RUNOPT_STAT, 0, "S", "median mean min lr-median p90 p99",
	  "with --until: each run's statistic, as pb-pair's\nby-run statistic (default median)",
	  check_stat, 0 },
	{ "level", RUNOPT_LEVEL, 0, "L", NULL, NULL, check_level, 0 },
	{ "seq-g", RUNOPT_SEQ_G, 0, "G", NULL,
	  "with --until: the sequence's level (0.95) and g (25)", check_seq_g, 0 },
	{ "sequence", RUNOPT_SEQUENCE, 0, "K", "t median",
	  "with --until: t (the mean's, default) or median (any\nshape of runs)", check_sequence, 0 },
	{ "seq-g-note", RUNOPT_SEQ_G_NOTE, 0, "TEXT", NULL,
	  "with --seq-g: why this g, kept as # seq_g.note:", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};

/* runopt: pb-run's options, in one table: pb-run's --help, --list-options
 * and getopt table come from it, and so do the options pb-compare passes
 * through to pb-run, with the checks it makes of their values before
 * anything runs. */
#ifndef PB_RUNOPT_H
#define PB_RUNOPT_H

#include "opt.h"

enum run_opt_key {
	RUNOPT_RUNS = 256, RUNOPT_PAIRS, RUNOPT_WARMUP, RUNOPT_ORDER, RUNOPT_SEED,
	RUNOPT_DELAY, RUNOPT_DELAY_ARM, RUNOPT_FIRST_RUN, RUNOPT_NO_SHELL, RUNOPT_WORKER,
	RUNOPT_SETUP, RUNOPT_PREPARE, RUNOPT_CLEANUP, RUNOPT_OUTPUT, RUNOPT_TIMEOUT,
	RUNOPT_IGNORE, RUNOPT_QUIET, RUNOPT_PG, RUNOPT_SQL_A, RUNOPT_SQL_B, RUNOPT_SQL_A_FILE,
	RUNOPT_SQL_B_FILE, RUNOPT_ROLLBACK, RUNOPT_SETUP_SQL, RUNOPT_CPU, RUNOPT_UNTIL,
	RUNOPT_THRESHOLD, RUNOPT_MIN_RUNS, RUNOPT_STAT, RUNOPT_LEVEL, RUNOPT_SEQ_G,
	RUNOPT_MAX_TIME, RUNOPT_ARMS, RUNOPT_REFERENCE, RUNOPT_SQL, RUNOPT_SQL_FILE,
	RUNOPT_SEQUENCE, RUNOPT_SEQ_G_NOTE, RUNOPT_TOLERANCE, RUNOPT_RESOURCES, RUNOPT_DUET,
};

/* The most runs, pairs or warm-up pairs pb-run takes: pb-compare plans
 * no more. */
enum { RUNOPT_COUNT_MAX = 100000000 };

/* --resources: process (0) or tree (1). */
extern const char *const runopt_resources[];

/* Ended by a NULL name. */
extern const struct pb_opt run_opts[];

/* pb-run's parsing of a value, or a usage error in its words; shared by
 * pb-run and pb-compare, which checks what it passes on before anything
 * runs. An arm's letter (0 for A; whether the study has it is known
 * later), a number of arms, the sequence's g. */
int runopt_arm(const char *name, const char *val);
int runopt_arms(const char *name, const char *val);
double runopt_seq_g(const char *name, const char *val);

#endif

/* Shared between pb-run.c and its executors (command, worker, pg). */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stdint.h>
#include <sys/types.h>

#include "order.h"
#include "proc.h"
#include "runstat.h"
#include "seq.h"

/* status column values of pb-run's own making (exit codes are >= 0). */
enum {
	ST_TIMEOUT = -1,      /* --timeout reached, the observation killed */
	ST_WORKER_ERROR = -2, /* the worker answered "error TEXT" */
	ST_WORKER_GARBAGE = -3,
	ST_WORKER_DIED = -4,
	ST_SPAWN_FAILED = -5,
	ST_SQL_ERROR = -6,
	ST_CONN_LOST = -7,
	ST_INTERRUPTED = -8,  /* never written: the run stops */
};

struct obs {
	int64_t t0, t1;       /* clock_ns() around the work */
	int64_t status;
	int fatal;            /* the run cannot go on (worker died, connection lost) */
	int stop;             /* the study cannot go on, even with --ignore-failure */
	struct proc_usage use;   /* command mode: the reaped process's (wait4) */
	char msg[512];
};

struct config {
	const char *cmd[ORDER_ARMS_MAX];   /* the arms' commands, A, B, ... */
	const char *worker;
	const char *pg, *sql[ORDER_ARMS_MAX], *setup_sql;
	int arms;                  /* k: 2 to ORDER_ARMS_MAX */
	int reference;             /* the arm the others are compared with: 0 = A */
	int rollback, no_shell, quiet, ignore_failure, aa;
	long runs, pairs, warmup, first_run;
	int order;                 /* enum order (lib/order.h) */
	uint64_t seed;
	uint64_t study;            /* this invocation's random identity */
	int64_t delay_ns, timeout_ns;
	int delay_arm;             /* 0 = A, 1 = B, ... */
	const char *setup, *prepare, *cleanup, *output;
	int out_fd;                /* the commands' stdout/stderr, -1 = ours */
	int err_fd;
	struct seq_stop until;     /* --until: SEQ_NONE, or the rule to stop by */
	struct run_stat until_stat;
	int threshold_given;
};

struct executor {
	const char *mode;
	const char *timed;   /* what ns covers, for "# clock:" */
	void *state;
	/* Start a run (a fresh worker, a fresh connection). 0, or -1 with msg. */
	int (*begin_run)(struct executor *, const struct config *, long run,
	                 char *msg, size_t n);
	void (*work)(struct executor *, const struct config *, int arm, long run,
	             long pair, struct obs *);
	void (*end_run)(struct executor *, const struct config *);
	void (*metadata)(struct executor *, const struct config *);
	pid_t (*pid)(struct executor *);   /* for "# run: ... pid=" */
};

void exec_command_init(struct executor *, const struct config *);
void exec_worker_init(struct executor *, const struct config *);
void exec_pg_init(struct executor *, const struct config *);

#endif

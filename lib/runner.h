/* runner: pb-run's study, run by run. The configuration pb-run's options
 * make (struct config), the executors that time one observation (struct
 * executor: bin/pb-run-exec.c runs commands and workers, bin/pb-run-pg.c
 * SQL), and the loop over the runs and their pairs in the study's order
 * (lib/order.h): each pair written as its block completes, the progress
 * meter, a failure or an interrupt that stops the study, and the stop of
 * --until and --max-time (lib/until.h). Processes are started by the
 * executors and by the hook pb-run gives, not here. */
#ifndef PB_RUNNER_H
#define PB_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#include "cgroup.h"
#include "order.h"
#include "proc.h"
#include "progress.h"
#include "runstat.h"
#include "seq.h"
#include "until.h"

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
	struct cgroup_use tree;  /* --resources tree: its cgroups' (lib/cgroup) */
	char msg[512];
};

struct config {
	const char *cmd[ORDER_ARMS_MAX];   /* the arms' commands, A, B, ... */
	const char *worker;
	const char *pg, *sql[ORDER_ARMS_MAX], *setup_sql;
	int arms;                  /* k: 2 to ORDER_ARMS_MAX */
	int reference;             /* the arm the others are compared with: 0 = A */
	int rollback, no_shell, quiet, ignore_failure, aa;
	int tree;                  /* --resources tree: each observation in its cgroups */
	int duet;                  /* --duet: A and B at once, each on a CPU of duet_cpu */
	int duet_cpu[2];
	long runs, pairs, warmup, first_run;
	int order;                 /* enum order (lib/order.h) */
	uint64_t seed;
	uint64_t study;            /* this invocation's random identity */
	int64_t delay_ns, timeout_ns;
	int64_t max_time_ns;       /* --max-time: 0, or no run to end past it */
	int delay_arm;             /* 0 = A, 1 = B, ... */
	const char *setup, *prepare, *cleanup, *output;
	int out_fd;                /* the commands' stdout/stderr, -1 = ours */
	int err_fd;
	struct seq_stop until;     /* --until: SEQ_NONE, or the rule to stop by */
	struct run_stat until_stat;
	const char *seq_g_note;    /* --seq-g-note: why this g, or NULL */
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
	/* After the run's last observation, before its pair is written: no
	 * more requests, and o fails when what follows makes its answer no
	 * answer (a worker's second one). NULL: nothing can follow. */
	void (*last_answer)(struct executor *, const struct config *, int arm, struct obs *);
	/* --duet (lib/duet.h). duet_work: the timed part of arm's
	 * observation, in a process of its own on the arm's CPU, forked from
	 * pb-run; what pb-run needs of it afterwards goes into blob (at most
	 * DUET_BLOB_MAX bytes), its length returned. duet_done: in pb-run,
	 * the observation finished with it (NULL: nothing to finish).
	 * duet_pid: a process of the arm's that lives across observations
	 * (a worker), pinned to the arm's CPU with it; 0 for none. NULL
	 * duet_work: the mode has no duet. */
	size_t (*duet_work)(struct executor *, const struct config *, int arm, long run,
	                    long pair, struct obs *, void *blob);
	void (*duet_done)(struct executor *, const struct config *, int arm, struct obs *,
	                  const void *blob, size_t len);
	pid_t (*duet_pid)(struct executor *, int arm);
};

enum { DUET_BLOB_MAX = 4200 };

/* Where in the study something happened, for messages and comments. */
struct where {
	long run, pair;
	const char *phase;
	int arm;                /* -1: not an observation (setup, cleanup) */
};

/* A study as it runs: pb-run sets c, ex, hook, prog and observations,
 * the rest starts at zero. */
struct runner {
	struct config *c;
	struct executor *ex;
	/* runs the --setup, --prepare or --cleanup hook cmd (pb-run's: what
	 * starts a process is in bin/); one that fails stops the study */
	void (*hook)(struct runner *, const char *name, const char *cmd, const struct where *);
	/* --duet: a pair's two arms at once (lib/duet's duet_observe, which
	 * builds on this module: pb-run gives it, so that no circle is made) */
	int (*duet)(struct executor *, const struct config *, long run, long pair,
	            const int cpu[2], struct obs o[2], int64_t delay[2], int64_t spin[2],
	            int64_t start[2]);
	struct until_runs seq;  /* --until */
	struct progress prog;   /* on a terminal */
	long observed, observations;
	long pairs_written;
	char ended[640];        /* why the current run ended early */
};

/* The busy-wait of --delay after an observation's work, inside the
 * window of the delayed arm (its t1 moved, *delay and *spin set), after
 * it for the others (0 in both); nothing after a failure. */
void runner_delay(const struct config *c, int arm, struct obs *o, int64_t *delay,
                  int64_t *spin);
/* Command mode has the rusage columns, where wait4 is. */
int runner_has_usage(const struct config *c);
/* The runs, from --first-run, until the last, --until's answer or
 * --max-time counted from start (clock_ns()); then why it stopped. */
void runner_study(struct runner *st, int64_t start);
/* A failure that stops the study: a '# failed:' comment after every
 * completed pair, the executor stopped, one line on stderr, exit 1. */
noreturn void runner_stop(struct runner *st, const struct where *w, const char *msg);
/* SIGINT, SIGTERM or SIGHUP: '# interrupted:', exit 128 + the signal. */
noreturn void runner_interrupted(struct runner *st, const struct where *w);

#endif

/* tools: pb's own tools run as child processes by the porcelain
 * (pb-compare, pb-report): found beside the caller first, then in PATH;
 * one tool or a pipeline of them, their output in a file made whole or
 * not at all, the stage that failed named by its own last line. The
 * first SIGINT, SIGTERM or SIGHUP is passed on to the children (while
 * tools_forward is on), so that pb-run keeps what it measured and says
 * so, and interrupts an open or a write of ours that blocks (a FIFO, a
 * full pipe): a die() after a signal exits 128 + N. A second one kills
 * the children and ends us by the signal, at once. This is the one runner of the
 * porcelain: only pb-run starts processes otherwise (lib/proc). */
#ifndef PB_TOOLS_H
#define PB_TOOLS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* The first SIGINT, SIGTERM or SIGHUP (0: none). */
extern volatile sig_atomic_t tools_signal;
/* A second one came: stop at once. */
extern volatile sig_atomic_t tools_signal_again;

/* argv0: how we were started, to find the tools beside us; installs the
 * signal handlers. */
void tools_init(const char *argv0);
/* Whether a first signal is passed on to the children (at first, yes). */
void tools_forward(int on);
/* "SIGINT", "SIGTERM" or "SIGHUP" of tools_signal, or NULL. */
const char *tools_signal_name(void);
/* A tool's status (run_result's) in words into buf: "exit 1", or
 * "killed by signal 9, Killed" (what an OOM killer does to pb-run). */
const char *tools_status_words(char *buf, size_t n, int status);
/* The path to run a pb tool by: beside the caller when it is there, else
 * the bare name, looked up in PATH. */
const char *tool_path(const char *name);

/* A tool (or a pipeline of them) run to its end. */
struct run_result {
	int status;          /* 0, the exit status, or 128 + signal */
	char msg[1024];      /* the failing stage's last line on stderr */
	int64_t ns;          /* wall time */
};

/* Called about every 100 ms while a watched child runs. */
typedef void tools_tick_fn(void *ctx);

/* Run the n stages of a pipeline (argv vectors, tools by name) with dir as
 * the working directory (NULL: ours), the first stage reading in (a file;
 * NULL: /dev/null), the last writing out: to out.tmp, renamed to out on
 * success and removed otherwise, unless flags has TOOLS_KEEP (out NULL:
 * stdout goes to /dev/null). The stage blamed is the first that failed of
 * itself, not one killed by SIGPIPE because a later one ended. Warnings
 * (stderr of stages that succeeded) are passed on to ours unless flags
 * has TOOLS_QUIET. tick, if not NULL, is called while it runs. */
enum { TOOLS_QUIET = 1, TOOLS_KEEP = 2, TOOLS_STAGES_MAX = 4 };
void tools_run(struct run_result *r, const char *dir, const char *in, const char *out,
               char **const *stages, int n, int flags, tools_tick_fn *tick, void *ctx);
/* What the tool named what (its first word: "pb-run (the pilot)") said
 * when it failed, without the "pb-run: " it began its line with, for a
 * message that names the tool itself; fallback when it said nothing. */
const char *tools_said(const struct run_result *r, const char *what, const char *fallback);

#endif

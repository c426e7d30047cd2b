/* proc: the child processes pb-run times. Each child gets its own process
 * group, so a timeout or an interrupt stops the command and everything it
 * started. SIGINT, SIGTERM and SIGHUP set proc_interrupted and kill the
 * current child's group at once, so no wait outlives an interrupt. */
#ifndef PB_PROC_H
#define PB_PROC_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

extern volatile sig_atomic_t proc_interrupted;   /* the signal, or 0 */
/* Called from the signal handler too; must be async-signal-safe. */
extern void (*volatile proc_on_interrupt)(void);
/* Called with the pid of each process proc_start started (a process
 * group of its own), or NULL: lib/duet's timers tell pb-run. */
extern void (*proc_on_start)(pid_t pid);

void proc_signals_init(void);
/* SIGKILL every group started and not yet reaped (async-signal-safe; at
 * exit, so that an error exit leaves no worker behind). */
void proc_kill_live(void);
/* fds the child gets as 0, 1, 2; -1 leaves ours. */
struct proc_io {
	int in, out, err;
	int fd3;   /* given to the child as its descriptor 3; -1: none */
};
/* environ with the NAME=VALUE strings of add (n of them) in place of
 * any of the same names: a malloc'd array of borrowed strings, for
 * proc_prepare's envp; free() it after proc_start. */
char **proc_environ_with(char *const *add, size_t n);
/* A command ready to start, prepared once so that starting it (inside a
 * timed window) does no more than fork and exec. search: look argv[0] up
 * in PATH; envp NULL = our environment. The child is made by fork, not
 * posix_spawn: glibc's posix_spawn runs the child in pb-run's memory
 * until exec, so that every command's peak resident set would start
 * from pb-run's; a forked child starts from the pages pb-run has
 * written, a few hundred KiB (proc_floor_kib). */
struct proc_spec {
	struct proc_io io;
	char **argv, **envp;
	int search;
	/* cgroup.procs fds (lib/cgroup) the child writes "0" to before its
	 * exec, so that it and all it starts are counted there from its
	 * first instruction; a failed write is reported as a failed exec */
	const int *join;
	int njoin;
};
void proc_prepare(struct proc_spec *p, char **argv, int search,
                  const struct proc_io *io, char **envp);
void proc_unprepare(struct proc_spec *p);
/* Returns the pid, or -1 with errno set: also when the exec failed (the
 * child reports its errno before it exits, and is reaped). */
pid_t proc_start(const struct proc_spec *p);
enum { PROC_EXITED = 0, PROC_TIMEOUT = 1, PROC_INTERRUPTED = 2 };
/* Wait for pid to end (timeout_ns 0 = no limit). On timeout or interrupt
 * the group is killed and reaped. *wstatus gets waitpid's status. */
int proc_wait(pid_t pid, int64_t timeout_ns, int *wstatus);
/* What the reaped child used, from wait4 (not POSIX: Linux, the BSDs,
 * macOS; PROC_USAGE says whether this build has it). As Linux's wait4
 * gives it: CPU time of the child and of the children it waited for;
 * maxrss the largest peak resident set among them (the child's own
 * counts what the forked child held before its exec: proc_floor_kib). */
struct proc_usage {
	int64_t user_ns, sys_ns, maxrss_kib;
	int64_t minflt, majflt;   /* page faults: served from memory, from disk */
	int64_t nvcsw, nivcsw;    /* context switches: waits, and preemptions */
};
#if defined(__linux__) || defined(PB_HAVE_WAIT4)
#define PROC_USAGE 1
#else
#define PROC_USAGE 0
#endif
/* proc_wait, and *use (all 0 without wait4) from the reaping, also when
 * the child was killed on a timeout. */
int proc_wait_usage(pid_t pid, int64_t timeout_ns, int *wstatus, struct proc_usage *use);
/* The least maxrss a command can have: the peak of a child forked as
 * proc_start forks one, which ends where the exec would be (KiB); -1
 * without PROC_USAGE. */
int64_t proc_floor_kib(void);
/* 1 when pid has ended (and is reaped, *wstatus set), else 0. */
int proc_poll(pid_t pid, int *wstatus);
/* SIGKILL the group of pid and reap pid; returns its wait status. */
int proc_kill(pid_t pid);
/* SIGKILL what is left of the group of pid, a child just reaped: what it
 * started in the background ends with it. */
void proc_end_group(pid_t pid);
/* Watch pid (up to two at once, until reaped): the moment it exits, SIGCHLD kills its group, so
 * that nothing it left behind holds a pipe that pb-run reads. The first
 * call unblocks SIGCHLD for good: proc_wait with a timeout (which waits
 * for SIGCHLD) must not be used after it. */
void proc_watch(pid_t pid);
/* The wait status as pb's status column: exit code, or 128 + signal. */
int64_t proc_status_code(int wstatus);
/* Words of s split at blanks, NULL-terminated (for --no-shell). */
char **proc_split_words(const char *s);

#endif

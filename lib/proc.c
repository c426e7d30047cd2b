/* wait4 is not POSIX: glibc declares it with _DEFAULT_SOURCE, musl with
 * _BSD_SOURCE. */
#if defined(__linux__) || defined(PB_HAVE_WAIT4)
#define _DEFAULT_SOURCE
#define _BSD_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "proc.h"

extern char **environ;

volatile sig_atomic_t proc_interrupted;
void (*volatile proc_on_interrupt)(void);
/* The process groups we started and have not reaped (a worker and a
 * hook can be alive at once): the signal handler kills them all. */
enum { LIVE_MAX = 8 };
static volatile sig_atomic_t live[LIVE_MAX];

static void live_add(pid_t pid)
{
	int i;

	for (i = 0; i < LIVE_MAX; i++)
		if (live[i] == 0) {
			live[i] = pid;
			return;
		}
}

static void live_remove(pid_t pid)
{
	int i;

	for (i = 0; i < LIVE_MAX; i++)
		if (live[i] == pid)
			live[i] = 0;
}

void proc_kill_live(void)
{
	int i;

	for (i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0)
			kill(-live[i], SIGKILL);
}

static void on_signal(int sig)
{
	proc_interrupted = sig;
	proc_kill_live();
	if (proc_on_interrupt)
		proc_on_interrupt();
}

/* The watched child (a worker): when it has exited, kill its group at
 * once, before it is reaped (a zombie keeps its pid from being reused).
 * WNOWAIT leaves it to be reaped by the code that waits for it. */
static volatile sig_atomic_t watched;

static void end_watched_group(void)
{
	pid_t p = (pid_t)watched;
	siginfo_t si;

	si.si_pid = 0;
	if (p > 0 && waitid(P_PID, (id_t)p, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == p)
		kill(-p, SIGKILL);
}

static void on_child(int sig)
{
	int saved = errno;

	(void)sig;
	end_watched_group();
	errno = saved;
}

void proc_watch(pid_t pid)
{
	static int unblocked;
	sigset_t chld;

	watched = pid;
	if (pid > 0 && !unblocked) {
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_UNBLOCK, &chld, NULL);
		unblocked = 1;
	}
	end_watched_group();   /* it may have exited before it was watched */
}

void proc_end_group(pid_t pid)
{
	kill(-pid, SIGKILL);
}

void proc_signals_init(void)
{
	struct sigaction sa;
	sigset_t chld;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;   /* no SA_RESTART: waits return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* SA_RESTART: a child that ends must not fail a write to stdout.
	 * Blocked until proc_watch: proc_wait waits for it by sigtimedwait. */
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);    /* a dead worker is EPIPE, not death */
	sigemptyset(&chld);          /* SIGCHLD waits via sigtimedwait */
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
}

void proc_prepare(struct proc_spec *p, char **argv, int search,
                  const struct proc_io *io, char **envp)
{
	sigset_t none, dflt;

	posix_spawn_file_actions_init(&p->fa);
	if (io->in >= 0)
		posix_spawn_file_actions_adddup2(&p->fa, io->in, 0);
	if (io->out >= 0)
		posix_spawn_file_actions_adddup2(&p->fa, io->out, 1);
	if (io->err >= 0)
		posix_spawn_file_actions_adddup2(&p->fa, io->err, 2);
	posix_spawnattr_init(&p->at);
	sigemptyset(&none);
	sigemptyset(&dflt);
	sigaddset(&dflt, SIGPIPE);
	sigaddset(&dflt, SIGINT);
	sigaddset(&dflt, SIGTERM);
	sigaddset(&dflt, SIGHUP);
	posix_spawnattr_setsigmask(&p->at, &none);
	posix_spawnattr_setsigdefault(&p->at, &dflt);
	posix_spawnattr_setpgroup(&p->at, 0);
	posix_spawnattr_setflags(&p->at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
	                                 POSIX_SPAWN_SETSIGDEF);
	p->argv = argv;
	p->envp = envp;
	p->search = search;
}

void proc_unprepare(struct proc_spec *p)
{
	posix_spawn_file_actions_destroy(&p->fa);
	posix_spawnattr_destroy(&p->at);
}

pid_t proc_start(const struct proc_spec *p)
{
	pid_t pid;
	int err = (p->search ? posix_spawnp : posix_spawn)(&pid, p->argv[0], &p->fa,
	                                                   &p->at, p->argv,
	                                                   p->envp ? p->envp : environ);

	if (err) {
		errno = err;
		return -1;
	}
	live_add(pid);
	if (proc_interrupted)   /* the signal came before we knew the group */
		kill(-pid, SIGKILL);
	return pid;
}

static void reaped(pid_t pid)
{
	live_remove(pid);
	if (watched == pid)
		watched = 0;
}

#if PROC_USAGE
static int64_t timeval_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}
#endif

/* waitpid, or wait4 when this build has it: then *use (if not NULL) gets
 * what the reaped child used. */
static pid_t wait_for(pid_t pid, int *wstatus, int flags, struct proc_usage *use)
{
#if PROC_USAGE
	struct rusage ru;
	pid_t r = wait4(pid, wstatus, flags, &ru);

	if (r == pid && use) {
		use->user_ns = timeval_ns(&ru.ru_utime);
		use->sys_ns = timeval_ns(&ru.ru_stime);
#ifdef __APPLE__
		use->maxrss_kib = (int64_t)ru.ru_maxrss / 1024;   /* bytes there */
#else
		use->maxrss_kib = (int64_t)ru.ru_maxrss;          /* KiB: Linux, the BSDs */
#endif
	}
	return r;
#else
	if (use)
		memset(use, 0, sizeof *use);
	return waitpid(pid, wstatus, flags);
#endif
}

static void reap(pid_t pid, int *wstatus, struct proc_usage *use)
{
	while (wait_for(pid, wstatus, 0, use) < 0 && errno == EINTR)
		;
	reaped(pid);
}

static int kill_and_reap(pid_t pid, struct proc_usage *use)
{
	int ws = 0;

	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	reap(pid, &ws, use);
	return ws;
}

int proc_kill(pid_t pid)
{
	return kill_and_reap(pid, NULL);
}

static int wait_plain(pid_t pid, int *wstatus, struct proc_usage *use)
{
	for (;;) {
		if (wait_for(pid, wstatus, 0, use) == pid)
			break;
		if (errno != EINTR)
			die("waitpid:");
		if (proc_interrupted) {
			kill_and_reap(pid, use);
			return PROC_INTERRUPTED;
		}
	}
	reaped(pid);
	return PROC_EXITED;
}

static int poll_usage(pid_t pid, int *wstatus, struct proc_usage *use)
{
	if (wait_for(pid, wstatus, WNOHANG, use) != pid)
		return 0;
	reaped(pid);
	return 1;
}

int proc_wait_usage(pid_t pid, int64_t timeout_ns, int *wstatus, struct proc_usage *use)
{
	struct timespec now, end, left;
	sigset_t chld;

	if (use)
		memset(use, 0, sizeof *use);
	if (timeout_ns <= 0)
		return wait_plain(pid, wstatus, use);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)(timeout_ns / 1000000000);
	end.tv_nsec += (long)(timeout_ns % 1000000000);
	if (end.tv_nsec >= 1000000000)
		end.tv_sec++, end.tv_nsec -= 1000000000;
	for (;;) {
		if (poll_usage(pid, wstatus, use))
			return PROC_EXITED;
		if (proc_interrupted) {
			kill_and_reap(pid, use);
			return PROC_INTERRUPTED;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		left.tv_sec = end.tv_sec - now.tv_sec;
		left.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0)
			left.tv_sec--, left.tv_nsec += 1000000000;
		if (left.tv_sec < 0) {
			kill_and_reap(pid, use);
			return PROC_TIMEOUT;
		}
		sigtimedwait(&chld, NULL, &left);
	}
}

/* Linux: the peak of this process's own memory (VmHWM), which is what a
 * process it spawns starts from. getrusage's ru_maxrss also holds what
 * this process inherited at its exec from its parent's (the shell's
 * 676 KiB under a static musl pb-run of 100 KiB): not a floor of the
 * children's. -1 where there is no such line. */
static int64_t vm_hwm_kib(void)
{
#ifdef __linux__
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmHWM: %lld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
#else
	return -1;
#endif
}

int64_t proc_self_maxrss_kib(void)
{
	int64_t hwm = vm_hwm_kib();
#if PROC_USAGE
	struct rusage ru;
#endif

	if (hwm >= 0)
		return hwm;
#if PROC_USAGE

	if (getrusage(RUSAGE_SELF, &ru) == 0)
#ifdef __APPLE__
		return (int64_t)ru.ru_maxrss / 1024;
#else
		return (int64_t)ru.ru_maxrss;
#endif
#endif
	return -1;
}

int proc_wait(pid_t pid, int64_t timeout_ns, int *wstatus)
{
	return proc_wait_usage(pid, timeout_ns, wstatus, NULL);
}

int proc_poll(pid_t pid, int *wstatus)
{
	return poll_usage(pid, wstatus, NULL);
}

int64_t proc_status_code(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 255;
}

char **proc_split_words(const char *s)
{
	size_t n = 0, cap = 0;
	char **w = NULL;

	for (;;) {
		size_t len;

		s += strspn(s, " \t\n");
		xgrow(&w, &cap, n + 1, sizeof *w);
		if (!*s)
			break;
		len = strcspn(s, " \t\n");
		w[n] = xmalloc(len + 1);
		memcpy(w[n], s, len);
		w[n++][len] = '\0';
		s += len;
	}
	w[n] = NULL;
	return w;
}

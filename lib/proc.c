/* wait4 is not POSIX: glibc declares it with _DEFAULT_SOURCE, musl with
 * _BSD_SOURCE. */
#if defined(__linux__) || defined(PB_HAVE_WAIT4)
#define _DEFAULT_SOURCE
#define _BSD_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
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
void (*proc_on_start)(pid_t pid);
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

/* The watched children (a worker; two with --duet): when one has
 * exited, kill its group at once, before it is reaped (a zombie keeps its
 * pid from being reused). WNOWAIT leaves it to be reaped by the code
 * that waits for it. */
enum { WATCH_MAX = 2 };
static volatile sig_atomic_t watched[WATCH_MAX];

static void end_watched_group(void)
{
	siginfo_t si;
	int i;

	for (i = 0; i < WATCH_MAX; i++) {
		pid_t p = (pid_t)watched[i];

		si.si_pid = 0;
		if (p > 0 && waitid(P_PID, (id_t)p, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == p)
			kill(-p, SIGKILL);
	}
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
	int i;

	for (i = 0; pid > 0 && i < WATCH_MAX; i++)
		if (watched[i] == 0) {
			watched[i] = pid;
			break;
		}
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
	p->io = *io;
	p->argv = argv;
	p->envp = envp;
	p->search = search;
	p->join = NULL;
	p->njoin = 0;
}

void proc_unprepare(struct proc_spec *p)
{
	(void)p;
}

/* The name of NAME=VALUE, its length with the '=' */
static size_t name_len(const char *var)
{
	const char *eq = strchr(var, '=');

	return eq ? (size_t)(eq - var) + 1 : strlen(var);
}

char **proc_environ_with(char *const *add, size_t n)
{
	size_t have = 0, i, j, k = 0;
	char **env;

	while (environ[have])
		have++;
	env = xmalloc((have + n + 1) * sizeof *env);
	for (i = 0; i < have; i++) {
		for (j = 0; j < n; j++)
			if (strncmp(environ[i], add[j], name_len(add[j])) == 0)
				break;
		if (j == n)
			env[k++] = environ[i];
	}
	for (j = 0; j < n; j++)
		env[k++] = add[j];
	env[k] = NULL;
	return env;
}

/* In the forked child, until exec: only async-signal-safe calls. The
 * signals pb-run catches get their default action back (a handler of
 * ours would run in the child with pb-run's list of live groups), as do
 * those it ignores (an ignored SIGPIPE survives exec); then the mask
 * the parent blocked everything with is cleared. On a failed exec the
 * errno goes to the parent through the close-on-exec pipe fd, as does
 * that of a failed join of its cgroups. dry: end where the exec would be
 * (proc_floor_kib). */
static void child_exec(const struct proc_spec *p, int fd, int dry)
{
	static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
	struct sigaction dfl;
	sigset_t none;
	size_t i;
	int e, k, fd3 = p->io.fd3;

	setpgid(0, 0);
	for (k = 0; k < p->njoin; k++)
		if (write(p->join[k], "0", 1) != 1) {
			e = errno;
			goto report;
		}
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (i = 0; i < sizeof reset / sizeof *reset; i++)
		sigaction(reset[i], &dfl, NULL);
	/* descriptor 3's source moved above 2 first, where the others
	 * cannot overwrite it */
	if ((fd3 >= 0 && fd3 < 3 && (fd3 = fcntl(fd3, F_DUPFD, 10)) < 0) ||
	    (p->io.in >= 0 && dup2(p->io.in, 0) < 0) || (p->io.out >= 0 && dup2(p->io.out, 1) < 0) ||
	    (p->io.err >= 0 && dup2(p->io.err, 2) < 0) || (fd3 >= 0 && dup2(fd3, 3) < 0)) {
		e = errno;
	} else {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dry)
			_exit(0);
		if (p->envp)
			environ = p->envp;
		if (p->search)
			execvp(p->argv[0], p->argv);
		else
			execv(p->argv[0], p->argv);
		e = errno;
	}
report:
	while (write(fd, &e, sizeof e) < 0 && errno == EINTR)
		;
	_exit(127);
}

static int cloexec_pipe(int fd[2])
{
	if (pipe(fd) < 0)
		return -1;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* The exec's errno from the child, or 0 when the pipe closed without
 * one (the exec happened). */
static int exec_errno(int fd)
{
	int e = 0;
	ssize_t r;

	while ((r = read(fd, &e, sizeof e)) < 0 && errno == EINTR)
		;
	return r == (ssize_t)sizeof e ? e : 0;
}

/* fork with every signal blocked, so that no handler of ours runs in
 * the child; the child goes to child_exec. */
static pid_t fork_child(const struct proc_spec *p, int fd[2], int dry)
{
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		close(fd[0]);
		child_exec(p, fd[1], dry);
	}
	e = errno;
	if (pid > 0) {
		setpgid(pid, pid);   /* the child does too: whichever runs first */
		live_add(pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

static pid_t wait_for(pid_t pid, int *wstatus, int flags, struct proc_usage *use);
static void reap(pid_t pid, int *wstatus, struct proc_usage *use);

pid_t proc_start(const struct proc_spec *p)
{
	int fd[2], e, ws;
	pid_t pid;

	if (cloexec_pipe(fd) < 0)
		return -1;
	pid = fork_child(p, fd, 0);
	e = errno;
	close(fd[1]);
	if (pid > 0 && (e = exec_errno(fd[0])) != 0) {
		reap(pid, &ws, NULL);
		pid = -1;
	}
	close(fd[0]);
	if (pid < 0) {
		errno = e;
		return -1;
	}
	if (proc_interrupted)   /* the signal came before we knew the group */
		kill(-pid, SIGKILL);
	if (proc_on_start)
		proc_on_start(pid);
	return pid;
}

static void reaped(pid_t pid)
{
	int i;

	live_remove(pid);
	for (i = 0; i < WATCH_MAX; i++)
		if (watched[i] == pid)
			watched[i] = 0;
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
		use->minflt = (int64_t)ru.ru_minflt;
		use->majflt = (int64_t)ru.ru_majflt;
		use->nvcsw = (int64_t)ru.ru_nvcsw;
		use->nivcsw = (int64_t)ru.ru_nivcsw;
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

int64_t proc_floor_kib(void)
{
#if PROC_USAGE
	static char *argv[] = { "/", NULL };   /* never run: the child ends first */
	struct proc_spec p;
	struct proc_io none = { -1, -1, -1, -1 };
	struct proc_usage use;
	int fd[2], ws;
	pid_t pid;

	proc_prepare(&p, argv, 0, &none, NULL);
	/* The child ends with _exit, which flushes nothing; but under
	 * valgrind its exit runs glibc's __libc_freeres, which does, and the
	 * caller's buffered head would be written twice. Outside any timed
	 * window, so flushing costs nothing that is measured. */
	fflush(NULL);
	if (cloexec_pipe(fd) < 0)
		return -1;
	pid = fork_child(&p, fd, 1);
	close(fd[0]);
	close(fd[1]);
	if (pid < 0)
		return -1;
	reap(pid, &ws, &use);
	return use.maxrss_kib;
#else
	return -1;
#endif
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

/* tools: pb's own tools as children of the porcelain, found beside the
 * caller first, then in PATH, run as processes of our group with their
 * output in files. An interrupt is passed on to them, so that pb-run
 * keeps what it measured and says so; a second one stops everything at
 * once. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "err.h"
#include "files.h"
#include "tools.h"

volatile sig_atomic_t tools_signal, tools_signal_again;
/* Whether a first signal is passed on to the children: while pb-run
 * measures, so that it stops and says so; not to the analysis that runs
 * on what was measured after it. */
static volatile sig_atomic_t forward = 1;

/* The children alive, for the signal handler to pass a signal on to. */
enum { LIVE_MAX = TOOLS_STAGES_MAX };
static volatile sig_atomic_t live[LIVE_MAX];

/* The first signal is passed on (while forward is on) and interrupts
 * what we wait on ourselves; a second kills the children and ends us by
 * the signal, wherever we are. */
static void on_interrupt(int sig)
{
	int i, saved = errno;

	if (tools_signal)
		tools_signal_again = sig;
	else
		tools_signal = sig;
	for (i = 0; i < LIVE_MAX; i++)
		if (live[i] > 0 && (forward || tools_signal_again))
			kill((pid_t)live[i], tools_signal_again ? SIGKILL : sig);
	if (tools_signal_again) {
		signal(sig, SIG_DFL);
		raise(sig);   /* delivered when the handler returns */
	}
	errno = saved;
}

/* A failure after a signal (an open or a write it interrupted: EINTR)
 * ends us as the signal would have, 128 + N, not 1. */
static void die_after_signal(void)
{
	exit(tools_signal ? 128 + tools_signal : EXIT_DATA);
}

/* SIGCHLD only cuts the sleep of a watched wait short. */
static void on_child(int sig)
{
	(void)sig;
}

static char *self_dir;

/* The directory of the running program: /proc/self/exe on Linux, else
 * argv[0] when it has a slash, else the first PATH entry that holds it. */
static char *find_self_dir(const char *argv0)
{
	char buf[PATH_MAX], *slash;
	ssize_t n = -1;

#ifdef __linux__
	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
#endif
	if (n > 0)
		buf[n] = '\0';
	else if (strchr(argv0, '/') && strlen(argv0) < sizeof buf)
		strcpy(buf, argv0);
	else {
		const char *path = getenv("PATH"), *p;

		for (p = path ? path : ""; *p; p += *p == ':') {
			size_t len = strcspn(p, ":");

			if (len && len + strlen(argv0) + 2 < sizeof buf) {
				snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, argv0);
				if (access(buf, X_OK) == 0)
					break;
			}
			p += len;
			buf[0] = '\0';
		}
		if (!*p)
			return NULL;
	}
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(*buf ? buf : "/");
}

void tools_init(const char *argv0)
{
	struct sigaction sa;

	self_dir = find_self_dir(argv0);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: an open or a write of ours that blocks (a FIFO, a
	 * full pipe) fails with EINTR, and its die() ends us with 128 + N;
	 * the waits for children and the reads of their stderr go on. */
	sa.sa_flags = 0;
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	if (!pb_die_hook)
		pb_die_hook = die_after_signal;
}

void tools_forward(int on)
{
	forward = on;
}

const char *tools_signal_name(void)
{
	return tools_signal == SIGINT ? "SIGINT" : tools_signal == SIGHUP ? "SIGHUP" :
	       tools_signal == SIGTERM ? "SIGTERM" : NULL;
}

const char *tools_status_words(char *buf, size_t n, int status)
{
	if (status > 128 && status < 128 + 64)
		snprintf(buf, n, "killed by signal %d, %s", status - 128, strsignal(status - 128));
	else
		snprintf(buf, n, "exit %d", status);
	return buf;
}

const char *tool_path(const char *name)
{
	static char *last;
	char *p;

	if (!self_dir)
		return name;
	p = path_in(self_dir, name);
	if (access(p, X_OK) != 0) {
		free(p);
		return name;
	}
	free(last);
	return last = p;
}

static void live_set(int slot, pid_t pid)
{
	live[slot] = pid;
	if (pid > 0 && tools_signal_again)
		kill(pid, SIGKILL);
	else if (pid > 0 && tools_signal && forward)   /* it came before we knew the child */
		kill(pid, tools_signal);
}

/* In the child: its fds, its directory, the tool. Only what is safe
 * after fork in a process of one thread. */
static void child_exec(char **argv, const char *dir, int in, int out, int err)
{
	sigset_t none;
	const char *path = strchr(argv[0], '/') ? argv[0] : tool_path(argv[0]);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	if (dir && chdir(dir) < 0) {
		fprintf(stderr, "%s: cannot enter the directory: %s\n", dir, strerror(errno));
		_exit(126);
	}
	execvp(path, argv);
	fprintf(stderr, "cannot run %s: %s (install pb whole: %s runs pb's tools)\n", argv[0],
	        strerror(errno), pb_prog);
	_exit(127);
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0666);

	if (fd < 0)
		die("%s:", path);
	return fd;
}

/* An unlinked file for a child's stderr. */
static int err_file(void)
{
	FILE *f = tmpfile();
	int fd;

	if (!f)
		die("cannot make a temporary file:");
	fd = dup(fileno(f));
	fclose(f);
	if (fd < 0)
		die("dup:");
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

/* The text of the file fd from its start, at most max bytes of it. */
static char *file_text(int fd, size_t max)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	xgrow(&buf, &cap, 1, 1);
	do {
		xgrow(&buf, &cap, len + 4097, 1);
		n = read(fd, buf + len, 4096);
		if (n > 0)
			len += (size_t)n;
	} while ((n > 0 || (n < 0 && errno == EINTR)) && len < max);
	buf[len] = '\0';
	return buf;
}

/* The last line of text that is not empty, into msg. */
static void last_line(const char *text, char *msg, size_t n)
{
	const char *end = text + strlen(text), *start;

	while (end > text && end[-1] == '\n')
		end--;
	start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(msg, n, "%.*s", (int)(end - start), start);
}

/* Sleep about ms milliseconds, less when a child ends or a signal comes. */
static void nap(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

static int wait_status(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 255;
}

/* Wait for every child; the tick runs while the last is alive. */
static void wait_all(pid_t *pid, int *status, int n, tools_tick_fn *tick, void *ctx)
{
	int left = n, i, ws;

	while (left > 0) {
		pid_t p;

		if (tick) {
			p = waitpid(-1, &ws, WNOHANG);
			if (p == 0) {
				tick(ctx);
				nap(100);
				continue;
			}
		} else
			p = waitpid(-1, &ws, 0);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			die("waitpid:");
		}
		for (i = 0; i < n; i++)
			if (pid[i] == p) {
				status[i] = wait_status(ws);
				live_set(i, 0);
				pid[i] = 0;
				left--;
			}
	}
}

/* The stage a pipeline failed by: the first that failed of itself, not by
 * SIGPIPE (that is a stage before one that exited early); -1: none. */
static int failed_stage(const int *status, int n)
{
	int i, first = -1;

	for (i = 0; i < n; i++) {
		if (status[i] == 0)
			continue;
		if (status[i] != 128 + SIGPIPE)
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

void tools_run(struct run_result *r, const char *dir, const char *in, const char *out,
               char **const *stages, int n, int flags, tools_tick_fn *tick, void *ctx)
{
	pid_t pid[LIVE_MAX];
	int status[LIVE_MAX], err[LIVE_MAX], i, fd_in, fd_out, next_in, blamed;
	char *tmp = NULL, *text;
	int64_t t0 = clock_ns();

	if (n < 1 || n > LIVE_MAX)
		die("a pipeline of %d stages", n);
	r->status = 0;
	r->msg[0] = '\0';
	fd_in = open_or_die(in ? in : "/dev/null", O_RDONLY);
	if (out) {
		tmp = xmalloc(strlen(out) + 5);
		sprintf(tmp, "%s.tmp", out);
		unlink(tmp);   /* made anew: never written through a link planted there */
		fd_out = open_or_die(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW);
	} else
		fd_out = open_or_die("/dev/null", O_WRONLY);
	next_in = fd_in;
	for (i = 0; i < n; i++) {
		int p[2] = { -1, -1 }, this_out = fd_out;

		if (i < n - 1) {
			if (pipe(p) < 0)
				die("pipe:");
			fcntl(p[0], F_SETFD, FD_CLOEXEC);
			fcntl(p[1], F_SETFD, FD_CLOEXEC);
			this_out = p[1];
		}
		err[i] = err_file();
		fflush(NULL);
		pid[i] = fork();
		if (pid[i] < 0)
			die("fork:");
		if (pid[i] == 0)
			child_exec(stages[i], dir, next_in, this_out, err[i]);
		live_set(i, pid[i]);
		if (next_in != fd_in)
			close(next_in);
		if (i < n - 1) {
			close(p[1]);
			next_in = p[0];
		}
	}
	close(fd_in);
	close(fd_out);
	wait_all(pid, status, n, tick, ctx);
	r->ns = clock_ns() - t0;
	blamed = failed_stage(status, n);
	for (i = 0; i < n; i++) {
		text = file_text(err[i], 65536);
		close(err[i]);
		if (i == blamed) {
			r->status = status[i];
			last_line(text, r->msg, sizeof r->msg);
		} else if (status[i] == 0 && !(flags & TOOLS_QUIET))
			fputs(text, stderr);
		free(text);
	}
	if (tmp) {
		if ((r->status == 0 || (flags & TOOLS_KEEP)) && rename(tmp, out) < 0) {
			int e = errno;

			unlink(tmp);
			errno = e;
			die("%s:", out);
		}
		if (r->status != 0 && !(flags & TOOLS_KEEP))
			unlink(tmp);
		free(tmp);
	}
}

const char *tools_said(const struct run_result *r, const char *what, const char *fallback)
{
	size_t n = strcspn(what, " ");

	if (!*r->msg)
		return fallback;
	if (strncmp(r->msg, what, n) == 0 && strncmp(r->msg + n, ": ", 2) == 0)
		return r->msg + n + 2;
	return r->msg;
}

/* pb-run's command and worker executors. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "err.h"
#include "pb-run.h"
#include "proc.h"

static int dev_null(int flags)
{
	static int fd[2] = { -1, -1 };
	int i = flags == O_RDONLY ? 0 : 1;

	if (fd[i] < 0 && (fd[i] = open("/dev/null", flags | O_CLOEXEC)) < 0)
		die("/dev/null:");
	return fd[i];
}

static void describe_exit(char *msg, size_t n, const char *what, int ws)
{
	if (WIFSIGNALED(ws))
		snprintf(msg, n, "%s killed by signal %d (status %lld)", what, WTERMSIG(ws),
		         (long long)proc_status_code(ws));
	else
		snprintf(msg, n, "%s exited with status %d", what, WEXITSTATUS(ws));
}

/* Command mode: one process per observation. */

struct command {
	struct proc_spec spec[2];
};

static char **command_argv(const char *cmd, int no_shell)
{
	char **v;

	if (no_shell) {
		v = proc_split_words(cmd);
		if (!v[0])
			die_usage("empty command");
		return v;
	}
	v = xmalloc(4 * sizeof *v);
	v[0] = "/bin/sh";
	v[1] = "-c";
	v[2] = (char *)cmd;
	v[3] = NULL;
	return v;
}

static int command_begin(struct executor *ex, const struct config *c, long run,
                         char *msg, size_t n)
{
	(void)ex, (void)c, (void)run, (void)msg, (void)n;
	return 0;
}

static void command_work(struct executor *ex, const struct config *c, int arm,
                         long run, long pair, struct obs *o)
{
	struct command *cm = ex->state;
	int ws, r;
	pid_t pid;

	(void)run, (void)pair;
	o->t0 = clock_ns();
	pid = proc_start(&cm->spec[arm]);
	if (pid < 0) {
		o->t1 = clock_ns();
		o->status = ST_SPAWN_FAILED;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "cannot start '%s': %s",
		         cm->spec[arm].argv[0], strerror(errno));
		return;
	}
	r = proc_wait(pid, c->timeout_ns, &ws);
	o->t1 = clock_ns();
	if (r == PROC_INTERRUPTED) {
		o->status = ST_INTERRUPTED;
		return;
	}
	if (r == PROC_TIMEOUT) {
		o->status = ST_TIMEOUT;
		snprintf(o->msg, sizeof o->msg, "command timed out after %.6g s (killed)",
		         (double)c->timeout_ns / 1e9);
		return;
	}
	o->status = proc_status_code(ws);
	if (o->status)
		describe_exit(o->msg, sizeof o->msg, "command", ws);
}

static void command_end(struct executor *ex, const struct config *c)
{
	(void)ex, (void)c;
}

static pid_t command_pid(struct executor *ex)
{
	(void)ex;
	return getpid();
}

static void no_metadata(struct executor *ex, const struct config *c)
{
	(void)ex, (void)c;
}

static void io_for_output(struct proc_io *io, const struct config *c)
{
	io->in = dev_null(O_RDONLY);
	io->out = c->out_fd >= 0 ? c->out_fd : dev_null(O_WRONLY);
	io->err = c->err_fd >= 0 ? c->err_fd : dev_null(O_WRONLY);
}

static const struct executor command_ops = {
	"command",
	"from just before posix_spawn to just after waitpid reaps the process: "
	"its start-up, the work and its exit",
	NULL, command_begin, command_work, command_end, no_metadata, command_pid,
};

void exec_command_init(struct executor *ex, const struct config *c)
{
	struct command *cm = xcalloc(1, sizeof *cm);
	struct proc_io io;
	int arm;

	io_for_output(&io, c);
	for (arm = 0; arm < 2; arm++)
		proc_prepare(&cm->spec[arm], command_argv(c->cmd[arm], c->no_shell),
		             c->no_shell, &io, NULL);
	*ex = command_ops;
	ex->state = cm;
}

/* Worker mode: one process per run, one request line per observation. */

enum { ANSWER_MAX = 4096 };

struct worker {
	char **argv;
	int search;
	struct proc_spec spec;
	pid_t pid;
	int to, from;          /* pipe ends: its stdin, its stdout */
	char buf[ANSWER_MAX];
	size_t len;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int worker_begin(struct executor *ex, const struct config *c, long run,
                        char *msg, size_t n)
{
	struct worker *w = ex->state;
	int in[2], out[2];
	struct proc_io io;

	(void)run;
	if (pipe(in) < 0 || pipe(out) < 0)
		die("pipe:");
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	io_for_output(&io, c);
	io.in = in[0];
	io.out = out[1];
	proc_prepare(&w->spec, w->argv, w->search, &io, NULL);
	w->pid = proc_start(&w->spec);
	proc_unprepare(&w->spec);
	close(in[0]);
	close(out[1]);
	w->to = in[1];
	w->from = out[0];
	w->len = 0;
	if (w->pid < 0) {
		snprintf(msg, n, "cannot start worker '%s': %s", w->argv[0], strerror(errno));
		close_fd(&w->to);
		close_fd(&w->from);
		return -1;
	}
	return 0;
}

/* Stop the worker: EOF on its stdin asks it to exit; after grace_ms it
 * is killed. Returns its wait status. */
static int worker_stop(struct worker *w, int grace_ms)
{
	int ws = 0, i;

	close_fd(&w->to);
	close_fd(&w->from);
	if (w->pid <= 0)
		return 0;
	for (i = 0; i < grace_ms; i++) {
		if (proc_poll(w->pid, &ws)) {
			w->pid = 0;
			return ws;
		}
		clock_sleep_ns(1000000);
	}
	ws = proc_kill(w->pid);
	w->pid = 0;
	return ws;
}

static void worker_died(struct worker *w, struct obs *o, const char *how)
{
	int ws = worker_stop(w, 1000);

	o->status = ST_WORKER_DIED;
	o->fatal = 1;
	if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
		char why[128];
		describe_exit(why, sizeof why, "worker", ws);
		snprintf(o->msg, sizeof o->msg, "worker died (%s; %s)", how, why);
	} else {
		snprintf(o->msg, sizeof o->msg, "worker died (%s)", how);
	}
}

/* Read up to a newline; 1 = line in w->buf, 0 = EOF, -1 = error,
 * -2 = timeout, -3 = interrupted, -4 = too long. */
static int read_answer(struct worker *w, int64_t deadline)
{
	w->len = 0;
	for (;;) {
		ssize_t r;

		if (deadline) {
			struct pollfd p = { w->from, POLLIN, 0 };
			int64_t left = deadline - clock_ns();
			int ms = left <= 0 ? 0 : (int)((left + 999999) / 1000000), pr = 0;

			if (left <= 0 || (pr = poll(&p, 1, ms)) == 0) {
				if (deadline - clock_ns() <= 0)
					return -2;
				continue;
			}
			if (pr < 0 && errno == EINTR) {   /* not on to a blocking read */
				if (proc_interrupted)
					return -3;
				continue;
			}
		}
		r = read(w->from, w->buf + w->len, sizeof w->buf - 1 - w->len);
		if (r < 0 && errno == EINTR) {
			if (proc_interrupted)
				return -3;
			continue;
		}
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		w->len += (size_t)r;
		if (w->buf[w->len - 1] == '\n') {
			w->buf[--w->len] = '\0';
			return 1;
		}
		if (w->len == sizeof w->buf - 1)
			return -4;
	}
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR && !proc_interrupted)
			continue;
		if (r < 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void judge_answer(struct worker *w, struct obs *o)
{
	if (strcmp(w->buf, "ok") == 0) {
		o->status = 0;
		return;
	}
	if (strncmp(w->buf, "error", 5) == 0 && (w->buf[5] == ' ' || !w->buf[5])) {
		o->status = ST_WORKER_ERROR;
		snprintf(o->msg, sizeof o->msg, "worker answered: %.400s", w->buf);
		return;
	}
	o->status = ST_WORKER_GARBAGE;
	snprintf(o->msg, sizeof o->msg, "worker answered neither ok nor error: '%.200s'",
	         w->buf);
}

static void worker_work(struct executor *ex, const struct config *c, int arm,
                        long run, long pair, struct obs *o)
{
	struct worker *w = ex->state;
	char req[64];
	int n = snprintf(req, sizeof req, "%c\t%ld\t%ld\n", 'A' + arm, run, pair), r;

	o->t0 = clock_ns();
	if (write_all(w->to, req, (size_t)n) < 0) {
		o->t1 = clock_ns();
		if (proc_interrupted) {
			o->status = ST_INTERRUPTED;
			return;
		}
		worker_died(w, o, "its stdin is closed");
		return;
	}
	r = read_answer(w, c->timeout_ns ? o->t0 + c->timeout_ns : 0);
	o->t1 = clock_ns();
	switch (r) {
	case 1: judge_answer(w, o); return;
	case 0: worker_died(w, o, "end of its output"); return;
	case -2:
		worker_stop(w, 0);
		o->status = ST_TIMEOUT;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "worker timed out after %.6g s (killed)",
		         (double)c->timeout_ns / 1e9);
		return;
	case -3: o->status = ST_INTERRUPTED; return;
	case -4:
		worker_stop(w, 0);
		o->status = ST_WORKER_GARBAGE;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "worker answer longer than %d bytes",
		         ANSWER_MAX - 2);
		return;
	default: worker_died(w, o, strerror(errno)); return;
	}
}

static void worker_end(struct executor *ex, const struct config *c)
{
	(void)c;
	worker_stop(ex->state, proc_interrupted ? 0 : 5000);
}

static pid_t worker_pid(struct executor *ex)
{
	return ((struct worker *)ex->state)->pid;
}

static const struct executor worker_ops = {
	"worker",
	"the round trip: from just before the request is written to the worker "
	"to just after its answer is read",
	NULL, worker_begin, worker_work, worker_end, no_metadata, worker_pid,
};

void exec_worker_init(struct executor *ex, const struct config *c)
{
	struct worker *w = xcalloc(1, sizeof *w);

	w->argv = command_argv(c->worker, c->no_shell);
	w->search = c->no_shell;
	w->to = w->from = -1;
	*ex = worker_ops;
	ex->state = w;
}

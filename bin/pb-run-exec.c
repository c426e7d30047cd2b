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

/* Why a child ended, as "what exited with status N" or "what killed by
 * signal N (status 128+N)"; hint, if not NULL, is added in the brackets. */
static void describe_exit(char *msg, size_t n, const char *what, int ws, const char *hint)
{
	const char *sep = hint ? "; " : "";

	if (!hint)
		hint = "";
	if (WIFSIGNALED(ws))
		snprintf(msg, n, "%s killed by signal %d (status %lld%s%s)", what, WTERMSIG(ws),
		         (long long)proc_status_code(ws), sep, hint);
	else if (*hint)
		snprintf(msg, n, "%s exited with status %d (%s)", what, WEXITSTATUS(ws), hint);
	else
		snprintf(msg, n, "%s exited with status %d", what, WEXITSTATUS(ws));
}

/* A child that failed with its output discarded said why where no one
 * reads; the message says so, and how to see it. */
static const char *discarded(const struct config *c, const char *which)
{
	static char hint[96];

	if (c->output)
		return NULL;
	snprintf(hint, sizeof hint, "its %s went to /dev/null; --output inherit shows it", which);
	return hint;
}

/* Command mode: one process per observation. */

struct command {
	struct proc_spec spec[ORDER_ARMS_MAX];   /* one per arm */
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
	/* "--": a command that starts with '-' is not the shell's options */
	v = xmalloc(5 * sizeof *v);
	v[0] = "/bin/sh";
	v[1] = "-c";
	v[2] = "--";
	v[3] = (char *)cmd;
	v[4] = NULL;
	return v;
}

static int command_begin(struct executor *ex, const struct config *c, long run,
                         char *msg, size_t n)
{
	(void)ex, (void)c, (void)run, (void)msg, (void)n;
	return 0;
}

/* --resources tree: the observation's fresh cgroups, which the child
 * joins before its exec (made outside the timed window). 0, or -1 with
 * o failed: the study cannot go on. */
static int tree_enter(const struct config *c, struct proc_spec *spec, int *fds, struct obs *o)
{
	char why[256 + 4200];
	int n;

	spec->njoin = 0;
	if (!c->tree)
		return 0;
	if ((n = cgroup_tree_enter(fds, why, sizeof why)) < 0) {
		char ignored[8];

		cgroup_tree_leave(ignored, sizeof ignored);
		o->status = ST_SPAWN_FAILED;
		o->fatal = o->stop = 1;
		snprintf(o->msg, sizeof o->msg, "--resources tree: %.480s", why);
		return -1;
	}
	spec->join = fds;
	spec->njoin = n;
	return 0;
}

/* What the cgroups counted, after the reaping; then what is left in
 * them is killed and they are removed. 0, or -1 with o failed: a cgroup
 * that cannot be removed stops the study. */
static int tree_leave(const struct config *c, struct obs *o)
{
	char why[4400];

	if (!c->tree)
		return 0;
	if (o->status != ST_SPAWN_FAILED)
		cgroup_tree_read(&o->tree);
	if (cgroup_tree_leave(why, sizeof why) == 0)
		return 0;
	o->status = ST_SPAWN_FAILED;
	o->fatal = o->stop = 1;
	snprintf(o->msg, sizeof o->msg, "--resources tree: %.480s", why);
	return -1;
}

static void command_work(struct executor *ex, const struct config *c, int arm,
                         long run, long pair, struct obs *o)
{
	struct command *cm = ex->state;
	int ws, r, fds[CG_N];
	pid_t pid;

	(void)run, (void)pair;
	if (tree_enter(c, &cm->spec[arm], fds, o) < 0) {
		o->t0 = o->t1 = clock_ns();
		return;
	}
	o->t0 = clock_ns();
	pid = proc_start(&cm->spec[arm]);
	if (pid < 0) {
		o->t1 = clock_ns();
		o->status = ST_SPAWN_FAILED;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "cannot start '%s'%s: %s", cm->spec[arm].argv[0],
		         c->tree ? " in its cgroups" : "", strerror(errno));
		tree_leave(c, o);
		return;
	}
	r = proc_wait_usage(pid, c->timeout_ns, &ws, &o->use);
	o->t1 = clock_ns();
	if (r == PROC_EXITED)
		proc_end_group(pid);   /* its background children end with it */
	if (tree_leave(c, o) < 0 && r != PROC_INTERRUPTED)
		return;
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
		describe_exit(o->msg, sizeof o->msg, "command", ws, discarded(c, "output"));
}

/* --duet: the whole observation, in the arm's timer. */
static size_t command_duet_work(struct executor *ex, const struct config *c, int arm,
                                long run, long pair, struct obs *o, void *blob)
{
	(void)blob;
	command_work(ex, c, arm, run, pair, o);
	return 0;
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
	io->fd3 = -1;
}

#if PROC_USAGE
#define REAPER "wait4"
#else
#define REAPER "waitpid"
#endif

static const struct executor command_ops = {
	"command",
	"from just before fork to just after " REAPER " reaps the process: "
	"its start-up, the work and its exit",
	NULL, command_begin, command_work, command_end, no_metadata, command_pid, NULL,
	command_duet_work, NULL, NULL,
};

void exec_command_init(struct executor *ex, const struct config *c)
{
	struct command *cm = xcalloc(1, sizeof *cm);
	struct proc_io io;
	int arm;

	io_for_output(&io, c);
	for (arm = 0; arm < c->arms; arm++)
		proc_prepare(&cm->spec[arm], command_argv(c->cmd[arm], c->no_shell),
		             c->no_shell, &io, NULL);
	*ex = command_ops;
	ex->state = cm;
}

/* Worker mode: one process per run, one request line per observation. */

enum {
	ANSWER_MAX = 4096,
	WORKER_GRACE_MS = 5000,   /* to exit once its stdin is closed */
};

/* Where a worker answers. Every worker gets, beside its stdin and
 * stdout, a pipe as its descriptor 3, named by PB_WORKER_ANSWER_FD: a
 * worker that cannot keep what it and its children print off its stdout
 * (a JVM cannot move a descriptor) answers there, after a first line
 * "hello". Until it writes on one of them it is UNDECIDED; then its
 * stdout is the answers (STDOUT) or what it prints (OWN_FD), which pb-run
 * copies to where its stderr goes. */
enum answers { UNDECIDED, STDOUT, OWN_FD };

struct worker {
	char **argv, **envp;
	int search;
	const char *hint;      /* said when it dies: where its stderr went */
	struct proc_spec spec;
	pid_t pid;
	int to, from;          /* pipe ends: its stdin, where its answers come from */
	int side;              /* UNDECIDED: its descriptor 3; OWN_FD: its stdout */
	int copy_to;           /* where what it prints is copied; -1: dropped */
	enum answers answers;
	int hello;             /* the next line from is its "hello" */
	int killed;            /* worker_stop had to kill it */
	char buf[ANSWER_MAX];
	size_t len, used;      /* bytes held; bytes the last answer took */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Both pipes close-on-exec: the worker gets only its copies as 0 and 1,
 * so that when it closes them (or exits) pb-run sees the end. */
static void cloexec_pipe(int fd[2])
{
	if (pipe(fd) < 0)
		die("pipe:");
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
}

/* A fresh worker process: 0, or -1 with msg. */
static int worker_start(struct worker *w, const struct config *c, char *msg, size_t n)
{
	int in[2], out[2], own[2];
	struct proc_io io;

	cloexec_pipe(in);
	cloexec_pipe(out);
	cloexec_pipe(own);
	io_for_output(&io, c);
	io.in = in[0];
	io.out = out[1];
	io.fd3 = own[1];
	proc_prepare(&w->spec, w->argv, w->search, &io, w->envp);
	w->pid = proc_start(&w->spec);
	proc_unprepare(&w->spec);
	close(in[0]);
	close(out[1]);
	close(own[1]);
	w->to = in[1];
	w->from = out[0];
	w->side = own[0];
	w->copy_to = c->err_fd;
	w->answers = UNDECIDED;
	w->hello = 0;
	w->len = w->used = 0;
	w->killed = 0;
	if (w->pid < 0) {
		snprintf(msg, n, "cannot start worker '%s': %s", w->argv[0], strerror(errno));
		close_fd(&w->to);
		close_fd(&w->from);
		close_fd(&w->side);
		return -1;
	}
	proc_watch(w->pid);   /* its group is killed when it exits */
	return 0;
}

/* The workers of a run: one, or with --duet one per arm. */
static int workers(const struct config *c)
{
	return c->duet ? 2 : 1;
}

/* The worker that serves arm. */
static struct worker *arm_worker(struct executor *ex, const struct config *c, int arm)
{
	return (struct worker *)ex->state + (c->duet ? arm : 0);
}

static int worker_begin(struct executor *ex, const struct config *c, long run,
                        char *msg, size_t n)
{
	int i;

	(void)run;
	for (i = 0; i < workers(c); i++)
		if (worker_start((struct worker *)ex->state + i, c, msg, n) < 0)
			return -1;
	return 0;
}

/* Stop the worker: EOF on its stdin asks it to exit; after grace_ms it
 * is killed. Whatever it left running in its group is killed too.
 * Returns its wait status. */
static int worker_stop(struct worker *w, int grace_ms)
{
	int ws = 0, i;
	pid_t pid = w->pid;

	close_fd(&w->to);
	close_fd(&w->from);
	close_fd(&w->side);
	if (pid <= 0)
		return 0;
	w->pid = 0;
	for (i = 0; i < grace_ms; i++) {
		if (proc_poll(pid, &ws)) {
			proc_end_group(pid);
			return ws;
		}
		clock_sleep_ns(1000000);
	}
	w->killed = grace_ms > 0;
	return proc_kill(pid);
}

static void worker_died(struct worker *w, struct obs *o, const char *how)
{
	int ws = worker_stop(w, 1000);
	const char *hint = w->hint ? "; " : "";
	char why[192];

	o->status = ST_WORKER_DIED;
	o->fatal = 1;
	if (w->killed)
		snprintf(why, sizeof why, "; it was still running after 1 s: killed");
	else if (WIFEXITED(ws) || WIFSIGNALED(ws)) {
		why[0] = ';', why[1] = ' ';
		describe_exit(why + 2, sizeof why - 2, "worker", ws, NULL);
	} else
		why[0] = '\0';
	snprintf(o->msg, sizeof o->msg, "worker died (%s%s%s%s)", how, why, hint,
	         w->hint ? w->hint : "");
}

/* The answer's line ends in buf at the first newline; bytes after it are
 * kept for the next request to find. */
static int answer_complete(struct worker *w, size_t from)
{
	char *nl = memchr(w->buf + from, '\n', w->len - from);

	if (!nl)
		return 0;
	*nl = '\0';
	w->used = (size_t)(nl - w->buf) + 1;
	return 1;
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

/* What the worker printed on its stdout, while it answers on its own
 * descriptor: copied to where its stderr goes, as it comes. At its end
 * the side is closed: a worker may close its stdout and go on. */
static void copy_printed(struct worker *w)
{
	char b[4096];
	ssize_t r;

	while ((r = read(w->side, b, sizeof b)) < 0 && errno == EINTR && !proc_interrupted)
		;
	if (r <= 0) {
		close_fd(&w->side);
		return;
	}
	if (w->copy_to >= 0 && write_all(w->copy_to, b, (size_t)r) < 0)
		w->copy_to = -1;   /* the --output file failed: the rest is dropped */
}

/* What waits on the stdout of a worker that answers on its own
 * descriptor, copied; a bounded number of reads, for a worker that
 * prints without end. */
static void drain_printed(struct worker *w)
{
	int i;

	for (i = 0; i < 64 && w->side >= 0 && w->answers == OWN_FD; i++) {
		struct pollfd p = { w->side, POLLIN, 0 };

		if (poll(&p, 1, 0) <= 0)
			return;
		copy_printed(w);
	}
}

/* An UNDECIDED worker wrote on its descriptor 3 first: it answers there,
 * its first line "hello", and its stdout is what it prints. The bytes
 * read into buf, or 0 when that was the end of it (it closed it): it
 * answers on its stdout. */
static ssize_t decide_own_fd(struct worker *w)
{
	ssize_t r;
	int t;

	while ((r = read(w->side, w->buf + w->len, sizeof w->buf - 1 - w->len)) < 0 &&
	       errno == EINTR && !proc_interrupted)
		;
	if (r <= 0) {
		close_fd(&w->side);
		w->answers = STDOUT;
		return 0;
	}
	t = w->from;
	w->from = w->side;
	w->side = t;
	w->answers = OWN_FD;
	w->hello = 1;
	return r;
}

enum { AWAIT_SIDE = 1 };

/* Wait until from can be read, copying what the worker prints meanwhile;
 * an UNDECIDED worker's first bytes decide where it answers (data on its
 * descriptor 3 wins: it says hello there before it runs any arm, so
 * that what an arm prints cannot come first). 0, or AWAIT_SIDE when an
 * undecided worker wrote on its descriptor 3, -2 at the deadline, -3
 * when interrupted. */
static int await_from(struct worker *w, int64_t deadline)
{
	for (;;) {
		struct pollfd p[2] = { { w->from, POLLIN, 0 }, { w->side, POLLIN, 0 } };
		nfds_t np = w->side >= 0 ? 2 : 1;
		int ms = -1, pr;

		if (np == 1 && !deadline)
			return 0;   /* a blocking read waits */
		if (deadline) {
			int64_t left = deadline - clock_ns();

			if (left <= 0)
				return -2;
			ms = (int)((left + 999999) / 1000000);
		}
		pr = poll(p, np, ms);
		if (pr < 0 && errno == EINTR) {   /* not on to a blocking read */
			if (proc_interrupted)
				return -3;
			continue;
		}
		if (pr < 0)
			return 0;   /* the read says what is wrong */
		if (np == 2 && p[1].revents) {
			if (w->answers == UNDECIDED)
				return AWAIT_SIDE;
			copy_printed(w);
			continue;
		}
		if (p[0].revents) {
			if (w->answers == UNDECIDED) {
				close_fd(&w->side);
				w->answers = STDOUT;
			}
			return 0;
		}
	}
}

/* The worker's hello, the first line on its own descriptor, taken out
 * of buf: 1, or 0 when that line is not "hello". */
static int take_hello(struct worker *w)
{
	if (strcmp(w->buf, "hello") != 0)
		return 0;
	w->hello = 0;
	memmove(w->buf, w->buf + w->used, w->len - w->used);
	w->len -= w->used;
	w->used = 0;
	return 1;
}

/* Read up to a newline; 1 = line in w->buf, 0 = EOF, -1 = error,
 * -2 = timeout, -3 = interrupted, -4 = too long, -5 = a first line on
 * its descriptor 3 that is not hello (in w->buf). */
static int read_answer(struct worker *w, int64_t deadline)
{
	w->len = w->used = 0;
	for (;;) {
		ssize_t r;
		size_t scan = w->len;
		int a = await_from(w, deadline);

		if (a < 0)
			return a;
		if (a == AWAIT_SIDE) {
			if ((r = decide_own_fd(w)) == 0)
				continue;
		} else {
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
		}
		w->len += (size_t)r;
		while (answer_complete(w, scan)) {
			if (!w->hello)
				return 1;
			if (!take_hello(w))
				return -5;
			scan = 0;
		}
		if (w->len == sizeof w->buf - 1)
			return -4;
	}
}

/* The bytes after the last answer, to the front of buf: 1 when there
 * are any. */
static int unread_to_front(struct worker *w)
{
	if (w->len <= w->used) {
		w->len = w->used = 0;
		return 0;
	}
	memmove(w->buf, w->buf + w->used, w->len - w->used);
	w->len -= w->used;
	w->used = 0;
	return 1;
}

/* What buf holds answers no request: the worker is out of step, and
 * stopped. when: where it was found. */
static void answered_twice(struct worker *w, struct obs *o, const char *when)
{
	w->buf[w->len] = '\0';
	w->buf[strcspn(w->buf, "\n")] = '\0';
	o->status = ST_WORKER_GARBAGE;
	o->fatal = 1;
	snprintf(o->msg, sizeof o->msg, "worker wrote '%.200s' %s (two answers to one request?)",
	         w->buf, when);
	w->len = w->used = 0;
	worker_stop(w, 0);
}

/* Before a request: anything the worker wrote since its last answer is
 * an answer to no request (it answered one request twice); the worker is
 * out of step and stopped. An output that has ended is a dead worker.
 * Returns 1 when the observation ends here (o says how). */
static int answered_unasked(struct worker *w, struct obs *o)
{
	struct pollfd p = { w->from, POLLIN, 0 };
	ssize_t r;

	drain_printed(w);
	if (!unread_to_front(w)) {
		if (poll(&p, 1, 0) <= 0)
			return 0;
		if (!(p.revents & POLLIN)) {
			worker_died(w, o, "its output is closed");
			return 1;
		}
		while ((r = read(w->from, w->buf, sizeof w->buf - 1)) < 0 && errno == EINTR &&
		       !proc_interrupted)
			;
		if (r <= 0) {
			worker_died(w, o, r == 0 ? "end of its output" : strerror(errno));
			return 1;
		}
		w->len = (size_t)r;
	}
	answered_twice(w, o, "before this request was sent");
	return 1;
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

enum { WRITE_FAILED = -10 };   /* beside read_answer's results */

/* The timed exchange: the request written, the answer read; o->t0 and
 * o->t1 around it. What read_answer returned, or WRITE_FAILED. */
static int worker_exchange(struct worker *w, const struct config *c, int arm, long run,
                           long pair, struct obs *o)
{
	char req[64];
	int n = snprintf(req, sizeof req, "%c\t%ld\t%ld\n", 'A' + arm, run, pair), r;

	o->t0 = clock_ns();
	if (write_all(w->to, req, (size_t)n) < 0) {
		o->t1 = clock_ns();
		return WRITE_FAILED;
	}
	r = read_answer(w, c->timeout_ns ? o->t0 + c->timeout_ns : 0);
	o->t1 = clock_ns();
	return r;
}

/* The observation as the exchange's result r (errno err) makes it; a
 * worker that cannot go on is stopped. */
static void worker_judge(struct worker *w, const struct config *c, int r, int err,
                         struct obs *o)
{
	switch (r) {
	case 1: judge_answer(w, o); return;
	case 0: worker_died(w, o, "end of its output"); return;
	case WRITE_FAILED:
		if (proc_interrupted) {
			o->status = ST_INTERRUPTED;
			return;
		}
		worker_died(w, o, "its stdin is closed");
		return;
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
	case -5:
		worker_stop(w, 0);
		o->status = ST_WORKER_GARBAGE;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "worker wrote '%.200s' first on its descriptor 3 "
		         "(PB_WORKER_ANSWER_FD), not hello", w->buf);
		return;
	default: worker_died(w, o, strerror(err)); return;
	}
}

static void worker_work(struct executor *ex, const struct config *c, int arm,
                        long run, long pair, struct obs *o)
{
	struct worker *w = arm_worker(ex, c, arm);
	int r;

	if (answered_unasked(w, o)) {
		o->t0 = o->t1 = clock_ns();
		return;
	}
	r = worker_exchange(w, c, arm, run, pair, o);
	worker_judge(w, c, r, errno, o);
}

/* --duet: what the arm's timer found, for pb-run to judge: the
 * exchange's result and the worker's buffer as the timer left it. */
struct duet_answer {
	int unasked;   /* something waited before the request: not sent */
	int r, err;
	enum answers answers;   /* where the worker answers, as the timer found */
	size_t len, used;
	char buf[ANSWER_MAX];
};

static size_t worker_duet_work(struct executor *ex, const struct config *c, int arm,
                               long run, long pair, struct obs *o, void *blob)
{
	struct worker *w = arm_worker(ex, c, arm);
	struct duet_answer *d = blob;
	struct pollfd p = { w->from, POLLIN, 0 };

	/* only looked at: pb-run reads it when it judges (answered_unasked) */
	d->unasked = w->len > w->used || poll(&p, 1, 0) > 0;
	if (d->unasked) {
		o->t0 = o->t1 = clock_ns();
		return sizeof *d;
	}
	d->r = worker_exchange(w, c, arm, run, pair, o);
	d->err = errno;
	d->answers = w->answers;
	d->len = w->len;
	d->used = w->used;
	memcpy(d->buf, w->buf, w->len);
	return sizeof *d;
}

/* Where the worker answers, as the timer (a forked copy of pb-run) found
 * on its first exchange: the same descriptors kept here. */
static void follow_decision(struct worker *w, enum answers answers)
{
	int t;

	if (w->answers != UNDECIDED || answers == UNDECIDED)
		return;
	if (answers == STDOUT) {
		close_fd(&w->side);
	} else {
		t = w->from;
		w->from = w->side;
		w->side = t;
		w->hello = 0;   /* the timer took it */
	}
	w->answers = answers;
}

static void worker_duet_done(struct executor *ex, const struct config *c, int arm,
                             struct obs *o, const void *blob, size_t len)
{
	struct worker *w = arm_worker(ex, c, arm);
	const struct duet_answer *d = blob;

	if (len != sizeof *d || d->len >= sizeof w->buf)   /* not from a timer of ours */
		die("--duet: arm %c's answer came back garbled", 'A' + arm);
	if (d->unasked) {   /* what the timer saw waiting is read and judged here */
		if (!answered_unasked(w, o)) {
			o->status = ST_WORKER_GARBAGE;
			o->fatal = 1;
			snprintf(o->msg, sizeof o->msg, "worker wrote before the request");
		}
		return;
	}
	follow_decision(w, d->answers);
	w->len = d->len;
	w->used = d->used;
	memcpy(w->buf, d->buf, d->len);
	w->buf[w->len] = '\0';
	worker_judge(w, c, d->r, d->err, o);
}

static pid_t worker_duet_pid(struct executor *ex, int arm)
{
	return ((struct worker *)ex->state)[arm].pid;
}

static void worker_end(struct executor *ex, const struct config *c)
{
	int i;

	for (i = 0; i < workers(c); i++)
		worker_stop((struct worker *)ex->state + i, proc_interrupted ? 0 : WORKER_GRACE_MS);
}

/* The run's last answer is one only when nothing follows it, in what was
 * read with it or before its output ends. EOF on its stdin ends the
 * run, and its output ends when it exits (its group is killed then,
 * proc_watch) or closes it: so a second answer, however late, is read,
 * and no clock decides. A worker that outlives its grace is killed. */
static void worker_last_answer(struct executor *ex, const struct config *c, int arm,
                               struct obs *o)
{
	struct worker *w = arm_worker(ex, c, arm);
	int r;

	close_fd(&w->to);
	if (unread_to_front(w)) {
		answered_twice(w, o, "with its answer to the run's last request");
		return;
	}
	r = read_answer(w, clock_ns() + (int64_t)WORKER_GRACE_MS * 1000000);
	if (r == -3) {
		o->status = ST_INTERRUPTED;
		return;
	}
	if (r == -2)   /* past its grace; what it wrote by then is in buf */
		worker_stop(w, 0);
	if (r != -1 && w->len > 0)
		answered_twice(w, o, "after its answer to the run's last request");
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
	worker_last_answer, worker_duet_work, worker_duet_done, worker_duet_pid,
};

void exec_worker_init(struct executor *ex, const struct config *c)
{
	static char answer_fd[] = "PB_WORKER_ANSWER_FD=3";
	char *add[1] = { answer_fd };
	struct worker *w = xcalloc(2, sizeof *w);
	char **envp = proc_environ_with(add, 1);
	int i;

	for (i = 0; i < 2; i++) {
		w[i].envp = envp;
		w[i].argv = command_argv(c->worker, c->no_shell);
		w[i].search = c->no_shell;
		w[i].hint = discarded(c, "stderr");
		w[i].to = w[i].from = w[i].side = -1;
	}
	*ex = worker_ops;
	ex->state = w;
}

/* cpu_set_t and prctl need _GNU_SOURCE, which only this part of pb asks
 * for, as bin/pb-run-cpu.c does for --cpu. */
#ifdef __linux__
#define _GNU_SOURCE
#include <sched.h>
#include <dirent.h>
#include <stdlib.h>
#include <sys/prctl.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "duet.h"
#include "err.h"

/* What a timer sends back: its observation, the delay it spun, and the
 * executor's blob, of which only len bytes are sent (most answers are a
 * few bytes: a report fits in the least pipe buffer). */
struct report {
	struct obs o;
	int64_t delay, spin;
	size_t len;
	char blob[DUET_BLOB_MAX];
};
enum { REPORT_HEAD = offsetof(struct report, blob) };

/* The pipes of one pair: ready (each timer says it is at the barrier),
 * go (closed by pb-run: the release), done (EOF once both timers are
 * done), quit (closed by pb-run: the timers may exit), started (each
 * timer's command: its arm and process group, to end it should its
 * timer die), each timer's report, and each timer's alive (no data: its
 * end before pb-run lets it go says it was killed). [0] the read end,
 * [1] the write end. */
struct pipes {
	int ready[2], go[2], done[2], quit[2], started[2], report[2][2];
	int alive[2][2];   /* held by each timer until it exits: EOF before done, killed */
};

/* pb-run's side of a pair: the timers, their reports as read. */
struct pair_state {
	struct pipes p;
	pid_t pid[2];
	int bad[2];          /* no timer: its arm failed before it (a worker not pinned) */
	int got[2];          /* its report read */
	int cut;             /* the arm whose timer was stopped for the other's failure, or -1 */
	struct report rep[2];
};

/* A timer whose arm failed tells pb-run at once (SIGUSR1), so that a
 * failure that ends the study does not wait for the other arm; pb-run
 * is not woken while both succeed. */
static volatile sig_atomic_t arm_failed;

static void on_arm_failed(int sig)
{
	(void)sig;
	arm_failed = 1;
}

int duet_cpus(int cpu[2])
{
#ifdef __linux__
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return 0;
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	return n;
#else
	(void)cpu;
	return 0;
#endif
}

/* pid (0: this process) to the one CPU; 0, or -1 with errno. */
static int pin(pid_t pid, int cpu)
{
#ifdef __linux__
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof set, &set);
#else
	(void)pid, (void)cpu;
	errno = ENOSYS;
	return -1;
#endif
}

#ifdef __linux__
/* pid's threads, and those of its descendants (a worker started through
 * /bin/sh -c, a JVM's threads), to the one CPU: what each thread holds
 * is set one by one (a thread's affinity is its own), the descendants
 * found in /proc/PID/task/TID/children. 0, or -1 with errno when pid
 * itself cannot be pinned. */
static int pin_tree(pid_t pid, int cpu, int depth)
{
	char path[64], line[4096], *p, *end;
	struct dirent *e;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	if (depth > 16 || !(d = opendir(path)))
		return pin(pid, cpu);
	while ((e = readdir(d))) {
		long tid = strtol(e->d_name, &end, 10);

		if (tid <= 0 || *end)
			continue;
		pin((pid_t)tid, cpu);
		snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", (long)pid, tid);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(line, sizeof line, f))
			for (p = line; *p; p = end) {
				long child = strtol(p, &end, 10);

				if (end == p)
					break;
				pin_tree((pid_t)child, cpu, depth + 1);
			}
		fclose(f);
	}
	closedir(d);
	return pin(pid, cpu);
}
#else
static int pin_tree(pid_t pid, int cpu, int depth)
{
	(void)depth;
	return pin(pid, cpu);
}
#endif

static int open_pipes(struct pipes *p)
{
	int *all[] = { p->ready, p->go, p->done, p->quit, p->started, p->report[0],
	               p->report[1], p->alive[0], p->alive[1] };
	size_t i;

	for (i = 0; i < sizeof all / sizeof *all; i++) {
		if (pipe(all[i]) < 0)
			return -1;
		fcntl(all[i][0], F_SETFD, FD_CLOEXEC);   /* nothing the arms exec holds them */
		fcntl(all[i][1], F_SETFD, FD_CLOEXEC);
	}
#ifdef F_SETPIPE_SZ
	/* a whole report held while pb-run sleeps, whatever the default */
	fcntl(p->report[0][1], F_SETPIPE_SZ, (int)sizeof(struct report));
	fcntl(p->report[1][1], F_SETPIPE_SZ, (int)sizeof(struct report));
#endif
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_pipes(struct pipes *p)
{
	int *all[] = { p->ready, p->go, p->done, p->quit, p->started, p->report[0],
	               p->report[1], p->alive[0], p->alive[1] };
	size_t i;

	for (i = 0; i < sizeof all / sizeof *all; i++)
		close_fd(&all[i][0]), close_fd(&all[i][1]);
}

static int write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		p += r, n -= (size_t)r;
	}
	return 0;
}

/* Up to n bytes, until EOF: how many were read. */
static size_t read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Block until EOF on fd; an interrupt is seen by the caller in
 * proc_interrupted. */
static void wait_eof(int fd)
{
	char b[64];
	ssize_t r;

	while ((r = read(fd, b, sizeof b)) != 0)
		if (r < 0 && errno != EINTR)
			break;
}

static void failed(struct obs *o, const char *fmt, int arm, int cpu, int err)
{
	o->status = ST_SPAWN_FAILED;
	o->fatal = o->stop = 1;
	snprintf(o->msg, sizeof o->msg, fmt, 'A' + arm, cpu, strerror(err));
}

/* In the timer: its command started, its process group to pb-run. */
static int started_fd = -1, started_arm;

static void tell_started(pid_t pid)
{
	int32_t m[2] = { started_arm, (int32_t)pid };

	write_full(started_fd, m, sizeof m);
}

/* The timer of one arm, in the forked process: pinned, at the barrier,
 * released, the work, the delay, the report; it exits when pb-run has
 * read both reports, so that pb-run wakes only once. */
static void timer(struct executor *ex, const struct config *c, int arm, int cpu, long run,
                  long pair, struct pipes *p, pid_t parent)
{
	static struct report rep;
	char b;

#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);   /* pb-run killed: the timer and its arm end */
#endif
	if (getppid() != parent)   /* it died before the line above */
		_exit(1);
	close_fd(&p->ready[0]), close_fd(&p->go[1]), close_fd(&p->done[0]);
	close_fd(&p->quit[1]), close_fd(&p->started[0]);
	close_fd(&p->report[0][0]), close_fd(&p->report[1][0]), close_fd(&p->report[!arm][1]);
	close_fd(&p->alive[0][0]), close_fd(&p->alive[1][0]), close_fd(&p->alive[!arm][1]);
	started_fd = p->started[1], started_arm = arm;
	proc_on_start = tell_started;
	memset(&rep, 0, sizeof rep);
	if (pin(0, cpu) < 0)
		failed(&rep.o, "--duet: cannot pin arm %c's timer to CPU %d: %s", arm, cpu, errno);
	if (write_full(p->ready[1], "r", 1) < 0)
		_exit(1);
	close_fd(&p->ready[1]);
	while (read(p->go[0], &b, 1) < 0 && errno == EINTR && !proc_interrupted)
		;
	if (proc_interrupted && !rep.o.status)
		rep.o.status = ST_INTERRUPTED;
	if (!rep.o.status) {
		rep.len = ex->duet_work(ex, c, arm, run, pair, &rep.o, rep.blob);
		runner_delay(c, arm, &rep.o, &rep.delay, &rep.spin);
	}
	if (write_full(p->report[arm][1], &rep, REPORT_HEAD + rep.len) < 0)
		_exit(1);
	if (rep.o.status)
		kill(parent, SIGUSR1);
	close_fd(&p->report[arm][1]);
	close_fd(&p->done[1]);
	wait_eof(p->quit[0]);
	_exit(0);
}

/* Arm's report, read whole into ps->rep[arm]; 0 when its timer ended
 * without one. */
static int read_report(struct pair_state *ps, int arm)
{
	struct report *r = &ps->rep[arm];
	int fd = ps->p.report[arm][0];

	if (ps->got[arm])
		return 1;
	if (read_full(fd, r, REPORT_HEAD) != REPORT_HEAD || r->len > sizeof r->blob ||
	    read_full(fd, r->blob, r->len) != r->len)
		return 0;
	return ps->got[arm] = 1;
}

/* After a timer said its arm failed: a failure that ends the study
 * (pb-run stops on it) stops the other arm now, which would otherwise
 * run on, perhaps for ever. */
static void stop_other(struct pair_state *ps, const struct config *c)
{
	struct pollfd f;
	int arm;

	arm_failed = 0;
	for (arm = 0; arm < 2 && ps->cut < 0; arm++) {
		const struct obs *o = &ps->rep[arm].o;

		f.fd = ps->p.report[arm][0], f.events = POLLIN, f.revents = 0;
		if (ps->bad[arm] || (!ps->got[arm] && poll(&f, 1, 0) <= 0) || !read_report(ps, arm))
			continue;
		if (o->status && (!c->ignore_failure || o->stop) && ps->pid[!arm] > 0 &&
		    !ps->got[!arm]) {
			kill(ps->pid[!arm], SIGTERM);
			ps->cut = !arm;
		}
	}
}

/* A timer gone before pb-run let it go (killed from outside): the pair
 * cannot end well, so the other timer is stopped too; the gone one is
 * judged first (its missing report stops the study). */
static void timer_gone(struct pair_state *ps, int arm)
{
	if (ps->pid[!arm] > 0 && ps->cut < 0) {
		kill(ps->pid[!arm], SIGTERM);
		ps->cut = !arm;
	}
}

/* Block until both timers are done (EOF on done), or one is gone; an
 * interrupt of pb-run's own is passed on to them, whose arms then end. */
static void wait_done(struct pair_state *ps, const struct config *c)
{
	struct pollfd f[3];
	int passed = 0, arm, n;
	char b[64];

	for (;;) {
		f[0].fd = ps->p.done[0];
		f[1].fd = ps->p.alive[0][0];
		f[2].fd = ps->p.alive[1][0];
		for (n = 0; n < 3; n++)
			f[n].events = POLLIN, f[n].revents = 0;
		n = poll(f, 3, -1);
		if (n < 0 && errno != EINTR)
			break;
		if (n > 0 && f[0].revents && read(ps->p.done[0], b, sizeof b) == 0)
			break;
		for (arm = 0; n > 0 && arm < 2; arm++)
			if (f[1 + arm].revents && ps->p.alive[arm][0] >= 0) {
				close_fd(&ps->p.alive[arm][0]);   /* once */
				timer_gone(ps, arm);
			}
		if (arm_failed)
			stop_other(ps, c);
		for (arm = 0; proc_interrupted && !passed && arm < 2; arm++)
			if (ps->pid[arm] > 0)
				kill(ps->pid[arm], SIGTERM);
		passed |= proc_interrupted != 0;
	}
}

/* The process group of arm's command, as its timer said it started,
 * killed: its timer is gone without reaping it. */
static void end_started(struct pair_state *ps, int arm)
{
	int32_t m[2];

	while (read_full(ps->p.started[0], m, sizeof m) == sizeof m)
		if (m[0] == arm && m[1] > 0)
			kill(-(pid_t)m[1], SIGKILL);
}

/* What pb-run read of arm's timer into o and the rest. A timer that
 * ended without a report (killed) may have left its command running:
 * its group is ended. */
static void take_report(struct executor *ex, const struct config *c, struct pair_state *ps,
                        int arm, int64_t release, struct obs *o, int64_t *delay,
                        int64_t *spin, int64_t *start)
{
	const struct report *rep = &ps->rep[arm];

	if (!read_report(ps, arm)) {
		end_started(ps, arm);
		memset(o, 0, sizeof *o);
		o->t0 = o->t1 = release;
		o->status = proc_interrupted ? ST_INTERRUPTED : ST_SPAWN_FAILED;
		o->fatal = o->stop = 1;
		snprintf(o->msg, sizeof o->msg, "--duet: arm %c's timer ended without a report",
		         'A' + arm);
		*delay = *spin = *start = 0;
		return;
	}
	*o = rep->o;
	*delay = rep->delay;
	*spin = rep->spin;
	*start = o->t0 > release ? o->t0 - release : 0;
	/* only a timer that did the work has a blob: one that could not pin
	 * itself, or was interrupted at the barrier, says so in o alone */
	if (ex->duet_done && rep->len)
		ex->duet_done(ex, c, arm, o, rep->blob, rep->len);
}

/* The arms' lasting processes (workers) to their CPUs; a failure fails
 * that arm before anything runs. */
static void pin_lasting(struct executor *ex, const int cpu[2], struct obs o[2], int bad[2])
{
	int arm;

	for (arm = 0; arm < 2; arm++) {
		pid_t pid = ex->duet_pid ? ex->duet_pid(ex, arm) : 0;

		bad[arm] = pid > 0 && pin_tree(pid, cpu[arm], 0) < 0 && errno != ESRCH;
		if (bad[arm])
			failed(&o[arm], "--duet: cannot pin arm %c's worker to CPU %d: %s", arm,
			       cpu[arm], errno);
	}
}

/* SIGUSR1, a timer's word that its arm failed: caught while the pair
 * runs (no SA_RESTART: the wait sees it), the default after. */
static void catch_arm_failed(int on)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on ? on_arm_failed : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	arm_failed = 0;
}

int duet_observe(struct executor *ex, const struct config *c, long run, long pair,
                 const int cpu[2], struct obs o[2], int64_t delay[2], int64_t spin[2],
                 int64_t start[2])
{
	static struct pair_state ps;   /* its reports are large */
	pid_t parent = getpid();
	int arm, ws;
	int64_t release;
	char b[2];

	memset(o, 0, 2 * sizeof *o);
	memset(&ps.p, -1, sizeof ps.p);
	ps.pid[0] = ps.pid[1] = -1;
	ps.got[0] = ps.got[1] = 0;
	ps.cut = -1;
	pin_lasting(ex, cpu, o, ps.bad);
	if (open_pipes(&ps.p) < 0)
		die("pipe:");
	fcntl(ps.p.started[0], F_SETFL, O_NONBLOCK);   /* read only what is there */
	catch_arm_failed(1);
	fflush(NULL);   /* the timers end by _exit, which valgrind's exit flushes */
	for (arm = 0; arm < 2; arm++) {
		if (ps.bad[arm])
			continue;
		ps.pid[arm] = fork();
		if (ps.pid[arm] < 0)
			die("fork:");
		if (ps.pid[arm] == 0)
			timer(ex, c, arm, cpu[arm], run, pair, &ps.p, parent);
	}
	close_fd(&ps.p.ready[1]), close_fd(&ps.p.go[0]), close_fd(&ps.p.done[1]);
	close_fd(&ps.p.quit[0]), close_fd(&ps.p.started[1]);
	close_fd(&ps.p.report[0][1]), close_fd(&ps.p.report[1][1]);
	close_fd(&ps.p.alive[0][1]), close_fd(&ps.p.alive[1][1]);
	for (arm = 0; arm < 2; arm++)
		if (ps.bad[arm])   /* no timer to be gone */
			close_fd(&ps.p.alive[arm][0]);
	read_full(ps.p.ready[0], b, (size_t)(2 - ps.bad[0] - ps.bad[1]));   /* at the barrier */
	release = clock_ns();
	close_fd(&ps.p.go[1]);
	wait_done(&ps, c);
	catch_arm_failed(0);
	for (arm = 0; arm < 2; arm++)
		if (!ps.bad[arm])
			take_report(ex, c, &ps, arm, release, &o[arm], &delay[arm], &spin[arm],
			            &start[arm]);
		else
			o[arm].t0 = o[arm].t1 = release, delay[arm] = spin[arm] = start[arm] = 0;
	close_fd(&ps.p.quit[1]);
	for (arm = 0; arm < 2; arm++)
		while (ps.pid[arm] > 0 && waitpid(ps.pid[arm], &ws, 0) < 0 && errno == EINTR)
			;
	close_pipes(&ps.p);
	return ps.cut < 0 ? 0 : !ps.cut;   /* the failure that cut the other short first */
}

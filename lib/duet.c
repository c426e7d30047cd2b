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
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "duet.h"
#include "err.h"

/* What a timer sends back: its observation, the delay it spun, and the
 * executor's blob. */
struct report {
	struct obs o;
	int64_t delay, spin;
	size_t len;
	char blob[DUET_BLOB_MAX];
};

/* The pipes of one pair: ready (each timer says it is at the barrier),
 * go (closed by pb-run: the release), done (EOF once both timers are
 * done), quit (closed by pb-run: the timers may exit), and each timer's
 * report. [0] the read end, [1] the write end. */
struct pipes {
	int ready[2], go[2], done[2], quit[2], report[2][2];
};

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
	int *all[] = { p->ready, p->go, p->done, p->quit, p->report[0], p->report[1] };
	size_t i;

	for (i = 0; i < sizeof all / sizeof *all; i++) {
		if (pipe(all[i]) < 0)
			return -1;
		fcntl(all[i][0], F_SETFD, FD_CLOEXEC);   /* nothing the arms exec holds them */
		fcntl(all[i][1], F_SETFD, FD_CLOEXEC);
	}
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
	int *all[] = { p->ready, p->go, p->done, p->quit, p->report[0], p->report[1] };
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

/* The timer of one arm, in the forked process: pinned, at the barrier,
 * released, the work, the delay, the report; it exits when pb-run has
 * read both reports, so that pb-run wakes only once. */
static void timer(struct executor *ex, const struct config *c, int arm, int cpu, long run,
                  long pair, struct pipes *p)
{
	static struct report rep;
	char b;

#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGTERM);   /* pb-run killed: the timer and its arm end */
#endif
	close_fd(&p->ready[0]), close_fd(&p->go[1]), close_fd(&p->done[0]);
	close_fd(&p->quit[1]), close_fd(&p->report[0][0]), close_fd(&p->report[1][0]);
	close_fd(&p->report[!arm][1]);
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
	if (write_full(p->report[arm][1], &rep, sizeof rep) < 0)
		_exit(1);
	close_fd(&p->report[arm][1]);
	close_fd(&p->done[1]);
	wait_eof(p->quit[0]);
	_exit(0);
}

/* Block until both timers are done (EOF on done); an interrupt of
 * pb-run's own is passed on to them, whose arms then end. */
static void wait_done(int fd, const pid_t pid[2])
{
	int passed = 0, arm;
	char b[64];
	ssize_t r;

	while ((r = read(fd, b, sizeof b)) != 0) {
		if (r < 0 && errno != EINTR)
			break;
		for (arm = 0; proc_interrupted && !passed && arm < 2; arm++)
			if (pid[arm] > 0)
				kill(pid[arm], SIGTERM);
		passed |= proc_interrupted != 0;
	}
}

/* What pb-run read of arm's timer into o and the rest. */
static void take_report(struct executor *ex, const struct config *c, int arm, int fd,
                        int64_t release, struct obs *o, int64_t *delay, int64_t *spin,
                        int64_t *start)
{
	static struct report rep;

	if (read_full(fd, &rep, sizeof rep) != sizeof rep) {
		memset(o, 0, sizeof *o);
		o->t0 = o->t1 = release;
		o->status = proc_interrupted ? ST_INTERRUPTED : ST_SPAWN_FAILED;
		o->fatal = o->stop = 1;
		snprintf(o->msg, sizeof o->msg, "--duet: arm %c's timer ended without a report",
		         'A' + arm);
		*delay = *spin = *start = 0;
		return;
	}
	*o = rep.o;
	*delay = rep.delay;
	*spin = rep.spin;
	*start = o->t0 > release ? o->t0 - release : 0;
	/* only a timer that did the work has a blob: one that could not pin
	 * itself, or was interrupted at the barrier, says so in o alone */
	if (ex->duet_done && rep.len)
		ex->duet_done(ex, c, arm, o, rep.blob, rep.len);
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

void duet_observe(struct executor *ex, const struct config *c, long run, long pair,
                  const int cpu[2], struct obs o[2], int64_t delay[2], int64_t spin[2],
                  int64_t start[2])
{
	struct pipes p;
	pid_t pid[2] = { -1, -1 };
	int arm, bad[2], ws;
	int64_t release;
	char b[2];

	memset(o, 0, 2 * sizeof *o);
	memset(&p, -1, sizeof p);
	pin_lasting(ex, cpu, o, bad);
	if (open_pipes(&p) < 0)
		die("pipe:");
	fflush(NULL);   /* the timers end by _exit, which valgrind's exit flushes */
	for (arm = 0; arm < 2; arm++) {
		if (bad[arm])
			continue;
		pid[arm] = fork();
		if (pid[arm] < 0)
			die("fork:");
		if (pid[arm] == 0)
			timer(ex, c, arm, cpu[arm], run, pair, &p);
	}
	close_fd(&p.ready[1]), close_fd(&p.go[0]), close_fd(&p.done[1]);
	close_fd(&p.quit[0]), close_fd(&p.report[0][1]), close_fd(&p.report[1][1]);
	read_full(p.ready[0], b, (size_t)(2 - bad[0] - bad[1]));   /* both at the barrier */
	release = clock_ns();
	close_fd(&p.go[1]);
	wait_done(p.done[0], pid);
	for (arm = 0; arm < 2; arm++)
		if (!bad[arm])
			take_report(ex, c, arm, p.report[arm][0], release, &o[arm], &delay[arm],
			            &spin[arm], &start[arm]);
		else
			o[arm].t0 = o[arm].t1 = release, delay[arm] = spin[arm] = start[arm] = 0;
	close_fd(&p.quit[1]);
	for (arm = 0; arm < 2; arm++)
		while (pid[arm] > 0 && waitpid(pid[arm], &ws, 0) < 0 && errno == EINTR)
			;
	close_pipes(&p);
}

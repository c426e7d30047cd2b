/* Interference for the duet bench (issue 31), until killed or for
 * --seconds N:
 *  --bursts: one SCHED_FIFO thread pinned to each CPU, all waking at the
 *    same multiples of --period on CLOCK_MONOTONIC and spinning for
 *    --burst: every CPU taken at the same moments, as a hypervisor's
 *    steal or a stop-the-world pause takes them;
 *  --hog CPU: a plain busy loop pinned to one CPU.
 * Built and run by examples/bench/duet.sh. */
#ifdef __linux__
#define _GNU_SOURCE   /* cpu_set_t, sched_setaffinity */
#endif
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CPU_SETSIZE
#define CPU_SETSIZE 1024
#endif

#include "clock.h"
#include "err.h"
#include "num.h"

static volatile sig_atomic_t stopped;
static int64_t period = 37000000, burst = 6000000;

static void on_signal(int sig)
{
	(void)sig;
	stopped = 1;
}

static void usage(FILE *f)
{
	fputs("usage: burst --bursts [--period DUR] [--burst DUR] [--priority P] [--seconds N]\n"
	      "       burst --hog CPU [--seconds N]\n"
	      "--bursts: a SCHED_FIFO thread (priority P, default 50) pinned to each CPU\n"
	      "spins for --burst (default 6ms) from every multiple of --period (default\n"
	      "37ms) of CLOCK_MONOTONIC: all CPUs taken at once. --hog CPU: a plain busy\n"
	      "loop pinned to CPU. Runs until SIGTERM or SIGINT, or for N seconds.\n", f);
}

static void pin(long cpu)
{
#ifdef __linux__
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0)
		die("sched_setaffinity to CPU %ld:", cpu);
#else
	(void)cpu;
	die("pinning to a CPU needs Linux (sched_setaffinity)");
#endif
}

static void *burst_thread(void *arg)
{
	int64_t next;

	pin((long)(intptr_t)arg);
	next = (clock_ns() / period + 1) * period;
	for (;;) {
		struct timespec ts = { (time_t)(next / 1000000000), (long)(next % 1000000000) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		clock_spin_until(next + burst);
		next += period;
		if (next + burst < clock_ns())   /* woke too late: skip, stay in step */
			next = (clock_ns() / period + 1) * period;
	}
	return NULL;
}

/* One thread per CPU this process may use, all SCHED_FIFO (inherited
 * from the main thread, which then only waits for the end). */
static void bursts_start(int priority)
{
	struct sched_param sp = { .sched_priority = priority };
	sigset_t block, old;
	long cpu, n = 0;

	if (burst * 2 > period)
		die_usage("--burst over half of --period: the kernel throttles SCHED_FIFO at 95 %%"
			  " (sched_rt_runtime_us); stay far below");
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		die("SCHED_FIFO priority %d refused (root or CAP_SYS_NICE needed):", priority);
#ifdef __linux__
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof set, &set) < 0)
		die("sched_getaffinity:");
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		pthread_t t;
		int e;

		if (!CPU_ISSET((int)cpu, &set))
			continue;
		if ((e = pthread_create(&t, NULL, burst_thread, (void *)(intptr_t)cpu)) != 0)
			die("pthread_create: %s", strerror(e));
		n++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
#else
	(void)cpu, (void)block, (void)old;
	die("--bursts needs Linux (sched_setaffinity)");
#endif
	if (n == 0)
		die("no CPU to run on");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "bursts", no_argument, NULL, 'b' },
		{ "hog", required_argument, NULL, 'H' },
		{ "period", required_argument, NULL, 'p' },
		{ "burst", required_argument, NULL, 'B' },
		{ "priority", required_argument, NULL, 'P' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction sa;
	long hog = -1, priority = 50;
	double seconds = 0;
	int bursts = 0, c;
	int64_t end, cpu;

	pb_init("burst");
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'b': bursts = 1; break;
		case 'H':
			if (num_parse_i64(optarg, &cpu) < 0 || cpu < 0 || cpu >= CPU_SETSIZE)
				die_usage("--hog: not a CPU number: %s", optarg);
			hog = (long)cpu;
			break;
		case 'p':
			if (num_parse_dur(optarg, &period) < 0 || period <= 0)
				die_usage("--period: not a duration above 0: %s", optarg);
			break;
		case 'B':
			if (num_parse_dur(optarg, &burst) < 0 || burst <= 0)
				die_usage("--burst: not a duration above 0: %s", optarg);
			break;
		case 'P':
			if (num_parse_count(optarg, 99, &priority) < 0)
				die_usage("--priority: not 1 to 99: %s", optarg);
			break;
		case 's':
			if (num_parse(optarg, &seconds) < 0 || !(seconds > 0) || seconds > 1e6)
				die_usage("--seconds: not a number of seconds above 0: %s", optarg);
			break;
		case 'h': usage(stdout); return 0;
		default: die_usage("unknown option");
		}
	}
	if (optind < argc || bursts == (hog >= 0))
		die_usage("give --bursts or --hog CPU, and no operand");
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	end = seconds > 0 ? clock_ns() + (int64_t)(seconds * 1e9) : INT64_MAX;
	if (bursts) {
		bursts_start((int)priority);
		while (!stopped && clock_ns() < end)
			clock_sleep_ns(50000000);
	} else {
		pin(hog);
		while (!stopped && clock_ns() < end)
			clock_spin_until(clock_ns() + 1000000);
	}
	return 0;
}

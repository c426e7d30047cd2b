/* pb-workload: a synthetic workload of known cost for demos and tests.
 *
 * Command mode (default): allocate --alloc-mib MiB and touch every page,
 * busy-wait --us microseconds (wall time), burn --cpu-us microseconds of
 * CPU time, exit --exit.
 * Worker mode (--worker): speak pb-run's worker protocol: for each line
 * "ARM<TAB>RUN<TAB>PAIR" on stdin busy-wait (--us for A, --b-us for B,
 * --arm-us X=N for any arm X; --us where none is given; the same for
 * --alloc-mib, --b-alloc-mib, --arm-alloc-mib X=N, the memory freed after
 * each request) and answer "ok". Faults can be injected at the K-th
 * request so the runner's fault handling can be tested.
 *
 * The busy-wait reads CLOCK_MONOTONIC, which Linux answers in user space
 * (vDSO): its time is user time.
 *
 * Standalone C11 + POSIX: cc -O2 -o pb-workload pb-workload.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: pb-workload [--us N] [--cpu-us C] [--alloc-mib M] [--exit S] [--hang]\n"
	"       pb-workload --worker [--us N] [--b-us N] [--arm-us X=N ...]\n"
	"                   [--cpu-us C] [--alloc-mib M] [--b-alloc-mib M]\n"
	"                   [--arm-alloc-mib X=M ...] [--second-us N] [--after-b-us N]\n"
	"                   [--error-at K] [--garbage-at K] [--die-at K] [--hang-at K]\n"
	"Busy-waits N microseconds (default 1000) per command or per request,\n"
	"after allocating M MiB (default 0) and touching every page of it;\n"
	"a worker spends --b-us on arm B's requests, --arm-us X=N on arm X's\n"
	"(and --b-alloc-mib, --arm-alloc-mib X=M likewise); then burns C\n"
	"microseconds of CPU time (default 0), however long that takes.\n"
	"A worker that is not memoryless, for pb-check: --second-us N less on\n"
	"every second request (the second of each pair of two arms: a position\n"
	"effect), --after-b-us N more on a request that follows one of arm B\n"
	"(carry-over).\n";

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_us(double us)
{
	long long end = now_ns() + (long long)(us * 1000);

	while (now_ns() < end)
		;
}

/* M MiB, every page written (a page never touched is never resident);
 * the result is kept from the optimizer by the caller's use of it. */
static unsigned char *alloc_touched(double mib)
{
	size_t n = (size_t)(mib * 1048576), page = (size_t)sysconf(_SC_PAGESIZE), i;
	unsigned char *p;

	if (n == 0)
		return NULL;
	if (mib > 1048576 || !(p = malloc(n))) {
		fprintf(stderr, "pb-workload: cannot allocate %g MiB\n", mib);
		exit(1);
	}
	for (i = 0; i < n; i += page)
		p[i] = (unsigned char)i;
	p[n - 1] = 1;
	return p;
}

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Burn us microseconds of this process's CPU time, whatever the load: a
 * spin on the user-space clock that asks the kernel for the CPU time (a
 * system call) only every 20 us, so that the time is user time and the
 * burn ends at most about 20 us of CPU past its mark. */
static void burn_cpu_us(double us)
{
	long long end = cpu_ns() + (long long)(us * 1000), next = 0, now;

	if (us <= 0)
		return;
	for (;;) {
		now = now_ns();
		if (now < next)
			continue;
		if (cpu_ns() >= end)
			return;
		next = now + 20000;
	}
}

static void hang(void)
{
	for (;;)
		pause();
}

struct opts {
	double us, b_us;    /* --b-us: arm_us[1] */
	double second_us, after_b_us;
	double arm_us[26];     /* per arm letter; < 0: not given */
	double mib, b_mib, arm_mib[26];   /* --alloc-mib, the same way */
	double cpu_us;                    /* --cpu-us: CPU time, not wall */
	int exit_status, worker, do_hang;
	long error_at, garbage_at, die_at, hang_at;
};

static void parse(int argc, char **argv, struct opts *o)
{
	int i;

	memset(o, 0, sizeof *o);
	o->us = 1000;
	o->b_us = -1;
	o->b_mib = -1;
	for (i = 0; i < 26; i++)
		o->arm_us[i] = o->arm_mib[i] = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (!strcmp(a, "--worker"))
			o->worker = 1, takes = 0;
		else if (!strcmp(a, "--hang"))
			o->do_hang = 1, takes = 0;
		else if (!strcmp(a, "--help")) {
			fputs(usage, stdout);
			exit(0);
		} else if (!v) {
			fprintf(stderr, "pb-workload: bad option '%s'\n%s", a, usage);
			exit(2);
		} else if (!strcmp(a, "--us"))
			o->us = atof(v);
		else if (!strcmp(a, "--b-us"))
			o->b_us = atof(v);
		else if (!strcmp(a, "--arm-us") && v[0] >= 'A' && v[0] <= 'Z' && v[1] == '=')
			o->arm_us[v[0] - 'A'] = atof(v + 2);
		else if (!strcmp(a, "--second-us"))
			o->second_us = atof(v);
		else if (!strcmp(a, "--after-b-us"))
			o->after_b_us = atof(v);
		else if (!strcmp(a, "--cpu-us"))
			o->cpu_us = atof(v);
		else if (!strcmp(a, "--alloc-mib"))
			o->mib = atof(v);
		else if (!strcmp(a, "--b-alloc-mib"))
			o->b_mib = atof(v);
		else if (!strcmp(a, "--arm-alloc-mib") && v[0] >= 'A' && v[0] <= 'Z' && v[1] == '=')
			o->arm_mib[v[0] - 'A'] = atof(v + 2);
		else if (!strcmp(a, "--exit"))
			o->exit_status = atoi(v);
		else if (!strcmp(a, "--error-at"))
			o->error_at = atol(v);
		else if (!strcmp(a, "--garbage-at"))
			o->garbage_at = atol(v);
		else if (!strcmp(a, "--die-at"))
			o->die_at = atol(v);
		else if (!strcmp(a, "--hang-at"))
			o->hang_at = atol(v);
		else {
			fprintf(stderr, "pb-workload: bad option '%s'\n%s", a, usage);
			exit(2);
		}
		i += takes;
	}
	if (o->b_us >= 0 && o->arm_us[1] < 0)
		o->arm_us[1] = o->b_us;
	if (o->b_mib >= 0 && o->arm_mib[1] < 0)
		o->arm_mib[1] = o->b_mib;
	for (i = 0; i < 26; i++) {
		if (o->arm_us[i] < 0)
			o->arm_us[i] = o->us;
		if (o->arm_mib[i] < 0)
			o->arm_mib[i] = o->mib;
	}
}

/* The work of request k (from 1): by its arm's letter, the first byte,
 * less on every second request, more after one of arm B. */
static double request_us(const struct opts *o, const char *line, long k, char prev)
{
	double us = line[0] >= 'A' && line[0] <= 'Z' ? o->arm_us[line[0] - 'A'] : o->us;

	return us - (k % 2 == 0 ? o->second_us : 0) + (prev == 'B' ? o->after_b_us : 0);
}

static double request_mib(const struct opts *o, const char *line)
{
	return line[0] >= 'A' && line[0] <= 'Z' ? o->arm_mib[line[0] - 'A'] : o->mib;
}

static volatile unsigned char sink;   /* keeps the touched memory used */

static int serve(const struct opts *o)
{
	char line[256], prev = 0;
	long k = 0;
	unsigned char *mem;

	while (fgets(line, sizeof line, stdin)) {
		k++;
		if (k == o->die_at)
			return 3;
		if (k == o->hang_at)
			hang();
		mem = alloc_touched(request_mib(o, line));
		spin_us(request_us(o, line, k, prev));
		prev = line[0];
		burn_cpu_us(o->cpu_us);
		sink ^= mem ? mem[k % 4096] : 0;
		free(mem);
		if (k == o->error_at)
			puts("error injected failure");
		else if (k == o->garbage_at)
			puts("hello");
		else
			puts("ok");
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	unsigned char *mem;

	parse(argc, argv, &o);
	if (o.worker)
		return serve(&o);
	if (o.do_hang)
		hang();
	mem = alloc_touched(o.mib);
	spin_us(o.us);
	burn_cpu_us(o.cpu_us);
	sink = mem ? mem[0] : 0;
	free(mem);
	return o.exit_status;
}

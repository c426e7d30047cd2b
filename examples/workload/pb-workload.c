/* pb-workload: a synthetic workload of known cost for demos and tests.
 *
 * Command mode (default): busy-wait --us microseconds, exit --exit.
 * Worker mode (--worker): speak pb-run's worker protocol: for each line
 * "ARM<TAB>RUN<TAB>PAIR" on stdin busy-wait (--us for A, --b-us for B,
 * --arm-us X=N for any arm X; --us where none is given) and answer "ok". Faults can be injected at the K-th request so the
 * runner's fault handling can be tested.
 *
 * Standalone C11 + POSIX: cc -O2 -o pb-workload pb-workload.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: pb-workload [--us N] [--b-us N] [--exit S] [--hang]\n"
	"       pb-workload --worker [--us N] [--b-us N] [--arm-us X=N ...]\n"
	"                   [--second-us N] [--after-b-us N]\n"
	"                   [--error-at K] [--garbage-at K] [--die-at K] [--hang-at K]\n"
	"Busy-waits N microseconds (default 1000) per command or per request;\n"
	"a worker spends --b-us on arm B's requests, --arm-us X=N on arm X's.\n"
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

static void hang(void)
{
	for (;;)
		pause();
}

struct opts {
	double us, b_us;    /* --b-us: arm_us[1] */
	double second_us, after_b_us;
	double arm_us[26];     /* per arm letter; < 0: not given */
	int exit_status, worker, do_hang;
	long error_at, garbage_at, die_at, hang_at;
};

static void parse(int argc, char **argv, struct opts *o)
{
	int i;

	memset(o, 0, sizeof *o);
	o->us = 1000;
	o->b_us = -1;
	for (i = 0; i < 26; i++)
		o->arm_us[i] = -1;
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
	for (i = 0; i < 26; i++)
		if (o->arm_us[i] < 0)
			o->arm_us[i] = o->us;
}

/* The work of request k (from 1): by its arm's letter, the first byte,
 * less on every second request, more after one of arm B. */
static double request_us(const struct opts *o, const char *line, long k, char prev)
{
	double us = line[0] >= 'A' && line[0] <= 'Z' ? o->arm_us[line[0] - 'A'] : o->us;

	return us - (k % 2 == 0 ? o->second_us : 0) + (prev == 'B' ? o->after_b_us : 0);
}

static int serve(const struct opts *o)
{
	char line[256], prev = 0;
	long k = 0;

	while (fgets(line, sizeof line, stdin)) {
		k++;
		if (k == o->die_at)
			return 3;
		if (k == o->hang_at)
			hang();
		spin_us(request_us(o, line, k, prev));
		prev = line[0];
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

	parse(argc, argv, &o);
	if (o.worker)
		return serve(&o);
	if (o.do_hang)
		hang();
	spin_us(o.us);
	return o.exit_status;
}

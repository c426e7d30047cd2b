/* A pb-run worker that is not quite memoryless, for pb-check's example
 * (README.md). Both arms do the same work (an A/A study: pb-run --delay
 * makes the only difference), but
 *   - the second request of each pair takes --second-us less (4 us): the
 *     first left a cache warm;
 *   - a request that follows one of arm B takes --after-b-us longer
 *     (10 us): B, the arm pb-run delays, leaves work behind for whatever
 *     comes next.
 * The work is a busy-wait of --us microseconds (200).
 *
 *   cc -O2 -o worker worker.c
 *   pb-run --worker ./worker --delay 250us --runs 10 --pairs 300 --warmup 80 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int main(int argc, char **argv)
{
	double us = 200, second_us = 4, after_b_us = 10;
	char line[256], prev = 0;
	long k = 0;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--us"))
			us = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--second-us"))
			second_us = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--after-b-us"))
			after_b_us = atof(argv[i + 1]);
		else
			break;
	}
	if (i < argc) {
		fprintf(stderr, "usage: worker [--us N] [--second-us N] [--after-b-us N]\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin)) {
		/* requests come two by two: the odd ones are second in a pair */
		double t = us - (k++ % 2 ? second_us : 0) + (prev == 'B' ? after_b_us : 0);

		spin_us(t);
		prev = line[0];
		fputs("ok\n", stdout);
		fflush(stdout);
	}
	return 0;
}

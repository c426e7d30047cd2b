/* A pb-run worker in C: a template to copy.
 *
 * pb-run starts one worker per run and writes one request per observation
 * on its stdin: "A<TAB>RUN<TAB>PAIR" or "B<TAB>RUN<TAB>PAIR". The worker
 * does one unit of that arm's work and answers one line: "ok", or
 * "error TEXT". pb-run times the round trip. EOF on stdin means the run is
 * over: clean up and exit 0.
 *
 *   cc -O2 -o worker worker.c
 *   pb-run --worker ./worker --runs 10 --pairs 300 > raw.tsv */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

/* Replace these with the two versions of the work being compared.
 * Return 0 on success; anything else is reported as an error. */
static volatile unsigned long sink;

static int work_a(void)
{
	unsigned long s = 0, i;

	for (i = 0; i < 100000; i++)
		s += i * i;
	sink = s;
	return 0;
}

static int work_b(void)
{
	unsigned long s = 0, i;

	for (i = 0; i < 100000; i += 2)
		s += i * i + (i + 1) * (i + 1);
	sink = s;
	return 0;
}

int main(void)
{
	char line[256];

	/* One-time set-up of the worker's state goes here: it is part of the
	 * run (the analogue of starting a JVM), not of any observation. */
	while (fgets(line, sizeof line, stdin)) {
		int rc = line[0] == 'A' ? work_a() : line[0] == 'B' ? work_b() : -1;

		if (rc == 0)
			fputs("ok\n", stdout);
		else
			printf("error arm %c failed (%d)\n", line[0], rc);
		fflush(stdout);   /* pb-run waits for this line */
	}
	return 0;
}

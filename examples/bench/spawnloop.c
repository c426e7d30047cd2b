/* The floor under pb-run's command mode: posix_spawn(3) and waitpid(2)
 * of one program in a loop, with nothing else, timed from just before
 * the spawn to just after the reap as pb-run times a command. Prints the
 * median in ns over N runs (after W warm-up ones), as "median N". The
 * child inherits our standard fds: run it with them on /dev/null, as
 * pb-run's commands have theirs. Built and run by examples/bench/runner.sh.
 * Usage: spawnloop N W PROGRAM [ARG...] */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "clock.h"
#include "stats.h"

extern char **environ;

int main(int argc, char **argv)
{
	long n, w, k;
	double *t;

	if (argc < 4 || (n = atol(argv[1])) < 1 || (w = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: spawnloop N W PROGRAM [ARG...]\n");
		return 2;
	}
	t = malloc((size_t)n * sizeof *t);
	for (k = 0; k < w + n; k++) {
		int64_t t0 = clock_ns(), t1;
		pid_t pid;
		int ws;

		if (posix_spawn(&pid, argv[3], NULL, NULL, argv + 3, environ) != 0 ||
		    waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
			fprintf(stderr, "spawnloop: %s did not run and exit 0\n", argv[3]);
			return 1;
		}
		t1 = clock_ns();
		if (k >= w)
			t[k - w] = (double)(t1 - t0);
	}
	printf("median %.0f\n", stat_median(t, (size_t)n));
	free(t);
	return 0;
}

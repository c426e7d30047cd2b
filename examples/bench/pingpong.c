/* The floor under pb-run's worker round trip: the same worker, the same
 * request line and answer, over two pipes, with nothing but write(2),
 * read(2) and two clock reads around them: a bare ping-pong. Prints the
 * median round trip in ns over N requests (after W warm-up ones), as
 * "median N", then how many took over 20 us, as "over20us K" (on this
 * kind of machine, those whose wake-ups crossed to the other CPU).
 * Built and run by examples/bench/runner.sh.
 * Usage: pingpong N W WORKER [ARG...] */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "stats.h"

/* One request, its answer read up to the line feed; -1 on a short read. */
static int round_trip(int to, int from, const char *req, int n, char *buf, size_t cap)
{
	size_t len = 0;

	if (write(to, req, (size_t)n) != n)
		return -1;
	for (;;) {
		ssize_t r = read(from, buf + len, cap - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		len += (size_t)r;
		if (memchr(buf, '\n', len))
			return 0;
		if (len == cap)
			return -1;
	}
}

int main(int argc, char **argv)
{
	long n, w, k, over = 0;
	int in[2], out[2], ws;
	pid_t pid;
	double *t;
	char buf[4096];

	if (argc < 4 || (n = atol(argv[1])) < 1 || (w = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: pingpong N W WORKER [ARG...]\n");
		return 2;
	}
	if (pipe(in) < 0 || pipe(out) < 0 || (pid = fork()) < 0) {
		perror("pingpong");
		return 1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	t = malloc((size_t)n * sizeof *t);
	for (k = 0; k < w + n; k++) {
		char req[64];
		int len = snprintf(req, sizeof req, "%c\t1\t%ld\n", k % 2 ? 'B' : 'A', k / 2 + 1);
		int64_t t0 = clock_ns(), t1;

		if (round_trip(in[1], out[0], req, len, buf, sizeof buf) < 0) {
			fprintf(stderr, "pingpong: the worker did not answer request %ld\n", k + 1);
			return 1;
		}
		t1 = clock_ns();
		if (k >= w)
			t[k - w] = (double)(t1 - t0);
	}
	close(in[1]);
	close(out[0]);
	waitpid(pid, &ws, 0);
	for (k = 0; k < n; k++)
		over += t[k] > 20000;
	printf("median %.0f\nover20us %ld\n", stat_median(t, (size_t)n), over);
	free(t);
	return 0;
}

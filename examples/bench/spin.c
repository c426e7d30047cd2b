/* Overshoot of pb-run's busy-wait: how far past its deadline
 * clock_spin_until returns, over many 25 us spins; and the cost of one
 * clock read. Built and run by examples/bench/runner.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "stats.h"

int main(void)
{
	enum { N = 200000 };
	double *over = malloc(N * sizeof *over), *read = malloc(N * sizeof *read);
	int i;

	for (i = 0; i < N; i++) {
		int64_t deadline = clock_ns() + 25000;
		over[i] = (double)(clock_spin_until(deadline) - deadline);
	}
	for (i = 0; i < N; i++) {
		int64_t a = clock_ns(), b = clock_ns();
		read[i] = (double)(b - a);
	}
	printf("| spin overshoot past a 25 us deadline (%d spins) | median %.0f ns | "
	       "p90 %.0f ns | p99 %.0f ns |\n", N, stat_quantile(over, N, 0.5),
	       stat_quantile(over, N, 0.9), stat_quantile(over, N, 0.99));
	printf("| one CLOCK_MONOTONIC read | median %.0f ns | p90 %.0f ns | p99 %.0f ns |\n",
	       stat_quantile(read, N, 0.5), stat_quantile(read, N, 0.9),
	       stat_quantile(read, N, 0.99));
	free(over);
	free(read);
	return 0;
}

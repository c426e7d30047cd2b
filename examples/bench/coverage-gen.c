/* Synthetic studies for the coverage simulation of pb-boot's intervals
 * (examples/bench/coverage.sh, t/0820-boot-coverage.t): a pb stream of
 * STUDIES studies, each of RUNS runs of PAIRS paired differences
 *   d = u_run + e,  e ~ N(0, 1) within a run,
 * with a run effect u_run of sd SD: none, normal, or Student t with 3 df
 * scaled to sd SD (heavy-tailed). Every distribution is symmetric about
 * 0, so the true median and mean of d over runs and pairs are both 0.
 * Columns: study, run, d (6 decimals). No processes, no clock: the same
 * SEED gives the same stream. Self-contained (its own xoshiro256**), so a
 * test can build it with any cc.
 *   coverage-gen STUDIES RUNS PAIRS none|normal|t3 SD SEED */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t next(void)   /* xoshiro256** (Blackman and Vigna) */
{
	uint64_t r = rotl(state[1] * 5, 7) * 9, t = state[1] << 17;

	state[2] ^= state[0], state[3] ^= state[1], state[1] ^= state[2], state[0] ^= state[3];
	state[2] ^= t, state[3] = rotl(state[3], 45);
	return r;
}

static void seed(uint64_t s)   /* through splitmix64 */
{
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t z = (s += 0x9e3779b97f4a7c15u);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		state[i] = z ^ (z >> 31);
	}
}

static double uniform(void)   /* in (0, 1) */
{
	return ((double)(next() >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

/* Student t with 3 df over its sd (√3): z / √(χ²₃ / 3) / √3 */
static double t3_unit(void)
{
	double a = gauss(), b = gauss(), c = gauss();

	return gauss() / sqrt((a * a + b * b + c * c) / 3) / sqrt(3.0);
}

int main(int argc, char **argv)
{
	long studies, runs, pairs, s, k, p;
	double sd;
	int kind;

	if (argc != 7) {
		fprintf(stderr, "usage: coverage-gen STUDIES RUNS PAIRS none|normal|t3 SD SEED\n");
		return 2;
	}
	studies = atol(argv[1]), runs = atol(argv[2]), pairs = atol(argv[3]);
	kind = strcmp(argv[4], "none") == 0 ? 0 : strcmp(argv[4], "normal") == 0 ? 1 :
	       strcmp(argv[4], "t3") == 0 ? 2 : -1;
	sd = atof(argv[5]);
	if (studies < 1 || runs < 1 || pairs < 1 || kind < 0 || !(sd >= 0)) {
		fprintf(stderr, "coverage-gen: bad arguments\n");
		return 2;
	}
	seed(strtoull(argv[6], NULL, 10));
	printf("# coverage-gen %s %s %s %s %s %s\n", argv[1], argv[2], argv[3], argv[4],
	       argv[5], argv[6]);
	printf("study\trun\td\n");
	for (s = 1; s <= studies; s++)
		for (k = 1; k <= runs; k++) {
			double u = kind == 0 ? 0 : sd * (kind == 1 ? gauss() : t3_unit());

			for (p = 0; p < pairs; p++)
				printf("%ld\t%ld\t%.6f\n", s, k, u + gauss());
		}
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

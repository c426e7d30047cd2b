/* sim-tighter: whether the design pb-plan --sequential prices for a
 * target half-width H does what pb-plan(1) says of it. The figures
 * behind pb-plan(1), SEQUENTIAL.
 *
 *   make all    (builds it, as t/0901 uses it)
 *   share/dev/sim-tighter -w [-s SEED] S2B S2W RUNS PAIRS
 *   share/dev/sim-tighter [-m STUDIES] [-s SEED] [-g G] [-l LEVEL] S2B S2W RUNS PAIRS H
 *
 * Each pair's log ratio is mu + u + e, u ~ N(0, S2B) shared by a run's
 * pairs, e ~ N(0, S2W) (pb-plan's model). With -w: a pair stream (run
 * pair lr) of RUNS runs of PAIRS pairs, mu = 0, for pb-plan to plan from.
 * Else STUDIES (default 2000) studies of RUNS runs of PAIRS pairs each,
 * per effect mu = 0 and mu = H: each run's value the mean of its pairs'
 * lr; the t sequence (g G, default 25, at LEVEL, default 0.95) looked at
 * after every run as pb-run --until parity looks (lib/seq.c seq_look,
 * from run 3). A row per effect: the share of studies whose half-width
 * at RUNS runs is at most H, the share the rule answered by RUNS runs
 * (at mu = 0 a false alarm, at most 1 - LEVEL), each with its binomial
 * standard error, and the median half-width at RUNS. Each effect has
 * its own stream, rng_derive(SEED, effect): a row does not depend on the
 * other. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "seq.h"
#include "stats.h"

struct sim {
	double s2b, s2w, h, g, level;
	long runs, pairs, studies;
	uint64_t seed;
};

static void usage(void)
{
	fputs("usage: sim-tighter -w [-s SEED] S2B S2W RUNS PAIRS\n"
	      "       sim-tighter [-m STUDIES] [-s SEED] [-g G] [-l LEVEL] S2B S2W RUNS PAIRS H\n",
	      stderr);
	exit(2);
}

static double arg_num(const char *what, const char *v, double lo, double hi)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !(x >= lo && x <= hi)) {
		fprintf(stderr, "sim-tighter: %s is a number from %g to %g, not %s\n", what, lo, hi, v);
		exit(2);
	}
	return x;
}

/* One run's value: the mean of its pairs' log ratios. */
static double run_value(struct rng *r, const struct sim *s, double mu)
{
	double u = sqrt(s->s2b) * rng_normal(r), sum = 0;
	long j;

	for (j = 0; j < s->pairs; j++)
		sum += mu + u + sqrt(s->s2w) * rng_normal(r);
	return sum / (double)s->pairs;
}

static void write_stream(const struct sim *s)
{
	struct rng r;
	long i, j;

	rng_seed(&r, s->seed);
	printf("run\tpair\tlr\n");
	for (i = 1; i <= s->runs; i++) {
		double u = sqrt(s->s2b) * rng_normal(&r);

		for (j = 1; j <= s->pairs; j++)
			printf("%ld\t%ld\t%.17g\n", i, j, u + sqrt(s->s2w) * rng_normal(&r));
	}
}

/* One study of s->runs runs: whether the rule answered by then, and its
 * half-width at the last run. */
static void study(struct rng *r, const struct sim *s, const struct seq_stop *stop, double mu,
                  int *answered, double *hw)
{
	struct welford w = { 0 };
	struct seq_look look;
	double t, lo, hi;
	long i;

	*answered = 0;
	for (i = 0; i < s->runs; i++) {
		welford_add(&w, run_value(r, s, mu));
		seq_look(stop, &w, NULL, &look);
		*answered |= look.answered;
	}
	*hw = seq_interval(w.n, welford_mean(&w), sqrt(welford_var(&w)), s->g, s->level, &t, &lo,
	                   &hi) < 0 ? INFINITY : (hi - lo) / 2;
}

static void simulate(const struct sim *s)
{
	struct seq_stop stop = { SEQ_PARITY, 0, 0, 0, s->g, s->level, SEQ_KIND_T, 3 };
	double *hw = malloc((size_t)s->studies * sizeof *hw), n = (double)s->studies;
	int e;

	if (!hw)
		exit(1);
	printf("effect\tstudies\thw_reached\thw_se\tresolved\tresolved_se\tmedian_hw\n");
	for (e = 0; e < 2; e++) {
		struct rng r;
		long k, reached = 0, resolved = 0;
		double pr, pa;

		rng_seed(&r, rng_derive(s->seed, (uint64_t)e));
		for (k = 0; k < s->studies; k++) {
			int answered;

			study(&r, s, &stop, e ? s->h : 0, &answered, &hw[k]);
			reached += hw[k] <= s->h;
			resolved += answered;
		}
		pr = (double)reached / n, pa = (double)resolved / n;
		printf("%.17g\t%ld\t%.4f\t%.4f\t%.4f\t%.4f\t%.6g\n", e ? s->h : 0, s->studies, pr,
		       sqrt(pr * (1 - pr) / n), pa, sqrt(pa * (1 - pa) / n),
		       stat_median(hw, (size_t)s->studies));
	}
	free(hw);
}

int main(int argc, char **argv)
{
	struct sim s = { 0, 0, 0, SEQ_G_DEFAULT, 0.95, 0, 0, 2000, 20261130 };
	int c, stream = 0;

	while ((c = getopt(argc, argv, "wm:s:g:l:")) != -1) {
		switch (c) {
		case 'w': stream = 1; break;
		case 'm': s.studies = (long)arg_num("STUDIES", optarg, 1, 1e7); break;
		case 's': s.seed = (uint64_t)arg_num("SEED", optarg, 0, 1e15); break;
		case 'g': s.g = arg_num("G", optarg, 1e-6, 1e12); break;
		case 'l': s.level = arg_num("LEVEL", optarg, 0.5, 0.9999); break;
		default: usage();
		}
	}
	if (argc - optind != 5 - stream)
		usage();
	s.s2b = arg_num("S2B", argv[optind], 0, 1e6);
	s.s2w = arg_num("S2W", argv[optind + 1], 0, 1e6);
	s.runs = (long)arg_num("RUNS", argv[optind + 2], 2, 1e6);
	s.pairs = (long)arg_num("PAIRS", argv[optind + 3], 1, 1e6);
	if (stream) {
		write_stream(&s);
		return 0;
	}
	s.h = arg_num("H", argv[optind + 4], 1e-12, 10);
	simulate(&s);
	return 0;
}

/* sim-skew: what the shape of the per-run values does to pb's two
 * confidence sequences, and how often pb-check's skew check warns on
 * it. The figures behind pb-check(1), skew, and pb-tint(1), --sequence.
 *
 *   make all    (builds it, as t/1302 uses it)
 *   share/dev/sim-skew [-m STUDIES] [-s SEED] [-g G] [-l LEVEL] [-c CHECK] N...
 *
 * For each shape and each N: STUDIES (default 4000) studies of N
 * independent per-run values, looked at after every run from 2 to N.
 * Writes per row: the shape, N, the share of studies whose t sequence
 * (g G, default 25, at LEVEL, default 0.95) ever excluded the true mean,
 * the share whose median sequence ever excluded the true median, each
 * with its binomial standard error; the share of studies in which
 * pb-check's skew check, at its level CHECK (default 0.99), warns on the
 * N values: D'Agostino's skewness z beyond the two-sided quantile of 1 -
 * (1 - CHECK)/2, or Anscombe and Glynn's kurtosis z below the one-sided
 * one (flat or two humps), as lib/check.c decides; the shares warned by
 * each of the two alone; and the mean sample skewness g1 and kurtosis b2
 * at N. Below 8 runs there is no test: "-". Each shape and N has its
 * own stream, rng_derive(SEED, shape * 1000 + N): a row does not depend
 * on the others asked for.
 *
 * The shapes: normal; lognormal exp(sigma Z) for sigma 0.25 to 1 (the
 * skewness of sigma 1 is 6.2); t with 3 degrees of freedom (heavy tails,
 * symmetric); bimodal, an even mixture of N(-1, 0.3^2) and N(1, 0.3^2);
 * and a lopsided mixture, 0.8 N(0, 1) + 0.2 N(4, 1) (a run in five that
 * meets a slow state). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"
#include "seq.h"
#include "stats.h"

enum shape { NORMAL, LN25, LN50, LN75, LN100, T3, BIMODAL, LOPSIDED, SHAPES };
static const char *const shape_names[SHAPES] = {
	"normal", "lognormal-0.25", "lognormal-0.5", "lognormal-0.75", "lognormal-1", "t3",
	"bimodal", "lopsided",
};
static const double ln_sigma[SHAPES] = { 0, 0.25, 0.5, 0.75, 1 };

static double draw(struct rng *r, enum shape s)
{
	double z = rng_normal(r), c;
	int k;

	switch (s) {
	case NORMAL:
		return z;
	case LN25: case LN50: case LN75: case LN100:
		return exp(ln_sigma[s] * z);
	case T3:
		for (c = 0, k = 0; k < 3; k++) {
			double e = rng_normal(r);
			c += e * e;
		}
		return z / sqrt(c / 3);
	case BIMODAL:
		return (rng_uniform(r) < 0.5 ? -1 : 1) + 0.3 * z;
	case LOPSIDED:
		return (rng_uniform(r) < 0.2 ? 4 : 0) + z;
	default:
		abort();
	}
}

/* 0.8 Phi(m) + 0.2 Phi(m - 4) = 1/2, by bisection */
static double lopsided_median(void)
{
	double lo = -2, hi = 4;
	int i;

	for (i = 0; i < 200; i++) {
		double m = (lo + hi) / 2;

		if (0.8 * stat_pnorm(m) + 0.2 * stat_pnorm(m - 4) < 0.5)
			lo = m;
		else
			hi = m;
	}
	return (lo + hi) / 2;
}

static void truth(enum shape s, double *mean, double *median)
{
	*mean = *median = 0;
	if (s >= LN25 && s <= LN100)
		*mean = exp(ln_sigma[s] * ln_sigma[s] / 2), *median = 1;
	else if (s == LOPSIDED)
		*mean = 0.8, *median = lopsided_median();
}

struct tally {
	long t_miss, m_miss, warned, skewed, flat, tested;
	double g1_sum, b2_sum;
};

static void study(struct rng *r, enum shape s, long n, double g, double level, double crit,
                  double mean, double median, double *x, double *scratch, struct tally *ty)
{
	double sum = 0, ss = 0, g1, z, b2, zk;
	int t_missed = 0, m_missed = 0;
	long i;

	for (i = 0; i < n; i++) {
		double tstar, lo, hi, md, m, sd;

		x[i] = draw(r, s);
		sum += x[i];
		ss += x[i] * x[i];
		if (i + 1 < 2)
			continue;
		m = sum / (double)(i + 1);
		sd = sqrt(fmax(0, (ss - sum * m) / (double)i));
		if (!t_missed && seq_interval((double)(i + 1), m, sd, g, level, &tstar, &lo, &hi) == 0 &&
		    (mean < lo || mean > hi))
			t_missed = 1;
		memcpy(scratch, x, (size_t)(i + 1) * sizeof *x);
		if (!m_missed && seq_median_interval(scratch, (size_t)(i + 1), level, &md, &lo, &hi) == 0 &&
		    (median < lo || median > hi))
			m_missed = 1;
	}
	ty->t_miss += t_missed;
	ty->m_miss += m_missed;
	if (stat_skew_test(x, (size_t)n, &g1, &z) == 0 &&
	    stat_kurtosis_test(x, (size_t)n, &b2, &zk) == 0) {
		double lev = 1 - (1 - crit) / 2;   /* two tests: each at this level */
		int skewed = fabs(z) > stat_qnorm(1 - (1 - lev) / 2), flat = zk < -stat_qnorm(lev);

		ty->tested++;
		ty->skewed += skewed;
		ty->flat += flat;
		ty->warned += skewed || flat;
		ty->g1_sum += g1;
		ty->b2_sum += b2;
	}
}

static double se(long k, long m)
{
	double p = (double)k / (double)m;

	return sqrt(p * (1 - p) / (double)m);
}

/* A number of --NAME from arg, all of it, within [lo, hi]; else usage. */
static double number(int name, const char *arg, double lo, double hi)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "sim-skew: -%c wants a number from %g to %g, not '%s'\n", name, lo, hi,
		        arg);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long studies = 4000, n[64];
	unsigned long long seed = 1;
	double g = SEQ_G_DEFAULT, level = 0.95, crit = 0.99;
	int opt, a, nn = 0;

	while ((opt = getopt(argc, argv, "m:s:g:l:c:")) != -1) {
		switch (opt) {
		case 'm': studies = (long)number('m', optarg, 1, 1e8);
			if ((double)studies != atof(optarg)) {
				fprintf(stderr, "sim-skew: -m wants a whole number of studies, not '%s'\n",
				        optarg);
				return 2;
			}
			break;
		case 's': seed = (unsigned long long)number('s', optarg, 0, 9007199254740992.0); break;
		case 'g': g = number('g', optarg, 1e-12, 1e12); break;
		case 'l': level = number('l', optarg, 1e-9, 1 - 1e-9); break;
		case 'c': crit = number('c', optarg, 1e-9, 1 - 1e-9); break;
		default:
			fprintf(stderr, "usage: sim-skew [-m STUDIES] [-s SEED] [-g G] [-l LEVEL] "
			        "[-c CHECK] N...\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "sim-skew: give one or more N (runs per study), 2 or more\n");
		return 2;
	}
	/* every N before any row; below 1000, which keeps each shape's stream
	 * (shape * 1000 + N) its own, and the cost (N^2: a look at each run) */
	for (a = optind; a < argc; a++) {
		double v = atof(argv[a]);
		char *end;

		strtod(argv[a], &end);
		if (nn == 64 || end == argv[a] || *end || !(v >= 2 && v <= 999) || v != floor(v)) {
			fprintf(stderr, "sim-skew: N is a whole number from 2 to 999 (at most 64 of "
			        "them), not %s\n", argv[a]);
			return 2;
		}
		n[nn++] = (long)v;
	}
	printf("shape\truns\tt_error\tt_se\tmedian_error\tmedian_se\tskew_warned\tskewed\tflat\t"
	       "mean_g1\tmean_b2\n");
	for (int s = 0; s < SHAPES; s++) {
		for (a = 0; a < nn; a++) {
			long k;
			double mean, median, *x, *scratch;
			struct tally ty = { 0, 0, 0, 0, 0, 0, 0, 0 };
			struct rng r;

			x = malloc((size_t)n[a] * sizeof *x);
			scratch = malloc((size_t)n[a] * sizeof *x);
			if (!x || !scratch)
				return 1;
			truth((enum shape)s, &mean, &median);
			rng_seed(&r, rng_derive(seed, (uint64_t)s * 1000 + (uint64_t)n[a]));
			for (k = 0; k < studies; k++)
				study(&r, (enum shape)s, n[a], g, level, crit, mean, median, x, scratch, &ty);
			printf("%s\t%ld\t%.4f\t%.4f\t%.4f\t%.4f\t", shape_names[s], n[a],
			       (double)ty.t_miss / studies, se(ty.t_miss, studies),
			       (double)ty.m_miss / studies, se(ty.m_miss, studies));
			if (ty.tested)
				printf("%.4f\t%.4f\t%.4f\t%.3f\t%.3f\n", (double)ty.warned / (double)ty.tested,
				       (double)ty.skewed / (double)ty.tested, (double)ty.flat / (double)ty.tested,
				       ty.g1_sum / (double)ty.tested, ty.b2_sum / (double)ty.tested);
			else
				printf("-\t-\t-\t-\t-\n");
			fflush(stdout);
			free(x);
			free(scratch);
		}
	}
	return 0;
}

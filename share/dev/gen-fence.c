/* gen-fence: the table of pb-check's outlier fence (lib/check.c, section
 * 6): for n normal values, the level quantile k of their farthest
 * distance beyond the type-7 quartiles, in IQRs. A study of n clean runs
 * then crosses the fence k in 1 - level of studies.
 *
 *   cc -std=c11 -D_XOPEN_SOURCE=700 -O2 -Ilib -o gen-fence share/dev/gen-fence.c lib/libpb.a -lm
 *   ./gen-fence [-m SAMPLES] [-l LEVEL] [-s SEED] N...
 *
 * writes "n  k  rate_se  samples" per N: rate_se is the Monte Carlo
 * standard error of the crossing rate at k (a share: 5e-6 is 0.0005
 * percentage points). Each n has its own stream, rng_derive(SEED, n), so
 * a row does not depend on the other Ns asked for.
 *
 * Conditional Monte Carlo. For n >= 5 the type-7 quartiles are read from
 * the order statistics x(2) .. x(n-1) alone ((n - 1)/4 >= 1), and the
 * farthest value is x(1) or x(n). Given the middle ones, x(1) is a normal
 * truncated above x(2) and x(n) one truncated below x(n-1), independent,
 * so a study crosses the fences L = q1 - k IQR, U = q3 + k IQR with
 * probability g(k) = 1 - (1 - Phi(L)/Phi(x(2))) (1 - Q(U)/Q(x(n-1)))
 * (1 when x(2) < L or x(n-1) > U). The rate is the mean of g, which
 * varies far less than the 0/1 of a crossing: the same accuracy from
 * fewer samples. g is found at a grid of k about a pilot quantile; k is
 * where log rate, interpolated quadratically between the grid's points,
 * is ln(1 - level). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rng.h"

enum { GRID = 9 };

struct normals {
	struct rng r;
	double spare;
	int has_spare;
};

static double normal(struct normals *g)
{
	double u, v, s, f;

	if (g->has_spare) {
		g->has_spare = 0;
		return g->spare;
	}
	do {
		u = 2 * rng_uniform(&g->r) - 1;
		v = 2 * rng_uniform(&g->r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	f = sqrt(-2 * log(s) / s);
	g->spare = v * f;
	g->has_spare = 1;
	return u * f;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void sort(double *x, size_t n)
{
	size_t i, j;

	if (n > 64) {
		qsort(x, n, sizeof *x, by_value);
		return;
	}
	for (i = 1; i < n; i++) {
		double v = x[i];

		for (j = i; j > 0 && x[j - 1] > v; j--)
			x[j] = x[j - 1];
		x[j] = v;
	}
}

/* R's type 7 of sorted x. */
static double quantile7(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);

	return k >= n - 1 ? x[n - 1] : x[k] + (h - (double)k) * (x[k + 1] - x[k]);
}

/* lower tail Phi(z) and upper Q(z) = Phi(-z), each without cancellation */
static double lower(double z) { return 0.5 * erfc(-z / M_SQRT2); }
static double upper(double z) { return 0.5 * erfc(z / M_SQRT2); }

/* one study: its middle, as what g needs */
struct middle {
	double q1, iqr, q3, x2, xm;   /* xm: x(n-1) */
};

static void draw(struct normals *g, double *x, size_t n, struct middle *m)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = normal(g);
	sort(x, n);
	m->q1 = quantile7(x, n, 0.25);
	m->q3 = quantile7(x, n, 0.75);
	m->iqr = m->q3 - m->q1;
	m->x2 = x[1];
	m->xm = x[n - 2];
}

static double crossing(const struct middle *m, double k)
{
	double lo = m->q1 - k * m->iqr, hi = m->q3 + k * m->iqr, pl, pu;

	if (lo >= m->x2 || hi <= m->xm)
		return 1;
	pl = lower(lo) / lower(m->x2);
	pu = upper(hi) / upper(m->xm);
	return pl + pu - pl * pu;
}

/* The pilot: the quantile of the farthest distance over m plain samples. */
static double pilot(struct normals *g, double *x, size_t n, size_t m, double level)
{
	double *far = malloc(m * sizeof *far), q1, q3, k;
	size_t i;

	if (!far)
		exit(1);
	for (i = 0; i < m; i++) {
		size_t j;

		for (j = 0; j < n; j++)
			x[j] = normal(g);
		sort(x, n);
		q1 = quantile7(x, n, 0.25);
		q3 = quantile7(x, n, 0.75);
		far[i] = fmax(q1 - x[0], x[n - 1] - q3) / (q3 - q1);
	}
	sort(far, m);
	k = quantile7(far, m, level);
	free(far);
	return k;
}

static void fence(size_t n, size_t m, double level, unsigned long long seed)
{
	struct normals g = { 0 };
	struct middle mid;
	double *x = malloc(n * sizeof *x), k[GRID], sum[GRID] = { 0 }, sq[GRID] = { 0 };
	double k0, lr[GRID], target = log(1 - level), step, best, se;
	size_t i, j, at = 0;

	if (!x)
		exit(1);
	rng_seed(&g.r, rng_derive(seed, n));
	k0 = pilot(&g, x, n, 200000, level);
	step = 0.005 * k0;   /* the pilot is within 1 % of k (it is, with 2e5) */
	for (j = 0; j < GRID; j++)
		k[j] = k0 + step * ((double)j - (GRID - 1) / 2.0);
	for (i = 0; i < m; i++) {
		draw(&g, x, n, &mid);
		for (j = 0; j < GRID; j++) {
			double c = crossing(&mid, k[j]);

			sum[j] += c;
			sq[j] += c * c;
		}
	}
	for (j = 0; j < GRID; j++)
		lr[j] = log(sum[j] / (double)m);
	/* the grid point whose rate is nearest the target, then the
	 * parabola through it and its neighbours */
	best = INFINITY;
	for (j = 1; j + 1 < GRID; j++)
		if (fabs(lr[j] - target) < best) {
			best = fabs(lr[j] - target);
			at = j;
		}
	{
		double a = lr[at - 1], b = lr[at], c = lr[at + 1];
		double c2 = (a - 2 * b + c) / 2, c1 = (c - a) / 2, c0 = b - target, t;

		/* c2 t^2 + c1 t + c0 = 0: its root near 0, without cancellation */
		t = -2 * c0 / (c1 + copysign(sqrt(c1 * c1 - 4 * c2 * c0), c1));
		if (!(fabs(t) <= 1.5)) {
			fprintf(stderr, "gen-fence: n %zu: the quantile is off the grid (t %g)\n", n, t);
			exit(1);
		}
		se = sqrt((sq[at] / (double)m - pow(sum[at] / (double)m, 2)) / (double)(m - 1));
		printf("%zu\t%.9g\t%.3g\t%zu\n", n, k[at] + t * step, se, m);
	}
	fflush(stdout);
	free(x);
}

int main(int argc, char **argv)
{
	size_t m = 10000000;
	double level = 0.99;
	unsigned long long seed = 20261205;
	int o;

	while ((o = getopt(argc, argv, "m:l:s:")) != -1) {
		switch (o) {
		case 'm': m = strtoull(optarg, NULL, 10); break;
		case 'l': level = strtod(optarg, NULL); break;
		case 's': seed = strtoull(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: gen-fence [-m SAMPLES] [-l LEVEL] [-s SEED] N...\n");
			return 2;
		}
	}
	if (optind == argc || m < 2 || !(level > 0.5 && level < 1)) {
		fprintf(stderr, "usage: gen-fence [-m SAMPLES] [-l LEVEL] [-s SEED] N...\n");
		return 2;
	}
	for (; optind < argc; optind++) {
		long n = strtol(argv[optind], NULL, 10);

		if (n < 5) {
			fprintf(stderr, "gen-fence: n must be 5 or more, not '%s'\n", argv[optind]);
			return 2;
		}
		fence((size_t)n, m, level, seed);
	}
	return 0;
}

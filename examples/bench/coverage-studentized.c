/* The studentized (bootstrap-t) interval over blocks, measured against
 * pb-boot's intervals in examples/bench/coverage.sh when choosing how to
 * correct the block bootstrap (issue 12); pb-boot does not offer it.
 * Reads a coverage-gen stream (study, run, d; a study's rows together) on
 * stdin. For each study and statistic, B = 2000 resamples of whole runs:
 *   t* = (θ* - θ) / s*,  interval θ - t*(0.975) s .. θ - t*(0.025) s,
 * with s from the resample's runs: for the mean (ratio of sums) the
 * linearization sqrt(Σ_j (S_j - θ* N_j)^2) / N; for the median the
 * sign-count one sqrt(Σ_j (L_j - N_j/2)^2) / N, L_j the run's rows below
 * θ* (its 1/density factor cancels in θ - t* s). Prints, for median and
 * mean: coverage of 0 in %, its binomial SE, the mean width. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

#define B 2000
#define MAXRUNS 64

struct row {
	double d;
	int run;
};

static int cmp_row(const void *a, const void *b)
{
	double x = ((const struct row *)a)->d, y = ((const struct row *)b)->d;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double weighted_median(const struct row *x, size_t n, const int *w, long total)
{
	long k1 = (total + 1) / 2, k2 = total / 2 + 1, cum = 0;
	double v1 = 0;
	int have = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		cum += w[x[i].run];
		if (!have && cum >= k1)
			v1 = x[i].d, have = 1;
		if (cum >= k2)
			return v1 + (x[i].d - v1) / 2;
	}
	return NAN;
}

/* θ and s of the resample w (x sorted; S, N per run) */
static void stat_se(int median, const struct row *x, size_t n, const int *w, int runs,
                    const double *S, const int *N, double *th, double *s)
{
	double sum = 0, v = 0, L[MAXRUNS] = { 0 };
	long total = 0;
	int j;
	size_t i;

	for (j = 0; j < runs; j++)
		total += (long)w[j] * N[j], sum += w[j] * S[j];
	if (!median) {
		*th = sum / (double)total;
		for (j = 0; j < runs; j++)
			v += w[j] * (S[j] - *th * N[j]) * (S[j] - *th * N[j]);
	} else {
		*th = weighted_median(x, n, w, total);
		for (i = 0; i < n && x[i].d <= *th; i++)
			L[x[i].run] += x[i].d < *th ? 1 : 0.5;
		for (j = 0; j < runs; j++)
			v += w[j] * (L[j] - N[j] / 2.0) * (L[j] - N[j] / 2.0);
	}
	*s = sqrt(v) / (double)total;
}

static double order_quantile(const double *t, double p)
{
	double pos = (B + 1) * p;
	int k = (int)floor(pos);

	if (k < 1)
		return t[0];
	if (k >= B)
		return t[B - 1];
	return t[k - 1] + (pos - k) * (t[k] - t[k - 1]);
}

int main(void)
{
	static double t[B];
	struct row *x = NULL;
	size_t n = 0, cap = 0;
	long study = -1, s, run, studies = 0, cover[2] = { 0, 0 };
	double d, width[2] = { 0, 0 };
	char line[256];
	int runs = 0, more = 1, m;
	struct rng r;

	rng_seed(&r, 12);
	while (more) {
		more = 0;
		while (fgets(line, sizeof line, stdin))
			if (line[0] != '#' && line[0] != 's' && sscanf(line, "%ld %ld %lf", &s, &run, &d) == 3) {
				more = 1;
				break;
			}
		if (study >= 0 && (!more || s != study)) {
			double S[MAXRUNS] = { 0 };
			int N[MAXRUNS] = { 0 }, w[MAXRUNS], j, b;
			size_t i;

			for (i = 0; i < n; i++)
				S[x[i].run] += x[i].d, N[x[i].run]++;
			qsort(x, n, sizeof *x, cmp_row);
			for (m = 0; m < 2; m++) {
				double est, se, th, sb, lo, hi;

				for (j = 0; j < runs; j++)
					w[j] = 1;
				stat_se(m, x, n, w, runs, S, N, &est, &se);
				for (b = 0; b < B; b++) {
					memset(w, 0, sizeof w);
					for (j = 0; j < runs; j++)
						w[rng_below(&r, (uint32_t)runs)]++;
					stat_se(m, x, n, w, runs, S, N, &th, &sb);
					t[b] = sb > 0 ? (th - est) / sb : th > est ? INFINITY : th < est ? -INFINITY : 0;
				}
				qsort(t, B, sizeof *t, cmp_double);
				lo = est - order_quantile(t, 0.975) * se;
				hi = est - order_quantile(t, 0.025) * se;
				cover[m] += lo <= 0 && hi >= 0;
				width[m] += hi - lo;
			}
			studies++;
			n = 0, runs = 0;
		}
		if (!more)
			break;
		if (run < 1 || run > MAXRUNS) {
			fprintf(stderr, "coverage-studentized: runs 1..%d only\n", MAXRUNS);
			return 1;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			x = realloc(x, cap * sizeof *x);
			if (!x)
				return 1;
		}
		study = s;
		runs = run > runs ? (int)run : runs;
		x[n].d = d, x[n++].run = (int)run - 1;
	}
	for (m = 0; m < 2; m++) {
		double p = (double)cover[m] / (double)studies;

		printf("%s %.1f %.1f %.4g\n", m ? "median" : "mean", 100 * p,
		       100 * sqrt(p * (1 - p) / (double)studies), width[m] / (double)studies);
	}
	free(x);
	return 0;
}

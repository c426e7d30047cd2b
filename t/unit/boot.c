/* Unit tests of lib/boot.c: the estimate, percentile and BCa ends on
 * replicates with known order statistics (hand and R values), jackknife
 * values against leave-one-out by brute force, every replicate against
 * the statistic of the explicit resample the same draws make, and the
 * law of the median replicates against the exact bootstrap distribution
 * (R: binomial sums). Quantiles other than the median: the estimate
 * against R's quantile(type = 7), the rest as the median's. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "err.h"
#include "rng.h"
#include "stats.h"
#include "tap.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void shuffle(double *x, size_t n, struct rng *r)
{
	size_t i;

	for (i = n - 1; i > 0; i--) {
		size_t j = rng_below(r, (uint32_t)(i + 1));
		double t = x[i];
		x[i] = x[j];
		x[j] = t;
	}
}

/* Median or mean of a copy (the plain definition: sort, middle); other
 * quantiles by stat_quantile, the toolkit's type 7. */
static double plain_stat(const double *x, size_t n, struct boot_stat stat)
{
	double *c = malloc(n * sizeof *c), v, s = 0;
	size_t i;

	memcpy(c, x, n * sizeof *c);
	qsort(c, n, sizeof *c, cmp_double);
	for (i = 0; i < n; i++)
		s += c[i];
	if (stat.kind == BOOT_KIND_QUANTILE && stat.p != 0.5)
		v = stat_quantile(c, n, stat.p);
	else
		v = stat.kind == BOOT_KIND_MEAN ? s / (double)n
		  : n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return v;
}

/* The statistics every exact test runs: the mean, the median, and
 * quantiles near the ends, where the order statistics are off centre. */
static const struct boot_stat all_stats[] = {
	{ BOOT_KIND_MEAN, 0 }, { BOOT_KIND_QUANTILE, 0.5 }, { BOOT_KIND_QUANTILE, 0.9 },
	{ BOOT_KIND_QUANTILE, 0.99 }, { BOOT_KIND_QUANTILE, 0.05 }, { BOOT_KIND_QUANTILE, 0 },
	{ BOOT_KIND_QUANTILE, 1 },
};
enum { NSTATS = sizeof all_stats / sizeof *all_stats };

static const char *stat_label(struct boot_stat s)
{
	static char buf[32];

	if (s.kind == BOOT_KIND_MEAN)
		return "mean";
	if (s.p == 0.5)
		return "median";
	snprintf(buf, sizeof buf, "q%g", s.p);
	return buf;
}

static void test_stat_sorted(void)
{
	static const double odd[] = { -3, 1, 1, 4, 9 }, even[] = { -3, 1, 2, 4, 9, 10 };

	is_num(boot_stat_sorted(odd, 5, BOOT_MEDIAN), 1, 0, "median, odd n: the middle");
	is_num(boot_stat_sorted(even, 6, BOOT_MEDIAN), 3, 0, "median, even n: mean of the middles");
	is_num(boot_stat_sorted(even, 6, BOOT_MEAN), 23.0 / 6, 0, "mean");
	is_num(boot_stat_sorted(even, 2, BOOT_MEDIAN), -1, 0, "median, n = 2");
}

/* R: x <- c(-3, 1, 2, 4, 9, 10, 10.5); sprintf("%.17g", quantile(x, p, type = 7))
 *   p = 0.9: 10.199999999999999; 0.99: 10.469999999999999; 0.05: -1.7999999999999996; 0.25: 1.5;
 *   0.95: 10.35; 0: -3; 1: 10.5 */
static void test_quantile_sorted(void)
{
	static const double x[] = { -3, 1, 2, 4, 9, 10, 10.5 };
	static const struct { double p, want; } q[] = {
		{ 0.9, 10.199999999999999 }, { 0.99, 10.469999999999999 }, { 0.05, -1.7999999999999996 },
		{ 0.25, 1.5 }, { 0.95, 10.35 }, { 0, -3 }, { 1, 10.5 },
	};
	size_t i;

	for (i = 0; i < sizeof q / sizeof *q; i++) {
		struct boot_stat st = { BOOT_KIND_QUANTILE, q[i].p };
		char name[64];

		snprintf(name, sizeof name, "quantile %g of 7 values, as R's type 7", q[i].p);
		is_num(boot_stat_sorted(x, 7, st), q[i].want, 1e-15, name);
	}
}

/* Ends are the (B+1)a-th and (B+1)(1-a)-th order statistics, linear
 * between neighbours, clamped to the smallest and largest. */
static void test_percentile(void)
{
	struct rng r;
	double rep[1999], lo, hi;
	size_t i;

	rng_seed(&r, 5);
	for (i = 0; i < 1999; i++)
		rep[i] = (double)(i + 1);
	shuffle(rep, 1999, &r);
	boot_percentile(rep, 1999, 0.5, &lo, &hi);
	is_num(lo, 500, 0, "B = 1999, level 0.5: lo = 500th of 1..1999");
	is_num(hi, 1500, 0, "B = 1999, level 0.5: hi = 1500th");
	ok(rep[0] == 1 && rep[1998] == 1999, "boot_percentile sorts the replicates");

	/* squares 1..99: 100 * 0.025 = 2.5 -> 4 + 0.5 * (9 - 4) = 6.5;
	 * 100 * 0.975 = 97.5 -> 97^2 + 0.5 * (98^2 - 97^2) = 9506.5 */
	for (i = 0; i < 99; i++)
		rep[i] = (double)((i + 1) * (i + 1));
	shuffle(rep, 99, &r);
	boot_percentile(rep, 99, 0.95, &lo, &hi);
	is_num(lo, 6.5, 1e-13, "B = 99, level 0.95: lo between the 2nd and 3rd");
	is_num(hi, 9506.5, 1e-13, "B = 99, level 0.95: hi between the 97th and 98th");

	/* B = 10: 11 * 0.025 < 1 and 11 * 0.975 > 10, the extremes (as
	 * boot's norm.inter) */
	for (i = 0; i < 10; i++)
		rep[i] = (double)i * 3 - 7;
	shuffle(rep, 10, &r);
	boot_percentile(rep, 10, 0.95, &lo, &hi);
	ok(lo == -7 && hi == 20, "B = 10, level 0.95: clamped to the extremes");
	rep[0] = 42;
	boot_percentile(rep, 1, 0.95, &lo, &hi);
	ok(lo == 42 && hi == 42, "B = 1: both ends the one replicate");
}

/* Replicates 1..1000: the end at position p is p itself. References,
 * R:
 *   jack <- c(1, 2, 4, 8, 16); L <- mean(jack) - jack
 *   a <- sum(L^3) / (6 * sum(L^2)^1.5)             # -0.066265735490670261
 *   bca <- function(below, a) { w <- qnorm(below / 1000); z <- qnorm(c(.025, .975))
 *     1001 * pnorm(w + (w + z) / (1 - a * (w + z))) }
 *   sprintf("%.17g", bca(400, a))      # est 400.5: 2.2083815237203885 900.60552632792337
 *   sprintf("%.17g", bca(399.5, a))    # est 400, a tie: 2.1871620064928043 900.19308747801415
 *   sprintf("%.17g", bca(399.5, 0))    # equal jack: 6.7766562518457381 927.49220809553719 */
/* BCa at level 0.95 with pb's default ties, as pb-boot calls it. */
static int bca95(double *rep, size_t nrep, double est, const double *jack, size_t nj,
                 enum boot_ties ties, double *lo, double *hi)
{
	double zlo, zhi;

	boot_z(0.95, 0, &zlo, &zhi);
	return boot_bca(rep, nrep, est, jack, nj, zlo, zhi, ties, lo, hi);
}

static void test_bca(void)
{
	static const double jack[] = { 1, 2, 4, 8, 16 }, flat[] = { 3, 3, 3 };
	static const double flat01[] = { 0.1, 0.1, 0.1 };
	struct rng r;
	double rep[1000], lo, hi, lo2, hi2;
	size_t i;
	int rc;

	rng_seed(&r, 6);
	for (i = 0; i < 1000; i++)
		rep[i] = (double)(i + 1);
	shuffle(rep, 1000, &r);
	rc = bca95(rep, 1000, 400.5, jack, 5, BOOT_TIES_HALF, &lo, &hi);
	ok(rc == 0, "BCa, est 400.5: defined");
	is_num(lo, 2.2083815237203885, 1e-11, "BCa, est 400.5: lo (R)");
	is_num(hi, 900.60552632792337, 1e-12, "BCa, est 400.5: hi (R)");
	rc = bca95(rep, 1000, 400, jack, 5, BOOT_TIES_HALF, &lo, &hi);
	is_num(lo, 2.1871620064928043, 1e-11, "BCa, est 400 = a replicate, counted half: lo (R)");
	is_num(hi, 900.19308747801415, 1e-12, "BCa, est 400 = a replicate, counted half: hi (R)");
	/* --ties below: the tie counts as above, 399 below, as 399.5 + 0.5
	 * above: the same as est 399.5 counted plainly. */
	rc = bca95(rep, 1000, 400, jack, 5, BOOT_TIES_BELOW, &lo, &hi);
	bca95(rep, 1000, 399.5, jack, 5, BOOT_TIES_HALF, &lo2, &hi2);
	ok(rc == 0 && lo == lo2 && hi == hi2, "BCa, ties below: the tie at 400 counts above "
	   "(= est 399.5)");
	rc = bca95(rep, 1000, 400, flat, 3, BOOT_TIES_HALF, &lo, &hi);
	ok(rc == BOOT_BCA_ACC_UNDEFINED && !isnan(lo), "BCa, equal jackknife values: "
	   "acceleration undefined, 0 used, not NaN");
	is_num(lo, 6.7766562518457381, 1e-12, "BCa, a = 0: lo (R)");
	is_num(hi, 927.49220809553719, 1e-12, "BCa, a = 0: hi (R)");
	/* Was a lib bug: the mean of equal values that does not round back
	 * to them (0.1 x 3) made deviations of an ulp and acc = -1/(6 sqrt 3) */
	rc = bca95(rep, 1000, 400, flat01, 3, BOOT_TIES_HALF, &lo2, &hi2);
	ok(rc == BOOT_BCA_ACC_UNDEFINED && lo2 == lo && hi2 == hi,
	   "BCa, jackknife values all 0.1: undefined, the a = 0 interval");
	ok(bca95(rep, 1000, 0.5, jack, 5, BOOT_TIES_HALF, &lo, &hi) == BOOT_BCA_Z0_INFINITE,
	   "BCa, every replicate above est: z0 infinite");
	ok(bca95(rep, 1000, 1000.5, jack, 5, BOOT_TIES_HALF, &lo, &hi) == BOOT_BCA_Z0_INFINITE,
	   "BCa, every replicate below est: z0 infinite");
	ok(bca95(rep, 1000, 1, jack, 5, BOOT_TIES_HALF, &lo, &hi) == 0,
	   "BCa, est = the smallest replicate: defined (a half)");
	ok(bca95(rep, 1000, 1, jack, 5, BOOT_TIES_BELOW, &lo, &hi) == BOOT_BCA_Z0_INFINITE,
	   "BCa, est = the smallest replicate, ties below: none below, z0 infinite");
	for (i = 0; i < 1000; i++)
		rep[i] = 7;
	rc = bca95(rep, 1000, 7, flat, 3, BOOT_TIES_HALF, &lo, &hi);
	ok(rc == BOOT_BCA_ACC_UNDEFINED && lo == 7 && hi == 7, "BCa, every replicate = est: z0 = 0, the point");
}

/* The expanded levels of Hesterberg (2015), R:
 *   for (k in c(2, 5, 10, 20)) { z <- sqrt(k/(k-1)) * qt(0.025, k-1)
 *     cat(sprintf("%d %.17g %.17g\n", k, z, pnorm(z))) }
 * and the plain ones: qnorm(0.025), qnorm(0.975). */
static void test_expanded(void)
{
	static const double want[][3] = {
		{ 2, -17.969287064187526, 1.695219072605348e-72 },
		{ 5, -3.1041599955094115, 0.00095410055188248875 },
		{ 10, -2.3845230199022156, 0.0085506390244063698 },
		{ 20, -2.1473973702164253, 0.015880829920347939 },
	};
	double zlo, zhi, rep[2000], lo, hi;
	struct rng r;
	size_t i;

	for (i = 0; i < 4; i++) {
		boot_z(0.95, (size_t)want[i][0], &zlo, &zhi);
		is_num(zlo, want[i][1], 1e-14, "boot_z(0.95, k): sqrt(k/(k-1)) t(k-1) (R)");
		ok(zhi == -zlo, "boot_z(0.95, %g): symmetric", want[i][0]);
		/* Φ's condition number at z is about z² (323 at -18) */
		is_num(stat_pnorm(zlo), want[i][2], 4e-15 * (1 + zlo * zlo), "  its level (R)");
	}
	boot_z(0.95, 0, &zlo, &zhi);
	is_num(zlo, -1.959963984540054, 1e-15, "boot_z(0.95, 0): qnorm(0.025) (R)");
	is_num(zhi, 1.959963984540054, 1e-15, "boot_z(0.95, 0): qnorm(0.975) (R)");
	boot_z(0.9999999999999999, 0, &zlo, &zhi);
	ok(isfinite(zlo) && zhi == -zlo, "boot_z at level 1 - 2^-53: finite, symmetric (1 - a rounds to 1)");
	/* 2001 pnorm(z) = 17.109828687837147 for 10 blocks: between the 17th
	 * and 18th of 1..2000 */
	rng_seed(&r, 13);
	for (i = 0; i < 2000; i++)
		rep[i] = (double)(i + 1);
	shuffle(rep, 2000, &r);
	boot_z(0.95, 10, &zlo, &zhi);
	boot_percentile_z(rep, 2000, zlo, zhi, &lo, &hi);
	is_num(lo, 17.109828687837147, 1e-12, "expanded, 10 blocks, B = 2000: lo at 2001 x 0.00855 (R)");
	is_num(hi, 2001 - 17.109828687837147, 1e-12, "expanded, 10 blocks: hi mirrored");
	boot_z(0.95, 2, &zlo, &zhi);
	boot_percentile_z(rep, 2000, zlo, zhi, &lo, &hi);
	ok(lo == 1 && hi == 2000, "expanded, 2 blocks: the extremes");
}

/* BCa where 1 - acc (z0 + z) <= 0: the level is at its limit, not folded
 * back to the other side. Was a lib bug: with est the smallest
 * replicate (z0 = qnorm(0.0005)), acc = -0.164 (one jackknife value of 100
 * apart) and level 0.999, lo was the largest replicate. */
static void test_bca_fold(void)
{
	double rep[1000], jack[100] = { 0 }, lo, hi, zlo, zhi;
	size_t i;
	int rc;

	for (i = 0; i < 1000; i++)
		rep[i] = (double)(i + 1);
	jack[99] = 1;
	boot_z(0.999, 0, &zlo, &zhi);
	lo = hi = NAN;
	rc = boot_bca(rep, 1000, 1, jack, 100, zlo, zhi, BOOT_TIES_HALF, &lo, &hi);
	ok(rc == 0 && lo == 1 && hi >= lo, "BCa with 1 - acc (z0 + z) < 0: lo the smallest (%g), "
	   "not the largest", lo);
}

/* Acceleration is scale-free, and computed for values whose cubes
 * overflow (1e200) or underflow (1e-200). */
static void test_bca_scale(void)
{
	static const double jack[] = { 1, 2, 4, 8, 16 };
	double big[5], tiny[5], rep[1000], lo, hi, lo2, hi2, lo3, hi3;
	struct rng r;
	size_t i;

	for (i = 0; i < 5; i++)
		big[i] = jack[i] * 1e200, tiny[i] = jack[i] * 1e-200;
	rng_seed(&r, 6);
	for (i = 0; i < 1000; i++)
		rep[i] = (double)(i + 1);
	bca95(rep, 1000, 400.5, jack, 5, BOOT_TIES_HALF, &lo, &hi);
	bca95(rep, 1000, 400.5, big, 5, BOOT_TIES_HALF, &lo2, &hi2);
	bca95(rep, 1000, 400.5, tiny, 5, BOOT_TIES_HALF, &lo3, &hi3);
	ok(fabs(lo2 - lo) <= 1e-9 * lo && fabs(hi2 - hi) <= 1e-9 * hi,
	   "BCa, jackknife values x 1e200: the same interval (%.17g %.17g)", lo2, hi2);
	ok(fabs(lo3 - lo) <= 1e-9 * lo && fabs(hi3 - hi) <= 1e-9 * hi,
	   "BCa, jackknife values x 1e-200: the same interval (%.17g %.17g)", lo3, hi3);
}

/* The draws as lib/boot.c documents them: replicates of the mean over
 * rows take two indices per 64-bit output (high half,
 * then low half; Lemire's multiply-and-reject on each), the last odd one
 * from a high half; blocks take rng_below. */
static void row_draws(struct rng *r, uint32_t n, uint32_t *idx)
{
	uint32_t threshold = (uint32_t)(-n) % n, k = 0;

	while (k + 2 <= n) {
		uint64_t v = rng_next(r), m = (v >> 32) * n;
		if ((uint32_t)m >= threshold)
			idx[k++] = (uint32_t)(m >> 32);
		m = (v & 0xffffffffu) * n;
		if ((uint32_t)m >= threshold)
			idx[k++] = (uint32_t)(m >> 32);
	}
	while (k < n) {
		uint64_t m = (rng_next(r) >> 32) * n;
		if ((uint32_t)m >= threshold)
			idx[k++] = (uint32_t)(m >> 32);
	}
}

/* Mean replicates whose multiset is the sample's equal est exactly, the
 * data chosen so that sums in draw order do not: 0.1 + 0.2 + 0.3 is
 * 0.6000000000000001, 0.3 + 0.2 + 0.1 is 0.6. Was a lib bug (BCa counted
 * such ties as below or above by the last bit). */
static void test_mean_ties(void)
{
	static const double x[] = { 0.1, 0.2, 0.3 };
	static const uint32_t block[] = { 0, 1, 2 };
	double rep[3000], est = boot_stat_sorted(x, 3, BOOT_MEAN);
	struct rng mirror;
	size_t b, i, same = 0, bad = 0;
	uint32_t c[3];

	boot_replicates(x, 3, BOOT_MEAN, 14, 0, 3000, rep);
	for (b = 0; b < 3000; b++) {
		uint32_t idx[3];

		rng_seed(&mirror, rng_derive(14, b));
		row_draws(&mirror, 3, idx);
		memset(c, 0, sizeof c);
		for (i = 0; i < 3; i++)
			c[idx[i]]++;
		if (c[0] == 1 && c[1] == 1 && c[2] == 1)
			same++, bad += rep[b] != est;
	}
	ok(same > 500 && bad == 0, "mean: the %zu replicates of {0.1, 0.2, 0.3} all equal est "
	   "(%zu not)", same, bad);
	boot_block_replicates(x, block, 3, 3, BOOT_MEAN, 15, 0, 3000, rep);
	for (b = 0, same = 0, bad = 0; b < 3000; b++) {
		rng_seed(&mirror, rng_derive(15, b));
		memset(c, 0, sizeof c);
		for (i = 0; i < 3; i++)
			c[rng_below(&mirror, 3)]++;
		if (c[0] == 1 && c[1] == 1 && c[2] == 1)
			same++, bad += rep[b] != est;
	}
	ok(same > 500 && bad == 0, "block mean: the %zu replicates of every block once all equal est "
	   "(%zu not)", same, bad);
	est = boot_stat_sorted((const double[]){ 0.1, 0.1, 0.1 }, 3, BOOT_MEAN);
	ok(est == 0.1, "mean of 0.1 x 3: 0.1 (the sum is 0.30000000000000004)");
}

/* Leave-one-out by brute force, for n = 2..16 with ties. */
static void test_jackknife(void)
{
	struct rng r;
	double x[16], y[16], jack[16];
	size_t n, i, k, bad_med = 0, bad_mean = 0;

	rng_seed(&r, 7);
	for (n = 2; n <= 16; n++) {
		for (i = 0; i < n; i++)
			x[i] = (double)rng_below(&r, 6) - 2;
		qsort(x, n, sizeof *x, cmp_double);
		boot_jackknife(x, n, BOOT_MEDIAN, jack);
		for (i = 0; i < n; i++) {
			size_t m = 0;
			for (k = 0; k < n; k++)
				if (k != i)
					y[m++] = x[k];
			bad_med += jack[i] != plain_stat(y, n - 1, BOOT_MEDIAN);
		}
		boot_jackknife(x, n, BOOT_MEAN, jack);
		for (i = 0; i < n; i++) {
			size_t m = 0;
			for (k = 0; k < n; k++)
				if (k != i)
					y[m++] = x[k];
			bad_mean += fabs(jack[i] - plain_stat(y, n - 1, BOOT_MEAN)) > 1e-14;
		}
	}
	ok(bad_med == 0, "jackknife medians = leave-one-out medians, n = 2..16 (%zu wrong)", bad_med);
	for (k = 2; k < NSTATS; k++) {
		size_t bad = 0, j;

		for (n = 2; n <= 16; n++) {
			for (i = 0; i < n; i++)
				x[i] = (double)rng_below(&r, 6) - 2 + (double)i / 64;
			qsort(x, n, sizeof *x, cmp_double);
			boot_jackknife(x, n, all_stats[k], jack);
			for (i = 0; i < n; i++) {
				size_t m = 0;
				for (j = 0; j < n; j++)
					if (j != i)
						y[m++] = x[j];
				bad += jack[i] != plain_stat(y, n - 1, all_stats[k]);
			}
		}
		ok(bad == 0, "jackknife %s = leave-one-out, n = 2..16 (%zu wrong)",
		   stat_label(all_stats[k]), bad);
	}
	ok(bad_mean == 0, "jackknife means = leave-one-out means, n = 2..16 (%zu wrong)", bad_mean);
}

/* Pool the rows of the blocks with weight w (block weights), statistic. */
static double pooled(const double *x, const uint32_t *block, size_t n, const uint32_t *w,
                     struct boot_stat stat)
{
	double *y = malloc(64 * n * sizeof *y), v;
	size_t i, m = 0;
	uint32_t k;

	for (i = 0; i < n; i++)
		for (k = 0; k < w[block[i]]; k++)
			y[m++] = x[i];
	v = plain_stat(y, m, stat);
	free(y);
	return v;
}

/* Sorted values with random blocks 0..nb-1, every block used. */
static void make_blocks(double *x, uint32_t *block, size_t n, size_t nb, struct rng *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = (double)rng_below(r, 40) - 10;
	qsort(x, n, sizeof *x, cmp_double);
	for (i = 0; i < n; i++)
		block[i] = i < nb ? (uint32_t)i : rng_below(r, (uint32_t)nb);
	for (i = n - 1; i > 0; i--) {   /* shuffle the labels over the rows */
		size_t j = rng_below(r, (uint32_t)(i + 1));
		uint32_t t = block[i];
		block[i] = block[j];
		block[j] = t;
	}
}

static void test_block_jackknife(void)
{
	struct rng r;
	double x[60], jack[8];
	uint32_t block[60], w[8];
	size_t nb, b, k, bad = 0;
	int s;

	rng_seed(&r, 8);
	for (s = 0; s < NSTATS; s++)
		for (nb = 2; nb <= 8; nb++) {
			struct boot_stat stat = all_stats[s];
			make_blocks(x, block, 60, nb, &r);
			boot_block_jackknife(x, block, 60, nb, stat, jack);
			for (b = 0; b < nb; b++) {
				for (k = 0; k < nb; k++)
					w[k] = k != b;
				bad += fabs(jack[b] - pooled(x, block, 60, w, stat)) > 1e-13;
			}
		}
	ok(bad == 0, "block jackknife = the statistic without each block, 2..8 blocks, "
	   "mean, median and 5 quantiles (%zu wrong)", bad);
}

static void test_replicates_exact(void)
{
	static const size_t sizes[] = { 2, 3, 4, 5, 41, 64, 1000, 2001 };
	struct rng r, mirror;
	size_t z, i, b, nrep = 300;
	double *x = malloc(2001 * sizeof *x), *y = malloc(2001 * sizeof *y), *rep = malloc(nrep * sizeof *rep);
	uint32_t *idx = malloc(2001 * sizeof *idx);

	for (z = 0; z < LEN(sizes); z++) {
		size_t n = sizes[z], bad = 0;
		int s;

		for (s = 0; s < NSTATS; s++) {
			struct boot_stat stat = all_stats[s];
			if (stat.kind != BOOT_KIND_MEAN)
				continue;   /* quantiles: no draws to replay (test_quantile_law) */
			rng_seed(&r, 100 + n);
			for (i = 0; i < n; i++)   /* ties: about n/3 distinct values */
				x[i] = (double)rng_below(&r, (uint32_t)(n / 3 + 1)) * 5 - 7;
			qsort(x, n, sizeof *x, cmp_double);
			boot_replicates(x, n, stat, 9 + n, 0, nrep, rep);
			for (b = 0; b < nrep; b++) {
				rng_seed(&mirror, rng_derive(9 + n, b));
				row_draws(&mirror, (uint32_t)n, idx);
				for (i = 0; i < n; i++)
					y[i] = x[idx[i]];
				bad += rep[b] != plain_stat(y, n, stat);
			}
			ok(bad == 0,
			   "n = %zu, %s: %zu replicates = the statistic of their resamples (%zu wrong)",
			   n, stat_label(stat), nrep, bad);
			bad = 0;
		}
	}
	free(x);
	free(y);
	free(rep);
	free(idx);
}

static void test_block_replicates_exact(void)
{
	struct rng r, mirror;
	double x[80], rep[500];
	uint32_t block[80], w[10];
	size_t nb, b, k, bad = 0;
	int s;

	rng_seed(&r, 10);
	for (s = 0; s < NSTATS; s++)
		for (nb = 2; nb <= 10; nb += 4) {
			struct boot_stat stat = all_stats[s];
			make_blocks(x, block, 80, nb, &r);
			boot_block_replicates(x, block, 80, nb, stat, 20 + nb, 0, 500, rep);
			for (b = 0; b < 500; b++) {
				rng_seed(&mirror, rng_derive(20 + nb, b));
				memset(w, 0, sizeof w);
				for (k = 0; k < nb; k++)
					w[rng_below(&mirror, (uint32_t)nb)]++;
				bad += fabs(rep[b] - pooled(x, block, 80, w, stat)) > 1e-13;
			}
		}
	ok(bad == 0, "block replicates = the statistic of the pooled rows of the drawn blocks, "
	   "mean, median and 5 quantiles (%zu wrong)", bad);
}

/* Replicate b depends on (seed, b) alone: computed in pieces, in any
 * order (as pb-boot's threads do), the replicates are those computed at
 * once; another seed gives others. */
static void test_replicates_in_pieces(void)
{
	enum { N = 501, NREP = 300 };
	static const size_t cut[] = { 0, 1, 64, 65, 190, 299, NREP };
	double x[N], whole[NREP], piece[NREP], other[NREP];
	uint32_t block[N];
	struct rng r;
	size_t i, c, bad = 0, moved = 0;
	int s, blocks;

	rng_seed(&r, 31);
	for (i = 0; i < N; i++) {
		x[i] = (double)rng_below(&r, 1000);
		block[i] = (uint32_t)(i % 7);
	}
	qsort(x, N, sizeof *x, cmp_double);
	for (blocks = 0; blocks < 2; blocks++)
		for (s = 0; s < NSTATS; s++) {
			struct boot_stat stat = all_stats[s];

			if (blocks) {
				boot_block_replicates(x, block, N, 7, stat, 77, 0, NREP, whole);
				boot_block_replicates(x, block, N, 7, stat, 78, 0, NREP, other);
			} else {
				boot_replicates(x, N, stat, 77, 0, NREP, whole);
				boot_replicates(x, N, stat, 78, 0, NREP, other);
			}
			for (c = LEN(cut) - 1; c-- > 0;)   /* the last piece first */
				if (blocks)
					boot_block_replicates(x, block, N, 7, stat, 77, cut[c],
					                      cut[c + 1] - cut[c], piece + cut[c]);
				else
					boot_replicates(x, N, stat, 77, cut[c], cut[c + 1] - cut[c],
					                piece + cut[c]);
			for (i = 0; i < NREP; i++) {
				bad += memcmp(&whole[i], &piece[i], sizeof *whole) != 0;
				moved += whole[i] != other[i];
			}
		}
	ok(bad == 0, "replicates computed in 6 pieces, last first, are those computed at once "
	   "(rows and blocks, every statistic; %zu differ)", bad);
	ok(moved > NREP, "another seed gives other replicates (%zu of %d differ)", moved,
	   2 * NSTATS * NREP);
}

/* P(Bin(n, p) >= k), by the sum (n is small here). */
static double binom_at_least(int n, double p, int k)
{
	double sum = 0, c = 1;
	int i;

	for (i = 0; i <= n; i++) {
		if (i >= k)
			sum += c * pow(p, i) * pow(1 - p, n - i);
		c = c * (n - i) / (i + 1);
	}
	return sum;
}

static double choose(int n, int k)
{
	double c = 1;
	int i;

	for (i = 0; i < k; i++)
		c = c * (n - i) / (i + 1);
	return c;
}

/* The exact law of the two order statistics a quantile reads, I(k1) and
 * I(k2) (k2 = k1 or k1 + 1), of n draws from the positions 0..n-1, with
 * A = #draws < a, B = #draws <= a:
 *   k1 = k2 = k: P(I(k) = a) = P(B >= k) - P(A >= k)
 *   a < b: C(n, k) ((a+1)^k - a^k) ((n-b)^(n-k) - (n-b-1)^(n-k)) / n^n
 *   a = b: P(B >= k+1) - P(A >= k) + C(n, k) a^k (n-a-1)^(n-k) / n^n
 * (the second and third are the R sums of test_median_law). */
static double pair_law(int n, int k1, int k2, int a, int b)
{
	double nn = pow(n, n);

	if (k1 == k2)
		return a == b ? binom_at_least(n, (a + 1.0) / n, k1) -
		                binom_at_least(n, (double)a / n, k1) : 0;
	if (a < b)
		return choose(n, k1) * (pow(a + 1, k1) - pow(a, k1)) *
		       (pow(n - b, n - k1) - pow(n - b - 1, n - k1)) / nn;
	if (a == b)
		return binom_at_least(n, (a + 1.0) / n, k1 + 1) - binom_at_least(n, (double)a / n, k1) +
		       choose(n, k1) * pow(a, k1) * pow(n - a - 1, n - k1) / nn;
	return 0;
}

/* Every quantile's replicates over small samples against that exact law,
 * pair of positions by pair: x_i = 3^i, so each replicate names the two
 * positions it was read at (the fraction is known). 200000 replicates;
 * each share within 4.5 of its standard errors (plus 1e-4). Replaces the
 * check against explicit draws, which quantile replicates no longer make. */
static void test_quantile_law(void)
{
	static const int sizes[] = { 1, 2, 3, 5, 8 };
	enum { NREP = 200000 };
	double *rep = malloc(NREP * sizeof *rep), x[8];
	size_t z, i;
	int s;

	for (z = 0; z < LEN(sizes); z++) {
		int n = sizes[z], a, b;

		for (i = 0; i < (size_t)n; i++)
			x[i] = pow(3, (double)i);
		for (s = 0; s < NSTATS; s++) {
			struct boot_stat stat = all_stats[s];
			double h, f, worst = 0, total = 0;
			int k1, k2, unnamed = 0;
			static long count[8][8];

			if (stat.kind == BOOT_KIND_MEAN)
				continue;
			h = (n - 1) * stat.p;
			k1 = (int)floor(h) + 1;
			if (k1 > n)
				k1 = n;
			f = h - (k1 - 1);
			k2 = f > 0 ? k1 + 1 : k1;
			memset(count, 0, sizeof count);
			boot_replicates(x, (size_t)n, stat, 40 + (uint64_t)n, 0, NREP, rep);
			for (i = 0; i < NREP; i++) {
				int found = 0;
				for (a = 0; a < n && !found; a++)
					for (b = a; b < n && !found; b++)
						if (rep[i] == x[a] + f * (x[b] - x[a]))
							count[a][b]++, found = 1;
				unnamed += !found;
			}
			for (a = 0; a < n; a++)
				for (b = a; b < n; b++) {
					double p = pair_law(n, k1, k2, a, b), share = (double)count[a][b] / NREP;
					double gap = fabs(share - p) / (4.5 * sqrt(p * (1 - p) / NREP) + 1e-4);

					total += p;
					if (gap > worst)
						worst = gap;
				}
			ok(unnamed == 0 && worst <= 1 && fabs(total - 1) < 1e-12,
			   "n = %d, %s: replicates follow the exact law of positions (%d, %d), "
			   "largest gap %.2f of the tolerance, %d unnamed", n, stat_label(stat), k1, k2,
			   worst, unnamed);
		}
	}
	free(rep);
}

/* Share of replicates <= v against the exact law, R:
 *   odd, x = 0:1000: 1 - pbinom(500, 1001, (v + 1) / 1001)
 *   even, x = 0:999: P(X*(500) = x_i, X*(501) = x_j) summed over (x_i + x_j)/2 <= v, with
 *     i = j: pbinom(m-1, n, F[i-1]) - pbinom(m, n, F[i]) + choose(n, m) F[i-1]^m (1 - F[i])^(n-m)
 *     i < j: choose(n, m) (F[i]^m - F[i-1]^m) ((1 - F[j-1])^(n-m) - (1 - F[j])^(n-m))
 *   (checked against all 6^6 resamples of a small sample in R).
 * 100000 replicates: the sd of a share is at most 0.0016; tolerance 0.0065
 * (4 sd). Moving the median one rank moves a share by about 0.025. */
static void test_median_law(void)
{
	static const double vodd[] = { 470, 480, 490, 500, 510, 520, 530 };
	static const double podd[] = { 0.030957731631057306, 0.10870427104508096,
		0.27400769063453501, 0.51261041151559428, 0.74665016692963182,
		0.90264206692531646, 0.97321524547724281 };
	static const double veven[] = { 469.5, 480, 490.5, 499.5, 510, 520.5, 530 };
	static const double peven[] = { 0.029663353670752707, 0.11168977744012974,
		0.28943709185565064, 0.5058349751759692, 0.75226902163329679,
		0.9105785789505968, 0.97436600827112962 };
	size_t nrep = 100000, i, k;
	double *x = malloc(1001 * sizeof *x), *rep = malloc(nrep * sizeof *rep);
	int e;

	for (e = 0; e < 2; e++) {
		size_t n = e ? 1000 : 1001;
		const double *v = e ? veven : vodd, *p = e ? peven : podd;
		double worst = 0;

		for (i = 0; i < n; i++)
			x[i] = (double)i;
		boot_replicates(x, n, BOOT_MEDIAN, 11 + e, 0, nrep, rep);
		for (k = 0; k < 7; k++) {
			size_t c = 0;
			for (i = 0; i < nrep; i++)
				c += rep[i] <= v[k];
			if (fabs((double)c / (double)nrep - p[k]) > worst)
				worst = fabs((double)c / (double)nrep - p[k]);
		}
		ok(worst <= 0.0065, "n = %zu: median replicates follow the exact law "
		   "(largest gap %.4f over 7 points)", n, worst);
	}
	free(x);
	free(rep);
}

int main(void)
{
	test_replicates_in_pieces();
	test_stat_sorted();
	test_quantile_sorted();
	test_percentile();
	test_bca();
	test_expanded();
	test_bca_fold();
	test_bca_scale();
	test_mean_ties();
	test_jackknife();
	test_block_jackknife();
	test_replicates_exact();
	test_block_replicates_exact();
	test_quantile_law();
	test_median_law();
	return done_testing();
}

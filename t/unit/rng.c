/* Unit tests of lib/rng.c: xoshiro256** seeded through splitmix64,
 * against an independent implementation of the published algorithms
 * (Vigna, prng.di.unimi.it) in python3, and statistical sanity checks
 * with fixed seeds, so every run draws the same numbers. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "rng.h"
#include "stats.h"
#include "tap.h"

#define N(a) (sizeof (a) / sizeof (a)[0])

/* The reference, python3:
 *
 * M = (1 << 64) - 1
 * def splitmix64(x):            # returns (new state, output)
 *     x = (x + 0x9E3779B97F4A7C15) & M
 *     z = x
 *     z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
 *     z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
 *     return x, z ^ (z >> 31)
 * def rotl(v, k): return ((v << k) | (v >> (64 - k))) & M
 * def seed(v):
 *     s = []
 *     for _ in range(4):
 *         v, out = splitmix64(v); s.append(out)
 *     return s
 * def nxt(s):                   # xoshiro256**
 *     r = (rotl((s[1] * 5) & M, 7) * 9) & M
 *     t = (s[1] << 17) & M
 *     s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
 *     s[3] = rotl(s[3], 45)
 *     return r
 * def below(s, n):              # Lemire's multiply-and-reject, 32 bits
 *     m = (nxt(s) >> 32) * n; low = m & 0xffffffff
 *     if low < n:
 *         thr = ((1 << 32) - n) % n
 *         while low < thr:
 *             m = (nxt(s) >> 32) * n; low = m & 0xffffffff
 *     return m >> 32
 *
 * The state from seed 0 is splitmix64's well-known first four outputs
 * (0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f,
 * 0xf88bb8a8724c81ec), which checks the python too. */

static void test_reference(void)
{
	/* python3: s = seed(0); [hex(v) for v in s] */
	static const uint64_t state0[] = {
		0xe220a8397b1dcdafu, 0x6e789e6aa1b965f4u,
		0x06c45d188009454fu, 0xf88bb8a8724c81ecu,
	};
	/* python3: s = seed(0); ["0x%016x" % nxt(s) for _ in range(8)] */
	static const uint64_t next0[] = {
		0x99ec5f36cb75f2b4u, 0xbf6e1f784956452au, 0x1a5f849d4933e6e0u,
		0x6aa594f1262d2d2cu, 0xbba5ad4a1f842e59u, 0xffef8375d9ebcacau,
		0x6c160deed2f54c98u, 0x8920ad648fc30a3fu,
	};
	/* python3: s = seed(12345); ["0x%016x" % nxt(s) for _ in range(4)] */
	static const uint64_t next12345[] = {
		0xbe6a36374160d49bu, 0x214aaa0637a688c6u,
		0xf69d16de9954d388u, 0x0c60048c4e96e033u,
	};
	/* python3: s = seed(0); [repr((nxt(s) >> 11) * 2.0**-53) for _ in range(4)] */
	static const double uniform0[] = {
		0.6012629994179048, 0.7477740925472398,
		0.10301998939503632, 0.4165890778296456,
	};
	/* python3: s = seed(0); [below(s, 10) for _ in range(20)] */
	static const uint32_t below10[] = {
		6, 7, 1, 4, 7, 9, 4, 5, 8, 9, 1, 0, 1, 6, 4, 2, 7, 1, 5, 0,
	};
	/* python3: s = seed(7); [below(s, 4294967295) for _ in range(6)] */
	static const uint32_t below_max[] = {
		3008953078u, 1197227413u, 3606172488u, 4213782642u, 4255712491u,
		3748535522u,
	};
	struct rng r;
	size_t i;
	int same;

	rng_seed(&r, 0);
	ok(memcmp(r.s, state0, sizeof state0) == 0, "rng_seed(0): splitmix64 state");
	for (i = 0, same = 1; i < N(next0); i++)
		same &= rng_next(&r) == next0[i];
	ok(same, "rng_next from seed 0: first 8 outputs of xoshiro256**");
	rng_seed(&r, 12345);
	for (i = 0, same = 1; i < N(next12345); i++)
		same &= rng_next(&r) == next12345[i];
	ok(same, "rng_next from seed 12345: first 4 outputs");
	rng_seed(&r, 0);
	for (i = 0, same = 1; i < N(uniform0); i++)
		same &= rng_uniform(&r) == uniform0[i];
	ok(same, "rng_uniform from seed 0: first 4 values");
	rng_seed(&r, 0);
	for (i = 0, same = 1; i < N(below10); i++)
		same &= rng_below(&r, 10) == below10[i];
	ok(same, "rng_below(10) from seed 0: first 20 values");
	rng_seed(&r, 7);
	for (i = 0, same = 1; i < N(below_max); i++)
		same &= rng_below(&r, 4294967295u) == below_max[i];
	ok(same, "rng_below(4294967295) from seed 7: first 6 values");
}

static void test_seeds(void)
{
	struct rng a, b;
	int i, same = 1, differ = 0;
	uint64_t s1, s2;

	rng_seed(&a, 99);
	rng_seed(&b, 99);
	for (i = 0; i < 1000; i++)
		same &= rng_next(&a) == rng_next(&b);
	ok(same, "same seed, same sequence");
	rng_seed(&a, 0);
	rng_seed(&b, 1);
	for (i = 0; i < 1000; i++)
		differ += rng_next(&a) != rng_next(&b);
	ok(differ == 1000, "seeds 0 and 1 differ at every one of 1000 draws");
	s1 = rng_seed_from_system();
	s2 = rng_seed_from_system();
	ok(s1 < (UINT64_C(1) << 53) && s2 < (UINT64_C(1) << 53),
	   "rng_seed_from_system fits in a double's 53 bits");
	ok(s1 != s2, "rng_seed_from_system differs between calls");
}

static void test_below_range(void)
{
	static const uint32_t ns[] = {
		1, 2, 3, 7, 1000, 2147483649u /* 2^31 + 1 */, 4294967295u,
	};
	struct rng r;
	size_t i;

	rng_seed(&r, 2024);
	for (i = 0; i < N(ns); i++) {
		uint32_t max = 0, v;
		long k, over = 0;

		for (k = 0; k < 100000; k++) {
			v = rng_below(&r, ns[i]);
			over += v >= ns[i];
			if (v > max)
				max = v;
		}
		ok(over == 0 && (ns[i] > 1000 || max == ns[i] - 1),
		   "rng_below(%lu) < %lu in 100000 draws%s", (unsigned long)ns[i],
		   (unsigned long)ns[i], ns[i] > 1000 ? "" : ", and reaches n - 1");
	}
}

/* Pearson's chi-square of 1e6 draws of rng_below(10) with 9 degrees of
 * freedom, between the 1e-6 and 1 - 1e-6 quantiles.
 * R: sprintf("%.17g", c(qchisq(1e-6, 9), qchisq(1 - 1e-6, 9))) */
static void test_chi_square(void)
{
	const double lo = 0.22838484007344917, hi = 44.810937870620258;
	long count[10] = { 0 }, k;
	double chi2 = 0, e = 1e6 / 10;
	struct rng r;
	int i;

	rng_seed(&r, 1);
	for (k = 0; k < 1000000; k++)
		count[rng_below(&r, 10)]++;
	for (i = 0; i < 10; i++)
		chi2 += (count[i] - e) * (count[i] - e) / e;
	if (!ok(chi2 > lo && chi2 < hi, "rng_below(10): chi-square %.3g of 1e6 draws "
	        "within (%.3g, %.3g)", chi2, lo, hi))
		for (i = 0; i < 10; i++)
			fprintf(stderr, "# %d: %ld\n", i, count[i]);
}

/* With n = 3 * 2^30, n does not divide 2^32: reducing a 32-bit draw
 * modulo n would put 62.5 % of draws below n / 2. Unbiased: 50 %,
 * standard error 0.0011 over 200000 draws. */
static void test_below_bias(void)
{
	const uint32_t n = 3221225472u;
	long k, low = 0;
	struct rng r;
	double frac;

	rng_seed(&r, 5);
	for (k = 0; k < 200000; k++)
		low += rng_below(&r, n) < n / 2;
	frac = (double)low / 200000;
	ok(fabs(frac - 0.5) < 0.01, "rng_below(3 * 2^30): %.4f of draws below n / 2", frac);
}

static void test_uniform(void)
{
	struct rng r;
	long k, outside = 0, coarse = 0;
	double sum = 0, min = 1, max = 0;

	rng_seed(&r, 3);
	for (k = 0; k < 1000000; k++) {
		double u = rng_uniform(&r);

		outside += !(u >= 0 && u < 1);
		coarse += u * 0x1p53 != floor(u * 0x1p53);
		sum += u;
		if (u < min)
			min = u;
		if (u > max)
			max = u;
	}
	ok(outside == 0, "rng_uniform in [0, 1) in 1e6 draws (%ld outside)", outside);
	ok(coarse == 0, "rng_uniform values are multiples of 2^-53");
	/* standard error of the mean: sqrt(1 / 12 / 1e6) = 0.00029 */
	ok(fabs(sum / 1e6 - 0.5) < 0.002, "rng_uniform mean %.5f near 0.5", sum / 1e6);
	ok(min < 1e-5 && max > 1 - 1e-5, "rng_uniform spans [0, 1): min %.3g, max %.8f",
	   min, max);
}

/* A walk of a phase as "1A1 2A1 ...": block, arm, place. */
static const char *walk_string(struct order_walk *w)
{
	static char got[64];
	char *p = got;
	long block;
	int arm, place;

	while (order_walk_next(w, &block, &arm, &place))
		p += sprintf(p, "%ld%c%d ", block + 1, 'A' + arm, place);
	return got;
}

/* lib/order.c, whose draws come from here: with two arms the order is
 * the one pb-run has always written (one coin, rng_next() >> 63, a
 * pair; AB, BA ...; all A then all B). */
static void test_order(void)
{
	struct rng r, ref;
	struct order_walk w;
	long b, block, i;
	int arm[ORDER_ARMS_MAX], a, place, same = 1, k, seen;

	rng_seed(&r, 42);
	rng_seed(&ref, 42);
	for (b = 0; b < 1000; b++) {
		int coin = (int)(rng_next(&ref) >> 63);

		order_block(ORDER_RANDOM, &r, b, 2, arm);
		same &= arm[0] == coin && arm[1] == !coin;
	}
	ok(same, "random, 2 arms: one coin a block, the top bit of one draw");
	ok(rng_next(&r) == rng_next(&ref), "and no other draw");
	for (b = 0, same = 1; b < 6; b++) {
		order_block(ORDER_ALTERNATE, &r, b, 2, arm);
		same &= arm[0] == b % 2 && arm[1] == !(b % 2);
	}
	ok(same && rng_next(&r) == rng_next(&ref), "alternate: AB, BA, AB ... and no draw");
	order_block(ORDER_ALTERNATE, &r, 4, 3, arm);
	ok(arm[0] == 1 && arm[1] == 2 && arm[2] == 0, "alternate, 3 arms: block 4 is BCA");

	for (k = 3, same = 1; k <= ORDER_ARMS_MAX; k++) {
		order_block(ORDER_RANDOM, &r, 0, k, arm);
		for (a = 0, seen = 0; a < k; a++)
			seen |= 1 << arm[a];
		same &= seen == (1 << k) - 1;
	}
	ok(same, "random, 3 to 26 arms: each block a permutation");

	order_walk_begin(&w, ORDER_BLOCKED, &r, 0, 3, 2);
	ok(strcmp(walk_string(&w), "1A1 2A1 3A1 1B2 2B2 3B2 ") == 0 && order_open_blocks(ORDER_BLOCKED, 3) == 3,
	   "blocked walk: all A, then all B; 3 blocks open");
	order_walk_begin(&w, ORDER_ALTERNATE, &r, 5, 3, 2);
	ok(strcmp(walk_string(&w), "1B1 1A2 2A1 2B2 3B1 3A2 ") == 0 && order_open_blocks(ORDER_ALTERNATE, 3) == 1,
	   "alternate walk from block 5 (after 5 warm-up pairs): BA, AB, BA; 1 block open");
	rng_seed(&r, 7);
	rng_seed(&ref, 7);
	order_walk_begin(&w, ORDER_RANDOM, &r, 0, 4, 2);
	for (i = 0, same = 1; order_walk_next(&w, &block, &a, &place); i++)
		if (place == 1)
			same &= a == (int)(rng_next(&ref) >> 63) && block == i / 2;
	ok(same && i == 8, "random walk: a coin at each pair's first half");
	order_walk_begin(&w, ORDER_BLOCKED, &r, 0, 0, 2);
	ok(!order_walk_next(&w, &block, &a, &place), "a phase of 0 pairs has no step");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov distance of n sorted values from the law cdf. */
static double ks_distance(double *v, size_t n, double (*cdf)(double, double), double par)
{
	double d = 0;
	size_t i;

	qsort(v, n, sizeof *v, cmp_double);
	for (i = 0; i < n; i++) {
		double f = cdf(v[i], par), lo = f - (double)i / n, hi = (double)(i + 1) / n - f;

		d = fmax(d, fmax(lo, hi));
	}
	return d;
}

static double normal_cdf(double x, double unused)
{
	(void)unused;
	return stat_pnorm(x);
}

static double exp_cdf(double x, double unused)   /* Gamma(1) */
{
	(void)unused;
	return -expm1(-x);
}

static double beta23_cdf(double x, double unused)   /* I_x(2, 3) by hand */
{
	(void)unused;
	return x * x * (6 - 8 * x + 3 * x * x);
}

static double min_uniform_cdf(double x, double m)   /* 1 - (1 - x)^m */
{
	return -expm1(m * log1p(-x));
}

/* The variates of the bootstrap's quantile replicates (lib/boot.c): their
 * laws by Kolmogorov-Smirnov distance (100000 values; 1.63/sqrt(n) is the
 * 1 % critical value), and the gamma's mean and variance at shapes from
 * 1 to the median's of a 2^31 sample, each within 5 standard errors: the
 * mean's sqrt(a / n), the variance's sqrt((2 a^2 + 6 a) / n) (a gamma's
 * fourth central moment is 3 a^2 + 6 a). */
static void test_variates(void)
{
	enum { NV = 100000 };
	static const double shapes[] = { 1, 2.5, 17, 150000, 1073741824 };
	double *v = malloc(NV * sizeof *v), crit = 1.63 / sqrt(NV);
	struct rng r;
	size_t i, k;

	rng_seed(&r, 2026);
	for (i = 0; i < NV; i++)
		v[i] = rng_normal(&r);
	ok(ks_distance(v, NV, normal_cdf, 0) < crit, "rng_normal: standard normal (KS)");
	for (i = 0; i < NV; i++)
		v[i] = rng_gamma(&r, 1);
	ok(ks_distance(v, NV, exp_cdf, 0) < crit, "rng_gamma(1): exponential (KS)");
	for (i = 0; i < NV; i++)
		v[i] = rng_beta(&r, 2, 3);
	ok(ks_distance(v, NV, beta23_cdf, 0) < crit, "rng_beta(2, 3): 6x^2 - 8x^3 + 3x^4 (KS)");
	for (i = 0; i < NV; i++)
		v[i] = rng_min_uniform(&r, 1e6);
	ok(ks_distance(v, NV, min_uniform_cdf, 1e6) < crit,
	   "rng_min_uniform(1e6): the least of 10^6 uniforms (KS)");
	for (k = 0; k < N(shapes); k++) {
		double a = shapes[k], m = 0, ss = 0, var;

		for (i = 0; i < NV; i++) {
			double g = rng_gamma(&r, a), d = g - m;

			m += d / (double)(i + 1);
			ss += d * (g - m);
		}
		var = ss / (NV - 1);
		ok(fabs(m - a) < 5 * sqrt(a / NV) && fabs(var - a) < 5 * sqrt((2 * a * a + 6 * a) / NV),
		   "rng_gamma(%g): mean %.6g, variance %.6g", a, m, var);
	}
	free(v);
}

int main(void)
{
	test_reference();
	test_seeds();
	test_below_range();
	test_chi_square();
	test_below_bias();
	test_uniform();
	test_order();
	test_variates();
	return done_testing();
}

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "err.h"
#include "stats.h"

/* a + f (b - a), between a <= b: the median's midpoint a + (b - a)/2 at
 * f = 1/2, exact for neighbours; (1 - f) a + f b only where b - a
 * overflows (a and b of opposite signs beyond 8.9e307), so no finite
 * answer moves. At f = 1/2 both forms are the median's as it always was. */
static inline double interp(double a, double b, double f)
{
	double d = b - a;

	return isinf(d) ? (1 - f) * a + f * b : a + f * d;
}

/* Where the quantile p of total sorted values lies (R's type 7): the
 * 1-based positions k1 <= k2 = k1 or k1 + 1 and the fraction f between
 * them. For the median: k1 = (total + 1)/2, k2 = total/2 + 1, f = 1/2 or 0. */
struct qpos {
	uint64_t k1, k2;
	double f;
};

static struct qpos quantile_pos(uint64_t total, double p)
{
	double h = (double)(total - 1) * p;
	uint64_t k = (uint64_t)floor(h);
	struct qpos q;

	if (k >= total - 1)
		k = total - 1, h = (double)k;
	q.k1 = k + 1;
	q.f = h - (double)k;
	q.k2 = q.f > 0 ? k + 2 : k + 1;
	return q;
}

/* The quantile of sorted values taken with multiplicities: the value(s)
 * at positions k1 <= k2 of the expanded sample, found in one walk that
 * adds each value's multiplicity to cum. */
struct q_walk {
	uint64_t cum;
	struct qpos q;
	double v1;
	int have1;
};

static inline int q_step(struct q_walk *m, double x, uint64_t mult, double *value)
{
	m->cum += mult;
	if (!m->have1 && m->cum >= m->q.k1) {
		m->v1 = x;
		m->have1 = 1;
	}
	if (m->cum < m->q.k2)
		return 0;
	*value = interp(m->v1, x, m->q.f);
	return 1;
}

/* The n uniform indices below n of one resample, two per 64-bit output
 * of xoshiro256** (Lemire's multiply with rejection on each 32-bit
 * half): with counts, how often each index was drawn; else the sum of
 * x at the indices, added in draw order. One loop for both, so that a
 * mean replicate counted again (near_est) sees the very draws it summed.
 * The generator's state is a local copy so the loop keeps it in
 * registers: the draws are the whole cost of a mean replicate. */
static inline double draws(struct rng *r, uint32_t n, uint32_t *counts, const double *x)
{
	struct rng g = *r;
	uint64_t v, m;
	uint32_t threshold = (uint32_t)(-n) % n, done = 0;
	double s = 0;

#define TAKE(m) do { \
		if (counts) \
			counts[(m) >> 32]++; \
		else \
			s += x[(m) >> 32]; \
		done++; \
	} while (0)
	while (done + 2 <= n) {
		v = rng_next(&g);
		m = (v >> 32) * n;
		if ((uint32_t)m >= threshold)
			TAKE(m);
		m = (v & 0xffffffffu) * n;
		if ((uint32_t)m >= threshold)
			TAKE(m);
	}
	while (done < n) {
		v = rng_next(&g);
		m = (v >> 32) * n;
		if ((uint32_t)m >= threshold)
			TAKE(m);
	}
#undef TAKE
	*r = g;
	return s;
}

/* The position among n sorted values of u in [0, 1]: floor(n u). */
static size_t order_index(double u, size_t n)
{
	double j = floor(u * (double)n);

	return j < (double)n ? (size_t)j : n - 1;
}

/* One quantile replicate, in constant time. A resample is n indices
 * floor(n U_i) of uniforms U_i, and floor is monotone: its k-th smallest
 * value is x[floor(n U_(k))], U_(k) the k-th smallest of the uniforms,
 * a Beta(k, n + 1 - k); the next, U_(k+1), is U_(k) plus (1 - U_(k))
 * times the least of the n - k uniforms above it. So two variates give
 * the replicate the n draws of a multinomial resample would, with the
 * same distribution (to the rounding of doubles, a bias below n 2^-53). */
static double quantile_replicate(const double *x, size_t n, struct qpos q, struct rng *r)
{
	double u1 = rng_beta(r, (double)q.k1, (double)(n + 1 - q.k1)), u2 = u1;

	if (q.k2 > q.k1)
		u2 = u1 + (1 - u1) * rng_min_uniform(r, (double)(n - q.k1));
	return interp(x[order_index(u1, n)], x[order_index(u2, n)], q.f);
}

/* The mean of a multiset of the sorted values, count(i) copies of x[i]:
 * the copies added one by one in ascending order, over their number; a
 * multiset of one value has that value as its mean (3 x 0.1 sums to
 * 0.30000000000000004). This depends on the multiset alone, and est is
 * computed this way. */
struct mean_canon {
	double s, only;
	uint64_t total;
	size_t distinct;
	double last;
};

static inline void canon_add(struct mean_canon *m, double v, uint64_t c)
{
	if (!c)
		return;
	if (!m->total || v != m->last)
		m->distinct++;
	m->last = m->only = v;
	m->total += c;
	while (c--)
		m->s += v;
}

static inline double canon_end(const struct mean_canon *m)
{
	return m->distinct == 1 ? m->only : m->s / (double)m->total;
}

double boot_stat_sorted(const double *x, size_t n, struct boot_stat stat)
{
	struct qpos q;

	if (stat.kind == BOOT_KIND_MEAN) {
		struct mean_canon m = { 0, 0, 0, 0, 0 };
		size_t i;

		for (i = 0; i < n; i++)
			canon_add(&m, x[i], 1);
		return canon_end(&m);
	}
	q = quantile_pos(n, stat.p);
	return q.f > 0 ? interp(x[q.k1 - 1], x[q.k1], q.f) : x[q.k1 - 1];
}

/* Mean replicates are summed in draw order (fast, and no sort). Such a
 * sum is within (m - 1) u Σ|y| of the exact one (m terms y, u = 2^-53),
 * so a resample that holds the sample's own values lands within
 * 2 m ε max|x| of est, perhaps an ulp off: a replicate that close is
 * computed again from its multiset, as est is, and so equals est exactly
 * when its values are the sample's, and BCa sees the tie. Elsewhere the
 * last bits of a replicate change no comparison. */
static int near_est(double rep, double est, uint64_t m, double big)
{
	return fabs(rep - est) <= 2 * (double)m * DBL_EPSILON * big;
}

int boot_mean_overflows(double big, uint64_t most)
{
	return big > DBL_MAX / 2 / (double)most;
}

/* The generator of replicate b. */
static void replicate_rng(struct rng *r, uint64_t seed, size_t b)
{
	rng_seed(r, rng_derive(seed, (uint64_t)b));
}

void boot_replicates(const double *x, size_t n, struct boot_stat stat, uint64_t seed,
                     size_t first, size_t nrep, double *rep)
{
	struct rng gen, *r = &gen;
	struct qpos q;
	size_t b, i;

	if (n > UINT32_MAX)
		die("bootstrap: more than %lu values in one sample", (unsigned long)UINT32_MAX);
	if (stat.kind == BOOT_KIND_MEAN) {
		double est = boot_stat_sorted(x, n, BOOT_MEAN), big = fmax(fabs(x[0]), fabs(x[n - 1]));
		uint32_t *count = NULL;

		for (b = 0; b < nrep; b++) {
			struct rng saved;

			replicate_rng(r, seed, first + b);
			saved = *r;
			rep[b] = draws(r, (uint32_t)n, NULL, x) / (double)n;
			if (near_est(rep[b], est, n, big)) {
				struct mean_canon m = { 0, 0, 0, 0, 0 };

				if (!count)
					count = xcalloc(n, sizeof *count);
				*r = saved;   /* the same draws again, counted */
				draws(r, (uint32_t)n, count, NULL);
				for (i = 0; i < n; i++) {
					canon_add(&m, x[i], count[i]);
					count[i] = 0;
				}
				rep[b] = canon_end(&m);
			}
		}
		free(count);
		return;
	}
	q = quantile_pos(n, stat.p);
	for (b = 0; b < nrep; b++) {
		replicate_rng(r, seed, first + b);
		rep[b] = quantile_replicate(x, n, q, r);
	}
}

/* Weighted quantile p of sorted x with weights w[block[i]]: positions
 * k1, k2 of the expanded sample of size total. */
static double weighted_quantile(const double *x, const uint32_t *block, size_t n,
                                const uint32_t *w, uint64_t total, double p)
{
	struct q_walk m = { 0, quantile_pos(total, p), 0, 0 };
	double value;
	size_t i;

	for (i = 0; i < n; i++)
		if (q_step(&m, x[i], w[block[i]], &value))
			return value;
	return NAN;
}

struct block_sums {
	double *sum;
	uint64_t *size;
};

static struct block_sums block_sums(const double *x, const uint32_t *block, size_t n,
                                    size_t nblocks)
{
	struct block_sums s = { xcalloc(nblocks, sizeof *s.sum), xcalloc(nblocks, sizeof *s.size) };
	size_t i;

	for (i = 0; i < n; i++) {
		s.sum[block[i]] += x[i];
		s.size[block[i]]++;
	}
	return s;
}

void boot_block_replicates(const double *x, const uint32_t *block, size_t n,
                           size_t nblocks, struct boot_stat stat, uint64_t seed,
                           size_t first, size_t nrep, double *rep)
{
	struct rng gen, *r = &gen;
	uint32_t *w = xmalloc(nblocks * sizeof *w);
	struct block_sums s = block_sums(x, block, n, nblocks);
	int mean = stat.kind == BOOT_KIND_MEAN;
	double est = mean ? boot_stat_sorted(x, n, BOOT_MEAN) : 0;
	double big = fmax(fabs(x[0]), fabs(x[n - 1]));
	size_t b, k, i;

	for (b = 0; b < nrep; b++) {
		uint64_t total = 0;
		double sum = 0;

		memset(w, 0, nblocks * sizeof *w);
		replicate_rng(r, seed, first + b);
		for (k = 0; k < nblocks; k++) {
			uint32_t j = rng_below(r, (uint32_t)nblocks);
			w[j]++;
			total += s.size[j];
			sum += s.sum[j];
		}
		rep[b] = mean ? sum / (double)total
		              : weighted_quantile(x, block, n, w, total, stat.p);
		if (mean && near_est(rep[b], est, total, big)) {
			struct mean_canon m = { 0, 0, 0, 0, 0 };

			for (i = 0; i < n; i++)
				canon_add(&m, x[i], w[block[i]]);
			rep[b] = canon_end(&m);
		}
	}
	free(w);
	free(s.sum);
	free(s.size);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The (nrep+1)p-th order statistic, interpolated, clamped to the ends
 * (a p that is not a number too: no position outside the array). */
static double order_quantile(const double *sorted, size_t nrep, double p)
{
	double pos = (double)(nrep + 1) * p, f, a, b, d;
	size_t k;

	if (!(pos > 1))
		return sorted[0];
	if (pos >= (double)nrep)
		return sorted[nrep - 1];
	k = (size_t)floor(pos);
	f = pos - (double)k;
	a = sorted[k - 1], b = sorted[k], d = b - a;
	return isinf(d) ? (1 - f) * a + f * b : a + f * d;
}

void boot_percentile(double *rep, size_t nrep, double level, double *lo, double *hi)
{
	double a = (1 - level) / 2;

	qsort(rep, nrep, sizeof *rep, cmp_double);
	*lo = order_quantile(rep, nrep, a);
	*hi = order_quantile(rep, nrep, 1 - a);
}

void boot_z(double level, size_t k, double *zlo, double *zhi)
{
	double a = (1 - level) / 2;

	if (k < 2) {
		*zlo = stat_qnorm(a);
		*zhi = 1 - a < 1 ? stat_qnorm(1 - a) : -*zlo;
		return;
	}
	*zlo = sqrt((double)k / (double)(k - 1)) * stat_qt(a, (double)(k - 1));
	*zhi = -*zlo;
}

void boot_percentile_z(double *rep, size_t nrep, double zlo, double zhi, double *lo, double *hi)
{
	qsort(rep, nrep, sizeof *rep, cmp_double);
	*lo = order_quantile(rep, nrep, stat_pnorm(zlo));
	*hi = order_quantile(rep, nrep, stat_pnorm(zhi));
}

/* acc = Σ(J - Ji)^3 / (6 (Σ(J - Ji)^2)^(3/2)), which does not depend on
 * the scale: values beyond 2^300 are scaled down before the mean (so the
 * sum cannot overflow), and deviations whose cubes would overflow or
 * underflow are scaled by a power of 2, exactly; other data are computed
 * as they always were. *undefined (acc 0/0) when every Ji is equal,
 * tested as such: the mean of equal values can round away from them
 * (0.1 x 3), and deviations of an ulp gave acc = -1/(6 sqrt 3). */
static double acceleration(const double *jack, size_t n, int *undefined)
{
	double lo = jack[0], hi = jack[0], scale = 1, mean = 0, num = 0, den = 0, big = 0;
	size_t i;

	for (i = 1; i < n; i++) {
		lo = fmin(lo, jack[i]);
		hi = fmax(hi, jack[i]);
	}
	*undefined = lo == hi;
	if (*undefined)
		return 0;
	if (fmax(fabs(lo), fabs(hi)) > 0x1p300)
		scale = 0x1p-300;
	for (i = 0; i < n; i++)
		mean += jack[i] * scale;
	mean /= (double)n;
	for (i = 0; i < n; i++)
		big = fmax(big, fabs(mean - jack[i] * scale));
	if (big > 0x1p300 || big < 0x1p-300) {
		double extra = ldexp(1, -ilogb(big));

		scale *= extra;
		mean *= extra;
	}
	for (i = 0; i < n; i++) {
		double d = mean - jack[i] * scale;
		num += d * d * d;
		den += d * d;
	}
	return num / (6 * pow(den, 1.5));
}

/* One BCa level: Φ(z0 + (z0 + z) / (1 - acc (z0 + z))). Where the
 * denominator reaches 0 the level has reached 0 or 1 (it grows without
 * bound as acc (z0 + z) nears 1); beyond, the formula would fold back to
 * the wrong side, so the level stays at its limit. */
static double bca_level(double z0, double acc, double z)
{
	double den = 1 - acc * (z0 + z);

	if (!(den > 0))
		return z0 + z > 0 ? 1 : 0;
	return stat_pnorm(z0 + (z0 + z) / den);
}

int boot_bca(double *rep, size_t nrep, double est, const double *jack, size_t njack,
             double zlo, double zhi, enum boot_ties ties, double *lo, double *hi)
{
	double below = 0, tie = ties == BOOT_TIES_HALF ? 0.5 : 0, z0, acc;
	size_t i;
	int undefined;

	qsort(rep, nrep, sizeof *rep, cmp_double);
	for (i = 0; i < nrep; i++)
		below += rep[i] < est ? 1 : rep[i] == est ? tie : 0;
	if (below == 0 || below == (double)nrep)
		return BOOT_BCA_Z0_INFINITE;
	z0 = stat_qnorm(below / (double)nrep);
	acc = acceleration(jack, njack, &undefined);
	*lo = order_quantile(rep, nrep, bca_level(z0, acc, zlo));
	*hi = order_quantile(rep, nrep, bca_level(z0, acc, zhi));
	return undefined ? BOOT_BCA_ACC_UNDEFINED : 0;
}

/* The quantile of x without x[i]: position h = (n-2)p of the n-1 values
 * left, whose j-th is x[j] below i and x[j+1] from i on. */
static double quantile_without(const double *x, size_t n, size_t i, double p)
{
	struct qpos q = quantile_pos(n - 1, p);
	size_t k = (size_t)q.k1 - 1;
	double lo = x[k < i ? k : k + 1];

	return q.f > 0 ? interp(lo, x[k + 1 < i ? k + 1 : k + 2], q.f) : lo;
}

void boot_jackknife(const double *x, size_t n, struct boot_stat stat, double *jack)
{
	size_t i;

	if (stat.kind == BOOT_KIND_MEAN) {
		double s = 0;
		for (i = 0; i < n; i++)
			s += x[i];
		for (i = 0; i < n; i++)
			jack[i] = (s - x[i]) / (double)(n - 1);
		return;
	}
	for (i = 0; i < n; i++)
		jack[i] = quantile_without(x, n, i, stat.p);
}

void boot_block_jackknife(const double *x, const uint32_t *block, size_t n,
                          size_t nblocks, struct boot_stat stat, double *jack)
{
	uint32_t *w = xmalloc(nblocks * sizeof *w);
	struct block_sums s = block_sums(x, block, n, nblocks);
	double sum = 0;   /* in block order, as the leave-one-out sums are */
	size_t b;

	for (b = 0; b < nblocks; b++) {
		sum += s.sum[b];
		w[b] = 1;
	}
	for (b = 0; b < nblocks; b++) {   /* every row is in one block: n rows */
		w[b] = 0;
		jack[b] = stat.kind == BOOT_KIND_MEAN
		          ? (sum - s.sum[b]) / (double)(n - s.size[b])
		          : weighted_quantile(x, block, n, w, n - s.size[b], stat.p);
		w[b] = 1;
	}
	free(w);
	free(s.sum);
	free(s.size);
}

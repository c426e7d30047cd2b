#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "boot.h"
#include "err.h"
#include "stats.h"

/* The median of sorted values taken with multiplicities: the value(s) at
 * positions k1 <= k2 (1-based) of the expanded sample, found in one walk
 * that adds each value's multiplicity to cum. */
struct mid_walk {
	uint64_t cum, k1, k2;
	double v1;
	int have1;
};

static inline int mid_step(struct mid_walk *m, double x, uint64_t mult, double *median)
{
	m->cum += mult;
	if (!m->have1 && m->cum >= m->k1) {
		m->v1 = x;
		m->have1 = 1;
	}
	if (m->cum < m->k2)
		return 0;
	*median = m->v1 + (x - m->v1) / 2;
	return 1;
}

/* Median of the resample given by counts over the sorted sample, from
 * position before + 1 on. */
static double median_from_counts(const double *x, const uint32_t *count, size_t from,
                                 size_t to, uint64_t before, uint64_t k1, uint64_t k2)
{
	struct mid_walk m = { before, k1, k2, 0, 0 };
	double median;
	size_t i;

	for (i = from; i < to; i++)
		if (mid_step(&m, x[i], count[i - from], &median))
			return median;
	return NAN;   /* not reached when [from, to) holds positions k1..k2 */
}

/* n uniform indices below n, two per 64-bit draw of xoshiro256** (Lemire's
 * multiply with rejection on each 32-bit half): counts[j - lo] for draws
 * in [lo, lo + w), returns how many fell below lo. The generator's state
 * is a local copy so the loop keeps it in registers: the draws are the
 * whole cost of a median replicate. */
static uint64_t count_draws(struct rng *r, uint32_t n, size_t lo, size_t w,
                            uint32_t *counts, uint64_t *inside)
{
	struct rng g = *r;
	uint64_t below = 0, in = 0, v, m;
	uint32_t threshold = (uint32_t)(-n) % n, done = 0;
	size_t j;

#define TAKE(m) do { \
		j = (size_t)((m) >> 32); \
		below += j < lo; \
		if (j - lo < w) \
			counts[j - lo]++, in++; \
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
	*inside = in;
	return below;
}

/* One median replicate: n draws; only draws inside the window [lo, hi)
 * around the middle are counted one by one. When the median falls outside
 * the window (probability far below 1e-12 with an 8-sigma window) the
 * same draws are replayed with a full count array, so the answer is exact
 * either way. */
static double median_replicate(const double *x, size_t n, size_t lo, size_t hi,
                               uint32_t *wcount, uint32_t **full, struct rng *r)
{
	struct rng saved = *r;
	uint64_t k1 = (n + 1) / 2, k2 = n / 2 + 1, below, inside;

	memset(wcount, 0, (hi - lo) * sizeof *wcount);
	below = count_draws(r, (uint32_t)n, lo, hi - lo, wcount, &inside);
	if (below < k1 && below + inside >= k2)
		return median_from_counts(x, wcount, lo, hi, below, k1, k2);
	if (!*full)
		*full = xmalloc(n * sizeof **full);
	*r = saved;
	memset(*full, 0, n * sizeof **full);
	count_draws(r, (uint32_t)n, 0, n, *full, &inside);
	return median_from_counts(x, *full, 0, n, 0, k1, k2);
}

double boot_stat_sorted(const double *x, size_t n, enum boot_stat stat)
{
	/* The mean as the replicates compute it (a plain sum over n), so a
	 * resample holding the same values gives the same double and BCa
	 * counts it as a tie; stat_mean's refinement pass can land an ulp
	 * away, e.g. on sorted integers. */
	if (stat == BOOT_MEAN) {
		double s = 0;
		size_t i;
		for (i = 0; i < n; i++)
			s += x[i];
		return s / (double)n;
	}
	return n % 2 ? x[n / 2] : x[n / 2 - 1] + (x[n / 2] - x[n / 2 - 1]) / 2;
}

void boot_replicates(const double *x, size_t n, enum boot_stat stat, size_t nrep,
                     struct rng *r, double *rep)
{
	size_t b, i;

	if (n > UINT32_MAX)
		die("bootstrap: more than %lu values in one sample", (unsigned long)UINT32_MAX);
	if (stat == BOOT_MEAN) {
		for (b = 0; b < nrep; b++) {
			double s = 0;
			for (i = 0; i < n; i++)
				s += x[rng_below(r, (uint32_t)n)];
			rep[b] = s / (double)n;
		}
		return;
	}
	{
		double half = 4 * sqrt((double)n) + 8;
		size_t mid = n / 2;
		size_t lo = (double)mid > half ? mid - (size_t)half : 0;
		size_t hi = mid + (size_t)half + 1 < n ? mid + (size_t)half + 1 : n;
		uint32_t *wcount = xmalloc((hi - lo) * sizeof *wcount), *full = NULL;

		for (b = 0; b < nrep; b++)
			rep[b] = median_replicate(x, n, lo, hi, wcount, &full, r);
		free(wcount);
		free(full);
	}
}

/* Weighted median of sorted x with weights w[block[i]]: positions k1, k2
 * of the expanded sample of size total. */
static double weighted_median(const double *x, const uint32_t *block, size_t n,
                              const uint32_t *w, uint64_t total)
{
	struct mid_walk m = { 0, (total + 1) / 2, total / 2 + 1, 0, 0 };
	double median;
	size_t i;

	for (i = 0; i < n; i++)
		if (mid_step(&m, x[i], w[block[i]], &median))
			return median;
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
                           size_t nblocks, enum boot_stat stat, size_t nrep,
                           struct rng *r, double *rep)
{
	uint32_t *w = xmalloc(nblocks * sizeof *w);
	struct block_sums s = block_sums(x, block, n, nblocks);
	size_t b, k;

	for (b = 0; b < nrep; b++) {
		uint64_t total = 0;
		double sum = 0;

		memset(w, 0, nblocks * sizeof *w);
		for (k = 0; k < nblocks; k++) {
			uint32_t j = rng_below(r, (uint32_t)nblocks);
			w[j]++;
			total += s.size[j];
			sum += s.sum[j];
		}
		rep[b] = stat == BOOT_MEAN ? sum / (double)total
		                           : weighted_median(x, block, n, w, total);
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

/* The (nrep+1)p-th order statistic, interpolated, clamped to the ends. */
static double order_quantile(const double *sorted, size_t nrep, double p)
{
	double pos = (double)(nrep + 1) * p;
	size_t k;

	if (pos <= 1)
		return sorted[0];
	if (pos >= (double)nrep)
		return sorted[nrep - 1];
	k = (size_t)floor(pos);
	return sorted[k - 1] + (pos - (double)k) * (sorted[k] - sorted[k - 1]);
}

void boot_percentile(double *rep, size_t nrep, double level, double *lo, double *hi)
{
	double a = (1 - level) / 2;

	qsort(rep, nrep, sizeof *rep, cmp_double);
	*lo = order_quantile(rep, nrep, a);
	*hi = order_quantile(rep, nrep, 1 - a);
}

int boot_bca(double *rep, size_t nrep, double est, const double *jack, size_t njack,
             double level, double *lo, double *hi)
{
	double a = (1 - level) / 2, below = 0, mean = 0, num = 0, den = 0, z0, acc, za, zb;
	size_t i;

	qsort(rep, nrep, sizeof *rep, cmp_double);
	for (i = 0; i < nrep; i++)
		below += rep[i] < est ? 1 : rep[i] == est ? 0.5 : 0;
	if (below == 0 || below == (double)nrep)
		return -1;
	z0 = stat_qnorm(below / (double)nrep);
	for (i = 0; i < njack; i++)
		mean += jack[i];
	mean /= (double)njack;
	for (i = 0; i < njack; i++) {
		double d = mean - jack[i];
		num += d * d * d;
		den += d * d;
	}
	acc = den > 0 ? num / (6 * pow(den, 1.5)) : 0;
	za = stat_qnorm(a);
	zb = stat_qnorm(1 - a);
	*lo = order_quantile(rep, nrep, stat_pnorm(z0 + (z0 + za) / (1 - acc * (z0 + za))));
	*hi = order_quantile(rep, nrep, stat_pnorm(z0 + (z0 + zb) / (1 - acc * (z0 + zb))));
	return 0;
}

void boot_jackknife(const double *x, size_t n, enum boot_stat stat, double *jack)
{
	size_t i, m = n / 2;

	if (stat == BOOT_MEAN) {
		double s = 0;
		for (i = 0; i < n; i++)
			s += x[i];
		for (i = 0; i < n; i++)
			jack[i] = (s - x[i]) / (double)(n - 1);
		return;
	}
	for (i = 0; i < n; i++) {
		if (n % 2 == 0)   /* n-1 values, odd: the middle one */
			jack[i] = i < m ? x[m] : x[m - 1];
		else if (i < m)   /* n-1 values, even: mean of the two middles */
			jack[i] = x[m] + (x[m + 1] - x[m]) / 2;
		else if (i > m)
			jack[i] = x[m - 1] + (x[m] - x[m - 1]) / 2;
		else
			jack[i] = x[m - 1] + (x[m + 1] - x[m - 1]) / 2;
	}
}

void boot_block_jackknife(const double *x, const uint32_t *block, size_t n,
                          size_t nblocks, enum boot_stat stat, double *jack)
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
		jack[b] = stat == BOOT_MEAN ? (sum - s.sum[b]) / (double)(n - s.size[b])
		                            : weighted_median(x, block, n, w, n - s.size[b]);
		w[b] = 1;
	}
	free(w);
	free(s.sum);
	free(s.size);
}

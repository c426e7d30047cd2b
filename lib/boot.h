/* boot: bootstrap replicates and intervals (Efron & Tibshirani; Davison &
 * Hinkley). A replicate of a quantile (the median among them) is read
 * from the sorted sample at the order statistics of the resample's
 * uniforms, drawn directly (two variates, no n draws, no sort); a mean
 * replicate takes n draws; replicates over blocks (runs) resample whole
 * blocks and take the statistic of the pooled rows. */
#ifndef PB_BOOT_H
#define PB_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* The statistic: the mean, or the quantile p of R's type 7 (stats.h), of
 * which the median is p = 1/2: the value at 0-based position h = (n-1)p
 * of the sorted sample, interpolated between its neighbours. */
enum boot_kind { BOOT_KIND_QUANTILE, BOOT_KIND_MEAN };
struct boot_stat {
	enum boot_kind kind;
	double p;            /* the quantile's, in [0, 1] */
};
#define BOOT_MEDIAN ((struct boot_stat){ BOOT_KIND_QUANTILE, 0.5 })
#define BOOT_MEAN ((struct boot_stat){ BOOT_KIND_MEAN, 0 })

/* x sorted ascending (n >= 1); writes replicates first .. first+nrep-1
 * to rep[0 .. nrep). Replicate b draws from its own generator, seeded
 * with rng_derive(seed, b): it depends on (seed, b) alone, so replicates
 * computed in any order, or shared out among threads, are the same. */
void boot_replicates(const double *x, size_t n, struct boot_stat stat, uint64_t seed,
                     size_t first, size_t nrep, double *rep);
/* Blocks: x sorted ascending with block[i] in [0, nblocks) for each value.
 * Each replicate draws nblocks blocks with replacement and takes the
 * statistic of all their rows. Seeded as boot_replicates. */
void boot_block_replicates(const double *x, const uint32_t *block, size_t n,
                           size_t nblocks, struct boot_stat stat, uint64_t seed,
                           size_t first, size_t nrep, double *rep);
/* The statistic of the sorted sample itself. The mean is computed from
 * the multiset (one product per distinct value, in ascending order), as
 * every mean replicate is, so equal multisets give equal doubles. */
double boot_stat_sorted(const double *x, size_t n, struct boot_stat stat);
/* Would a mean's sums overflow? big the largest |x|, at most most values
 * in a sum (n; over blocks, the rows of the largest block times the
 * blocks). Then sums stay below half the largest double. */
int boot_mean_overflows(double big, uint64_t most);
/* Percentile interval at level: the (B+1)a-th order statistics of the
 * replicates (interpolated), a = (1-level)/2 and 1-a. Sorts rep. */
void boot_percentile(double *rep, size_t nrep, double level, double *lo, double *hi);
/* The normal quantiles an interval's ends are read at. With k < 2,
 * Φ^-1(a) and Φ^-1(1 - a), a = (1-level)/2 (-Φ^-1(a) where 1 - a rounds
 * to 1). With k >= 2 units (blocks), the expanded ones of Hesterberg
 * (2015), ∓√(k/(k-1)) t_{k-1}(a), which widen the interval by what the
 * bootstrap's plug-in variance and the normal tail leave out at small k. */
void boot_z(double level, size_t k, double *zlo, double *zhi);
/* Percentile interval read at Φ(zlo) and Φ(zhi). Sorts rep. */
void boot_percentile_z(double *rep, size_t nrep, double zlo, double zhi, double *lo, double *hi);
/* Ties of a replicate with the estimate in BCa's bias correction: half
 * below (pb's default), or above, as boot.ci and Efron & Tibshirani
 * count only those strictly below. */
enum boot_ties { BOOT_TIES_HALF, BOOT_TIES_BELOW };
#define BOOT_BCA_Z0_INFINITE 1     /* no interval: all replicates on one side */
#define BOOT_BCA_ACC_UNDEFINED 2   /* every jackknife value equal: acc 0 used */
/* BCa: bias correction from the share of replicates below est, the
 * acceleration from jackknife values jack[0..njack), the ends at the
 * normal quantiles zlo and zhi (boot_z). Sorts rep. Returns 0,
 * BOOT_BCA_Z0_INFINITE (lo, hi untouched) or BOOT_BCA_ACC_UNDEFINED. */
int boot_bca(double *rep, size_t nrep, double est, const double *jack, size_t njack,
             double zlo, double zhi, enum boot_ties ties, double *lo, double *hi);
/* Jackknife values of the statistic (leave one value out) for a sorted
 * sample: writes n values. For a quantile they take a few distinct
 * values and are computed directly. */
void boot_jackknife(const double *x, size_t n, struct boot_stat stat, double *jack);
/* Leave one block out: writes nblocks values. x sorted as above. */
void boot_block_jackknife(const double *x, const uint32_t *block, size_t n,
                          size_t nblocks, struct boot_stat stat, double *jack);

#endif

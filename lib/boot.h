/* boot: bootstrap replicates and intervals (Efron & Tibshirani; Davison &
 * Hinkley). Replicates of the median are computed from the sorted sample
 * by counting where the n draws fall, so a resample costs n draws and no
 * sort; replicates over blocks (runs) resample whole blocks and take the
 * statistic of the pooled rows. */
#ifndef PB_BOOT_H
#define PB_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

enum boot_stat { BOOT_MEDIAN, BOOT_MEAN };

/* x sorted ascending (n >= 1); writes nrep replicates to rep. */
void boot_replicates(const double *x, size_t n, enum boot_stat stat, size_t nrep,
                     struct rng *r, double *rep);
/* Blocks: x sorted ascending with block[i] in [0, nblocks) for each value.
 * Each replicate draws nblocks blocks with replacement and takes the
 * statistic of all their rows. */
void boot_block_replicates(const double *x, const uint32_t *block, size_t n,
                           size_t nblocks, enum boot_stat stat, size_t nrep,
                           struct rng *r, double *rep);
/* The statistic of the sorted sample itself. */
double boot_stat_sorted(const double *x, size_t n, enum boot_stat stat);
/* Percentile interval at level: the (B+1)a-th order statistics of the
 * replicates (interpolated), a = (1-level)/2 and 1-a. Sorts rep. */
void boot_percentile(double *rep, size_t nrep, double level, double *lo, double *hi);
/* BCa: bias correction from the share of replicates below est, and the
 * acceleration from jackknife values jack[0..njack). Sorts rep.
 * Returns -1 when the bias correction is infinite (all replicates on one
 * side of est). */
int boot_bca(double *rep, size_t nrep, double est, const double *jack, size_t njack,
             double level, double *lo, double *hi);
/* Jackknife values of the statistic (leave one value out) for a sorted
 * sample: writes n values. For the median they take a few distinct
 * values and are computed directly. */
void boot_jackknife(const double *x, size_t n, enum boot_stat stat, double *jack);
/* Leave one block out: writes nblocks values. x sorted as above. */
void boot_block_jackknife(const double *x, const uint32_t *block, size_t n,
                          size_t nblocks, enum boot_stat stat, double *jack);

#endif

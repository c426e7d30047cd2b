/* pairs: the rows of pb-pair's output (pb(7), Pairs stream): one per
 * pair and candidate, the reference a against the candidate b; or with
 * --by-run one per run and candidate, from the series of its pairs, each
 * column reduced by the run's statistic (lib/runstat.h). The header and
 * the metadata that say what the columns hold are pb-pair's. */
#ifndef PB_PAIRS_H
#define PB_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "raw.h"

struct run_stat;

/* A candidate's pairs in one run, for --by-run (zero-initialize). */
struct series {
	double *a, *b, *delay, *spin;
	double *use_a[NUSE], *use_b[NUSE];   /* the rusage columns there are */
	size_t n, cap;
};
/* The pair of the reference a and the candidate b, of a stream with
 * the columns c. */
void series_add(struct series *x, const struct raw_cols *c, const struct raw_obs *a,
                const struct raw_obs *b);
void series_free(struct series *x);

/* The row of a pair of run: the reference a against the candidate b; with
 * multi (a study of more than two arms, or a reference other than A) the
 * arm column and the places; host (--host) and a's extra fields, unless
 * NULL; last, with a cpu column, the CPU of each. In a duet first is "=". */
void pairs_row_out(const struct raw_cols *c, int64_t run, const struct raw_obs *a,
                   const struct raw_obs *b, int multi, const char *host);
/* The by-run row of the pairs x of run, of the candidate arm (-1: no arm
 * column); x's values are reordered. host and extra unless NULL. */
void pairs_run_out(struct series *x, const struct raw_cols *c, const struct run_stat *st,
                   int64_t run, int arm, const char *host, const char *extra);

#endif

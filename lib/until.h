/* until: when pb-run stops before its last run. --until: after each run
 * its log ratio (lib/runstat.h, as pb-pair --by-run | pb-logratio gives
 * it) joins the sequence of per-run log ratios, and the study stops as
 * soon as the anytime-valid confidence sequence answers the rule
 * (lib/seq.h); "# sequential:" lines say where it stands. --max-time: no
 * run starts that would end past the limit at the pace of those so far. */
#ifndef PB_UNTIL_H
#define PB_UNTIL_H

#include <stddef.h>
#include <stdint.h>

#include "seq.h"
#include "stats.h"

struct run_stat;

/* The current run's measured pairs, and the per-run log ratios so far
 * (zero-initialize). */
struct until_runs {
	double *a, *b;
	size_t n, cap;
	struct welford w;
	double *runs_lr;        /* the per-run log ratios (w.n), for the median sequence */
	size_t runs_cap;
	struct seq_look look;
	char shown[96];         /* the interval, for the progress line */
};

/* A measured pair of the current run, both halves of which succeeded. */
void until_keep_pair(struct until_runs *q, int64_t a_ns, int64_t b_ns);
/* After run: its log ratio by st joins the sequence, "# sequential:"
 * says where the interval stands, and the result says whether the rule
 * is answered (1) or not (0). A run with no pair left is skipped, as
 * pb-pair --by-run skips it: -1, and nothing written. */
int until_after_run(struct until_runs *q, const struct seq_stop *stop,
                    const struct run_stat *st, long run);
/* The last line of a sequential study, stopped after run: the rule
 * answered, runs (--runs) reached, or timed_out (why, or NULL). */
void until_stopped(const struct until_runs *q, const struct seq_stop *stop, long runs,
                   long run, int answered, const char *timed_out);
void until_free(struct until_runs *q);

/* --max-time max_ns: whether the next run, at the pace of the runs so
 * far (done of them since runs_start), would end past the limit counted
 * from start; why, in words, into why. */
int until_past_max_time(int64_t max_ns, int64_t start, int64_t runs_start, long done,
                        char *why, size_t n);

#endif

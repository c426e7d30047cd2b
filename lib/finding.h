/* finding: what an interval of a comparison means, in words for a
 * person: one "# finding:" sentence per interval ("B took 19.61% less
 * time than A: A/B time ratio 1.244, 95% CI 1.227 to 1.261 (t interval,
 * n = 12 runs, df = 11). The interval excludes 1: B is faster."), and
 * the lines before the rows that say how the intervals were made
 * ("# TOOL.column:", .level, .method, .adjust, .df, .threshold). pb-tint
 * writes them; they are over plain data (lib/interval.h's intervals and
 * what they are of), not over a tool's options, so that another tool
 * says the same words. */
#ifndef PB_FINDING_H
#define PB_FINDING_H

#include <stddef.h>
#include <stdint.h>

struct interval;
struct interval_method;
struct quantity;

/* The warnings an earlier tool wrote into the input (# pb-TOOL.warning:)
 * and those of pb-check's output (--check): each becomes a clause. */
struct finding_warnings {
	char *const *v;      /* in the order met */
	size_t n, more;      /* those in v, and a count of those left out */
	size_t first_check;  /* v[first_check ..] came from pb-check */
	int checked;         /* pb-check's output was read */
	int check_warned;    /* and it warned of something */
	size_t check_rows, check_na;   /* its checks, and those it could not make */
};

/* A calibration of the harness by pb-sense(1): the smallest delay its t
 * analysis resolved, and the largest it missed. */
struct finding_calibration {
	int64_t resolved, missed;  /* in ns; -1: none */
	double median;             /* the workload's median time in ns, >= 1 */
	const char *stat, *level;  /* its analysis: per-run statistic, level */
	const char *other;         /* a key of the workload that differs, or NULL */
	const char *why;           /* why the analysis here is another, or NULL */
};

/* What the findings of one output share. */
struct finding_study {
	const struct interval_method *m;   /* how the intervals were made */
	const char *column;          /* the column whose mean they are */
	const struct quantity *q;    /* what its log ratio compares */
	const char *statistic;       /* of by-run rows: "per-run means" ..., or
	                              * NULL for medians, and for other rows */
	int pairs;                   /* the values are pairs inside runs */
	int run_units;               /* the values are whole runs */
	int grouped_by_run;          /* a group per run */
	const struct finding_warnings *w;
	const struct finding_calibration *cal;   /* or NULL */
};

/* Who is compared: the candidate and the reference, "B" and "A" but in
 * a stream of several comparisons (an arm column), where the candidate
 * is the group's arm and the reference the head's. */
struct finding_names {
	const char *ref, *cand;
	int comparisons;     /* grouped by arm: the reference is said so */
};

/* One group's: its key (the group columns' values, TAB-joined) tags the
 * sentence when grouped; without the arm's field (arm_at, or -1) in a
 * stream of comparisons. runs: distinct runs among its values. */
struct finding_group {
	const char *key;
	int grouped;
	long arm_at;
	const struct interval *r;
	long runs;
	const struct finding_names *names;
};

/* "# finding: ..." of one group. */
void finding_out(const struct finding_study *f, const struct finding_group *g);

/* "# TOOL.column:", ".level:", ".method:" (and ".unbounded:" when one of
 * the n intervals iv is), ".adjust:", ".df:", ".threshold:". */
void finding_method_meta(const char *tool, const struct finding_study *f,
                         const struct interval *iv, size_t n, int comparisons);

#endif

/* interval: the interval of a mean as pb-tint makes it, one per group:
 * Student's t interval (valid for a number of values fixed in advance)
 * or the anytime-valid confidence sequence of lib/seq.c; its verdict
 * against a threshold; the adjustment of a family of intervals that must
 * hold together (Bonferroni, or Holm's step-down on the t tests' p); and
 * the fields of a row that holds one. Over plain data, so that another
 * tool computes and writes the same numbers. */
#ifndef PB_INTERVAL_H
#define PB_INTERVAL_H

#include <stddef.h>

#include "seq.h"
#include "stats.h"

enum adjust { ADJUST_NONE, ADJUST_BONFERRONI, ADJUST_HOLM };
extern const char *const adjust_names[3];   /* "none", "bonferroni", "holm" */

/* How the intervals of one output are made: all alike. */
struct interval_method {
	double level;        /* the level the family holds at */
	double each_level;   /* the level of each: level, or Bonferroni's */
	int sequential;      /* > 0: the confidence sequence; else the t interval */
	double seq_g;        /* the sequence's prior variance g */
	const char *seq_g_note;   /* why that g (the head's # seq_g.note:), or NULL */
	enum seq_kind seq_kind;   /* of the mean (t) or of the median */
	long df_cap;         /* the t interval's df = min(n - 1, df_cap); 0: n - 1 */
	enum adjust adjust;
	size_t family;       /* the intervals that hold together */
	int log_ratio;       /* of a log ratio: the threshold is a ratio A/B */
	int has_threshold;
	double threshold;
	int has_tolerance;   /* a margin (of a log ratio): the verdict is tol_verdict's */
	double tolerance;    /* in percent */
};

struct interval {
	double n, mean, sd, se, df, t, lo, hi;
	double estimate;     /* what lo and hi bound: the mean, or the median sequence's median */
	int unbounded;       /* a confidence sequence with too few values yet */
	double p, p_adj;     /* --adjust: the t test of the null (1, or the threshold) */
	int resolved;        /* the null rejected: by the interval, or Holm's step-down */
};

/* The values of one interval as they are read (zero-initialize; set
 * keep for a method that reads the values themselves: the median
 * sequence). */
struct interval_values {
	struct welford w;
	double min, max;
	int keep;
	double *x;
	size_t cap;
};
void interval_values_add(struct interval_values *v, double x);
void interval_values_free(struct interval_values *v);

/* The interval of the values v holds (at least 2). An unbounded
 * sequence has lo = -inf and hi = +inf, which are never printed: the
 * fields stay empty. The median sequence reorders v's values. */
struct interval interval_of(const struct interval_values *v, const struct interval_method *m);
/* Their interval, or one line and exit 1 when a double cannot hold it:
 * no row or finding ever shows inf, nan or a variance that underflowed
 * to 0. what names the values in messages ("group 2", "column lr"), or
 * column alone where a group would not be named. */
struct interval interval_checked(const struct interval_values *v, int grouped, const char *what,
                                 const char *column, const struct interval_method *m);
/* The warning of values all equal, once every group's interval was
 * checked: a run that fails says one line, its error, and no warning
 * of a group before it. */
void interval_warn_zero_width(const struct interval_values *v, const char *what);
/* p, p_adj and resolved of the family's n intervals. */
void interval_adjust(struct interval *iv, size_t n, const struct interval_method *m);
/* The verdict against the threshold: "above", "below" or "crosses"; or
 * against the margin, as tol_verdict_names (lib/seq.h) say it. */
const char *interval_verdict(const struct interval *r, const struct interval_method *m);

/* The fields of a row after its group's, and the line's end: n mean sd
 * se df t lo hi, then ratio ratio_lo ratio_hi reduction of a log ratio,
 * p p_adj with an adjustment, verdict with a threshold or a margin. */
/* What an interval lo..hi of the ratio A/B that holds 1 rules out: B's
 * time (or use) lies within 1/hi to 1/lo of A's, so B is at most *less =
 * 1 - 1/hi less and at most *more = 1/lo - 1 more than A (shares). 0, or
 * -1 when the ends are not a finite interval about 1 whose shares are
 * finite in percent (lo near 0: 100/lo overflows). */
int interval_sides(double lo, double hi, double *less, double *more);
void interval_header_out(const struct interval_method *m);
void interval_row_out(const struct interval *r, const struct interval_method *m);
/* The same fields without the line's end, for a row that has more. */
void interval_header_fields(const struct interval_method *m);
void interval_fields_out(const struct interval *r, const struct interval_method *m);

#endif

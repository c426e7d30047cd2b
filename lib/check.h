/* check: what pb-check(1) asks of a pair stream before its interval is
 * trusted: the order of the arms, a position effect (in a duet, whose
 * arms ran together, a CPU effect instead), carry-over, drift,
 * the warm-up, outlier runs, partial runs, per-arm medians under a load
 * that comes and goes, the spread of each arm, the shape of the runs'
 * ratios, and the machine beside them (CPU pressure, the governor). Each check gives one
 * or more rows, ok, warn or n/a, with a note that a person reads on its
 * own. The runs given are one comparison (one candidate arm against the
 * baseline); a stream of several arms is checked one arm at a time. */
#ifndef PB_CHECK_H
#define PB_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "runstat.h"

struct check_pair {
	int64_t pair;
	double a, b;            /* ns: the reference's and the candidate's */
	int a_first;            /* 1 when the reference ran first */
	int pos_a, pos_b;       /* their places in the pair (1 to arms); 0: not known */
	int a_cpu_first;        /* a duet: 1 when the reference had the first CPU of
	                         * the design's, 0 the second; -1 not known */
};

struct check_run {
	int64_t run;
	struct check_pair *p;   /* in pair order */
	size_t n;
};

/* The design, from the head of the stream (pb-run's metadata). */
struct check_design {
	int64_t pairs;          /* measured pairs per run, or -1 when unknown */
	int64_t warmup;         /* warm-up pairs per run, or -1 when unknown */
	const char *order;      /* random, alternate, blocked, or NULL */
	int64_t delay_ns;       /* the injected delay, 0 for none */
	char delay_arm;         /* 'A', 'B', ... */
	int arms;               /* k, 2 or more */
	const char *ref, *cand; /* the arms compared: "A" and "B" for two */
	const char *pairing;    /* the head's "# pairing:", or NULL */
	const char *seq_kind;   /* the head's "# seq_kind:" (t, median), or NULL */
	const char *seq_stat;   /* the head's "# seq_stat:", or NULL */
	const char *governor;   /* the head's "# machine.governor:", or NULL */
	int duet;               /* "# order: duet": the arms of a pair ran at once */
	int64_t cpu[2];         /* a duet's "# duet_cpus: X,Y"; -1 when not given */
};

/* What the comments among the rows said: pb-run's "# failed:",
 * "# run_ended:" and "# interrupted:", and pb-pair's count of dropped
 * pairs. The first CHECK_EVENTS_KEPT texts are kept, the rest counted. */
enum { CHECK_EVENTS_KEPT = 4 };
struct check_psi {
	int64_t run;
	double pct;
};
struct check_host {
	int64_t run;
	char *host;             /* its "# run:" line's host= */
};
struct check_events {
	char *text[CHECK_EVENTS_KEPT];   /* "run_ended: run 3 ...", cut */
	size_t n, more;
	long failed_pairs;
	struct check_psi *psi;  /* each "# run_end:" line's run and psi_run=, % */
	size_t npsi, psi_cap;
	struct check_host *hosts;   /* each "# run:" line's run and host */
	size_t nhosts, hosts_cap;
};

struct check_opts {
	double level;           /* of the intervals that decide a warning (0.99) */
	double position_share;  /* position vs the effect (0.25) */
	double warmup_share;    /* the first part of each run (0.1) */
	double warmup_min;      /* the least level change that warns (0.01) */
	double fence;           /* IQRs beyond the quartiles of the runs; 0: from
	                           the number of runs and the level (0) */
	double spread_ratio;    /* IQR of B over A that warns (1.25, or 1/1.25) */
	long resamples;         /* bootstrap of the bimodal check (400) */
	struct run_stat stat;   /* each run's statistic for skew (median) */
	int stat_given;         /* --stat: over the head's # seq_stat: */
	uint64_t seed;          /* (1) */
	double pressure;        /* the median run's psi_run, %, that warns (10) */
};

enum check_status { CHECK_OK, CHECK_WARN, CHECK_NA };

struct check_row {
	const char *check;
	enum check_status status;
	double value, lo, hi;
	int has_value, has_interval;
	const char *unit;
	char *note;             /* one sentence, no TAB or newline */
};

struct check_method {
	const char *check;
	char *text;
};

struct check_report {
	struct check_row *row;
	size_t n, cap;
	struct check_method *method;
	size_t nmethod, mcap;
};

void check_defaults(struct check_opts *o);
/* How each check is computed and when it warns, for the metadata; a
 * study of arms > 2 has the positions check too, and a duet (whose
 * arms ran together) duet_cpu in place of order and position. */
void check_methods(const struct check_opts *o, int arms, int duet, struct check_report *rep);
/* The places of one arm in the pairs of a study of k arms: counts[r * k
 * + p] pairs of run r had it at place p + 1 (runs[r] names run r). Rows
 * positions and positions_run appended to rep. */
void check_positions(const char *arm, const int64_t *runs, const long *counts,
                     size_t nruns, int k, const struct check_opts *o,
                     struct check_report *rep);
/* Every check of runs (in run order, each run's pairs in pair order):
 * rows appended to rep. */
void check_study(const struct check_run *runs, size_t nruns, const struct check_design *d,
                 const struct check_events *ev, const struct check_opts *o,
                 struct check_report *rep);
const char *check_status_name(enum check_status s);
void check_report_free(struct check_report *rep);

#endif

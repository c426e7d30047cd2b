/* studydir: a study directory read back with the stream reader, into
 * what the summary, the report and the exports say (pb-compare(1), The
 * study directory), and the verdict of each comparison in words. No
 * statistic is computed here but the medians and quartiles of each arm's
 * times (lib/stats); the intervals are pb-tint's, the warnings pb-check's. */
#ifndef PB_STUDYDIR_H
#define PB_STUDYDIR_H

#include "recipe.h"

enum { ARMS_MAX = 26 };

/* A ratio A/X with its interval (NAN ends: unbounded). */
struct ratio_ci {
	int have;
	double ratio, lo, hi;
};

struct arm_result {
	char letter;
	char *what;          /* the command, SQL or worker arm, for a person */
	double median, q1, q3;   /* ns, over the measured pairs (R's type 7) */
	double run_lo, run_hi;   /* the lowest and highest per-run statistic */
	double use_median[NUSE]; /* CPU time (ns), peak memory (KiB); NAN: none */
	long n;
};

struct cmp_result {
	char ref, cand;
	double ratio, lo, hi, reduction;   /* lo and hi NAN: unbounded */
	int have;            /* pb-tint gave a row */
	char verdict[16];    /* pb-tint's against --threshold or --tolerance, or "" */
	char *finding;       /* pb-tint's sentence, or NULL */
	struct ratio_ci use[NUSE];   /* the CPU time and peak memory ratios */
};

struct study {
	char *dir;
	int narms, ncmp;
	struct arm_result arm[ARMS_MAX];
	struct cmp_result cmp[ARMS_MAX];
	char mode[16];
	long runs, pairs_total, pairs, warmup, runs_max;
	char *stop;          /* why the study stopped (pb-run's last line) */
	char *interrupted;   /* '# interrupted:' of pb-run, or NULL */
	char *failed;        /* '# failed:' of pb-run, or NULL */
	char *until;         /* the head's rule, or NULL */
	char *stat;          /* the per-run statistic ("median") */
	double threshold;    /* NAN: none */
	double tolerance;    /* pb-tint's margin in percent (the verdict's); NAN: none */
	double level;
	int sequence;        /* a confidence sequence (CS), not a t interval */
	int median;          /* the median sequence's: a ratio of the median run */
	char **warnings;     /* pb-check's, "arm: note" for several arms */
	size_t nwarn;
	long checks;         /* pb-check's rows */
	char *start, *host, *cpu, *kernel, *order, *seed;
	/* the pilot and pb-plan on it */
	int have_pilot;
	long pilot_runs, pilot_pairs, pilot_warmup, kj_pairs;
	double pair_cost, run_cost, sd_between, sd_within;   /* ns; lr sd */
	/* --calibrate */
	int have_sense;
	double resolves_ns, sense_max_ns;   /* NAN: none resolved */
	int have_use;        /* runs-cpu.tsv ... tint-memory.tsv were made */
	int have_tree;       /* runs-tree-cpu.tsv ... tint-tree-memory.tsv were */
	double maxrss_floor_kib;   /* what a forked child holds before exec; NAN: none */
	/* tighter.tsv (a sequential study of two arms): what telling apart
	 * half the bound the interval proves would cost, pb-plan --sequential
	 * --tighter's best design; NAN when absent or when it gave none */
	double tighter_bound;     /* the bound proven, a share (0.0059: 0.59%) */
	double tighter_target;    /* half of it as a log ratio: log1p(bound / 2) */
	double tighter_runs, tighter_pairs;   /* the design: runs, pairs per run */
	double tighter_total_ns;  /* its runs' cost, ns (no probe, pilot, analysis) */
	double tighter_current_ns;   /* the study's own runs' cost as pb-plan priced it */
	int pictures;        /* runs.svg trend.svg pairs.svg are there */
	int sense_picture;
	/* hosts.tsv (runs on 3 hosts or more): hosts as a level, A/B of the
	 * average host (random effects) and the prediction interval for a
	 * new host; NAN ends: none */
	struct hosts_result {
		int have, picture;   /* hosts.svg is there */
		long n;
		double ratio, lo, hi, pred_lo, pred_hi, i2;
		char *finding;
	} hosts;
};

/* Read DIR as pb-compare leaves it; every file but raw.tsv may be
 * missing (an interrupted or failed analysis): the fields stay empty. */
void study_read(struct study *s, const char *dir);
/* DIR's hosts.tsv alone (have = 0 when there is none); free h->finding. */
void study_read_hosts(struct hosts_result *h, const char *dir);
void study_free(struct study *s);

/* What only the live invocation knows: its plan, budget and wall time. */
struct live {
	char *plan;          /* the plan line, or NULL */
	int plan_shown;      /* said on stderr (a terminal) before the runs */
	double budget_ns, wall_ns;   /* NAN: not known (--from) */
	double fail_if_slower;       /* NAN: not given */
	int exit_status;
	const char *signal_name;     /* interrupted by, or NULL */
	char *value;         /* --parameter-scan: this study's value */
	int bisect;          /* --bisect: lib/gate's exit status is git bisect run's */
};

/* Whether candidate c is slower than ratio with confidence. */
int cmp_slower_than(const struct cmp_result *c, double ratio);
/* Whether candidate c is shown not slower than A by more than pct % (its
 * interval within the margin, faster, or at or over 1/(1 + pct/100)). */
int cmp_not_slower_beyond(const struct cmp_result *c, double pct);
/* The verdict in words: "faster", "slower", "no difference resolved". */
const char *cmp_words(const struct cmp_result *c);

/* The arm of the letter, the comparison of candidate arm, or NULL. */
const struct arm_result *study_arm(const struct study *s, char letter);
const struct cmp_result *study_cmp(const struct study *s, char arm);
/* The reference's median time (ns), or NAN. */
double study_reference_median(const struct study *s);
/* Whether the study compared the use_kinds k: wait4's CPU time and
 * memory (have_use), or the whole tree's (have_tree). */
int study_has_use(const struct study *s, int k);
/* Whether arm a's median peak memory is pb-run's own (its floor). */
int study_arm_at_floor(const struct study *s, const struct arm_result *a);
/* The verdict of a CPU time or memory ratio: "less", "more", ... */
const char *use_words(const struct ratio_ci *u);

#endif

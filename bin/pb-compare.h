/* Shared between pb-compare.c and its parts: reading a study directory
 * back (pb-compare-read.c) and writing what a person and a script read
 * (pb-compare-write.c). The tools run through lib/tools. */
#ifndef PB_COMPARE_H
#define PB_COMPARE_H

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "files.h"
#include "human.h"
#include "recipe.h"
#include "strv.h"
#include "tools.h"

enum { ARMS_MAX = 26, EXIT_SLOWER = 3 };

/* lib/human's 4 digits, "?" for a number a study did not give (sig4
 * refuses what is not finite). */
static inline const char *h4(char buf[SIG_BUFSZ], double x)
{
	return isfinite(x) ? sig4(buf, x) : strcpy(buf, "?");
}
static inline const char *h4ns(char buf[SIG_BUFSZ], double ns)
{
	return isfinite(ns) ? sig4_ns(buf, ns) : strcpy(buf, "?");
}

/* A ratio A/X with its interval (NAN ends: unbounded). */
struct ratio_ci {
	int have;
	double ratio, lo, hi;
};

/* --- pb-compare-read.c: a study directory read back ------------------- */

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
	char verdict[16];    /* pb-tint's against --threshold, or "" */
	char *finding;       /* pb-tint's sentence, or NULL */
	struct ratio_ci use[NUSE];   /* the CPU time and peak memory ratios */
};

struct study_result {
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
	double level;
	int sequence;        /* a confidence sequence (CS), not a t interval */
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
	double maxrss_floor_kib;   /* pb-run's own peak at the start; NAN: none */
	int pictures;        /* runs.svg trend.svg pairs.svg are there */
	int sense_picture;
};

/* Read DIR as pb-compare leaves it; every file but raw.tsv may be
 * missing (an interrupted or failed analysis): the fields stay empty. */
void study_read(struct study_result *s, const char *dir);
void study_free(struct study_result *s);

/* --- pb-compare-write.c: for a person and for a script ---------------- */

/* What only the live invocation knows: its plan, budget and wall time. */
struct live {
	char *plan;          /* the plan line, or NULL */
	double budget_ns, wall_ns;   /* NAN: not known (--from) */
	double fail_if_slower;       /* NAN: not given */
	int exit_status;
	const char *signal_name;     /* interrupted by, or NULL */
	char *value;         /* --parameter-scan: this study's value */
};

struct style {
	int color;
};

/* The summary: to f, coloured or not. */
void write_summary(FILE *f, const struct study_result *s, const struct live *l,
                   const struct style *st);
/* report.md: a function of the directory alone, so that make redoes it. */
void write_report(FILE *f, const struct study_result *s);
void write_markdown_table(FILE *f, const struct study_result *const *s,
                          const struct live *const *l, size_t n, const char *param);
void write_csv(FILE *f, const struct study_result *const *s, const struct live *const *l,
               size_t n, const char *param);
void write_json(FILE *f, const struct study_result *const *s, const struct live *const *l,
                size_t n, const char *param);
/* Whether candidate c is slower than ratio with confidence. */
int cmp_slower_than(const struct cmp_result *c, double ratio);
/* The verdict in words: "faster", "slower", "no difference resolved". */
const char *cmp_words(const struct cmp_result *c);

#endif

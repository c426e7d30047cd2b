/* conduct: a study conducted within a budget (pb-compare(1)): the probe,
 * the pilot and its plan, the calibration, the measurement and the
 * analysis, into a study directory, and the files written from it. */
#ifndef PB_CONDUCT_H
#define PB_CONDUCT_H

#include <stdio.h>

#include "gate.h"
#include "recipe.h"
#include "seq.h"
#include "strv.h"
#include "studydir.h"

/* What pb-compare was asked (its options and commands). */
enum { DUET_OFF, DUET_ON, DUET_AUTO };

struct compare_opts {
	double budget_ns, threshold, fail_if_slower;
	long runs, pairs, warmup, min_runs;
	const char *stat, *level, *dir, *from, *analyse;
	const char *json, *md, *csv, *report, *junit;
	const char *scan_name;
	struct strv scan;
	int calibrate, color, quiet, verbose, no_pictures;
	int bisect;          /* --bisect: exit 0, 1 or 125 (lib/gate) */
	enum seq_kind sequence;   /* --sequence */
	int sequence_given;
	double min_effect;   /* --min-effect, in %; 0: not given */
	double tolerance;    /* --tolerance, in %; 0: not given */
	const char *seq_g;   /* --seq-g, as given, or NULL */
	int duet;            /* --duet: DUET_OFF, DUET_ON, DUET_AUTO */
	struct strv pass;    /* pb-run's options, as given */
	char **cmds;
	int ncmds;
};

/* A study being made. */
/* The analysis's reserve: steps of the streams and pictures, each
 * priced from what a step costs here (step_ns, measured); the pictures
 * are drawn when they take at most 40 % of the budget. */
struct analysis_price {
	double step_ns, streams_ns, pictures_ns, reserve_ns;
	int steps, pictures, drawn;
};
void analysis_price(struct analysis_price *p, double step_ns, int steps, int pictures,
                    double budget_ns);

struct conduct {
	const struct compare_opts *o;
	char *dir;
	struct strv pass;    /* pb-run options, {NAME} replaced */
	struct strv cmds;
	const char *value;   /* NAME=VALUE of a scan, or NULL */
	double t0, budget_ns;
	/* the probe */
	int arms;
	char ref;
	double probe_pair_ns, probe_wall_ns, pilot_wall_ns, plan_wall_ns;
	double probe_step_ns; /* pb-pair of the probe's stream: a step's price */
	double delay_ns;     /* pb-run --delay: the other arms wait as long, untimed */
	long pilot_pairs;    /* per run, its warm-up pair included */
	int pictures_wanted; /* gnuplot is there, no --no-pictures */
	int pictures;        /* and the budget affords them (price) */
	struct analysis_price price;
	/* the plan */
	long runs, pairs, warmup;
	double pair_ns;      /* what a pair costs, the plan's */
	double run_ns;       /* and a run */
	int sequential;
	char seq_g[40];      /* the t sequence's g for pb-run, tuned to the effect; "" for none */
	char seq_g_why[160]; /* why that g, in words, for the plan and # seq_g.note: */
	int least;           /* the least study, beyond the budget */
	int duet;            /* pb-run --duet, given or chosen by --duet auto */
	char duet_why[320];  /* --duet auto: what the two pilots measured; or "" */
	int slow;            /* no pilot: the budget affords too few pairs */
	char *plan;
	struct live live;
	int failed;          /* a tool failed: exit 1 */
	char *run_failed;    /* how pb-run ended when it did not say, or NULL */
	int progress;        /* draw a progress line */
	double study_t0;
	long long seen;      /* bytes of raw.tsv.tmp read by the progress */
	long run_now;
	double eta_shown, eta_at;   /* the progress line's "at most ... left", and when */
	char interval[96];
};

struct summary_ctx {
	const struct study *r;
	const struct live *l;
};

struct json_ctx {
	const struct study *const *r;
	const struct live *const *l;
	size_t n;
	const char *param;
};

/* The study of o (its commands and pb-run options with {name} replaced
 * by value when name is not NULL) in dir (conduct_make_dir's), which it
 * takes. */
void conduct_init(struct conduct *s, const struct compare_opts *o, char *dir,
                  const char *name, const char *value);
/* Run it into s->dir; r is it read back. */
void conduct_run(struct conduct *s, struct study *r);
void conduct_done(struct conduct *s);
/* A new study directory, made (mkdir): dir, where one that exists is an
 * error, or when dir is NULL pb-compare-DATE-TIME, -2, -3, ... after it
 * when that is taken. Removed at exit while nothing was measured in it. */
char *conduct_make_dir(const char *dir);
/* Writers for write_in: the Makefile (a struct recipe), report.md (a
 * struct study), summary.txt (a struct summary_ctx), JSON (a
 * struct json_ctx). */
void w_makefile(FILE *f, const void *recipe);
void w_report(FILE *f, const void *study);
void w_summary(FILE *f, const void *ctx);
void w_json(FILE *f, const void *ctx);

#endif

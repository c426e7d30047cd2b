/* Shared between pb-compare.c and its parts: running pb's tools
 * (pb-compare-tools.c), reading a study directory back (pb-compare-read.c)
 * and writing what a person and a script read (pb-compare-write.c). */
#ifndef PB_COMPARE_H
#define PB_COMPARE_H

#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "human.h"

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

/* --- pb-compare-tools.c: the tools as child processes ------------------ */

/* The first SIGINT, SIGTERM or SIGHUP (0: none); each is passed on to the
 * children running. */
extern volatile sig_atomic_t tools_signal;
/* A second one came: stop at once. */
extern volatile sig_atomic_t tools_signal_again;

/* Whether a first signal is passed on to the children (at first, yes). */
void tools_forward(int on);
/* argv0: how we were started, to find the tools beside us. */
void tools_init(const char *argv0);
/* The path to run a pb tool by: beside pb-compare when it is there, else
 * the bare name, looked up in PATH. */
const char *tool_path(const char *name);

/* A tool (or a pipeline of them) run to its end. */
struct run_result {
	int status;          /* 0, the exit status, or 128 + signal */
	char msg[1024];      /* the failing stage's last line on stderr */
	int64_t ns;          /* wall time */
};

/* Called about every 100 ms while a watched child runs. */
typedef void tools_tick_fn(void *ctx);

/* Run the n stages of a pipeline (argv vectors, tools by name) with dir as
 * the working directory (NULL: ours), the first stage reading in (a file;
 * NULL: /dev/null), the last writing out: to out.tmp, renamed to out on
 * success and removed otherwise, unless flags has TOOLS_KEEP (out NULL:
 * stdout goes to /dev/null). Their warnings (stderr of stages that
 * succeeded) are passed on to ours unless flags has TOOLS_QUIET. tick, if
 * not NULL, is called while it runs. */
enum { TOOLS_QUIET = 1, TOOLS_KEEP = 2 };
void tools_run(struct run_result *r, const char *dir, const char *in, const char *out,
               char **const *stages, int n, int flags, tools_tick_fn *tick, void *ctx);
/* One tool's stdout, whole, in memory (NULL on failure; r says why). */
char *tools_capture(struct run_result *r, char **argv);

/* --- vectors of strings ----------------------------------------------- */
struct strv {
	char **v;            /* NULL-terminated */
	size_t n, cap;
};
void strv_add(struct strv *s, const char *x);
void strv_addf(struct strv *s, const char *fmt, ...);
void strv_cat(struct strv *s, const struct strv *t);
void strv_free(struct strv *s);

/* --- what is compared besides wall time ------------------------------- */

/* Where pb-run measured them (command mode): each observation's CPU time
 * and peak memory, paired by pb-pair and analysed as the time is, by the
 * same steps with pb-logratio --a COL --b COL, in files of their own. */
enum { USE_CPU, USE_MEMORY, NUSE };
struct use_kind {
	const char *name;    /* "CPU time", "peak memory": for a person */
	const char *key;     /* "cpu_time", "peak_memory": JSON (not "cpu": the host's) */
	const char *a, *b;   /* pb-pair's columns: a_cpu b_cpu */
	const char *lr;      /* pb-logratio's: lr_cpu (not lr: --stat lr-median has it) */
	const char *runs, *tint;   /* the study's files: runs-cpu.tsv tint-cpu.tsv */
};
extern const struct use_kind use_kinds[NUSE];

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
/* Whether DIR/raw.tsv has pb-run's CPU time and peak memory columns. */
int raw_has_use(const char *dir);
void study_free(struct study_result *s);
/* "DIR/name" in memory of its own. */
char *path_in(const char *dir, const char *name);
int file_exists(const char *path);

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
/* The analysis of a study: the steps pb-compare runs in the directory,
 * and the Makefile that runs the same commands again from raw.tsv (so
 * that make redoes it byte for byte). */
struct analysis {
	const char *stat;        /* --stat given, or NULL */
	const char *level;       /* --level given, or NULL */
	const char *adjust;      /* pb-tint --adjust (several candidates), or NULL */
	double threshold;        /* NAN: none */
	int pictures, sense;
	int use;                 /* CPU time and peak memory too (raw_has_use) */
};
enum { STEPS_MAX = 14 };
struct step {
	const char *target;      /* the file it makes, in the directory */
	const char *deps;        /* what make remakes it from */
	struct strv stage[2];    /* a pipeline of one or two tools */
	int nstage;
	int picture;             /* pb-plot writes target itself (-o) */
	int use;                 /* a step of CPU time or peak memory */
};
size_t analysis_steps(const struct analysis *a, struct step *steps);
void steps_free(struct step *steps, size_t n);
void write_makefile(FILE *f, const struct analysis *a);
/* Whether candidate c is slower than ratio with confidence. */
int cmp_slower_than(const struct cmp_result *c, double ratio);
/* The verdict in words: "faster", "slower", "no difference resolved". */
const char *cmp_words(const struct cmp_result *c);

#endif

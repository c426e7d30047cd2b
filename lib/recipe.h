/* recipe: the one description of a study's analysis from its raw stream
 * (pb(7), The study directory): each step, its tools and arguments, the
 * file it makes and those it reads. pb-compare runs it in the study
 * directory and writes it as the directory's Makefile; pb-compare --from
 * and pb-report run the steps whose file a directory lacks, in a private
 * directory of their own, so that the same directory gives the same
 * finding whichever reads it. */
#ifndef PB_RECIPE_H
#define PB_RECIPE_H

#include <stddef.h>
#include <stdio.h>

#include "strv.h"
#include "tools.h"

/* What else than wall time a command-mode study compares: each
 * observation's CPU time and peak memory (pb-run), paired by pb-pair and
 * analysed as the time is, by the same steps with pb-logratio --a COL
 * --b COL, in files of their own; and with pb-run --resources tree the
 * whole tree's, from its cgroups (USE_TREE_CPU on: NUSE_PROCESS kinds
 * are wait4's, the others the tree's). */
enum { USE_CPU, USE_MEMORY, USE_TREE_CPU, USE_TREE_MEMORY, NUSE, NUSE_PROCESS = USE_TREE_CPU };
struct use_kind {
	const char *name;    /* "CPU time", "peak memory": for a person */
	const char *key;     /* "cpu_time", "peak_memory": JSON (not "cpu": the host's) */
	const char *a, *b;   /* pb-pair's columns: a_cpu b_cpu */
	const char *lr;      /* pb-logratio's: lr_cpu (not lr: --stat lr-median has it) */
	const char *runs, *tint;   /* the study's files: runs-cpu.tsv tint-cpu.tsv */
};
extern const struct use_kind use_kinds[NUSE];

/* What the analysis depends on besides raw.tsv. */
struct recipe {
	const char *stat;        /* pb-pair --by-run --stat, or NULL (median) */
	const char *level;       /* pb-tint --level, or NULL */
	const char *adjust;      /* pb-tint --adjust (several candidates), or NULL */
	double threshold;        /* pb-tint --threshold; NAN: none */
	double tolerance;        /* pb-tint --tolerance, in percent; NAN or 0: none */
	int sense;               /* sense.tsv is there: pb-tint --sense, its picture */
	int use;                 /* CPU time and peak memory too */
	int tree;                /* the whole tree's too (pb-run --resources tree) */
	int pictures;            /* pb-plot's SVG pictures */
	int page;                /* what only pb-report's page shows too */
	char stat_held[32];      /* stat when the directory gave it */
	long pairs;              /* the head's # pairs: per run; 0: not said */
	int pilot;               /* plan.tsv is a pilot's (pb-compare): the page
	                            plans from the study's pairs too (plan-study.tsv) */
	/* a study of two arms that the t sequence stopped (pb-run --until, A
	 * the reference): what a tighter answer would cost (tighter.tsv),
	 * priced at the sequence's g and level as the head gives them ("" to
	 * take pb-plan's defaults, pb-run's too) */
	int tighter;
	char seq_g[32], seq_level[32];
	/* the runs span 3 hosts or more, each with 2 runs or more: runs.tsv
	 * has a host column, and hosts.tsv treats hosts as a level (found by
	 * recipe_make with RECIPE_ALL, which reads raw.tsv whole) */
	int hosts;
	int one_ratio;           /* two arms, A the reference */
};

enum { RECIPE_STEPS_MAX = 25 };
struct step {
	const char *target;      /* the file it makes, in the directory */
	const char *deps;        /* the files it reads, blank-separated */
	struct strv stage[2];    /* a pipeline of one or two tools */
	int nstage;
	int picture;             /* pb-plot writes target itself (-o) */
	int use;                 /* a step of CPU time or peak memory: 1 wait4's, 2 the tree's */
	int page;                /* made for pb-report's page only */
	const char *lr_of;       /* this input needs pb-logratio first when it has no lr */
};

/* The recipe of a study directory as it stands: the arms and the
 * sequential rule in raw.tsv's head (several candidates: Holm; the
 * rule's statistic, threshold and tolerance), the files there (sense.tsv; raw.tsv's
 * CPU time and memory columns). Pictures and page steps stay off. */
void recipe_of_dir(struct recipe *r, const char *dir);
/* Why the recipe makes no TARGET for this study (a sentence without its
 * full stop), or NULL when it makes it or never would. */
const char *recipe_why_not(const struct recipe *r, const char *target);
/* Whether dir's raw.tsv has pb-run's CPU time and peak memory columns;
 * the whole tree's (--resources tree). */
int recipe_raw_has_use(const char *dir);
int recipe_raw_has_tree(const char *dir);
size_t recipe_steps(const struct recipe *r, struct step *steps);
void recipe_steps_free(struct step *steps, size_t n);
/* The step as a shell runs it, in dir: "pb-logratio runs.tsv | pb-tint". */
void recipe_step_text(char *buf, size_t n, const struct step *s);
/* The Makefile that redoes the recipe from raw.tsv, byte for byte. */
void recipe_makefile(FILE *f, const struct recipe *r);

/* A step was run: r says how it went (status, its last line). */
typedef void recipe_done_fn(void *ctx, struct recipe *rc, const struct step *s,
                            const struct run_result *r);
enum { RECIPE_ALL = 1, RECIPE_STOP_AT_SIGNAL = 2 };
/* Whether raw.tsv's head in dir makes tighter.tsv (a study of two arms
 * the t sequence stopped, runs of more than one pair), and at what g and
 * level: into r->tighter, r->seq_g and r->seq_level. Only an analysis made
 * whole asks (recipe_make with RECIPE_ALL: pb-compare's study): a
 * directory of before tighter.tsv is read as it was, not completed. */
void recipe_tighter_of_dir(struct recipe *r, const char *dir);
/* Run the recipe's steps in dir (with RECIPE_ALL, recipe_tighter_of_dir
 * and whether the runs span hosts first): each one whose target dir lacks (every
 * one with RECIPE_ALL) and whose inputs it has, in order; done is told of
 * each (on a failure it may turn r->use or r->pictures off: the steps left
 * of them are skipped). Stops at a second signal (tools_signal_again),
 * and with RECIPE_STOP_AT_SIGNAL at the first: pb-compare analyses what
 * an interrupted pb-run kept, pb-report stops. */
void recipe_make(struct recipe *r, const char *dir, int flags, recipe_done_fn *done, void *ctx);

#endif

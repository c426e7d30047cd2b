/* pb-plan's two halves: bin/pb-plan.c reads the stream, measures the
 * costs and plans runs x pairs; bin/pb-plan-levels.c plans hosts x runs
 * x pairs (--levels host,run). */
#ifndef PB_PLAN_H
#define PB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "strmap.h"
#include "varcomp.h"

struct opts {
	const char *column, *run;
	double target, level;
	int64_t run_cost, pair_cost;   /* -1: measure */
	int64_t host_cost;             /* --host-cost, or -1 */
	int levels;                    /* --levels host,run */
	long max_runs;
	int sequential;
	double seq_g;
	const char *tighter;   /* pb-tint's output the target comes from, or NULL */
	char tighter_why[160]; /* why there is no target from it, or "" */
	double tighter_sd;     /* the sd of its runs' log ratios (pb-tint's sd), or NAN */
	double tighter_scale;  /* what the variance components were scaled by, or NAN */
};

struct costs {
	double run, pair;
	char run_how[128], pair_how[96];
};

/* "# pb-plan.column:" and ".level:", the lines every plan begins with. */
void plan_head_metadata(const struct opts *o);
/* The pair and run costs with their notes, and the target. */
void plan_cost_metadata(const struct opts *o, const struct costs *c);

/* Each run's host (--levels host,run): from a host column (pb-pair
 * --host) where the stream has one, else from the host= of its "# run:"
 * comment. of[k] is run k's host's index + 1, 0 while unknown. */
struct run_hosts {
	struct strmap names;
	long *of;
	size_t cap;
};

struct stream;
/* Run k (its id run) is on host name, as row s says: refused when name
 * is empty or the run was on another host. */
void host_from_column(struct run_hosts *rh, const struct stream *s, size_t k,
                      const char *run, const char *name);
/* Every run of ids from the "# run:" comments read (comment_host[i] the
 * host= of comment_runs' i-th run, or NULL): refused when a run has none. */
void hosts_from_comments(struct run_hosts *rh, const struct strmap *ids,
                         const struct strmap *comment_runs, char *const *comment_host,
                         const char *name);

/* The components of the k runs (each with its host's index among hosts),
 * refused with one line when they cannot be had: before any output. */
void levels_estimate(const struct vc_run *r, size_t k, const struct strmap *hosts,
                     struct vc_nested *v);
/* What --levels host,run writes after out_begin: its metadata, the
 * header and the rows. */
void levels_print(const struct opts *o, const struct vc_nested *v, const struct costs *c);

#endif

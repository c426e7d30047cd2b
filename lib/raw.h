/* raw: pb-run's raw stream (pb(7), Raw stream) as pb-pair reads it, one
 * observation a row: the columns found once, each row's fields checked
 * (file:line and exit 1 for one that is not as pb-run writes it). */
#ifndef PB_RAW_H
#define PB_RAW_H

#include <stddef.h>
#include <stdint.h>

struct stream;

/* pb-run's rusage columns (command mode): user_ns sys_ns maxrss_kib
 * minflt majflt nvcsw nivcsw, and with --resources tree its cgroups'
 * tree_maxrss_kib tree_cpu_ns tree_read_bytes tree_write_bytes. cpu is
 * not read but made, user + sys: the scheduler's exact total, where the
 * split between the two is sampled at clock ticks (a short process can
 * show 0 in either). In this order pb-pair writes them (a_user b_user
 * ... a_cpu b_cpu a_minflt b_minflt ... a_tree_maxrss b_tree_maxrss
 * ...): cpu before the counts, where it was before there were any. */
enum {
	USE_USER, USE_SYS, USE_MAXRSS, USE_CPU, USE_MINFLT, USE_MAJFLT, USE_NVCSW, USE_NIVCSW,
	USE_TREE_MAXRSS, USE_TREE_CPU, USE_TREE_READ, USE_TREE_WRITE,
	NUSE
};

/* Column positions of the raw stream, and the extra ones passed through. */
struct raw_cols {
	size_t run, pair, phase, arm, pos, delay, ns, status;
	long spin;      /* spin_ns, the realized delay; -1 in older raw streams */
	long use[NUSE]; /* user_ns sys_ns maxrss_kib, -1 when absent; cpu: that of
	                 * user_ns when both user_ns and sys_ns are there */
	int nuse;       /* how many of them the stream has */
	long cpu;       /* cpu, the CPU a duet pinned the arm to; -1 when absent */
	int duet;       /* the head's order is duet (the caller sets it): every
	                 * row at pos 0, as the arms of a pair ran together */
	size_t *extra;
	size_t nextra;
};

/* One observation: a row of the raw stream. */
struct raw_obs {
	int64_t run, pair, ns, delay, status, spin;
	int64_t use[NUSE];
	int64_t cpu;    /* -1 without a cpu column */
	int arm, pos, file;   /* pos 0: together (a duet) */
	long line;
	char *extra;    /* the reference's extra fields, TAB-joined */
};

/* The columns of s, whose header is read; a missing one is an error.
 * c->extra is freed by the caller; c->duet is 0 until the caller sets it. */
void raw_cols_find(struct raw_cols *c, const struct stream *s);
/* The current row of s, of a study of arms arms; h->extra is NULL. pos
 * is 0 exactly when c->duet: another pos in a duet, or 0 outside one,
 * ends the program. */
void raw_obs_read(struct raw_obs *h, const struct stream *s, const struct raw_cols *c, int arms);
/* Whether the current row is measured: 1 in phase measure, 0 in warmup;
 * another phase ends the program. */
int raw_measured(const struct stream *s, const struct raw_cols *c);
/* The row's extra fields, TAB-joined, in memory of their own. */
char *raw_extra_join(const struct stream *s, const struct raw_cols *c);

#endif

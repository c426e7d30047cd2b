/* quantity: what a paired column measures, for the words of pb-logratio's
 * declaration and pb-tint's finding. Wall time (a, b, and any column not
 * named below) keeps the words pb has always written; pb-run's rusage as
 * pb-pair pairs it (a_user b_user, a_sys b_sys: CPU time in ns; a_maxrss
 * b_maxrss: peak memory in KiB; a_cpu b_cpu, their sum) is named with its
 * unit. */
#ifndef PB_QUANTITY_H
#define PB_QUANTITY_H

struct quantity {
	const char *noun;   /* "time", "peak memory", "CPU time (user)" */
	const char *unit;   /* "ns", "KiB" */
	int wall;           /* the wall time of a and b: the words of old */
};

/* The quantity of a paired column: a_maxrss, b_maxrss and maxrss_kib are
 * peak memory; a_user, b_user, user_ns CPU time (user); likewise sys;
 * a_cpu, b_cpu CPU time. */
const struct quantity *quantity_of_column(const char *col);
/* The quantity of a log ratio of columns "X Y" (pb-logratio.column's
 * words after the name): that of X. */
const struct quantity *quantity_of_log_ratio(const char *cols);

#endif

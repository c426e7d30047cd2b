/* hostrep: the rows and the finding of pb-tint --unit host (pb-tint(1)):
 * a by-run stream's runs grouped by its host column, each host's t
 * interval, and the hosts' random-effects summary (lib/hosts.h), written
 * as one table: a row per host, then the row of the hosts. */
#ifndef PB_HOSTREP_H
#define PB_HOSTREP_H

#include <stddef.h>

#include "hosts.h"
#include "interval.h"
#include "strmap.h"

struct stream;

/* The runs of each host, in the order hosts first appear. */
struct host_runs {
	struct strmap names;
	double **x;
	size_t *n, *cap, ncap;
};

/* A stream without a host column, or of pairs, is refused. */
void host_stream_check(const struct stream *s);
/* The rest of s's rows, the value column col by the host column; a
 * stream without one, of pairs, or with a run of no host is refused. */
void host_runs_read(struct host_runs *h, struct stream *s, size_t col);
void host_runs_free(struct host_runs *h);
/* Each host's interval at the level, and the hosts' means, squared
 * standard errors and runs into y, v and n; one host, a host of one run, or one
 * whose runs are all equal (a standard error of 0 would weigh it
 * infinitely) is refused, naming the input name. */
struct host_mean *host_means(const struct host_runs *h, double level, double *y,
                             double *v, double *n, const char *name);
/* "# pb-tint.column:", .level, .method, .unit and its note. */
void host_meta(const char *column, double level);
/* The header, a row per host (z: its standardized residual), and the
 * row of the hosts: all, the t interval over their means, and re. */
void host_rows(const struct host_runs *h, const struct host_mean *hm, const double *z,
               const struct interval *all, const struct hosts_re *re,
               const struct interval_method *m);
/* "# finding: ...": the average host, how much hosts differ, and what
 * a new host like these would show; noun names the quantity ("time"). */
void host_finding(const struct hosts_re *re, const struct interval_method *m,
                  const char *noun);

#endif

#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "err.h"
#include "human.h"
#include "num.h"
#include "out.h"
#include "runstat.h"
#include "until.h"

void until_keep_pair(struct until_runs *q, int64_t a_ns, int64_t b_ns)
{
	if (q->n == q->cap) {
		size_t cap = q->cap;
		xgrow(&q->a, &q->cap, q->n + 1, sizeof *q->a);
		xgrow(&q->b, &cap, q->n + 1, sizeof *q->b);
	}
	q->a[q->n] = (double)a_ns;
	q->b[q->n++] = (double)b_ns;
}

int until_after_run(struct until_runs *q, const struct seq_stop *stop,
                    const struct run_stat *st, long run)
{
	char r[NUM_BUFSZ], lo[NUM_BUFSZ], hi[NUM_BUFSZ];
	double lr;

	if (q->n == 0)
		return -1;
	lr = run_stat_log_ratio(st, q->a, q->b, q->n);
	xgrow(&q->runs_lr, &q->runs_cap, (size_t)q->w.n + 1, sizeof *q->runs_lr);
	q->runs_lr[(size_t)q->w.n] = lr;   /* the median sequence sorts them: no matter */
	welford_add(&q->w, lr);
	q->n = 0;
	seq_look(stop, &q->w, q->runs_lr, &q->look);
	num_format(r, q->look.ratio);
	if (!q->look.bounded) {
		out_meta("sequential", "run %ld n=%.0f ratio=%s unbounded", run, q->look.n, r);
		snprintf(q->shown, sizeof q->shown, "ratio %.4g, unbounded", q->look.ratio);
	} else {
		num_format(lo, q->look.ratio_lo);
		num_format(hi, q->look.ratio_hi);
		out_meta("sequential", "run %ld n=%.0f ratio=%s lo=%s hi=%s", run, q->look.n, r,
		         lo, hi);
		snprintf(q->shown, sizeof q->shown, "ratio %.4g [%.4g, %.4g]", q->look.ratio,
		         q->look.ratio_lo, q->look.ratio_hi);
	}
	return q->look.answered;
}

void until_stopped(const struct until_runs *q, const struct seq_stop *stop, long runs,
                   long run, int answered, const char *timed_out)
{
	if (timed_out)
		out_meta("sequential", "stop after run %ld: %s, without an answer (--until %s)", run,
		         timed_out, seq_rule_words(stop));
	else if (answered)
		out_meta("sequential", "stop after run %ld: %s (--until %s)", run,
		         q->look.why, seq_rule_words(stop));
	else
		out_meta("sequential", "stop after run %ld: --runs %ld reached without an answer "
		         "(--until %s)", run, runs, seq_rule_words(stop));
}

void until_free(struct until_runs *q)
{
	free(q->a);
	free(q->b);
	free(q->runs_lr);
}

int until_past_max_time(int64_t max_ns, int64_t start, int64_t runs_start, long done,
                        char *why, size_t n)
{
	int64_t now = clock_ns();
	double pace = (double)(now - runs_start) / (double)done;
	char lim[SIG_BUFSZ], run[SIG_BUFSZ];

	if (!max_ns || (double)(now - start) + pace <= (double)max_ns)
		return 0;
	snprintf(why, n, "the next run would end past --max-time %s (runs take %s)",
	         sig4_ns(lim, (double)max_ns), sig4_ns(run, pace));
	return 1;
}

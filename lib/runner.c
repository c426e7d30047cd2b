#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "err.h"
#include "keys.h"
#include "machine.h"
#include "num.h"
#include "out.h"
#include "rng.h"
#include "runner.h"
#include "study.h"
#include "sysinfo.h"

static const char arm_letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* One observation, as its row of the raw stream holds it. */
struct half {
	int64_t ns, status;
	int arm, pos;
	int64_t delay;
	int64_t spin;       /* how long the delay's busy-wait ran inside the window */
	struct proc_usage use;
	struct cgroup_use tree;
	int cpu;            /* --duet: the CPU it ran on */
	int64_t start;      /* --duet: from the pair's release to its t0 */
};

/* Where wait4 is: the reaped process's, as the kernel keeps them. */
int runner_has_usage(const struct config *c)
{
	return PROC_USAGE && !c->worker && !c->pg;
}

/* "# maxrss_floor_kib:" again near the end (the line before the last,
 * which says why the study ended), however it ends: pb-run's written
 * pages grew since the head (its buffers), and a forked child starts
 * from them. */
static void floor_at_end(const struct config *c)
{
	if (runner_has_usage(c))
		out_meta("maxrss_floor_kib", "%lld", (long long)proc_floor_kib());
}

static const char *describe(const struct where *w)
{
	static char buf[128];

	if (w->arm < 0)
		snprintf(buf, sizeof buf, "run %ld (%s)", w->run, w->phase);
	else
		snprintf(buf, sizeof buf, "run %ld pair %ld (%s) arm %c", w->run, w->pair,
		         w->phase, 'A' + w->arm);
	return buf;
}

/* "left ~m:ss" at the pace so far; a sequential study has no such end:
 * it shows its interval instead. */
static const char *left_words(double left)
{
	static char buf[32];

	snprintf(buf, sizeof buf, "left ~%ld:%02ld ", (long)left / 60, (long)left % 60);
	return buf;
}

/* One more observation done: the meter, when due, with the time left
 * at the pace so far. */
static void show_progress(struct runner *st, long run, long pair, const char *phase)
{
	const struct config *c = st->c;
	int64_t now, el;
	double left;

	st->observed++;
	if (!progress_due(&st->prog, &now))
		return;
	el = (now - st->prog.start) / 1000000000;
	left = (double)(now - st->prog.start) / 1e9 * (double)(st->observations - st->observed) /
	       (double)st->observed;
	progress_show(&st->prog, "pb-run: run %ld/%ld  %s pair %ld/%ld  elapsed %lld:%02lld  "
	              "%s%s ", run - c->first_run + 1, c->runs, phase, pair,
	              strcmp(phase, "warmup") ? c->pairs : c->warmup,
	              (long long)(el / 60), (long long)(el % 60),
	              c->until.rule != SEQ_NONE ? "" : left_words(left),
	              c->until.rule != SEQ_NONE ? st->seq.shown : "");
}

noreturn void runner_stop(struct runner *st, const struct where *w, const char *msg)
{
	progress_end(&st->prog);
	floor_at_end(st->c);
	out_meta("failed", "%s: %s", describe(w), msg);
	st->ex->end_run(st->ex, st->c);
	flush_stdout_or_die();
	die("%s: %s", describe(w), msg);
}

noreturn void runner_interrupted(struct runner *st, const struct where *w)
{
	const char *sig = proc_interrupted == SIGINT ? "SIGINT"
	                : proc_interrupted == SIGHUP ? "SIGHUP" : "SIGTERM";
	int code = 128 + (int)proc_interrupted;

	st->ex->end_run(st->ex, st->c);
	progress_end(&st->prog);
	floor_at_end(st->c);
	out_meta("interrupted", "%s in %s; %ld pairs written", sig, describe(w),
	         st->pairs_written);
	flush_stdout_or_die();
	fprintf(stderr, "pb-run: interrupted by %s in %s\n", sig, describe(w));
	exit(code);
}

static void write_row(const struct config *c, long run, long pair, const char *phase,
                      const struct half *h)
{
	out_i64(run);
	out_i64(pair);
	out_field(phase);
	out_fieldn(arm_letters + h->arm, 1);
	out_i64(h->pos);
	out_i64(h->delay);
	out_i64(h->ns);
	out_i64(h->status);
	out_i64(h->spin);
	if (runner_has_usage(c)) {
		out_i64(h->use.user_ns);
		out_i64(h->use.sys_ns);
		out_i64(h->use.maxrss_kib);
		out_i64(h->use.minflt);
		out_i64(h->use.majflt);
		out_i64(h->use.nvcsw);
		out_i64(h->use.nivcsw);
	}
	if (c->tree) {
		out_i64(h->tree.maxrss_kib);
		out_i64(h->tree.cpu_ns);
		out_i64(h->tree.read_bytes);
		out_i64(h->tree.write_bytes);
	}
	if (c->duet) {
		out_i64(h->cpu);
		out_i64(h->start);
	}
	out_end();
}

/* Flush what is written. Stdout gone or full (EPIPE, ENOSPC) ends the
 * study: the worker and what it started are stopped before the exit. */
static void flush_or_stop(struct runner *st)
{
	pb_stdout_sync();
	if (fflush(stdout) == EOF || ferror(stdout)) {
		int saved = errno;

		progress_end(&st->prog);
		st->ex->end_run(st->ex, st->c);
		errno = saved;   /* for flush_stdout_or_die's message */
		flush_stdout_or_die();
	}
}

/* A measured pair as pb-pair keeps it: only when both halves succeeded. */
static void seq_keep_pair(struct until_runs *q, const struct half *h)
{
	const struct half *a = h[0].arm == 0 ? &h[0] : &h[1], *b = h[0].arm == 0 ? &h[1] : &h[0];

	if (!a->status && !b->status)
		until_keep_pair(q, a->ns, b->ns);
}

/* After a run, with --until: 1 when the rule is answered. */
static int seq_after_run(struct runner *st, long run)
{
	int answered = until_after_run(&st->seq, &st->c->until, &st->c->until_stat, run);

	if (answered < 0)
		return 0;
	flush_or_stop(st);
	return answered;
}

/* A pair's k rows, place 1 first. */
static void write_pair(struct runner *st, long run, long pair, const char *phase,
                       const struct half *h, int k)
{
	int i;

	for (i = 0; i < k; i++)
		write_row(st->c, run, pair, phase, &h[i]);
	flush_or_stop(st);
	st->pairs_written++;
	if (st->c->until.rule != SEQ_NONE && strcmp(phase, "measure") == 0)
		seq_keep_pair(&st->seq, h);   /* two arms: pb-run refuses --until with more */
}

/* After the pair (if it completed) is written: why the run stops here. */
static void run_ended(struct runner *st)
{
	out_meta("run_ended", "%s; the rest of the run is not measured", st->ended);
	flush_or_stop(st);
}

/* The part of a spin to deadline left for after the next slice: at most
 * 10 ms are spun between two looks at proc_interrupted. */
static int64_t end_slice(int64_t deadline)
{
	int64_t left = deadline - clock_ns();

	return left > 10000000 ? left - 10000000 : 0;
}

void runner_delay(const struct config *c, int arm, struct obs *o, int64_t *delay,
                  int64_t *spin)
{
	*delay = *spin = 0;
	if (c->delay_ns && o->status == 0) {
		/* the spin cannot end before its deadline, and ends after it by
		 * a clock read, or by much more when the core is taken away: the
		 * realized delay is what the window really held */
		int64_t end, deadline = o->t1 + c->delay_ns;

		/* in slices, so that an interrupt ends a long delay (with
		 * --duet, the timer's, passed on by pb-run): the observation
		 * is then not written */
		do
			end = clock_spin_until(deadline - end_slice(deadline));
		while (end < deadline && !proc_interrupted);
		if (arm == c->delay_arm) {
			*spin = end - o->t1;
			o->t1 = end;
			*delay = c->delay_ns;
		}
	}
}

/* Before an observation: the --prepare hook, and an interrupt seen. */
static void before_observe(struct runner *st, const struct where *w)
{
	if (st->c->prepare)
		st->hook(st, "prepare", st->c->prepare, w);
	if (proc_interrupted)
		runner_interrupted(st, w);
}

/* After its work (and delay): the run's last answer judged, the half
 * filled, the meter; a failure stops the study or ends the run.
 * Returns 0 to go on, -1 when the run must stop (st->ended says why). */
static int after_observe(struct runner *st, const struct where *w, int pos, int last,
                         struct obs *o, struct half *h)
{
	const struct config *c = st->c;

	/* after the delay's spin, which must not hold the run's end */
	if (last && st->ex->last_answer && !o->fatal && o->status != ST_INTERRUPTED)
		st->ex->last_answer(st->ex, c, w->arm, o);
	if (o->status == ST_INTERRUPTED || proc_interrupted)
		runner_interrupted(st, w);
	h->ns = o->t1 - o->t0 > 0 ? o->t1 - o->t0 : 1;
	h->status = o->status;
	h->use = o->use;
	h->tree = o->tree;
	h->arm = w->arm;
	h->pos = pos;
	show_progress(st, w->run, w->pair, w->phase);
	if (o->status == 0)
		return 0;
	if (!c->ignore_failure || o->stop)
		runner_stop(st, w, o->msg);
	if (o->fatal) {
		snprintf(st->ended, sizeof st->ended, "%s: %s", describe(w), o->msg);
		return -1;
	}
	return 0;
}

/* Time one observation: the work, then the busy-wait delay, both inside
 * the window. The other arm waits as long outside its window, so that
 * both arms leave the machine in the same state for the next
 * observation (a delay that only one arm pays would also change what
 * follows it). Returns 0 to go on, -1 when the run must stop (st->ended
 * says why). */
static int observe(struct runner *st, long run, long pair, const char *phase, int arm,
                   int pos, int last, struct half *h)
{
	struct where w = { run, pair, phase, arm };
	struct obs o;

	before_observe(st, &w);
	memset(&o, 0, sizeof o);
	st->ex->work(st->ex, st->c, arm, run, pair, &o);
	runner_delay(st->c, arm, &o, &h->delay, &h->spin);
	return after_observe(st, &w, pos, last, &o, h);
}

/* --duet: a pair's two arms at once, A on one CPU and B on the other,
 * which drawn from the run's generator; both rows place 0. */
static int observe_duet(struct runner *st, struct rng *r, long run, long pair,
                        const char *phase, int last, struct half *h)
{
	struct where w[2] = { { run, pair, phase, 0 }, { run, pair, phase, 1 } };
	struct obs o[2];
	int64_t delay[2], spin[2], start[2];
	int coin = (int)(rng_next(r) >> 63), cpu[2], arm, first, i, ended = 0;

	cpu[0] = st->c->duet_cpu[coin];
	cpu[1] = st->c->duet_cpu[!coin];
	before_observe(st, &w[0]);
	before_observe(st, &w[1]);
	first = st->duet(st->ex, st->c, run, pair, cpu, o, delay, spin, start);
	for (i = 0; i < 2; i++) {   /* the failure that stopped the other arm first */
		arm = i ? !first : first;
		h[arm].delay = delay[arm];
		h[arm].spin = spin[arm];
		h[arm].cpu = cpu[arm];
		h[arm].start = start[arm];
		ended |= after_observe(st, &w[arm], 0, last, &o[arm], &h[arm]) < 0;
	}
	return ended ? -1 : 0;
}

/* --duet: a phase's n pairs, each written once both are observed (also
 * when one of them ended the run); -1 when the run ended. */
static int duet_phase(struct runner *st, struct rng *r, long run, const char *name, long n,
                      int closes, struct half *h)
{
	long pair;
	int ended = 0;

	for (pair = 1; !ended && pair <= n; pair++) {
		ended = observe_duet(st, r, run, pair, name, closes && pair == n, h) < 0;
		write_pair(st, run, pair, name, h, 2);
	}
	return ended ? -1 : 0;
}

/* One phase of n pairs in the study's order, the first of them pair
 * "first" of the run (warm-up pairs come first); -1 when the run ended
 * early, said after its last pair. A pair (a block of k observations) is
 * written when all its arms are observed; not at all when one before
 * its last ended the run. The measured phase is the run's last: its
 * last observation is also judged by what follows it (last_answer). */
static int phase(struct runner *st, struct rng *r, long run, const char *name, long n,
                 long first)
{
	int k = st->c->arms, arm, pos, ended = 0, closes = strcmp(name, "measure") == 0;
	long open = order_open_blocks(st->c->order, n), pair, left = n * k;
	struct half *held = xmalloc((size_t)open * (size_t)k * sizeof *held), *block;
	struct order_walk w;

	if (st->c->duet)
		ended = duet_phase(st, r, run, name, n, closes, held) < 0;
	else
		order_walk_begin(&w, st->c->order, r, first, n, k);
	while (!st->c->duet && !ended && order_walk_next(&w, &pair, &arm, &pos)) {
		block = &held[(size_t)(pair % open) * (size_t)k];
		ended = observe(st, run, pair + 1, name, arm, pos, closes && --left == 0,
		                &block[pos - 1]) < 0;
		if (pos == k)
			write_pair(st, run, pair + 1, name, block, k);
	}
	free(held);
	if (ended)
		run_ended(st);
	return ended ? -1 : 0;
}

/* "# run_end: R end=STAMP load=L psi=P psi_run=Q": the machine at the
 * run's end, and the CPU pressure over the run. */
static void run_end(struct runner *st, long run, const struct machine_now *begin)
{
	struct machine_now end;
	char stamp[32], words[96], q[NUM_BUFSZ];
	double psi_run;

	clock_utc_stamp(stamp);
	machine_now_read(&end);
	machine_now_words(&end, words, sizeof words);
	psi_run = machine_psi_between(begin, &end);
	num_format(q, psi_run);
	out_meta(KEY_RUN_END, "%ld end=%s%s%s%s", run, stamp, words,
	         psi_run >= 0 ? " " RUN_END_PSI "=" : "", psi_run >= 0 ? q : "");
	flush_or_stop(st);
}

static void one_run(struct runner *st, long run)
{
	const struct config *c = st->c;
	struct where setup = { run, 0, "setup", -1 }, cleanup = { run, 0, "cleanup", -1 };
	struct rng r;
	char stamp[32], msg[512], host[256], words[96];
	struct machine_now begin;

	rng_seed(&r, rng_derive(c->seed, (uint64_t)run));
	if (c->setup)
		st->hook(st, "setup", c->setup, &setup);
	if (proc_interrupted)
		runner_interrupted(st, &setup);
	clock_utc_stamp(stamp);
	machine_now_read(&begin);
	if (st->ex->begin_run(st->ex, c, run, msg, sizeof msg) < 0) {
		if (proc_interrupted)   /* a connection or a worker's start cut short */
			runner_interrupted(st, &setup);
		runner_stop(st, &setup, msg);
	}
	sysinfo_host(host, sizeof host);
	machine_now_words(&begin, words, sizeof words);
	run_comment_out(run, stamp, (long)st->ex->pid(st->ex), c->study, words, host);
	if (phase(st, &r, run, "warmup", c->warmup, 0) == 0)
		phase(st, &r, run, "measure", c->pairs, c->warmup);
	st->ex->end_run(st->ex, c);
	run_end(st, run, &begin);
	if (c->cleanup)
		st->hook(st, "cleanup", c->cleanup, &cleanup);
	if (proc_interrupted)
		runner_interrupted(st, &cleanup);
}

void runner_study(struct runner *st, int64_t start)
{
	const struct config *c = st->c;
	int64_t runs_start = clock_ns();
	char timed_out[160];
	int answered = 0, past = 0;
	long run;

	for (run = c->first_run; run < c->first_run + c->runs; run++) {
		if (run > c->first_run && until_past_max_time(c->max_time_ns, start, runs_start,
		                                              run - c->first_run, timed_out,
		                                              sizeof timed_out)) {
			past = 1;
			break;
		}
		one_run(st, run);
		if (c->until.rule != SEQ_NONE && (answered = seq_after_run(st, run)))
			break;
	}
	if (answered)
		run++;   /* the loop was left inside run, not after it */
	floor_at_end(c);   /* before the last line, which says why it stopped */
	if (c->until.rule != SEQ_NONE)
		until_stopped(&st->seq, &c->until, c->runs, run - 1, answered, past ? timed_out : NULL);
	else if (past)
		out_meta("max_time", "stop after run %ld: %s", run - 1, timed_out);
	until_free(&st->seq);
	progress_end(&st->prog);
}

/* pb-plan: how much of the noise is between runs and how much within, and
 * the cheapest number of runs and pairs per run that reaches a target
 * precision (Kalibera & Jones, "Rigorous benchmarking in reasonable time",
 * ISMM 2013). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "err.h"
#include "group.h"
#include "interval.h"
#include "keys.h"
#include "out.h"
#include "strmap.h"
#include "num.h"
#include "opt.h"
#include "pb-plan.h"
#include "runopt.h"
#include "seq.h"
#include "stats.h"
#include "stream.h"
#include "study.h"

static const char usage[] =
	"usage: pb-plan [options] [FILE...]\n"
	"Variance between runs and within runs (one-way random-effects ANOVA)\n"
	"and the runs x pairs that reach a target half-width at least cost;\n"
	"with --levels host,run between hosts too (nested ANOVA), and hosts x runs\n"
	"x pairs.\n";

static const char usage_tail[] =
	"Output: plan sigma2_between sigma2_within runs pairs halfwidth total_s;\n"
	"with an arm column (a study of more than two arms) one plan per candidate,\n"
	"arm first, a pair's cost that of all its arms. With --levels host,run:\n"
	"plan sigma2_host sigma2_run sigma2_pair hosts runs pairs halfwidth total_s,\n"
	"runs a host and pairs a run.\n";

static const struct pb_opt options[] = {
	{ "column", 'c', 0, "COL", NULL, "the value column (default lr)", NULL, 0 },
	{ "run", 'r', 0, "COL", NULL, "the run column (default run)", NULL, 0 },
	{ "target", 't', 0, "H", NULL, "half-width wanted, in the column's unit", NULL, 0 },
	{ "level", 'l', 0, "L", NULL, "confidence level (default 0.95)", NULL, 0 },
	{ "run-cost", 'R', 0, "DUR", NULL,
	  "cost of one more run beyond its pairs (default:\n"
	  "measured from the '# run:' start stamps, else the\n"
	  "warm-up pairs' cost)", NULL, 0 },
	{ "pair-cost", 'P', 0, "DUR", NULL, "cost of one pair (default: mean of a + b)", NULL, 0 },
	{ "max-runs", 'm', 0, "N", NULL, "largest design considered (default 10000);\n"
	  "with --levels host,run the most hosts, and runs a host", NULL, 0 },
	{ "sequential", 'S', 0, NULL, NULL,
	  "price the anytime-valid confidence sequence that\n"
	  "pb-run --until reads, not a fixed design", NULL, 0 },
	{ "seq-g", 'G', 0, "G", NULL, "the sequence's prior variance g (default 25)", NULL, 0 },
	{ "sequence", 'K', 0, "K", "t median", "t only: a median sequence's width is not priced", NULL, 0 },
	{ "levels", 'L', 0, "LEVELS", "run host,run",
	  "host,run: variance between hosts, runs and pairs\n"
	  "(from each run's host), and hosts x runs x pairs", NULL, 0 },
	{ "host-cost", 'H', 0, "DUR", NULL, "cost of a new host's setup (with --levels host,run)",
	  NULL, 0 },
	{ "tighter", 'T', 0, "FILE", NULL,
	  "the target: half the bound on the difference that\n"
	  "pb-tint's interval in FILE proves", NULL, 0 },
	{ NULL, 0, 0, NULL, NULL, NULL, NULL, 0 },
};
static const struct pb_cmd cmd = { usage, options, 21, usage_tail, 0 };

struct run_acc {
	struct welford w;
	double min, max;     /* of the column: do its values differ? */
};

struct anova {
	size_t k;            /* runs */
	double N, n0, mean_pairs;
	double msb, msw, s2b, s2w;
	double ssb, ssw;     /* kept for the check that they did not underflow */
};

static void run_add(struct run_acc *r, double x)
{
	if (r->w.n == 0 || x < r->min)
		r->min = x;
	if (r->w.n == 0 || x > r->max)
		r->max = x;
	welford_add(&r->w, x);
}

/* One-way random-effects ANOVA by the method of moments, unbalanced runs
 * handled with n0 = (N - sum n_i^2 / N) / (k - 1) (Searle, Casella &
 * McCulloch, Variance Components, 3.6). A negative between-run estimate is
 * set to 0. */
static struct anova anova(const struct run_acc *r, size_t k)
{
	struct anova a = { k, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	double grand = 0, ssb = 0, ssw = 0, sumsq = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		a.N += r[i].w.n;
		grand += r[i].w.n * welford_mean(&r[i].w);
		sumsq += r[i].w.n * r[i].w.n;
	}
	grand /= a.N;
	for (i = 0; i < k; i++) {
		double d = welford_mean(&r[i].w) - grand;
		ssb += r[i].w.n * d * d;
		ssw += r[i].w.m2;
	}
	a.ssb = ssb;
	a.ssw = ssw;
	a.msb = ssb / (double)(k - 1);
	a.msw = ssw / (a.N - (double)k);
	a.n0 = (a.N - sumsq / a.N) / (double)(k - 1);
	a.s2w = a.msw;
	a.s2b = (a.msb - a.msw) / a.n0;
	if (a.s2b < 0)
		a.s2b = 0;
	a.mean_pairs = a.N / (double)k;
	return a;
}

/* The multiplier of a design of r runs: the t quantile, or the
 * sequence's tstar (lib/seq.c, the one pb-run and pb-tint use), NAN while
 * the sequence is unbounded at r; the one costly step, once per r. */
static double t_of(const struct opts *o, double r)
{
	double t;

	if (!o->sequential)
		return stat_qt(1 - (1 - o->level) / 2, r - 1);
	return seq_tstar(r, o->seq_g, 1 - o->level, &t) == 0 ? t : NAN;
}

/* Half-width of the mean of run means for r runs of p pairs. */
static double halfwidth(const struct anova *a, double t, double r, double p)
{
	return t * sqrt(a->s2b / r + a->s2w / (r * p));
}

/* Fewest pairs per run that reach h with r runs, or 0 when no p does. */
static double pairs_needed(const struct anova *a, double t, double r, double h)
{
	double room = r * (h / t) * (h / t) - a->s2b, p;

	if (room <= 0)
		return 0;
	if (a->s2w == 0)
		return 1;
	p = a->s2w / room * (1 - 1e-12);
	return isfinite(p) ? fmax(1, ceil(p)) : 0;   /* more pairs than a double holds */
}

struct design {
	double runs, pairs, hw, cost_ns;
};

/* r runs of p pairs; t is t_of(r). */
static struct design design_at(const struct anova *a, double t, double r, double p,
                               double run_cost, double pair_cost)
{
	struct design d = { r, p, halfwidth(a, t, r, p), r * (run_cost + p * pair_cost) };

	return d;
}

static struct design design_for(const struct anova *a, const struct opts *o, double r,
                                double p, double run_cost, double pair_cost)
{
	return design_at(a, t_of(o, r), r, p, run_cost, pair_cost);
}

/* Cheapest (runs, pairs) reaching the target: for each r the fewest pairs,
 * stopping once the runs' fixed cost alone exceeds the best total. */
static int cheapest(const struct anova *a, const struct opts *o, double run_cost,
                    double pair_cost, struct design *best)
{
	long r;
	int found = 0;

	for (r = 2; r <= o->max_runs; r++) {
		double t, p;
		struct design d;

		if (found && (double)r * (run_cost + pair_cost) > best->cost_ns)
			break;
		t = t_of(o, (double)r);
		if (isnan(t))
			continue;   /* the sequence is unbounded at r runs */
		p = pairs_needed(a, t, (double)r, o->target);
		if (p == 0)
			continue;
		d = design_at(a, t, (double)r, p, run_cost, pair_cost);
		if (isinf(d.cost_ns))
			continue;   /* a cost no double holds is no plan */
		if (!found || d.cost_ns < best->cost_ns) {
			*best = d;
			found = 1;
		}
	}
	return found;
}

/* Fewest runs that reach the target with p pairs each, or 0. */
static double runs_needed(const struct anova *a, const struct opts *o, double p)
{
	long r;

	for (r = 2; r <= o->max_runs; r++)
		if (halfwidth(a, t_of(o, (double)r), (double)r, p) <= o->target)
			return (double)r;
	return 0;
}

/* A double cannot hold every variance: values near 1e308 overflow it, and
 * values that differ by less than about 1e-154 underflow it to 0, which
 * would read as "no noise". Either is refused, before any output. */
static void check_anova(const struct anova *a, const struct run_acc *r, size_t k)
{
	size_t i;
	int within = 0, between = 0;

	for (i = 0; i < k; i++) {
		within |= r[i].min != r[i].max;
		between |= welford_mean(&r[i].w) != welford_mean(&r[0].w);
	}
	if (!isfinite(a->ssb) || !isfinite(a->ssw) || !isfinite(a->s2b) || !isfinite(a->s2w))
		die("values too large: their variances overflow a double");
	if ((within && a->ssw < DBL_MIN) || (between && a->ssb < DBL_MIN))
		die("values too close together: their variances underflow a double "
		    "(rescale the column)");
}

/* A design's half-width or cost that overflows is refused, not written
 * as inf (an unknown cost, NaN, is an empty total_s). The designs that
 * reach a target are chosen among those that fit; this refuses only the
 * current one. */
static void check_design(const struct design *d)
{
	if (isinf(d->hw))   /* NAN: a sequence unbounded at these runs, written empty */
		die("values too large: the half-width of %.0f runs x %.0f pairs overflows "
		    "a double", d->runs, d->pairs);
	if (isinf(d->cost_ns))
		die("values too large: the cost of %.0f runs x %.0f pairs overflows a double",
		    d->runs, d->pairs);
}

/* A suggested design with more pairs or a cost than a double holds. */
static int fits(const struct design *d)
{
	return isfinite(d->pairs) && isfinite(d->hw) && !isinf(d->cost_ns);
}

static const char *row_arm;   /* a comparison's candidate, first in its rows */

static void print_row(const char *plan, const struct anova *a, const struct design *d)
{
	if (row_arm)
		out_field(row_arm);
	out_field(plan);
	out_num(a->s2b);
	out_num(a->s2w);
	out_num(d->runs);
	out_num(d->pairs);
	out_num_or_empty(d->hw);
	out_num_or_empty(d->cost_ns / 1e9);   /* an unknown cost (NaN) */
	out_end();
}

static const char *const level_names[] = { "run", "host,run" };

/* --levels host,run plans a fixed design of hosts, priced with the host's
 * cost: the sequence and --tighter price runs of one host. */
static void check_levels(const struct opts *o)
{
	if (!o->levels) {
		if (o->host_cost >= 0)
			die_usage("--host-cost prices a host: give --levels host,run too");
		return;
	}
	if (o->host_cost < 0)
		die_usage("--levels host,run needs --host-cost DUR, what a new host's setup costs");
	if (o->sequential || o->tighter)
		die_usage("--levels host,run plans a fixed design: not with --sequential or "
		          "--tighter");
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->column = "lr";
	o->run = "run";
	o->level = 0.95;
	o->run_cost = o->pair_cost = o->host_cost = -1;
	o->max_runs = 10000;
	while ((c = pb_getopt(argc, argv, &cmd)) != -1) {
		switch (c) {
		case 'c': o->column = optarg; break;
		case 'r': o->run = optarg; break;
		case 't':
			o->target = opt_num("target", optarg);
			if (!(o->target > 0))
				die_usage("--target must be more than 0");
			break;
		case 'l': o->level = opt_level("level", optarg); break;
		case 'R': o->run_cost = opt_dur("run-cost", optarg); break;
		case 'P':
			o->pair_cost = opt_dur("pair-cost", optarg);
			if (o->pair_cost == 0)
				die_usage("--pair-cost must be more than 0");
			break;
		case 'm': o->max_runs = opt_count("max-runs", optarg, 100000000L); break;
		case 'S': o->sequential = 1; break;
		case 'G': o->seq_g = runopt_seq_g("seq-g", optarg); break;
		case 'K':
			if (seq_kind_parse("sequence", optarg) == SEQ_KIND_MEDIAN)
				die_usage("--sequence median: its width is set by the shape of the runs, "
				          "which two variances do not give; pb-plan prices --sequence t");
			break;
		case 'T': o->tighter = optarg; break;
		case 'L': o->levels = opt_choice("levels", optarg, level_names, 2); break;
		case 'H': o->host_cost = opt_dur("host-cost", optarg); break;
		}
	}
	check_levels(o);
	if (o->seq_g && !o->sequential)
		die_usage("--seq-g is the sequence's: give --sequential too");
	if (o->tighter && o->target > 0)
		die_usage("--tighter and --target both set the target: give one");
	if (!o->seq_g)
		o->seq_g = SEQ_G_DEFAULT;
}

/* The target of --tighter: half the bound on the difference that pb-tint's
 * interval of the ratio A/B proves ("B is within 0.59% of A": 0.3%), as a
 * log ratio. Without such a bound (an unbounded sequence, a difference
 * resolved) no target, and tighter_why says why. */
static void tighter_target(struct opts *o, double *bound)
{
	static struct stream s;   /* static: reachable when a bad row ends the program */
	char *files[1];
	size_t clo, chi;
	long csd;
	double lo = NAN, hi = NAN, less, more;
	long rows = 0;

	files[0] = (char *)o->tighter;
	stream_open(&s, 1, files);
	stream_header(&s);
	clo = stream_col(&s, "ratio_lo");
	chi = stream_col(&s, "ratio_hi");
	csd = stream_col_find(&s, "sd");
	o->tighter_sd = NAN;
	while (stream_row(&s)) {
		if (++rows > 1)
			stream_die(&s, "a second interval: --tighter takes one comparison's");
		lo = *s.field[clo] ? stream_num(&s, clo) : NAN;
		hi = *s.field[chi] ? stream_num(&s, chi) : NAN;
		if (lo <= 0 || hi <= 0 || lo > hi)
			stream_die(&s, "ratio_lo and ratio_hi are ratios above 0, lo at most hi: "
			           "this is not pb-tint's output");
		if (csd >= 0 && *s.field[csd])
			o->tighter_sd = stream_num(&s, (size_t)csd);
		if (!(isnan(o->tighter_sd) || (o->tighter_sd >= 0 && isfinite(o->tighter_sd))))
			stream_die(&s, "sd is a spread of 0 or more: this is not pb-tint's output");
	}
	stream_close(&s);
	*bound = NAN;
	if (isnan(lo) || isnan(hi))
		snprintf(o->tighter_why, sizeof o->tighter_why, "the interval is unbounded");
	else if (interval_sides(lo, hi, &less, &more) < 0)
		snprintf(o->tighter_why, sizeof o->tighter_why, "the interval does not hold "
		         "1, a difference was resolved");
	else {
		*bound = fmax(less, more);
		o->target = log1p(*bound / 2);
		if (!(o->target > 0))   /* an interval of width 0: nothing tighter to tell */
			snprintf(o->tighter_why, sizeof o->tighter_why, "the interval has no width");
	}
}

/* The sequence reads each run's statistic (pb-run --stat: the median of
 * each arm by default), whose spread over runs is not the pairs' mean's
 * the ANOVA models: both components are scaled so that the study's own
 * design has the spread its runs showed (tint.tsv's sd), and the designs
 * priced keep the ANOVA's split between runs and pairs. */
static void scale_to_runs(struct anova *a, struct opts *o)
{
	double model = a->s2b + a->s2w / a->mean_pairs, k;

	if (!(o->tighter_sd > 0) || !(model > 0))
		return;
	k = o->tighter_sd * o->tighter_sd / model;
	/* a spread whose square a double does not hold cannot be planned for */
	if (!(k > 0) || !isfinite(k) || !isfinite(a->s2b * k) || !isfinite(a->s2w * k))
		die("%s: sd %g cannot scale the variance components (%g): a double does not hold "
		    "the result", o->tighter, o->tighter_sd, model);
	a->s2b *= k;
	a->s2w *= k;
	o->tighter_scale = k;
}

struct start {
	double ms;
	size_t run;
	long host;
};

/* By host, then by start: a run's gap is to the next run of its host. */
static int cmp_start(const void *a, const void *b)
{
	const struct start *s = a, *t = b;

	if (s->host != t->host)
		return (s->host > t->host) - (s->host < t->host);
	return (s->ms > t->ms) - (s->ms < t->ms);
}

/* The start stamp and host of each "# run:" comment (pb(7)), by its run
 * number as written; of a run's comments the first with a start counts,
 * and the first with a host. Kept as they pass: the reader keeps only
 * the heads, and these come among the rows. */
struct run_starts {
	struct strmap runs;
	double *ms;      /* -1: no start */
	char **host;     /* NULL: no host= */
	size_t cap, hcap;
};

static void note_run_start(void *ctx, const struct stream *s, const struct meta *m)
{
	struct run_starts *rs = ctx;
	struct run_comment rc;
	size_t before = rs->runs.n, i;
	double ms;

	(void)s;
	if (strcmp(m->key, "run") != 0 || run_comment_parse(m->value, &rc) < 0)
		return;
	ms = rc.start.len ? clock_stamp_ms(rc.start.p) : -1;
	i = strmap_intern(&rs->runs, rc.number.p, rc.number.len);
	if (rs->runs.n > before) {
		xgrow(&rs->ms, &rs->cap, i + 1, sizeof *rs->ms);
		xgrow(&rs->host, &rs->hcap, i + 1, sizeof *rs->host);
		rs->ms[i] = -1;
		rs->host[i] = NULL;
	}
	if (rs->ms[i] < 0)
		rs->ms[i] = ms < 0 ? -1 : ms;
	if (!rs->host[i] && rc.host.len)
		rs->host[i] = xstrdup(rc.host.p);
}

static void run_starts_free(struct run_starts *rs)
{
	size_t i;

	for (i = 0; i < rs->runs.n; i++)
		free(rs->host[i]);
	free(rs->host);
	free(rs->ms);
	strmap_free(&rs->runs);
}

/* A run's cost beyond its measured pairs: the gap between consecutive run
 * starts of a host less the time of the earlier run's pairs (median over
 * the gaps). host_of gives each run's host, or is NULL for one host: the
 * shards of several hosts run at once, and a gap across hosts is no
 * run's cost. Returns -1 when there is no such gap. */
static double run_cost_from_stamps(const struct run_starts *rs, const struct strmap *ids,
                                   const double *time_ns, const long *host_of)
{
	struct start *st = xmalloc((rs->runs.n + 1) * sizeof *st);
	double *over, cost = -1;
	size_t i, n = 0, k = 0;

	for (i = 0; i < rs->runs.n; i++) {
		long j = strmap_find(ids, rs->runs.key[i], rs->runs.keylen[i]);

		if (j < 0 || rs->ms[i] < 0)
			continue;
		st[n].ms = rs->ms[i];
		st[n].host = host_of ? host_of[j] : 0;
		st[n++].run = (size_t)j;
	}
	qsort(st, n, sizeof *st, cmp_start);
	over = xmalloc((n + 1) * sizeof *over);
	for (i = 0; i + 1 < n; i++)
		if (st[i].host == st[i + 1].host)
			over[k++] = (st[i + 1].ms - st[i].ms) * 1e6 - time_ns[st[i].run];
	if (k > 0 && !((cost = stat_median(over, k)) > 0))
		cost = 0;
	free(over);
	free(st);
	return cost;
}

static void find_costs(const struct opts *o, const struct study_head *head,
                       const struct run_starts *rs, const struct strmap *ids,
                       const double *time_ns, const long *host_of, double pairs,
                       double pair_time, int have_ab, struct costs *c)
{
	const char *order = study_head_str(head, "order");
	int duet = order && strcmp(order, "duet") == 0;
	double stamps;
	int64_t warm;

	if (o->pair_cost >= 0) {
		c->pair = (double)o->pair_cost;
		snprintf(c->pair_how, sizeof c->pair_how, "given");
	} else if (have_ab) {
		c->pair = pair_time / pairs;
		snprintf(c->pair_how, sizeof c->pair_how, have_ab > 1 ? "measured: mean over the "
		         "pairs of the reference's time and every candidate's" : duet ? "measured: "
		         "mean of the longer of a and b (duet: A and B at once)" : "measured: mean of a + b");
	} else if (o->target > 0) {
		die("no a and b columns to measure a pair's cost from; give --pair-cost");
	} else {
		c->pair = NAN;   /* not needed without --target; total_s left empty */
		snprintf(c->pair_how, sizeof c->pair_how, "unknown (no a and b columns)");
	}
	if (o->run_cost >= 0) {
		c->run = (double)o->run_cost;
		snprintf(c->run_how, sizeof c->run_how, "given");
	} else if (have_ab && (stamps = run_cost_from_stamps(rs, ids, time_ns, host_of)) >= 0) {
		c->run = stamps;
		snprintf(c->run_how, sizeof c->run_how, "measured: median gap between run "
		         "starts%s less the run's measured pairs", host_of ? " of a host" : "");
	} else if (study_head_int(head, "warmup", &warm) == 1 && warm >= 0 && !isnan(c->pair)) {
		c->run = (double)warm * c->pair;
		snprintf(c->run_how, sizeof c->run_how, "estimated: %lld warm-up pairs", (long long)warm);
	} else {
		c->run = 0;
		snprintf(c->run_how, sizeof c->run_how, "unknown, taken as 0; give --run-cost");
	}
}

static void print_plans(const struct anova *a, const struct opts *o, const struct costs *c)
{
	struct design cur = design_for(a, o, (double)a->k, a->mean_pairs, c->run, c->pair), best;
	double mult[] = { 0.25, 0.5, 2, 4 }, done[8];
	size_t i, ndone = 0, j;

	print_row("current", a, &cur);
	if (o->target <= 0)
		return;
	if (!cheapest(a, o, c->run, c->pair, &best)) {
		warn("no design with at most %ld runs reaches a half-width of %g", o->max_runs,
		     o->target);
		return;
	}
	print_row("best", a, &best);
	done[ndone++] = best.pairs;
	if (a->s2b > 0 && c->pair > 0) {
		double p = fmax(1, round(sqrt(c->run * a->s2w / (c->pair * a->s2b))));
		double r = runs_needed(a, o, p);
		if (r > 0) {
			struct design kj = design_for(a, o, r, p, c->run, c->pair);
			if (fits(&kj))
				print_row("kalibera_jones", a, &kj);
		}
	}
	for (i = 0; i < LEN(mult); i++) {
		double p = fmax(1, round(best.pairs * mult[i])), r;

		for (j = 0; j < ndone && done[j] != p; j++)
			;
		if (j < ndone || (r = runs_needed(a, o, p)) == 0)
			continue;
		done[ndone++] = p;
		{
			struct design d = design_for(a, o, r, p, c->run, c->pair);
			if (fits(&d))
				print_row("alternative", a, &d);
		}
	}
}

static const char *design_words(const struct opts *o)
{
	if (!o->sequential)
		return "a design of r runs x p pairs has half-width "
		       "t(r-1) * sqrt(sigma2_between/r + sigma2_within/(r p))";
	return "a design of p pairs per run has, at its r-th run, the half-width of the "
	       "t confidence sequence (pb-run --until): tstar(r, g, level) * "
	       "sqrt(sigma2_between/r + sigma2_within/(r p)), the spread taken as measured";
}

/* The sequence priced and the target --tighter chose. */
static void sequential_metadata(const struct opts *o, double bound)
{
	if (o->sequential) {
		out_meta(KEY_PLAN_SEQUENTIAL, "t");
		out_meta_num(KEY_PLAN_SEQ_G, "%s", o->seq_g);
		out_meta(KEY_PLAN_SEQUENTIAL KEY_NOTE, "runs: where the sequence's half-width, at "
		         "the spread measured, reaches the target; a study stops at a random run, "
		         "sooner when it resolves a difference");
	}
	if (!o->tighter)
		return;
	if (isnan(bound) || !(o->target > 0)) {
		out_meta(KEY_PLAN_TIGHTER, "none");
		out_meta(KEY_PLAN_TIGHTER KEY_NOTE, "%s: no target", o->tighter_why);
		return;
	}
	out_meta_num(KEY_PLAN_TIGHTER, "%s", bound);
	out_meta(KEY_PLAN_TIGHTER KEY_NOTE, "%s's interval bounds the difference by %.4g%%; "
	         "the target is half that, log1p(%.4g%%)", o->tighter, 100 * bound, 50 * bound);
	if (!isnan(o->tighter_scale)) {
		out_meta_num(KEY_PLAN_TIGHTER ".scale", "%s", o->tighter_scale);
		out_meta(KEY_PLAN_TIGHTER ".scale" KEY_NOTE, "sigma2_between and sigma2_within "
		         "scaled by it, so that the study's design has the spread of its runs' "
		         "statistic (sd %.4g in %s; the pairs' mean would have %.4g)", o->tighter_sd,
		         o->tighter, o->tighter_sd / sqrt(o->tighter_scale));
	}
}

void plan_head_metadata(const struct opts *o)
{
	out_meta("pb-plan.column", "%s; half-widths in its unit", o->column);
	out_meta_num("pb-plan.level", "%s", o->level);
}

void plan_cost_metadata(const struct opts *o, const struct costs *c)
{
	if (!isnan(c->pair))   /* unknown: no number, and the note says so */
		out_meta(KEY_PLAN_PAIR_COST, "%.0f", c->pair);
	out_meta(KEY_PLAN_PAIR_COST KEY_NOTE, "%s", c->pair_how);
	out_meta(KEY_PLAN_RUN_COST, "%.0f", c->run);
	out_meta(KEY_PLAN_RUN_COST KEY_NOTE, "%s", c->run_how);
	if (o->target > 0)
		out_meta_num(KEY_PLAN_TARGET, "%s", o->target);
}

/* What the plan rests on. Numbers as in the rows (pb(7)): the shortest
 * that read back; costs in whole ns. */
static void plan_metadata(const struct opts *o, const struct anova *a,
                          const struct costs *c, const struct strmap *arms)
{
	char n0[NUM_BUFSZ];
	size_t g;

	plan_head_metadata(o);
	if (arms) {   /* a comparison per arm, each with its own n0 */
		out_meta_begin("pb-plan.model");
		out_meta_text("x = mean + run effect (variance sigma2_between) + noise "
		              "(sigma2_within); one-way random-effects ANOVA, method of moments, "
		              "per arm, n0 = ");
		for (g = 0; g < arms->n; g++) {
			num_format(n0, a[g].n0);
			out_meta_text("%s%s (%s)", g ? ", " : "", n0, arms->key[g]);
		}
		out_meta_text("; %s", design_words(o));
		out_meta_end();
	} else {
		num_format(n0, a->n0);
		out_meta("pb-plan.model", "x = mean + run effect (variance sigma2_between) + noise "
		         "(sigma2_within); one-way random-effects ANOVA, method of moments, "
		         "n0 = %s; %s", n0, design_words(o));
	}
	plan_cost_metadata(o, c);
}

/* The runs of one comparison: the whole input, or one candidate arm. */
struct comparison {
	struct strmap ids;
	struct run_acc *r;
	size_t cap;
	double rows;
	struct anova a;
};

/* The time of a pair, for its cost: a + b, or with several comparisons
 * the reference's a once (in the first arm's rows) and every arm's b;
 * in a duet study, where A and B run at once, the longer of a and b. */
struct times {
	struct strmap ids;   /* every run */
	double *ns, total, pairs;
	size_t cap;
	int duet;
};

static void add_time(struct stream *s, struct times *t, const char *id, long ca, long cb,
                     int with_a)
{
	size_t k = strmap_intern(&t->ids, id, strlen(id));
	double b = stream_num(s, (size_t)cb), a = with_a ? stream_num(s, (size_t)ca) : 0;
	double v = t->duet ? fmax(a, b) : a + b;

	xgrow_zero(&t->ns, &t->cap, k + 1, sizeof *t->ns);
	if (!isfinite(v) || !isfinite(t->total + v))
		stream_die(s, "values too large: the sum of a + b overflows a double");
	t->ns[k] += v;
	t->total += v;
	t->pairs += with_a;
}

static void analyse(struct comparison *cm, const struct stream *s, const char *arm)
{
	const char *what = arm ? arm : s->name, *pre = arm ? "arm " : "";

	if (cm->ids.n < 2)
		die("%s%s: only 1 run; variance between runs needs at least 2", pre, what);
	if (cm->rows <= (double)cm->ids.n)
		die("%s%s: one row per run; variance within runs needs runs of 2 or more rows "
		    "(the pair stream, not --by-run)", pre, what);
	cm->a = anova(cm->r, cm->ids.n);
	check_anova(&cm->a, cm->r, cm->ids.n);
}

/* --levels host,run: the components of the runs of one comparison,
 * refused (before any output) when they cannot be had. */
static void levels_components(const struct comparison *cm, const struct run_hosts *rh,
                              struct vc_nested *v)
{
	static struct vc_run *r;   /* static: reachable when a refusal ends the program */
	size_t k;

	r = xmalloc(cm->ids.n * sizeof *r);
	for (k = 0; k < cm->ids.n; k++) {
		r[k].n = cm->r[k].w.n;
		r[k].mean = welford_mean(&cm->r[k].w);
		r[k].m2 = cm->r[k].w.m2;
		r[k].host = (size_t)rh->of[k] - 1;
	}
	levels_estimate(r, cm->ids.n, &rh->names, v);
	free(r);
	r = NULL;
}

/* The hosts of the runs as find_costs takes them: 0-based, by run. */
static long *host_index(const struct run_hosts *rh, size_t runs)
{
	long *h = xmalloc((runs + 1) * sizeof *h);
	size_t k;

	for (k = 0; k < runs; k++)
		h[k] = rh->of[k] - 1;
	return h;
}

/* What two levels write after out_begin: the metadata, the header and
 * each comparison's plans. */
static void print_two_levels(const struct opts *o, const struct comparison *cm,
                             const struct strmap *arms, int with_arms, const struct costs *c,
                             double bound)
{
	struct anova *as = xmalloc(arms->n * sizeof *as);
	size_t g;

	if (with_arms)
		out_meta("pb-plan.arm", "one plan per candidate arm against the reference; a study "
		         "of all the arms needs the largest");
	for (g = 0; g < arms->n; g++)
		as[g] = cm[g].a;
	plan_metadata(o, as, c, with_arms ? arms : NULL);
	free(as);
	sequential_metadata(o, bound);
	if (with_arms)
		out_field("arm");
	out_field("plan"), out_field("sigma2_between"), out_field("sigma2_within");
	out_field("runs"), out_field("pairs"), out_field("halfwidth"), out_field("total_s");
	out_end();
	for (g = 0; g < arms->n; g++) {
		row_arm = with_arms ? arms->key[g] : NULL;
		print_plans(&cm[g].a, o, c);
	}
}

int main(int argc, char **argv)
{
	struct opts o;
	struct stream s;
	struct strmap arms = { 0 };
	struct comparison *cm = NULL;
	struct run_starts starts = { 0 };
	struct times t = { 0 };
	struct study_head head;
	struct costs c;
	struct run_hosts hosts = { 0 };
	struct vc_nested vc;
	long *host_of = NULL;
	size_t ccap = 0, col, rcol, g;
	long ca, cb, carm, hcol;
	double bound = NAN;

	pb_init("pb-plan");
	out_init();
	parse_args(argc, argv, &o);
	if (o.tighter)
		tighter_target(&o, &bound);
	stream_open(&s, argc - optind, argv + optind);
	stream_on_meta(&s, note_run_start, &starts);
	stream_header(&s);
	col = stream_col(&s, o.column);
	rcol = stream_col(&s, o.run);
	ca = stream_col_find(&s, "a");
	cb = stream_col_find(&s, "b");
	carm = group_has_arms(&s) ? stream_col_find(&s, "arm") : -1;
	hcol = o.levels ? stream_col_find(&s, "host") : -1;
	t.duet = stream_head_meta(&s, "order", 0) && !strcmp(stream_head_meta(&s, "order", 0), "duet");
	while (stream_row(&s)) {
		const char *id = s.field[rcol], *arm = carm >= 0 ? s.field[carm] : "";
		size_t k;

		if (carm >= 0)   /* the arm is the first field of each row written */
			group_check_first(&s, (size_t)carm, "rename the arm");
		g = strmap_intern(&arms, arm, strlen(arm));
		xgrow_zero(&cm, &ccap, g + 1, sizeof *cm);
		k = strmap_intern(&cm[g].ids, id, strlen(id));
		xgrow_zero(&cm[g].r, &cm[g].cap, k + 1, sizeof *cm[g].r);
		run_add(&cm[g].r[k], stream_num(&s, col));
		cm[g].rows++;
		if (ca >= 0 && cb >= 0)
			add_time(&s, &t, id, ca, cb, g == 0);
		if (hcol >= 0)
			host_from_column(&hosts, &s, k, id, s.field[hcol]);
	}
	if (o.levels) {
		if (carm >= 0)
			die("--levels host,run plans one comparison; this stream has an arm column "
			    "(select one candidate's rows first)");
		if (hcol < 0)
			hosts_from_comments(&hosts, &cm[0].ids, &starts.runs, starts.host, s.name);
		levels_components(&cm[0], &hosts, &vc);
		host_of = host_index(&hosts, cm[0].ids.n);
	} else {
		for (g = 0; g < arms.n; g++)
			analyse(&cm[g], &s, carm >= 0 ? arms.key[g] : NULL);
	}
	o.tighter_scale = NAN;
	if (o.tighter && arms.n == 1)
		scale_to_runs(&cm[0].a, &o);
	study_head_read(&head, &s, -1);
	find_costs(&o, &head, &starts, &t.ids, t.ns, host_of, t.pairs, t.total,
	           ca >= 0 && cb >= 0 ? 1 + (carm >= 0) : 0, &c);
	study_head_free(&head);
	for (g = 0; g < arms.n && !o.levels; g++) {
		struct design cur = design_for(&cm[g].a, &o, (double)cm[g].a.k, cm[g].a.mean_pairs,
		                               c.run, c.pair);
		check_design(&cur);   /* the one row that need not reach a target */
	}
	out_begin(&s, argc, argv);
	if (o.levels)
		levels_print(&o, &vc, &c);
	else
		print_two_levels(&o, cm, &arms, carm >= 0, &c, bound);
	for (g = 0; g < arms.n; g++) {
		free(cm[g].r);
		strmap_free(&cm[g].ids);
	}
	free(cm);
	free(t.ns);
	strmap_free(&t.ids);
	strmap_free(&arms);
	run_starts_free(&starts);
	free(hosts.of);
	strmap_free(&hosts.names);
	free(host_of);
	stream_close(&s);
	flush_stdout_or_die();
	return 0;
}

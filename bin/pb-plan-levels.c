/* pb-plan --levels host,run: the variance between hosts, between runs of a
 * host and between pairs of a run, and the cheapest hosts x runs x pairs
 * that reaches a target half-width (Kalibera & Jones, "Rigorous
 * benchmarking in reasonable time", ISMM 2013, with three levels). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "out.h"
#include "pb-plan.h"
#include "stats.h"
#include "stream.h"

/* h hosts of r runs of p pairs. */
struct design3 {
	double hosts, runs, pairs, hw, cost_ns;
};

/* The host of run k (see pb-plan.h), known to be one. */
static void host_set(struct run_hosts *rh, size_t k, const char *name)
{
	xgrow_zero(&rh->of, &rh->cap, k + 1, sizeof *rh->of);
	rh->of[k] = (long)strmap_intern(&rh->names, name, strlen(name)) + 1;
}

void host_from_column(struct run_hosts *rh, const struct stream *s, size_t k,
                      const char *run, const char *name)
{
	long was = k < rh->cap ? rh->of[k] : 0;

	if (!*name)
		stream_die(s, "run %s has an empty host field; --levels host,run needs each "
		           "run's host", run);
	host_set(rh, k, name);
	if (was && was != rh->of[k])
		stream_die(s, "run %s is on two hosts, %s and %s", run, rh->names.key[was - 1],
		           name);
}

void hosts_from_comments(struct run_hosts *rh, const struct strmap *ids,
                         const struct strmap *comment_runs, char *const *comment_host,
                         const char *name)
{
	size_t k;

	for (k = 0; k < ids->n; k++) {
		long i = strmap_find(comment_runs, ids->key[k], ids->keylen[k]);

		if (i < 0 || !comment_host[i])
			die("%s: run %s has no host label: --levels host,run reads host= from each "
			    "run's '# run:' comment, or a host column (pb-pair --host)", name,
			    ids->key[k]);
		host_set(rh, k, comment_host[i]);
	}
}

/* Each host has its own runs: a host with one run cannot tell its runs'
 * spread from its own, and the plan needs both. */
static void check_hosts(const struct vc_run *r, size_t k, const struct strmap *hosts)
{
	size_t *runs, i, lone;

	if (hosts->n < 2)
		die("only 1 host (%s); the variance between hosts needs at least 2",
		    hosts->key[0]);
	runs = xmalloc(hosts->n * sizeof *runs);
	for (i = 0; i < hosts->n; i++)
		runs[i] = 0;
	for (i = 0; i < k; i++)
		runs[r[i].host]++;
	for (lone = 0; lone < hosts->n && runs[lone] >= 2; lone++)
		;
	free(runs);   /* before die: nothing left unfreed at exit */
	if (lone < hosts->n)
		die("host %s has only 1 run; the variance between runs of a host needs at "
		    "least 2 on every host", hosts->key[lone]);
}

void levels_estimate(const struct vc_run *r, size_t k, const struct strmap *hosts,
                     struct vc_nested *v)
{
	check_hosts(r, k, hosts);
	if (vc_nested(r, k, hosts->n, v) < 0)
		die("one row per run; the variance within runs needs runs of 2 or more rows "
		    "(the pair stream, not --by-run)");
	if (!isfinite(v->ms_host) || !isfinite(v->ms_run) || !isfinite(v->ms_pair) ||
	    !isfinite(v->raw_host) || !isfinite(v->raw_run))
		die("values too large: their variances overflow a double");
}

/* The variance of the grand mean of h hosts x r runs x p pairs
 * (Kalibera & Jones 2013), times the t quantile on h - 1
 * degrees of freedom: the interval is over the hosts' means. */
static struct design3 design3_at(const struct vc_nested *v, double t, double h, double r,
                                 double p, const struct costs *c, double host_cost)
{
	struct design3 d;

	d.hosts = h, d.runs = r, d.pairs = p;
	d.hw = t * sqrt(v->s2_host / h + v->s2_run / (h * r) + v->s2_pair / (h * r * p));
	d.cost_ns = h * (host_cost + r * (c->run + p * c->pair));
	return d;
}

static double t_hosts(const struct opts *o, double h)
{
	return stat_qt(1 - (1 - o->level) / 2, h - 1);
}

/* With h hosts at quantile t, room is what the runs and pairs may add:
 * s2_run/r + s2_pair/(r p) <= h (target/t)^2 - s2_host. The fewest pairs
 * per run for r runs, or 0 when none reach it. */
static double pairs_for(const struct vc_nested *v, double room, double r)
{
	double left = r * room - v->s2_run, p;

	if (left <= 0)
		return 0;
	if (v->s2_pair == 0)
		return 1;
	p = v->s2_pair / left * (1 - 1e-12);   /* a bound met exactly is met */
	return isfinite(p) ? fmax(1, ceil(p)) : 0;
}

/* The cheapest design of h hosts, or found unchanged. For each r the
 * fewest pairs; r stops once its runs alone cost more than the best. */
static void cheapest_at(const struct vc_nested *v, const struct opts *o, double h,
                        const struct costs *c, double host_cost, struct design3 *best,
                        int *found)
{
	double t = t_hosts(o, h), room = h * (o->target / t) * (o->target / t) - v->s2_host;
	long r;

	if (room <= 0)
		return;
	for (r = 1; r <= o->max_runs; r++) {
		double p;
		struct design3 d;

		if (*found && h * (host_cost + (double)r * (c->run + c->pair)) > best->cost_ns)
			break;
		if ((p = pairs_for(v, room, (double)r)) == 0)
			continue;
		d = design3_at(v, t, h, (double)r, p, c, host_cost);
		if (isfinite(d.cost_ns) && (!*found || d.cost_ns < best->cost_ns)) {
			*best = d;
			*found = 1;
		}
	}
}

/* The cheapest hosts x runs x pairs: at least 2 hosts (the t quantile
 * has h - 1 degrees of freedom), at most --max-runs hosts and runs per
 * host; of equal costs the fewest hosts, then the fewest runs. */
static int cheapest3(const struct vc_nested *v, const struct opts *o, const struct costs *c,
                     double host_cost, struct design3 *best)
{
	int found = 0;
	long h;

	for (h = 2; h <= o->max_runs; h++) {
		if (found && (double)h * (host_cost + c->run + c->pair) > best->cost_ns)
			break;
		cheapest_at(v, o, (double)h, c, host_cost, best, &found);
	}
	return found;
}

/* The fewest hosts that reach the target with r runs of p pairs, or 0. */
static double hosts_needed(const struct vc_nested *v, const struct opts *o, double r,
                           double p, const struct costs *c, double host_cost)
{
	long h;

	for (h = 2; h <= o->max_runs; h++)
		if (design3_at(v, t_hosts(o, (double)h), (double)h, r, p, c, host_cost).hw <=
		    o->target)
			return (double)h;
	return 0;
}

static void print_row3(const char *plan, const struct vc_nested *v, const struct design3 *d)
{
	out_field(plan);
	out_num(v->s2_host);
	out_num(v->s2_run);
	out_num(v->s2_pair);
	out_num(d->hosts);
	out_num(d->runs);
	out_num(d->pairs);
	out_num(d->hw);
	out_num_or_empty(d->cost_ns / 1e9);
	out_end();
}

/* Kalibera and Jones' closed form for each level's repetitions (as in
 * multistage sampling): r* = sqrt(c_host s2_run / (c_run s2_host)) and
 * p* = sqrt(c_run s2_pair / (c_pair s2_run)). It ignores the t quantile;
 * rounded to at least 1, with the fewest hosts that reach the target. */
static void print_kalibera_jones(const struct vc_nested *v, const struct opts *o,
                                 const struct costs *c, double host_cost)
{
	double r, p, h;
	struct design3 d;

	if (!(v->s2_host > 0 && v->s2_run > 0 && c->run > 0 && c->pair > 0))
		return;
	r = fmax(1, round(sqrt(host_cost * v->s2_run / (c->run * v->s2_host))));
	p = fmax(1, round(sqrt(c->run * v->s2_pair / (c->pair * v->s2_run))));
	if (!isfinite(r) || !isfinite(p) || (h = hosts_needed(v, o, r, p, c, host_cost)) == 0)
		return;
	d = design3_at(v, t_hosts(o, h), h, r, p, c, host_cost);
	if (isfinite(d.cost_ns))
		print_row3("kalibera_jones", v, &d);
}

static void levels_metadata(const struct opts *o, const struct vc_nested *v,
                            const struct costs *c)
{
	char k1[NUM_BUFSZ], k2[NUM_BUFSZ], k3[NUM_BUFSZ];

	plan_head_metadata(o);
	out_meta("pb-plan.levels", "host,run");
	num_format(k1, v->k_run);
	num_format(k2, v->k_host_run);
	num_format(k3, v->k_host);
	out_meta("pb-plan.model", "x = mean + host effect (sigma2_host) + run effect "
	         "(sigma2_run) + noise (sigma2_pair); nested random-effects ANOVA, method of "
	         "moments, %s: E[MS_run] = sigma2_pair + %s sigma2_run, E[MS_host] = "
	         "sigma2_pair + %s sigma2_run + %s sigma2_host; a design of h hosts x r runs "
	         "x p pairs has half-width t(h-1) * sqrt(sigma2_host/h + sigma2_run/(h r) + "
	         "sigma2_pair/(h r p))", v->balanced ? "balanced" : "unbalanced, so the "
	         "moment formulas for unbalanced data", k1, k2, k3);
	if (v->raw_host < 0)
		out_meta("pb-plan.sigma2_host.note", "the moment estimate %.6g is below 0: "
		         "taken as 0", v->raw_host);
	if (v->raw_run < 0)
		out_meta("pb-plan.sigma2_run.note", "the moment estimate %.6g is below 0: "
		         "taken as 0", v->raw_run);
	out_meta("pb-plan.host_cost", "%.0f", (double)o->host_cost);
	out_meta("pb-plan.host_cost.note", "given");
	plan_cost_metadata(o, c);
}

void levels_print(const struct opts *o, const struct vc_nested *v, const struct costs *c)
{
	double hc = (double)o->host_cost, hosts = (double)v->hosts;
	struct design3 cur = design3_at(v, t_hosts(o, hosts), hosts,
	                                (double)v->runs / hosts, v->N / (double)v->runs, c, hc);
	struct design3 best;

	levels_metadata(o, v, c);
	out_field("plan"), out_field("sigma2_host"), out_field("sigma2_run");
	out_field("sigma2_pair"), out_field("hosts"), out_field("runs"), out_field("pairs");
	out_field("halfwidth"), out_field("total_s");
	out_end();
	print_row3("current", v, &cur);
	if (o->target <= 0)
		return;
	if (!cheapest3(v, o, c, hc, &best)) {
		warn("no design with at most %ld hosts of %ld runs reaches a half-width of %g",
		     o->max_runs, o->max_runs, o->target);
		return;
	}
	print_row3("best", v, &best);
	print_kalibera_jones(v, o, c, hc);
}

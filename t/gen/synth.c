/* synth: a synthetic raw pb stream (pb(7), Raw stream) with known
 * defects, for pb-check's tests. Every time is drawn from a model with a
 * seed, so a study is the same on every machine:
 *
 *   ns = base * level_run * exp(noise_obs + noise_pair) * load
 *        + effect (on B) + defects
 *
 * level_run is lognormal (--run-sd), noise_obs independent per observation
 * (--noise), noise_pair shared by both halves of a pair (--pair-sd). The
 * defects, each off unless given:
 *   --first-share F   P(A runs first) (0.5)
 *   --position NS     the second observation of a pair takes NS less
 *   --carry NS        an observation that follows one of arm B takes NS more
 *   --drift NS        the effect grows by NS per run
 *   --level-drift F   both arms slower by the share F per run
 *   --warm K:F        the first K measured pairs of each run F slower (share)
 *   --outlier R:NS    run R's effect is NS larger
 *   --bimodal F       a load that comes and goes: each observation, with
 *                     probability 1/2, takes the share F longer
 *   --spread F        arm B's noise_obs is F times arm A's
 *   --run-skew S      arm B's times in each run scaled by exp(0.05 (exp(S Z) - 1)),
 *                     Z normal per run: skewed per-run log ratios, median 0
 *   --partial R:K     run R ends after K measured pairs (# run_ended:)
 *   --fail R:P        run R pair P: arm B fails (status -2)
 * usage: synth [--seed N] [--runs R] [--pairs P] [--warmup W] [--base NS]
 *              [--effect NS] [--noise F] [--pair-sd F] [--run-sd F]
 *              [--order random|alternate|blocked] [defects] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

struct model {
	unsigned long long seed;
	long runs, pairs, warmup;
	double base, effect, noise, pair_sd, run_sd, first_share;
	double position, carry, drift, level_drift, warm_share, outlier_ns, bimodal, spread;
	double run_skew;
	long warm_pairs, outlier_run, partial_run, partial_after, fail_run, fail_pair;
	const char *order;
};

static double normal(struct rng *r)
{
	double u = rng_uniform(r), v = rng_uniform(r);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

static void pair_of(const char *v, long *a, double *b)
{
	char *end;

	*a = strtol(v, &end, 10);
	if (*end != ':') {
		fprintf(stderr, "synth: want N:X, not '%s'\n", v);
		exit(2);
	}
	*b = strtod(end + 1, NULL);
}

static void parse(int argc, char **argv, struct model *m)
{
	int i;

	memset(m, 0, sizeof *m);
	m->seed = 1, m->runs = 10, m->pairs = 300, m->warmup = 20;
	m->base = 1e6, m->noise = 0.02, m->pair_sd = 0.01, m->run_sd = 0.05;
	m->first_share = 0.5, m->spread = 1, m->order = "random";
	m->outlier_run = m->partial_run = m->fail_run = -1;
	for (i = 1; i + 1 < argc; i += 2) {
		const char *o = argv[i], *v = argv[i + 1];
		double x;

		if (!strcmp(o, "--seed")) m->seed = strtoull(v, NULL, 10);
		else if (!strcmp(o, "--runs")) m->runs = atol(v);
		else if (!strcmp(o, "--pairs")) m->pairs = atol(v);
		else if (!strcmp(o, "--warmup")) m->warmup = atol(v);
		else if (!strcmp(o, "--base")) m->base = atof(v);
		else if (!strcmp(o, "--effect")) m->effect = atof(v);
		else if (!strcmp(o, "--noise")) m->noise = atof(v);
		else if (!strcmp(o, "--pair-sd")) m->pair_sd = atof(v);
		else if (!strcmp(o, "--run-sd")) m->run_sd = atof(v);
		else if (!strcmp(o, "--order")) m->order = v;
		else if (!strcmp(o, "--first-share")) m->first_share = atof(v);
		else if (!strcmp(o, "--position")) m->position = atof(v);
		else if (!strcmp(o, "--carry")) m->carry = atof(v);
		else if (!strcmp(o, "--drift")) m->drift = atof(v);
		else if (!strcmp(o, "--level-drift")) m->level_drift = atof(v);
		else if (!strcmp(o, "--warm")) pair_of(v, &m->warm_pairs, &m->warm_share);
		else if (!strcmp(o, "--outlier")) pair_of(v, &m->outlier_run, &m->outlier_ns);
		else if (!strcmp(o, "--bimodal")) m->bimodal = atof(v);
		else if (!strcmp(o, "--spread")) m->spread = atof(v);
		else if (!strcmp(o, "--run-skew")) {
			m->run_skew = atof(v);
			if (!(m->run_skew >= 0 && m->run_skew <= 2)) {
				fprintf(stderr, "synth: --run-skew wants a sigma from 0 to 2, not '%s'\n", v);
				exit(2);
			}
		}
		else if (!strcmp(o, "--partial")) {
			pair_of(v, &m->partial_run, &x);
			m->partial_after = (long)x;
		} else if (!strcmp(o, "--fail")) {
			pair_of(v, &m->fail_run, &x);
			m->fail_pair = (long)x;
		} else {
			fprintf(stderr, "synth: unknown option '%s'\n", o);
			exit(2);
		}
	}
	if (i < argc) {
		fprintf(stderr, "synth: '%s' wants a value\n", argv[i]);
		exit(2);
	}
}

static void head(const struct model *m, int argc, char **argv)
{
	int i;

	printf("# pb-run: 0.1.0 synth");
	for (i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n# mode: worker\n# worker: synth\n# runs: %ld\n# first_run: 1\n"
	       "# pairs: %ld\n# warmup: %ld\n# order: %s\n# seed: %llu\n# delay_ns: 0\n"
	       "# delay_arm: B\n", m->runs, m->pairs, m->warmup, m->order, m->seed);
	if (m->fail_run >= 0 || m->partial_run >= 0)
		printf("# ignore_failure: yes\n");
	printf("# study: %016llx\n", m->seed * 0x9e3779b97f4a7c15ull);
	printf("run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus\n");
}

struct state {
	struct rng r;
	double level;
	double skew;       /* arm B's share of its log time added in this run */
	int prev_arm;      /* -1 at the start of a run, else 0 (A) or 1 (B) */
};

static long long observe(const struct model *m, struct state *s, long run, long pair,
                         int measure, int arm, int pos, double shared)
{
	double eff = m->effect + m->drift * (double)(run - 1), t;
	double sd = arm ? m->noise * m->spread : m->noise;

	if (run == m->outlier_run)
		eff += m->outlier_ns;
	t = m->base * s->level * exp(sd * normal(&s->r) + shared);
	if (m->bimodal > 0 && rng_uniform(&s->r) < 0.5)
		t *= 1 + m->bimodal;
	if (measure && pair <= m->warm_pairs)
		t *= 1 + m->warm_share;
	if (arm)
		t = t * exp(s->skew) + eff;
	if (pos == 2)
		t -= m->position;
	if (s->prev_arm == 1)
		t += m->carry;
	s->prev_arm = arm;
	/* a far draw of --run-skew stays a time, never past int64 */
	return t < 1 ? 1 : t > 1e15 ? (long long)1e15 : (long long)llround(t);
}

static void phase(const struct model *m, struct state *s, long run, int measure, long n)
{
	const char *name = measure ? "measure" : "warmup";
	long i;

	for (i = 1; i <= n; i++) {
		int first = 0, k;
		double shared = m->pair_sd * normal(&s->r);
		long long t[2];
		int arm[2];

		if (!strcmp(m->order, "alternate"))
			first = i % 2 == 0;
		else if (!strcmp(m->order, "random"))
			first = rng_uniform(&s->r) < m->first_share ? 0 : 1;
		if (measure && run == m->partial_run && i > m->partial_after) {
			printf("# run_ended: run %ld pair %ld (measure) arm %c: the worker died; "
			       "the rest of the run is not measured\n", run, i, 'A' + first);
			return;
		}
		arm[0] = first, arm[1] = !first;
		for (k = 0; k < 2; k++)
			t[k] = observe(m, s, run, i, measure, arm[k], k + 1, shared);
		for (k = 0; k < 2; k++)
			printf("%ld\t%ld\t%s\t%c\t%d\t0\t%lld\t%d\n", run, i, name, 'A' + arm[k], k + 1,
			       t[k], measure && run == m->fail_run && i == m->fail_pair && arm[k] ? -2 : 0);
	}
}

int main(int argc, char **argv)
{
	struct model m;
	long run;

	parse(argc, argv, &m);
	head(&m, argc, argv);
	for (run = 1; run <= m.runs; run++) {
		struct state s;

		rng_seed(&s.r, rng_derive(m.seed, (uint64_t)run));
		s.level = exp(m.run_sd * normal(&s.r)) * (1 + m.level_drift * (double)(run - 1));
		s.skew = m.run_skew > 0 ? 0.05 * expm1(m.run_skew * normal(&s.r)) : 0;
		s.prev_arm = -1;
		printf("# run: %ld start=2026-12-01T00:00:%02ld.000Z pid=%ld study=%016llx host=synth\n",
		       run, run % 60, 1000 + run, m.seed * 0x9e3779b97f4a7c15ull);
		phase(&m, &s, run, 0, m.warmup);
		phase(&m, &s, run, 1, m.pairs);
	}
	return fflush(stdout) || ferror(stdout);
}

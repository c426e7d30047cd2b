/* sim-hosts: whether the prediction interval of pb-tint --unit host
 * covers a new host as often as it says, and how often pb-check's hosts
 * check warns of hosts that do not differ. The figures behind pb-tint(1)
 * (--unit host) and pb-check(1) (hosts).
 *
 *   make all    (builds it)
 *   share/dev/sim-hosts [-m STUDIES] [-s SEED] [-n RUNS] [-t TAU] [-w SIGMA] [-l LEVEL]
 *
 * Each study has k hosts of RUNS runs (default 4). Host h's effect is
 * theta_h = mu + u_h, u_h ~ N(0, TAU^2) (default TAU 0.02, as log
 * ratio); each run's log ratio is theta_h + e, e ~ N(0, SIGMA^2)
 * (default 0.01). lib/hosts.c makes each host's mean and standard
 * error, and the random-effects summary at LEVEL (default 0.95). For k
 * = 3, 5 and 10: the share of STUDIES (default 4000) whose prediction
 * interval holds the effect of a new host drawn from the same model,
 * with its binomial standard error. Then, with TAU = 0 (hosts alike),
 * 200 studies of 4 hosts: the share in which Cochran's Q has p < 0.01,
 * and Welch's F test (pb-check's hosts warning at its default level
 * 0.99), each with its standard error. Each row has its own stream, rng_derive(SEED, row). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hosts.h"
#include "rng.h"

struct model {
	long studies, runs;
	double tau, sigma, level;
	uint64_t seed;
};

/* One study of k hosts: its summary, and a new host's effect in *fresh. */
static void study(struct rng *r, const struct model *m, size_t k, double tau,
                  struct hosts_re *re, double *fresh)
{
	double y[16], v[16], n[16], x[256], theta;
	struct host_mean h;
	size_t i, j;

	for (i = 0; i < k; i++) {
		theta = tau * rng_normal(r);
		for (j = 0; j < (size_t)m->runs; j++)
			x[j] = theta + m->sigma * rng_normal(r);
		h = host_mean_of(x, (size_t)m->runs, m->level);
		y[i] = h.mean, v[i] = h.se * h.se, n[i] = (double)m->runs;
	}
	hosts_re_of(y, v, n, k, m->level, re);
	*fresh = tau * rng_normal(r);
}

static void row(const char *what, double hits, double n)
{
	double p = hits / n;

	printf("%s\t%.0f\t%.0f\t%.4f\t%.4f\n", what, hits, n, p, sqrt(p * (1 - p) / n));
}

int main(int argc, char **argv)
{
	static const size_t ks[] = { 3, 5, 10 };
	struct model m = { 4000, 4, 0.02, 0.01, 0.95, 1 };
	struct hosts_re re;
	struct rng r;
	char what[64];
	double fresh, hits, welch;
	long s;
	size_t i;
	int c;

	while ((c = getopt(argc, argv, "m:s:n:t:w:l:")) != -1) {
		switch (c) {
		case 'm': m.studies = atol(optarg); break;
		case 's': m.seed = strtoull(optarg, NULL, 10); break;
		case 'n': m.runs = atol(optarg); break;
		case 't': m.tau = atof(optarg); break;
		case 'w': m.sigma = atof(optarg); break;
		case 'l': m.level = atof(optarg); break;
		default: return 2;
		}
	}
	if (m.studies < 1 || m.runs < 2 || m.runs > 256 || !(m.sigma > 0))
		return 2;
	printf("what\thits\tstudies\tshare\tse\n");
	for (i = 0; i < 3; i++) {
		rng_seed(&r, rng_derive(m.seed, i));
		for (s = 0, hits = 0; s < m.studies; s++) {
			study(&r, &m, ks[i], m.tau, &re, &fresh);
			hits += fresh >= re.pred_lo && fresh <= re.pred_hi;
		}
		snprintf(what, sizeof what, "pred_covers_k%zu", ks[i]);
		row(what, hits, (double)m.studies);
	}
	rng_seed(&r, rng_derive(m.seed, 3));
	for (s = 0, hits = 0, welch = 0; s < 200; s++) {
		study(&r, &m, 4, 0, &re, &fresh);
		hits += re.q_p < 0.01;
		welch += re.f_p < 0.01;
	}
	row("q_alarm_k4_tau0", hits, 200);
	row("welch_alarm_k4_tau0", welch, 200);
	return 0;
}

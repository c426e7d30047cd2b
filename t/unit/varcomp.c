/* Unit tests of lib/varcomp.c. Reference values come from R 4.2.2
 * (Rscript), printed with %.17g:
 *   ms <- summary(aov(y ~ host / run, x))[[1]][["Mean Sq"]]
 * and the moment formulas of lib/varcomp.h (the R lines by each case).
 * Tolerances are relative. */
#include <math.h>
#include <stddef.h>

#include "stats.h"
#include "tap.h"
#include "varcomp.h"

#define N(a) (sizeof (a) / sizeof (a)[0])

/* The runs of values y[], run sizes n[], hosts host[] (by run). */
static void runs_of(const double *y, const size_t *n, const size_t *host, size_t k,
                    struct vc_run *r)
{
	size_t i, j, at = 0;

	for (i = 0; i < k; i++) {
		struct welford w = { 0, 0, 0, 0 };

		for (j = 0; j < n[i]; j++)
			welford_add(&w, y[at++]);
		r[i].n = w.n;
		r[i].mean = welford_mean(&w);
		r[i].m2 = w.m2;
		r[i].host = host[i];
	}
}

/* 2 hosts x 2 runs x 2 values (pb-plan(1) works it by hand):
 * x <- data.frame(host = factor(rep(c("x","y"), each = 4)),
 *   run = factor(rep(1:4, each = 2)), y = c(.01,.03,.02,.05,.06,.07,.09,.08))
 * s2h = (ms[1] - ms[2]) / 4, s2r = (ms[2] - ms[3]) / 2 */
static void test_balanced(void)
{
	static const double y[] = { .01, .03, .02, .05, .06, .07, .09, .08 };
	static const size_t n[] = { 2, 2, 2, 2 }, host[] = { 0, 0, 1, 1 };
	struct vc_run r[4];
	struct vc_nested v;

	runs_of(y, n, host, 4, r);
	ok(vc_nested(r, 4, 2, &v) == 0, "balanced: estimated");
	ok(v.balanced && v.k_run == 2 && v.k_host_run == 2 && v.k_host == 4,
	   "balanced: k1, k2, k3 = n, n, b n");
	is_num(v.ms_host, 0.0045125000000000018, 1e-12, "balanced: MS_host = R's");
	is_num(v.ms_run, 0.00031250000000000011, 1e-12, "balanced: MS_run = R's");
	is_num(v.ms_pair, 0.00018750000000000009, 1e-12, "balanced: MS_pair = R's");
	is_num(v.s2_host, 0.0010500000000000004, 1e-12, "balanced: sigma2_host");
	is_num(v.s2_run, 6.2500000000000015e-05, 1e-12, "balanced: sigma2_run");
}

/* Hosts of runs of 2 and 3, 2 and 3, 2 and 2 values:
 * x <- data.frame(host = factor(c(rep("x", 5), rep("y", 5), rep("z", 4))),
 *   run = factor(c(1,1,2,2,2,3,3,4,4,4,5,5,6,6)),
 *   y = c(.01,.03,.02,0,.04,.02,.03,.01,.05,0,.03,.01,.02,.02))
 * k1, k2, k3, sigma2_host from the run estimate before it is set to 0. */
static void test_unbalanced(void)
{
	static const double y[] = { .01, .03, .02, 0, .04, .02, .03, .01, .05, 0, .03, .01,
	                            .02, .02 };
	static const size_t n[] = { 2, 3, 2, 3, 2, 2 }, host[] = { 0, 0, 1, 1, 2, 2 };
	struct vc_run r[6];
	struct vc_nested v;

	runs_of(y, n, host, N(n), r);
	ok(vc_nested(r, N(n), 3, &v) == 0, "unbalanced: estimated");
	ok(!v.balanced, "unbalanced: not balanced");
	is_num(v.ms_host, 6.4285714285714125e-06, 1e-9, "unbalanced: MS_host = R's");
	is_num(v.ms_run, 9.9999999999999873e-06, 1e-9, "unbalanced: MS_run = R's");
	is_num(v.ms_pair, 0.00033124999999999995, 1e-12, "unbalanced: MS_pair = R's");
	is_num(v.k_run, 2.2666666666666666, 1e-14, "unbalanced: k1 = R's");
	is_num(v.k_host_run, 2.3857142857142861, 1e-14, "unbalanced: k2 = R's");
	is_num(v.k_host, 4.6428571428571423, 1e-14, "unbalanced: k3 = R's");
	is_num(v.raw_run, -0.00014172794117647057, 1e-9, "unbalanced: the run estimate, below 0");
	ok(v.s2_run == 0, "unbalanced: sigma2_run set to 0");
	is_num(v.s2_host, 2.8648190045248961e-06, 1e-8,
	       "unbalanced: sigma2_host from the run estimate before truncation");
}

static void test_refused(void)
{
	static const double y[] = { 1, 2, 3, 4 };
	static const size_t n2[] = { 2, 2 }, one[] = { 0, 0 }, each[] = { 0, 1 };
	static const size_t n1[] = { 1, 1, 1 }, h3[] = { 0, 0, 1 };
	struct vc_run r[3];
	struct vc_nested v;

	runs_of(y, n2, one, 2, r);
	ok(vc_nested(r, 2, 1, &v) == -1, "one host: -1");
	runs_of(y, n2, each, 2, r);
	ok(vc_nested(r, 2, 2, &v) == -1, "a run on each host, no more: -1");
	runs_of(y, n1, h3, 3, r);
	ok(vc_nested(r, 3, 2, &v) == -1, "one value a run: -1");
}

int main(void)
{
	test_balanced();
	test_unbalanced();
	test_refused();
	return done_testing();
}

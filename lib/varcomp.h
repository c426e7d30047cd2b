/* varcomp: variance components of a two-stage nested random-effects
 * design (hosts, runs within hosts, values within runs) by the ANOVA
 * (method of moments) estimators: exact for balanced data; for
 * unbalanced data the standard moment formulas with the coefficients of
 * the expected mean squares (Searle, Casella & McCulloch, Variance
 * Components, 1992, chapter 5; Sokal & Rohlf, Biometry, chapter 10). */
#ifndef PB_VARCOMP_H
#define PB_VARCOMP_H

#include <stddef.h>

/* One run: its values' count, mean and sum of squared deviations from
 * that mean, and the index of its host (0 to hosts - 1). */
struct vc_run {
	double n, mean, m2;
	size_t host;
};

struct vc_nested {
	size_t hosts, runs;
	double N;
	double df_host, df_run, df_pair;
	double ms_host, ms_run, ms_pair;       /* mean squares */
	/* E[ms_run] = s2_pair + k_run s2_run; E[ms_host] = s2_pair +
	 * k_host_run s2_run + k_host s2_host. Balanced (b runs of n): n, n, b n. */
	double k_run, k_host_run, k_host;
	double raw_host, raw_run;              /* the moment solutions, maybe < 0 */
	double s2_host, s2_run, s2_pair;       /* the estimates, each at least 0 */
	int balanced;                          /* every host b runs, every run n values */
};

/* The components of k runs on hosts hosts. Needs hosts >= 2, more runs
 * than hosts and more values than runs: -1 otherwise, 0 done. */
int vc_nested(const struct vc_run *r, size_t k, size_t hosts, struct vc_nested *v);

#endif

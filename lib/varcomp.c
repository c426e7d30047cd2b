/* varcomp: nested ANOVA variance components; see varcomp.h. */
#include <stdlib.h>

#include "err.h"
#include "varcomp.h"

/* The sums over hosts the estimators need, from the runs. */
struct host_sums {
	double n, sum, n2_over;   /* values, sum of n_ij mean_ij, sum n_ij^2 */
	size_t runs;
};

static struct host_sums *sum_hosts(const struct vc_run *r, size_t k, size_t hosts)
{
	struct host_sums *h = xmalloc(hosts * sizeof *h);
	size_t i;

	for (i = 0; i < hosts; i++)
		h[i].n = h[i].sum = h[i].n2_over = 0, h[i].runs = 0;
	for (i = 0; i < k; i++) {
		struct host_sums *hi = &h[r[i].host];

		hi->n += r[i].n;
		hi->sum += r[i].n * r[i].mean;
		hi->n2_over += r[i].n * r[i].n;
		hi->runs++;
	}
	return h;
}

static int is_balanced(const struct vc_run *r, size_t k, const struct host_sums *h,
                       size_t hosts)
{
	size_t i;

	for (i = 1; i < k; i++)
		if (r[i].n != r[0].n)
			return 0;
	for (i = 1; i < hosts; i++)
		if (h[i].runs != h[0].runs)
			return 0;
	return 1;
}

/* Sums of squares about the means (two passes: the means first), then
 * the coefficients of the expected mean squares, which for unequal
 * sizes weigh each run and host by its count rather than assume one. */
static void mean_squares(const struct vc_run *r, size_t k, const struct host_sums *h,
                         size_t hosts, struct vc_nested *v)
{
	double grand = 0, ssh = 0, ssr = 0, ssp = 0, a_sum = 0, b_sum = 0, c_sum = 0;
	size_t i;

	for (i = 0; i < hosts; i++)
		grand += h[i].sum;
	grand /= v->N;
	for (i = 0; i < hosts; i++) {
		double d = h[i].sum / h[i].n - grand;

		ssh += h[i].n * d * d;
		a_sum += h[i].n2_over / h[i].n;
		b_sum += h[i].n2_over;
		c_sum += h[i].n * h[i].n;
	}
	for (i = 0; i < k; i++) {
		const struct host_sums *hi = &h[r[i].host];
		double d = r[i].mean - hi->sum / hi->n;

		ssr += r[i].n * d * d;
		ssp += r[i].m2;
	}
	v->df_host = (double)hosts - 1;
	v->df_run = (double)(k - hosts);
	v->df_pair = v->N - (double)k;
	v->ms_host = ssh / v->df_host;
	v->ms_run = ssr / v->df_run;
	v->ms_pair = ssp / v->df_pair;
	v->k_run = (v->N - a_sum) / v->df_run;
	v->k_host_run = (a_sum - b_sum / v->N) / v->df_host;
	v->k_host = (v->N - c_sum / v->N) / v->df_host;
}

int vc_nested(const struct vc_run *r, size_t k, size_t hosts, struct vc_nested *v)
{
	struct host_sums *h;
	size_t i;

	v->hosts = hosts;
	v->runs = k;
	v->N = 0;
	for (i = 0; i < k; i++)
		v->N += r[i].n;
	if (hosts < 2 || k <= hosts || v->N <= (double)k)
		return -1;
	h = sum_hosts(r, k, hosts);
	mean_squares(r, k, h, hosts, v);
	v->balanced = is_balanced(r, k, h, hosts);
	free(h);
	/* The moment equations solved as they stand, then each estimate
	 * below 0 set to 0: the host estimate uses the run estimate before
	 * truncation, so that the three solve E[ms] = ms exactly. */
	v->s2_pair = v->ms_pair;
	v->raw_run = (v->ms_run - v->ms_pair) / v->k_run;
	v->raw_host = (v->ms_host - v->ms_pair - v->k_host_run * v->raw_run) / v->k_host;
	v->s2_run = v->raw_run > 0 ? v->raw_run : 0;
	v->s2_host = v->raw_host > 0 ? v->raw_host : 0;
	return 0;
}

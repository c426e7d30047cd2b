/* hosts: the random-effects summary of hosts (lib/hosts.h). */
#include <math.h>
#include <stdlib.h>

#include "err.h"

#include "hosts.h"
#include "stats.h"

struct host_mean host_mean_of(const double *x, size_t n, double level)
{
	struct host_mean h;

	h.n = (double)n;
	h.mean = stat_mean(x, n);
	h.sd = sqrt(stat_var(x, n));
	h.se = h.sd / sqrt(h.n);
	h.df = h.n - 1;
	h.t = stat_qt(1 - (1 - level) / 2, h.df);
	h.lo = h.mean - h.t * h.se;
	h.hi = h.mean + h.t * h.se;
	return h;
}

/* The weighted mean of y with weights 1/(v + tau2), its weights' sum,
 * and the generalized Q: sum w (y - mean)^2. */
static double weighted(const double *y, const double *v, size_t k, double tau2,
                       double *mean, double *sw)
{
	double s = 0, sy = 0, q = 0, w;
	size_t i;

	for (i = 0; i < k; i++) {
		w = 1 / (v[i] + tau2);
		s += w;
		sy += w * y[i];
	}
	*mean = sy / s;
	for (i = 0; i < k; i++)
		q += (y[i] - *mean) * (y[i] - *mean) / (v[i] + tau2);
	*sw = s;
	return q;
}

static double q_gen(const double *y, const double *v, size_t k, double tau2)
{
	double m, s;

	return weighted(y, v, k, tau2, &m, &s);
}

/* The tau2 where the generalized Q, which falls as tau2 grows, equals
 * target (Viechtbauer 2007's Q-profile); 0 when it is below target at
 * tau2 = 0 already. Bisection to the last bit: metafor's uniroot stops
 * sooner, which the tests allow for by asking it for more. */
static double q_profile(const double *y, const double *v, size_t k, double target)
{
	double lo = 0, hi = 1, mid;

	if (q_gen(y, v, k, 0) <= target)
		return 0;
	while (q_gen(y, v, k, hi) > target)
		hi *= 2;
	for (;;) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			return mid;
		if (q_gen(y, v, k, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
}

/* DerSimonian and Laird's moment estimate of tau2, from Cochran's Q of
 * the common-effect weights; also the "typical" within-host variance
 * that I^2 compares tau2 with (Higgins and Thompson 2002). */
static double dl_tau2(const double *v, size_t k, double q, double *typical)
{
	double s = 0, s2 = 0, w, c;
	size_t i;

	for (i = 0; i < k; i++) {
		w = 1 / v[i];
		s += w;
		s2 += w * w;
	}
	c = s - s2 / s;
	*typical = ((double)k - 1) / c;
	return fmax(0, (q - ((double)k - 1)) / c);
}

/* The standardized residuals of the common-effect model, (y - mu) /
 * sqrt(v - 1/sum w): their squares make up most of Q, so the largest
 * names the host whose mean its own runs explain least. */
void hosts_z(const double *y, const double *v, size_t k, double *z)
{
	double fe, sw;
	size_t i;

	weighted(y, v, k, 0, &fe, &sw);
	for (i = 0; i < k; i++)
		z[i] = (y[i] - fe) / sqrt(fmax(v[i] - 1 / sw, 0x1p-1022));
}

/* The host that stands out: the largest |z|. */
static void most_apart(const double *y, const double *v, size_t k, struct hosts_re *r)
{
	double *z = xmalloc(k * sizeof *z);
	size_t i;

	hosts_z(y, v, k, z);
	r->most = 0;
	r->most_z = 0;
	for (i = 0; i < k; i++)
		if (fabs(z[i]) > fabs(r->most_z))
			r->most = i, r->most_z = z[i];
	free(z);
}

void hosts_re_of(const double *y, const double *v, const double *n, size_t k, double level,
                 struct hosts_re *r)
{
	double fe, sw, typical, a = 1 - level, kd = (double)k, s;

	r->k = kd;
	r->q = weighted(y, v, k, 0, &fe, &sw);
	r->q_p = stat_pchisq_upper(r->q, kd - 1);
	most_apart(y, v, k, r);
	r->f_p = hosts_welch(y, v, n, k, &r->f, &r->f_df2);
	r->tau2 = dl_tau2(v, k, r->q, &typical);
	r->i2 = r->tau2 / (r->tau2 + typical);
	r->tau2_lo = q_profile(y, v, k, stat_qchisq_upper(a / 2, kd - 1));
	r->tau2_hi = q_profile(y, v, k, stat_qchisq_upper(1 - a / 2, kd - 1));
	weighted(y, v, k, r->tau2, &r->mu, &sw);
	r->mu_se = sqrt(1 / sw);
	s = stat_qnorm(1 - a / 2);
	r->mu_lo = r->mu - s * r->mu_se;
	r->mu_hi = r->mu + s * r->mu_se;
	r->pred_lo = r->pred_hi = NAN;
	if (k >= 3) {
		s = stat_qt(1 - a / 2, kd - 2) * sqrt(r->tau2 + r->mu_se * r->mu_se);
		r->pred_lo = r->mu - s;
		r->pred_hi = r->mu + s;
	}
}

double hosts_welch(const double *y, const double *v, const double *n, size_t k, double *f,
                   double *df2)
{
	double mean, sw, a, tmp = 0, b, kd = (double)k, df1 = kd - 1, w;
	size_t i;

	a = weighted(y, v, k, 0, &mean, &sw) / df1;
	for (i = 0; i < k; i++) {
		w = 1 / v[i];
		tmp += (1 - w / sw) * (1 - w / sw) / (n[i] - 1);
	}
	b = 1 + 2 * (kd - 2) / (kd * kd - 1) * tmp;
	*f = a / b;
	*df2 = (kd * kd - 1) / (3 * tmp);
	/* P(F > f) = I_x(df2/2, df1/2), x = df2 / (df2 + df1 f) */
	return stat_pbeta(*df2 / (*df2 + df1 * *f), *df2 / 2, df1 / 2);
}

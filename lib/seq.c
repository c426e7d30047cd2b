#include <math.h>

#include "seq.h"

/* K - 1 and c - K are formed from expm1 so that neither cancels: at
 * large n, K is within 1e-3 of 1 and tstar^2 is a ratio of two small
 * differences. */
int seq_tstar(double n, double g, double alpha, double *tstar)
{
	double c, km1, cmk;

	if (!(n >= 2) || !(g > 0) || !(alpha > 0 && alpha < 1))
		return -1;
	c = 1 + n * g;
	km1 = expm1(2 / n * (0.5 * log(c) - log(alpha)));
	cmk = n * g - km1;   /* c - K = (c - 1) - (K - 1) */
	if (!(cmk > 0))
		return -1;
	*tstar = sqrt((n - 1) * km1 * c / cmk);
	return 0;
}

double seq_log_bf(double t, double n, double g)
{
	double nu = n - 1, c = 1 + n * g, u = t * t / nu;

	return -0.5 * log(c) + n / 2 * (log1p(u) - log1p(u / c));
}

int seq_interval(double n, double mean, double sd, double g, double level,
                 double *tstar, double *lo, double *hi)
{
	double t, half;

	if (seq_tstar(n, g, 1 - level, &t) < 0)
		return -1;
	half = t * sd / sqrt(n);
	*tstar = t;
	*lo = mean - half;
	*hi = mean + half;
	return 0;
}

long seq_first_bounded(double g, double level)
{
	double t;
	long n;

	/* c grows like n and K falls to 1, so the loop ends; the cap only
	 * guards against a g or level no caller passes. */
	for (n = 2; n < 1000000; n++)
		if (seq_tstar((double)n, g, 1 - level, &t) == 0)
			return n;
	return -1;
}

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "stats.h"

void welford_add(struct welford *w, double x)
{
	double d = x - w->mean;

	w->n += 1;
	w->mean += d / w->n;
	w->m2 += d * (x - w->mean);
}

double welford_var(const struct welford *w)
{
	return w->n > 1 ? w->m2 / (w->n - 1) : NAN;
}

double stat_mean(const double *x, size_t n)
{
	double s = 0, m, c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	m = s / (double)n;
	for (i = 0; i < n; i++)   /* one refinement pass, as R's mean does */
		c += x[i] - m;
	return m + c / (double)n;
}

double stat_var(const double *x, size_t n)
{
	double m = stat_mean(x, n), ss = 0, s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++) {
		ss += (x[i] - m) * (x[i] - m);
		s += x[i] - m;
	}
	return (ss - s * s / (double)n) / (double)(n - 1);
}

double stat_min(const double *x, size_t n)
{
	double m = x[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

static void swap(double *a, double *b)
{
	double t = *a;

	*a = *b;
	*b = t;
}

/* Quickselect with a median-of-three pivot and three-way partition (so
 * runs of ties cost nothing); the pivot's middle element is chosen by a
 * fixed-seed xorshift so sorted or adversarial input stays linear. */
double stat_select(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	uint64_t s = 0x9e3779b97f4a7c15u;

	while (hi > lo) {
		size_t mid, lt, gt, i;
		double a, b, c, p;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		mid = lo + (size_t)(s % (hi - lo + 1));
		a = x[lo], b = x[mid], c = x[hi];
		p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		lt = lo, gt = hi, i = lo;
		while (i <= gt) {
			if (x[i] < p)
				swap(&x[lt++], &x[i++]);
			else if (x[i] > p)
				swap(&x[i], &x[gt--]);
			else
				i++;
		}
		if (k < lt)
			hi = lt - 1;
		else if (k > gt)
			lo = gt + 1;
		else
			return p;
	}
	return x[k];
}

/* After stat_select(x, n, k), the next order statistic is the smallest
 * element to the right of k. */
static double next_order(const double *x, size_t n, size_t k)
{
	return stat_min(x + k + 1, n - k - 1);
}

double stat_median(double *x, size_t n)
{
	double lo;

	if (n % 2)
		return stat_select(x, n, n / 2);
	lo = stat_select(x, n, n / 2 - 1);
	return lo + (next_order(x, n, n / 2 - 1) - lo) / 2;
}

double stat_quantile(double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p, lo;
	size_t k = (size_t)floor(h);

	if (k >= n - 1)
		return stat_select(x, n, n - 1);
	lo = stat_select(x, n, k);
	if (h == (double)k)
		return lo;
	return lo + (h - (double)k) * (next_order(x, n, k) - lo);
}

double stat_cor(const double *x, const double *y, size_t n)
{
	double mx = stat_mean(x, n), my = stat_mean(y, n);
	double sxy = 0, sxx = 0, syy = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxy / sqrt(sxx * syy);
}

double stat_pnorm(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* Start from Abramowitz & Stegun 26.2.23 (error < 4.5e-4), then Halley
 * steps on the lower tail through erfc, which is exact to a few ulps. */
double stat_qnorm(double p)
{
	double q = p < 0.5 ? p : 1 - p, t, x;
	int i;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	t = sqrt(-2 * log(q));
	x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
	      (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
	for (i = 0; i < 4; i++) {   /* x < 0, lower tail q */
		double f = 0.5 * erfc(-x / sqrt(2.0)) - q;
		double u = f * sqrt(2 * M_PI) * exp(x * x / 2);
		x -= u / (1 + x * u / 2);
	}
	return p < 0.5 ? x : -x;
}

/* ln Γ(a+½) − ln Γ(a) for a ≥ 20 from the Bernoulli series, so that
 * lbeta(a, ½) keeps full precision when a is large. */
static double lgamma_half_diff(double a)
{
	double a2 = a * a;

	return 0.5 * log(a) - 1 / (8 * a) + 1 / (192 * a * a2) -
	       1 / (640 * a * a2 * a2) + 17 / (14336 * a * a2 * a2 * a2);
}

double stat_lbeta(double a, double b)
{
	if (b == 0.5 && a >= 20)
		return lgamma(0.5) - lgamma_half_diff(a);
	if (a == 0.5 && b >= 20)
		return lgamma(0.5) - lgamma_half_diff(b);
	return lgamma(a) + lgamma(b) - lgamma(a + b);
}

/* Continued fraction for I_x(a,b) (modified Lentz), valid when
 * x < (a+1)/(a+b+2). */
static double beta_cf(double x, double a, double b)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;
	int m;

	d = 1 - qab * x / qap;
	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 1000000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 2 * DBL_EPSILON)
			break;
	}
	return h;
}

/* I_x(a,b) with y = 1 - x passed separately, so that callers holding y
 * exactly (small y) lose nothing to 1 - x. */
static double pbeta_xy(double x, double y, double a, double b)
{
	double front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	front = a * (x < 0.5 ? log(x) : log1p(-y)) +
	        b * (y < 0.5 ? log(y) : log1p(-x)) - stat_lbeta(a, b);
	if (x < (a + 1) / (a + b + 2))
		return exp(front) * beta_cf(x, a, b) / a;
	return 1 - exp(front) * beta_cf(y, b, a) / b;
}

double stat_pbeta(double x, double a, double b)
{
	return pbeta_xy(x, 1 - x, a, b);
}

/* P(T > |t|) = ½ I_{ν/(ν+t²)}(ν/2, ½). */
static double t_upper_tail(double t, double df)
{
	double t2 = t * t;

	return 0.5 * pbeta_xy(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
}

double stat_pt(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = t_upper_tail(t, df);
	return t > 0 ? 1 - tail : tail;
}

static double t_density(double t, double df)
{
	return exp(-stat_lbeta(df / 2, 0.5) - 0.5 * log(df) -
	           (df + 1) / 2 * log1p(t * t / df));
}

/* Quantile of Student's t for any df >= 1: closed forms for df 1 and 2,
 * otherwise Newton steps on the upper tail kept inside a bisection
 * bracket, from the first Cornish-Fisher term. */
double stat_qt(double p, double df)
{
	double tail = p < 0.5 ? p : 1 - p, lo = 0, hi, q;
	int i;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (df == 1)
		q = tan(M_PI * (0.5 - tail));
	else if (df == 2)
		q = sqrt(2 / (4 * tail * (1 - tail)) - 2);
	else {
		double z = -stat_qnorm(tail);

		q = z + (z * z * z + z) / (4 * df);
		hi = q;
		while (t_upper_tail(hi, df) > tail)
			hi *= 2;
		for (i = 0; i < 200; i++) {
			double s = t_upper_tail(q, df) - tail, next;

			if (s > 0)
				lo = q;
			else
				hi = q;
			next = q + s / t_density(q, df);
			if (!(next > lo && next < hi))
				next = (lo + hi) / 2;
			if (fabs(next - q) <= 4 * DBL_EPSILON * q) {
				q = next;
				break;
			}
			q = next;
		}
	}
	return p < 0.5 ? -q : q;
}

#include <float.h>
#include <math.h>
#include <stdint.h>

#include "err.h"
#include "stats.h"

/* Welford on x - shift, the shift being the first value: a large common
 * offset (times of 1e12 ns) then costs no precision. */
void welford_add(struct welford *w, double x)
{
	double d;

	if (w->n == 0)
		w->shift = x;
	x -= w->shift;
	d = x - w->mean;
	w->n += 1;
	w->mean += d / w->n;
	w->m2 += d * (x - w->mean);
}

double welford_mean(const struct welford *w)
{
	return w->shift + w->mean;
}

double welford_var(const struct welford *w)
{
	return w->n > 1 ? w->m2 / (w->n - 1) : NAN;
}

/* As R's mean: the sum and one refinement pass in long double (80 bits
 * on x86; on systems where long double is double this is plain double). */
double stat_mean(const double *x, size_t n)
{
	long double s = 0, m, c = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	m = s / (long double)n;
	for (i = 0; i < n; i++)
		c += x[i] - m;
	return (double)(m + c / (long double)n);
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

/* The central moments m2, m3, m4 of x (n denominator); -1 when n < 8 or
 * the values all equal their mean to rounding: no shape to judge. */
static int central_moments(const double *x, size_t n, double m[3])
{
	double mean, d = (double)n;
	size_t i;

	if (n < 8)
		return -1;
	mean = stat_mean(x, n);
	m[0] = m[1] = m[2] = 0;
	for (i = 0; i < n; i++) {
		double e = x[i] - mean;

		m[0] += e * e;
		m[1] += e * e * e;
		m[2] += e * e * e * e;
	}
	m[0] /= d, m[1] /= d, m[2] /= d;
	return m[0] > 0 && sqrt(m[0]) > 1e-12 * fabs(mean) ? 0 : -1;
}

int stat_skew_test(const double *x, size_t n, double *g1, double *z)
{
	double m[3], b1, y, beta2, w2, delta, alpha, u, d = (double)n;

	if (central_moments(x, n, m) < 0)
		return -1;
	b1 = m[1] / (m[0] * sqrt(m[0]));
	y = b1 * sqrt((d + 1) * (d + 3) / (6 * (d - 2)));
	beta2 = 3 * (d * d + 27 * d - 70) * (d + 1) * (d + 3) /
	        ((d - 2) * (d + 5) * (d + 7) * (d + 9));
	w2 = -1 + sqrt(2 * (beta2 - 1));
	delta = 1 / sqrt(log(sqrt(w2)));
	alpha = sqrt(2 / (w2 - 1));
	u = y / alpha;
	*g1 = b1;
	*z = delta * asinh(u);
	return 0;
}

int stat_kurtosis_test(const double *x, size_t n, double *b2, double *z)
{
	double m[3], b, eb2, vb2, m3, a, u, den, r, d = (double)n;

	if (central_moments(x, n, m) < 0)
		return -1;
	b = m[2] / (m[0] * m[0]);
	eb2 = 3 * (d - 1) / (d + 1);
	vb2 = 24 * d * (d - 2) * (d - 3) / ((d + 1) * (d + 1) * (d + 3) * (d + 5));
	m3 = 6 * (d * d - 5 * d + 2) / ((d + 7) * (d + 9)) *
	     sqrt(6 * (d + 3) * (d + 5) / (d * (d - 2) * (d - 3)));
	a = 6 + 8 / m3 * (2 / m3 + sqrt(1 + 4 / (m3 * m3)));
	u = (b - eb2) / sqrt(vb2);
	den = 1 + u * sqrt(2 / (a - 4));
	*b2 = b;
	/* as the kurtosis falls, den falls to 0 and z to minus infinity;
	 * flatter still, den < 0 is past the approximation's reach, where R's
	 * moments gives NaN and a real cube root (SciPy's) a large positive z,
	 * the wrong side: it is minus infinity's side */
	if (!(den > 0)) {
		*z = -INFINITY;
		return 0;
	}
	r = cbrt((1 - 2 / a) / den);
	*z = (1 - 2 / (9 * a) - r) / sqrt(2 / (9 * a));
	return 0;
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

/* log1p keeps the digits near a == b, where a - b is exact; log(a/b) is
 * well conditioned once a > 2b, where log1p((a-b)/b) is not as a << b.
 * Taking a >= b only makes swapping a and b negate lr exactly. */
double stat_log_ratio(double a, double b)
{
	if (a < b)
		return -stat_log_ratio(b, a);
	if (a <= 2 * b)
		return log1p((a - b) / b);
	return isfinite(a / b) ? log(a / b) : log(a) - log(b);   /* 1e300/1e-300 */
}

/* Deviations divided by their largest magnitude: the sums of squares of
 * values near 1e-160 or 1e160 then neither underflow nor overflow. */
static double cor_scaled(const double *x, const double *y, size_t n, double mx, double my)
{
	double sx = 0, sy = 0, sxy = 0, sxx = 0, syy = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sx = fmax(sx, fabs(x[i] - mx));
		sy = fmax(sy, fabs(y[i] - my));
	}
	if (sx == 0 || sy == 0)
		return NAN;   /* one variable does not vary */
	for (i = 0; i < n; i++) {
		double u = (x[i] - mx) / sx, v = (y[i] - my) / sy;
		sxy += u * v;
		sxx += u * u;
		syy += v * v;
	}
	return sxy / sqrt(sxx * syy);
}

double stat_cor(const double *x, const double *y, size_t n)
{
	double mx = stat_mean(x, n), my = stat_mean(y, n);
	double sxy = 0, sxx = 0, syy = 0, p;
	size_t i;

	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	p = sxx * syy;
	if (!(p >= DBL_MIN && p <= DBL_MAX) || !isfinite(sxy))
		return cor_scaled(x, y, n, mx, my);   /* too small or too large */
	return sxy / sqrt(p);
}

double stat_pnorm(double x)
{
	return 0.5 * erfc(-x / sqrt(2.0));
}

/* ln Φ(x) for x < 0: through erfc while it does not underflow, then the
 * asymptotic series (A&S 26.2.12), exact to double precision for x < -37. */
static double log_pnorm_lower(double x)
{
	double x2, s;

	if (x > -37)
		return log(stat_pnorm(x));
	x2 = 1 / (x * x);
	s = 1 - x2 * (1 - 3 * x2 * (1 - 5 * x2 * (1 - 7 * x2 * (1 - 9 * x2))));
	return -0.5 / x2 - log(-x) - 0.5 * log(2 * M_PI) + log(s);
}

/* Start from Abramowitz & Stegun 26.2.23 (error < 4.5e-4). Near the
 * middle, Newton on 0.5 erf(x/√2) = p - 0.5 (p - 0.5 is exact there); in
 * the tails, Newton on ln Φ(x) = ln q, which keeps its precision down to
 * the smallest subnormal q. */
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
	if (q > 0.25) {
		double c = q - 0.5;   /* exact: Sterbenz */

		for (i = 0; i < 6; i++) {
			double f = 0.5 * erf(x / sqrt(2.0)) - c;
			double phi = exp(-x * x / 2) / sqrt(2 * M_PI);
			x -= f / (phi + x * f / 2);   /* Halley */
		}
	} else {
		double lq = log(q);

		for (i = 0; i < 8; i++) {
			double lphi = -x * x / 2 - 0.5 * log(2 * M_PI);
			double lp = log_pnorm_lower(x), g = lp - lq, step;

			step = g / exp(lphi - lp);
			x -= step;
			if (fabs(step) <= 2 * DBL_EPSILON * fabs(x))
				break;
		}
	}
	return p < 0.5 ? x : -x;
}

/* D(a) = ln(Γ(a+½) / (Γ(a) √a)) for a ≥ ½, small (about -1/(8a)) and
 * kept apart from ½ ln a so that callers cancel nothing. For a ≥ 10 the
 * Bernoulli series: the term in a^(1-k) is (2^(1-k) - 2) B_k / (k (k-1)),
 * k = 2, 4, ..., 18 (the next one is below 3e-19 at a = 10); below,
 * D(a) = D(a+1) + ½ ln(a (a+1) / (a+½)²) from Γ(a+1) = a Γ(a), each step
 * a small term: ½ log1p(-¼ / (a+½)²). */
static double lgamma_half_ratio(double a)
{
	/* the series over -1/(8a), in powers of 1/a² */
	static const double c[] = {
		1, -1.0 / 24, 1.0 / 80, -17.0 / 1792, 31.0 / 2304, -691.0 / 22528,
		5461.0 / 53248, -929569.0 / 1966080, 3202291.0 / 1114112,
	};
	double shift = 0, x, r = 0;
	int k;

	for (; a < 10; a += 1)
		shift += 0.5 * log1p(-0.25 / ((a + 0.5) * (a + 0.5)));
	x = 1 / (a * a);
	for (k = (int)LEN(c) - 1; k >= 0; k--)
		r = r * x + c[k];
	return shift - r / (8 * a);
}

static const double ln_sqrt_pi = 0.57236494292470008707;   /* ln √π */

double stat_lbeta(double a, double b)
{
	if (b == 0.5 && a >= 0.5)
		return ln_sqrt_pi - 0.5 * log(a) - lgamma_half_ratio(a);
	if (a == 0.5 && b >= 0.5)
		return ln_sqrt_pi - 0.5 * log(b) - lgamma_half_ratio(b);
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
/* x^a y^b / B(a, b). As a product of powers where x (or y) is below ½
 * and so held exactly: the exponential of a long logarithm loses |a ln x|
 * ulps. Near 1, log1p of the other keeps the bits. In logarithms only
 * where a factor would underflow or overflow. */
static double beta_front(double x, double y, double a, double b)
{
	double lx = x < 0.5 ? log(x) : log1p(-y), ly = y < 0.5 ? log(y) : log1p(-x);
	double lb = stat_lbeta(a, b);
	double px = x < 0.5 ? pow(x, a) : exp(a * lx), py = y < 0.5 ? pow(y, b) : exp(b * ly);
	double f = px * py * exp(-lb);

	if (px >= DBL_MIN && py >= DBL_MIN && fabs(lb) < 700 && f >= DBL_MIN && f <= DBL_MAX)
		return f;
	return exp(a * lx + b * ly - lb);
}

static double pbeta_xy(double x, double y, double a, double b)
{
	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	if (x < (a + 1) / (a + b + 2))
		return beta_front(x, y, a, b) * beta_cf(x, a, b) / a;
	return 1 - beta_front(x, y, a, b) * beta_cf(y, b, a) / b;
}

double stat_pbeta(double x, double a, double b)
{
	return pbeta_xy(x, 1 - x, a, b);
}

/* I_x is increasing in x: halving [lo, hi] until the two are neighbours
 * (or 1100 halvings, which reach the smallest double from [0, 1]). */
double stat_qbeta(double p, double a, double b)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (p <= 0)
		return 0;
	if (p >= 1)
		return 1;
	for (i = 0; i < 1100; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (stat_pbeta(mid, a, b) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/* Large df: the expansion of the incomplete beta for one large parameter
 * and one at most 1 (Didonato and Morris, ACM TOMS 708, 1992: BGRAT). With
 * s = e^-r,
 *   I_x(a, ½) B(a, ½) = ∫_{r0}^∞ e^(-Tr) r^(-½) h(r) dr,
 *   T = a - ¼, r0 = -ln x, h(r) = (sinh(r/2) / (r/2))^(-½) = Σ d_n r^(2n),
 * and term by term ∫_{r0}^∞ e^(-Tr) r^(2n-½) dr = Γ(2n+½, T r0) / T^(2n+½):
 * asymptotic in 1/T, with terms shrinking like (r0/2π)^2 and (2n/T)^2. For
 * the t distribution a = ν/2, r0 = ln(1 + t²/ν), and the leading term is
 * the normal tail at z = √(T r0) ≈ |t|/√2, so nothing cancels: every term
 * is positive or a small correction. The same over [0, r0] with the lower
 * incomplete gamma gives P(0 < T < t) near the middle. */
#define BGRAT_TERMS 40

/* d_0..d_{m-1} by J. C. P. Miller's recurrence for a power of a series:
 * sinh(u)/u = Σ c_k r^(2k) with u = r/2, c_k = 1 / ((2k+1)! 4^k). */
static void bgrat_coef(double *d, int m)
{
	double c[BGRAT_TERMS];
	int n, k;

	c[0] = 1;
	for (k = 1; k < m; k++)
		c[k] = c[k - 1] / ((2.0 * k) * (2.0 * k + 1) * 4);
	d[0] = 1;
	for (n = 1; n < m; n++) {
		double s = 0;
		for (k = 1; k <= n; k++)
			s += (0.5 * k - n) * c[k] * d[n - k];
		d[n] = s / n;
	}
}

/* Add the terms d_n g_n (g_0 = 1) until they fall below the sum's last
 * bit; 0 when they stop shrinking first (the expansion does not reach
 * double precision there). next(state, n) gives g_n for n = 1, 2, ... */
static int bgrat_sum(double (*next)(double *, int), double *state, double *sum)
{
	double d[BGRAT_TERMS], s = 1, prev = INFINITY;
	int n;

	bgrat_coef(d, BGRAT_TERMS);
	for (n = 1; n < BGRAT_TERMS; n++) {
		double term = d[n] * next(state, n);

		s += term;
		if (fabs(term) <= 0x1p-60 * s) {
			*sum = s;
			return 1;
		}
		if (fabs(term) >= prev)
			return 0;
		prev = fabs(term);
	}
	return 0;
}

/* Γ(2n+½, z) / (T^(2n) Γ(½, z)) from n - 1 by two steps of
 * Γ(s+1, z) = s Γ(s, z) + z^s e^-z, each divided by T. state: s, the
 * ratio, and z^s e^-z / (T^(s-½) Γ(½, z)), z / T. */
static double upper_next(double *st, int n)
{
	int i;

	(void)n;
	for (i = 0; i < 2; i++) {
		st[1] = (st[0] * st[1] + st[2]) / st[4];
		st[2] *= st[3] / st[4];
		st[0] += 1;
	}
	return st[1];
}

/* P(T > t), t > 0, by the expansion; 0 when it does not converge. */
static int t_tail_bgrat(double t, double df, double *tail)
{
	double a = df / 2, T = a - 0.25, u = t * t / df, sum, g0, lg0;
	/* z = T ln(1 + u) as w² with w = t √(T/ν · ln(1 + u)/u): t enters
	 * exactly and the rounding of u barely moves ln(1 + u)/u */
	double r0 = log1p(u), w = t * sqrt(T / df * (r0 / u)), z = w * w;
	double st[5];

	if (df < 10 || r0 > 3 || u == 0)
		return 0;
	/* Γ(½, z) = √π erfc(w), in logs where erfc underflows */
	g0 = erfc(w);
	lg0 = g0 > 1e-300 ? log(g0) : log(2) + log_pnorm_lower(-w * sqrt(2.0));
	st[0] = 0.5;
	st[1] = 1;
	st[2] = exp(log(w) - z - lg0 - ln_sqrt_pi);   /* z^½ e^-z / Γ(½, z) */
	st[3] = z;
	st[4] = T;
	if (!bgrat_sum(upper_next, st, &sum))
		return 0;
	/* ½ Γ(½, z) Σ / (B(a, ½) √T), with 1 / B(a, ½) = √a e^D / √π */
	sum *= 0.5 * exp(lgamma_half_ratio(a) - 0.5 * log1p(-0.25 / a));
	*tail = g0 > 1e-300 ? g0 * sum : exp(lg0 + log(sum));
	return 1;
}

/* M(s, z) = Σ_k z^k / (s (s+1) ... (s+k)), so γ(s, z) = z^s e^-z M(s, z). */
static double lower_series(double s, double z)
{
	double term = 1 / s, m = term;
	int k;

	for (k = 1; k < 1000 && term > 0x1p-60 * m; k++) {
		term *= z / (s + k);
		m += term;
	}
	return m;
}

/* γ(2n+½, z) / (T^(2n) γ(½, z)) = r0^(2n) M(2n+½, z) / M(½, z).
 * state: z, r0², M(½, z), r0^(2n) so far. */
static double lower_next(double *st, int n)
{
	st[3] *= st[1];
	return st[3] * lower_series(2 * n + 0.5, st[0]) / st[2];
}

/* P(0 < T < t), 0 < t < 1, by the expansion; 0 when it does not converge. */
static int t_center_bgrat(double t, double df, double *center)
{
	double a = df / 2, T = a - 0.25, r0 = log1p(t * t / df), z = T * r0, sum;
	double st[4];

	if (df < 10)
		return 0;
	st[0] = z;
	st[1] = r0 * r0;
	st[2] = lower_series(0.5, z);
	st[3] = 1;
	if (!bgrat_sum(lower_next, st, &sum))
		return 0;
	/* ½ z^½ e^-z M(½, z) Σ / (B(a, ½) √T), z^½ / √T = √r0 */
	*center = 0.5 * sqrt(a * r0) * st[2] * sum *
	          exp(lgamma_half_ratio(a) - z) / exp(ln_sqrt_pi);
	return 1;
}

/* P(T > |t|) = ½ I_{ν/(ν+t²)}(ν/2, ½). */
static double t_upper_tail(double t, double df)
{
	double t2 = t * t, tail, a = df / 2, lx, xa;

	if (t_tail_bgrat(fabs(t), df, &tail))
		return tail;
	if (t2 < 0x1p900 * df)
		return 0.5 * pbeta_xy(df / (df + t2), t2 / (df + t2), a, 0.5);
	/* x = ν/(ν+t²) below 2^-900 (or t² beyond the doubles): the first
	 * term of I_x(a, ½) = x^a / (a B(a, ½)) (1 + O(x)), with
	 * x^a = (ν/t)^a t^-a, in logarithms where that underflows */
	t = fabs(t);
	xa = pow(df / t, a) * pow(t, -a);
	if (xa >= DBL_MIN)
		return 0.5 * xa / a * exp(-stat_lbeta(a, 0.5));
	lx = log(df) - 2 * log(t);
	return 0.5 * exp(a * lx - log(a) - stat_lbeta(a, 0.5));
}

/* P(0 < T < |t|) = ½ I_{t²/(ν+t²)}(½, ν/2): exact near 0, where the tail
 * form would lose everything to 0.5 - tail. */
static double t_center(double t, double df)
{
	double t2 = t * t, center;

	if (t_center_bgrat(fabs(t), df, &center))
		return center;
	return 0.5 * pbeta_xy(t2 / (df + t2), df / (df + t2), 0.5, df / 2);
}

double stat_pt(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	if (fabs(t) < 1)
		return t > 0 ? 0.5 + t_center(t, df) : 0.5 - t_center(t, df);
	tail = t_upper_tail(t, df);
	return t > 0 ? 1 - tail : tail;
}

static double t_density(double t, double df)
{
	return exp(lgamma_half_ratio(df / 2) - ln_sqrt_pi - 0.5 * log(2) -
	           (df + 1) / 2 * log1p(t * t / df));
}

/* What stat_qt solves for: the q > 0 with t_center(q) = center (near the
 * middle) or t_upper_tail(q) = tail (beyond it). */
struct t_problem {
	double df, tail, center, ltail;
	int use_center;
};

/* The side of the equation that depends on q: one pbeta each. */
static double t_side(const struct t_problem *pr, double q)
{
	return pr->use_center ? t_center(q, pr->df) : t_upper_tail(q, pr->df);
}

/* Is q, whose t_side is v, still below the root? */
static int below_root(const struct t_problem *pr, double v)
{
	return pr->use_center ? v < pr->center : v > pr->tail;
}

static double newton_step(const struct t_problem *pr, double q, double v)
{
	double f = t_density(q, pr->df);

	if (pr->use_center)
		return q - (v - pr->center) / f;
	{
		/* on ln S(q) = ln tail in u = ln q: heavy tails converge fast */
		/* log(v / tail) near the root, where log(v) - log(tail)
		 * would cancel two logarithms of up to 745 */
		double r = v / pr->tail, g = r > 1e-300 && r < 1e300 ? log(r) : log(v) - pr->ltail;
		return q * exp(g * v / (q * f));
	}
}

/* Solve from q: bracket [lo, hi] by doubling, then Newton steps, and
 * bisection (geometric once lo > 0) when a step leaves the bracket. Each
 * q's t_side is computed once. */
static double solve_t(const struct t_problem *pr, double q)
{
	double lo = 0, hi = q, v;
	int i;

	while (below_root(pr, v = t_side(pr, hi))) {
		lo = hi;
		hi *= 2;
	}
	if (q != hi)
		v = t_side(pr, q);
	for (i = 0; i < 400; i++) {
		double next;

		if (below_root(pr, v))
			lo = q > lo ? q : lo;
		else
			hi = q < hi ? q : hi;
		next = newton_step(pr, q, v);
		/* converged: a step within the last bits (next may equal the
		 * end q just set, when t_side(q) is the target exactly) */
		if (fabs(next - q) <= 2 * DBL_EPSILON * q && next >= lo && next <= hi)
			return next;
		if (!(next > lo && next < hi))
			next = lo > 0 ? sqrt(lo) * sqrt(hi) : hi / 2;
		if (hi - lo <= 2 * DBL_EPSILON * hi)
			return next;
		q = next;
		v = t_side(pr, q);
	}
	return q;
}

/* Quantile of Student's t for any df >= 1: closed forms for df 1 and 2,
 * otherwise Newton from the first Cornish-Fisher term: on the central
 * probability near p = 0.5, on the log of the tail beyond. The
 * probabilities come from that expansion for df >= 10 and the
 * incomplete beta below, each to a few ulps, so the quantile is within
 * 1e-15 (relative) of the exact one at every df: t/unit/stats.c. */
double stat_qt(double p, double df)
{
	double tail = p < 0.5 ? p : 1 - p, c = 0.5 - tail, q;
	struct t_problem pr;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (df == 1) {
		q = tail > 0.25 ? tan(M_PI * c) : 1 / tan(M_PI * tail);
	} else if (df == 2) {
		q = 2 * c / sqrt(2 * tail * (1 - tail));
	} else {
		double z = -stat_qnorm(tail);

		pr.df = df;
		pr.tail = tail;
		pr.center = c;
		pr.ltail = log(tail);
		pr.use_center = tail > 0.25;
		q = solve_t(&pr, z + (z * z * z + z) / (4 * df));
	}
	return p < 0.5 ? -q : q;
}

/* The regularized gamma P(a, x) by its series (x < a + 1), or Q(a, x) by
 * its continued fraction (modified Lentz) beyond: each where it
 * converges fast; upper says which of the two is returned. */
static double gamma_series(double a, double x)
{
	double sum = 1 / a, term = sum;
	int n;

	for (n = 1; n < 100000; n++) {
		term *= x / (a + n);
		sum += term;
		if (fabs(term) < fabs(sum) * DBL_EPSILON)
			break;
	}
	return sum * exp(-x + a * log(x) - lgamma(a));
}

static double gamma_cf(double a, double x)
{
	const double tiny = 1e-300;
	double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
	int i;

	for (i = 1; i < 100000; i++) {
		double an = -i * (i - a), del;

		b += 2;
		d = an * d + b;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = b + an / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 2 * DBL_EPSILON)
			break;
	}
	return exp(-x + a * log(x) - lgamma(a)) * h;
}

double stat_pchisq_upper(double x, double df)
{
	double a = df / 2, z = x / 2;

	if (!(x > 0))
		return 1;
	if (isinf(x))
		return 0;
	return z < a + 1 ? 1 - gamma_series(a, z) : gamma_cf(a, z);
}

double stat_qchisq_upper(double p, double df)
{
	double lo = 0, hi = df + 10, mid;

	if (p >= 1)
		return 0;
	if (!(p > 0))
		return INFINITY;
	while (stat_pchisq_upper(hi, df) > p)
		hi *= 2;
	/* to the last bit: stop when the midpoint is one of the ends */
	for (;;) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			return mid;
		if (stat_pchisq_upper(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
}

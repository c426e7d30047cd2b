/* Shortest round-trip printing of doubles: Grisu2 (Loitsch, "Printing
 * floating-point numbers quickly and accurately with integers", PLDI 2010),
 * written after Milo Yip's dtoa.  Grisu2's digits always read back to the
 * same double; they are the shortest such digits for all but a tiny share
 * of inputs, and when one digit fewer would do, shorten() finds it.
 * glibc's exact printf costs ~500 ns a number here; this costs ~50. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "pow10.h"

struct diyfp {
	uint64_t f;
	int e;
};

static const uint32_t pow10_u32[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000,
};

static struct diyfp diy_mul(struct diyfp x, struct diyfp y)
{
	const uint64_t m32 = 0xffffffffu;
	uint64_t a = x.f >> 32, b = x.f & m32, c = y.f >> 32, d = y.f & m32;
	uint64_t ac = a * c, bc = b * c, ad = a * d, bd = b * d;
	uint64_t mid = (bd >> 32) + (ad & m32) + (bc & m32) + (UINT64_C(1) << 31);
	struct diyfp r = { ac + (ad >> 32) + (bc >> 32) + (mid >> 32), x.e + y.e + 64 };

	return r;
}

/* Shift the top set bit to bit 63 in at most six steps. */
static struct diyfp diy_normalize(struct diyfp x)
{
	static const int steps[] = { 32, 16, 8, 4, 2, 1 };
	int i;

	for (i = 0; i < 6; i++)
		if (!(x.f >> (64 - steps[i]))) {
			x.f <<= steps[i];
			x.e -= steps[i];
		}
	return x;
}

static struct diyfp diy_from_double(double d)
{
	uint64_t u, frac;
	int biased;
	struct diyfp r;

	memcpy(&u, &d, sizeof u);
	biased = (int)((u >> 52) & 0x7ff);
	frac = u & ((UINT64_C(1) << 52) - 1);
	if (biased) {
		r.f = frac + (UINT64_C(1) << 52);
		r.e = biased - 1075;
	} else {
		r.f = frac;
		r.e = -1074;
	}
	return r;
}

/* The boundaries m- and m+ halfway to the neighbouring doubles. */
static void boundaries(struct diyfp v, struct diyfp *minus, struct diyfp *plus)
{
	struct diyfp pl = { (v.f << 1) + 1, v.e - 1 };
	struct diyfp mi;

	pl = diy_normalize(pl);
	if (v.f == (UINT64_C(1) << 52)) {
		mi.f = (v.f << 2) - 1;
		mi.e = v.e - 2;
	} else {
		mi.f = (v.f << 1) - 1;
		mi.e = v.e - 1;
	}
	mi.f <<= mi.e - pl.e;
	mi.e = pl.e;
	*plus = pl;
	*minus = mi;
}

static struct diyfp cached_power(int e, int *k10)
{
	double dk = (-61 - e) * 0.30102999566398114 + 347;
	int k = (int)dk;
	unsigned i;
	struct diyfp r;

	if (dk - k > 0.0)
		k++;
	i = (unsigned)((k >> 3) + 1);
	*k10 = -(-348 + (int)i * 8);
	r.f = pow10_f[i];
	r.e = pow10_e[i];
	return r;
}

static void grisu_round(char *buf, int len, uint64_t delta, uint64_t rest,
                        uint64_t ten_kappa, uint64_t wp_w)
{
	while (rest < wp_w && delta - rest >= ten_kappa &&
	       (rest + ten_kappa < wp_w ||
	        wp_w - rest > rest + ten_kappa - wp_w)) {
		buf[len - 1]--;
		rest += ten_kappa;
	}
}

static int count_digits(uint32_t n)
{
	int d = 1;

	while (d < 10 && n >= pow10_u32[d])
		d++;
	return d;
}

/* Leading digit of p1 at 10^k, with constant divisors (a variable divide
 * is the slowest step here). */
static uint32_t split_digit(uint32_t *p1, int k)
{
	uint32_t d;

	switch (k) {
	case 9: d = *p1 / 1000000000u; *p1 %= 1000000000u; break;
	case 8: d = *p1 / 100000000u; *p1 %= 100000000u; break;
	case 7: d = *p1 / 10000000u; *p1 %= 10000000u; break;
	case 6: d = *p1 / 1000000u; *p1 %= 1000000u; break;
	case 5: d = *p1 / 100000u; *p1 %= 100000u; break;
	case 4: d = *p1 / 10000u; *p1 %= 10000u; break;
	case 3: d = *p1 / 1000u; *p1 %= 1000u; break;
	case 2: d = *p1 / 100u; *p1 %= 100u; break;
	case 1: d = *p1 / 10u; *p1 %= 10u; break;
	default: d = *p1; *p1 = 0; break;
	}
	return d;
}

static int digit_gen(struct diyfp w, struct diyfp mp, uint64_t delta,
                     char *buf, int *k10)
{
	struct diyfp one = { UINT64_C(1) << -mp.e, mp.e };
	uint64_t wp_w = mp.f - w.f;
	uint32_t p1 = (uint32_t)(mp.f >> -one.e);
	uint64_t p2 = mp.f & (one.f - 1);
	int kappa = count_digits(p1), len = 0;

	while (kappa > 0) {
		uint32_t d = split_digit(&p1, kappa - 1);
		uint64_t rest;

		if (d || len)
			buf[len++] = (char)('0' + d);
		kappa--;
		rest = ((uint64_t)p1 << -one.e) + p2;
		if (rest <= delta) {
			*k10 += kappa;
			grisu_round(buf, len, delta, rest,
			            (uint64_t)pow10_u32[kappa] << -one.e, wp_w);
			return len;
		}
	}
	for (;;) {
		uint64_t d;

		p2 *= 10;
		delta *= 10;
		d = p2 >> -one.e;
		if (d || len)
			buf[len++] = (char)('0' + d);
		p2 &= one.f - 1;
		kappa--;
		if (p2 < delta) {
			uint64_t unit = 1;
			int i;

			*k10 += kappa;
			for (i = 0; i < -kappa && i < 19; i++)
				unit *= 10;
			grisu_round(buf, len, delta, p2, one.f, wp_w * unit);
			return len;
		}
	}
}

/* Digits of x > 0 (finite): x ~ buf[0..len) * 10^k10. */
static int grisu2(double x, char *buf, int *k10)
{
	struct diyfp v = diy_from_double(x), mi, pl, c, w, wp, wm;

	boundaries(v, &mi, &pl);
	c = cached_power(pl.e, k10);
	w = diy_mul(diy_normalize(v), c);
	wp = diy_mul(pl, c);
	wm = diy_mul(mi, c);
	wm.f++;
	wp.f--;
	return digit_gen(w, wp, wp.f - wm.f, buf, k10);
}

/* Does digits * 10^k10 read back as x?  Exact (Clinger's fast path) when
 * it applies, strtod otherwise. */
static int reads_back(const char *digits, int len, int k10, double x)
{
	uint64_t m = 0;
	double v;
	char tmp[40];
	int i;

	for (i = 0; i < len; i++)
		m = m * 10 + (uint64_t)(digits[i] - '0');
	if (num_exact(m, k10, &v))
		return v == x;
	memcpy(tmp, digits, (size_t)len);
	tmp[len] = 'e';
	num_format_i64(tmp + len + 1, k10);
	return strtod(tmp, NULL) == x;
}

/* One digit fewer: buf[0..len-1) rounded up (up != 0) or truncated, with
 * trailing zeros dropped. Returns the digit count; *e gets the exponent of
 * the last digit. Rounding 99..9 up gives 1 at the next decade. */
static int drop_digit(const char *buf, int len, int k10, int up, char *c, int *e)
{
	int n = len - 1, i;

	memcpy(c, buf, (size_t)n);
	*e = k10 + 1;
	if (up) {
		for (i = n - 1; i >= 0 && c[i] == '9'; i--)
			c[i] = '0';
		if (i < 0) {
			c[0] = '1';
			*e = k10 + len;
			return 1;
		}
		c[i]++;
	}
	while (n > 1 && c[n - 1] == '0') {
		n--;
		(*e)++;
	}
	return n;
}

/* Grisu2 can miss the shortest form by a digit; try one digit fewer,
 * rounded to nearest (both ways on a final 5), and keep what reads back. */
static int shorten(double x, char *buf, int len, int *k10)
{
	char c[20];

	while (len > 1) {
		int e, n = drop_digit(buf, len, *k10, buf[len - 1] >= '5', c, &e);

		if (!reads_back(c, n, e, x)) {
			if (buf[len - 1] != '5')
				break;
			n = drop_digit(buf, len, *k10, 0, c, &e);
			if (!reads_back(c, n, e, x))
				break;
		}
		memcpy(buf, c, (size_t)n);
		*k10 = e;
		len = n;
	}
	return len;
}

static size_t put_exponent(char *p, int e)
{
	char *start = p;

	*p++ = 'e';
	if (e < 0) {
		*p++ = '-';
		e = -e;
	}
	if (e >= 100)
		*p++ = (char)('0' + e / 100);
	if (e >= 10)
		*p++ = (char)('0' + e / 10 % 10);
	*p++ = (char)('0' + e % 10);
	return (size_t)(p - start);
}

/* Lay out digits * 10^k10 as fixed notation for decimal exponents in
 * [-5, 21), scientific otherwise (JavaScript's rule, but scientific from
 * 1e-6 instead of 1e-7, so no field starts with more than five zeros). */
static size_t layout(char *out, const char *d, int len, int k10)
{
	int exp10 = len + k10 - 1;
	char *p = out;

	if (exp10 >= -5 && exp10 < 21) {
		if (k10 >= 0) {
			memcpy(p, d, (size_t)len);
			p += len;
			memset(p, '0', (size_t)k10);
			p += k10;
		} else if (exp10 >= 0) {
			memcpy(p, d, (size_t)(exp10 + 1));
			p += exp10 + 1;
			*p++ = '.';
			memcpy(p, d + exp10 + 1, (size_t)(len - exp10 - 1));
			p += len - exp10 - 1;
		} else {
			*p++ = '0';
			*p++ = '.';
			memset(p, '0', (size_t)(-exp10 - 1));
			p += -exp10 - 1;
			memcpy(p, d, (size_t)len);
			p += len;
		}
	} else {
		*p++ = d[0];
		if (len > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)(len - 1));
			p += len - 1;
		}
		p += put_exponent(p, exp10);
	}
	*p = '\0';
	return (size_t)(p - out);
}

size_t num_format_i64(char buf[NUM_BUFSZ], int64_t x)
{
	char tmp[24];
	int n = 0;
	size_t len = 0;
	uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (x < 0)
		buf[len++] = '-';
	while (n > 0)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

size_t num_format(char buf[NUM_BUFSZ], double x)
{
	char digits[20];
	int len, k10;
	size_t n = 0;

	if (x == 0) {
		strcpy(buf, "0");
		return 1;
	}
	if (!isfinite(x)) {  /* never printed by design; be explicit if asked */
		strcpy(buf, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
		return strlen(buf);
	}
	if (fabs(x) < 9007199254740992.0 && x == (double)(int64_t)x)
		return num_format_i64(buf, (int64_t)x);
	if (x < 0) {
		buf[n++] = '-';
		x = -x;
	}
	len = grisu2(x, digits, &k10);
	len = shorten(x, digits, len, &k10);
	return n + layout(buf + n, digits, len, k10);
}

void num_put(FILE *f, double x)
{
	char buf[NUM_BUFSZ];
	size_t n = num_format(buf, x);

	fwrite(buf, 1, n, f);
}

/* The number printer pb had before Schubfach (lib/num_format.c up to
 * commit 13c7956): Grisu2 with a shortening check, kept verbatim (names
 * prefixed) as the reference that t/unit/num.c and share/dev/num-compare.c
 * compare the new printer against digit for digit. Test code only.
 * grisu_format(buf, x) is the old num_format(buf, x), grisu_format_i64
 * the old num_format_i64. */
#ifndef PB_T_GRISU_H
#define PB_T_GRISU_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* The old lib/pow10.h. Normalized 64-bit significands f and binary exponents e with
 * f * 2^e = 10^k rounded to nearest, for k = -348, -340, ..., 340.
 * Generated with exact rational arithmetic (python3 fractions):
 *   for k in range(-348, 341, 8): f = round(10**k / 2**e), 2**63 <= f < 2**64
 * (t/unit/num.c checked entries in the double range against strtod.)
 */
static const uint64_t grisu_pow10_f[] = {
	0xfa8fd5a0081c0288ULL, /* 1e-348 */
	0xbaaee17fa23ebf76ULL, /* 1e-340 */
	0x8b16fb203055ac76ULL, /* 1e-332 */
	0xcf42894a5dce35eaULL, /* 1e-324 */
	0x9a6bb0aa55653b2dULL, /* 1e-316 */
	0xe61acf033d1a45dfULL, /* 1e-308 */
	0xab70fe17c79ac6caULL, /* 1e-300 */
	0xff77b1fcbebcdc4fULL, /* 1e-292 */
	0xbe5691ef416bd60cULL, /* 1e-284 */
	0x8dd01fad907ffc3cULL, /* 1e-276 */
	0xd3515c2831559a83ULL, /* 1e-268 */
	0x9d71ac8fada6c9b5ULL, /* 1e-260 */
	0xea9c227723ee8bcbULL, /* 1e-252 */
	0xaecc49914078536dULL, /* 1e-244 */
	0x823c12795db6ce57ULL, /* 1e-236 */
	0xc21094364dfb5637ULL, /* 1e-228 */
	0x9096ea6f3848984fULL, /* 1e-220 */
	0xd77485cb25823ac7ULL, /* 1e-212 */
	0xa086cfcd97bf97f4ULL, /* 1e-204 */
	0xef340a98172aace5ULL, /* 1e-196 */
	0xb23867fb2a35b28eULL, /* 1e-188 */
	0x84c8d4dfd2c63f3bULL, /* 1e-180 */
	0xc5dd44271ad3cdbaULL, /* 1e-172 */
	0x936b9fcebb25c996ULL, /* 1e-164 */
	0xdbac6c247d62a584ULL, /* 1e-156 */
	0xa3ab66580d5fdaf6ULL, /* 1e-148 */
	0xf3e2f893dec3f126ULL, /* 1e-140 */
	0xb5b5ada8aaff80b8ULL, /* 1e-132 */
	0x87625f056c7c4a8bULL, /* 1e-124 */
	0xc9bcff6034c13053ULL, /* 1e-116 */
	0x964e858c91ba2655ULL, /* 1e-108 */
	0xdff9772470297ebdULL, /* 1e-100 */
	0xa6dfbd9fb8e5b88fULL, /* 1e-92 */
	0xf8a95fcf88747d94ULL, /* 1e-84 */
	0xb94470938fa89bcfULL, /* 1e-76 */
	0x8a08f0f8bf0f156bULL, /* 1e-68 */
	0xcdb02555653131b6ULL, /* 1e-60 */
	0x993fe2c6d07b7facULL, /* 1e-52 */
	0xe45c10c42a2b3b06ULL, /* 1e-44 */
	0xaa242499697392d3ULL, /* 1e-36 */
	0xfd87b5f28300ca0eULL, /* 1e-28 */
	0xbce5086492111aebULL, /* 1e-20 */
	0x8cbccc096f5088ccULL, /* 1e-12 */
	0xd1b71758e219652cULL, /* 1e-4 */
	0x9c40000000000000ULL, /* 1e4 */
	0xe8d4a51000000000ULL, /* 1e12 */
	0xad78ebc5ac620000ULL, /* 1e20 */
	0x813f3978f8940984ULL, /* 1e28 */
	0xc097ce7bc90715b3ULL, /* 1e36 */
	0x8f7e32ce7bea5c70ULL, /* 1e44 */
	0xd5d238a4abe98068ULL, /* 1e52 */
	0x9f4f2726179a2245ULL, /* 1e60 */
	0xed63a231d4c4fb27ULL, /* 1e68 */
	0xb0de65388cc8ada8ULL, /* 1e76 */
	0x83c7088e1aab65dbULL, /* 1e84 */
	0xc45d1df942711d9aULL, /* 1e92 */
	0x924d692ca61be758ULL, /* 1e100 */
	0xda01ee641a708deaULL, /* 1e108 */
	0xa26da3999aef774aULL, /* 1e116 */
	0xf209787bb47d6b85ULL, /* 1e124 */
	0xb454e4a179dd1877ULL, /* 1e132 */
	0x865b86925b9bc5c2ULL, /* 1e140 */
	0xc83553c5c8965d3dULL, /* 1e148 */
	0x952ab45cfa97a0b3ULL, /* 1e156 */
	0xde469fbd99a05fe3ULL, /* 1e164 */
	0xa59bc234db398c25ULL, /* 1e172 */
	0xf6c69a72a3989f5cULL, /* 1e180 */
	0xb7dcbf5354e9beceULL, /* 1e188 */
	0x88fcf317f22241e2ULL, /* 1e196 */
	0xcc20ce9bd35c78a5ULL, /* 1e204 */
	0x98165af37b2153dfULL, /* 1e212 */
	0xe2a0b5dc971f303aULL, /* 1e220 */
	0xa8d9d1535ce3b396ULL, /* 1e228 */
	0xfb9b7cd9a4a7443cULL, /* 1e236 */
	0xbb764c4ca7a44410ULL, /* 1e244 */
	0x8bab8eefb6409c1aULL, /* 1e252 */
	0xd01fef10a657842cULL, /* 1e260 */
	0x9b10a4e5e9913129ULL, /* 1e268 */
	0xe7109bfba19c0c9dULL, /* 1e276 */
	0xac2820d9623bf429ULL, /* 1e284 */
	0x80444b5e7aa7cf85ULL, /* 1e292 */
	0xbf21e44003acdd2dULL, /* 1e300 */
	0x8e679c2f5e44ff8fULL, /* 1e308 */
	0xd433179d9c8cb841ULL, /* 1e316 */
	0x9e19db92b4e31ba9ULL, /* 1e324 */
	0xeb96bf6ebadf77d9ULL, /* 1e332 */
	0xaf87023b9bf0ee6bULL, /* 1e340 */
};
static const int16_t grisu_pow10_e[] = {
	-1220, -1193, -1166, -1140, -1113, -1087, -1060, -1034, -1007, -980, -954, -927, -901, -874, -847, -821, -794, -768, -741, -715, -688, -661, -635, -608, -582, -555, -529, -502, -475, -449, -422, -396, -369, -343, -316, -289, -263, -236, -210, -183, -157, -130, -103, -77, -50, -24, 3, 30, 56, 83, 109, 136, 162, 189, 216, 242, 269, 295, 322, 348, 375, 402, 428, 455, 481, 508, 534, 561, 588, 614, 641, 667, 694, 720, 747, 774, 800, 827, 853, 880, 907, 933, 960, 986, 1013, 1039, 1066
};

static size_t grisu_format_i64(char buf[NUM_BUFSZ], int64_t x)
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

struct grisu_diyfp {
	uint64_t f;
	int e;
};

static const uint32_t grisu_pow10_u32[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	1000000000,
};

static struct grisu_diyfp grisu_diy_mul(struct grisu_diyfp x, struct grisu_diyfp y)
{
	const uint64_t m32 = 0xffffffffu;
	uint64_t a = x.f >> 32, b = x.f & m32, c = y.f >> 32, d = y.f & m32;
	uint64_t ac = a * c, bc = b * c, ad = a * d, bd = b * d;
	uint64_t mid = (bd >> 32) + (ad & m32) + (bc & m32) + (UINT64_C(1) << 31);
	struct grisu_diyfp r = { ac + (ad >> 32) + (bc >> 32) + (mid >> 32), x.e + y.e + 64 };

	return r;
}

/* Shift the top set bit to bit 63 in at most six steps. */
static struct grisu_diyfp grisu_diy_normalize(struct grisu_diyfp x)
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

static struct grisu_diyfp grisu_diy_from_double(double d)
{
	uint64_t u, frac;
	int biased;
	struct grisu_diyfp r;

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

/* The grisu_boundaries m- and m+ halfway to the neighbouring doubles. */
static void grisu_boundaries(struct grisu_diyfp v, struct grisu_diyfp *minus, struct grisu_diyfp *plus)
{
	struct grisu_diyfp pl = { (v.f << 1) + 1, v.e - 1 };
	struct grisu_diyfp mi;

	pl = grisu_diy_normalize(pl);
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

static struct grisu_diyfp grisu_cached_power(int e, int *k10)
{
	double dk = (-61 - e) * 0.30102999566398114 + 347;
	int k = (int)dk;
	unsigned i;
	struct grisu_diyfp r;

	if (dk - k > 0.0)
		k++;
	i = (unsigned)((k >> 3) + 1);
	*k10 = -(-348 + (int)i * 8);
	r.f = grisu_pow10_f[i];
	r.e = grisu_pow10_e[i];
	return r;
}

static void grisu_round_last(char *buf, int len, uint64_t delta, uint64_t rest,
                        uint64_t ten_kappa, uint64_t wp_w)
{
	while (rest < wp_w && delta - rest >= ten_kappa &&
	       (rest + ten_kappa < wp_w ||
	        wp_w - rest > rest + ten_kappa - wp_w)) {
		buf[len - 1]--;
		rest += ten_kappa;
	}
}

static int grisu_count_digits(uint32_t n)
{
	int d = 1;

	while (d < 10 && n >= grisu_pow10_u32[d])
		d++;
	return d;
}

/* Leading digit of p1 at 10^k, with constant divisors (a variable divide
 * is the slowest step here). */
static uint32_t grisu_split_digit(uint32_t *p1, int k)
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

static int grisu_digit_gen(struct grisu_diyfp w, struct grisu_diyfp mp, uint64_t delta,
                     char *buf, int *k10)
{
	struct grisu_diyfp one = { UINT64_C(1) << -mp.e, mp.e };
	uint64_t wp_w = mp.f - w.f;
	uint32_t p1 = (uint32_t)(mp.f >> -one.e);
	uint64_t p2 = mp.f & (one.f - 1);
	int kappa = grisu_count_digits(p1), len = 0;

	while (kappa > 0) {
		uint32_t d = grisu_split_digit(&p1, kappa - 1);
		uint64_t rest;

		if (d || len)
			buf[len++] = (char)('0' + d);
		kappa--;
		rest = ((uint64_t)p1 << -one.e) + p2;
		if (rest <= delta) {
			*k10 += kappa;
			grisu_round_last(buf, len, delta, rest,
			            (uint64_t)grisu_pow10_u32[kappa] << -one.e, wp_w);
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
			grisu_round_last(buf, len, delta, p2, one.f, wp_w * unit);
			return len;
		}
	}
}

/* Digits of x > 0 (finite): x ~ buf[0..len) * 10^k10. */
static int grisu_digits(double x, char *buf, int *k10)
{
	struct grisu_diyfp v = grisu_diy_from_double(x), mi, pl, c, w, wp, wm;

	grisu_boundaries(v, &mi, &pl);
	c = grisu_cached_power(pl.e, k10);
	w = grisu_diy_mul(grisu_diy_normalize(v), c);
	wp = grisu_diy_mul(pl, c);
	wm = grisu_diy_mul(mi, c);
	wm.f++;
	wp.f--;
	return grisu_digit_gen(w, wp, wp.f - wm.f, buf, k10);
}

/* Does digits * 10^k10 read back as x?  Exact (Clinger's fast path) when
 * it applies, strtod otherwise. */
static int grisu_reads_back(const char *digits, int len, int k10, double x)
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
	grisu_format_i64(tmp + len + 1, k10);
	return strtod(tmp, NULL) == x;
}

/* One digit fewer: buf[0..len-1) rounded up (up != 0) or truncated, with
 * trailing zeros dropped. Returns the digit count; *e gets the exponent of
 * the last digit. Rounding 99..9 up gives 1 at the next decade. */
static int grisu_drop_digit(const char *buf, int len, int k10, int up, char *c, int *e)
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
static int grisu_shorten(double x, char *buf, int len, int *k10)
{
	char c[20];

	while (len > 1) {
		int e, n = grisu_drop_digit(buf, len, *k10, buf[len - 1] >= '5', c, &e);

		if (!grisu_reads_back(c, n, e, x)) {
			if (buf[len - 1] != '5')
				break;
			n = grisu_drop_digit(buf, len, *k10, 0, c, &e);
			if (!grisu_reads_back(c, n, e, x))
				break;
		}
		memcpy(buf, c, (size_t)n);
		*k10 = e;
		len = n;
	}
	return len;
}

static size_t grisu_put_exponent(char *p, int e)
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
static size_t grisu_layout(char *out, const char *d, int len, int k10)
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
		p += grisu_put_exponent(p, exp10);
	}
	*p = '\0';
	return (size_t)(p - out);
}

static size_t grisu_format(char buf[NUM_BUFSZ], double x)
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
		return grisu_format_i64(buf, (int64_t)x);
	if (x < 0) {
		buf[n++] = '-';
		x = -x;
	}
	len = grisu_digits(x, digits, &k10);
	len = grisu_shorten(x, digits, len, &k10);
	return n + grisu_layout(buf + n, digits, len, k10);
}


#endif

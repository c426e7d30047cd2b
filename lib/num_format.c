/* Shortest round-trip printing of doubles: Schubfach (Raffaello Giulietti,
 * "The Schubfach way to render doubles", 2020, revised 2021), written
 * from the paper.
 *
 * A double v = c * 2^q rounds back from any decimal in its rounding
 * interval R, the points halfway to its neighbours (R is closed when c is
 * even: strtod rounds ties to even). Scaled by 10^-k, with k chosen so
 * that R is between 1 and 10 units wide, R holds one or two integers; if
 * it holds a multiple of 10, that one (the only one: R is narrower than
 * 10) has the fewest digits. Otherwise the shortest are the integers s or
 * s + 1 around v, and of two in R the one nearer v is taken, the even one
 * on a tie. So the digits are the shortest that read back, the nearest to
 * v of those, the even one of two as near (as ECMAScript, Ryu, Dragonbox).
 *
 * The scaling multiplies 4 v and the ends of 4 R by a 128-bit upper
 * bound of 10^-k (lib/pow10.h's truncation, plus one) and keeps the integer part with a sticky
 * bit for "inexact" (round to odd). The paper proves that this decides
 * every comparison below as exact arithmetic would, for every double
 * (with a 126-bit bound; this one has two bits more); t/unit/num.c and
 * share/dev/num-compare check it against an exact oracle. About 290
 * instructions a number with the layout (callgrind, pb-logratio), where
 * Grisu2 with a shortening check took 1130. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "num.h"
#include "num_bits.h"
#include "pow10.h"

/* Integer logarithms: floor(q log10 2) and floor(log10(3/4 2^q)), exact
 * over |q| < 1200 (share/dev/gen-pow10 checks them; floor(e log2 10) is
 * in lib/num_bits.h). Shifted by a multiple of 2^20 first, so that the
 * shift is of a non-negative number. */
static int floor_log10_pow2(int q)
{
	return ((q * 315653 + (1 << 30)) >> 20) - (1 << 10);
}

static int floor_log10_three_quarters_pow2(int q)
{
	return ((q * 315653 - 131237 + (1 << 30)) >> 20) - (1 << 10);
}

/* floor(g * cp / 2^128), its lowest bit set when the quotient with the
 * exact power is not an integer. g exceeds the power by less than 1,
 * which adds less than cp < 2^64 to the product: an integer quotient
 * leaves bits 64..127 zero, so the low 64 bits (of g[1] * cp) are not
 * looked at. That an inexact one never leaves them zero is the paper's
 * bound. */
static uint64_t round_to_odd(const uint64_t g[2], uint64_t cp)
{
	uint64_t x_lo, x_hi = mul_64(g[1], cp, &x_lo);
	uint64_t y_lo, y_hi = mul_64(g[0], cp, &y_lo);
	uint64_t mid = y_lo + x_hi;

	(void)x_lo;
	return (y_hi + (mid < y_lo)) | (mid != 0);
}

/* The shortest digits of x > 0 (finite): x ~ result * 10^*k10. */
static uint64_t shortest(double x, int *k10)
{
	uint64_t bits, c, cb, cbl, vb, lower, upper, s;
	const uint64_t *t;
	uint64_t g[2];
	int be, q, k, h, irregular, odd;

	memcpy(&bits, &x, sizeof bits);
	be = (int)(bits >> 52);
	c = bits & ((UINT64_C(1) << 52) - 1);
	if (be) {
		q = be - 1075;
		irregular = c == 0 && be > 1;   /* the gap below is half */
		c |= UINT64_C(1) << 52;
	} else {
		q = -1074;
		irregular = 0;
	}
	/* Units of 2^(q-2): v is cb, R's ends are cbl and cb + 2. */
	odd = (int)(c & 1);
	cb = c << 2;
	cbl = cb - 2 + (uint64_t)irregular;
	k = irregular ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
	h = q + floor_log2_pow10(-k) + 1;      /* 1..4 */
	t = pow10_t[-k - POW10_E_MIN];   /* g = t + 1, the upper bound */
	g[1] = t[1] + 1;
	g[0] = t[0] + (g[1] == 0);
	/* 4 v 10^-k and the ends of R so scaled, rounded to odd; compared
	 * with multiples of 4 (even), an odd value stands for "not exact".
	 * When c is odd R is open: its ends move in by one. */
	vb = round_to_odd(g, cb << h);
	lower = round_to_odd(g, cbl << h) + (uint64_t)odd;
	upper = round_to_odd(g, (cb + 2) << h) - (uint64_t)odd;
	s = vb >> 2;
	if (s >= 10) {
		uint64_t sp = s / 10;
		int up_in = lower <= 40 * sp, wp_in = 40 * sp + 40 <= upper;

		if (up_in != wp_in) {
			*k10 = k + 1;
			return sp + (uint64_t)wp_in;
		}
	}
	*k10 = k;
	{
		int u_in = lower <= 4 * s, w_in = 4 * s + 4 <= upper;

		if (u_in != w_in)
			return s + (uint64_t)w_in;
	}
	return s + (vb > 4 * s + 2 || (vb == 4 * s + 2 && (s & 1)));
}

static uint64_t drop_zeros(uint64_t d, int *k10)
{
	if (d % 10)
		return d;
	d /= 10;
	++*k10;
	while (d % 10000 == 0) {
		d /= 10000;
		*k10 += 4;
	}
	if (d % 100 == 0) {
		d /= 100;
		*k10 += 2;
	}
	if (d % 10 == 0) {
		d /= 10;
		++*k10;
	}
	return d;
}


static int bit_length(uint64_t d)
{
#if defined(__GNUC__) || defined(__clang__)
	return 64 - __builtin_clzll(d | 1);
#else
	int n = 1;

	while (d >>= 1)
		n++;
	return n;
#endif
}

/* Decimal digits of d: floor(bits log10 2) is the count or one short
 * (1233 / 4096 is log10 2 rounded up, exact enough to 64 bits). */
static int decimal_length(uint64_t d)
{
	int t = bit_length(d) * 1233 >> 12;

	return t + (d >= num_pow10_u64[t]) + (d == 0);
}

#if NUM_DIGIT_WORDS
/* The eight digits of n < 10^8 as the bytes of a word, first digit
 * lowest, as values 0-9: n cut into two groups of four, each into two
 * pairs, each into two digits, the groups side by side in the lanes of
 * one word (32-bit lanes, then 16-bit ones), so that each step is one
 * multiplication for every lane. x * 5243 >> 19 is x / 100 for x < 10^4,
 * x * 103 >> 10 is x / 10 for x < 100, and no lane's product reaches the
 * next (share/dev/num-compare checks all 10^8 n). */
static inline uint64_t digit_word(uint32_t n)
{
	uint64_t x = n / 10000 | (uint64_t)(n % 10000) << 32, q;

	q = (x * 5243 >> 19) & UINT64_C(0x0000007f0000007f);
	x = q | (x - q * 100) << 16;
	q = (x * 103 >> 10) & UINT64_C(0x000f000f000f000f);
	return q | (x - q * 10) << 8;
}

/* The last m (1 to 8) of n's eight digits at p, in one store of eight
 * bytes: the 8 - m after them are overwritten. */
static inline void put_word(char *p, uint32_t n, int m)
{
	uint64_t w = (digit_word(n) + UINT64_C(0x3030303030303030)) >> (8 * (8 - m));

	memcpy(p, &w, 8);
}

/* The n digits of d (n its decimal length) ending before end, the first
 * group of 1 to 8 first, then the whole groups of eight: each store of
 * eight bytes overwrites only what a later one writes, but the last
 * group of a short number leaves up to 7 bytes after end overwritten
 * (NUM_BUFSZ has room for them). */
static void put_digits(char *end, uint64_t d, int n)
{
	char *p = end - n;

	if (n <= 8) {
		put_word(p, (uint32_t)d, n);
	} else if (n <= 16) {
		put_word(p, (uint32_t)(d / 100000000), n - 8);
		put_word(p + n - 8, (uint32_t)(d % 100000000), 8);
	} else {
		uint64_t low = d % UINT64_C(10000000000000000);

		put_word(p, (uint32_t)(d / UINT64_C(10000000000000000)), n - 16);
		put_word(p + n - 16, (uint32_t)(low / 100000000), 8);
		put_word(p + n - 8, (uint32_t)(low % 100000000), 8);
	}
}
#else
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static void put_pair(char *p, uint32_t n)
{
	memcpy(p, digit_pairs + 2 * n, 2);
}

/* The eight digits of n < 10^8, leading zeros included, at p. With
 * y = n 2^32 / 10^6 + err in 32.32 fixed point, y's integer part is the
 * first pair and each multiplication of the fraction by 100 brings the
 * next pair up: exact when 0 < err < 2^32 / 10^6 (the fraction, a
 * multiple of 2^32 / 10^6, then never reaches the next one). Here
 * y = floor(n ceil(2^51 / 10^6) / 2^19) + 1, so 0 < err < 62.
 * share/dev/num-compare checks all 10^8. */
static void put_8_digits(char *p, uint32_t n)
{
	uint64_t y = ((uint64_t)n * 2251799814u >> 19) + 1;

	put_pair(p, (uint32_t)(y >> 32));
	y = (y & 0xffffffffu) * 100;
	put_pair(p + 2, (uint32_t)(y >> 32));
	y = (y & 0xffffffffu) * 100;
	put_pair(p + 4, (uint32_t)(y >> 32));
	y = (y & 0xffffffffu) * 100;
	put_pair(p + 6, (uint32_t)(y >> 32));
}

/* The digits of d, right to left, ending before end: eight at a time,
 * then two at a time (divisions by constants are multiplications, but
 * one a pair still cost twice as much). */
static void put_digits(char *end, uint64_t d, int n)
{
	uint32_t r;

	(void)n;
	while (d >= 10000000) {
		if (d < 100000000) {
			put_8_digits(end - 8, (uint32_t)d);
			return;
		}
		end -= 8;
		put_8_digits(end, (uint32_t)(d % 100000000));
		d /= 100000000;
	}
	for (r = (uint32_t)d; r >= 100; r /= 100) {
		end -= 2;
		put_pair(end, r % 100);
	}
	if (r >= 10)
		put_pair(end - 2, r);
	else
		end[-1] = (char)('0' + r);
}
#endif

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

/* Lay out d * 10^k10 (d without trailing zeros) as fixed notation for
 * decimal exponents in [-5, 21), scientific otherwise (JavaScript's rule,
 * but scientific from 1e-6 instead of 1e-7, so no field starts with more
 * than five zeros). */
static size_t layout(char *out, uint64_t d, int k10)
{
	int n = decimal_length(d), exp10 = n + k10 - 1, i;
	char *p = out;

	if (exp10 >= -5 && exp10 < 21) {
		if (k10 >= 0) {                 /* ddd000 */
			put_digits(p + n, d, n);
			memset(p + n, '0', (size_t)k10);
			p += n + k10;
		} else if (exp10 >= 0) {        /* dd.ddd */
			put_digits(p + n + 1, d, n);
			for (i = 0; i <= exp10; i++)
				p[i] = p[i + 1];
			p[exp10 + 1] = '.';
			p += n + 1;
		} else {                        /* 0.000ddd */
			memcpy(p, "0.00000", 8);
			p += 1 - exp10 + n;
			put_digits(p, d, n);
		}
	} else {                            /* d.ddde-7 */
		put_digits(p + n + 1, d, n);
		p[0] = p[1];
		if (n > 1) {
			p[1] = '.';
			p += n + 1;
		} else {
			p++;
		}
		p += put_exponent(p, exp10);
	}
	*p = '\0';
	return (size_t)(p - out);
}

size_t num_format_i64(char buf[NUM_BUFSZ], int64_t x)
{
	uint64_t u = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
	size_t n = x < 0, len = (size_t)decimal_length(u);

	buf[0] = '-';
#if NUM_DIGIT_WORDS
	if (len <= 8)   /* a time in ns, a count: one word, no call */
		put_word(buf + n, (uint32_t)u, (int)len);
	else
#endif
		put_digits(buf + n + len, u, (int)len);
	buf[n + len] = '\0';
	return n + len;
}

size_t num_format(char buf[NUM_BUFSZ], double x)
{
	uint64_t d;
	int k10;
	size_t n = 0;

	if (x == 0) {
		strcpy(buf, "0");
		return 1;
	}
	if (!isfinite(x)) {  /* never printed by design; be explicit if asked */
		strcpy(buf, isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
		return strlen(buf);
	}
	/* a whole number as one; below 1 none is (lr values: no conversion) */
	if (fabs(x) >= 1 && fabs(x) < 9007199254740992.0 && x == (double)(int64_t)x)
		return num_format_i64(buf, (int64_t)x);
	buf[0] = '-';   /* kept when x < 0: no branch on a coin's sign */
	n = signbit(x) != 0;
	x = fabs(x);
	d = shortest(x, &k10);
	d = drop_zeros(d, &k10);
	return n + layout(buf + n, d, k10);
}

void num_put(FILE *f, double x)
{
	char buf[NUM_BUFSZ];
	size_t n = num_format(buf, x);

	fwrite(buf, 1, n, f);
}

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "num_bits.h"
#include "num_field.h"
#include "pow10.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Checks the syntax and gathers up to 19 significant digits. Returns the
 * index past the number, or -1 when the syntax is wrong. */
struct decimal {
	uint64_t mant;
	int digits;      /* significant digits kept in mant */
	int dropped;     /* non-zero digits beyond those kept */
	long exp10;      /* value = mant * 10^exp10 (when !dropped) */
	int neg;
};

static int scan_decimal(const char *s, struct decimal *d)
{
	const char *p = s;
	int seen = 0;
	long exp = 0;

	memset(d, 0, sizeof *d);
	if (*p == '+' || *p == '-')
		d->neg = *p++ == '-';
	for (; is_digit(*p); p++, seen = 1) {
		if (d->digits < 19) {
			if (d->mant || *p != '0') {
				d->mant = d->mant * 10 + (uint64_t)(*p - '0');
				d->digits++;
			}
		} else {
			exp++;
			d->dropped |= *p != '0';
		}
	}
	if (*p == '.') {
		for (p++; is_digit(*p); p++, seen = 1) {
			if (d->digits < 19) {
				if (d->mant || *p != '0') {
					d->mant = d->mant * 10 + (uint64_t)(*p - '0');
					d->digits++;
				}
				exp--;
			} else {
				d->dropped |= *p != '0';
			}
		}
	}
	if (!seen)
		return -1;
	if (*p == 'e' || *p == 'E') {
		long e = 0;
		int eneg = 0;

		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (!is_digit(*p))
			return -1;
		for (; is_digit(*p); p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		exp += eneg ? -e : e;
	}
	d->exp10 = exp;
	return (int)(p - s);
}

/* Eisel-Lemire (Daniel Lemire, "Number Parsing at a Gigabyte per
 * Second", 2021; written from the paper): w * 10^q for any w < 2^64, in
 * integers only (so also under valgrind, whose x87 long double has but
 * 53 bits). With w shifted to W in [2^63, 2^64) and t = 10^q * 2^(127 - b)
 * truncated to 128 bits (lib/pow10.h), the exact product X = W t / 2^64
 * scaled the same way lies in [2^126, 2^128), and its top 54 bits are
 * the double's 53 and the rounding bit. The product is taken with the
 * high 64 bits of t, and with the low ones too when the part left out
 * (below W units of X's last bit) could carry into the rounding bit; if
 * even the whole 128-bit truncation (below 2 units) could, the answer is
 * 0 and strtod decides. An exact tie needs 5^|q| to divide a 54-bit odd
 * number or w: 0 <= q <= 23, where the product is exact (t is 5^q < 2^64
 * shifted), or -4 <= q < 0, where t is below 10^q, so the product ends in
 * ones just below the tie and the carry test gives up. For any other q
 * the product is below X: what looks like a tie is above one, and
 * rounding up is right. Results that are subnormal or overflow are left
 * to strtod too. */
static int eisel_lemire(uint64_t w, long q, double *out)
{
	const uint64_t *t;
	uint64_t hi, lo, m, rest, bits;
	int l, top;
	long e2;

	if (w == 0 || q < POW10_E_MIN) {   /* below 2^-1075: rounds to 0 */
		*out = 0;
		return 1;
	}
	if (q > POW10_PARSE_MAX)   /* above DBL_MAX: strtod says so */
		return 0;
	t = pow10_t[q - POW10_E_MIN];
	l = clz_64(w);
	w <<= l;
	hi = mul_64(w, t[0], &lo);
	if ((hi & 0x1ff) == 0x1ff && lo + w < w) {   /* may carry past bit 8 */
		uint64_t lo2, hi2 = mul_64(w, t[1], &lo2);

		lo += hi2;
		hi += lo < hi2;
		if ((hi & 0x1ff) == 0x1ff && lo == UINT64_MAX && lo2 + w < w)
			return 0;
	}
	top = (int)(hi >> 63);
	m = hi >> (9 + top);   /* 54 bits */
	rest = hi & ((UINT64_C(1) << (9 + top)) - 1);   /* below the rounding bit */
	if (!(m & 1))
		m >>= 1;
	else if (q >= 0 && q <= 27 && !rest && !lo)   /* exact product, a tie: to even */
		m = (m >> 1) + (m >> 1 & 1);
	else
		m = (m >> 1) + 1;
	e2 = floor_log2_pow10((int)q) - l + 1086 + top;   /* biased exponent */
	if (m >> 53) {
		m >>= 1;
		e2++;
	}
	if (e2 < 1 || e2 > 2046)
		return 0;
	bits = (uint64_t)e2 << 52 | (m & ((UINT64_C(1) << 52) - 1));
	memcpy(out, &bits, sizeof *out);
	return 1;
}

/* Any number: up to 19 significant digits exactly, in one multiply or
 * divide (Clinger) or by Eisel-Lemire; else strtod. */
static int parse_general(const char *s, double *out)
{
	struct decimal d;
	int n;
	double v;

	n = scan_decimal(s, &d);
	if (n < 0 || s[n] != '\0')
		return -1;
	if (!d.dropped && num_exact(d.mant, d.exp10, &v)) {
		;
	} else if (!d.dropped && eisel_lemire(d.mant, d.exp10, &v)) {
		;
	} else {
		errno = 0;
		v = fabs(strtod(s, NULL));
		if (!isfinite(v))
			return -1;
	}
	*out = d.neg ? -v : v;
	return 0;
}

#define DIGIT_WORDS NUM_DIGIT_WORDS   /* lib/num_field.h */

/* Up to room digits from *p (before end) appended to *mant; returns
 * how many. The 8 bytes from any byte before end may be read: digits are
 * taken up to eight in one load. */
static inline size_t take_digits(const char **p, const char *end, uint64_t *mant,
                                 size_t room)
{
	const char *q = *p, *stop = (size_t)(end - q) < room ? end : q + room;
	uint64_t m = *mant;

#if DIGIT_WORDS
	while (q < stop) {
		uint64_t w, bad;
		size_t k;

		memcpy(&w, q, 8);
		bad = num_not_digits(w);   /* 0x..f0 in the bytes that are no digit */
		k = bad ? (size_t)__builtin_ctzll(bad) >> 3 : 8;
		if (k > (size_t)(stop - q))
			k = (size_t)(stop - q);
		if (!k)
			break;
		w = num_digits_last(w, k);
		m = m * num_pow10_u64[k] + num_digits_value(w);
		q += k;
		if (k < 8)
			break;
	}
#else
	for (; q < stop; q++) {
		unsigned d = (unsigned)(unsigned char)*q - '0';

		if (d > 9)
			break;
		m = m * 10 + d;
	}
#endif
	room = (size_t)(q - *p);
	*p = q;
	*mant = m;
	return room;
}

/* Past the '0's from p (before end): eight bytes at a time where the
 * byte order allows, as take_digits reads (0.00123: their count varies
 * from value to value, which a loop of one byte would mispredict). */
static inline const char *skip_zeros(const char *p, const char *end)
{
#if DIGIT_WORDS
	while (p < end) {
		uint64_t w;
		size_t k;

		memcpy(&w, p, 8);
		w ^= UINT64_C(0x3030303030303030);   /* a '0' is a zero byte now */
		k = w ? (size_t)__builtin_ctzll(w) >> 3 : 8;
		if (k > (size_t)(end - p))
			k = (size_t)(end - p);
		p += k;
		if (k < 8)
			break;
	}
#else
	while (p < end && *p == '0')
		p++;
#endif
	return p;
}

/* The len bytes at s, which no NUL ends (a field of a line not cut,
 * stream_keep_line), as a string for the general readers: a copy, in buf
 * when short, else in memory of its own (to free when not buf). */
enum { UNCUT_COPY = 64 };
static char *uncut_copy(const char *s, size_t len, char buf[UNCUT_COPY])
{
	char *t = len < UNCUT_COPY ? buf : xmalloc(len + 1);

	memcpy(t, s, len);
	t[len] = '\0';
	return t;
}

/* The len bytes at s, NUL-terminated or not, read by parse_general into
 * *d, or by num_parse_i64 into *i when d is NULL: only the rare forms come
 * here, so a cut field's reading pays nothing for the copy. */
static int parse_string(const char *s, size_t len, double *d, int64_t *i)
{
	char buf[UNCUT_COPY];
	const char *t = s[len] == '\0' ? s : uncut_copy(s, len, buf);
	int r = d ? parse_general(t, d) : num_parse_i64(t, i);

	if (t != s && t != buf)
		free((char *)t);
	return r;
}

/* The common number, [+-]D*[.D*] of up to 19 significant digits, read in
 * one pass from the len bytes at p (padded as take_digits needs); any
 * other form, and every error, goes to parse_general on the len bytes at
 * s, the same number (NUL-terminated or followed by a TAB), which
 * decides as it always did. */
static int parse_common(const char *p, size_t len, const char *s, double *out)
{
	const char *end = p + len, *z;
	uint64_t mant = 0;
	size_t whole, frac = 0, zeros = 0;
	int neg = 0, lead;
	double v;

	if (p < end) {   /* without a branch: the sign of a log ratio is a coin */
		neg = *p == '-';
		p += neg | (*p == '+');
	}
	z = skip_zeros(p, end);   /* leading zeros: no digit of the significand */
	lead = z != p;
	p = z;
	whole = take_digits(&p, end, &mant, 19);
	if (p < end && *p == '.') {
		z = ++p;
		if (!whole)
			p = skip_zeros(p, end);
		zeros = (size_t)(p - z);
		frac = take_digits(&p, end, &mant, 19 - whole);
	}
	if (p != end || !(lead || whole || zeros || frac))
		return parse_string(s, len, out, NULL);
	if (!num_exact(mant, -(long)(frac + zeros), &v) &&
	    !eisel_lemire(mant, -(long)(frac + zeros), &v))
		return parse_string(s, len, out, NULL);
	*out = neg ? -v : v;
	return 0;
}

/* A string that is not padded is copied into a buffer that is; a number
 * longer than this is rare (many zeros, or more than 19 digits) and goes
 * to the general reading. */
enum { COMMON_MAX = 40 };

int num_parse_len(const char *s, size_t len, double *out)
{
	char pad[COMMON_MAX + 8];

	if (len > COMMON_MAX)
		return parse_general(s, out);
	memcpy(pad, s, len);
	memset(pad + len, 0, 8);
	return parse_common(pad, len, s, out);
}

int num_parse_field_rest(const char *s, size_t len, double *out)
{
	return parse_common(s, len, s, out);
}

int num_parse_i64_field_rest(const char *s, size_t len, int64_t *out)
{
	return parse_string(s, len, NULL, out);
}

int num_parse(const char *s, double *out)
{
	return num_parse_len(s, strlen(s), out);
}

int num_parse_i64(const char *s, int64_t *out)
{
	const char *p = s;
	int neg = 0;
	uint64_t v = 0, limit;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (!is_digit(*p))
		return -1;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; is_digit(*p); p++) {
		unsigned dig = (unsigned)(*p - '0');
		if (v > (limit - dig) / 10)
			return -1;
		v = v * 10 + dig;
	}
	if (*p != '\0')
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

static const struct {
	const char *suffix;
	double ns;
} dur_units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 },
	{ "s", 1e9 }, { "", 1 },
};

int num_parse_dur(const char *s, int64_t *ns)
{
	struct decimal d;
	int n = scan_decimal(s, &d);
	char num[64];
	double v;
	size_t i;

	if (n < 0 || n >= (int)sizeof num || d.neg)
		return -1;
	memcpy(num, s, (size_t)n);
	num[n] = '\0';
	for (i = 0; i < LEN(dur_units); i++)
		if (strcmp(s + n, dur_units[i].suffix) == 0)
			break;
	if (i == LEN(dur_units) || num_parse(num, &v) < 0)
		return -1;
	v = nearbyint(v * dur_units[i].ns);
	if (!(v >= 0) || v > (double)NUM_DUR_MAX)
		return -1;
	*ns = (int64_t)v;
	return 0;
}

int num_parse_count(const char *s, long max, long *out)
{
	int64_t v;

	if (num_parse_i64(s, &v) < 0 || v < 1 || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

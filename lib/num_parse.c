#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"

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

#if LDBL_MANT_DIG >= 64
/* Up to 19 digits: the significand is exact in a 64-bit long double and so
 * is 10^k for k <= 27, so m * 10^k has one long-double rounding. Rounding
 * that to double is correct unless the long double lies within its own
 * rounding error of a point halfway between two doubles; then return 0 and
 * let strtod decide. */
static const long double exact_pow10l[] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L,
	1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
	1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L,
};

/* Whether long double arithmetic really carries its 64 bits: valgrind
 * runs x87 code in double precision, where this path would round twice
 * (0.9999999999999999 read as 1); strtod is right there. */
static int long_double_is_wide(void)
{
	static int known = -1;

	if (known < 0) {
		volatile long double one = 1, eps = LDBL_EPSILON;

		known = one + eps != one;
	}
	return known;
}

static int long_double_path(uint64_t mant, long exp10, double *out)
{
	long double r = (long double)mant, half;
	double d, gap_up;
	uint64_t bits, up, field;

	if (exp10 < -27 || exp10 > 27 || !long_double_is_wide())
		return 0;
	r = exp10 < 0 ? r / exact_pow10l[-exp10] : r * exact_pow10l[exp10];
	d = (double)r;
	memcpy(&bits, &d, sizeof bits);
	field = bits >> 52 & 0x7ff;   /* d >= 0: its biased exponent */
	if (field <= 53 || field == 0x7ff)
		return 0;   /* tiny (its gap not a normal double), or too large */
	/* The gap up from d is 2^(e - 52), made from the bits (no libm call);
	 * the gap down is half of it when d is a power of two. */
	up = (field - 52) << 52;
	memcpy(&gap_up, &up, sizeof gap_up);
	half = (long double)gap_up / (r < d && !(bits & UINT64_C(0xfffffffffffff)) ? 4 : 2);
	if (fabsl(fabsl(r - (long double)d) - half) <= 2 * LDBL_EPSILON * fabsl(r))
		return 0;
	*out = d;
	return 1;
}
#else
static int long_double_path(uint64_t mant, long exp10, double *out)
{
	(void)mant, (void)exp10, (void)out;
	return 0;
}
#endif

/* Any number: up to 19 significant digits exactly, in one multiply or
 * divide (Clinger) or in long double; else strtod. */
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
	} else if (!d.dropped && long_double_path(d.mant, d.exp10, &v)) {
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

/* The value of eight ASCII digits at once (little-endian words; gcc and
 * clang say the byte order), after simdjson and fast_float. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DIGIT_WORDS 1
static inline uint64_t digits_value(uint64_t w)
{
	w = (w & UINT64_C(0x0f0f0f0f0f0f0f0f)) * 2561 >> 8;
	w = (w & UINT64_C(0x00ff00ff00ff00ff)) * 6553601 >> 16;
	return (w & UINT64_C(0x0000ffff0000ffff)) * UINT64_C(42949672960001) >> 32;
}

#else
#define DIGIT_WORDS 0
#endif

/* Up to room digits from *p (before end) appended to *mant; returns
 * how many. The 8 bytes from any byte before end may be read: digits are
 * taken up to eight in one load. */
static inline size_t take_digits(const char **p, const char *end, uint64_t *mant,
                                 size_t room)
{
	const char *q = *p, *stop = (size_t)(end - q) < room ? end : q + room;
	uint64_t m = *mant;

#if DIGIT_WORDS
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
	};
	const uint64_t high = UINT64_C(0xf0f0f0f0f0f0f0f0), zero = UINT64_C(0x3030303030303030);

	while (q < stop) {
		uint64_t w, bad;
		size_t k;

		memcpy(&w, q, 8);
		/* a byte that is no digit: its high half not 3, or 3 with a low
		 * half above 9 (adding 6 carries out of it); a carry only moves
		 * into later bytes, after the first such one */
		bad = ((w & high) ^ zero) | (((w + UINT64_C(0x0606060606060606)) & high) ^ zero);
		k = bad ? (size_t)__builtin_ctzll(bad) >> 3 : 8;
		if (k > (size_t)(stop - q))
			k = (size_t)(stop - q);
		if (!k)
			break;
		/* the k digits as the last of eight, after '0's */
		w = k < 8 ? w << (8 * (8 - k)) | zero >> (8 * k) : w;
		m = m * pow10[k] + digits_value(w);
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

/* The common number, [+-]D*[.D*] of up to 19 significant digits, read in
 * one pass from the len bytes at p (padded as take_digits needs); any
 * other form, and every error, goes to parse_general on s, the same
 * number NUL-terminated, which decides as it always did. */
static int parse_common(const char *p, size_t len, const char *s, double *out)
{
	const char *end = p + len;
	uint64_t mant = 0;
	size_t whole, frac = 0, zeros = 0;
	int neg = 0, lead = 0;
	double v;

	if (p < end && (*p == '+' || *p == '-'))
		neg = *p++ == '-';
	for (; p < end && *p == '0'; p++)
		lead = 1;   /* leading zeros: no digit of the significand */
	whole = take_digits(&p, end, &mant, 19);
	if (p < end && *p == '.') {
		const char *z = ++p;

		if (!whole)
			while (p < end && *p == '0')
				p++;
		zeros = (size_t)(p - z);
		frac = take_digits(&p, end, &mant, 19 - whole);
	}
	if (p != end || !(lead || whole || zeros || frac))
		return parse_general(s, out);
	if (!num_exact(mant, -(long)(frac + zeros), &v) &&
	    !long_double_path(mant, -(long)(frac + zeros), &v))
		return parse_general(s, out);
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

/* A whole number of 1 to 16 digits (times in ns, counts, run numbers)
 * in one or two loads, the bytes after it shifted out and '0's before
 * it: 1 and its value, or 0 for anything else. The 8 bytes from s + 8
 * are read only when len > 8. */
static inline int short_whole(const char *s, size_t len, uint64_t *value)
{
#if DIGIT_WORDS
	const uint64_t high = UINT64_C(0xf0f0f0f0f0f0f0f0), zero = UINT64_C(0x3030303030303030);
	uint64_t w, x = 0;
	size_t n = len > 8 ? len - 8 : len;

	if (len - 1 >= 16)
		return 0;
	if (len <= 3) {   /* "0", "1", "12": one by one is cheaper */
		uint64_t v = 0;
		size_t i;

		for (i = 0; i < len; i++) {
			unsigned d = (unsigned)(unsigned char)s[i] - '0';

			if (d > 9)
				return 0;
			v = v * 10 + d;
		}
		*value = v;
		return 1;
	}
	memcpy(&w, s, 8);
	if (len > 8) {   /* eight, then the last n */
		x = w;
		memcpy(&w, s + 8, 8);
	}
	if (n < 8)
		w = w << (8 * (8 - n)) | zero >> (8 * n);
	if (((w & high) ^ zero) | (((w + UINT64_C(0x0606060606060606)) & high) ^ zero))
		return 0;
	if (len > 8) {
		static const uint64_t pow10[] = {
			1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
		};

		if (((x & high) ^ zero) | (((x + UINT64_C(0x0606060606060606)) & high) ^ zero))
			return 0;
		*value = digits_value(x) * pow10[n] + digits_value(w);
		return 1;
	}
	*value = digits_value(w);
	return 1;
#else
	(void)s, (void)len, (void)value;
	return 0;
#endif
}

int num_parse_field(const char *s, size_t len, double *out)
{
	uint64_t v;

	if (short_whole(s, len, &v)) {   /* below 10^16: exact */
		*out = (double)v;
		return 0;
	}
	return parse_common(s, len, s, out);
}

int num_parse_i64_field(const char *s, size_t len, int64_t *out)
{
	uint64_t v = 0;

	if (len == 1 && (unsigned)(unsigned char)*s - '0' <= 9) {   /* status, pos, a delay of 0 */
		*out = *s - '0';
		return 0;
	}
	if (short_whole(s, len, &v)) {
		*out = (int64_t)v;
		return 0;
	}
	return num_parse_i64(s, out);
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

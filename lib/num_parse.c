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

static int long_double_path(uint64_t mant, long exp10, double *out)
{
	long double r = (long double)mant, diff, half;
	double d;

	if (exp10 < -27 || exp10 > 27)
		return 0;
	r = exp10 < 0 ? r / exact_pow10l[-exp10] : r * exact_pow10l[exp10];
	d = (double)r;
	if (!isnormal(d))
		return 0;
	diff = fabsl(r - (long double)d);
	/* Below a power of two the gap down is half the gap up. */
	half = (long double)(r < d ? d - nextafter(d, 0)
	                           : nextafter(d, INFINITY) - d) / 2;
	if (fabsl(diff - half) <= 2 * ldexpl(fabsl(r), 1 - LDBL_MANT_DIG))
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

/* Times are whole numbers of ns: take plain digit strings directly. */
static int plain_integer(const char *s, double *out)
{
	uint64_t v = 0;
	const char *p = s;

	while (is_digit(*p) && p - s < 15)
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (*p || p == s)
		return 0;
	*out = (double)v;
	return 1;
}

int num_parse(const char *s, double *out)
{
	struct decimal d;
	int n;
	double v;

	if (plain_integer(s, out))
		return 0;
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

/* libFuzzer target: the number parser and printer (lib/num_parse.c,
 * lib/num_format.c). Every violation calls abort(), so libFuzzer keeps it
 * as a crash.
 *
 * The input as a string (up to its first NUL):
 *   num_parse      accepts exactly [+-]?(D+.?D*|.D+)([eE][+-]?D+) with a
 *                  finite value, and gives strtod's double (glibc's strtod
 *                  is correctly rounded), bit for bit;
 *   num_parse_i64  accepts exactly [+-]?D+ in range, and gives strtoll's;
 *   num_parse_dur  agrees with strtod of the number times the unit,
 *                  rounded, and its result reads back from "<ns>ns".
 * Every double that parses, and the first 8 bytes of the input taken as a
 * double (when finite), must print (num_format) as a number in that
 * syntax that reads back as the same double (-0 prints as "0"), with no
 * more significant digits than the shortest printf %.*e that reads back;
 * integers below 2^53 print as integers. The digits must be the exact
 * oracle's of t/unit/numcmp.h (the shortest that read back, the nearest
 * of those, the even one of two as near), and the same as the printer
 * before (t/unit/grisu.h) unless that one was not the nearest or the
 * double is a tie. Decimals of 17 to 21 digits next to the midpoint
 * between that double and the next are parsed too, and the first 11
 * bytes as a mantissa of up to 19 digits and an exponent. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#define NUMCMP_NO_VALUES
#include "../unit/numcmp.h"

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Length of the number syntax at s, or -1. */
static int number_syntax(const char *s)
{
	const char *p = s;
	int before = 0, after = 0;

	if (*p == '+' || *p == '-')
		p++;
	for (; digit(*p); p++)
		before++;
	if (*p == '.')
		for (p++; digit(*p); p++)
			after++;
	if (!before && !after)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!digit(*p))
			return -1;
		while (digit(*p))
			p++;
	}
	return (int)(p - s);
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* Significant digits of a printed number: no sign, point, exponent,
 * leading or trailing zeros. */
static int significant_digits(const char *buf)
{
	int first = -1, last = -1, i = 0;
	const char *p;

	for (p = buf; *p && *p != 'e'; p++) {
		if (!digit(*p))
			continue;
		if (*p != '0') {
			if (first < 0)
				first = i;
			last = i;
		}
		i++;
	}
	return first < 0 ? 1 : last - first + 1;
}

static int shortest_printf(double x)
{
	char tmp[64];
	int p;

	for (p = 1; p < 17; p++) {
		snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
		if (strtod(tmp, NULL) == x)
			return p;
	}
	return 17;
}

static void check_format(double x)
{
	char buf[NUM_BUFSZ], tmp[64];
	size_t n = num_format(buf, x);
	double back;

	if (n != strlen(buf) || n >= NUM_BUFSZ ||
	    number_syntax(buf) != (int)n || num_parse(buf, &back) < 0 ||
	    back != x || strtod(buf, NULL) != x || strcmp(buf, "-0") == 0)
		abort();
	if (fabs(x) < 9007199254740992.0 && x == trunc(x)) {
		snprintf(tmp, sizeof tmp, "%.0f", x);
		if (strcmp(buf, x == 0 ? "0" : tmp) != 0)
			abort();
	} else if (significant_digits(buf) > shortest_printf(x)) {
		abort();
	}
	{
		struct cmp_stats st;

		memset(&st, 0, sizeof st);
		cmp_one(&st, x, 1);
		if (st.new_wrong || st.oracle_bad || st.bad_text)
			abort();
	}
}

/* num_parse agrees with the syntax and strtod; 1 with *v when it parses. */
static int parse_agrees(const char *s, double *v)
{
	double want;
	int syntax = number_syntax(s), ok = num_parse(s, v) == 0;

	if (syntax < 0 || s[syntax]) {
		if (ok)
			abort();
		return 0;
	}
	want = strtod(s, NULL);
	if (ok != !!isfinite(want) || (ok && !same_bits(*v, want)))
		abort();
	return ok;
}

static void check_parse(const char *s)
{
	double v;

	if (parse_agrees(s, &v))
		check_format(v);
}

static void check_i64(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	int64_t v, back;
	long long want;
	int ok = num_parse_i64(s, &v) == 0, syntax = digit(*p);
	char buf[NUM_BUFSZ];

	while (digit(*p))
		p++;
	syntax = syntax && !*p;
	errno = 0;
	want = syntax ? strtoll(s, NULL, 10) : 0;
	if (ok != (syntax && errno == 0) || (ok && v != want))
		abort();
	if (ok && (num_format_i64(buf, v) != strlen(buf) ||
	           num_parse_i64(buf, &back) < 0 || back != v))
		abort();
}

static const struct {
	const char *suffix;
	double ns;
} units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 },
	{ "s", 1e9 }, { "", 1 },
};

/* What num_parse_dur should give for s: 0 and *ns, or -1. The number
 * part is limited to 63 characters (num_parse.c's buffer). */
static int dur_oracle(const char *s, int64_t *ns)
{
	int n = number_syntax(s);
	size_t i;
	double v;

	if (n < 0 || n > 63 || *s == '-')
		return -1;
	for (i = 0; i < LEN(units); i++)
		if (strcmp(s + n, units[i].suffix) == 0)
			break;
	if (i == LEN(units))
		return -1;
	v = strtod(s, NULL);
	if (!isfinite(v))
		return -1;
	v = nearbyint(v * units[i].ns);
	if (!(v >= 0) || v > (double)NUM_DUR_MAX)
		return -1;
	*ns = (int64_t)v;
	return 0;
}

static void check_dur(const char *s)
{
	int64_t ns = -1, want = -1, back = -1;
	int ok = num_parse_dur(s, &ns) == 0;
	char buf[NUM_BUFSZ + 2];

	if (ok != (dur_oracle(s, &want) == 0) || (ok && ns != want))
		abort();
	if (!ok)
		return;
	if (ns < 0 || ns > NUM_DUR_MAX)
		abort();
	strcpy(buf + num_format_i64(buf, ns), "ns");
	if (num_parse_dur(buf, &back) < 0 || back != ns)
		abort();
}

/* Decimal strings of 17 to 21 digits next to the point halfway between
 * x and the next double up: the hard cases for a fast parser (ties, and
 * Eisel-Lemire's test of whether its truncated product can decide). */
static void check_near_halfway(double x)
{
	long double mid = ((long double)x + nextafter(x, INFINITY)) / 2;
	char tmp[64];
	double v;
	int p;

	if (!isfinite(nextafter(x, INFINITY)))
		return;
	for (p = 17; p <= 21; p++) {
		snprintf(tmp, sizeof tmp, "%.*Le", p - 1, mid);
		(void)parse_agrees(tmp, &v);
	}
}

/* The bytes as a decimal for Eisel-Lemire: a mantissa of 1 to 19
 * digits (bytes 0-7, byte 10 the count) and an exponent in [-360, 339]
 * (bytes 8-9), in exponent form. */
static void check_mantissa_exponent(const uint8_t *data)
{
	uint64_t w, ten = 1;
	unsigned q = (unsigned)data[8] | (unsigned)data[9] << 8;
	int digits = 1 + data[10] % 19, i;
	char tmp[48];
	double v;

	memcpy(&w, data, sizeof w);
	for (i = 0; i < digits; i++)
		ten *= 10;   /* 10^19 < 2^64 */
	w %= ten;
	snprintf(tmp, sizeof tmp, "%llue%d", (unsigned long long)w, (int)(q % 700) - 360);
	(void)parse_agrees(tmp, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	double x;
	int64_t i;
	char buf[NUM_BUFSZ];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_parse(s);
	check_i64(s);
	check_dur(s);
	free(s);
	if (size >= 8) {
		memcpy(&x, data, sizeof x);
		if (isfinite(x)) {
			check_format(x);
			check_near_halfway(x);
		}
		if (size >= 11)
			check_mantissa_exponent(data);
		memcpy(&i, data, sizeof i);
		if (num_format_i64(buf, i) != strlen(buf) || strtoll(buf, NULL, 10) != i)
			abort();
	}
	return 0;
}

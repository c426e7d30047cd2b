/* num_parse (lib/num_parse.c) against strtod, bit for bit, over random
 * decimals of the kinds below; the field reader (lib/num_field.h, its fast
 * path for whole numbers) against num_parse and num_parse_i64. Included by t/unit/num.c (a few hundred
 * thousand in make check) and by share/dev/parse-compare.c (any count).
 * Test code only. glibc's and musl's strtod are correctly rounded: the
 * reference. A decimal whose strtod is not finite must be rejected. */
#ifndef PB_T_PARSECMP_H
#define PB_T_PARSECMP_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "num_field.h"

enum { PCMP_NKIND = 7 };

static const char *const pcmp_kind[PCMP_NKIND] = {
	"any double, %.17g",
	"any double, shortest",
	"log ratio (pb-logratio), %.17g",
	"log ratio (pb-logratio), shortest",
	"1-19 digits, any exponent",
	"16-19 digits, plain decimal",
	"whole, 1-20 digits, signs, leading zeros",
};

struct pcmp_stats {
	long n, wrong;
};

static uint64_t pcmp_state = 19;

static uint64_t pcmp_rand(void)   /* splitmix64 */
{
	uint64_t z = (pcmp_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A finite double of any bit pattern (subnormals and every exponent). */
static double pcmp_any_double(void)
{
	for (;;) {
		uint64_t u = pcmp_rand();
		double x;

		memcpy(&x, &u, sizeof x);
		if (isfinite(x))
			return x;
	}
}

/* ln(a / b) for run times near 10^6 ns, as pb-logratio writes them. */
static double pcmp_log_ratio(void)
{
	double a = (double)(1000000 + pcmp_rand() % 50000);
	double b = (double)(1000000 + pcmp_rand() % 50000);

	return log(a / b);
}

/* n random digits, the first not '0'. */
static void pcmp_digits(char *d, int n)
{
	int i;

	d[0] = (char)('1' + pcmp_rand() % 9);
	for (i = 1; i < n; i++)
		d[i] = (char)('0' + pcmp_rand() % 10);
	d[n] = '\0';
}

/* The digits d (value D) times 10^-frac as a plain decimal: with a
 * point inside, or "0.000ddd" when frac exceeds their number. */
static void pcmp_plain(char *s, const char *d, int frac)
{
	int n = (int)strlen(d);

	if (frac <= 0)
		sprintf(s, "%s%.*s", d, -frac, "0000000000");
	else if (frac < n)
		sprintf(s, "%.*s.%s", n - frac, d, d + n - frac);
	else if (frac == n)
		sprintf(s, "0.%s", d);
	else
		sprintf(s, "0.%0*d%s", frac - n, 0, d);
}

static void pcmp_make(char *s, int kind)
{
	char d[24], *p = s;
	double x;

	switch (kind) {
	case 0:
	case 1:
	case 2:
	case 3:
		x = kind < 2 ? pcmp_any_double() : pcmp_log_ratio();
		if (kind % 2 == 0)
			sprintf(s, "%.17g", x);
		else
			num_format(s, x);
		return;
	case 4:
		if (pcmp_rand() % 2)
			*p++ = '-';
		pcmp_digits(d, 1 + (int)(pcmp_rand() % 19));
		sprintf(p, "%se%d", d, (int)(pcmp_rand() % 700) - 360);
		return;
	case 6:
		if (pcmp_rand() % 4 == 0)
			*p++ = pcmp_rand() % 2 ? '-' : '+';
		if (pcmp_rand() % 4 == 0)
			p += sprintf(p, "%.*s", 1 + (int)(pcmp_rand() % 3), "000");
		pcmp_digits(d, 1 + (int)(pcmp_rand() % 20));
		if (pcmp_rand() % 8 == 0)
			d[0] = '0';   /* "0" alone, and zeros inside */
		strcpy(p, d);
		return;
	default:
		if (pcmp_rand() % 2)
			*p++ = '-';
		pcmp_digits(d, 16 + (int)(pcmp_rand() % 4));
		pcmp_plain(p, d, (int)(pcmp_rand() % 40) - 10);   /* up to 10 zeros */
		return;
	}
}

static int pcmp_same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* 0 when the field reader agrees with num_parse and num_parse_i64 on s,
 * as a field of a reader's buffer: the TAB of a line not cut after it,
 * zeros after that. */
static int pcmp_field_check(const char *s, int rc, double got, int verbose)
{
	char pad[96] = { 0 };
	size_t len = strlen(s);
	double field = 54321;
	int64_t i = 1, fi = 2;
	int frc, irc, firc;

	memcpy(pad, s, len);
	pad[len] = '\t';
	frc = num_parse_field(pad, len, &field);
	irc = num_parse_i64(s, &i);
	firc = num_parse_i64_field(pad, len, &fi);
	if (frc == rc && (rc || pcmp_same_bits(field, got)) && firc == irc && (irc || fi == i))
		return 0;
	if (verbose)
		fprintf(stderr, "# %s: num_parse_field %d %a, num_parse %d %a; "
		        "num_parse_i64_field %d %lld, num_parse_i64 %d %lld\n", s, frc, field, rc,
		        got, firc, (long long)fi, irc, (long long)i);
	return 1;
}

/* 0 when num_parse agrees with strtod on s, and the field reader with
 * num_parse. */
static int pcmp_check(const char *s, int verbose)
{
	double want = strtod(s, NULL), got = 12345;
	int rc = num_parse(s, &got);

	if (isfinite(want) ? rc == 0 && pcmp_same_bits(got, want) : rc == -1)
		return pcmp_field_check(s, rc, got, verbose);
	if (verbose)
		fprintf(stderr, "# %s: num_parse %d %a, strtod %a\n", s, rc, got, want);
	return 1;
}

/* n values, spread over the kinds. */
static void pcmp_run(struct pcmp_stats st[PCMP_NKIND], long n)
{
	char s[80];
	long i;

	for (i = 0; i < n; i++) {
		int kind = (int)(i % PCMP_NKIND);

		pcmp_make(s, kind);
		st[kind].n++;
		if (pcmp_check(s, st[kind].wrong < 3))
			st[kind].wrong++;
	}
}

#endif

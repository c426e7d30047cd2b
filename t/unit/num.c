/* Unit tests of lib/num_parse.c and lib/num_format.c. The reference is
 * the C library's strtod/strtold/printf, which glibc and musl round
 * correctly; exact values are written out where they are known. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "human.h"
#include "num.h"
#include "num_bits.h"
#include "numcmp.h"
#include "parsecmp.h"
#include "pow10.h"
#include "tap.h"

static uint64_t mix_state = 42;

/* splitmix64, local so the test does not depend on lib/rng.c. */
static uint64_t mix(void)
{
	uint64_t z = (mix_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* s made printable for a test name: escapes, and long inputs cut. */
static const char *esc(const char *s)
{
	static char buf[4][80];
	static int k;
	char *b = buf[k++ % 4], *p = b;

	for (; *s && p < b + 60; s++) {
		if (*s == '\n' || *s == '\t')
			p += sprintf(p, "\\%c", *s == '\n' ? 'n' : 't');
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			p += sprintf(p, "\\x%02x", (unsigned char)*s);
		else
			*p++ = *s;
	}
	strcpy(p, *s ? "..." : "");
	return b;
}

static int same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static void parses_to(const char *s, double want)
{
	double got = NAN;
	int rc = num_parse(s, &got);

	if (!ok(rc == 0 && same_bits(got, want), "num_parse(\"%s\") = %.17g", esc(s), want))
		fprintf(stderr, "# rc %d, got %.17g\n", rc, got);
}

static void parse_rejects(const char *s)
{
	double v = 12345;

	ok(num_parse(s, &v) == -1 && v == 12345, "num_parse rejects \"%s\"", esc(s));
}

/* DBL_MAX + 2^970, without its last digit; python3: str(2**1024 - 2**970) */
#define HALF_ULP_ABOVE_DBL_MAX \
	"179769313486231580793728971405303415079934132710037826936173778980" \
	"444968292764750946649017977587207096330286416692887910946555547851" \
	"940402630657488671505820681908902000708383676273854845817711531764" \
	"475730270069855571366959622842914819860834936475292719074168444365" \
	"51070434271155969950809304288017790417449779"

/* Decimals where a fast reader goes wrong: beyond Clinger's fast path
 * (over 2^53 or |exponent| > 22), at or next to a point halfway between
 * two doubles, at the ends of the normal and subnormal range, and the
 * 17-digit shortest output of pb itself. The doubles from python3, whose
 * float() rounds correctly (its own code, not the C library's):
 *     python3 -c 'print(float("7.038531e-26").hex())'  */
static void test_parse_hard(void)
{
	parses_to("0.9999999999999999", 0x1.fffffffffffffp-1);
	parses_to("1.0000000000000002", 0x1.0000000000001p+0);
	parses_to("7.038531e-26", 0x1.5c87fbp-84);
	parses_to("-0.0054279578428802835", -0x1.63ba056b53268p-8);   /* pb-logratio */
	parses_to("0.021623481384252578", 0x1.62477457bef31p-6);
	parses_to("3.0540316161057424e-5", 0x1.0030d45e15b91p-15);
	parses_to("6.9294956446009195e15", 0x1.89e56ee5e7a58p+52);
	parses_to("9007199254740993e-22", 0x1.e392010175ee7p-21);
	/* 19 digits */
	parses_to("9223372036854775807", 0x1p63);
	parses_to("1844674407370955161", 0x1.999999999999ap+60);
	parses_to("9999999999999999999", 0x1.158e460913d00p+63);
	parses_to("123456789012345678e-320", 0x1.b178b6060cddbp-1007);
	/* exact ties, to even: 10^23 = 5^23 2^23 with 5^23 of 54 bits (the
	 * product exact); 2^53 + 1 with a point and zeros (the exponent
	 * negative, the truncated power: strtod decides) */
	parses_to("8e23", 0x1.52d02c7e14af6p+79);
	parses_to("9007199254740993.0", 0x1p53);
	parses_to("9007199254740993.000", 0x1p53);
	parses_to("9007199254740995.000", 0x1.0000000000002p+53);
	parses_to("1.1920928955078125e-7", 0x1p-23);   /* 2^-23 exactly */
	/* the ends of the range */
	parses_to("1.7976931348623158e308", DBL_MAX);
	parses_to("0.001e311", 0x1.1ccf385ebc8a0p+1023);
	parses_to("4.4501477170144023e-308", 0x1.fffffffffffffp-1022);
	parses_to("2.2250738585072012e-308", DBL_MIN);
	parses_to("2.2250738585072013e-308", DBL_MIN);
	parses_to("2.2250738585072009e-308", 0x0.fffffffffffffp-1022);
	parses_to("1.2345678901234567e-310", 0x0.016b9f4d3cd48p-1022);
	parses_to("2.4703282292062328e-324", 0x1p-1074);   /* just above 2^-1075 */
	parses_to("2.4703282292062327e-324", 0);           /* just below */
	parses_to("-2.4703282292062327e-324", -0.0);
	parses_to("1000000000000000000e-361", 0);          /* 10^-343 */
	parses_to("1e-400", 0);
	parses_to("0e-400", 0);
	parse_rejects("1.7976931348623159e308");            /* above DBL_MAX + ulp/2 */
	parse_rejects("1e309");
	parse_rejects("0.1e310");
}

static void test_parse(void)
{
	static const char *bad[] = {
		"", " 1", "1 ", "0x10", "inf", "-inf", "nan", "NaN", "1e", "1e+",
		"1e-", "--1", "+-1", "1.2.3", "1,5", "1e999", "-1e999", ".", "-",
		"+", "e5", ".e5", "1e5x", "1..", "1\n", "\t1", "1_000", "1e1.5",
		HALF_ULP_ABOVE_DBL_MAX "2",   /* rounds to 2^1024: overflow */
	};
	size_t i;

	parses_to("1", 1);
	parses_to("-2.5", -2.5);
	parses_to("1e3", 1000);
	parses_to("1E3", 1000);
	parses_to(".5", 0.5);
	parses_to("5.", 5);
	parses_to("+3", 3);
	parses_to("-0", -0.0);
	parses_to("0e999", 0);
	parses_to("007", 7);
	parses_to("1e-3", 0.001);
	parses_to("0.30000000000000004", 0.1 + 0.2);
	parses_to("0.3", 0.3);
	ok(!same_bits(0.1 + 0.2, 0.3), "(0.30000000000000004 and 0.3 differ)");
	parses_to("9007199254740993", 9007199254740992.0);   /* tie: to even */
	parses_to("9007199254740995", 9007199254740996.0);   /* tie: to even */
	parses_to("1.7976931348623157e308", DBL_MAX);
	parses_to("2.2250738585072014e-308", DBL_MIN);
	parses_to("2.2250738585072011e-308", 0x0.fffffffffffffp-1022);
	parses_to("4.9406564584124654e-324", 0x1p-1074);
	parses_to("5e-324", 0x1p-1074);
	parses_to(HALF_ULP_ABOVE_DBL_MAX "1", DBL_MAX);
	parses_to("1e23", 1e23);
	parses_to("12345678901234567890123", 12345678901234567890123.0);
	parses_to("0.000000000000000000000000000001", 1e-30);
	test_parse_hard();
	for (i = 0; i < LEN(bad); i++)
		parse_rejects(bad[i]);
}

/* Random decimals of 1 to 25 significant digits, mostly 15 to 19, over
 * the whole exponent range: num_parse must equal strtod bit for bit. */
static void test_parse_random(void)
{
	long n, mismatch = 0;
	const long N = 100000;
	char s[64];

	for (n = 0; n < N; n++) {
		int nd = (int)(mix() % 4 ? 15 + mix() % 5 : 1 + mix() % 25), len = 0, i;
		int exp = (int)(mix() % 660) - 340;
		double want, got;

		if (mix() % 2)
			s[len++] = '-';
		s[len++] = (char)('1' + mix() % 9);
		if (nd > 1)
			s[len++] = '.';
		for (i = 1; i < nd; i++)
			s[len++] = (char)('0' + mix() % 10);
		sprintf(s + len, "e%d", exp);
		want = strtod(s, NULL);
		if (!isfinite(want)) {
			if (num_parse(s, &got) != -1)
				mismatch++;
		} else if (num_parse(s, &got) != 0 || !same_bits(got, want)) {
			if (mismatch++ < 5)
				fprintf(stderr, "# %s: got %.17g want %.17g\n", s, got, want);
		}
	}
	ok(mismatch == 0, "%ld random decimals of 1-25 digits: num_parse == strtod "
	   "(%ld mismatches)", N, mismatch);
}

/* Integers halfway between two doubles in [2^53, 2^63), and one off either
 * side, written as integers and in scientific form. */
static void test_parse_halfway(void)
{
	long n, mismatch = 0;
	const long N = 30000;
	char s[32], t[80];

	for (n = 0; n < N; n++) {
		int e = 53 + (int)(mix() % 10), d;
		uint64_t m = (UINT64_C(1) << 52) | (mix() >> 12);
		uint64_t mid = (m << (e - 52)) + (UINT64_C(1) << (e - 53));

		for (d = -1; d <= 1; d++) {
			double want, got, got2;

			sprintf(s, "%llu", (unsigned long long)(mid + (uint64_t)d));
			sprintf(t, "%c.%se%d", s[0], s + 1, (int)strlen(s) - 1);
			want = strtod(s, NULL);
			if (num_parse(s, &got) != 0 || !same_bits(got, want) ||
			    num_parse(t, &got2) != 0 || !same_bits(got2, want)) {
				if (mismatch++ < 5)
					fprintf(stderr, "# %s: got %.17g want %.17g\n", s, got, want);
			}
		}
	}
	ok(mismatch == 0, "%ld integers at and next to midpoints of doubles: "
	   "num_parse == strtod (%ld mismatches)", 3 * N, mismatch);
}

/* Decimals of 16 to 19 digits nearest to a point halfway between two
 * doubles (or one long-double step either side of it): the inputs where
 * a 64-bit intermediate can round the wrong way. The midpoint is exact
 * in a long double, and printf prints it correctly rounded. */
static void test_parse_near_midpoint(void)
{
#if LDBL_MANT_DIG >= 64
	long n, mismatch = 0;
	const long N = 30000;
	char s[64];

	for (n = 0; n < N; n++) {
		uint64_t u = mix();
		int exp = n % 2 ? (int)(mix() % 200) - 100 : (int)(mix() % 2000) - 1000;
		double x = ldexp((double)((u >> 11) | (UINT64_C(1) << 52)), exp - 52);
		long double mid = (long double)x + (long double)(nextafter(x, INFINITY) - x) / 2;
		long double pts[3];
		int i;

		if (!isfinite(nextafter(x, INFINITY)))
			continue;
		pts[0] = mid;
		pts[1] = nextafterl(mid, 0);
		pts[2] = nextafterl(mid, INFINITY);
		for (i = 0; i < 3; i++) {
			double want, got;

			sprintf(s, "%.*Le", 15 + (int)(u % 4), pts[i]);
			want = strtod(s, NULL);
			if (num_parse(s, &got) != 0 || !same_bits(got, want)) {
				if (mismatch++ < 5)
					fprintf(stderr, "# %s: got %.17g want %.17g\n", s, got, want);
			}
		}
	}
	ok(mismatch == 0, "%ld decimals next to midpoints of doubles: num_parse == "
	   "strtod (%ld mismatches)", 3 * N, mismatch);
#else
	ok(1, "decimals next to midpoints # skip no 64-bit long double");
#endif
}

/* t/unit/parsecmp.h: doubles of any bit pattern and log ratios, printed
 * with %.17g and with the shortest digits, 1-19 digit decimals of any
 * exponent, plain and in exponent form, and whole numbers; each also as
 * a field (lib/num_field.h) against num_parse and num_parse_i64;
 * share/dev/parse-compare runs more (12 M). */
static void test_parse_kinds(void)
{
	struct pcmp_stats st[PCMP_NKIND];
	int i;

	memset(st, 0, sizeof st);
	pcmp_run(st, 100000L * PCMP_NKIND);
	for (i = 0; i < PCMP_NKIND; i++)
		ok(st[i].n == 100000 && st[i].wrong == 0, "%s: %ld decimals, num_parse == "
		   "strtod, fields the same (%ld differ)", pcmp_kind[i], st[i].n, st[i].wrong);
}

static void i64_is(const char *s, int64_t want)
{
	int64_t got = 0;
	int rc = num_parse_i64(s, &got);

	ok(rc == 0 && got == want, "num_parse_i64(\"%s\")", s);
}

static void test_parse_i64(void)
{
	static const char *bad[] = {
		"9223372036854775808", "-9223372036854775809", "18446744073709551616",
		"18446744073709551615", "99999999999999999999999", "", "-", "+",
		" 1", "1 ", "1.0", "1e3", "0x10", "--1", "1,000",
	};
	size_t i;
	int64_t v;

	i64_is("9223372036854775807", INT64_MAX);
	i64_is("-9223372036854775808", INT64_MIN);
	i64_is("0", 0);
	i64_is("-0", 0);
	i64_is("+17", 17);
	i64_is("-42", -42);
	i64_is("0009", 9);
	for (i = 0; i < LEN(bad); i++)
		ok(num_parse_i64(bad[i], &v) == -1, "num_parse_i64 rejects \"%s\"", esc(bad[i]));
}

static void dur_is(const char *s, int64_t want)
{
	int64_t got = -1;
	int rc = num_parse_dur(s, &got);

	if (!ok(rc == 0 && got == want, "num_parse_dur(\"%s\") = %lld", esc(s), (long long)want))
		fprintf(stderr, "# rc %d, got %lld\n", rc, (long long)got);
}

static void test_parse_dur(void)
{
	static const char *bad[] = {
		"-1ms", "1h", "ms", "1 ms", " 1ms", "1ms ", "1e30s", "1e19", "", "-0",
		"1MS", "1Ms", "us", "1.5.ms", "1msx", "1\xb5s", "inf", "nan",
		"9223372036854775807ns",
	};
	size_t i;
	int64_t v;

	dur_is("250us", 250000);
	dur_is("1.5ms", 1500000);
	dur_is("2s", 2000000000);
	dur_is("10ns", 10);
	dur_is("10", 10);
	dur_is("0", 0);
	dur_is("0s", 0);
	dur_is("1\xc2\xb5s", 1000);   /* U+00B5 MICRO SIGN in UTF-8 */
	dur_is("0.5s", 500000000);
	dur_is("1e3us", 1000000);
	dur_is("+3ms", 3000000);
	dur_is("1.4ns", 1);
	dur_is("1.6ns", 2);
	dur_is("4611686018427387904", NUM_DUR_MAX);
	dur_is("4611686018.427387904s", NUM_DUR_MAX);
	for (i = 0; i < LEN(bad); i++)
		ok(num_parse_dur(bad[i], &v) == -1, "num_parse_dur rejects \"%s\"", esc(bad[i]));
}

static void test_parse_count(void)
{
	long v = 0;

	ok(num_parse_count("3", 10, &v) == 0 && v == 3, "num_parse_count 3");
	ok(num_parse_count("10", 10, &v) == 0 && v == 10, "num_parse_count at max");
	ok(num_parse_count("11", 10, &v) == -1, "num_parse_count rejects above max");
	ok(num_parse_count("0", 10, &v) == -1, "num_parse_count rejects 0");
	ok(num_parse_count("-1", 10, &v) == -1, "num_parse_count rejects -1");
	ok(num_parse_count("2.0", 10, &v) == -1, "num_parse_count rejects 2.0");
}

static void formats_as(double x, const char *want)
{
	char buf[NUM_BUFSZ];
	size_t n = num_format(buf, x);

	if (!ok(strcmp(buf, want) == 0 && n == strlen(want),
	        "num_format(%.17g) = \"%s\"", x, want))
		fprintf(stderr, "# got \"%s\" (length %zu)\n", buf, n);
}


/* num_format_i64 against printf at every length: 10^k - 1, 10^k, 10^k + 1
 * and 2 * 10^k, either sign, and 200 000 values of random length (the
 * digits are written in groups of eight: each length is a case). */
static void test_format_i64_lengths(void)
{
	char buf[NUM_BUFSZ], want[32];
	uint64_t state = 88172645463325252u, p = 1;
	long bad = 0, n = 0;
	int k, i, sign;

	for (k = 0; k <= 18; k++, p *= 10) {
		int64_t v[4] = { (int64_t)p - 1, (int64_t)p, (int64_t)p + 1, 2 * (int64_t)p };

		for (i = 0; i < 4; i++)
			for (sign = 1; sign >= -1; sign -= 2) {
				int64_t x = sign * v[i];

				snprintf(want, sizeof want, "%lld", (long long)x);
				bad += num_format_i64(buf, x) != strlen(want) || strcmp(buf, want) != 0;
				n++;
			}
	}
	for (i = 0; i < 200000; i++) {
		int64_t x;

		state ^= state << 13, state ^= state >> 7, state ^= state << 17;
		x = (int64_t)(state >> (state % 63 + 1)) * (state & 1 ? -1 : 1);
		snprintf(want, sizeof want, "%lld", (long long)x);
		bad += num_format_i64(buf, x) != strlen(want) || strcmp(buf, want) != 0;
		n++;
	}
	ok(bad == 0, "num_format_i64 as printf at every length: %ld of %ld differ", bad, n);
}
static void test_format(void)
{
	char buf[NUM_BUFSZ];
	double v;
	FILE *f;

	formats_as(0, "0");
	formats_as(-0.0, "0");
	formats_as(1, "1");
	formats_as(-3, "-3");
	formats_as(-2.5, "-2.5");
	formats_as(1e15, "1000000000000000");
	formats_as(1e15 + 0.5, "1000000000000000.5");
	formats_as(-1e15, "-1000000000000000");
	formats_as(9007199254740991.0, "9007199254740991");
	formats_as(9007199254740992.0, "9007199254740992");      /* 2^53 */
	formats_as(9007199254740994.0, "9007199254740994");
	formats_as(-9007199254740992.0, "-9007199254740992");
	formats_as(9223372036854775808.0, "9223372036854776000");  /* 2^63 */
	formats_as(1e20, "100000000000000000000");
	formats_as(1e21, "1e21");
	formats_as(1e22, "1e22");
	/* Was a lib bug, fixed (lib/num_format.c, shorten/drop_digit): when dropping a
	 * digit carries through all nines the shorter form is not tried, so
	 * these print as 9.999999999999999e22 and 9.999999999999999e125. */
	formats_as(1e23, "1e23");
	formats_as(1e126, "1e126");
	formats_as(1.5e300, "1.5e300");
	formats_as(0.1, "0.1");
	formats_as(0.3, "0.3");
	formats_as(0.1 + 0.2, "0.30000000000000004");
	formats_as(1.0 / 3, "0.3333333333333333");
	formats_as(2.0 / 3, "0.6666666666666666");
	formats_as(123.456, "123.456");
	formats_as(-0.1, "-0.1");
	formats_as(1e-5, "0.00001");
	formats_as(1.5e-5, "0.000015");
	formats_as(1e-7, "1e-7");
	formats_as(-1e-7, "-1e-7");
	formats_as(1.25e-100, "1.25e-100");
	formats_as(0x1p-1074, "5e-324");
	formats_as(3 * 0x1p-1074, "1.5e-323");
	formats_as(-0x1p-1074, "-5e-324");
	formats_as(DBL_MAX, "1.7976931348623157e308");
	formats_as(-DBL_MAX, "-1.7976931348623157e308");
	formats_as(DBL_MIN, "2.2250738585072014e-308");
	formats_as(0x0.fffffffffffffp-1022, "2.225073858507201e-308");
	formats_as(-1.7976931348623155e308, "-1.7976931348623155e308");
	formats_as(2 * 0x1p-1074, "1e-323");
	formats_as(1.5e-6, "1.5e-6");
	formats_as(1.2345e-5, "0.000012345");
	formats_as(123456789012345680000.0, "123456789012345680000");
	/* 2^-24 = 5.9604644775390625e-8: of the 16-digit decimals either side
	 * only the upper one reads back (the gap below a power of two is half) */
	formats_as(0x1p-24, "5.960464477539063e-8");
	/* Were wrong before Schubfach (Grisu2's digits shortened): the nearest
	 * of the shortest, as python3's repr and glibc's exact printf say... */
	formats_as(0x1.0000000000013p+324, "3.4175792574734706e97");
	formats_as(0x1.324ae9e18200ep-750, "2.0202254385590465e-226");
	formats_as(0x0.00eb6c7cc06a2p-1022, "7.9930922751134e-311");
	/* ...and of two as near (the double is exactly halfway: 2^49 + 1/4,
	 * 2^49 + 3/4, 3.48758697509765625) the even one, as ECMAScript,
	 * python3 and Ryu do: the old printer took either. */
	formats_as(0x1p49 + 0.25, "562949953421312.2");
	formats_as(0x1p49 + 0.75, "562949953421312.8");
	formats_as(3.48758697509765625, "3.4875869750976562");
	num_format(buf, 9007199254740992.0);
	ok(num_parse(buf, &v) == 0 && v == 9007199254740992.0, "2^53 reads back");
	ok(num_format_i64(buf, INT64_MIN) == 20 &&
	   strcmp(buf, "-9223372036854775808") == 0, "num_format_i64(INT64_MIN)");
	ok(num_format_i64(buf, INT64_MAX) == 19 &&
	   strcmp(buf, "9223372036854775807") == 0, "num_format_i64(INT64_MAX)");
	ok(num_format_i64(buf, 0) == 1 && strcmp(buf, "0") == 0, "num_format_i64(0)");
	ok(num_format_i64(buf, -7) == 2 && strcmp(buf, "-7") == 0, "num_format_i64(-7)");
	test_format_i64_lengths();
	f = tmpfile();
	if (f) {
		num_put(f, 0.25);
		num_put(f, -1e-9);
		rewind(f);
		memset(buf, 0, sizeof buf);
		ok(fread(buf, 1, sizeof buf - 1, f) == 9 && strcmp(buf, "0.25-1e-9") == 0,
		   "num_put writes num_format's text");
		fclose(f);
	} else {
		ok(0, "tmpfile for num_put");
	}
}

/* Is there a decimal with fewer significant digits than num_format's
 * output that reads back as x?  With the output's digits D (d of them,
 * trailing zeros dropped), the only candidates are the two decimals of
 * d-1 digits either side of D, T (D truncated) and T + 1 unit: the set of
 * decimals that read back as x is an interval holding D, so if it held a
 * shorter decimal it would hold T or T + 1, and shorter decimals are
 * decimals of d-1 digits too. strtod is the judge, asked only about a
 * candidate within an ulp of D (both it and D within half an ulp of x,
 * margin 1e-9 for pow's rounding). x > 0. */
static int shorter_exists(const char *out, double x)
{
	char d[NUM_BUFSZ], s[2 * NUM_BUFSZ];
	const char *p, *dot = strchr(out, '.'), *e = strchr(out, 'e');
	int n = 0, exp = 0, i, last;
	double unit, ulp = (nextafter(x, INFINITY) - x) * (1 + 1e-9);

	for (p = out; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && (n || *p != '0'))
			d[n++] = *p;
	if (dot)
		exp = -(int)((e ? e : dot + strlen(dot)) - dot - 1);
	if (e)
		exp += atoi(e + 1);
	while (n > 1 && d[n - 1] == '0')
		n--, exp++;
	if (n < 2)
		return 0;
	last = d[n - 1] - '0';
	unit = pow(10, exp);              /* of D's last digit */
	n--, exp++;                       /* T: D truncated to n digits */
	if (last * unit <= ulp) {
		sprintf(s, "%.*se%d", n, d, exp);
		if (strtod(s, NULL) == x)
			return 1;
	}
	if ((10 - last) * unit > ulp)
		return 0;
	for (i = n - 1; i >= 0 && d[i] == '9'; i--)
		d[i] = '0';                   /* T + 1 unit */
	if (i >= 0)
		d[i]++;
	sprintf(s, "%s%.*se%d", i < 0 ? "1" : "", n, d, exp);
	return strtod(s, NULL) == x;
}

struct rt {
	long n, parse_fail, strtod_fail, longer, too_long;
};

static void round_trip(struct rt *r, double x)
{
	char buf[NUM_BUFSZ];
	double v = NAN;
	size_t len;

	if (!isfinite(x) || x == 0)
		return;
	r->n++;
	len = num_format(buf, x);
	if (len != strlen(buf) || len >= NUM_BUFSZ)
		r->too_long++;
	if (num_parse(buf, &v) != 0 || !same_bits(v, x)) {
		if (r->parse_fail++ < 5)
			fprintf(stderr, "# %a printed as %s reads back as %a\n", x, buf, v);
	}
	if (!same_bits(strtod(buf, NULL), x))
		r->strtod_fail++;
	if (shorter_exists(buf, fabs(x))) {
		if (r->longer++ < 5)
			fprintf(stderr, "# %a printed as %s: a shorter form reads back\n", x, buf);
	}
}

static void test_round_trip(void)
{
	struct rt r = { 0, 0, 0, 0, 0 };
	long i;

	ok(shorter_exists("9.999999999999999e22", 1e23) &&
	   shorter_exists("0.29999999999999999", 0.3) &&
	   !shorter_exists("1e23", 1e23) &&
	   !shorter_exists("0.30000000000000004", 0.1 + 0.2) &&
	   !shorter_exists("1000000000000000.5", 1e15 + 0.5),
	   "the shortness check itself tells short from long");

	for (i = 0; i < 200000; i++) {    /* bit patterns: every exponent */
		uint64_t u = mix();
		double x;

		memcpy(&x, &u, sizeof x);
		round_trip(&r, x);
	}
	for (i = 0; i < 30000; i++) {     /* subnormals */
		uint64_t u = mix() >> 12;
		double x;

		memcpy(&x, &u, sizeof x);
		round_trip(&r, x);
	}
	for (i = 0; i < 300000; i++) {    /* ratios, as statistics produce */
		double a = (double)(1 + mix() % 1000000), b = (double)(1 + mix() % 1000000);

		round_trip(&r, a / b);
		round_trip(&r, log(a / b));
	}
	for (i = 0; i < 60000; i++) {     /* nanoseconds scaled */
		double ns = (double)(mix() % 100000000000000u);

		round_trip(&r, ns / 1e9);
		round_trip(&r, ns * 1e-3);
		round_trip(&r, ns);
	}
	ok(r.n >= 1000000, "round trip sample: %ld doubles", r.n);
	ok(r.parse_fail == 0, "num_format then num_parse gives the same double "
	   "(%ld failures)", r.parse_fail);
	ok(r.strtod_fail == 0, "num_format then strtod gives the same double "
	   "(%ld failures)", r.strtod_fail);
	ok(r.too_long == 0, "num_format's length fits NUM_BUFSZ and matches "
	   "strlen (%ld failures)", r.too_long);
	ok(r.longer == 0, "num_format is shortest (%ld of %ld not)", r.longer, r.n);
}

/* lib/pow10.h: t = floor(10^e * 2^(127 - b)) with 2^b <= 10^e < 2^(b+1),
 * the parser's factor, and t + 1 the printer's upper bound. strtold
 * rounds 10^e correctly to 64 bits where long double has them (x86): its
 * significand is t's high word, or one above when the rest rounds up.
 * For 0 <= e <= 55, 10^e * 2^(127 - b) = 5^e * 2^(128 - bits(5^e)) is an
 * integer below 2^128: checked exactly, 5^e computed in two words here.
 * The range: 10^-342 (the least w 10^e above 2^-1075, w < 2^64) to
 * 10^324 (the printer's largest scale). */
static void test_pow10_table(void)
{
	size_t n = sizeof pow10_t / sizeof pow10_t[0], i;
	long bad = 0, checked = 0, exact = 0;
	char s[16];

	ok(n == POW10_E_MAX - POW10_E_MIN + 1 && POW10_E_MIN == -342 && POW10_E_MAX == 324 &&
	   POW10_PRINT_MIN == -292 && POW10_PARSE_MAX == 308,
	   "pow10.h has 667 entries, 10^-342 to 10^324");
	for (i = 0; i < n; i++) {
		int e = POW10_E_MIN + (int)i;
		uint64_t hi = pow10_t[i][0], lo = pow10_t[i][1];

		if (!(hi >> 63) || (hi == UINT64_MAX && lo == UINT64_MAX))   /* t + 1 < 2^128 */
			bad++;
#if LDBL_MANT_DIG == 64
		{
			int e2;
			long double fr;
			uint64_t m;

			sprintf(s, "1e%d", e);
			fr = frexpl(strtold(s, NULL), &e2);
			m = (uint64_t)ldexpl(fr, 64);
			checked++;
			if (m != hi && m != hi + 1)
				bad++;
		}
#else
		(void)s;
#endif
		if (e >= 0 && e <= 55) {   /* 5^e in 128 bits, by hand */
			uint64_t p[2] = { 0, 1 };   /* { high, low } */
			int j;

			for (j = 0; j < e; j++) {
				uint64_t l, h = mul_64(p[1], 5, &l);

				p[0] = p[0] * 5 + h;
				p[1] = l;
			}
			while (!(p[0] >> 63)) {
				p[0] = p[0] << 1 | p[1] >> 63;
				p[1] <<= 1;
			}
			exact++;
			if (p[0] != hi || p[1] != lo)
				bad++;
		}
	}
	ok(bad == 0, "pow10.h: top bits set; %ld high words checked against strtold, "
	   "%ld entries exactly 5^e; %ld wrong", checked, exact, bad);
}

/* The printer before this one (t/unit/grisu.h) and the exact oracle
 * (t/unit/numcmp.h) over 1 M values of eight kinds, every 32nd of each
 * kind and every disagreement checked against the oracle. The two
 * printers agree except where the old one was not the nearest of the
 * shortest, or on exact ties (the new one takes the even digit), and each
 * such case is checked as that. share/dev/num-compare runs more. */
static void test_against_grisu(void)
{
	struct cmp_stats st[CMP_NCAT], all;
	int i;

	memset(st, 0, sizeof st);
	memset(&all, 0, sizeof all);
	cmp_run(st, 1000000, 32);
	for (i = 0; i < CMP_NCAT; i++) {
		all.n += st[i].n;
		all.same += st[i].same;
		all.ties += st[i].ties;
		all.old_wrong += st[i].old_wrong;
		all.new_wrong += st[i].new_wrong;
		all.oracle_n += st[i].oracle_n;
		all.oracle_bad += st[i].oracle_bad;
		all.bad_text += st[i].bad_text;
		ok(st[i].new_wrong == 0 && st[i].oracle_bad == 0 && st[i].bad_text == 0 &&
		   st[i].n == st[i].same + st[i].ties + st[i].old_wrong,
		   "%s: %ld values, %ld printed as before, %ld exact ties to even, "
		   "%ld where the old printer was not nearest; %ld of %ld checked "
		   "against the oracle wrong", cmp_category[i], st[i].n, st[i].same,
		   st[i].ties, st[i].old_wrong, st[i].oracle_bad, st[i].oracle_n);
	}
	ok(all.n >= 999000 && all.oracle_n > 30000 && all.ties > 100,
	   "%ld values compared, %ld against the oracle, %ld ties among them",
	   all.n, all.oracle_n, all.ties);
}

/* lib/human: 4 significant digits in the unit that keeps them below its
 * step; the cases at each boundary are worked by hand. */
static void human_is(const char *got, const char *want, const char *what)
{
	if (!ok(strcmp(got, want) == 0, "%s is \"%s\"", what, want))
		fprintf(stderr, "# got \"%s\"\n", got);
}

static void test_human(void)
{
	char b[SIG_BUFSZ];

	human_is(sig4(b, 0.99714), "0.9971", "sig4(0.99714)");
	human_is(sig4(b, 1), "1.000", "sig4(1)");
	human_is(sig4_ns(b, 999.9), "999.9 ns", "sig4_ns(999.9)");
	human_is(sig4_ns(b, 999.97), "1.000 \302\265s", "sig4_ns(999.97): rounds up a unit");
	human_is(sig4_ns(b, 10.2e6), "10.20 ms", "sig4_ns(10.2e6)");
	human_is(sig4_ns(b, 12345e6), "12.35 s", "sig4_ns(12345e6)");
	human_is(sig4_ns(b, 4e12), "4000 s", "sig4_ns(4e12): s is the last unit");
	human_is(sig4_kib(b, 1023), "1023 KiB", "sig4_kib(1023)");
	human_is(sig4_kib(b, 1023.96), "1.000 MiB", "sig4_kib(1023.96): 1024.0 rounds up a unit");
	human_is(sig4_kib(b, 7204), "7.035 MiB", "sig4_kib(7204): 7204/1024 = 7.03515625");
	human_is(sig4_kib(b, 99532), "97.20 MiB", "sig4_kib(99532): 97.199...");
	human_is(sig4_kib(b, 3 * 1048576.0), "3.000 GiB", "sig4_kib(3 GiB)");
	human_is(sig4_kib(b, 0), "0.000 KiB", "sig4_kib(0)");
}

int main(void)
{
	test_parse();
	test_parse_random();
	test_parse_halfway();
	test_parse_near_midpoint();
	test_parse_kinds();
	test_parse_i64();
	test_parse_dur();
	test_parse_count();
	test_format();
	test_round_trip();
	test_pow10_table();
	test_against_grisu();
	test_human();
	return done_testing();
}

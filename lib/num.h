/* num: the toolkit's only number parser and printer.
 * Parsing takes the whole field or nothing: optional sign, decimal digits
 * with an optional point, optional exponent. No spaces, hex, inf or nan;
 * the result must be finite. The decimal point is '.' in every locale.
 * Printing gives the shortest digits that read back to the same double,
 * the nearest to it of those, and of two as near the one ending in an
 * even digit (as ECMAScript, Ryu and python's repr); integers below 2^53
 * print as integers. */
#ifndef PB_NUM_H
#define PB_NUM_H

#include <stdint.h>
#include <stdio.h>

enum { NUM_BUFSZ = 32 };

int num_parse(const char *s, double *out);          /* 0 or -1 */
/* The same for the len bytes at s, where s[len] is NUL (a field whose
 * length is known: no strlen). */
int num_parse_len(const char *s, size_t len, double *out);
/* The same for a field of a reader's buffer: lib/num_field.h. */
int num_parse_i64(const char *s, int64_t *out);     /* 0 or -1 */
/* Durations: "250us", "1.5ms", "2s", "10ns", bare = ns; also "µs".
 * Rounds to whole ns; 0 <= result <= NUM_DUR_MAX. */
#define NUM_DUR_MAX INT64_C(4611686018427387904) /* 2^62 ns, ~146 years */
int num_parse_dur(const char *s, int64_t *ns);      /* 0 or -1 */
/* Positive count for an option such as --runs: 1 <= n <= max. */
int num_parse_count(const char *s, long max, long *out);

size_t num_format(char buf[NUM_BUFSZ], double x);   /* returns length */
size_t num_format_i64(char buf[NUM_BUFSZ], int64_t x);
void num_put(FILE *f, double x);

/* Clinger's fast path, for the parser (and t/unit/grisu.h, the printer
 * before Schubfach, which read its digits back with it):
 * mant * 10^exp10 correctly rounded in one multiply or divide when the
 * significand is below 2^53 and |exp10| <= 22. Returns 0 when it does not
 * apply. */
static inline int num_exact(uint64_t mant, long exp10, double *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};

	if (mant >= (UINT64_C(1) << 53) || exp10 < -22 || exp10 > 22)
		return 0;
	*out = exp10 < 0 ? (double)mant / pow10[-exp10] : (double)mant * pow10[exp10];
	return 1;
}

#endif

/* num_field: a field read from a reader's buffer (lib/stream.c), where
 * the 8 bytes from any of its bytes may be loaded. The common field, a
 * whole number of 1 to 16 digits (times in ns, counts, run numbers), is
 * read here inline: its call cost as much as its reading. Any other goes
 * to lib/num_parse.c, which decides as num_parse does. */
#ifndef PB_NUM_FIELD_H
#define PB_NUM_FIELD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "num_bits.h"

/* The rest of the work, out of line: any field num_short_whole does
 * not take. s[len] is read: the field's end (a NUL) or the TAB after it
 * (a line not cut). 0 or -1. */
int num_parse_field_rest(const char *s, size_t len, double *out);
int num_parse_i64_field_rest(const char *s, size_t len, int64_t *out);

#if NUM_DIGIT_WORDS
/* The value of eight ASCII digits at once, after simdjson and
 * fast_float. */
static inline uint64_t num_digits_value(uint64_t w)
{
	w = (w & UINT64_C(0x0f0f0f0f0f0f0f0f)) * 2561 >> 8;
	w = (w & UINT64_C(0x00ff00ff00ff00ff)) * 6553601 >> 16;
	return (w & UINT64_C(0x0000ffff0000ffff)) * UINT64_C(42949672960001) >> 32;
}

/* Non-zero unless each of the eight bytes of w is a digit: a byte that
 * is none has its high half not 3, or 3 with a low half above 9 (adding
 * 6 carries out of it); a carry moves only into later bytes, after the
 * first such one. */
static inline uint64_t num_not_digits(uint64_t w)
{
	const uint64_t high = UINT64_C(0xf0f0f0f0f0f0f0f0), zero = UINT64_C(0x3030303030303030);

	return ((w & high) ^ zero) | (((w + UINT64_C(0x0606060606060606)) & high) ^ zero);
}

/* The first k (1 to 8) bytes of w, digits, as the last of eight, after
 * '0's: so that num_digits_value reads them alone. */
static inline uint64_t num_digits_last(uint64_t w, size_t k)
{
	const uint64_t zero = UINT64_C(0x3030303030303030);

	return k < 8 ? w << (8 * (8 - k)) | zero >> (8 * k) : w;   /* no shift by 64 */
}
#endif

/* Inlined into each caller where the compiler allows it to be forced: a
 * tool reads several such fields a row (pb-pair eight), and the compiler
 * left alone calls the reading instead, which costs as much again. */
#if defined(__GNUC__) || defined(__clang__)
#define NUM_FIELD_INLINE inline __attribute__((always_inline))
#else
#define NUM_FIELD_INLINE inline
#endif

/* A whole number of 1 to 16 digits in one or two loads, the bytes after
 * it shifted out and '0's before it: 1 and its value, or 0 for anything
 * else. The 8 bytes from s + 8 are read only when len > 8. */
static NUM_FIELD_INLINE int num_short_whole(const char *s, size_t len, uint64_t *value)
{
#if NUM_DIGIT_WORDS
	uint64_t w, x;
	size_t n;

	if (len - 1 >= 16)
		return 0;
	if (len == 1) {   /* "0", "1": no load to shift */
		unsigned d = (unsigned)(unsigned char)*s - '0';

		*value = d;
		return d <= 9;
	}
	memcpy(&w, s, 8);
	if (len <= 8) {
		w = num_digits_last(w, len);
		if (num_not_digits(w))
			return 0;
		*value = num_digits_value(w);
		return 1;
	}
	x = w;   /* eight, then the last n */
	n = len - 8;
	memcpy(&w, s + 8, 8);
	w = num_digits_last(w, n);
	if (num_not_digits(w) | num_not_digits(x))
		return 0;
	*value = num_digits_value(x) * num_pow10_u64[n] + num_digits_value(w);
	return 1;
#else
	(void)s, (void)len, (void)value;
	return 0;
#endif
}

/* The field as num_parse reads it, but faster: 0 or -1. */
static inline int num_parse_field(const char *s, size_t len, double *out)
{
	uint64_t v;

	if (num_short_whole(s, len, &v)) {   /* below 10^16: exact */
		*out = (double)v;
		return 0;
	}
	return num_parse_field_rest(s, len, out);
}

/* The field as num_parse_i64 reads it: 0 or -1. */
static inline int num_parse_i64_field(const char *s, size_t len, int64_t *out)
{
	uint64_t v;

	if (num_short_whole(s, len, &v)) {
		*out = (int64_t)v;
		return 0;
	}
	return num_parse_i64_field_rest(s, len, out);
}

#endif

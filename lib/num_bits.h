/* num_bits: integer arithmetic shared by the number printer (Schubfach,
 * lib/num_format.c) and parser (Eisel-Lemire, lib/num_parse.c).
 * -DPB_PORTABLE takes the portable code without unsigned __int128 or
 * compiler builtins (the code for other compilers), to test it. */
#ifndef PB_NUM_BITS_H
#define PB_NUM_BITS_H

#include <stdint.h>

/* The high 64 bits of a * b; *lo gets the low ones. */
#if defined(__SIZEOF_INT128__) && !defined(PB_PORTABLE)
__extension__ typedef unsigned __int128 num_u128;

static inline uint64_t mul_64(uint64_t a, uint64_t b, uint64_t *lo)
{
	num_u128 p = (num_u128)a * b;

	*lo = (uint64_t)p;
	return (uint64_t)(p >> 64);
}
#else
static inline uint64_t mul_64(uint64_t a, uint64_t b, uint64_t *lo)
{
	const uint64_t m32 = 0xffffffffu;
	uint64_t a0 = a & m32, a1 = a >> 32, b0 = b & m32, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & m32) + (p10 & m32);

	*lo = (mid << 32) | (p00 & m32);
	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#endif

/* The number of leading zero bits of x > 0. */
static inline int clz_64(uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && !defined(PB_PORTABLE)
	return __builtin_clzll(x);
#else
	int n = 0;

	for (; !(x >> 32); x <<= 32)
		n += 32;
	for (; !(x >> 63); x <<= 1)
		n++;
	return n;
#endif
}

/* Eight decimal digits as the bytes of one word, the first digit at the
 * lowest address: on little-endian machines (gcc and clang say the byte
 * order). -DPB_PORTABLE takes the digits one by one, as elsewhere. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
	!defined(PB_PORTABLE)
#define NUM_DIGIT_WORDS 1
#else
#define NUM_DIGIT_WORDS 0
#endif

/* 10^e for 0 <= e <= 19: every power of ten a uint64_t holds. */
static const uint64_t num_pow10_u64[] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
	UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000),
	UINT64_C(100000000), UINT64_C(1000000000), UINT64_C(10000000000),
	UINT64_C(100000000000), UINT64_C(1000000000000),
	UINT64_C(10000000000000), UINT64_C(100000000000000),
	UINT64_C(1000000000000000), UINT64_C(10000000000000000),
	UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};

/* floor(e log2 10), exact for |e| < 1200 (share/dev/gen-pow10 checks
 * it). Shifted by a multiple of 2^19 first, so that the shift is of a
 * non-negative number. */
static inline int floor_log2_pow10(int e)
{
	return ((e * 1741647 + (1 << 30)) >> 19) - (1 << 11);
}

#endif

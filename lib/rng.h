/* rng: xoshiro256** (Blackman & Vigna) seeded through splitmix64, with
 * unbiased bounded integers (Lemire's multiply-and-reject). */
#ifndef PB_RNG_H
#define PB_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
/* A seed for stream k (a run, a group) of one study seed: both pass
 * through splitmix64 first, so streams share no state words. */
uint64_t rng_derive(uint64_t seed, uint64_t stream);
/* Inline: the bootstrap's draws are its whole cost (lib/boot.c). */
static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s, result = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

uint32_t rng_below(struct rng *r, uint32_t n);   /* uniform in [0, n) */
double rng_uniform(struct rng *r);               /* uniform in [0, 1) */
/* Continuous variates, exact methods (no approximation beyond doubles):
 * a standard normal (Marsaglia's polar method); a gamma of shape a >= 1
 * (Marsaglia & Tsang 2000); a beta of shapes a, b >= 1, as
 * G_a / (G_a + G_b); the least of m >= 1 uniforms, a Beta(1, m). */
double rng_normal(struct rng *r);
double rng_gamma(struct rng *r, double a);
double rng_beta(struct rng *r, double a, double b);
double rng_min_uniform(struct rng *r, double m);
uint64_t rng_seed_from_system(void);

#endif

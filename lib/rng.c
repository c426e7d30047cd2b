#include <fcntl.h>
#include <math.h>
#include <time.h>
#include <unistd.h>

#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t rng_derive(uint64_t seed, uint64_t stream)
{
	uint64_t a = seed, b = stream ^ 0x6a09e667f3bcc909u;

	return splitmix64(&a) ^ splitmix64(&b);
}

uint32_t rng_below(struct rng *r, uint32_t n)
{
	uint64_t m = (rng_next(r) >> 32) * (uint64_t)n;
	uint32_t low = (uint32_t)m;

	if (low < n) {
		uint32_t threshold = (uint32_t)(-n) % n;
		while (low < threshold) {
			m = (rng_next(r) >> 32) * (uint64_t)n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in (0, 1): the midpoints of the 2^53 cells, never 0 for log. */
static double uniform_open(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double rng_normal(struct rng *r)
{
	double u, v, s;

	do {
		u = 2 * rng_uniform(r) - 1;
		v = 2 * rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

/* Marsaglia and Tsang, "A simple method for generating gamma variables"
 * (ACM TOMS 26, 2000): d v with v = (1 + c x)^3, x normal, accepted by
 * the squeeze or by the exact log test. The test's 1 - v + ln v is
 * about -(v - 1)^2 / 2, so log1p keeps its digits when the shape is
 * large and v near 1. */
double rng_gamma(struct rng *r, double a)
{
	double d = a - 1.0 / 3, c = 1 / sqrt(9 * d), x, v, u;

	for (;;) {
		do {
			x = rng_normal(r);
			v = 1 + c * x;
		} while (v <= 0);
		v = v * v * v;
		u = uniform_open(r);
		if (u < 1 - 0.0331 * (x * x) * (x * x))
			return d * v;
		if (log(u) < 0.5 * x * x + d * (1 - v + log1p(v - 1)))
			return d * v;
	}
}

double rng_beta(struct rng *r, double a, double b)
{
	double ga = rng_gamma(r, a);

	return ga / (ga + rng_gamma(r, b));
}

/* 1 - V^(1/m) for V uniform in (0, 1), without losing it to the
 * cancellation when m is large. */
double rng_min_uniform(struct rng *r, double m)
{
	return -expm1(log(uniform_open(r)) / m);
}

/* A seed for runs that did not ask for one: /dev/urandom, else the clock
 * and the pid. The seed is always written to the metadata. */
uint64_t rng_seed_from_system(void)
{
	uint64_t seed = 0, x;
	struct timespec ts;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, &seed, sizeof seed) != (ssize_t)sizeof seed)
			seed = 0;
		close(fd);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	x = seed ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	    ((uint64_t)getpid() << 40);
	/* Seeds print as integers and must survive a double round trip. */
	return splitmix64(&x) >> 11;
}

/* Digit-for-digit comparison of num_format (lib/num_format.c, Schubfach)
 * with the printer before it (grisu.h), and with an exact oracle.
 * Included by t/unit/num.c (1 M values in make check) and by
 * share/dev/num-compare.c (any count). Test code only.
 *
 * The oracle is the definition: the fewest significant digits that read
 * back as x, of those the nearest to x, of two as near the even one. It
 * asks only the C library: printf's %.*e, which prints the nearest
 * n-digit decimal (and the exact value of a double, given the digits),
 * and strtod, which reads a decimal back to the nearest double; glibc
 * does both exactly. Of the n-digit decimals only the nearest one and the
 * one on x's other side can read back: if the nearest does not, the
 * other is the only candidate (see check_oracle). */
#ifndef PB_T_NUMCMP_H
#define PB_T_NUMCMP_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grisu.h"
#include "num.h"

/* A decimal d[0..n) * 10^(e - n + 1): n significant digits, d[0] and
 * d[n-1] not '0' (except for zero itself), e the decimal exponent. */
struct dec {
	char d[800];
	int n, e;
};

/* Parse what a printer wrote (the number syntax) into a dec. */
static void dec_from_text(struct dec *r, const char *s)
{
	int seen_point = 0, exp = 0, lead = 1;
	const char *p = s;

	r->n = 0;
	r->e = 0;
	if (*p == '-' || *p == '+')
		p++;
	for (; *p && *p != 'e' && *p != 'E'; p++) {
		if (*p == '.') {
			seen_point = 1;
			continue;
		}
		if (lead && *p == '0') {
			if (seen_point)
				exp--;
			continue;
		}
		if (lead) {
			lead = 0;
			r->e = exp - 1;
		}
		if (!seen_point)
			r->e++;
		if (r->n < (int)sizeof r->d)
			r->d[r->n++] = *p;
	}
	if (*p)
		r->e += atoi(p + 1);
	if (lead) {                       /* zero */
		r->d[0] = '0';
		r->n = 1;
		r->e = 0;
	}
	while (r->n > 1 && r->d[r->n - 1] == '0')
		r->n--;
}

static int dec_same(const struct dec *a, const struct dec *b)
{
	return a->n == b->n && a->e == b->e && memcmp(a->d, b->d, (size_t)a->n) == 0;
}

/* sign of a - b, for a, b > 0 */
static int dec_cmp(const struct dec *a, const struct dec *b)
{
	int i, n = a->n > b->n ? a->n : b->n;

	if (a->e != b->e)
		return a->e < b->e ? -1 : 1;
	for (i = 0; i < n; i++) {
		char x = i < a->n ? a->d[i] : '0', y = i < b->n ? b->d[i] : '0';

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* The exact value of |x| (at most 767 significant digits). */
static void dec_exact(struct dec *r, double x)
{
	static char buf[1200];

	snprintf(buf, sizeof buf, "%.780e", fabs(x));
	dec_from_text(r, buf);
}

static int dec_reads_back(const struct dec *a, double x)
{
	char buf[900];

	snprintf(buf, sizeof buf, "%.*se%d", a->n, a->d, a->e - a->n + 1);
	/* a is d1d2...dn e(e-n+1): an integer mantissa */
	return strtod(buf, NULL) == fabs(x);
}

/* The n-digit decimal next to a (of at most n digits) up or down: one
 * unit of its n-th digit away, except down from a power of ten, where
 * the grid is ten times finer. */
static void dec_step(struct dec *a, int n, int up)
{
	int i;

	while (a->n < n)
		a->d[a->n++] = '0';
	a->n = n;
	if (up) {
		for (i = n - 1; i >= 0 && a->d[i] == '9'; i--)
			a->d[i] = '0';
		if (i < 0) {
			memmove(a->d + 1, a->d, (size_t)n);
			a->d[0] = '1';
			a->n = n + 1;
			a->e++;
		} else {
			a->d[i]++;
		}
	} else {
		for (i = n - 1; i > 0 && a->d[i] == '0'; i--)
			a->d[i] = '9';
		a->d[i]--;                    /* a > 0: d[0] is not '0' */
		if (a->d[0] == '0') {         /* 10^e down: n nines below it */
			memset(a->d, '9', (size_t)n);
			a->e--;
		}
	}
	while (a->n > 1 && a->d[a->n - 1] == '0')
		a->n--;
}

/* The n-digit decimal that reads back as x, the nearest one if two do;
 * 0 if none. */
static int oracle_at(struct dec *r, double x, const struct dec *exact, int n)
{
	char buf[64];
	int c;

	snprintf(buf, sizeof buf, "%.*e", n - 1, fabs(x));
	dec_from_text(r, buf);
	if (dec_reads_back(r, x))
		return 1;
	c = dec_cmp(r, exact);
	dec_step(r, n, c < 0);
	return dec_reads_back(r, x);
}

/* The shortest-nearest decimal of x != 0: the least n at which an n-digit
 * decimal reads back (there is one at every n above: append a zero),
 * found by bisection over 1..17. */
static void oracle(struct dec *r, double x)
{
	struct dec exact;
	int lo = 1, hi = 17;

	dec_exact(&exact, x);
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (oracle_at(r, x, &exact, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	oracle_at(r, x, &exact, lo);
}

/* Are a and b n-digit neighbours (n the longer one's digits) with x
 * exactly halfway between them, and is a the even one? */
static int dec_tie_even(const struct dec *a, const struct dec *b, double x)
{
	const struct dec *lo = dec_cmp(a, b) < 0 ? a : b, *hi = lo == a ? b : a;
	struct dec exact, step = *lo, mid = *lo;
	int n = a->n > b->n ? a->n : b->n;

	dec_step(&step, n, 1);
	if (!dec_same(&step, hi))
		return 0;
	while (mid.n < n)
		mid.d[mid.n++] = '0';
	mid.d[mid.n++] = '5';             /* lo + half a unit */
	dec_exact(&exact, x);
	if (dec_cmp(&mid, &exact) != 0)
		return 0;
	return a->n < n || (a->d[n - 1] - '0') % 2 == 0;
}

/* Print each tie and each miss of the old printer (the first few). */
static int cmp_verbose;

struct cmp_stats {
	long n;              /* values compared */
	long same;           /* old and new printed the same bytes */
	long ties;           /* differed on an exact tie; new is the even one */
	long old_wrong;      /* differed otherwise; the oracle agrees with new */
	long new_wrong;      /* the oracle disagrees with new: a bug */
	long oracle_n;       /* values also checked against the oracle */
	long oracle_bad;     /* of those, new disagrees */
	long bad_text;       /* new's text not the number syntax or not reading back */
};

/* Compare the printers on x (finite); ask the oracle when they differ and
 * when oracle is set. Prints the first few problems on stderr. */
static void cmp_one(struct cmp_stats *st, double x, int ask_oracle)
{
	char nw[NUM_BUFSZ], od[NUM_BUFSZ];
	size_t len = num_format(nw, x);
	struct dec dn, dd, dor;
	double back;

	grisu_format(od, x);
	st->n++;
	if (fabs(x) < 9223372036854775808.0 && x == trunc(x)) {
		char a[NUM_BUFSZ], b[NUM_BUFSZ];

		if (num_format_i64(a, (int64_t)x) != grisu_format_i64(b, (int64_t)x) ||
		    strcmp(a, b) != 0) {
			if (st->bad_text++ < 5)
				fprintf(stderr, "# num_format_i64(%.0f): '%s', old '%s'\n", x, a, b);
			return;
		}
	}
	if (len != strlen(nw) || len >= NUM_BUFSZ || num_parse(nw, &back) != 0 ||
	    back != (x == 0 ? 0 : x)) {
		if (st->bad_text++ < 5)
			fprintf(stderr, "# %a: new printed '%s'\n", x, nw);
		return;
	}
	if (strcmp(nw, od) == 0) {
		st->same++;
		if (!ask_oracle || x == 0)
			return;
	}
	dec_from_text(&dn, nw);
	if (ask_oracle && x != 0) {
		st->oracle_n++;
		oracle(&dor, x);
		/* integers below 2^53 print all their digits: the same value */
		if (!dec_same(&dn, &dor) && !(fabs(x) < 9007199254740992.0 && x == trunc(x))) {
			if (st->oracle_bad++ < 5)
				fprintf(stderr, "# %a: new '%s', oracle %.*se%d\n", x, nw,
				        dor.n, dor.d, dor.e - dor.n + 1);
		}
	}
	if (strcmp(nw, od) == 0)
		return;
	dec_from_text(&dd, od);
	if (dec_tie_even(&dn, &dd, x) && dec_reads_back(&dd, x)) {
		if (st->ties++ < 3 && cmp_verbose)
			fprintf(stderr, "# tie %a = %.25g: new '%s', old '%s'\n", x, x, nw, od);
		return;
	}
	oracle(&dor, x);
	if (dec_same(&dn, &dor)) {
		if (st->old_wrong++ < 5 && cmp_verbose)
			fprintf(stderr, "# %a: old '%s' is not the shortest-nearest, new '%s' is\n",
			        x, od, nw);
	} else if (st->new_wrong++ < 5) {
		fprintf(stderr, "# %a: new '%s', old '%s', oracle %.*se%d\n", x, nw, od,
		        dor.n, dor.d, dor.e - dor.n + 1);
	}
}

/* --- the values ------------------------------------------------------ */
#ifndef NUMCMP_NO_VALUES       /* the fuzz target brings its own */

static uint64_t cmp_state = 0x9e3779b97f4a7c15u;

static uint64_t cmp_rand(void)    /* splitmix64 */
{
	uint64_t z = (cmp_state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double from_bits(uint64_t u)
{
	double x;

	memcpy(&x, &u, sizeof x);
	return x;
}

/* Steps of one ulp away from x, up to 40 either way. */
static double ulps_away(double x)
{
	int i, n = (int)(cmp_rand() % 81) - 40;

	for (i = 0; i < n; i++)
		x = nextafter(x, INFINITY);
	for (i = 0; i > n; i--)
		x = nextafter(x, 0);
	return x;
}

/* x = o / 2^(t+1), o odd below 2^53, with an ulp of at least 10^-t: the
 * decimals of t places either side of x are equally near and both read
 * back, a tie when no shorter decimal does. */
static double exact_tie(void)
{
	int t = 1 + (int)(cmp_rand() % 25);
	int lmin = (int)ceil(54 - 2.3219280948873622 * t), l;
	uint64_t o;

	if (lmin < 1)
		lmin = 1;
	l = lmin + (int)(cmp_rand() % (uint64_t)(54 - lmin));
	o = (cmp_rand() >> (64 - l)) | (UINT64_C(1) << (l - 1)) | 1;
	return ldexp((double)o, -(t + 1));
}

enum {
	CMP_BITS, CMP_INTEGER, CMP_POW10, CMP_POW2, CMP_SUBNORMAL, CMP_TIE,
	CMP_SHORT_DECIMAL, CMP_RATIO, CMP_NCAT
};

static const char *const cmp_category[CMP_NCAT] = {
	"random bit patterns", "random integers", "near powers of 10",
	"near powers of 2", "subnormals", "exact ties and next to them",
	"short decimals", "ratios and log-ratios",
};

/* A finite double of category cat. */
static double cmp_value(int cat)
{
	double x;
	char buf[64];

	switch (cat) {
	case CMP_BITS:
		do
			x = from_bits(cmp_rand());
		while (!isfinite(x));
		return x;
	case CMP_INTEGER:
		x = (double)(cmp_rand() >> (cmp_rand() % 64));
		return cmp_rand() % 2 ? -x : x;
	case CMP_POW10:
		snprintf(buf, sizeof buf, "1e%d", (int)(cmp_rand() % 632) - 323);
		return ulps_away(strtod(buf, NULL));
	case CMP_POW2:
		return ulps_away(ldexp(1, (int)(cmp_rand() % 2098) - 1074));
	case CMP_SUBNORMAL:
		return from_bits(cmp_rand() % 4 ? cmp_rand() >> (12 + cmp_rand() % 52)
		                                : 1 + cmp_rand() % 2000);
	case CMP_TIE:
		x = exact_tie();
		switch (cmp_rand() % 4) {
		case 0: return nextafter(x, INFINITY);
		case 1: return nextafter(x, 0);
		default: return x;
		}
	case CMP_SHORT_DECIMAL:
		snprintf(buf, sizeof buf, "%.*fe%d", (int)(cmp_rand() % 17),
		         (double)(cmp_rand() % 9 + 1) + (double)(cmp_rand() >> 11) * 0x1p-53,
		         (int)(cmp_rand() % 617) - 308);
		return strtod(buf, NULL);
	default: {                    /* as pb-logratio and pb-tint make them */
		double a = (double)(1 + cmp_rand() % 1000000);
		double b = (double)(1 + cmp_rand() % 1000000);

		switch (cmp_rand() % 3) {
		case 0: return a / b;
		case 1: return log(a / b);
		default: return log1p((double)(int)(cmp_rand() % 100001 - 50000) / (1e6 + b));
		}
	}
	}
}

/* n values of every category in turn; the oracle for one in every
 * oracle_every (0: never, besides the disagreements). */
static void cmp_run(struct cmp_stats st[CMP_NCAT], long n, long oracle_every)
{
	long i;

	for (i = 0; i < n; i++) {
		int cat = (int)(i % CMP_NCAT);
		double x = cmp_value(cat);

		if (isfinite(x))
			cmp_one(&st[cat], x, oracle_every > 0 && (i / CMP_NCAT) % oracle_every == 0);
	}
}

#endif /* NUMCMP_NO_VALUES */

#endif

/* gate: the answer of --fail-if-slower, --tolerance and --bisect for each
 * candidate, the exit status, and the sentence that says why. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "human.h"
#include "num.h"
#include "seq.h"

/* x as pb prints numbers (the shortest that reads back): 1.02, not 1.0200000000000000178 */
static const char *num_text(char buf[NUM_BUFSZ], double x)
{
	num_format(buf, x);
	return buf;
}

static int bounded(const struct cmp_result *c)
{
	return c->have && !isnan(c->lo) && !isnan(c->hi);
}

int gate_given(const struct live *l)
{
	return l->bisect || !isnan(l->fail_if_slower);
}

/* R: --fail-if-slower's, or under --bisect without it 1 + the study's
 * tolerance (pb-compare refuses --bisect with neither). */
static double gate_ratio(const struct study *s, const struct live *l)
{
	if (!isnan(l->fail_if_slower))
		return l->fail_if_slower;
	return s->tolerance > 0 ? 1 + s->tolerance / 100 : NAN;
}

/* Shown not slower than R: the interval's lower end above 1/R. */
static int above(const struct cmp_result *c, double r)
{
	return bounded(c) && c->lo > 1 / r;
}

enum gate_state gate_of(const struct study *s, const struct live *l, const struct cmp_result *c)
{
	double r = gate_ratio(s, l);

	if (!gate_given(l) || isnan(r))
		return bounded(c) ? GATE_PASSED : GATE_OPEN;
	if (cmp_slower_than(c, r))
		return GATE_FAILED;
	if (l->bisect || !(s->tolerance > 0))
		return above(c, r) ? GATE_PASSED : GATE_OPEN;
	return cmp_not_slower_beyond(c, s->tolerance) ? GATE_PASSED : GATE_OPEN;
}

int study_exit_status(const struct study *r, const struct live *l)
{
	int i, failed = 0, open = r->ncmp == 0;

	if (!gate_given(l))
		return 0;
	for (i = 0; i < r->ncmp; i++) {
		enum gate_state g = gate_of(r, l, &r->cmp[i]);

		failed |= g == GATE_FAILED;
		open |= g == GATE_OPEN;
	}
	if (l->bisect)
		return failed ? EXIT_BISECT_BAD : open ? EXIT_BISECT_SKIP : EXIT_BISECT_GOOD;
	if (failed)
		return EXIT_SLOWER;
	return open && r->tolerance > 0 ? EXIT_UNDECIDED : 0;
}

int gate_error_status(const struct live *l)
{
	return l->bisect ? EXIT_BISECT_ERROR : 1;
}

/* x and the bound b with the fewest significant digits, from 4, that
 * keep their order as written: an end that lies just above 1/R never
 * reads as equal to it. */
static int digits_apart(double x, double b)
{
	char xs[SIG_BUFSZ], bs[SIG_BUFSZ];
	int p;

	for (p = 4; p < 17; p++) {
		double xr, br;

		snprintf(xs, sizeof xs, "%.*g", p, x);
		snprintf(bs, sizeof bs, "%.*g", p, b);
		xr = strtod(xs, NULL), br = strtod(bs, NULL);
		if ((x < b) == (xr < br) && (x > b) == (xr > br))
			break;
	}
	return p;
}

/* "A/B 95% CS [0.8, 0.85]" and "1/1.02 = 0.9804", each end with the
 * digits that tell it from the bound (r NAN: 4 digits, no bound). */
static void interval_words(char *iv, size_t ivn, char *bd, size_t bdn, const struct study *s,
                           const struct cmp_result *c, double r)
{
	char lv[SIG_BUFSZ], rs[NUM_BUFSZ];
	int p = 4;

	if (!isnan(r) && bounded(c)) {
		int q = digits_apart(c->lo, 1 / r);

		p = digits_apart(c->hi, 1 / r);
		p = q > p ? q : p;
	}
	level_percent(lv, s->level);
	if (bounded(c))
		snprintf(iv, ivn, "%c/%c %s%% %s [%.*g, %.*g]", c->ref, c->cand, lv,
		         s->sequence ? "CS" : "CI", p, c->lo, p, c->hi);
	else
		snprintf(iv, ivn, "%c/%c %s%% %s unbounded", c->ref, c->cand, lv,
		         s->sequence ? "CS" : "CI");
	if (!isnan(r))
		snprintf(bd, bdn, "1/%s = %.*g", num_text(rs, r), p, 1 / r);
	else
		snprintf(bd, bdn, "1");
}

static const char *why_open(char *buf, size_t n, const struct study *s, const struct live *l,
                            const struct cmp_result *c, const char *iv, const char *bd, double r)
{
	char rs[NUM_BUFSZ], ts[NUM_BUFSZ];

	if (!c->have)
		snprintf(buf, n, "no interval of %c/%c: too few runs were measured", c->ref, c->cand);
	else if (!bounded(c))
		snprintf(buf, n, "the study stopped before the sequence bounded %c/%c: %s", c->ref,
		         c->cand, iv);
	else if (!l->bisect && s->tolerance > 0)
		snprintf(buf, n, "%c is shown neither slower than %sx %c nor within %s%% of it (or "
		         "faster): %s", c->cand, num_text(rs, r), c->ref, num_text(ts, s->tolerance),
		         iv);
	else
		snprintf(buf, n, "the study stopped before the interval cleared %s: %s includes it",
		         bd, iv);
	return buf;
}

const char *gate_why(char *buf, size_t n, const struct study *s, const struct live *l,
                     const struct cmp_result *c)
{
	double r = gate_given(l) ? gate_ratio(s, l) : NAN;
	char iv[160], bd[80], rs[NUM_BUFSZ], ts[NUM_BUFSZ], ms[NUM_BUFSZ];

	interval_words(iv, sizeof iv, bd, sizeof bd, s, c, r);
	switch (gate_of(s, l, c)) {
	case GATE_FAILED:
		snprintf(buf, n, "%c is slower than %sx %c: %s lies below %s", c->cand,
		         num_text(rs, r), c->ref, iv, bd);
		break;
	case GATE_PASSED:
		if (isnan(r))
			snprintf(buf, n, "no gate; %c against %c: %s, %s", c->cand, c->ref,
			         cmp_words(c), iv);
		else if (!l->bisect && s->tolerance > 0)
			snprintf(buf, n, "%c is not slower than %c by more than %s%%: %s lies at or "
			         "above 1/%s", c->cand, c->ref, num_text(ts, s->tolerance), iv,
			         num_text(ms, 1 + s->tolerance / 100));
		else
			snprintf(buf, n, "%c is not slower than %sx %c: %s lies above %s", c->cand,
			         num_text(rs, r), c->ref, iv, bd);
		break;
	default:
		why_open(buf, n, s, l, c, iv, bd, r);
	}
	return buf;
}

const char *gate_bisect_line(char *buf, size_t n, const struct study *s, const struct live *l)
{
	static const char *const word[] = { "good", "bad", "skip" };
	const struct cmp_result *pick = NULL;
	char why[400];
	int i, state = GATE_PASSED;

	for (i = 0; i < s->ncmp; i++) {
		const struct cmp_result *c = &s->cmp[i];
		int g = gate_of(s, l, c);

		/* the first that fails; else the first open; else the nearest */
		if (g == GATE_FAILED && state != GATE_FAILED)
			state = g, pick = c;
		else if (g == GATE_OPEN && state == GATE_PASSED)
			state = g, pick = c;
		else if (state == GATE_PASSED && (!pick || c->lo < pick->lo))
			pick = c;
	}
	if (!pick) {
		snprintf(buf, n, "bisect: skip (no comparison was made)");
		return buf;
	}
	gate_why(why, sizeof why, s, l, pick);
	if (state == GATE_PASSED && s->ncmp > 1)
		snprintf(buf, n, "bisect: good (all %d candidates; the nearest: %s)", s->ncmp, why);
	else
		snprintf(buf, n, "bisect: %s (%s)", word[state == GATE_PASSED ? 0 : state ==
		         GATE_FAILED ? 1 : 2], why);
	return buf;
}

const char *gate_words(char *buf, size_t n, const struct study *s, const struct live *l)
{
	char t[64] = "", f[64] = "", v[NUM_BUFSZ];

	if (!gate_given(l))
		return strcpy(buf, "none");
	if (s->tolerance > 0)
		snprintf(t, sizeof t, " --tolerance %s", num_text(v, s->tolerance));
	if (!isnan(l->fail_if_slower))
		snprintf(f, sizeof f, " --fail-if-slower %s", num_text(v, l->fail_if_slower));
	snprintf(buf, n, "%s%s%s", l->bisect ? " --bisect" : "", t, f);
	memmove(buf, buf + 1, strlen(buf));
	return buf;
}

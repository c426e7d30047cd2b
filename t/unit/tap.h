/* tap.h: TAP output for the C unit tests. ok() and is_num() print one
 * "ok N - name" or "not ok N - name" line; done_testing() prints the plan
 * last and returns the exit status. Diagnostics go to stderr as "# ...". */
#ifndef PB_TAP_H
#define PB_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	tap_failed += !cond;
	return cond;
}

/* Passes when got == want or |got - want| <= reltol * |want|; with want 0
 * the tolerance is absolute. */
static inline int is_num(double got, double want, double reltol, const char *name)
{
	double err = fabs(got - want), scale = want == 0 ? 1 : fabs(want);

	if (ok(got == want || err <= reltol * scale, "%s", name))
		return 1;
	fprintf(stderr, "# got %.17g want %.17g (rel err %.3g, tol %.3g)\n",
	        got, want, err / scale, reltol);
	return 0;
}

static inline int done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif

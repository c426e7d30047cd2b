/* Unit tests of lib/seq.c, the confidence sequence. The literals were
 * computed independently with bc at 40 digits from the closed form:
 *   echo "scale=40; n=10; g=25; a=0.05; c=1+n*g;
 *         k=e(2/n*(0.5*l(c)-l(a))); sqrt((n-1)*(k-1)/(1-k/c))" | bc -l */
#include <math.h>

#include "seq.h"
#include "stats.h"
#include "tap.h"

static void tstar_is(double n, double g, double alpha, double want)
{
	double t = -1;

	ok(seq_tstar(n, g, alpha, &t) == 0, "n=%g g=%g alpha=%g: bounded", n, g, alpha);
	is_num(t, want, 1e-14, "tstar against bc");
	/* At the boundary the Bayes factor is exactly 1/alpha. */
	is_num(seq_log_bf(t, n, g), -log(alpha), 1e-13, "BF(tstar) = 1/alpha");
}

static void unbounded(double n, double g, double alpha)
{
	double t = 12345;

	ok(seq_tstar(n, g, alpha, &t) == -1 && t == 12345,
	   "n=%g g=%g alpha=%g: unbounded, tstar untouched", n, g, alpha);
}

int main(void)
{
	double n, prev_w = INFINITY, t, prev_t = 0;
	int monotone = 1, at_least_qt = 1;

	tstar_is(10, 25, 0.05, 4.4407672526262659529797771780448686226006);
	tstar_is(3, 25, 0.05, 10.1252183815375615320534111229803097635740);
	tstar_is(50, 25, 0.05, 3.8368745284774929737798071062719195047058);
	tstar_is(1000, 25, 0.05, 4.0290376811869673693957093810444660883254);
	tstar_is(10, 1, 0.05, 3.8697867393713211901875981664426708869203);
	tstar_is(20, 25, 0.01, 4.7102715330555782874946187775298165919155);
	tstar_is(100000, 25, 0.05, 4.5524954356664548362256334359006460451790);

	unbounded(2, 25, 0.05);    /* K = sqrt(51)/0.05 = 142.8 >= c = 51 */
	unbounded(4, 1, 0.05);
	unbounded(1, 25, 0.05);
	unbounded(0, 25, 0.05);
	unbounded(10, 0, 0.05);
	unbounded(10, 25, 0);
	unbounded(10, 25, 1);
	unbounded(NAN, 25, 0.05);

	/* The width for a fixed sd, tstar / sqrt(n), shrinks at every n, and
	 * the price of looking at every n: tstar is never below the fixed-n
	 * t quantile. */
	for (n = 3; n <= 5000; n++) {
		if (seq_tstar(n, 25, 0.05, &t) < 0) {
			monotone = 0;
			break;
		}
		if (!(t / sqrt(n) < prev_w))
			monotone = 0;
		if (t < stat_qt(0.975, n - 1))
			at_least_qt = 0;
		prev_w = t / sqrt(n);
		prev_t = t;
	}
	ok(monotone, "bounded from n = 3 and narrower at every n to 5000");
	ok(at_least_qt, "tstar >= qt(0.975, n - 1) for n = 3..5000");
	ok(prev_t > 4 && prev_t < 5, "tstar grows slowly (%.4g at n = 5000)", prev_t);
	return done_testing();
}

/* Unit tests of pb-compare's analysis reserve (lib/conduct.c,
 * analysis_price): priced from what a step costs here, never capped; the
 * pictures drawn only when they take at most 40 % of the budget. The
 * prices are given, not measured: nothing here depends on the machine. */
#include "conduct.h"
#include "tap.h"

int main(void)
{
	struct analysis_price p;

	/* -b 1s, a step at 30 ms (a loaded machine): 3 pictures would take
	 * 2.7 s; the streams' 8 steps 360 ms, priced whole */
	analysis_price(&p, 30e6, 8, 3, 1e9);
	ok(!p.drawn, "1 s budget, a step at 30 ms: no pictures (3 x 30 x 30 ms > 40 %%)");
	is_num(p.pictures_ns, 3 * 30 * 30e6, 1e-15, "  what they would take: 2.7 s");
	is_num(p.reserve_ns, 1.5 * 8 * 30e6, 1e-15, "  the reserve: the streams alone, 360 ms");
	/* -b 10s at the same price: 2.7 s is within 4 s, drawn */
	analysis_price(&p, 30e6, 8, 3, 10e9);
	ok(p.drawn, "10 s budget, a step at 30 ms: the pictures are drawn");
	is_num(p.reserve_ns, 1.5 * 8 * 30e6 + 3 * 30 * 30e6, 1e-15,
	       "  the reserve: streams and pictures, 3.06 s (30.6 % of the budget)");
	/* The old reserve was at most 40 % of the budget: 0.4 s of 1 s, when
	 * the analysis took 1.2 s and more. Not capped now. */
	analysis_price(&p, 200e6, 8, 0, 1e9);
	is_num(p.reserve_ns, 1.5 * 8 * 200e6, 1e-15,
	       "a step at 200 ms: the reserve 2.4 s, beyond the 1 s budget, not capped");
	ok(!p.drawn && p.pictures_ns == 0, "  no pictures asked: none priced");
	/* At exactly 40 %: drawn */
	analysis_price(&p, 10e6, 8, 4, 3e9);
	ok(p.drawn, "4 pictures at 30 x 10 ms = 1.2 s of a 3 s budget (40 %%): drawn");
	analysis_price(&p, 10e6, 8, 4, 2.99e9);
	ok(!p.drawn, "  of a 2.99 s budget: not drawn");
	return done_testing();
}

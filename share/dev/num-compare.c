/* num-compare: lib/num_format.c (Schubfach) against the printer before
 * it (t/unit/grisu.h, Grisu2 with a shortening check), digit for digit,
 * and against an exact oracle (glibc's printf and strtod), over N values
 * of eight kinds (t/unit/numcmp.h), and the digit blocks of the integer
 * printing for every n < 10^8. Not built by make; a tool for the
 * one who changes the printer:
 *
 *     make && cc -O2 -std=c11 -D_XOPEN_SOURCE=700 -Ilib -It/unit \
 *         -o /tmp/num-compare share/dev/num-compare.c lib/libpb.a -lm &&
 *     /tmp/num-compare 10000000 16
 *
 * The first argument is the count (default 10 M), the second how often
 * the oracle is asked besides every disagreement (1 in ORACLE_EVERY of
 * each kind; default 16, 0 never), the third a seed. A table per kind on
 * stdout; exit 1 when the new printer is wrong anywhere: a text that does
 * not read back, or digits other than the oracle's. Disagreements with
 * the old printer are counted by cause: an exact tie (two decimals of
 * the fewest digits equally near; the new printer takes the even one,
 * the old one either) or the old one not the nearest. t/unit/num.c runs
 * 1 M of these in make check. */
#include <stdio.h>
#include <stdlib.h>

#include "numcmp.h"

/* put_8_digits (lib/num_format.c) for every n < 10^8, through
 * num_format_i64(10^8 + n): "1" and n's eight digits. 0 when all agree. */
static long check_8_digits(void)
{
	char buf[NUM_BUFSZ];
	long bad = 0;
	uint32_t n;
	int i;

	for (n = 0; n < 100000000; n++) {
		uint32_t back = 0;

		if (num_format_i64(buf, 100000000 + (int64_t)n) != 9 || buf[0] != '1') {
			bad++;
			continue;
		}
		for (i = 1; i < 9; i++)
			back = back * 10 + (uint32_t)(buf[i] - '0');
		bad += back != n;
	}
	return bad;
}

int main(int argc, char **argv)
{
	struct cmp_stats st[CMP_NCAT], all;
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	long every = argc > 2 ? atol(argv[2]) : 16, bad8;
	int i;

	if (argc > 3)
		cmp_state = strtoull(argv[3], NULL, 0);
	cmp_verbose = 1;
	memset(st, 0, sizeof st);
	memset(&all, 0, sizeof all);
	cmp_run(st, n, every);
	printf("%-30s %10s %10s %8s %8s %8s %9s %8s\n", "values", "compared", "same",
	       "ties", "old_bad", "new_bad", "oracle", "or_bad");
	for (i = 0; i < CMP_NCAT; i++) {
		printf("%-30s %10ld %10ld %8ld %8ld %8ld %9ld %8ld\n", cmp_category[i],
		       st[i].n, st[i].same, st[i].ties, st[i].old_wrong,
		       st[i].new_wrong + st[i].bad_text, st[i].oracle_n, st[i].oracle_bad);
		all.n += st[i].n;
		all.same += st[i].same;
		all.ties += st[i].ties;
		all.old_wrong += st[i].old_wrong;
		all.new_wrong += st[i].new_wrong + st[i].bad_text;
		all.oracle_n += st[i].oracle_n;
		all.oracle_bad += st[i].oracle_bad;
	}
	printf("%-30s %10ld %10ld %8ld %8ld %8ld %9ld %8ld\n", "all", all.n, all.same,
	       all.ties, all.old_wrong, all.new_wrong, all.oracle_n, all.oracle_bad);
	bad8 = check_8_digits();
	printf("eight-digit blocks: all 10^8 checked, %ld wrong\n", bad8);
	return all.new_wrong || all.oracle_bad || bad8 ? 1 : 0;
}

/* parse-compare: num_parse (lib/num_parse.c: Clinger, Eisel-Lemire,
 * strtod) against strtod, bit for bit, over N random decimals of six
 * kinds (t/unit/parsecmp.h): doubles of any bit pattern and log ratios as
 * pb-logratio writes them, each printed with %.17g and with the shortest
 * digits, and random 1-19 digit mantissas with random exponents, in
 * exponent form and as plain decimals. Not built by make; a tool for the
 * one who changes the parser:
 *
 *     make && cc -O2 -std=c11 -D_XOPEN_SOURCE=700 -Ilib -It/unit \
 *         -o /tmp/parse-compare share/dev/parse-compare.c lib/libpb.a -lm &&
 *     /tmp/parse-compare 12000000
 *
 * The first argument is the count (default 12 M), the second a seed. A
 * line per kind on stdout; exit 1 when num_parse differs anywhere (the
 * first few on stderr). t/unit/num.c runs 600 000 of these in make check. */
#include <stdio.h>
#include <stdlib.h>

#include "parsecmp.h"

int main(int argc, char **argv)
{
	struct pcmp_stats st[PCMP_NKIND];
	long n = argc > 1 ? atol(argv[1]) : 12000000, all = 0, wrong = 0;
	int i;

	if (argc > 2)
		pcmp_state = strtoull(argv[2], NULL, 0);
	memset(st, 0, sizeof st);
	pcmp_run(st, n);
	for (i = 0; i < PCMP_NKIND; i++) {
		printf("%-36s %10ld values, %ld differ from strtod\n", pcmp_kind[i],
		       st[i].n, st[i].wrong);
		all += st[i].n;
		wrong += st[i].wrong;
	}
	printf("%-36s %10ld values, %ld differ from strtod\n", "all", all, wrong);
	return wrong ? 1 : 0;
}

/* human: numbers for a person to read (findings, summaries): four
 * significant digits, times in the unit that suits each value, levels in
 * percent. Streams never hold these; num.h prints what tools read. */
#ifndef PB_HUMAN_H
#define PB_HUMAN_H

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SIG_BUFSZ = 40 };

/* x with 4 significant digits, trailing zeros kept ("1.000", "0.9971",
 * "114.6", "1.146e7"). Returns buf. x must be finite (die otherwise). */
const char *sig4(char buf[SIG_BUFSZ], double x);
/* ns with 4 significant digits in ns, µs, ms or s, whichever keeps them
 * below 1000 ("10.20 ms", "999.9 ns", "1.000 µs", "12.35 s"). */
const char *sig4_ns(char buf[SIG_BUFSZ], double ns);
/* KiB with 4 significant digits in KiB, MiB, GiB or TiB, whichever keeps
 * them below 1024 ("7.035 MiB", "1023 KiB", "1.000 MiB"). */
const char *sig4_kib(char buf[SIG_BUFSZ], double kib);
/* A level in percent as given: 0.95 is "95", 0.999 "99.9". */
const char *level_percent(char buf[SIG_BUFSZ], double level);

/* Text read from input (a command, a study's metadata) as a person may be
 * shown it: valid UTF-8 that prints, as it is; a C0 or C1 control, DEL
 * and every byte that is not UTF-8, as \xNN (a C1 control in UTF-8 as
 * its two bytes), so that no terminal or spreadsheet takes it for an
 * escape and the result is valid UTF-8. safe_text is malloc'd. */
char *safe_text(const char *s);   /* lib/err's put_safe_text, as a string */

/* 4 digits, "?" for a number a study did not give (sig4
 * refuses what is not finite). */
static inline const char *h4(char buf[SIG_BUFSZ], double x)
{
	return isfinite(x) ? sig4(buf, x) : strcpy(buf, "?");
}
static inline const char *h4ns(char buf[SIG_BUFSZ], double ns)
{
	return isfinite(ns) ? sig4_ns(buf, ns) : strcpy(buf, "?");
}

#endif

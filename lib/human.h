/* human: numbers for a person to read (a finding, a report), not for a
 * stream: four significant digits, and nanoseconds in the unit that keeps
 * them below 1000. The streams keep every digit (num.h). */
#ifndef PB_HUMAN_H
#define PB_HUMAN_H

enum { SIG_BUFSZ = 40 };

/* x with 4 significant digits, trailing zeros kept ("1.000", "0.9971",
 * "114.6", "1.146e7"). Returns buf. */
const char *sig4(char buf[SIG_BUFSZ], double x);
/* ns with 4 significant digits in ns, µs, ms or s ("970.0 µs"). */
const char *sig4_ns(char buf[SIG_BUFSZ], double ns);

#endif

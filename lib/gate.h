/* gate: what --fail-if-slower, --tolerance and --bisect make of a study
 * read back (lib/studydir): each candidate passed, failed or open, the
 * exit status, and one sentence with the interval that says why, which
 * the summary, its bisect line and the JUnit export share, so that no
 * two of them can disagree. */
#ifndef PB_GATE_H
#define PB_GATE_H

#include <stddef.h>

#include "studydir.h"

/* The gate's exit status: --fail-if-slower's (and --tolerance's), and
 * --bisect's, git bisect run's good, bad and skip; under --bisect every
 * error is 255, which git bisect run takes for "abort". */
enum {
	EXIT_SLOWER = 3, EXIT_UNDECIDED = 4,
	EXIT_BISECT_GOOD = 0, EXIT_BISECT_BAD = 1, EXIT_BISECT_SKIP = 125, EXIT_BISECT_ERROR = 255
};

/* A candidate against the gate: passed, failed (slower than R with
 * confidence), or open (neither shown). Without a gate a candidate is
 * passed, or open where the sequence has not bounded its ratio. */
enum gate_state { GATE_PASSED, GATE_FAILED, GATE_OPEN };

/* Whether a gate was given: --fail-if-slower, or --bisect. */
int gate_given(const struct live *l);
enum gate_state gate_of(const struct study *s, const struct live *l, const struct cmp_result *c);
/* The exit status the gate gives the study: 0, EXIT_SLOWER or with a
 * tolerance EXIT_UNDECIDED; under --bisect 0, 1 or 125 (bad when any
 * candidate failed, good when all passed, else skip). */
int study_exit_status(const struct study *r, const struct live *l);
/* The status of an error (a tool failed): 1, or 255 under --bisect. */
int gate_error_status(const struct live *l);
/* Why c is in its state, in one sentence with its interval, to buf:
 * "B is slower than 1.02x A: A/B 95% CS [0.8, 0.85] lies below 1/1.02 =
 * 0.9804". Returns buf. */
const char *gate_why(char *buf, size_t n, const struct study *s, const struct live *l,
                     const struct cmp_result *c);
/* The last line of the summary under --bisect, without its line feed:
 * "bisect: good (...)", "bisect: bad (...)" or "bisect: skip (...)". */
const char *gate_bisect_line(char *buf, size_t n, const struct study *s, const struct live *l);
/* The gate in words for a property: "--bisect --fail-if-slower 1.02",
 * "--tolerance 2 --fail-if-slower 1.05", "none". */
const char *gate_words(char *buf, size_t n, const struct study *s, const struct live *l);

#endif

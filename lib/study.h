/* study: what pb-run writes about a study and its runs (pb(7), Raw
 * stream), written and read here. */
#ifndef PB_STUDY_H
#define PB_STUDY_H

#include <stddef.h>
#include <stdint.h>

/* The head metadata that says what was measured and how (pb-run(1)):
 * shards of one study must agree on each (pb-pair(1) has this table);
 * NULL ends it. Not here, as they differ between shards of one study:
 * the machine (host, kernel, cpu, server_version), when and which runs
 * (start, first_run, runs, study), the order's seed, and where the
 * commands' output went (output). */
extern const char *const study_design_keys[];
/* The key of an arm's command or script: prefix "cmd_" or "sql_" and
 * the arm's letter in lower case (arm 2 is "cmd_c"). The keys of arms A
 * and B are in study_design_keys; those of C to Z are design keys too. */
void study_arm_key(char key[8], const char *prefix, int arm);

struct word {            /* a span of a metadata value; len 0: absent */
	const char *p;
	size_t len;
};

/* The value of "# run: R start=STAMP pid=N study=ID host=HOST". Older
 * streams have no study=, the oldest no host= either. */
struct run_comment {
	int64_t run;
	struct word number;  /* R as written */
	struct word start, pid, study;
	struct word host;    /* the last word: the rest of the value */
};

/* Write the comment: host last, as the rest of the line, whatever it
 * holds; start is a clock_utc_stamp. */
void run_comment_out(long run, const char *start, long pid, uint64_t study,
                     const char *host);
/* 0, or -1 when the value does not begin with a run number (a whole
 * number >= 0, then a space or the end). Words of other names are
 * skipped; of a name given twice, the first counts. */
int run_comment_parse(const char *value, struct run_comment *rc);

#endif

/* study: the comments pb-run writes about its runs (pb(7), Raw stream). */
#ifndef PB_STUDY_H
#define PB_STUDY_H

#include <stddef.h>
#include <stdint.h>

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

/* 0, or -1 when the value does not begin with a run number (a whole
 * number >= 0, then a space or the end). Words of other names are
 * skipped; of a name given twice, the first counts. */
int run_comment_parse(const char *value, struct run_comment *rc);

#endif

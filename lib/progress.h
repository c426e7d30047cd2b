/* progress: a one-line meter on stderr for a person watching a terminal
 * (the caller decides whether one is): redrawn at most every 200 ms,
 * erased when done. */
#ifndef PB_PROGRESS_H
#define PB_PROGRESS_H

#include <stdint.h>

struct progress {
	int on;
	int width;             /* columns progress_end erases */
	int64_t start, last;   /* clock_ns() at the start, at the last redraw */
};

void progress_init(struct progress *p, int on, int width);
/* Whether a redraw is due: on, and 200 ms since the last (then *now is
 * the time, and the redraw counts as done). */
int progress_due(struct progress *p, int64_t *now);
/* The meter, over the previous one. */
void progress_show(const struct progress *p, const char *fmt, ...);
void progress_end(const struct progress *p);

#endif

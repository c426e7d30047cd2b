/* pending: the pairs of a raw stream being joined (pb-pair), each a
 * block of one observation per arm, keyed by (run, pair) as their rows
 * come, in any order. Open addressing with backward-shift deletion, so
 * memory follows the pairs still open, not the input. Pairs joined out
 * of order wait here too (joined) until those below them are joined:
 * memory never follows the size of a pair number. */
#ifndef PB_PENDING_H
#define PB_PENDING_H

#include <stddef.h>
#include <stdint.h>

struct raw_cols;
struct raw_obs;
struct stream;

/* A pair being joined: the observations of its arms read so far. */
struct block {
	int64_t run, pair;
	int joined;      /* a mark: a pair joined above its run's done_upto */
	int seen;        /* arms read */
	uint32_t mask;   /* bit a: arm a was read */
	struct raw_obs *h;  /* the seen, in the order read: memory follows the
	                     * rows of the open pairs, not k of each (pending_room) */
};

/* Zero-initialize. */
struct pending {
	struct block *slot;
	unsigned char *used;
	size_t cap, n;
	/* two-arm studies: the halves of joined pairs, kept for the next
	 * (an allocation and a free a pair cost 5 % of pb-pair); never more
	 * than the pairs open at once */
	struct raw_obs **spare;
	size_t nspare, spare_cap;
};

/* h, the current row of s (of columns c), into its block: a new one when
 * it is the first of its pair, in a run whose pairs 1 .. done_upto are
 * joined. A pair twice, an arm twice or two at one place (but 0, a
 * duet's together) ends the program, and so do two arms of a duet on
 * one CPU. The reference's h gets the row's extra fields. Returns the
 * block when h completes it (one observation of each of arms arms), at
 * slot *at; else NULL. */
struct block *pending_take(struct pending *p, const struct stream *s, const struct raw_cols *c,
                           struct raw_obs *h, int64_t done_upto, int arms, int ref, size_t *at);
/* The completed block at slot at is joined, in a run whose pairs 1 ..
 * *done_upto are joined and *ahead above them: out of the table, and
 * counted in *done_upto when it is the next, else held as joined until
 * the gap below it closes (pb-run writes each run's pairs in order, so
 * then nothing is held). */
void pending_done(struct pending *p, size_t at, int64_t *done_upto, size_t *ahead);
/* b's observations are written (before pending_done): their extras
 * freed, and the memory kept for the next pair. */
void pending_release(struct pending *p, struct block *b, int arms);
/* At the end: a pair still open lacks an arm, which ends the program
 * (the file and line of its first row). */
void pending_check_done(const struct pending *p, const struct stream *s, int arms);
void pending_free(struct pending *p);

#endif

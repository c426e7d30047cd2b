#include <stdlib.h>

#include "err.h"
#include "pending.h"
#include "raw.h"
#include "stream.h"

static size_t hash_pair(int64_t run, int64_t pair, size_t cap)
{
	uint64_t h = (uint64_t)run * 0x9e3779b97f4a7c15u ^ (uint64_t)pair * 0xc2b2ae3d27d4eb4fu;

	return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void pending_grow(struct pending *p);

/* The block of (run, pair), or NULL; *at is its slot, or the free slot
 * where it would go. */
static struct block *pending_find(struct pending *p, int64_t run, int64_t pair,
                                  size_t *at)
{
	size_t j;

	if (!p->cap)
		pending_grow(p);
	for (j = hash_pair(run, pair, p->cap); p->used[j]; j = (j + 1) & (p->cap - 1))
		if (p->slot[j].run == run && p->slot[j].pair == pair) {
			*at = j;
			return &p->slot[j];
		}
	*at = j;
	return NULL;
}

static void pending_grow(struct pending *p)
{
	struct pending old = *p;
	size_t i, at;

	p->cap = old.cap ? old.cap * 2 : 16;
	p->slot = xcalloc(p->cap, sizeof *p->slot);
	p->used = xcalloc(p->cap, 1);
	p->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.used[i]) {
			pending_find(p, old.slot[i].run, old.slot[i].pair, &at);
			p->slot[at] = old.slot[i];
			p->used[at] = 1;
			p->n++;
		}
	free(old.slot);
	free(old.used);
}

/* b into the table at its free slot at, which a pending_find that missed
 * gave (found again if the table must grow first). */
static struct block *pending_insert(struct pending *p, size_t at, const struct block *b)
{
	if (2 * (p->n + 1) > p->cap) {
		pending_grow(p);
		pending_find(p, b->run, b->pair, &at);
	}
	p->slot[at] = *b;
	p->used[at] = 1;
	p->n++;
	return &p->slot[at];
}

static struct block *pending_add(struct pending *p, const struct block *b)
{
	size_t at;

	pending_find(p, b->run, b->pair, &at);
	return pending_insert(p, at, b);
}

static void pending_remove(struct pending *p, size_t at)
{
	size_t j = at, k;

	p->used[at] = 0;
	p->n--;
	for (;;) {   /* shift back later members of the cluster */
		j = (j + 1) & (p->cap - 1);
		if (!p->used[j])
			return;
		k = hash_pair(p->slot[j].run, p->slot[j].pair, p->cap);
		if ((j > at && (k <= at || k > j)) || (j < at && (k <= at && k > j))) {
			p->slot[at] = p->slot[j];
			p->used[at] = 1;
			p->used[j] = 0;
			at = j;
		}
	}
}

static void pending_joined(struct pending *p, int64_t run, int64_t pair, int64_t *done_upto,
                           size_t *ahead)
{
	struct block *j;
	size_t at;

	if (pair != *done_upto + 1) {
		struct block mark = { 0 };

		mark.run = run;
		mark.pair = pair;
		mark.joined = 1;
		pending_add(p, &mark);
		(*ahead)++;
		return;
	}
	(*done_upto)++;
	while (*ahead && (j = pending_find(p, run, *done_upto + 1, &at)) && j->joined) {
		pending_remove(p, at);
		(*ahead)--;
		(*done_upto)++;
	}
}

void pending_done(struct pending *p, size_t at, int64_t *done_upto, size_t *ahead)
{
	int64_t run = p->slot[at].run, pair = p->slot[at].pair;

	pending_remove(p, at);
	pending_joined(p, run, pair, done_upto, ahead);
}

/* Room in b for one more observation: 2, then doubling up to k, so that
 * a pair of two arms is one allocation and an open pair of 26 holds what
 * was read of it, not 26 halves (memory follows the rows, not the head's
 * arms). */
static void pending_room(struct pending *p, struct block *b, int arms)
{
	int n = b->seen, cap;

	if (n != 0 && (n < 2 || (n & (n - 1)) != 0 || n >= arms))
		return;
	if (n == 0 && p->nspare) {   /* two arms: a pair's halves again */
		b->h = p->spare[--p->nspare];
		return;
	}
	cap = n ? 2 * n : 2;
	b->h = xrealloc(b->h, (size_t)(cap < arms ? cap : arms) * sizeof *b->h);
}

/* The new observation h against those of its pair read before. */
static void pending_check(const struct stream *s, const struct block *b,
                          const struct raw_obs *h, int arms)
{
	int i;

	for (i = 0; i < b->seen; i++) {
		if (b->h[i].arm == h->arm)
			stream_die(s, "run %lld pair %lld: arm %c twice (also line %ld)",
			           (long long)h->run, (long long)h->pair, 'A' + h->arm, b->h[i].line);
		if (h->pos == 0 && h->cpu >= 0 && b->h[i].cpu == h->cpu)
			stream_die(s, "run %lld pair %lld: arms %c and %c both on CPU %lld (a duet pins "
			           "each arm to a CPU of its own)", (long long)h->run, (long long)h->pair,
			           'A' + b->h[i].arm, 'A' + h->arm, (long long)h->cpu);
		if (b->h[i].pos != h->pos || h->pos == 0)   /* 0: together, a duet's */
			continue;
		if (arms == 2)
			stream_die(s, "run %lld pair %lld: both arms at pos %d",
			           (long long)h->run, (long long)h->pair, h->pos);
		stream_die(s, "run %lld pair %lld: arms %c and %c both at pos %d",
		           (long long)h->run, (long long)h->pair, 'A' + b->h[i].arm, 'A' + h->arm,
		           h->pos);
	}
}

struct block *pending_take(struct pending *p, const struct stream *s, const struct raw_cols *c,
                           struct raw_obs *h, int64_t done_upto, int arms, int ref, size_t *at)
{
	struct block *b = pending_find(p, h->run, h->pair, at);

	if (h->pair <= done_upto || (b && b->joined))
		stream_die(s, "run %lld pair %lld: the pair appears twice",
		           (long long)h->run, (long long)h->pair);
	if (!b) {
		struct block fresh = { 0 };

		fresh.run = h->run;
		fresh.pair = h->pair;
		b = pending_insert(p, *at, &fresh);
	}
	pending_check(s, b, h, arms);
	if (h->arm == ref && c->nextra)
		h->extra = raw_extra_join(s, c);
	pending_room(p, b, arms);
	b->h[b->seen] = *h;
	b->mask |= (uint32_t)1 << h->arm;
	return ++b->seen < arms ? NULL : b;
}

void pending_release(struct pending *p, struct block *b, int arms)
{
	int i;

	for (i = 0; i < b->seen; i++)
		free(b->h[i].extra);
	if (arms == 2) {
		xgrow(&p->spare, &p->spare_cap, p->nspare + 1, sizeof *p->spare);
		p->spare[p->nspare++] = b->h;
	} else {
		free(b->h);
	}
	b->h = NULL;
}

void pending_check_done(const struct pending *p, const struct stream *s, int arms)
{
	size_t i;

	for (i = 0; i < p->cap; i++)
		if (p->used[i] && !p->slot[i].joined) {
			const struct block *b = &p->slot[i];
			const struct raw_obs *h = &b->h[0];   /* the first read */
			int missing = 0;

			while (b->mask >> missing & 1)
				missing++;
			if (arms == 2)
				stream_die_at(s, h->file, h->line, "run %lld pair %lld: arm %c has "
				              "no arm %c", (long long)h->run, (long long)h->pair,
				              'A' + h->arm, 'A' + missing);
			stream_die_at(s, h->file, h->line, "run %lld pair %lld: arm %c has no arm "
			              "%c (%d of the %d arms are there)", (long long)h->run,
			              (long long)h->pair, 'A' + h->arm, 'A' + missing, b->seen, arms);
		}
}

void pending_free(struct pending *p)
{
	free(p->slot);
	free(p->used);
	while (p->nspare)
		free(p->spare[--p->nspare]);
	free(p->spare);
}

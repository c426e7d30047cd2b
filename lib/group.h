/* group: map a group key (the group columns joined by TABs) to a dense
 * index 0, 1, 2 ... in order of first appearance. Callers keep their own
 * per-group accumulators in arrays indexed by it; input need not be sorted. */
#ifndef PB_GROUP_H
#define PB_GROUP_H

#include <stddef.h>

struct groups {
	char **key;
	size_t *keylen;
	size_t n, cap;
	size_t *slot;        /* open addressing: index + 1, 0 = empty */
	size_t nslot;
};

size_t groups_index(struct groups *g, const char *key, size_t len);
/* The index of key, or -1 when it has none (nothing is added). */
long groups_find(const struct groups *g, const char *key, size_t len);
void groups_free(struct groups *g);

/* Group columns named in a comma list ("run,first"), resolved against a
 * stream's header, and the key of the current row. */
struct stream;
struct group_cols {
	size_t *col;
	size_t n;
	char *key;
	size_t keycap;
};
void group_cols_parse(struct group_cols *gc, const struct stream *s, const char *list);
const char *group_cols_key(struct group_cols *gc, const struct stream *s, size_t *len);
void group_cols_free(struct group_cols *gc);

#endif

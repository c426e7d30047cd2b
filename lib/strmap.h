/* strmap: map a string (bytes and a length) to a dense index 0, 1, 2 ...
 * in order of first appearance. Callers keep their own per-key data in
 * arrays indexed by it; the keys are kept, in that order, in key[]. */
#ifndef PB_STRMAP_H
#define PB_STRMAP_H

#include <stddef.h>

struct strmap {
	char **key;
	size_t *keylen;
	size_t n, cap;
	size_t *slot;        /* open addressing: index + 1, 0 = empty */
	size_t nslot;
};

/* The index of key, added as index n (n then grows) when it is new. */
size_t strmap_intern(struct strmap *m, const char *key, size_t len);
/* The index of key, or -1 when it has none (nothing is added). */
long strmap_find(const struct strmap *m, const char *key, size_t len);
void strmap_free(struct strmap *m);

#endif

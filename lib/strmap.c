#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "strmap.h"

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3u;
	}
	return h;
}

static void rehash(struct strmap *m)
{
	size_t i, n = m->nslot ? m->nslot * 2 : 64;

	free(m->slot);
	m->slot = xcalloc(n, sizeof *m->slot);
	m->nslot = n;
	for (i = 0; i < m->n; i++) {
		size_t j = fnv1a(m->key[i], m->keylen[i]) & (n - 1);
		while (m->slot[j])
			j = (j + 1) & (n - 1);
		m->slot[j] = i + 1;
	}
}

/* The slot that holds key, or the empty slot where it would go. */
static size_t slot_of(const struct strmap *m, const char *key, size_t len)
{
	size_t j = fnv1a(key, len) & (m->nslot - 1), i;

	for (; m->slot[j]; j = (j + 1) & (m->nslot - 1)) {
		i = m->slot[j] - 1;
		if (m->keylen[i] == len && memcmp(m->key[i], key, len) == 0)
			break;
	}
	return j;
}

long strmap_find(const struct strmap *m, const char *key, size_t len)
{
	return m->nslot ? (long)m->slot[slot_of(m, key, len)] - 1 : -1;
}

size_t strmap_intern(struct strmap *m, const char *key, size_t len)
{
	size_t j, cap;

	if (2 * (m->n + 1) > m->nslot)
		rehash(m);
	j = slot_of(m, key, len);
	if (m->slot[j])
		return m->slot[j] - 1;
	cap = m->cap;
	xgrow(&m->key, &cap, m->n + 1, sizeof *m->key);
	xgrow(&m->keylen, &m->cap, m->n + 1, sizeof *m->keylen);
	m->key[m->n] = xmalloc(len + 1);
	memcpy(m->key[m->n], key, len);
	m->key[m->n][len] = '\0';
	m->keylen[m->n] = len;
	m->slot[j] = m->n + 1;
	return m->n++;
}

void strmap_free(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->key[i]);
	free(m->key);
	free(m->keylen);
	free(m->slot);
	memset(m, 0, sizeof *m);
}

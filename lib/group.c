#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "stream.h"

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3u;
	}
	return h;
}

static void rehash(struct groups *g)
{
	size_t i, n = g->nslot ? g->nslot * 2 : 64;

	free(g->slot);
	g->slot = xcalloc(n, sizeof *g->slot);
	g->nslot = n;
	for (i = 0; i < g->n; i++) {
		size_t j = fnv1a(g->key[i], g->keylen[i]) & (n - 1);
		while (g->slot[j])
			j = (j + 1) & (n - 1);
		g->slot[j] = i + 1;
	}
}

/* The slot that holds key, or the empty slot where it would go. */
static size_t slot_of(const struct groups *g, const char *key, size_t len)
{
	size_t j = fnv1a(key, len) & (g->nslot - 1), i;

	for (; g->slot[j]; j = (j + 1) & (g->nslot - 1)) {
		i = g->slot[j] - 1;
		if (g->keylen[i] == len && memcmp(g->key[i], key, len) == 0)
			break;
	}
	return j;
}

long groups_find(const struct groups *g, const char *key, size_t len)
{
	return g->nslot ? (long)g->slot[slot_of(g, key, len)] - 1 : -1;
}

size_t groups_index(struct groups *g, const char *key, size_t len)
{
	size_t j, cap;

	if (2 * (g->n + 1) > g->nslot)
		rehash(g);
	j = slot_of(g, key, len);
	if (g->slot[j])
		return g->slot[j] - 1;
	cap = g->cap;
	xgrow(&g->key, &cap, g->n + 1, sizeof *g->key);
	xgrow(&g->keylen, &g->cap, g->n + 1, sizeof *g->keylen);
	g->key[g->n] = xmalloc(len + 1);
	memcpy(g->key[g->n], key, len);
	g->key[g->n][len] = '\0';
	g->keylen[g->n] = len;
	g->slot[j] = g->n + 1;
	return g->n++;
}

void groups_free(struct groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->key[i]);
	free(g->key);
	free(g->keylen);
	free(g->slot);
	memset(g, 0, sizeof *g);
}

void group_cols_parse(struct group_cols *gc, const struct stream *s, const char *list)
{
	char *copy = xstrdup(list ? list : ""), *p = copy, *comma;

	memset(gc, 0, sizeof *gc);
	gc->col = xmalloc((strlen(copy) / 2 + 1) * sizeof *gc->col);
	while (list && *p) {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		if (*p) {
			size_t c = stream_col(s, p), i;

			for (i = 0; i < gc->n; i++)
				if (gc->col[i] == c)
					die_usage("--group names '%s' twice", p);
			gc->col[gc->n++] = c;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	free(copy);
}

void group_check_first(const struct stream *s, size_t col, const char *fix)
{
	if (s->field[col][0] == '#')
		stream_die(s, "column '%s': the value '%.40s' would begin an output row, "
		           "and a row that begins with '#' is read as a comment (pb(7)); %s",
		           s->col[col], s->field[col], fix);
}

const char *group_cols_key(struct group_cols *gc, const struct stream *s, size_t *len)
{
	size_t i, n = 0;

	if (gc->n)
		group_check_first(s, gc->col[0], "put another column first in --group");
	for (i = 0; i < gc->n; i++) {
		const char *f = s->field[gc->col[i]];
		size_t fl = strlen(f);

		xgrow(&gc->key, &gc->keycap, n + fl + 2, 1);
		if (i)
			gc->key[n++] = '\t';
		memcpy(gc->key + n, f, fl);
		n += fl;
	}
	xgrow(&gc->key, &gc->keycap, n + 1, 1);
	gc->key[n] = '\0';
	*len = n;
	return gc->key;
}

void group_cols_put(const struct group_cols *gc, const char *key, size_t len)
{
	if (gc->n)
		out_fieldn(key, len);
}

void group_cols_free(struct group_cols *gc)
{
	free(gc->col);
	free(gc->key);
	memset(gc, 0, sizeof *gc);
}

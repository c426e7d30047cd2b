#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "group.h"
#include "out.h"
#include "stream.h"

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
	char b[MSG_CUT_BUF];

	if (s->field[col][0] == '#')
		stream_die(s, "column '%s': the value '%s' would begin an output row, "
		           "and a row that begins with '#' is read as a comment (pb(7)); %s",
		           s->col[col], msg_cut(b, s->field[col]), fix);
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

size_t group_subkey(char **buf, size_t *cap, const char *key, size_t len, const char *field)
{
	size_t fl = strlen(field);

	xgrow(buf, cap, len + fl + 2, 1);
	memcpy(*buf, key, len);
	(*buf)[len] = '\t';
	memcpy(*buf + len + 1, field, fl + 1);
	return len + fl + 1;
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

int group_has_arms(const struct stream *s)
{
	return stream_col_find(s, "arm") >= 0 && stream_col_find(s, "phase") < 0;
}

static int names_arm(const char *list)
{
	size_t n;

	for (; list && *list; list += n + (list[n] == ',')) {
		n = strcspn(list, ",");
		if (n == 3 && strncmp(list, "arm", 3) == 0)
			return 1;
	}
	return 0;
}

const char *group_with_arm(const struct stream *s, const char *list, int *added)
{
	static char *buf;
	size_t n;

	*added = 0;
	if (!group_has_arms(s) || names_arm(list))
		return list;
	free(buf);
	n = (list ? strlen(list) : 0) + 5;
	buf = xmalloc(n);
	snprintf(buf, n, "arm%s%s", list && *list ? "," : "", list ? list : "");
	*added = 1;
	return buf;
}

void group_arm_meta(const char *tool, const char *list, int added)
{
	char key[64];

	if (!added)
		return;
	snprintf(key, sizeof key, "%s.group", tool);
	out_meta(key, "%s (arm added: the input compares each candidate arm with the "
	         "reference, one comparison per value of arm)", list);
}

const char *group_reference(const struct stream *s)
{
	const char *r = stream_head_meta(s, "reference", -1);

	return r && r[0] >= 'A' && r[0] <= 'Z' && !r[1] ? r : "A";
}

int group_cols_has(const struct group_cols *gc, long col)
{
	size_t i;

	for (i = 0; i < gc->n; i++)
		if ((long)gc->col[i] == col)
			return 1;
	return 0;
}

const char *group_key_field(const char *key, long i)
{
	static char *buf;
	size_t n;
	long at;

	for (at = 0; at < i; at++)
		key += strcspn(key, "\t") + 1;
	n = strcspn(key, "\t");
	free(buf);
	buf = xmalloc(n + 1);
	memcpy(buf, key, n);
	buf[n] = '\0';
	return buf;
}

/* The run of the row before is the common case, told by its length and
 * bytes. */
int group_runs_first(struct group_runs *t, size_t gi, const char *group, size_t glen,
                     const char *run, size_t len)
{
	size_t before = t->seen.n, klen;

	if (t->any && gi == t->last_group && len == t->last_len &&
	    memcmp(run, t->last_run, len) == 0)
		return 0;
	t->last_len = len;
	klen = group_subkey(&t->key, &t->cap, group, glen, run);
	strmap_intern(&t->seen, t->key, klen);
	xgrow(&t->last_run, &t->last_cap, len + 1, 1);
	memcpy(t->last_run, run, len + 1);
	t->last_group = gi;
	t->any = 1;
	return t->seen.n > before;
}

void group_runs_free(struct group_runs *t)
{
	strmap_free(&t->seen);
	free(t->key);
	free(t->last_run);
}

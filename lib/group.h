/* group: the group columns of --group, and the key of a row's group (the
 * group columns' values joined by TABs), for a struct strmap to number
 * in order of first appearance: input need not be sorted. */
#ifndef PB_GROUP_H
#define PB_GROUP_H

#include <stddef.h>

#include "strmap.h"

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
/* The key of the current row: the group columns' values joined by TABs.
 * A first value that begins with '#' is refused (file:line, exit 1): it
 * would begin an output row, and a row that begins with '#' is read as a
 * comment (pb(7)). */
const char *group_cols_key(struct group_cols *gc, const struct stream *s, size_t *len);
/* A key within a group (a run, a block): the group's key, a TAB, then
 * field, in *buf (of *cap bytes, grown as needed). Returns its length. */
size_t group_subkey(char **buf, size_t *cap, const char *key, size_t len, const char *field);
/* The same refusal for a value that a tool writes as the first field of
 * its rows (pb-cross --each's run_a); fix is the message's advice. */
void group_check_first(const struct stream *s, size_t col, const char *fix);
/* A group's key as the first fields of an output row, one per group
 * column, empty values kept; nothing without group columns. */
void group_cols_put(const struct group_cols *gc, const char *key, size_t len);
void group_cols_free(struct group_cols *gc);
/* Whether col is one of the group columns. */
int group_cols_has(const struct group_cols *gc, long col);
/* Field i of a group's key (from 0), in memory that lives until the next
 * call. */
const char *group_key_field(const char *key, long i);

/* The distinct runs of each group (zero-initialize). Rows of one run
 * usually come together, so the previous row's group and run are checked
 * before the hash map of (group, run) keys. */
struct group_runs {
	struct strmap seen;
	char *key, *last_run;
	size_t cap, last_cap, last_group, last_len;
	int any;
};
/* Whether run (the len bytes of a row's run field, NUL-terminated) is
 * new to group gi, whose key is the glen bytes of group. */
int group_runs_first(struct group_runs *t, size_t gi, const char *group, size_t glen,
                     const char *run, size_t len);
void group_runs_free(struct group_runs *t);

/* A stream of several comparisons: pb-pair's rows of a study of more
 * than two arms (or of a reference other than A), one comparison per
 * candidate in its arm column. Not a raw stream, whose arm column holds
 * the observations of every arm (it has a phase column). */
int group_has_arms(const struct stream *s);
/* The group list a tool uses: for a stream of several comparisons, arm
 * in front of list (arm alone for none) unless list names it already;
 * otherwise list as it is. *added says whether arm was added. The result
 * lives until the next call. */
const char *group_with_arm(const struct stream *s, const char *list, int *added);
/* "# pb-TOOL.group: LIST (arm added: ...)" when arm was added. */
void group_arm_meta(const char *tool, const char *list, int added);
/* The reference arm of a stream of comparisons: the head's "reference",
 * or "A". */
const char *group_reference(const struct stream *s);

#endif

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "raw.h"
#include "stream.h"

/* The raw stream's name of each; cpu is made, not read. */
static const char *const use_cols[NUSE] = {
	"user_ns", "sys_ns", "maxrss_kib", NULL, "minflt", "majflt", "nvcsw", "nivcsw",
	"tree_maxrss_kib", "tree_cpu_ns", "tree_read_bytes", "tree_write_bytes",
};
static const char *const use_rule[NUSE] = {
	"CPU time must be a whole number of ns >= 0", "CPU time must be a whole number of ns >= 0",
	"maxrss_kib must be a whole number of KiB >= 0", NULL,
	"a count of faults must be a whole number >= 0", "a count of faults must be a whole number >= 0",
	"a count of context switches must be a whole number >= 0",
	"a count of context switches must be a whole number >= 0",
	"tree_maxrss_kib must be a whole number of KiB >= 0",
	"tree_cpu_ns must be a whole number of ns >= 0",
	"tree_read_bytes must be a whole number of bytes >= 0",
	"tree_write_bytes must be a whole number of bytes >= 0",
};
static const char *const raw_cols[] = {
	"run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status",
};

void raw_cols_find(struct raw_cols *c, const struct stream *s)
{
	size_t *pos[] = { &c->run, &c->pair, &c->phase, &c->arm, &c->pos,
	                  &c->delay, &c->ns, &c->status };
	size_t i, j;

	for (i = 0; i < 8; i++)
		*pos[i] = stream_col(s, raw_cols[i]);
	c->spin = stream_col_find(s, "spin_ns");
	c->cpu = stream_col_find(s, "cpu");
	c->duet = 0;
	for (i = 0; i < NUSE; i++)
		if (use_cols[i])
			c->nuse += (c->use[i] = stream_col_find(s, use_cols[i])) >= 0;
	c->use[USE_CPU] = c->use[USE_SYS] >= 0 ? c->use[USE_USER] : -1;
	c->nuse += c->use[USE_CPU] >= 0;
	c->extra = xmalloc(s->ncol * sizeof *c->extra);
	for (j = 0; j < s->ncol; j++) {
		/* a duet's start_ns is the observation's own, not the pair's:
		 * not carried as a column of A's row */
		int known = (long)j == c->spin || (long)j == c->cpu || !strcmp(s->col[j], "start_ns");

		for (i = 0; i < NUSE; i++)
			known |= (long)j == c->use[i];
		for (i = 0; i < 8 && strcmp(s->col[j], raw_cols[i]); i++)
			;
		if (i == 8 && !known)
			c->extra[c->nextra++] = j;
	}
}

static noreturn void bad_int(const struct stream *s, size_t col, const char *what)
{
	char b[MSG_CUT_BUF];

	stream_die(s, "column '%s': %s, got '%s'", s->col[col], what, msg_cut(b, s->field[col]));
}

/* Inline, seven times a row: the message is out of line. */
static inline int64_t int_at_least(const struct stream *s, size_t col, int64_t min,
                                   const char *what)
{
	int64_t v;

	if (stream_i64(s, col, &v) < 0 || v < min)
		bad_int(s, col, what);
	return v;
}

int raw_measured(const struct stream *s, const struct raw_cols *c)
{
	const char *phase = s->field[c->phase];
	size_t plen = stream_field_len(s, c->phase);
	char buf[MSG_CUT_BUF];

	if (plen == 6 && memcmp(phase, "warmup", 6) == 0)
		return 0;
	if (plen != 7 || memcmp(phase, "measure", 7) != 0)
		stream_die(s, "column 'phase': unknown phase '%s' (warmup or measure)",
		           msg_cut(buf, phase));
	return 1;
}

char *raw_extra_join(const struct stream *s, const struct raw_cols *c)
{
	size_t i, n = 0;
	char *out, *p;

	for (i = 0; i < c->nextra; i++)
		n += strlen(s->field[c->extra[i]]) + 1;
	p = out = xmalloc(n + 1);
	for (i = 0; i < c->nextra; i++) {
		size_t l = strlen(s->field[c->extra[i]]);
		if (i)
			*p++ = '\t';
		memcpy(p, s->field[c->extra[i]], l);
		p += l;
	}
	*p = '\0';
	return out;
}

/* The place in the pair: 1 to arms, or 0 (together) in a duet study and
 * only there, where a mixed stream would pair a duet half with a
 * sequential one. */
static int read_pos(const struct stream *s, const struct raw_cols *c, int arms)
{
	char b[MSG_CUT_BUF];
	int64_t pos = int_at_least(s, c->pos, 0, c->duet ? "pos must be 0 in a duet study"
	                           : arms == 2 ? "pos must be 1 or 2"
	                           : "pos must be a place in the pair, from 1");

	if (c->duet && pos != 0)
		stream_die(s, "column 'pos': in a duet study (# order: duet) both arms of a pair "
		           "ran together, at pos 0, got '%s'", msg_cut(b, s->field[c->pos]));
	if (!c->duet && pos == 0)
		stream_die(s, "column 'pos': pos 0 (together) belongs to a duet study, and the head's "
		           "order is not duet: pos must be %s", arms == 2 ? "1 or 2" : "1 or more");
	if (pos > arms) {
		if (arms == 2)
			stream_die(s, "column 'pos': pos must be 1 or 2, got '%s'",
			           msg_cut(b, s->field[c->pos]));
		stream_die(s, "column 'pos': pos must be 1 to %d (the head's arms), got '%s'",
		           arms, msg_cut(b, s->field[c->pos]));
	}
	return (int)pos;
}

void raw_obs_read(struct raw_obs *h, const struct stream *s, const struct raw_cols *c, int arms)
{
	const char *arm = s->field[c->arm];
	char b[MSG_CUT_BUF];
	int i;

	h->run = int_at_least(s, c->run, 0, "run must be a whole number >= 0");
	h->pair = int_at_least(s, c->pair, 1, "pair must be a whole number >= 1");
	if (h->pair > 100000000)
		stream_die(s, "column 'pair': pair number %lld is beyond 100000000",
		           (long long)h->pair);
	if (arm[0] < 'A' || arm[0] >= 'A' + arms || arm[1])
		stream_die(s, "column 'arm': unknown arm '%s' (A %s %c)", msg_cut(b, arm),
		           arms == 2 ? "or" : "to", 'A' + arms - 1);
	h->arm = arm[0] - 'A';
	h->pos = read_pos(s, c, arms);
	h->delay = int_at_least(s, c->delay, 0, "delay_ns must be a whole number of ns >= 0");
	h->spin = c->spin < 0 ? 0 : int_at_least(s, (size_t)c->spin, 0,
	                                         "spin_ns must be a whole number of ns >= 0");
	h->cpu = c->cpu < 0 ? -1 : int_at_least(s, (size_t)c->cpu, 0,
	                                        "cpu must be a CPU number, a whole number >= 0");
	h->ns = int_at_least(s, c->ns, 1, "time must be a whole number of ns > 0");
	h->status = int_at_least(s, c->status, INT64_MIN + 1, "status must be a whole number");
	for (i = 0; i < NUSE; i++)
		if (use_cols[i])
			h->use[i] = c->use[i] < 0 ? 0
			          : int_at_least(s, (size_t)c->use[i], 0, use_rule[i]);
	if (h->use[USE_USER] > INT64_MAX - h->use[USE_SYS])
		stream_die(s, "user_ns + sys_ns is beyond 2^63 ns: not a CPU time");
	h->use[USE_CPU] = h->use[USE_USER] + h->use[USE_SYS];
	h->line = s->lineno;
	h->file = s->cur;
	h->extra = NULL;
}

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "keys.h"
#include "num.h"
#include "out.h"
#include "stream.h"
#include "study.h"

const char *const study_design_keys[] = {
	"mode", "worker", "cmd_a", "cmd_b", "shell", "conninfo", "sql_a", "sql_b",
	"rollback", "setup_sql", "design", "arms", "reference", "pairs", "warmup", "order", "delay_ns",
	"delay_arm", "timeout_ns", "setup", "prepare", "cleanup", "ignore_failure",
	"clock", "until", "seq_g", "seq_level", "min_runs", "seq_stat", "seq_kind", NULL,
};

/* The first of the kept metadata that FILE's head can hold. The stream
 * keeps heads in the order it reads its files, so a file's entries
 * come after those of the files before it: pb-pair reads the head of
 * each of 1000 shards as it opens it, and scanning all the heads before
 * made that quadratic. */
static size_t meta_start(const struct stream *s, int file)
{
	size_t i = s->nmeta;

	if (file < 0)
		return 0;
	while (i > 0 && s->meta[i - 1].file >= file)
		i--;
	return i;
}

void study_head_read(struct study_head *h, const struct stream *s, int file)
{
	size_t i;

	memset(h, 0, sizeof *h);
	for (i = meta_start(s, file); i < s->nmeta; i++) {
		if (file >= 0 && s->meta[i].file != file)
			continue;
		xgrow(&h->kv, &h->cap, h->n + 1, sizeof *h->kv);
		h->kv[h->n].key = xstrdup(s->meta[i].key);
		h->kv[h->n++].value = xstrdup(s->meta[i].value);
	}
}

void study_head_free(struct study_head *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->kv[i].key);
		free(h->kv[i].value);
	}
	free(h->kv);
	memset(h, 0, sizeof *h);
}

const char *study_head_str(const struct study_head *h, const char *key)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->kv[i].key, key) == 0)
			return h->kv[i].value;
	return NULL;
}

const char *study_head_for(const struct study_head *h, const char *key, const char *word)
{
	size_t i, n = strlen(word);
	const char *v;

	for (i = 0; i < h->n; i++) {
		v = h->kv[i].value;
		if (strcmp(h->kv[i].key, key) == 0 && strncmp(v, word, n) == 0 &&
		    (v[n] == ' ' || !v[n]))
			return v[n] ? v + n + 1 : v + n;
	}
	return NULL;
}

int study_head_int(const struct study_head *h, const char *key, int64_t *v)
{
	const char *s = study_head_str(h, key);
	int64_t x;

	if (!s)
		return 0;
	if (num_parse_i64(s, &x) < 0)
		return -1;
	*v = x;
	return 1;
}

int study_head_num(const struct study_head *h, const char *key, double *v)
{
	const char *s = study_head_str(h, key);
	double x;

	if (!s)
		return 0;
	if (num_parse(s, &x) < 0)
		return -1;
	*v = x;
	return 1;
}

/* A number of the row, NAN when its field is empty; else a number or
 * the stream's error. */
void study_head_arms(const struct study_head *h, const char *what, int *arms, int *ref)
{
	const char *k = study_head_str(h, "arms"), *r = study_head_str(h, "reference");
	int64_t n = 2;
	char b[MSG_CUT_BUF];

	if (k && (num_parse_i64(k, &n) < 0 || n < 2 || n > 26))
		die("%s: '# arms: %s' is not a number of arms (2 to 26)", what, msg_cut(b, k));
	if (r && (r[0] < 'A' || r[0] >= 'A' + n || r[1]))
		die("%s: '# reference: %s' is not one of the arms (A to %c)", what, msg_cut(b, r),
		    (int)('A' + n - 1));
	*arms = (int)n;
	*ref = r ? r[0] - 'A' : 0;
}

int study_head_duet(const struct study_head *h)
{
	const char *o = study_head_str(h, "order");

	return o && strcmp(o, "duet") == 0;
}

int study_head_duet_cpus(const struct study_head *h, const char *what, int64_t cpu[2])
{
	const char *v = study_head_str(h, "duet_cpus"), *comma;
	char x[NUM_BUFSZ], b[MSG_CUT_BUF];
	size_t n;

	if (!v)
		return 0;
	comma = strchr(v, ',');
	n = comma ? (size_t)(comma - v) : 0;
	if (n && n < sizeof x) {
		memcpy(x, v, n);
		x[n] = '\0';
		if (num_parse_i64(x, &cpu[0]) == 0 && num_parse_i64(comma + 1, &cpu[1]) == 0 &&
		    cpu[0] >= 0 && cpu[1] >= 0 && cpu[0] != cpu[1])
			return 1;
	}
	die("%s: '# duet_cpus: %s' is not two CPUs X,Y (whole numbers >= 0 that differ)", what,
	    msg_cut(b, v));
}

static double field_or_nan(const struct stream *s, long col)
{
	return col < 0 || !*s->field[col] ? NAN : stream_num(s, (size_t)col);
}

/* A cost of pb-plan's head: whole ns, or NAN. */
static double plan_cost(const struct study_head *h, const char *key)
{
	int64_t ns;

	return study_head_int(h, key, &ns) == 1 && ns >= 0 ? (double)ns : NAN;
}

static long whole_or_zero(const struct stream *s, size_t col)
{
	int64_t v;

	return stream_i64(s, col, &v) == 0 && v >= 0 && v <= LONG_MAX ? (long)v : 0;
}

void study_plan_read(struct study_plan *p, const char *path)
{
	static struct stream s;   /* static: reachable when a bad row ends the program */
	struct study_head h;
	char *files[1];
	size_t plan, between, within, runs, pairs;

	files[0] = (char *)path;
	stream_open(&s, 1, files);
	stream_header(&s);
	study_head_read(&h, &s, -1);
	p->pair_ns = plan_cost(&h, KEY_PLAN_PAIR_COST);
	p->run_ns = plan_cost(&h, KEY_PLAN_RUN_COST);
	study_head_free(&h);
	p->sigma2_between = p->sigma2_within = NAN;
	p->runs = p->kj_pairs = 0;
	plan = stream_col(&s, "plan");
	between = stream_col(&s, "sigma2_between");
	within = stream_col(&s, "sigma2_within");
	runs = stream_col(&s, "runs");
	pairs = stream_col(&s, "pairs");
	while (stream_row(&s)) {
		if (strcmp(s.field[plan], "current") == 0 && isnan(p->sigma2_between)) {
			p->sigma2_between = field_or_nan(&s, (long)between);
			p->sigma2_within = field_or_nan(&s, (long)within);
			p->runs = whole_or_zero(&s, runs);
		} else if (strcmp(s.field[plan], "kalibera_jones") == 0 && !p->kj_pairs)
			p->kj_pairs = whole_or_zero(&s, pairs);
	}
	stream_close(&s);
}

void study_checks_read(struct study_checks *c, const char *path, const char *what)
{
	static struct stream s;   /* static: reachable when a bad row ends the program */
	struct study_head h;
	char *files[1];
	long arm, check, status, note;

	memset(c, 0, sizeof *c);
	files[0] = (char *)path;
	stream_open(&s, 1, files);
	stream_header(&s);
	check = stream_col_find(&s, "check");
	status = stream_col_find(&s, "status");
	note = stream_col_find(&s, "note");
	if (check < 0 || status < 0 || note < 0)
		die("%s: not pb-check's output (no columns check, status and note)", what);
	arm = stream_col_find(&s, "arm");
	study_head_read(&h, &s, -1);
	if (study_head_str(&h, "study"))
		c->study = xstrdup(study_head_str(&h, "study"));
	study_head_free(&h);
	while (stream_row(&s)) {
		struct study_check_row *r;

		xgrow(&c->row, &c->cap, c->n + 1, sizeof *c->row);
		r = &c->row[c->n++];
		r->arm = xstrdup(arm >= 0 ? s.field[arm] : "");
		r->check = xstrdup(s.field[check]);
		r->status = xstrdup(s.field[status]);
		r->note = xstrdup(s.field[note]);
	}
	stream_close(&s);
}

void study_checks_free(struct study_checks *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->row[i].arm);
		free(c->row[i].check);
		free(c->row[i].status);
		free(c->row[i].note);
	}
	free(c->row);
	free(c->study);
	memset(c, 0, sizeof *c);
}

void study_arm_key(char key[8], const char *prefix, int arm)
{
	snprintf(key, 8, "%.4s%c", prefix, 'a' + arm);
}

void run_comment_out(long run, const char *start, long pid, uint64_t study,
                     const char *words, const char *host)
{
	out_meta("run", "%ld start=%s pid=%ld study=%016llx%s host=%s", run, start, pid,
	         (unsigned long long)study, words, host);
}

static int take(struct word *w, const char *p, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len < n || memcmp(p, name, n) != 0)
		return 0;
	if (!w->p) {
		w->p = p + n;
		w->len = len - n;
	}
	return 1;
}

int run_comment_parse(const char *value, struct run_comment *rc)
{
	const char *p = value;
	size_t len = strspn(p, "0123456789");
	char digits[24];

	memset(rc, 0, sizeof *rc);
	if (len == 0 || len >= sizeof digits || (p[len] && p[len] != ' '))
		return -1;
	memcpy(digits, p, len);
	digits[len] = '\0';
	if (num_parse_i64(digits, &rc->run) < 0)
		return -1;
	rc->number.p = p;
	rc->number.len = len;
	for (p += len; *p; p += len) {
		while (*p == ' ')
			p++;
		if (strncmp(p, "host=", 5) == 0) {
			rc->host.p = p + 5;
			rc->host.len = strlen(p + 5);
			break;
		}
		len = strcspn(p, " ");
		if (!take(&rc->start, p, len, "start=") && !take(&rc->pid, p, len, "pid="))
			take(&rc->study, p, len, "study=");
	}
	return 0;
}

char *run_comment_host(const struct run_comment *rc)
{
	char *h, *q;
	size_t i;

	if (!rc->host.len)
		return NULL;
	q = h = xmalloc(2 * rc->host.len + 1);
	for (i = 0; i < rc->host.len; i++) {
		char c = rc->host.p[i];

		if (c == '\t' || c == '\r') {
			*q++ = '\\';
			*q++ = c == '\t' ? 't' : 'r';
		} else {
			*q++ = c;
		}
	}
	*q = '\0';
	return h;
}

struct word study_word(const char *value, const char *name)
{
	struct word w = { NULL, 0 };
	size_t n = strlen(name), len;
	const char *p;

	for (p = value; *p; p += len) {
		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len > n && memcmp(p, name, n) == 0 && p[n] == '=') {
			w.p = p + n + 1;
			w.len = len - n - 1;
			return w;
		}
	}
	return w;
}

int64_t study_event_run(const char *value)
{
	const char *p = value;
	size_t len = strcspn(p, " ");
	int64_t run;
	char digits[24];

	if (strncmp(p, "run ", 4) != 0) {   /* "SIGINT in run R": a word, then "in " */
		if (strncmp(p + len, " in run ", 8) != 0)
			return -1;
		p += len + 4;
	}
	p += 4;
	len = strspn(p, "0123456789");
	if (len == 0 || len >= sizeof digits || (p[len] && p[len] != ' '))
		return -1;
	memcpy(digits, p, len);
	digits[len] = '\0';
	return num_parse_i64(digits, &run) == 0 ? run : -1;
}

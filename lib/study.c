#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "out.h"
#include "stream.h"
#include "study.h"

const char *const study_design_keys[] = {
	"mode", "worker", "cmd_a", "cmd_b", "shell", "conninfo", "sql_a", "sql_b",
	"rollback", "setup_sql", "design", "arms", "reference", "pairs", "warmup", "order", "delay_ns",
	"delay_arm", "timeout_ns", "setup", "prepare", "cleanup", "ignore_failure",
	"clock", "until", "seq_g", "seq_level", "min_runs", "seq_stat", NULL,
};

void study_head_read(struct study_head *h, const struct stream *s, int file)
{
	size_t i;

	memset(h, 0, sizeof *h);
	for (i = 0; i < s->nmeta; i++) {
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

void study_arm_key(char key[8], const char *prefix, int arm)
{
	snprintf(key, 8, "%.4s%c", prefix, 'a' + arm);
}

void run_comment_out(long run, const char *start, long pid, uint64_t study,
                     const char *host)
{
	out_meta("run", "%ld start=%s pid=%ld study=%016llx host=%s", run, start, pid,
	         (unsigned long long)study, host);
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

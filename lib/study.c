#include <stdio.h>
#include <string.h>

#include "num.h"
#include "out.h"
#include "study.h"

const char *const study_design_keys[] = {
	"mode", "worker", "cmd_a", "cmd_b", "shell", "conninfo", "sql_a", "sql_b",
	"rollback", "setup_sql", "design", "arms", "reference", "pairs", "warmup", "order", "delay_ns",
	"delay_arm", "timeout_ns", "setup", "prepare", "cleanup", "ignore_failure",
	"clock", "until", "seq_g", "seq_level", "min_runs", "seq_stat", NULL,
};

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

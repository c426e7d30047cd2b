#include <string.h>

#include "quantity.h"

static const struct quantity wall_time = { "time", "ns", 1 };
static const struct quantity named[] = {
	{ "peak memory", "KiB", 0 },
	{ "CPU time (user)", "ns", 0 },
	{ "CPU time (system)", "ns", 0 },
	{ "CPU time", "ns", 0 },
	{ "minor page faults", "faults", 0 },
	{ "major page faults", "faults", 0 },
	{ "voluntary context switches", "switches", 0 },
	{ "involuntary context switches", "switches", 0 },
	{ "peak memory (whole tree)", "KiB", 0 },
	{ "CPU time (whole tree)", "ns", 0 },
	{ "bytes read (whole tree)", "bytes", 0 },
	{ "bytes written (whole tree)", "bytes", 0 },
};
/* The names of pb-pair's paired columns (a_NAME, b_NAME) and of pb-run's
 * raw ones, in the order of named[] (cpu, user + sys, is pb-pair's). */
static const char *const paired[] = {
	"maxrss", "user", "sys", "cpu", "minflt", "majflt", "nvcsw", "nivcsw",
	"tree_maxrss", "tree_cpu", "tree_read", "tree_write",
};
static const char *const raw[] = {
	"maxrss_kib", "user_ns", "sys_ns", NULL, "minflt", "majflt", "nvcsw", "nivcsw",
	"tree_maxrss_kib", "tree_cpu_ns", "tree_read_bytes", "tree_write_bytes",
};

static const struct quantity *of_name(const char *col, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof paired / sizeof *paired; i++) {
		if (raw[i] && n == strlen(raw[i]) && strncmp(col, raw[i], n) == 0)
			return &named[i];
		if (n == 2 + strlen(paired[i]) && (col[0] == 'a' || col[0] == 'b') &&
		    col[1] == '_' && strncmp(col + 2, paired[i], n - 2) == 0)
			return &named[i];
	}
	return &wall_time;
}

const struct quantity *quantity_of_column(const char *col)
{
	return of_name(col, strlen(col));
}

const struct quantity *quantity_of_log_ratio(const char *cols)
{
	return of_name(cols, strcspn(cols, " "));
}

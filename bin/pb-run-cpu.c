/* pb-run --cpu LIST: pin pb-run, and so every process it starts, to a set
 * of CPUs (Linux's sched_setaffinity; the children inherit it). A file of
 * its own: cpu_set_t needs _GNU_SOURCE, which no other part of pb-run
 * asks for. */
#ifdef __linux__
#define _GNU_SOURCE
#include <sched.h>
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "pb-run.h"

#ifdef __linux__
/* A CPU number of the list at *p; -1 when there is none. */
static long cpu_number(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (*(*p)++ - '0');
		if (v >= CPU_SETSIZE)
			return -1;
	}
	return v;
}

/* "0", "1,3", "0-2,5", as taskset -c and /proc's lists write them. */
static void parse_list(const char *list, cpu_set_t *set)
{
	const char *p = list;

	CPU_ZERO(set);
	do {
		long lo = cpu_number(&p), hi = lo, c;

		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < lo)
			die_usage("--cpu wants CPU numbers below %d such as 1 or 0,2-3, not '%s'",
			          CPU_SETSIZE, list);
		for (c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
	} while (*p == ',' && p++);
	if (*p)
		die_usage("--cpu wants CPU numbers below %d such as 1 or 0,2-3, not '%s'",
		          CPU_SETSIZE, list);
}

/* The set as a list, runs of CPUs as ranges: "0,2-3". */
static void describe(const cpu_set_t *set, char *buf, size_t n)
{
	size_t len = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < CPU_SETSIZE) {
		int end = c;

		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%d", len ? "," : "", c);
		if (end > c && len < n)
			len += (size_t)snprintf(buf + len, n - len, "-%d", end);
		c = end + 1;
	}
}

void run_pin_cpus(const char *list, char *desc, size_t n)
{
	cpu_set_t set;

	parse_list(list, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0) {
		if (errno == EINVAL)
			die_usage("--cpu %s: none of these CPUs is online and allowed here", list);
		die("--cpu %s: sched_setaffinity:", list);
	}
	/* what the kernel holds now, which may be less than asked (offline
	 * CPUs, a cgroup's cpuset) */
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		die("--cpu %s: sched_getaffinity:", list);
	describe(&set, desc, n);
}
#else
void run_pin_cpus(const char *list, char *desc, size_t n)
{
	(void)desc, (void)n;
	die_usage("--cpu %s: not supported on this system (pinning needs Linux's "
	          "sched_setaffinity)", list);
}
#endif

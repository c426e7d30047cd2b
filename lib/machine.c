#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "err.h"
#include "keys.h"
#include "machine.h"
#include "num.h"
#include "out.h"

/* The value of the word "name=VALUE" of a line (words split by spaces),
 * as a number: 0, or -1 when there is none or it is not a number. */
static int word_num(const char *line, size_t len, const char *name, double *v)
{
	size_t n = strlen(name), i = 0, w;
	char b[64];

	while (i < len) {
		i += strspn(line + i, " ");
		for (w = 0; i + w < len && line[i + w] != ' '; w++)
			;
		if (w > n && w - n < sizeof b && memcmp(line + i, name, n) == 0) {
			memcpy(b, line + i + n, w - n);
			b[w - n] = '\0';
			return num_parse(b, v);
		}
		i += w;
	}
	return -1;
}

int machine_parse_loadavg(const char *text, double *load1)
{
	size_t len = strcspn(text, " \n");
	char b[64];

	if (len == 0 || len >= sizeof b)
		return -1;
	memcpy(b, text, len);
	b[len] = '\0';
	return num_parse(b, load1) == 0 && *load1 >= 0 ? 0 : -1;
}

int machine_parse_psi(const char *text, double *avg10, double *total_us)
{
	const char *p;

	for (p = text; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t len = strcspn(p, "\n");

		if (len < 5 || memcmp(p, "some ", 5) != 0)
			continue;
		if (word_num(p, len, "avg10=", avg10) < 0 || word_num(p, len, "total=", total_us) < 0 ||
		    *avg10 < 0 || *total_us < 0)
			return -1;
		return 0;
	}
	return -1;
}

/* The kernel's options that keep work off some CPUs (admin-guide's
 * kernel-parameters): each one given is kept, as it is written. */
static const char *const isolation_words[] = {
	"isolcpus", "nohz_full", "rcu_nocbs", "rcu_nocb_poll", "irqaffinity", "nohz",
	"housekeeping", "intel_pstate", "processor.max_cstate", "intel_idle.max_cstate", "idle",
};

static int isolation_word(const char *p, size_t len)
{
	size_t k, n;

	for (k = 0; k < LEN(isolation_words); k++) {
		n = strlen(isolation_words[k]);
		if (len >= n && memcmp(p, isolation_words[k], n) == 0 && (len == n || p[n] == '='))
			return 1;
	}
	return 0;
}

void machine_parse_isolation(const char *cmdline, char *buf, size_t size)
{
	const char *p = cmdline;
	size_t used = 0, len;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (; *p; p += len) {
		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len == 2 && memcmp(p, "--", 2) == 0)
			break;   /* the rest is init's */
		if (!len || !isolation_word(p, len))
			continue;
		if (used + (used > 0) + len >= size)
			break;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, p, len);
		used += len;
		buf[used] = '\0';
	}
	if (!used)
		snprintf(buf, size, "none");
}

/* --- reading ---------------------------------------------------------- */

/* A small file's text, its last line feed removed, or -1. */
static int read_text(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* buf made one word: the bytes a metadata value may hold, a space at most
 * between words. */
static void one_word(char *buf)
{
	char *p;

	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

static void read_item(const char *path, char *buf, size_t size, const char *empty)
{
	if (read_text(path, buf, size) < 0)
		snprintf(buf, size, "unknown");
	else if (!buf[0])
		snprintf(buf, size, "%s", empty);
	one_word(buf);
}

static long online_cpus(void)
{
#ifdef _SC_NPROCESSORS_ONLN
	return sysconf(_SC_NPROCESSORS_ONLN);
#else
	return -1;
#endif
}

/* 1 when word is one of the comma-separated items of list. */
static int listed(const char *list, const char *word)
{
	size_t n = strlen(word), len;
	const char *p;

	for (p = list; *p; p += len + (p[len] == ',')) {
		len = strcspn(p, ",");
		if (len == n && memcmp(p, word, n) == 0)
			return 1;
	}
	return 0;
}

/* Each CPU's governor, the distinct ones in CPU order: "none" without a
 * cpufreq driver (a virtual machine, most often). */
static void read_governor(char *buf, size_t size, long cpus)
{
	char path[96], g[64];
	long c;
	size_t used = 0;

	buf[0] = '\0';
	for (c = 0; c < cpus && c < 4096; c++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", c);
		if (read_text(path, g, sizeof g) < 0 || !g[0])
			continue;
		one_word(g);
		if (listed(buf, g))
			continue;
		if (used + (used > 0) + strlen(g) >= size)
			break;
		used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "", g);
	}
	if (!used)
		snprintf(buf, size, "none");
}

/* cpufreq's boost (1: on), else intel_pstate's no_turbo (1: off). */
static void read_boost(char *buf, size_t size)
{
	char b[16];

	if (read_text("/sys/devices/system/cpu/cpufreq/boost", b, sizeof b) == 0 &&
	    (!strcmp(b, "0") || !strcmp(b, "1")))
		snprintf(buf, size, "%s", b[0] == '1' ? "on" : "off");
	else if (read_text("/sys/devices/system/cpu/intel_pstate/no_turbo", b, sizeof b) == 0 &&
	         (!strcmp(b, "0") || !strcmp(b, "1")))
		snprintf(buf, size, "%s", b[0] == '1' ? "off" : "on");
	else
		snprintf(buf, size, "unknown");
}

static void set_unknown(struct machine_state *m)
{
	snprintf(m->governor, sizeof m->governor, "unknown");
	snprintf(m->freq_khz, sizeof m->freq_khz, "unknown");
	snprintf(m->boost, sizeof m->boost, "unknown");
	snprintf(m->smt, sizeof m->smt, "unknown");
	snprintf(m->aslr, sizeof m->aslr, "unknown");
	snprintf(m->isolcpus, sizeof m->isolcpus, "unknown");
	snprintf(m->isolation, sizeof m->isolation, "unknown");
}

void machine_state_read(struct machine_state *m)
{
	long cpus = online_cpus();

	if (cpus > 0)
		snprintf(m->cpus, sizeof m->cpus, "%ld", cpus);
	else
		snprintf(m->cpus, sizeof m->cpus, "unknown");
	set_unknown(m);
#ifdef __linux__
	{
		static char cmdline[8192];

		read_governor(m->governor, sizeof m->governor, cpus);
		read_item("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", m->freq_khz,
		          sizeof m->freq_khz, "unknown");
		read_boost(m->boost, sizeof m->boost);
		read_item("/sys/devices/system/cpu/smt/control", m->smt, sizeof m->smt, "unknown");
		read_item("/proc/sys/kernel/randomize_va_space", m->aslr, sizeof m->aslr, "unknown");
		read_item("/sys/devices/system/cpu/isolated", m->isolcpus, sizeof m->isolcpus, "none");
		if (read_text("/proc/cmdline", cmdline, sizeof cmdline) == 0)
			machine_parse_isolation(cmdline, m->isolation, sizeof m->isolation);
		one_word(m->isolation);
	}
#else
	(void)read_governor, (void)read_boost, (void)read_item;
#endif
}

void machine_head_out(const struct machine_state *m)
{
	out_meta("machine.cpus", "%s", m->cpus);
	out_meta(KEY_MACHINE_GOVERNOR, "%s", m->governor);
	out_meta("machine.freq_khz", "%s", m->freq_khz);
	out_meta("machine.boost", "%s", m->boost);
	out_meta("machine.smt", "%s", m->smt);
	out_meta("machine.aslr", "%s", m->aslr);
	out_meta("machine.isolcpus", "%s", m->isolcpus);
	out_meta("machine.isolation", "%s", m->isolation);
}

void machine_now_read(struct machine_now *n)
{
	char b[512];

	memset(n, 0, sizeof *n);
#ifdef __linux__
	if (read_text("/proc/loadavg", b, sizeof b) == 0 && machine_parse_loadavg(b, &n->load) == 0)
		n->has_load = 1;
	if (read_text("/proc/pressure/cpu", b, sizeof b) == 0 &&
	    machine_parse_psi(b, &n->psi, &n->psi_total_us) == 0)
		n->has_psi = 1;
#else
	(void)b;
#endif
	n->t_ns = clock_ns();
}

void machine_now_words(const struct machine_now *n, char *buf, size_t size)
{
	char l[NUM_BUFSZ], p[NUM_BUFSZ];

	num_format(l, n->load);
	num_format(p, n->psi);
	snprintf(buf, size, "%s%s%s%s", n->has_load ? " load=" : "", n->has_load ? l : "",
	         n->has_psi ? " psi=" : "", n->has_psi ? p : "");
}

double machine_psi_between(const struct machine_now *a, const struct machine_now *b)
{
	double wall_us = (double)(b->t_ns - a->t_ns) / 1e3, v;

	if (!a->has_psi || !b->has_psi || !(wall_us > 0) || b->psi_total_us < a->psi_total_us)
		return -1;
	v = 100 * (b->psi_total_us - a->psi_total_us) / wall_us;
	/* the kernel's total and the clock are read apart, so a run stalled
	 * throughout can read a hair over 100 %: it is 100 */
	return round(fmin(v, 100) * 100) / 100;   /* to 0.01 %: what the reading is good for */
}

/* --- pb-run --env ------------------------------------------------------ */

enum env_status { ENV_OK, ENV_WARN, ENV_UNKNOWN };
static const char *const env_status_names[] = { "ok", "warn", "unknown" };

static void env_row(const char *item, enum env_status st, const char *state, const char *advice)
{
	out_field(item);
	out_field(env_status_names[st]);
	out_field(state);
	out_field(advice);
	out_end();
}

static int known(const char *v)
{
	return strcmp(v, "unknown") != 0;
}

static void env_governor(const struct machine_state *m)
{
	if (!known(m->governor))
		env_row("governor", ENV_UNKNOWN, m->governor, "pb-run reads the governor only on "
		        "Linux (/sys/devices/system/cpu/cpu*/cpufreq); see your system's power settings.");
	else if (strcmp(m->governor, "none") == 0)
		env_row("governor", ENV_OK, m->governor, "No cpufreq driver (a virtual machine, or a "
		        "fixed clock): nothing to set here, though the host may still change the "
		        "clock.");
	else if (strcmp(m->governor, "performance") == 0)
		env_row("governor", ENV_OK, m->governor, "The clock stays high whatever the load: "
		        "nothing to do.");
	else
		env_row("governor", ENV_WARN, m->governor, "A scaling governor changes the clock "
		        "with the load, so runs differ in speed: set it to performance "
		        "(cpupower frequency-set -g performance, as root).");
}

/* An item read as one word: unknown, the word that means if_word (ok or
 * warn), or any other, which means the other; each with its advice. */
static void env_word(const char *item, const char *state, const char *word,
                     enum env_status if_word, const char *unknown_advice,
                     const char *word_advice, const char *other_advice)
{
	if (!known(state))
		env_row(item, ENV_UNKNOWN, state, unknown_advice);
	else if (strcmp(state, word) == 0)
		env_row(item, if_word, state, word_advice);
	else
		env_row(item, if_word == ENV_OK ? ENV_WARN : ENV_OK, state, other_advice);
}

static void env_boost(const struct machine_state *m)
{
	env_word("boost", m->boost, "off", ENV_OK, "Neither cpufreq/boost nor "
	         "intel_pstate/no_turbo is there to read: check the firmware's turbo setting "
	         "if the host has one.",
	         "The clock does not rise above its base with the "
	         "temperature and the load: nothing to do.",
	         "Boost raises the clock while the chip is cool "
	         "and idle, so early and late runs differ: turn it off (echo 0 > "
	         "/sys/devices/system/cpu/cpufreq/boost, or echo 1 > "
	         "/sys/devices/system/cpu/intel_pstate/no_turbo, as root).");
}

static void env_smt(const struct machine_state *m)
{
	env_word("smt", m->smt, "on", ENV_WARN, "/sys/devices/system/cpu/smt/control is not "
	         "there to read: see whether the CPU runs two threads per core (lscpu).",
	         "A sibling thread shares each core, and whatever "
	         "runs on it slows the study: pin pb-run with --cpu to one thread of a core "
	         "and keep its sibling idle, or turn SMT off (echo off > "
	         "/sys/devices/system/cpu/smt/control, as root).",
	         "No sibling thread shares a core: nothing to do.");
}

static void env_aslr(const struct machine_state *m)
{
	env_word("aslr", m->aslr, "0", ENV_WARN, "/proc/sys/kernel/randomize_va_space is not "
	         "there to read: nothing pb-run can say about address randomization.",
	         "Every run gets the same memory layout, so one "
	         "layout's luck is in all of them: turn randomization back on (sysctl "
	         "kernel.randomize_va_space=2, as root) so that runs sample layouts.",
	         "Addresses differ from run to run, so the runs "
	         "sample memory layouts and their spread shows it: keep it.");
}

static void env_isolation(const struct machine_state *m)
{
	env_word("isolcpus", m->isolcpus, "none", ENV_WARN, "/sys/devices/system/cpu/isolated "
	         "is not there to read: nothing pb-run can say about isolated CPUs.",
	         "Every CPU takes other work: for "
	         "steadier runs boot with isolcpus=LIST (and nohz_full=LIST rcu_nocbs=LIST) "
	         "and run pb-run --cpu LIST.",
	         "These CPUs are kept from other work: "
	         "run pb-run --cpu on them.");
	if (!known(m->isolation))
		env_row("isolation", ENV_UNKNOWN, m->isolation, "/proc/cmdline is not there to "
		        "read: nothing pb-run can say about the kernel's isolation options.");
	else
		env_row("isolation", ENV_OK, m->isolation, strcmp(m->isolation, "none") == 0
		        ? "The kernel was booted without isolation options: see isolcpus."
		        : "The kernel's options that keep work off some CPUs, as booted.");
}

static void env_now(const struct machine_now *n)
{
	char v[NUM_BUFSZ];

	if (!n->has_load)
		env_row("load", ENV_UNKNOWN, "unknown", "/proc/loadavg is not there to read: see "
		        "uptime for the load.");
	else {
		num_format(v, n->load);
		env_row("load", n->load >= 1 ? ENV_WARN : ENV_OK, v, n->load >= 1
		        ? "Other work keeps the CPUs busy (the 1-minute load average is 1 or more): "
		          "stop it, or wait for it to end, before a study."
		        : "Little else is running (the 1-minute load average is below 1): nothing "
		          "to do.");
	}
	if (!n->has_psi)
		env_row("pressure", ENV_UNKNOWN, "unknown", "This kernel says nothing of CPU "
		        "pressure (/proc/pressure/cpu: Linux 4.20 or later, booted with psi=1).");
	else {
		num_format(v, n->psi);
		env_row("pressure", n->psi >= 10 ? ENV_WARN : ENV_OK, v, n->psi >= 10
		        ? "Tasks waited for a CPU for 10% or more of the last 10 seconds (% of the "
		          "time, some avg10): stop other work before a study, or pb-check will warn."
		        : "Tasks waited for a CPU less than 10% of the last 10 seconds (some avg10): "
		          "nothing to do.");
	}
}

void machine_env_out(int argc, char **argv)
{
	struct machine_state m;
	struct machine_now n;

	machine_state_read(&m);
	machine_now_read(&n);
	out_begin(NULL, argc, argv);
	out_field("item"), out_field("status"), out_field("state"), out_field("advice");
	out_end();
	env_row("cpus", known(m.cpus) ? ENV_OK : ENV_UNKNOWN, m.cpus, "The CPUs online.");
	env_governor(&m);
	env_row("freq_khz", known(m.freq_khz) ? ENV_OK : ENV_UNKNOWN, m.freq_khz,
	        known(m.freq_khz) ? "CPU 0's clock now, in kHz (with a scaling governor it moves)."
	                          : "No cpufreq driver says the clock: nothing to read.");
	env_boost(&m);
	env_smt(&m);
	env_aslr(&m);
	env_isolation(&m);
	env_now(&n);
}

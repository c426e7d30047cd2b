/* machine: what can be read of the machine's state beside the data (the
 * CPU frequency governor, boost, SMT, ASLR, isolated CPUs, the load and
 * the CPU pressure), for pb-run's head, its "# run:" and "# run_end:"
 * comments and pb-run --env. Linux's /sys and /proc; elsewhere each item
 * is "unknown" and the load and pressure absent. The parsers take the
 * text of a file, so that they can be tested and fuzzed without it. */
#ifndef PB_MACHINE_H
#define PB_MACHINE_H

#include <stddef.h>

/* The head's items, each a word or a short list ("unknown" when it
 * cannot be read). */
struct machine_state {
	char cpus[24];        /* online CPUs, a number */
	char governor[128];   /* "performance", "powersave,ondemand", "none" */
	char freq_khz[24];    /* CPU 0's current frequency */
	char boost[16];       /* "on", "off" */
	char smt[24];         /* /sys/devices/system/cpu/smt/control: on, off, ... */
	char aslr[8];         /* randomize_va_space: 0, 1, 2 */
	char isolcpus[128];   /* /sys/devices/system/cpu/isolated, or "none" */
	char isolation[512];  /* the kernel command line's isolation words, or "none" */
};

/* The load and pressure now; has_ 0 where there is none to read. */
struct machine_now {
	int has_load, has_psi;
	double load;          /* the 1-minute load average */
	double psi;           /* CPU pressure "some" avg10, % */
	double psi_total_us;  /* CPU pressure "some" total, us */
	long long t_ns;       /* when read (CLOCK_MONOTONIC) */
};

void machine_state_read(struct machine_state *m);
/* The head's "# machine.KEY:" lines. */
void machine_head_out(const struct machine_state *m);
void machine_now_read(struct machine_now *n);
/* " load=X psi=Y" (each where it is known) into buf, or "". */
void machine_now_words(const struct machine_now *n, char *buf, size_t size);
/* The CPU pressure over the time from a to b, in %; -1 when unknown. */
double machine_psi_between(const struct machine_now *a, const struct machine_now *b);

/* pb-run --env: a stream "item status state advice" (status ok, warn or
 * unknown; advice what a person can do about it), provenance first. */
void machine_env_out(int argc, char **argv);

/* The parsers: 0, or -1 when the text is not so. */
/* /proc/loadavg: its first field, the 1-minute load. */
int machine_parse_loadavg(const char *text, double *load1);
/* /proc/pressure/cpu: the "some" line's avg10 and total. */
int machine_parse_psi(const char *text, double *avg10, double *total_us);
/* The kernel command line's words that isolate CPUs (isolcpus=,
 * nohz_full=, rcu_nocbs=, irqaffinity=, ...), space-separated, or "none";
 * cut to fit size. */
void machine_parse_isolation(const char *cmdline, char *buf, size_t size);

#endif

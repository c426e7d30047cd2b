#include <stdio.h>

#include "clock.h"
#include "err.h"
#include "keys.h"
#include "machine.h"
#include "out.h"
#include "runhead.h"
#include "study.h"
#include "sysinfo.h"

static const char arm_letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* What is run: the mode, the commands (or the worker, or the executor's
 * SQL lines) and the shell. */
static void commands_meta(const struct config *c, struct executor *ex)
{
	char key[8];
	int arm;

	out_meta("mode", "%s", ex->mode);
	if (c->worker)
		out_meta("worker", "%s", c->worker);
	for (arm = 0; c->cmd[0] && arm < c->arms; arm++) {
		study_arm_key(key, "cmd_", arm);
		out_meta(key, "%s", c->cmd[arm]);
	}
	if (!c->pg)
		out_meta("shell", "%s", c->no_shell ? "none (--no-shell: words exec'd directly)"
		                                    : "/bin/sh -c");
	ex->metadata(ex, c);
}

/* How: the arms, runs, pairs, order, delay, the stopping rule, the
 * hooks. */
static void design_meta(const struct config *c)
{
	if (c->aa && !c->worker)
		out_meta("design", "A/A: the same %s in both arms", c->pg ? "SQL" : "command");
	/* two arms, A the reference, as pb-run has always written them: no
	 * lines, so that such a stream reads as it always has */
	if (c->arms > 2)
		out_meta("arms", "%d", c->arms);
	if (c->arms > 2 || c->reference != 0)
		out_meta("reference", "%c", arm_letters[c->reference]);
	out_meta("runs", "%ld", c->runs);
	out_meta("first_run", "%ld", c->first_run);
	out_meta("pairs", "%ld", c->pairs);
	out_meta("warmup", "%ld", c->warmup);
	if (c->duet) {
		out_meta("order", "duet");
		out_meta("duet_cpus", "%d,%d", c->duet_cpu[0], c->duet_cpu[1]);
		out_meta("duet_cpus" KEY_NOTE, "A and B of each pair start at the same moment, "
		         "released together once both are ready, each pinned to one of these CPUs "
		         "(which drawn per pair, the cpu column), each timed by a process of "
		         "pb-run's own pinned beside it; pos 0: neither went first; start_ns = "
		         "from the release to the arm's clock start");
	} else
		out_meta("order", "%s", order_names[c->order]);
	out_meta("seed", "%llu", (unsigned long long)c->seed);
	out_meta("delay_ns", "%lld", (long long)c->delay_ns);
	out_meta("delay_arm", "%c", 'A' + c->delay_arm);
	if (c->until.rule != SEQ_NONE) {
		/* pb-tint reads these: a study stopped by looking gets the
		 * sequence, at this g and level, by default */
		out_meta("until", "%s", seq_rule_words(&c->until));
		if (c->until.rule == SEQ_TOLERANCE)   /* pb-tint's default margin */
			out_meta_num(KEY_RUN_TOLERANCE, "%s", c->until.tolerance);
		out_meta("seq_kind", "%s", seq_kind_names[c->until.kind]);
		if (c->until.kind == SEQ_KIND_T)
			out_meta_num("seq_g", "%s", c->until.g);
		if (c->until.kind == SEQ_KIND_T && c->seq_g_note)
			out_meta("seq_g" KEY_NOTE, "%s", c->seq_g_note);
		out_meta_num("seq_level", "%s", c->until.level);
		out_meta("min_runs", "%ld", c->until.min_runs);
		out_meta(KEY_RUN_SEQ_STAT, "%s", c->until_stat.name);
		out_meta(KEY_RUN_SEQ_STAT KEY_NOTE, "each run's statistic, as pb-pair --by-run "
		         "--stat %s", c->until_stat.name);
	}
	if (c->timeout_ns)
		out_meta("timeout_ns", "%lld", (long long)c->timeout_ns);
	if (c->max_time_ns)
		out_meta("max_time_ns", "%lld", (long long)c->max_time_ns);
	if (c->setup)
		out_meta("setup", "%s", c->setup);
	if (c->prepare)
		out_meta("prepare", "%s", c->prepare);
	if (c->cleanup)
		out_meta("cleanup", "%s", c->cleanup);
	out_meta("output", "%s", c->output ? c->output : "/dev/null");
	if (c->ignore_failure)
		out_meta("ignore_failure", "yes: failed observations are recorded, not fatal");
}

/* "# rusage:": what the columns hold, or why there are none. */
static void rusage_meta(const struct config *c)
{
	long long floor_kib = runner_has_usage(c) ? (long long)proc_floor_kib() : 0;

	if (c->pg)
		out_meta("rusage", "none in SQL mode: the server's backend does the work, and "
		         "it is not a child of pb-run");
	else if (c->worker)
		out_meta("rusage", "none in worker mode: rusage is known of a reaped process, "
		         "not per request of one that lives on (/proc/PID/schedstat would count "
		         "only its main thread, with pb-run's own protocol handling, and peak "
		         "memory only grows); the command mode measures each observation's");
	else if (!PROC_USAGE)
		out_meta("rusage", "none: this build has no wait4 (not POSIX), so no user_ns, "
		         "sys_ns or maxrss_kib columns");
	else
		out_meta("rusage", "user_ns, sys_ns, maxrss_kib, minflt, majflt, nvcsw and nivcsw "
		         "of the reaped command process "
		         "(wait4): its CPU time in user and in kernel mode (ns, to the us), its "
		         "peak resident set (KiB), its page faults (minor: no read from a device; "
		         "major) and context switches (voluntary; involuntary: preempted), counting "
		         "the descendants it waited for (their "
		         "CPU time and counts added; maxrss the largest of the process and each of "
		         "them, not their sum); %s; maxrss is never below what the forked process holds "
		         "before its exec (the pages pb-run had written, copied on write), pb-run's "
		         "floor, %lld KiB at the start (maxrss_floor_kib, measured by a fork that ends "
		         "there, and given again at the end: it grows a little); user_ns + sys_ns is the scheduler's CPU "
		         "time, its split between "
		         "the two sampled at clock ticks by most kernels; a failed or timed-out "
		         "observation has "
		         "what wait4 gave when it was reaped (killed, on a timeout), 0 when it did "
		         "not start",
		         c->no_shell ? "--no-shell: the command alone"
		                     : "through /bin/sh -c they include the shell (--no-shell "
		                       "for the command alone)",
		         (long long)floor_kib);
	if (runner_has_usage(c))
		out_meta("maxrss_floor_kib", "%lld", (long long)floor_kib);
}

/* "# resources:" with --resources tree: where each tree_ column is read,
 * and what it counts. None without it: the stream is as it was. */
static void resources_meta(const struct config *c)
{
	char where[3 * 4200];

	if (!c->tree)
		return;
	cgroup_tree_describe(where, sizeof where);
	out_meta("resources", "tree: each observation in cgroups of its own, made for it under "
	         "pb-run's cgroup and removed after it, joined by the forked process before its "
	         "exec (inside the timed window): the command and every process it starts; %s; tree_maxrss_kib the "
	         "cgroup's peak memory (KiB; v1 counts the page cache charged to it, v2's "
	         "memory.peak too), tree_cpu_ns its CPU time (ns; v2's usage_usec to the us), "
	         "tree_read_bytes and tree_write_bytes its block-device I/O (page-cache reads "
	         "and writes not yet written back are not counted; v1's blkio counts a device "
	         "where a throttle limit is set, so pb-run sets one of 10^15 bytes/s, none in "
	         "effect, on each of /sys/block in the cgroup); what is left in the "
	         "cgroups when the command is reaped is killed: the observation is over",
	         where);
}

/* Where and when: the study's identity, the machine, the clock. */
static void machine_meta(const struct config *c, const struct executor *ex,
                         const char *cpu_list, const char *cpu_affinity)
{
	char buf[512];
	struct machine_state m;

	out_meta("study", "%016llx", (unsigned long long)c->study);
	sysinfo_host(buf, sizeof buf);
	out_meta("host", "%s", buf);
	sysinfo_kernel(buf, sizeof buf);
	out_meta("kernel", "%s", buf);
	sysinfo_cpu(buf, sizeof buf);
	out_meta("cpu", "%s", buf);
	if (cpu_list)
		out_meta("cpu_affinity", "%s (--cpu %s: pb-run and every process it starts)",
		         cpu_affinity, cpu_list);
	machine_state_read(&m);
	machine_head_out(&m);
	out_meta("clock", "CLOCK_MONOTONIC; ns = %s; plus delay_ns on the delayed arm",
	         ex->timed);
	rusage_meta(c);
	clock_utc_stamp(buf);
	out_meta("start", "%s", buf);
}

void runhead_out(int argc, char **argv, const struct config *c, struct executor *ex,
                 const char *cpu_list, const char *cpu_affinity)
{
	out_begin(NULL, argc, argv);
	commands_meta(c, ex);
	design_meta(c);
	machine_meta(c, ex, cpu_list, cpu_affinity);
	resources_meta(c);
	out_field("run"), out_field("pair"), out_field("phase"), out_field("arm");
	out_field("pos"), out_field("delay_ns"), out_field("ns"), out_field("status");
	out_field("spin_ns");
	if (runner_has_usage(c))
		out_field("user_ns"), out_field("sys_ns"), out_field("maxrss_kib"),
		out_field("minflt"), out_field("majflt"), out_field("nvcsw"), out_field("nivcsw");
	if (c->tree)
		out_field("tree_maxrss_kib"), out_field("tree_cpu_ns"), out_field("tree_read_bytes"),
		out_field("tree_write_bytes");
	if (c->duet)
		out_field("cpu"), out_field("start_ns");
	out_end();
	flush_stdout_or_die();
}

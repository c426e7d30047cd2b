/* keys: the metadata keys one pb tool writes for a later one to read
 * (pb(7), Machine keys). Each value is a word, a number or a few words
 * named below, never a sentence: no tool reads a sentence. The sentence
 * for people, where there is one, is the line under the same key and
 * KEY_NOTE ("# pb-pair.by_run.note: ..."), which no tool reads. Writer
 * and readers name a key only through these; pb-sense, a shell script,
 * writes its own under the names given here. */
#ifndef PB_KEYS_H
#define PB_KEYS_H

#define KEY_NOTE ".note"          /* appended: KEY_PAIR_BY_RUN KEY_NOTE */

/* pb-run --until: each run's statistic (as pb-pair --by-run --stat takes
 * it), the name alone; the recipe (lib/recipe) reads it with the head's
 * arms and until. */
#define KEY_RUN_SEQ_STAT "seq_stat"
/* pb-run --until tolerance: the margin in percent, a number above 0 and
 * below 100; pb-tint and the recipe read it as the default --tolerance. */
#define KEY_RUN_TOLERANCE "tolerance"

/* pb-run: each CPU's frequency governor (the distinct ones, comma-
 * separated; "none" without cpufreq, "unknown" off Linux), in the head;
 * after each run "# run_end: R end=STAMP load=L psi=P psi_run=Q", whose
 * psi_run, the CPU pressure over the run in %, pb-check reads. */
#define KEY_MACHINE_GOVERNOR "machine.governor"
#define KEY_RUN_END "run_end"
#define RUN_END_PSI "psi_run"

/* pb-pair --by-run: the statistic of each arm's times in a run (a, b):
 * median, mean, min, p90, p99 or qP; and the --stat as given, which is
 * that or lr-median (lr the median of the pairs' ln(a/b), a and b the
 * median). */
#define KEY_PAIR_BY_RUN "pb-pair.by_run"
#define KEY_PAIR_STAT "pb-pair.stat"
/* pb-pair, after the rows: the pairs dropped for a failed observation. */
#define KEY_PAIR_FAILED "pb-pair.failed_pairs"

/* pb-logratio: "NAME A B", one line per column it adds: NAME = ln(A/B). */
#define KEY_LOGRATIO_COLUMN "pb-logratio.column"

/* pb-tint: the level; the interval, METHOD_T or METHOD_SEQUENCE; the
 * --threshold (a ratio A/B for a log ratio). */
#define KEY_TINT_LEVEL "pb-tint.level"
#define KEY_TINT_METHOD "pb-tint.method"
#define KEY_TINT_THRESHOLD "pb-tint.threshold"
/* pb-tint --tolerance: the margin in percent (its verdict's). */
#define KEY_TINT_TOLERANCE "pb-tint.tolerance"
#define METHOD_T "t"
#define METHOD_SEQUENCE "sequence"

/* pb-boot: the column and the level of its intervals. */
#define KEY_BOOT_COLUMN "pb-boot.column"
#define KEY_BOOT_LEVEL "pb-boot.level"

/* pb-plan: what a pair and the start of a run cost, in whole ns. */
#define KEY_PLAN_PAIR_COST "pb-plan.pair_cost"
#define KEY_PLAN_RUN_COST "pb-plan.run_cost"
/* pb-plan: the target half-width (in the column's unit); with --tighter
 * the bound on the difference (a share, 0.0059 for 0.59%) that pb-tint's
 * interval proves, or "none"; with --sequential "t" and the sequence's g. */
#define KEY_PLAN_TARGET "pb-plan.target"
#define KEY_PLAN_TIGHTER "pb-plan.tighter"
#define KEY_PLAN_SEQUENTIAL "pb-plan.sequential"
#define KEY_PLAN_SEQ_G "pb-plan.seq_g"

/* pb-sense: its level and per-run statistic (--stat); after the rows the
 * workload's median (ns), and of its t analysis the smallest delay from
 * which on every larger one was resolved and the delay below it that was
 * not (ns, or "none"). */
#define KEY_SENSE_LEVEL "pb-sense.level"
#define KEY_SENSE_STAT "pb-sense.stat"
#define KEY_SENSE_MEDIAN "pb-sense.median_ns"
#define KEY_SENSE_T_RESOLVES "pb-sense.t_resolves"
#define KEY_SENSE_T_MISSED "pb-sense.t_missed"

#endif

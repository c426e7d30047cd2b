#!/bin/sh
# gbench2pb.sh: Google Benchmark JSON results as a pb raw stream, so that
# pb-pair, pb-logratio, pb-tint and the rest can analyse them.
#
# usage: gbench2pb.sh [--a NAME] [--b NAME] [--time real|cpu] FILE.json... > raw.tsv
#
#   --a NAME, --b NAME   the benchmarks that are arms A (the baseline) and
#                        B (the candidate), by run name (BM_sort/1024); the
#                        default is the only two of the file, in its order
#   --time real|cpu      real_time (wall clock, the default) or cpu_time
#
# Each FILE is the JSON of one run of a benchmark binary with
# --benchmark_repetitions=N (--benchmark_format=json, or --benchmark_out=
# FILE --benchmark_out_format=json). Each repetition is one pb run of one
# pair: run k is repetition k of A with repetition k of B; the runs of a
# second FILE follow those of the first. A repetition's value is Google
# Benchmark's time of one iteration (its mean over the repetition's
# iterations), in its time_unit; here it becomes whole ns. The binary ran
# all repetitions of one benchmark, then all of the next: the pair is a
# blocked design, not an interleaved one, and the repetitions of one FILE
# share one process. The metadata says so (see README.md). Aggregates
# (mean, median, stddev, cv) are left out and counted. The output is
# written only when every FILE is good: errors are one line on stderr,
# exit 1. A FILE with the times of another is a copy, not a second run:
# refused.
# shellcheck disable=SC2015,SC2016   # jq programs in single quotes
set -eu
prog=gbench2pb
. "$(dirname "$0")/import.sh"

a='' b='' time=real
import_options "a b time" "$@"
shift "$import_used"
[ $# -ge 1 ] || usage_error "no Google Benchmark JSON file"
import_ab benchmark
case $time in real|cpu) ;; *) usage_error "--time is real or cpu, not '$time'" ;; esac
import_start
jq_kind="Google Benchmark JSON"

# The program: each file checked, the repetitions of its two arms in ns
# ({file, ctx, first, a: [rep], b: [rep], aggregates}), then the stream:
# metadata, header, rows.
program='
def units: {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9};
def name: .run_name // .name;
# One repetition: {ns, iterations, threads, index}.
def rep($w):
	if .error_occurred == true then
		bad("\($w): the benchmark failed: \(.error_message // "no message" | tostring | one_line) (a failed repetition has no time)")
	else . end
	| (.time_unit // "ns") as $u
	| if (units | has($u)) | not then bad("\($w): time_unit \($u | tojson) is not ns, us, ms or s") else . end
	| .[$field] as $t
	| if ($t | type) != "number" then bad("\($w): \($field) is missing or not a number")
	elif $t <= 0 then bad("\($w): \($field) is \($t): not a time above 0")
	elif $t * units[$u] >= 1e15 then bad("\($w): \($field) is \($t) \($u): beyond what this script converts")
	else ($t * units[$u]) as $v
	| if ($v | round) < 1 then
		bad("\($w): \($field) is \($t) \($u): below 1 ns, too small for whole ns (give the benchmark more work per iteration)")
	  else {ns: ($v | round), exact: $v, iterations, threads: (.threads // 1), index: .repetition_index} end end;
def export($file):
	if type != "object" or (.benchmarks | type) != "array" then
		bad("\($file): no \"benchmarks\" list: not Google Benchmark JSON (--benchmark_format=json)")
	else . end
	| [.benchmarks | to_entries[] | .key as $i | .value
	   | if type != "object" or (name | type) != "string" then
		bad("\($file): benchmarks[\($i)] has no \"name\"") else . end
	   | . + {i: $i}] as $all
	| [$all[] | select(.run_type != "aggregate")] as $its
	| (($all | length) - ($its | length)) as $nagg
	| if ($its | length) == 0 and $nagg > 0 then
		bad("\($file): only aggregates (mean, median, ...): run without --benchmark_report_aggregates_only, so that each repetition is in the file")
	  else . end
	| ([$its[] | name] | reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end)) as $names
	| (if $a != "" then [$a, $b]
	   elif ($names | length) == 2 then $names
	   elif ($names | length) < 2 then
		bad("\($file): \($names | length) benchmark(s): an A/B comparison needs 2")
	   else bad("\($file): \($names | length) benchmarks (\($names | map(tojson) | .[:6] | join(", "))): choose the arms with --a NAME --b NAME") end) as [$na, $nb]
	| ([$na, $nb][] | select(. as $n | $names | index([$n]) | not)
	   | bad("\($file): no benchmark \(tojson) (it has \($names | map(tojson) | .[:6] | join(", ")))")),
	  {file: $file, aggregates: $nagg, names: [$na, $nb],
	   ctx: (.context // {} | {executable, host_name, date, library_build_type, cpu_scaling_enabled}),
	   first: (if ([$its[] | select(name == $na)][0].i) < ([$its[] | select(name == $nb)][0].i) then "A" else "B" end),
	   a: [$its | map(select(name == $na)) | to_entries[] | .key as $k | .value
	       | rep("\($file): \($na) repetition \(.repetition_index // $k)")],
	   b: [$its | map(select(name == $nb)) | to_entries[] | .key as $k | .value
	       | rep("\($file): \($nb) repetition \(.repetition_index // $k)")]}
	| no_nul($file);
file_values("") as $vals
| ([$vals[] | .file as $f | .d | export($f)] as $F
| $F[0].names as [$na, $nb]
| ($F[] | select(.names != [$na, $nb])
  | bad("\(.file): the arms are \(.names | map(tojson) | join(" and ")), not \([$na, $nb] | map(tojson) | join(" and ")) as in \($F[0].file): give --a and --b")),
# a copy: the same times (context.date is to the second, and two runs of
# a quick binary often share it: not a sign of a copy)
($F | no_copies([.a[].exact, .b[].exact]; "the same times"; ": a copy of one file is not a second run") | empty),
# run numbers: the files one after the other, each of min(reps A, reps B) runs
([$F[] | [(.a | length), (.b | length)] | min]) as $R
| ([foreach $R[] as $r (0; . + $r; . - $r)]) as $off
| ($R | add) as $runs
| ([$F[] | .a[], .b[] | .exact] | min) as $min
| ($F | map(.ctx.host_name) | unique) as $hosts
| "# gbench2pb: gbench2pb.sh \($argv)",
  "# source: Google Benchmark JSON; the runs are repetitions: \([$F | to_entries[] | "\(.value.file) runs \($off[.key] + 1) to \($off[.key] + $R[.key])"] | join(", ") | one_line)",
  "# mode: import (Google Benchmark)",
  "# cmd_a: \($na | one_line) in \($F[0].ctx.executable // "an unnamed binary" | tostring | one_line)",
  "# cmd_b: \($nb | one_line) in \($F[0].ctx.executable // "an unnamed binary" | tostring | one_line)",
  "# runs: \($runs)",
  "# first_run: 1",
  "# pairs: 1 (a repetition is one value: the time of one iteration, averaged over the repetition'"'"'s iterations)",
  "# warmup: 0 in the stream (Google Benchmark reports no warm-up)",
  "# order: blocked (imported from Google Benchmark: the binary ran all repetitions of one benchmark, then all of the next; the JSON does not record --benchmark_enable_random_interleaving, which would have interleaved them)",
  "# pairing: unpaired: run k = repetition k of A with repetition k of B, taken apart in time, in one process per file: the repetitions are not fresh processes, so what a process decides once (memory layout, frequency, the other benchmarks before) is shared by all runs of a file; pos 1 = \($F[0].first), the arm whose benchmark came first in the file",
  "# delay_ns: 0",
  "# delay_arm: B",
  "# clock: Google Benchmark \($field) per iteration (\(if $field == "real_time" then "wall clock" else "CPU time of the process" end)), in its time_unit, rounded to whole ns",
  "# iterations: \([$F[] | "A \(.a[0].iterations // "?"), B \(.b[0].iterations // "?")"] | unique | join("; ") | one_line) per repetition",
  (if ([$F[] | .a[], .b[] | .threads] | unique) != [1] then
	"# threads: \([$F[] | .a[], .b[] | .threads] | unique | map(tostring) | join(", ") | one_line)" else empty end),
  (if ($hosts | length) == 1 and $hosts[0] != null then "# host: \($hosts[0] | tostring | one_line)" else empty end),
  (if ($F | map(.ctx.date) | unique | length) == 1 and $F[0].ctx.date != null then "# date: \($F[0].ctx.date | tostring | one_line)" else empty end),
  (if ($F | map(.ctx.library_build_type) | index("debug")) then
	"# note: a file says library_build_type debug: Google Benchmark itself was built without optimisation (its own timing code is slower, the same for both arms)" else empty end),
  (if ($F | map(.ctx.cpu_scaling_enabled) | index(true)) then
	"# note: a file says cpu_scaling_enabled: the CPU frequency could change during the benchmark; Google Benchmark warns that real time measurements may be noisy" else empty end),
  (if $runs == 1 then "# note: 1 run: an interval over runs needs 2 or more: --benchmark_repetitions=N" else empty end),
  (if ([$F[].aggregates] | add) > 0 then "# import.aggregates: \([$F[].aggregates] | add) aggregate(s) left out (Google Benchmark'"'"'s mean, median, stddev, cv of the repetitions)" else empty end),
  ($F[] | select((.a | length) != (.b | length))
   | "# import.unpaired: \(.file | one_line): repetitions of A \(.a | length), of B \(.b | length): \([(.a | length), (.b | length)] | min) runs kept"),
  (if $min < 1000 then "# import.resolution: values down to \($min | . * 1000 | round / 1000) ns: rounding to whole ns costs up to \(0.5 / $min * 100 | . * 1000 | round / 1000)% of a value" else empty end),
  "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus",
  ($F | to_entries[] | .key as $fi | .value as $f
   | (if $f.first == "A" then 1 else 2 end) as $posa
   | range(0; $R[$fi]) as $k | ($off[$fi] + $k + 1) as $run
   | "# run: \($run) source=\($f.file | word) repetition=\($f.a[$k].index // $k | word)\(if $f.ctx.host_name != null then " host=\($f.ctx.host_name | word)" else "" end)",
     ("\($run)\t1\tmeasure\tA\t\($posa)\t0\t\($f.a[$k].ns)\t0" as $rowa
      | "\($run)\t1\tmeasure\tB\t\(3 - $posa)\t0\t\($f.b[$k].ns)\t0" as $rowb
      | if $posa == 1 then $rowa, $rowb else $rowb, $rowa end)))
'
# The command line, quoted where needed, for the provenance line.
argv=$(operand_words "$@")
[ "$time" = real ] || argv="--time $time $argv"
[ -z "$a" ] || argv="$(shell_words --a "$a" --b "$b") $argv"
import_files "$@"
import_jq --arg a "$a" --arg b "$b" --arg field "${time}_time" --arg argv "$argv"
import_finish

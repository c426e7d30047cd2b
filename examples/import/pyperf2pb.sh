#!/bin/sh
# pyperf2pb.sh: two pyperf JSON result files, A (the baseline) and B (the
# candidate), as one pb raw stream, so that pb-pair, pb-logratio, pb-tint
# and the rest can analyse them.
#
# usage: pyperf2pb.sh [--benchmark NAME] A.json B.json > raw.tsv
#
#   --benchmark NAME   the benchmark to take from each file; needed when
#                      a file holds several (a suite, pyperf's --append)
#
# Reads pyperf's JSON format version "1.0" (pyperf 1.0 and later; files
# ending in .gz are read with gzip). Each pyperf run (one worker process)
# with values is a pb run: run j pairs worker j of A with worker j of B,
# and inside it pair i is value i of each, warm-up pair i is warm-up i of
# each. Calibration runs (no values) are left out and counted. A value is
# pyperf's time of one loop iteration, in seconds; here it becomes whole
# ns. A and B were separate pyperf invocations: nothing of A ran next to
# B, and the metadata says so (see README.md). The output is written only
# when both files are good: errors are one line on stderr, exit 1. B with
# the values of A, or a worker run of A's date, is a copy: refused.
# shellcheck disable=SC2015,SC2016   # jq programs in single quotes
set -eu
prog=pyperf2pb
. "$(dirname "$0")/import.sh"

benchmark=''
import_options benchmark "$@"
shift "$import_used"
[ $# -eq 2 ] || usage_error "give two files: A.json B.json"
import_start
jq_kind="a pyperf file"

# The program: each file checked, its benchmark's runs in ns ({name,
# host, loops, runs: [{date, w: [ns], v: [ns]}], calibration, min}), then
# the stream: metadata, header, rows. Metadata is inherited: the file's,
# then the benchmark's, then the run's.
program='
def ns(where):
	if type != "number" then bad("\(where) is not a number")
	elif . <= 0 then bad("\(where) is \(.): not a time above 0")
	elif . * 1e9 >= 1e15 then bad("\(where) is \(.) s: beyond what this script converts")
	else (. * 1e9 | round) as $v
	| if $v < 1 then bad("\(where) is \(.) s: below 1 ns, too small for whole ns") else $v end end;
def list(where): if type == "array" then . else bad("\(where) is not a list") end;
def run_of($i; $md):
	"runs[\($i)]" as $w
	| if type != "object" then bad("\($w) is not an object") else . end
	| ($md + (.metadata // {})) as $m
	| if ($m.unit // "second") != "second" then
		bad("\($w): unit \($m.unit | tojson): only times (unit \"second\") become ns") else . end
	| {date: $m.date, loops: $m.loops,
	   w: [(.warmups // []) | list("\($w) warmups") | to_entries[] | .key as $k | .value
	       | if type == "array" and length == 2 and (.[0] | type) == "number" and .[0] >= 1
	         then .[1] | ns("\($w) warmups[\($k)] value")
	         else bad("\($w) warmups[\($k)] is not [loops, value]") end],
	   v: [(.values // []) | list("\($w) values") | to_entries[] | .key as $k
	       | .value | ns("\($w) values[\($k)]")]};
def norm($want):
  if type != "object" then bad("not a pyperf JSON file: no top-level object")
  elif has("version") | not then bad("no \"version\": not a pyperf JSON file")
  elif .version != "1.0" then
	bad("pyperf JSON format version \(.version | tojson); this script reads \"1.0\" (pyperf 1.0 and later): python3 -m pyperf convert FILE -o NEW.json rewrites an older file")
  elif (.benchmarks | type) != "array" or (.benchmarks | length) == 0 then
	bad("no \"benchmarks\" list")
  else . end
| (.metadata // {}) as $top
| [.benchmarks | to_entries[] | .key as $b | .value
   | if type != "object" or (.runs | type) != "array" or (.runs | length) == 0 then
	bad("benchmarks[\($b)] has no \"runs\" list") else . end
   | ($top + (.metadata // {})) as $md
   | {name: ($md.name // (.runs[0].metadata.name // null)), md: $md, runs: .runs}] as $all
| (if $want != "" then [$all[] | select(.name == $want)] else $all end) as $sel
| if ($sel | length) == 0 then
	bad("no benchmark named \($want | tojson) (it has \([$all[].name] | map(tojson) | join(", ")))")
  elif ($sel | length) > 1 then
	bad("\($sel | length) benchmarks (\([$sel[].name] | map(tojson) | .[:5] | join(", "))): choose one with --benchmark NAME")
  else $sel[0] end
| .md as $md
| [.runs | to_entries[] | .key as $i | .value | run_of($i; $md)] as $runs
| [$runs[] | select(.v | length > 0)] as $measured
| if ($measured | length) == 0 then bad("no run with values (only calibration runs)") else . end
| {name: .name, host: $md.hostname,
   loops: ($measured[0].loops // $md.loops),
   calibration: (($runs | length) - ($measured | length)),
   runs: [$measured[] | {date, w, v}],
   min: ([$measured[] | .v[], .w[]] | min)};
def when: if . == null then "" else " \(.)" end;
def date_word: tostring | one_line | gsub(" "; "T");
file_values("") as $vals
# (jq 1.6 catches, in try, the errors of what follows it too: those that
# name the file already are passed on as they are)
| ([$vals[] | .file as $n | .d
  | try norm($want) catch (if type == "string" and startswith("@") and (startswith("@\($n): ") | not)
	then error("@\($n): \(.[1:])") else error(.) end)
  | .file = $n | no_nul($n)]
  # B a copy of A: one set of times in both arms, d = 0 throughout
  | no_copies([.runs[].v]; "the same values"; ": B is a copy of A, not a second benchmark")
  | no_copies(.runs[].date; "the same run date"; ": a worker run of B repeats one of A (a copy?)") as [$a, $b]
| ([($a.runs | length), ($b.runs | length)] | min) as $R
| [range(0; $R) | [($a.runs[.].v | length), ($b.runs[.].v | length)] | min] as $P
| [range(0; $R) | [($a.runs[.].w | length), ($b.runs[.].w | length)] | min] as $WU
| ([$a.min, $b.min] | min) as $min
| "# pyperf2pb: pyperf2pb.sh \($argv)",
  "# source: pyperf JSON format version 1.0; arm A from \($a.file | one_line), arm B from \($b.file | one_line)",
  "# mode: import (pyperf)",
  "# cmd_a: pyperf benchmark \($a.name | tostring | one_line) in \($a.file | one_line)",
  "# cmd_b: pyperf benchmark \($b.name | tostring | one_line) in \($b.file | one_line)",
  "# runs: \($R)",
  "# first_run: 1",
  "# pairs: \($P | unique | if length == 1 then .[0] else "\(min) to \(max) (the values per run differ)" end)",
  "# warmup: \($WU | unique | if length == 1 then .[0] else "\(min) to \(max)" end)",
  "# order: blocked (imported from pyperf: A and B were separate pyperf invocations; no worker of A ran next to a worker of B)",
  "# pairing: unpaired: run j = worker process j of A with worker process j of B, pair i = value i of each: the halves of a run are two processes run at different times, so pairing cancels nothing they did not share; pos 1 = the arm whose worker started first when both have a date, else A",
  "# delay_ns: 0",
  "# delay_arm: B",
  "# clock: pyperf values: the time of one loop iteration (raw time / (loops x inner_loops)), rounded to whole ns",
  (if $a.loops != null or $b.loops != null then "# loops: A \($a.loops // "unknown"), B \($b.loops // "unknown")" | one_line else empty end),
  (if $a.host == $b.host then "# host:\($a.host | when)" else "# host: A on \($a.host // "unknown"), B on \($b.host // "unknown")" end | one_line),
  (if $a.calibration + $b.calibration > 0 then "# import.calibration_runs: \($a.calibration) of A, \($b.calibration) of B left out (no values)" else empty end),
  (if ($a.runs | length) != ($b.runs | length) then
	"# import.unpaired: \(($a.runs | length) - ($b.runs | length) | fabs) run(s) of \(if ($a.runs | length) > ($b.runs | length) then "A" else "B" end) beyond the other arm'"'"'s \($R) left out" else empty end),
  (range(0; $R) | select(($a.runs[.].v | length) != ($b.runs[.].v | length)) | . as $j
   | "# import.unpaired: run \($j + 1): values of A \($a.runs[$j].v | length), of B \($b.runs[$j].v | length): \($P[$j]) pairs kept"),
  (if $min < 1000 then "# import.resolution: values down to \($min) ns: rounding to whole ns costs up to \(0.5 / $min * 100 | . * 1000 | round / 1000)% of a value" else empty end),
  (if $R == 1 then "# note: 1 run: an interval over runs needs 2 or more" else empty end),
  "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus",
  (range(0; $R) as $j
   | $a.runs[$j] as $ra | $b.runs[$j] as $rb | ($j + 1) as $run
   | (if $ra.date != null and $rb.date != null and $rb.date < $ra.date then 2 else 1 end) as $posa
   | "# run: \($run)\(if $ra.date then " a_date=\($ra.date | date_word)" else "" end)\(if $rb.date then " b_date=\($rb.date | date_word)" else "" end)\(if $a.host != null and $a.host == $b.host then " host=\($a.host | word)" else "" end)",
     (( (range(0; $WU[$j]) | [., "warmup", $ra.w[.], $rb.w[.]]),
        (range(0; $P[$j]) | [., "measure", $ra.v[.], $rb.v[.]]) )
      | "\($run)\t\(.[0] + 1)\t\(.[1])\tA\t\($posa)\t0\t\(.[2])\t0" as $rowa
      | "\($run)\t\(.[0] + 1)\t\(.[1])\tB\t\(3 - $posa)\t0\t\(.[3])\t0" as $rowb
      | if $posa == 1 then $rowa, $rowb else $rowb, $rowa end)))
'
argv=$(operand_words "$@")
[ -n "$benchmark" ] && argv="$(shell_words --benchmark "$benchmark") $argv"
[ "$1" != "$2" ] || die "$1: the same file for A and B"
import_files "$@"
# The files jq reads: as given, or unpacked from .gz.
k=0 jq_files=''
for f in "$@"; do
	k=$((k + 1))
	case $f in
	*.gz) gzip -dc <"$f" >"$tmp/in-$k.json" 2>/dev/null || die "$f: not a gzip file"
		f=$tmp/in-$k.json ;;
	esac
	jq_files="$jq_files$nl$(jq_path "$f")"
done
import_jq --arg argv "$argv" --arg want "$benchmark"
import_finish

#!/bin/sh
# pytest-benchmark2pb.sh: pytest-benchmark JSON results as a pb raw
# stream, so that pb-pair, pb-logratio, pb-tint and the rest can analyse
# them.
#
# usage: pytest-benchmark2pb.sh [--a NAME] [--b NAME] FILE.json... > raw.tsv
#
#   --a NAME, --b NAME   the benchmarks that are arms A (the baseline) and
#                        B (the candidate), by name (test_sort[quick]) or
#                        full name (tests/test_x.py::test_sort[quick]); the
#                        default is the only two of the file, in its order
#
# Each FILE is what one pytest run wrote with --benchmark-json=FILE, and
# becomes one pb run: run 1 is the first FILE, and so on. Inside a run,
# pair i is round i of A with round i of B. A round's value is
# pytest-benchmark's time of one iteration of the benchmarked function (the
# round's time over its iterations), in seconds; here it becomes whole ns.
# pytest ran all rounds of one test, then all of the next: the pair is a
# blocked design, not an interleaved one, and the metadata says so (see
# README.md). The output is written only when every FILE is good: errors
# are one line on stderr, exit 1. A FILE with the times or the datetime of
# another is a copy, not a second run: refused.
# shellcheck disable=SC2015,SC2016   # jq programs in single quotes
set -eu
prog=pytest-benchmark2pb
. "$(dirname "$0")/import.sh"

a='' b=''
import_options "a b" "$@"
shift "$import_used"
[ $# -ge 1 ] || usage_error "no pytest-benchmark JSON file"
import_ab benchmark
import_start
jq_kind="pytest-benchmark JSON"

# The program: each file checked, its two arms' rounds in ns ({file, md,
# first, a: {name, iterations, ns}, b: ...}), then the stream: metadata,
# header, rows.
program='
def ns($w):
	if type != "number" then bad("\($w) is not a number")
	elif . <= 0 then bad("\($w) is \(.): not a time above 0")
	elif . * 1e9 >= 1e15 then bad("\($w) is \(.) s: beyond what this script converts")
	elif (. * 1e9 | round) < 1 then bad("\($w) is \(.) s: below 1 ns, too small for whole ns")
	else {ns: (. * 1e9 | round), exact: (. * 1e9)} end;
# The benchmark of a file that $n names (by name or fullname), with its rounds.
def arm($file; $n; $all):
	[$all[] | select(.name == $n or .fullname == $n)] as $m
	| if ($m | length) == 0 then
		bad("\($file): no benchmark \($n | tojson) (it has \([$all[].name] | map(tojson) | .[:6] | join(", ")))")
	  elif ($m | length) > 1 then
		bad("\($file): \($m | length) benchmarks named \($n | tojson): give the full name (\([$m[].fullname] | map(tojson) | .[:3] | join(", ")))")
	  else $m[0] end
	| "\($file): \(.fullname // .name)" as $w
	| if (.stats | type) != "object" then bad("\($w): no \"stats\"") else . end
	| if (.stats.data | type) != "array" then
		bad("\($w): no per-round times (stats.data): write the file with --benchmark-json=FILE (a --benchmark-save file needs --benchmark-save-data too)")
	  elif (.stats.data | length) == 0 then bad("\($w): stats.data is empty")
	  else . end
	| {name, fullname, i, iterations: .stats.iterations, options: (.options // {} | {timer, disable_gc}),
	   v: [.stats.data | to_entries[] | .key as $k | .value | ns("\($w): stats.data[\($k)]")]};
def export($file):
	if type != "object" or (.benchmarks | type) != "array" then
		bad("\($file): no \"benchmarks\" list: not a pytest-benchmark JSON file (--benchmark-json=FILE)")
	elif has("machine_info") | not then
		bad("\($file): no \"machine_info\": not a pytest-benchmark JSON file (--benchmark-json=FILE)")
	else . end
	| [.benchmarks | to_entries[] | .key as $i | .value
	   | if type != "object" or (.name | type) != "string" then
		bad("\($file): benchmarks[\($i)] has no \"name\"") else . + {i: $i} end] as $all
	| (if $a != "" then [$a, $b]
	   elif ($all | length) == 2 then [$all[].name]
	   elif ($all | length) < 2 then bad("\($file): \($all | length) benchmark(s): an A/B comparison needs 2")
	   else bad("\($file): \($all | length) benchmarks (\([$all[].name] | map(tojson) | .[:6] | join(", "))): choose the arms with --a NAME --b NAME") end) as [$na, $nb]
	| arm($file; $na; $all) as $ra | arm($file; $nb; $all) as $rb
	| if $ra.i == $rb.i then bad("\($file): --a and --b name the same benchmark, \($ra.fullname // $ra.name | tojson)") else . end
	| {file: $file, a: $ra, b: $rb, first: (if $ra.i < $rb.i then "A" else "B" end),
	   host: .machine_info.node, date: .datetime, version,
	   python: "\(.machine_info.python_implementation // "Python") \(.machine_info.python_version // "")",
	   commit: (.commit_info // {} | {id, dirty})}
	| no_nul($file);
file_values(": one file is one run") as $vals
| ([$vals[] | .file as $f | .d | export($f)] as $F
| $F[0] as $f1
| ($F[] | select(.a.name != $f1.a.name or .b.name != $f1.b.name)
  | bad("\(.file): the arms are \(.a.name | tojson) and \(.b.name | tojson), not \($f1.a.name | tojson) and \($f1.b.name | tojson) as in \($f1.file): the files of one study time the same two tests")),
($F | no_copies([.a.v[].exact, .b.v[].exact]; "the same times"; ": a copy of one file is not a second run")
  | no_copies(.date; "the same datetime"; ": a copy of one file is not a second run") | empty),
([$F[] | [(.a.v | length), (.b.v | length)]] as $counts
| ([$counts[] | min] | unique) as $pairs
| ([$F[] | .a.v[], .b.v[] | .exact] | min) as $min
| ($F | map(.host) | unique) as $hosts
| "# pytest-benchmark2pb: pytest-benchmark2pb.sh \($argv)",
  "# source: pytest-benchmark JSON\(if $f1.version then " (pytest-benchmark \($f1.version | tostring | one_line))" else "" end); run k is file k: \([$F[].file] | join(", ") | one_line)",
  "# mode: import (pytest-benchmark)",
  "# cmd_a: \($f1.a.fullname // $f1.a.name | tostring | one_line)",
  "# cmd_b: \($f1.b.fullname // $f1.b.name | tostring | one_line)",
  "# runs: \($F | length)",
  "# first_run: 1",
  "# pairs: \(if ($pairs | length) == 1 then $pairs[0] else "\($pairs | min) to \($pairs | max) (the rounds per run differ)" end)",
  "# warmup: 0 in the stream (pytest-benchmark keeps no warm-up rounds)",
  "# order: blocked (imported from pytest-benchmark: tests were not interleaved; each run timed all rounds of one test, then all of the next)",
  "# pairing: unpaired: pair i = round i of A with round i of B, taken apart in time: a blocked design, so pairing cancels little; pos 1 = \($f1.first), the arm listed first in the file (pytest-benchmark lists the tests in the order they ran)",
  "# delay_ns: 0",
  "# delay_arm: B",
  "# clock: pytest-benchmark rounds, timer \($f1.a.options.timer // "unknown" | tostring | one_line): the time of one iteration (the round over its iterations), seconds rounded to whole ns",
  "# iterations: \([$F[] | "A \(.a.iterations // "?"), B \(.b.iterations // "?")"] | unique | join("; ") | one_line) per round",
  "# python: \($f1.python | one_line)",
  (if ($hosts | length) == 1 and $hosts[0] != null then "# host: \($hosts[0] | tostring | one_line)" else empty end),
  (if $f1.commit.id != null then "# commit: \($f1.commit.id | tostring | one_line)\(if $f1.commit.dirty == true then " (dirty)" else "" end)" else empty end),
  (if ([$F[] | .a.options.disable_gc, .b.options.disable_gc] | index(true)) then "# note: --benchmark-disable-gc: the garbage collector was off while timing" else empty end),
  (if ($F | length) == 1 then "# note: 1 run: an interval over runs needs 2 or more, i.e. several pytest runs" else empty end),
  ($counts | to_entries[] | select(.value[0] != .value[1])
   | "# import.unpaired: run \(.key + 1): \(.value | max - min) round(s) of \(if .value[0] > .value[1] then "A" else "B" end) beyond the other arm'"'"'s \(.value | min) left out"),
  (if $min < 1000 then "# import.resolution: values down to \($min | . * 1000 | round / 1000) ns: rounding to whole ns costs up to \(0.5 / $min * 100 | . * 1000 | round / 1000)% of a value" else empty end),
  "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus",
  ($F | to_entries[] | (.key + 1) as $run | .value as $f
   | (if $f.first == "A" then 1 else 2 end) as $posa
   | "# run: \($run) source=\($f.file | word)\(if $f.date != null then " date=\($f.date | word)" else "" end)\(if $f.host != null then " host=\($f.host | word)" else "" end)",
     (range(0; [($f.a.v | length), ($f.b.v | length)] | min) as $i
      | "\($run)\t\($i + 1)\tmeasure\tA\t\($posa)\t0\t\($f.a.v[$i].ns)\t0" as $rowa
      | "\($run)\t\($i + 1)\tmeasure\tB\t\(3 - $posa)\t0\t\($f.b.v[$i].ns)\t0" as $rowb
      | if $posa == 1 then $rowa, $rowb else $rowb, $rowa end))))
'
# The command line, quoted where needed, for the provenance line.
argv=$(operand_words "$@")
[ -z "$a" ] || argv="$(shell_words --a "$a" --b "$b") $argv"
import_files "$@"
import_jq --arg a "$a" --arg b "$b" --arg argv "$argv"
import_finish

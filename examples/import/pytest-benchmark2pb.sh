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
# are one line on stderr, exit 1.
# shellcheck disable=SC2015,SC2016   # jq programs in single quotes
set -eu
prog=pytest-benchmark2pb
die() { printf '%s\n' "$prog: $*" >&2; exit 1; }   # printf: echo would read backslashes
usage_error() { printf '%s\n' "$prog: $* (see $prog --help)" >&2; exit 2; }

a='' b=''
nl='
'
while [ $# -gt 0 ]; do
	case $1 in
	--help|-h) sed -n '2,/^# shellcheck/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--a|--b)
		[ $# -ge 2 ] || usage_error "option '$1' needs a value"
		[ -n "$2" ] || usage_error "option '$1' needs a value, not ''"
		if [ "$1" = --a ]; then a=$2; else b=$2; fi
		shift 2 ;;
	--) shift; break ;;
	-?*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage_error "no pytest-benchmark JSON file"
case $a,$b in ?*,|,?*) usage_error "--a and --b go together" ;; esac
[ -z "$a" ] || [ "$a" != "$b" ] || usage_error "--a and --b name the same benchmark"
. "$(dirname "$0")/import.sh"   # jq found, $tmp made
jq_kind="pytest-benchmark JSON"

# The program: each file checked, its two arms' rounds in ns ({file, md,
# first, a: {name, iterations, ns}, b: ...}), then the stream: metadata,
# header, rows.
program='
def bad(m): error("@" + m);
def one_line: gsub("\r"; "\\r") | gsub("\n"; "\\n") | gsub("\t"; "\\t");
def word: tostring | one_line | gsub(" "; "%20");
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
	| {name, fullname, i, iterations: .stats.iterations, options,
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
	   commit: .commit_info};
# The files in the order given (--arg f1 NAME ...), each one JSON value.
([$ARGS.named | to_entries[] | select(.key | test("^f[0-9]+$"))
  | {k: (.key[1:] | tonumber), v: .value}] | sort_by(.k) | map(.v)) as $fnames
| [inputs | {file: input_filename, d: .}] as $vals
| ($fnames | group_by(.) | map(select(length > 1))[0][0] // empty
   | bad("\(.): given twice: one file is one run")),
  ($fnames[] as $n | [$vals[] | select(.file == $n)] | length
   | if . == 0 then bad("\($n): no JSON value in it (empty, or cut short)")
     elif . > 1 then bad("\($n): more than one JSON value in the file") else empty end),
([$vals[] | .file as $f | .d | export($f)] as $F
| $F[0] as $f1
| ($F[] | select(.a.name != $f1.a.name or .b.name != $f1.b.name)
  | bad("\(.file): the arms are \(.a.name | tojson) and \(.b.name | tojson), not \($f1.a.name | tojson) and \($f1.b.name | tojson) as in \($f1.file): the files of one study time the same two tests")),
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
  "# iterations: \([$F[] | "A \(.a.iterations // "?"), B \(.b.iterations // "?")"] | unique | join("; ")) per round",
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
argv=$(shell_words "$@")
[ -z "$a" ] || argv="$(shell_words --a "$a" --b "$b") $argv"
# The files, one a line, and as --arg f1 NAME --arg f2 NAME ..., in order.
files='' k=0
for f in "$@"; do
	k=$((k + 1))
	[ -r "$f" ] && [ -f "$f" ] || die "$f: cannot read"
	files="$files$nl$f"
	set -- "$@" --arg "f$k" "$f"
	shift
done
jq_files=$files
IFS=$nl
set -f
# shellcheck disable=SC2086   # $files: one name a line
jq_run -n -r --arg a "$a" --arg b "$b" --arg argv "$argv" "$@" "$program" $files >"$tmp/out"
unset IFS
set +f
sed -n -e 's/^# import\.unpaired: /'"$prog"': warning: /p' \
	-e 's/^# import\.resolution: /'"$prog"': warning: /p' "$tmp/out" >&2
cat "$tmp/out" 2>/dev/null || die "write error on standard output"

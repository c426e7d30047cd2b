#!/bin/sh
# hyperfine2pb.sh: hyperfine --export-json results as a pb raw stream, so
# that pb-pair, pb-logratio, pb-tint and the rest can analyse them.
#
# usage: hyperfine2pb.sh [--a N] [--b N] FILE.json... > raw.tsv
#
#   --a N, --b N   the commands that are arms A (the baseline) and B (the
#                  candidate): N counts the file's commands from 1; the
#                  default is 1 and 2, and a file of 3 commands or more
#                  needs both
#
# Each FILE is one hyperfine invocation and becomes one pb run: run 1 is
# the first FILE, run 2 the second, and so on. Every FILE must time the
# same two commands. Inside a run, pair i is sample i of A with sample i
# of B. hyperfine ran all of A's samples and then all of B's, so the pair
# is a blocked design, not an interleaved one, and the metadata says so
# (see README.md). Times (seconds) become whole ns; exit_codes become the
# status column (null, no exit code, becomes 255). The output is written
# only when every FILE is good: errors are one line on stderr, exit 1. A
# FILE with the times of another is a copy, not a second run: refused.
# shellcheck disable=SC2015,SC2016   # jq programs in single quotes
set -eu
prog=hyperfine2pb
. "$(dirname "$0")/import.sh"

a='' b=''
import_options "a b" "$@"
shift "$import_used"
for n in $a $b; do
	case $n in *[!0-9]*|0*) usage_error "--a and --b want a command number from 1, not '$n'" ;; esac
done
[ $# -ge 1 ] || usage_error "no hyperfine JSON file"
import_ab command
import_start
jq_kind="a hyperfine export"

# The program: each export checked, its times in ns ({file, results:
# [{command, ns, st}]}), then the stream: metadata, header, rows.
program='
def ns($file; where):
	if type != "number" then bad("\($file): \(where) is not a number")
	elif . * 1e9 >= 1e15 then bad("\($file): \(where) is \(.) s: beyond what this script converts")
	else (. * 1e9 | round) as $v
	| if $v < 1 then bad("\($file): \(where) is \(.) s, not a time above 0 (hyperfine subtracts the shell'"'"'s start-up time from each sample; export again with -N)")
	  else $v end end;
# A status as pb(7) has it for a command: 0 to 255 (null, killed: 255);
# anything else is a status pb-pair refuses, or one of pb-run itself.
def status($file; where):
	if . == null then 255
	elif type == "number" and . == floor and . >= 0 and . <= 255 then .
	elif type == "number" then bad("\($file): \(where) is \(.), not an exit code (0 to 255, or null)")
	else bad("\($file): \(where) is not an exit code") end;
def result($file; i):
	"\($file): results[\(i)]" as $w
	| if type != "object" then bad("\($w) is not an object")
	elif (.command | type) != "string" then bad("\($w).command is missing or not a string")
	elif (.times | type) != "array" then bad("\($w).times is missing or not a list")
	elif (.times | length) == 0 then bad("\($w).times is empty")
	elif .exit_codes != null and (.exit_codes | type) != "array" then bad("\($w).exit_codes is not a list")
	elif .exit_codes != null and (.exit_codes | length) != (.times | length) then
		bad("\($w): \(.exit_codes | length) exit_codes for \(.times | length) times")
	else {command: .command,
	      ns: [.times | to_entries[] | .key as $k | .value | ns($file; "results[\(i)].times[\($k)]")],
	      st: [(.exit_codes // [.times[] | 0]) | to_entries[]
	           | .key as $k | .value | status($file; "results[\(i)].exit_codes[\($k)]")]}
	end;
def export($file):
	if type != "object" or (.results | type) != "array" then
		bad("\($file): no \"results\" list: not a hyperfine --export-json file")
	elif (.results | length) < 2 then
		bad("\($file): \(.results | length) command(s): an A/B comparison needs 2 (hyperfine CMD_A CMD_B)")
	else {file: $file, results: [.results | to_entries[] | .key as $i | .value | result($file; $i)]} end
	| no_nul($file);
file_values(": one export is one run") as $vals
| ([$vals[] | .file as $f | .d | export($f)] as $F
| $F[0] as $f1
| ($f1.results | length) as $nc
| if $explicit == 0 and $nc > 2 then
	bad("\($f1.file): \($nc) commands: choose the arms with --a N --b N")
  elif $ia >= $nc or $ib >= $nc then
	bad("\($f1.file): \($nc) commands, no command \([$ia, $ib] | max + 1)")
  else . end
| (if $ia < $ib then 1 else 2 end) as $posa
| $f1.results[$ia].command as $ca
| $f1.results[$ib].command as $cb
| ($F[] | select(.results[$ia].command != $ca)
  | bad("\(.file): arm A is \(.results[$ia].command | tojson), not \($ca | tojson) as in \($f1.file): the files of one study time the same two commands")),
  ($F[] | select(.results[$ib].command != $cb)
  | bad("\(.file): arm B is \(.results[$ib].command | tojson), not \($cb | tojson) as in \($f1.file): the files of one study time the same two commands")),
($F | no_copies([.results[].ns]; "the same times"; ": a copy of one export is not a second run") | empty),
([$F[] | [(.results[$ia].ns | length), (.results[$ib].ns | length)]] as $counts
| ([$counts[] | min] | unique) as $pairs
| "# hyperfine2pb: hyperfine2pb.sh \($argv)",
  "# source: hyperfine --export-json; run k is file k: \([$F[].file] | join(", ") | one_line)",
  "# mode: import (hyperfine)",
  "# cmd_a: \($ca | one_line)",
  "# cmd_b: \($cb | one_line)",
  (if $ca == $cb then "# design: A/A: the same command in both arms" else empty end),
  "# runs: \($F | length)",
  "# first_run: 1",
  "# pairs: \(if ($pairs | length) == 1 then $pairs[0] else "\($pairs | min) to \($pairs | max) (the samples per run differ)" end)",
  "# warmup: 0 in the stream (hyperfine --warmup runs are not in its JSON)",
  "# order: blocked (imported from hyperfine: commands were not interleaved; each run timed all of A'"'"'s samples, then all of B'"'"'s)",
  "# pairing: unpaired: pair i = sample i of A with sample i of B; a blocked design: the two times of a pair were taken apart, so pairing cancels little; pos 1 = \(if $posa == 1 then "A" else "B" end), the arm hyperfine ran first",
  "# delay_ns: 0",
  "# delay_arm: B",
  "# clock: hyperfine wall-clock times (seconds), rounded to whole ns; with a shell, hyperfine subtracted its start-up time",
  "# status: hyperfine exit_codes (255: none, the command was killed by a signal)",
  (if ($F | length) == 1 then "# note: 1 run: an interval over runs needs 2 or more, i.e. several exports" else empty end),
  ($counts | to_entries[] | select(.value[0] != .value[1])
   | "# import.unpaired: run \(.key + 1): \(.value | max - min) sample(s) of \(if .value[0] > .value[1] then "A" else "B" end) beyond the other arm'"'"'s \(.value | min) left out"),
  "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus",
  ($F | to_entries[] | (.key + 1) as $run | .value as $f
   | "# run: \($run) source=\($f.file | one_line | gsub(" "; "%20"))",
     ($f.results[$ia] as $ra | $f.results[$ib] as $rb
      | range(0; [($ra.ns | length), ($rb.ns | length)] | min) as $i
      | "\($run)\t\($i + 1)\tmeasure\tA\t\($posa)\t0\t\($ra.ns[$i])\t\($ra.st[$i])" as $rowa
      | "\($run)\t\($i + 1)\tmeasure\tB\t\(3 - $posa)\t0\t\($rb.ns[$i])\t\($rb.st[$i])" as $rowb
      | if $posa == 1 then $rowa, $rowb else $rowb, $rowa end))))
'
# The command line, quoted where needed, for the provenance line.
argv=$(operand_words "$@")
[ -n "$a" ] && argv="--a $a --b $b $argv"   # the options too: all that was typed
import_files "$@"
explicit=0
[ -n "$a" ] && explicit=1
import_jq --argjson ia "$(( ${a:-1} - 1 ))" --argjson ib "$(( ${b:-2} - 1 ))" \
	--argjson explicit "$explicit" --arg argv "$argv"
import_finish

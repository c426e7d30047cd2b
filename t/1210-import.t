#!/bin/sh
# examples/import: hyperfine's --export-json and pyperf's JSON as pb raw
# streams. The streams feed pb-pair; every time matches its JSON (jq);
# the metadata says where the data came from and that the design is
# blocked; bad input gives one line on stderr, exit 1, and no output.
# Fixtures in t/data/import: hf-1..3.json from real hyperfine runs of
# examples/workload/pb-workload, pyperf-a/b.json written by hand in
# pyperf's JSON format version 1.0 (see examples/import/README.md).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
I=$top/examples/import
H=$D/import
command -v jq >/dev/null 2>&1 || { echo "1..0 # SKIP jq not installed (Debian package jq; make check installs it)"; exit 0; }
cd "$T" || exit 1

# meta KEY FILE: the first "# KEY: value" of FILE
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
# ns RUN ARM PHASE FILE: the ns of one arm in one run and phase, one a line
ns() { rows "$4" | awk -F'\t' -v r="$1" -v a="$2" -v p="$3" '$1 == r && $4 == a && $3 == p { print $7 }'; }
# bad NAME PATTERN CMD...: exit 1, one stderr line matching, nothing on stdout
bad() {
	name=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -Eq -- "$pat" "$T/err" && [ ! -s "$T/out" ]
	then ok "$name"; else
		not_ok "$name"; diag "status $rc (want 1)" "stderr: $(cat "$T/err")" "stdout: $(head -n 3 "$T/out")"
	fi
}

# --- hyperfine: three exports, three runs
run sh "$I/hyperfine2pb.sh" "$H/hf-1.json" "$H/hf-2.json" "$H/hf-3.json"
cp "$T/out" hf.tsv
ran_ok "hyperfine2pb: 3 exports, exit 0, stderr empty"
run pb-pair hf.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::30" "pb-pair accepts it: 3 runs x 10 pairs"
is "$(rows "$T/out" | cut -f1 | uniq | tr '\n' ' ')" "1 2 3 " "runs numbered 1, 2, 3 in the order of the files"
# pb-check flags the import: its pairs were not measured as pairs
pb-pair hf.tsv 2>/dev/null | pb-check >hf.check
is "$(rows hf.check | awk -F'\t' '$1 == "pairing" { print $2 ":" $6 }')" "warn:design" \
	"pb-check: a pairing row warns that the pairs were not measured as pairs"
like "$(rows hf.check | awk -F'\t' '$1 == "pairing" { print $7 }')" '^The input says its pairs were not measured as pairs \(# pairing: unpaired: ' \
	"... and quotes the import's own words"
pb-pair "$top/examples/data/raw-ab.tsv" 2>/dev/null | pb-check | rows >ab.check
lacks ab.check '^pairing' "... and never for a study of pb-run's (its checks, without a pairing row)"
# every time: "run arm ns" from the JSON (one jq per file) against the stream
for k in 1 2 3; do
	jq -r --arg k "$k" '.results[0:2] | to_entries[] | (if .key == 0 then "A" else "B" end) as $arm
		| .value.times[] | "\($k) \($arm) \(. * 1e9 | round)"' "$H/hf-$k.json"
done | sort >want
rows hf.tsv | awk -F'\t' '{ print $1, $4, $7 }' | sort >got
is_file got want "every ns is the JSON's time in s x 1e9, rounded (all 60, against jq)"
is "$(ns 2 B measure hf.tsv | sed -n 4p)" "$(jq '.results[1].times[3] * 1e9 | round' "$H/hf-2.json")" \
	"spot check: run 2, pair 4, arm B"
is "$(meta cmd_a hf.tsv)|$(meta cmd_b hf.tsv)" "$(jq -r '.results[0].command' "$H/hf-1.json")|$(jq -r '.results[1].command' "$H/hf-1.json")" \
	"cmd_a and cmd_b: the two commands, in hyperfine's order"
like "$(meta order hf.tsv)" '^blocked \(imported from hyperfine: commands were not interleaved' \
	"order: blocked, imported from hyperfine, not interleaved"
like "$(meta pairing hf.tsv)" 'blocked design' "pairing: says the pairs are a blocked design"
like "$(meta pairing hf.tsv)" '^unpaired: ' "pairing: begins 'unpaired:', a word a later check can read"
like "$(meta source hf.tsv)" "^hyperfine --export-json; run k is file k: $H/hf-1.json, $H/hf-2.json, $H/hf-3.json\$" \
	"source: hyperfine, and which file is which run"
is "$(meta mode hf.tsv):$(meta runs hf.tsv):$(meta pairs hf.tsv)" "import (hyperfine):3:10" "mode, runs, pairs"
like "$(meta warmup hf.tsv)" 'not in its JSON' "warmup: says hyperfine does not export its warm-ups"
is "$(rows hf.tsv | awk -F'\t' '$4 == "A" && $5 != 1 || $4 == "B" && $5 != 2 || $6 != 0 || $8 != 0' | wc -l | tr -d ' '):$(row_count hf.tsv)" 0:60 \
	"A at pos 1 (hyperfine ran it first), no delay, status 0 (all 60 rows)"
is "$(grep -c '^# run: [123] source=' hf.tsv)" 3 "one '# run:' comment per file, naming it"
pb-pair --by-run hf.tsv | pb-logratio | pb-tint >tint.tsv 2>tint.err
is "$?:$(col n 1 tint.tsv)" "0:3" "pb-pair --by-run | pb-logratio | pb-tint: an interval over 3 runs"

# one export is one run: no interval over runs
run sh "$I/hyperfine2pb.sh" "$H/hf-1.json"
cp "$T/out" one.tsv
is "$rc:$(meta runs one.tsv)" "0:1" "one export: runs 1"
like "$(meta note one.tsv)" '^1 run: an interval over runs needs 2 or more' "... and a note says what that means"
pb-pair --by-run one.tsv | pb-logratio | pb-tint >/dev/null 2>one.err
like "$(cat one.err)" 'only 1 value' "pb-tint over runs refuses 1 run"

# --a / --b: the arms swapped; B ran first
run sh "$I/hyperfine2pb.sh" --a 2 --b 1 "$H/hf-1.json"
cp "$T/out" swap.tsv
is "$(meta cmd_a swap.tsv)" "$(jq -r '.results[1].command' "$H/hf-1.json")" "--a 2 --b 1: A is the second command"
is "$(meta hyperfine2pb swap.tsv)" "hyperfine2pb.sh --a 2 --b 1 $H/hf-1.json" "--a 2 --b 1: in the provenance line too"
is "$(rows swap.tsv | awk -F'\t' '$5 == 1 { print $4 }' | sort -u)" B "... and B, which hyperfine ran first, has pos 1"
is "$(ns 1 A measure swap.tsv | head -n 1)" "$(jq '.results[1].times[0] * 1e9 | round' "$H/hf-1.json")" \
	"... with A's times from the second command"

# exit codes, and exports with fewer samples of one command
jq '.results[0].exit_codes[2] = 1 | .results[1].exit_codes[5] = null' "$H/hf-1.json" >codes.json
sh "$I/hyperfine2pb.sh" codes.json >codes.tsv
is "$(rows codes.tsv | awk -F'\t' '$8 != 0 { print $2 $4 ":" $8 }' | tr '\n' ' ')" "3A:1 6B:255 " \
	"exit_codes: 1 stays 1; null (killed by a signal) becomes 255"
run pb-pair codes.tsv
is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:8" "pb-pair drops the 2 pairs with a failure"
jq '.results[0].times |= .[:7] | .results[0].exit_codes |= .[:7]' "$H/hf-2.json" >short.json
run sh "$I/hyperfine2pb.sh" "$H/hf-1.json" short.json
is "$rc:$(cat "$T/err")" "0:hyperfine2pb: warning: run 2: 3 sample(s) of B beyond the other arm's 7 left out" \
	"fewer samples of A in one export: one warning"
cp "$T/out" short.tsv
is "$(meta pairs short.tsv):$(ns 2 B measure short.tsv | wc -l | tr -d ' ')" "7 to 10 (the samples per run differ):7" \
	"... pairs says so, and run 2 has 7 pairs"
like "$(meta import.unpaired short.tsv)" '^run 2: 3 sample' "... and so does the metadata"

# a real hyperfine run, when hyperfine is here
if command -v hyperfine >/dev/null 2>&1; then
	W=$top/examples/workload/pb-workload
	hyperfine -N --runs 3 --export-json live.json --style none "$W --us 100" "$W --us 200" >/dev/null 2>&1
	run sh "$I/hyperfine2pb.sh" live.json
	cp "$T/out" live.tsv
	is "$rc:$(pb-pair live.tsv 2>&1 | rows | wc -l | tr -d ' ')" "0:3" "a fresh hyperfine export converts and pairs"
else
	skip "hyperfine not installed (Debian package hyperfine)"
fi

# bad input
printf 'nope' >bad.json
: >empty.json
printf '{"results": []}{' >two.json
echo '{"results":[{"command":"a","times":[0.001]}]}' >single.json
echo '{"results":[{"command":"a"},{"command":"b","times":[0.001]}]}' >notimes.json
echo '{"results":[{"command":"a","times":[0.001,"x"]},{"command":"b","times":[0.001,0.002]}]}' >str.json
echo '{"results":[{"command":"a","times":[0.001,-1e-6]},{"command":"b","times":[0.001,0.002]}]}' >neg.json
echo '{"results":[{"command":"a","times":[0.001]},{"command":"b","times":[0.001]},{"command":"c","times":[0.001]}]}' >three.json
jq '.results[1].command = "./other"' "$H/hf-2.json" >other.json
bad "hyperfine2pb: not JSON" '^hyperfine2pb: bad.json: not JSON: ' sh "$I/hyperfine2pb.sh" bad.json
bad "hyperfine2pb: an empty file" '^hyperfine2pb: empty.json: no JSON value in it \(empty, or cut short\)$' \
	sh "$I/hyperfine2pb.sh" empty.json
printf '{"results": [{"command": "a", "times": [0.1,' >cut.json
bad "hyperfine2pb: a file cut short, then a good one: the cut one named" '^hyperfine2pb: cut.json: not JSON: ' \
	sh "$I/hyperfine2pb.sh" cut.json "$H/hf-1.json"
bad "hyperfine2pb: one export twice" 'hf-1.json: given twice: one export is one run$' \
	sh "$I/hyperfine2pb.sh" "$H/hf-1.json" "$H/hf-2.json" "$H/hf-1.json"
bad "hyperfine2pb: junk after the JSON" '^hyperfine2pb: two.json: not JSON: ' sh "$I/hyperfine2pb.sh" two.json
bad "hyperfine2pb: a missing file" '^hyperfine2pb: nothere.json: cannot read$' sh "$I/hyperfine2pb.sh" nothere.json
bad "hyperfine2pb: a pyperf file" '^hyperfine2pb: .*pyperf-a.json: no "results" list: not a hyperfine --export-json file$' \
	sh "$I/hyperfine2pb.sh" "$H/pyperf-a.json"
bad "hyperfine2pb: one command" 'single.json: 1 command\(s\): an A/B comparison needs 2' \
	sh "$I/hyperfine2pb.sh" single.json
bad "hyperfine2pb: no times" 'notimes.json: results\[0\].times is missing or not a list$' \
	sh "$I/hyperfine2pb.sh" notimes.json
bad "hyperfine2pb: a time that is not a number" 'str.json: results\[0\].times\[1\] is not a number$' \
	sh "$I/hyperfine2pb.sh" str.json
bad "hyperfine2pb: a negative time (shell correction) names -N" 'neg.json: results\[0\].times\[1\] is -1e-06 s, not a time above 0 .*-N' \
	sh "$I/hyperfine2pb.sh" neg.json
bad "hyperfine2pb: 3 commands need --a and --b" 'three.json: 3 commands: choose the arms with --a N --b N$' \
	sh "$I/hyperfine2pb.sh" three.json
bad "hyperfine2pb: --b beyond the commands" 'three.json: 3 commands, no command 4$' \
	sh "$I/hyperfine2pb.sh" --a 1 --b 4 three.json
jq '.results[1].command = "./a\nb"' "$H/hf-2.json" >nl.json
bad "hyperfine2pb: a command with a newline, in a message: still one line" \
	'^hyperfine2pb: nl.json: arm B is "./a\\nb", not ' sh "$I/hyperfine2pb.sh" "$H/hf-1.json" nl.json
# A backslash in a value is escaped as pb(7) escapes metadata: a command
# with a backslash and an n in it does not read back as a newline.
jq '.results[0].command = "./a\\nb"' "$H/hf-2.json" >bs.json
run sh "$I/hyperfine2pb.sh" bs.json
is "$rc:$(meta cmd_a "$T/out")" '0:./a\\nb' "hyperfine2pb: a backslash in a command is written doubled"
bad "hyperfine2pb: another command in one export, named" \
	"^hyperfine2pb: other.json: arm B is \"./other\", not \".*--us 900\" as in .*hf-1.json" \
	sh "$I/hyperfine2pb.sh" "$H/hf-1.json" other.json
if [ -w /dev/full ]; then
	fails 1 '^hyperfine2pb: write error on standard output$' "hyperfine2pb >/dev/full: one line, exit 1" \
		sh -c 'sh "$1" "$2" >/dev/full' sh "$I/hyperfine2pb.sh" "$H/hf-1.json"
else
	skip "no /dev/full"
fi
fails 2 '^hyperfine2pb: no hyperfine JSON file' "hyperfine2pb: no file: usage" sh "$I/hyperfine2pb.sh"
fails 2 '^hyperfine2pb: --a and --b go together' "hyperfine2pb: --a alone: usage" \
	sh "$I/hyperfine2pb.sh" --a 2 "$H/hf-1.json"

# --- pyperf: A and B, 4 worker runs each after a calibration run
run sh "$I/pyperf2pb.sh" "$H/pyperf-a.json" "$H/pyperf-b.json"
cp "$T/out" pp.tsv
ran_ok "pyperf2pb: exit 0, stderr empty"
run pb-pair pp.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::12" "pb-pair accepts it: 4 runs x 3 values"
is "$(meta pb-pair.warmup_rows "$T/out")" "8 dropped" "... and drops 4 runs x 1 warm-up pair"
# every value and warm-up: "run arm phase ns" from the JSON against the stream
for arm in A B; do
	jq -r --arg arm "$arm" '.benchmarks[0].runs | to_entries[] | select(.value.values) | .key as $j
		| (.value.values[] | "\($j) \($arm) measure \(. * 1e9 | round)"),
		  (.value.warmups[] | "\($j) \($arm) warmup \(.[1] * 1e9 | round)")' \
		"$H/pyperf-$(echo "$arm" | tr AB ab).json"
done | sort >want
rows pp.tsv | awk -F'\t' '{ print $1, $4, $3, $7 }' | sort >got
is_file got want "run j = pyperf's j-th run with values; values and warm-ups in ns (all 32, against jq)"
is "$(ns 3 B measure pp.tsv | sed -n 2p)" "$(jq '.benchmarks[0].runs[3].values[1] * 1e9 | round' "$H/pyperf-b.json")" \
	"spot check: run 3, pair 2, arm B"
like "$(meta source pp.tsv)" "^pyperf JSON format version 1.0; arm A from $H/pyperf-a.json, arm B from $H/pyperf-b.json\$" \
	"source: pyperf, the format version, which file is which arm"
is "$(meta cmd_a pp.tsv)" "pyperf benchmark timeit in $H/pyperf-a.json" "cmd_a: the benchmark's name and file"
like "$(meta order pp.tsv)" '^blocked \(imported from pyperf: A and B were separate pyperf invocations' \
	"order: blocked, separate invocations"
like "$(meta pairing pp.tsv)" 'two processes run at different times' "pairing: says what a run pairs"
like "$(meta pairing pp.tsv)" '^unpaired: ' "pairing: begins 'unpaired:'"
is "$(meta import.calibration_runs pp.tsv)" "1 of A, 1 of B left out (no values)" "calibration runs counted"
is "$(meta host pp.tsv):$(meta loops pp.tsv)" "bench1:A 131072, B 131072" "host and loops from pyperf's metadata"
is "$(sed -n 's/^# run: 1 //p' pp.tsv)" "a_date=2026-11-30T06:10:02.100000 b_date=2026-11-30T06:12:02.100000 host=bench1" \
	"run comment: each worker's date, and the host"
# pyperf's dates are local times, not pb's UTC start stamps: no start=,
# and pb-pair --host still finds the host.
run pb-pair --host pp.tsv
is "$rc:$(rows "$T/out" | cut -f8 | sort -u)" "0:bench1" "pb-pair --host finds the host"
is "$(rows pp.tsv | awk -F'\t' '$4 == "A" && $5 != 1' | wc -l | tr -d ' '):$(row_count pp.tsv)" 0:32 \
	"A's workers started first: A at pos 1 (all 32 rows)"
jq '.benchmarks[0].runs[2].metadata.date = "2026-11-30 06:00:00.000000"' "$H/pyperf-b.json" >early.json
sh "$I/pyperf2pb.sh" "$H/pyperf-a.json" early.json >early.tsv
is "$(rows early.tsv | awk -F'\t' '$5 == 1 { print $1 $4 }' | sort -u | tr '\n' ' ')" "1A 2B 3A 4A " \
	"B's worker 2 dated before A's: B at pos 1 in run 2 only"
gzip -c "$H/pyperf-a.json" >a.json.gz
run sh "$I/pyperf2pb.sh" a.json.gz "$H/pyperf-b.json"
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:32:$(rows pp.tsv | md5sum)" "a .gz file reads the same"

# a suite, fewer runs, tiny values
jq '.benchmarks += [.benchmarks[0] | .metadata = {name: "other"}]' "$H/pyperf-a.json" >suite.json
run sh "$I/pyperf2pb.sh" --benchmark timeit suite.json "$H/pyperf-b.json"
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:32:$(rows pp.tsv | md5sum)" "--benchmark picks one benchmark of a suite"
jq '.benchmarks[0].runs |= .[:3]' "$H/pyperf-a.json" >fewer.json
run sh "$I/pyperf2pb.sh" fewer.json "$H/pyperf-b.json"
is "$rc:$(cat "$T/err"):$(meta runs "$T/out")" "0:pyperf2pb: warning: 2 run(s) of B beyond the other arm's 2 left out:2" \
	"fewer runs of A: runs paired by index, the rest left out, one warning"
jq '.benchmarks[0].runs[] |= (.values |= (if . then map(. / 10) else . end))' "$H/pyperf-a.json" >tiny.json
run sh "$I/pyperf2pb.sh" tiny.json "$H/pyperf-b.json"
like "$rc:$(cat "$T/err")" '^0:pyperf2pb: warning: values down to 4[0-9]{2} ns: rounding to whole ns costs up to 0\.1[0-9]*% of a value$' \
	"values under 1 us: a warning says what rounding costs"

# bad input
# the bad files, from one jq run: NAME<TAB>JSON lines
jq -r '["v6", .version = 6], ["nov", del(.version)], ["byte", .metadata.unit = "byte"],
	["zero", .benchmarks[0].runs[2].values[1] = 0], ["str", .benchmarks[0].runs[2].values[1] = "x"],
	["warm", .benchmarks[0].runs[2].warmups[0] = [0.5, 1e-6]], ["calib", .benchmarks[0].runs |= .[:1]],
	["sub", .benchmarks[0].runs[] |= (.values |= (if . then map(. / 1e4) else . end))]
	| "\(.[0])\t\(.[1] | tojson)"' "$H/pyperf-a.json" |
	while IFS='	' read -r name json; do printf '%s\n' "$json" >"$name.json"; done
cp "$H/pyperf-a.json" fake.json.gz
B=$H/pyperf-b.json
bad "pyperf2pb: not JSON" '^pyperf2pb: bad.json: not JSON: ' sh "$I/pyperf2pb.sh" bad.json "$B"
bad "pyperf2pb: an empty file" '^pyperf2pb: empty.json: no JSON value in it \(empty, or cut short\)$' \
	sh "$I/pyperf2pb.sh" "$B" empty.json
head -c 300 "$H/pyperf-a.json" >cut.json
bad "pyperf2pb: A cut short: A named, not B" '^pyperf2pb: cut.json: not JSON: ' sh "$I/pyperf2pb.sh" cut.json "$B"
bad "pyperf2pb: the same file twice" 'pyperf-b.json: the same file for A and B$' sh "$I/pyperf2pb.sh" "$B" "$B"
bad "pyperf2pb: a hyperfine file" 'hf-1.json: no "version": not a pyperf JSON file$' \
	sh "$I/pyperf2pb.sh" "$H/hf-1.json" "$B"
bad "pyperf2pb: format version 6" '^pyperf2pb: v6.json: pyperf JSON format version 6; this script reads "1.0"' \
	sh "$I/pyperf2pb.sh" v6.json "$B"
bad "pyperf2pb: no version" 'nov.json: no "version"' sh "$I/pyperf2pb.sh" nov.json "$B"
bad "pyperf2pb: unit byte" 'byte.json: runs\[0\]: unit "byte": only times' sh "$I/pyperf2pb.sh" byte.json "$B"
bad "pyperf2pb: a value of 0" 'zero.json: runs\[2\] values\[1\] is 0: not a time above 0$' \
	sh "$I/pyperf2pb.sh" zero.json "$B"
bad "pyperf2pb: a value that is not a number" 'str.json: runs\[2\] values\[1\] is not a number$' \
	sh "$I/pyperf2pb.sh" str.json "$B"
bad "pyperf2pb: a bad warm-up" 'warm.json: runs\[2\] warmups\[0\] is not \[loops, value\]$' \
	sh "$I/pyperf2pb.sh" warm.json "$B"
bad "pyperf2pb: only calibration runs" 'calib.json: no run with values' sh "$I/pyperf2pb.sh" calib.json "$B"
bad "pyperf2pb: values under 1 ns" 'sub.json: runs\[1\] values\[0\] is .* s: below 1 ns' sh "$I/pyperf2pb.sh" sub.json "$B"
bad "pyperf2pb: a suite without --benchmark" 'suite.json: 2 benchmarks \("timeit", "other"\): choose one with --benchmark NAME$' \
	sh "$I/pyperf2pb.sh" suite.json "$B"
bad "pyperf2pb: an unknown benchmark" 'suite.json: no benchmark named "nope" \(it has "timeit", "other"\)$' \
	sh "$I/pyperf2pb.sh" --benchmark nope suite.json "$B"
bad "pyperf2pb: .gz that is not gzip" '^pyperf2pb: fake.json.gz: not a gzip file$' sh "$I/pyperf2pb.sh" fake.json.gz "$B"
bad "pyperf2pb: a missing file" '^pyperf2pb: nothere.json: cannot read$' sh "$I/pyperf2pb.sh" nothere.json "$B"
if [ -w /dev/full ]; then
	fails 1 '^pyperf2pb: write error on standard output$' "pyperf2pb >/dev/full: one line, exit 1" \
		sh -c 'sh "$1" "$2" "$3" >/dev/full' sh "$I/pyperf2pb.sh" "$H/pyperf-a.json" "$B"
else
	skip "no /dev/full"
fi
fails 2 '^pyperf2pb: give two files' "pyperf2pb: one file: usage" sh "$I/pyperf2pb.sh" "$B"

done_testing

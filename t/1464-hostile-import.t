#!/bin/sh
# examples/import under hostile input (issue 27, items 10, 19, 22): a
# value with a line break never forges a stream line (pb(7)'s escapes); a
# NUL in a written value and an exit code that is no exit status are
# refused, naming the file; a file named -s is a file, not a jq option;
# an export that repeats another's times or timestamps is a copy, not a
# second run, and is refused naming both. Every stream an importer writes
# here is fed to pb-pair, which must read it. Fixtures: t/data/import
# (see t/1210-import.t, t/1211-import-bench-tools.t), altered with jq.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
I=$top/examples/import
H=$D/import
command -v jq >/dev/null 2>&1 || { echo "1..0 # SKIP jq not installed (Debian package jq; make check installs it)"; exit 0; }
cd "$T" || exit 1

# meta KEY FILE: the first "# KEY: value" of FILE
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
# bad NAME PATTERN CMD...: exit 1, one stderr line matching, nothing on stdout
bad() {
	name=$1 pat=$2
	shift 2
	refuses 1 "$pat" "$name" "$@"
}
# imported NAME CMD...: the importer exits 0, stderr empty, a stream on
# stdout (kept in imp.tsv), and pb-pair reads that stream: exit 0, stderr
# empty, pairs out
imported() {
	name=$1
	shift
	run "$@"
	cp "$T/out" imp.tsv
	ran_ok "$name: exit 0, a stream"
	run pb-pair imp.tsv
	is "$rc:$(cat "$T/err"):$(rows "$T/out" | head -n 1 | cut -f1)" "0::1" "$name: pb-pair reads the stream"
}
# head_keys FILE: the keys of FILE's metadata lines ahead of the header,
# one a line
head_keys() { awk '!/^#/ { exit } { print }' "$1" | sed -n 's/^# \([a-z_][a-z0-9_.-]*\): .*/\1/p'; }

A=$H/pyperf-a.json B=$H/pyperf-b.json G=$H/gbench.json P=$H/pytest-benchmark.json O=$H/gotest.txt
FORGE='bench1
# until: parity'

# ===== item 10: values with line breaks stay on their line =====
jq --arg h "$FORGE" '.metadata.hostname = $h' "$A" >ha.json
jq --arg h "$FORGE" '.metadata.hostname = $h' "$B" >hb.json
imported "pyperf2pb: a hostname with a newline and a forged '# until:'" sh "$I/pyperf2pb.sh" ha.json hb.json
is "$(meta host imp.tsv)|$(head_keys imp.tsv | grep -c '^until$')" 'bench1\n# until: parity|0' \
	"... # host: escaped (\\n), no '# until:' line in the head"
like "$(sed -n 's/^# run: 1 //p' imp.tsv)" '^a_date=[^ ]+ b_date=[^ ]+ host=bench1\\n#%20until:%20parity$' \
	"... the # run: line's host= one word"
imported "pyperf2pb: A's hostname forged, B's not" sh "$I/pyperf2pb.sh" ha.json "$B"
is "$(meta host imp.tsv)|$(head_keys imp.tsv | grep -c '^until$')" 'A on bench1\n# until: parity, B on bench1|0' \
	"... '# host: A on ..., B on ...' escaped"
jq --arg h "$FORGE" '.metadata.loops = $h' "$A" >la.json
imported "pyperf2pb: loops, a text with a newline" sh "$I/pyperf2pb.sh" la.json "$B"
is "$(meta loops imp.tsv)|$(head_keys imp.tsv | grep -c '^until$')" 'A bench1\n# until: parity, B 131072|0' "... # loops: escaped"
jq --arg h "$FORGE" '.benchmarks |= map(if .run_type == "iteration" then .iterations = $h | .repetition_index = $h | .threads = $h else . end)' \
	"$G" >gi.json
imported "gbench2pb: iterations, threads, repetition_index with newlines" sh "$I/gbench2pb.sh" gi.json
is "$(meta iterations imp.tsv)|$(meta threads imp.tsv)|$(head_keys imp.tsv | grep -c '^until$')" \
	'A bench1\n# until: parity, B bench1\n# until: parity per repetition|bench1\n# until: parity|0' "... # iterations:, # threads: escaped"
like "$(sed -n 's/^# run: 1 //p' imp.tsv)" '^source=gi.json repetition=bench1\\n#%20until:%20parity host=vm$' \
	"... repetition= one word"
jq --arg h "$FORGE" '.benchmarks[].stats.iterations = $h' "$P" >pi.json
imported "pytest-benchmark2pb: iterations with a newline" sh "$I/pytest-benchmark2pb.sh" pi.json
is "$(meta iterations imp.tsv)|$(head_keys imp.tsv | grep -c '^until$')" \
	'A bench1\n# until: parity, B bench1\n# until: parity per round|0' "... # iterations: escaped"
TB=$(printf 'go\tout\\put.txt')
cp "$O" "$TB"
imported "gotest2pb: a file name with a TAB and a backslash" sh "$I/gotest2pb.sh" "$TB"
is "$(meta source imp.tsv)|$(sed -n 's/^# run: 1 //p' imp.tsv)" \
	'go test -bench text; the runs are counts (-count): go\tout\\put.txt runs 1 to 5|source=go\tout\\put.txt count=1' \
	"... # source: and # run: escape it as pb(7) does"

# ===== item 19: NUL, exit codes, files named -s =====
bad "hyperfine2pb: a NUL in a command" '^hyperfine2pb: nul.json: "a\\u0000b" holds a NUL character' \
	sh "$I/hyperfine2pb.sh" "$(jq '.results[0].command = "a\u0000b"' "$H/hf-1.json" >nul.json && echo nul.json)"
bad "pyperf2pb: a NUL in the hostname of B" '^pyperf2pb: nul.json: "bench\\u0000" holds a NUL character' \
	sh "$I/pyperf2pb.sh" "$A" "$(jq '.metadata.hostname = "bench\u0000"' "$B" >nul.json && echo nul.json)"
bad "gbench2pb: a NUL in a benchmark name" '^gbench2pb: nul.json: "BM_sum_list\\u0000x" holds a NUL character' \
	sh "$I/gbench2pb.sh" "$(jq '.benchmarks |= map(if .run_name == "BM_sum_list" then .run_name += "\u0000x" else . end)' "$G" >nul.json && echo nul.json)"
bad "pytest-benchmark2pb: a NUL in the date" '^pytest-benchmark2pb: nul.json: "2026\\u0000" holds a NUL character' \
	sh "$I/pytest-benchmark2pb.sh" "$(jq '.datetime = "2026\u0000"' "$P" >nul.json && echo nul.json)"
# a NUL in what no importer writes is no reason to refuse a file
jq '.context.caches[0].type = "Da\u0000ta"' "$G" >nulcache.json
imported "gbench2pb: a NUL in context.caches, which is not written" sh "$I/gbench2pb.sh" nulcache.json
jq '.results[0].exit_codes[0] = 1e300' "$H/hf-1.json" >big.json
bad "hyperfine2pb: an exit code of 1e300" '^hyperfine2pb: big.json: results\[0\]\.exit_codes\[0\] is 1e\+300, not an exit code \(0 to 255, or null\)$' \
	sh "$I/hyperfine2pb.sh" big.json
jq '.results[1].exit_codes[2] = 256' "$H/hf-1.json" >e256.json
bad "hyperfine2pb: an exit code of 256" 'e256.json: results\[1\]\.exit_codes\[2\] is 256, not an exit code' sh "$I/hyperfine2pb.sh" e256.json
jq '.results[0].exit_codes[0] = -1' "$H/hf-1.json" >eneg.json
bad "hyperfine2pb: an exit code of -1 (pb-run's timeout)" 'eneg.json: results\[0\]\.exit_codes\[0\] is -1, not an exit code' \
	sh "$I/hyperfine2pb.sh" eneg.json
jq '.results[0].exit_codes[0] = 255 | .results[0].exit_codes[1] = null' "$H/hf-1.json" >e255.json
run sh "$I/hyperfine2pb.sh" e255.json
cp "$T/out" imp.tsv
ran_ok "hyperfine2pb: exit codes 255 and null: exit 0, a stream"
is "$(rows imp.tsv | awk -F'\t' '$4 == "A" { print $8 }' | head -n 3 | tr '\n' ' ')" "255 255 0 " "... both status 255"
run pb-pair imp.tsv
is "$rc:$(cat "$T/err"):$(row_count "$T/out")" "0:pb-pair: dropped 2 pairs with a failed observation (status != 0):8" \
	"... pb-pair reads it and drops the 2 failed pairs"
# a file named -s (jq's --slurp), -n, - (awk's standard input)
cp "$H/hf-1.json" ./-s
imported "hyperfine2pb -- -s: a good export named -s" sh "$I/hyperfine2pb.sh" -- -s "$H/hf-2.json"
like "$(sed -n 1p imp.tsv)|$(meta source imp.tsv)" '^# hyperfine2pb: hyperfine2pb\.sh -- -s [^ ]*hf-2\.json\|.*: -s, [^ ]*hf-2\.json$' \
	"... the provenance keeps --, the source names -s"
cp "$B" ./-n
imported "pyperf2pb -- A -n: a good B named -n" sh "$I/pyperf2pb.sh" -- "$A" -n
like "$(meta cmd_b imp.tsv)" ' in -n$' "... cmd_b names -n"
cp "$G" ./-s
imported "gbench2pb -- -s" sh "$I/gbench2pb.sh" -- -s
cp "$P" ./-s
imported "pytest-benchmark2pb -- -s" sh "$I/pytest-benchmark2pb.sh" -- -s
cp "$O" ./-
imported "gotest2pb -- -: a file named -, not the standard input" sh -c 'sh "$1" -- - </dev/null' sh "$I/gotest2pb.sh"
printf '{"results": [' >./-x
bad "hyperfine2pb: a bad file named -x is named -x" '^hyperfine2pb: -x: not JSON: ' sh "$I/hyperfine2pb.sh" -- "$H/hf-1.json" -x
cat "$P" "$P" >./-s
bad "pytest-benchmark2pb: two values in a file named -s (not slurped)" '^pytest-benchmark2pb: -s: more than one JSON value in the file$' \
	sh "$I/pytest-benchmark2pb.sh" -- -s

# ===== item 22: a copy is not a second run =====
cp "$H/hf-1.json" hf.json
cp hf.json hf-copy.json
bad "hyperfine2pb: an export and its copy" '^hyperfine2pb: hf-copy.json: the same times as hf.json: a copy of one export is not a second run$' \
	sh "$I/hyperfine2pb.sh" hf.json hf-copy.json
bad "hyperfine2pb: the copy third" '^hyperfine2pb: hf-copy.json: the same times as hf.json: ' \
	sh "$I/hyperfine2pb.sh" hf.json "$H/hf-2.json" hf-copy.json
bad "hyperfine2pb: one file by two names" '^hyperfine2pb: ./hf.json: the same times as hf.json: ' \
	sh "$I/hyperfine2pb.sh" hf.json ./hf.json
cp "$A" a-copy.json
bad "pyperf2pb: B a copy of A" '^pyperf2pb: a-copy.json: the same values as .*pyperf-a.json: B is a copy of A' \
	sh "$I/pyperf2pb.sh" "$A" a-copy.json
jq '.benchmarks[0].runs[3].metadata.date = "2026-11-30 06:10:04.107919"' "$B" >bdate.json
bad "pyperf2pb: a run of B dated as one of A" '^pyperf2pb: bdate.json: the same run date as .*pyperf-a.json: ' \
	sh "$I/pyperf2pb.sh" "$A" bdate.json
cp "$G" g-copy.json
bad "gbench2pb: a file and its copy" '^gbench2pb: g-copy.json: the same times as .*gbench.json: a copy of one file is not a second run$' \
	sh "$I/gbench2pb.sh" "$G" g-copy.json
# context.date is to the second: two real runs share it (see README.md)
jq '.benchmarks |= map(if .run_type == "iteration" then .real_time *= 1.01 else . end)' "$G" >g-later.json
imported "gbench2pb: other times, the same context.date: two runs" sh "$I/gbench2pb.sh" "$G" g-later.json
is "$(meta runs imp.tsv)" 10 "... 10 runs"
cp "$P" p-copy.json
bad "pytest-benchmark2pb: a file and its copy" '^pytest-benchmark2pb: p-copy.json: the same times as .*pytest-benchmark.json: ' \
	sh "$I/pytest-benchmark2pb.sh" "$P" p-copy.json
jq '.benchmarks[].stats.data |= map(. * 1.01)' "$P" >p-same-date.json
bad "pytest-benchmark2pb: other times, the same datetime" '^pytest-benchmark2pb: p-same-date.json: the same datetime as .*pytest-benchmark.json: ' \
	sh "$I/pytest-benchmark2pb.sh" "$P" p-same-date.json
jq '.datetime = "2026-12-01T09:54:02.120004" | .benchmarks[].stats.data |= map(. * 1.01)' "$P" >p-later.json
imported "pytest-benchmark2pb: other times, another datetime: two runs" sh "$I/pytest-benchmark2pb.sh" "$P" p-later.json
cp "$O" go-copy.txt
bad "gotest2pb: an output and its copy" '^gotest2pb: go-copy.txt: the same results as .*gotest.txt: a copy of one output is not a second run$' \
	sh "$I/gotest2pb.sh" "$O" go-copy.txt
done_testing

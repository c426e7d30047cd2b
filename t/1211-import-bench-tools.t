#!/bin/sh
# examples/import, part 2: Google Benchmark JSON (gbench2pb.sh),
# pytest-benchmark JSON (pytest-benchmark2pb.sh) and go test -bench text
# (gotest2pb.sh) as pb raw streams. Each from a small captured file in
# t/data/import (gbench.json, pytest-benchmark.json, gotest.txt: real
# outputs of the sources below, see examples/import/README.md), and from
# a fresh run of the real tool where it is installed (libbenchmark-dev
# with g++, python3-pytest-benchmark, golang-go: make check installs
# them). The streams feed pb-pair; every time matches its source (jq,
# awk); the metadata says the design is blocked and unpaired; bad input
# gives one line on stderr, exit 1, and no output.
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
# rak FILE: "run arm ns" of every row
rak() { rows "$1" | awk -F'\t' '{ print $1, $4, $7 }'; }
# blocked NAME FILE TOOL: the metadata an import owes: mode, order, pairing
blocked() {
	is "$(meta mode "$2")" "import ($3)" "$1: mode: import ($3)"
	like "$(meta order "$2")" "^blocked \\(imported from $3: " "$1: order: blocked, imported from $3"
	like "$(meta pairing "$2")" '^unpaired: ' "$1: pairing: unpaired"
}
# faster NAME FILE: pb-pair --by-run | pb-logratio | pb-tint: B faster, interval
# above 1 (ratio_lo a number: col's "<col: no ...>" is not one)
faster() {
	pb-pair --by-run "$2" | pb-logratio | pb-tint --finding >"$T/tint" 2>"$T/tint.err"
	st=$? lo=$(col ratio_lo 1 "$T/tint")
	if [ "$st" = 0 ] && nums "$lo" && awk -v lo="$lo" 'BEGIN { exit !(lo > 1) }'; then
		ok "$1: pb-pair --by-run | pb-logratio | pb-tint: B faster, A/B ratio above $lo"
	else
		not_ok "$1: pb-pair --by-run | pb-logratio | pb-tint: B faster"
		diag "$(cat "$T/tint.err")" "$(grep '^# finding' "$T/tint")"
	fi
}
# analysed NAME FILE: the same pipeline reads a fresh run's stream and
# gives an interval, lo <= ratio <= hi. Not which arm is faster: a fresh
# run's few repetitions on a loaded machine can leave it unresolved (5 go
# test counts at a load of 8: 0.94 to 13), and the fixtures above check
# the verdict on the same benchmarks.
analysed() {
	pb-pair --by-run "$2" | pb-logratio | pb-tint >"$T/tint" 2>"$T/tint.err"
	st=$?
	set -- "$1" "$(col ratio_lo 1 "$T/tint")" "$(col ratio 1 "$T/tint")" "$(col ratio_hi 1 "$T/tint")"
	if [ "$st" = 0 ] && [ ! -s "$T/tint.err" ]; then ascending "$1: pb-pair --by-run | pb-logratio | pb-tint: lo <= ratio <= hi" "$2" "$3" "$4"
	else not_ok "$1: pb-pair --by-run | pb-logratio | pb-tint: lo <= ratio <= hi"; diag "status $st: $(cat "$T/tint.err")"; fi
}

# The two-function benchmarks the fixtures came from, and the fresh runs
# use: A sums 4096 ints walking a linked list, B a contiguous array.
cat >bench.cc <<'EOF'
// Two ways to sum 4096 ints: walking a std::list (A) and a std::vector (B).
#include <benchmark/benchmark.h>
#include <list>
#include <numeric>
#include <vector>
static std::list<int> as_list(4096, 1);
static std::vector<int> as_vector(4096, 1);
static void BM_sum_list(benchmark::State &state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(std::accumulate(as_list.begin(), as_list.end(), 0));
}
static void BM_sum_vector(benchmark::State &state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(std::accumulate(as_vector.begin(), as_vector.end(), 0));
}
BENCHMARK(BM_sum_list);
BENCHMARK(BM_sum_vector);
BENCHMARK_MAIN();
EOF
mkdir gosum
printf 'module pbsum\n\ngo 1.19\n' >gosum/go.mod
cat >gosum/sum_test.go <<'EOF'
// Two ways to sum 4096 ints: walking a container/list (A) and a slice (B).
package pbsum

import (
	"container/list"
	"testing"
)

var asList, asSlice = func() (*list.List, []int) {
	l, s := list.New(), make([]int, 4096)
	for i := range s {
		s[i] = 1
		l.PushBack(1)
	}
	return l, s
}()

var sink int

func BenchmarkSumList(b *testing.B) {
	for i := 0; i < b.N; i++ {
		t := 0
		for e := asList.Front(); e != nil; e = e.Next() {
			t += e.Value.(int)
		}
		sink = t
	}
}

func BenchmarkSumSlice(b *testing.B) {
	for i := 0; i < b.N; i++ {
		t := 0
		for _, v := range asSlice {
			t += v
		}
		sink = t
	}
}
EOF
mkdir pt
cat >pt/test_join.py <<'EOF'
# Two ways to build a string of 300 pieces: += in a loop (A) and str.join (B).
PIECES = ["piece%d," % i for i in range(300)]


def test_plus(benchmark):
    def plus():
        s = ""
        for p in PIECES:
            s += p
        return s
    benchmark(plus)


def test_join(benchmark):
    benchmark(lambda: "".join(PIECES))
EOF

# ===== Google Benchmark =====
G=$H/gbench.json
run sh "$I/gbench2pb.sh" "$G"
cp "$T/out" gb.tsv
ran_ok "gbench2pb: the captured file: exit 0, stderr empty"
run pb-pair gb.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::5" "pb-pair accepts it: 5 repetitions, 5 runs of 1 pair"
jq -r '.benchmarks | map(select(.run_type == "iteration")) | group_by(.run_name)[]
	| .[] | "\(.repetition_index + 1) \(if .run_name == "BM_sum_list" then "A" else "B" end) \(.real_time | round)"' "$G" |
	sort >want
rak gb.tsv | sort >got
is_file got want "every ns is a repetition's real_time (ns), rounded; run k = repetition k-1 (all 10, against jq)"
is "$(meta cmd_a gb.tsv)|$(meta cmd_b gb.tsv)" "BM_sum_list in ./bench|BM_sum_vector in ./bench" \
	"cmd_a and cmd_b: the benchmarks, in the file's order, and the binary"
blocked gbench2pb gb.tsv "Google Benchmark"
like "$(meta order gb.tsv)" 'does not record --benchmark_enable_random_interleaving' \
	"order: says what the JSON cannot tell (random interleaving)"
like "$(meta pairing gb.tsv)" 'not fresh processes' "pairing: the repetitions share one process"
is "$(meta runs gb.tsv):$(meta pairs gb.tsv | cut -d' ' -f1)" "5:1" "runs 5, pairs 1"
like "$(meta import.aggregates gb.tsv)" '^8 aggregate' "the 8 aggregates (mean, median, stddev, cv) left out, counted"
is "$(meta iterations gb.tsv)" "$(jq -r '[.benchmarks[] | select(.run_type == "iteration")] | group_by(.run_name) | map(.[0].iterations)
	| "A \(.[0]), B \(.[1]) per repetition"' "$G")" \
	"iterations: of each arm"
is "$(meta host gb.tsv)" "$(jq -r .context.host_name "$G")" "host: the context's host_name"
is "$(grep -c '^# run: [1-5] source=.*gbench.json repetition=[0-4] host=' gb.tsv)" 5 "one '# run:' comment per repetition, host last"
is "$(rows gb.tsv | awk -F'\t' '$4 == "A" && $5 != 1 || $4 == "B" && $5 != 2 || $6 != 0 || $8 != 0' | wc -l | tr -d ' '):$(row_count gb.tsv)" 0:10 \
	"A at pos 1 (its benchmark ran first), no delay, status 0 (all 10 rows)"
faster gbench2pb gb.tsv
run sh "$I/gbench2pb.sh" --time cpu "$G"
is "$rc:$(rak "$T/out" | sort | md5sum)" "0:$(jq -r '.benchmarks | map(select(.run_type == "iteration"))[]
	| "\(.repetition_index + 1) \(if .run_name == "BM_sum_list" then "A" else "B" end) \(.cpu_time | round)"' "$G" | sort | md5sum)" \
	"--time cpu: cpu_time instead"
like "$(meta clock "$T/out")" '^Google Benchmark cpu_time per iteration' "... and the clock says so"
run sh "$I/gbench2pb.sh" --a BM_sum_vector --b BM_sum_list "$G"
is "$rc:$(meta cmd_a "$T/out"):$(rows "$T/out" | awk -F'\t' '$5 == 1 { print $4 }' | sort -u)" "0:BM_sum_vector in ./bench:B" \
	"--a and --b swap the arms; B, whose benchmark ran first, at pos 1"
# A benchmark named with a newline and TABs, chosen by --a: the provenance
# line keeps it on one line, escaped as pb(7) says, and forges no line.
X='X
1	1	measure	A	1	0	5	0'
jq --arg x "$X" '(.benchmarks[] | select(.run_name == "BM_sum_list")) |= (.name = $x | .run_name = $x)' \
	"$G" >forge.json
run sh "$I/gbench2pb.sh" --a "$X" --b BM_sum_vector forge.json
is "$rc:$(sed -n 1p "$T/out")" "0:# gbench2pb: gbench2pb.sh --a 'X\\n1\\t1\\tmeasure\\tA\\t1\\t0\\t5\\t0' --b BM_sum_vector forge.json" \
	"--a with a newline and TABs: the provenance line escapes them"
cp "$T/out" forge.tsv
run pb-pair forge.tsv
is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:5" "... and pb-pair reads the stream: 5 pairs, none forged"
# a second file: its times 1% longer (a plain copy is refused, t/1464)
jq '.benchmarks |= map(if .run_type == "iteration" then .real_time *= 1.01 else . end)' "$G" >g2.json
run sh "$I/gbench2pb.sh" "$G" g2.json
is "$rc:$(meta runs "$T/out"):$(rows "$T/out" | cut -f1 | uniq | tr '\n' ' ')" "0:10:1 2 3 4 5 6 7 8 9 10 " \
	"two files: the second's repetitions are runs 6 to 10"
like "$(meta source "$T/out")" 'gbench.json runs 1 to 5, g2.json runs 6 to 10$' "... and the source says which file is which runs"
# a unit, a suite, fewer repetitions, tiny times
jq '.benchmarks |= map(if .run_type == "iteration" then .time_unit = "us" | .real_time /= 1000 else . end)' "$G" >us.json
run sh "$I/gbench2pb.sh" us.json
is "$rc:$(row_count "$T/out"):$(rak "$T/out" | md5sum)" "0:10:$(rak gb.tsv | md5sum)" "time_unit us: the same ns"
jq '.benchmarks += [.benchmarks[0] | .run_name = "BM_other" | .name = "BM_other"]' "$G" >three.json
run sh "$I/gbench2pb.sh" --a BM_sum_list --b BM_sum_vector three.json
is "$rc:$(row_count "$T/out"):$(rak "$T/out" | md5sum)" "0:10:$(rak gb.tsv | md5sum)" "three benchmarks: --a and --b choose"
jq 'del(.benchmarks[4])' "$G" >fewer.json
run sh "$I/gbench2pb.sh" fewer.json
is "$rc:$(cat "$T/err"):$(meta runs "$T/out")" "0:gbench2pb: warning: fewer.json: repetitions of A 4, of B 5: 4 runs kept:4" \
	"one repetition fewer of A: one warning, 4 runs"
jq '.benchmarks |= map(if .run_type == "iteration" then .real_time /= 20 else . end)' "$G" >tiny.json
run sh "$I/gbench2pb.sh" tiny.json
like "$rc:$(cat "$T/err")" '^0:gbench2pb: warning: values down to [0-9.]+ ns: rounding to whole ns costs up to [0-9.]+% of a value$' \
	"times under 1 us: a warning says what rounding costs"
# bad input
printf 'nope' >bad.json
: >empty.json
jq '.benchmarks |= map(select(.run_type == "aggregate"))' "$G" >agg.json
jq '.benchmarks[2] += {error_occurred: true, error_message: "boom\nbang"}' "$G" >err.json
jq '.benchmarks[1].real_time = 0' "$G" >zero.json
jq '.benchmarks[1].real_time = "x"' "$G" >str.json
jq '.benchmarks[1].time_unit = "ps"' "$G" >ps.json
jq '.benchmarks |= map(if .run_type == "iteration" then .real_time = 1e-4 else . end)' "$G" >sub.json
jq '.benchmarks |= map(select(.run_name == "BM_sum_list"))' "$G" >one.json
bad "gbench2pb: not JSON" '^gbench2pb: bad.json: not JSON: ' sh "$I/gbench2pb.sh" bad.json
bad "gbench2pb: an empty file" '^gbench2pb: empty.json: no JSON value in it' sh "$I/gbench2pb.sh" empty.json
bad "gbench2pb: a hyperfine file" 'hf-1.json: no "benchmarks" list: not Google Benchmark JSON' sh "$I/gbench2pb.sh" "$H/hf-1.json"
bad "gbench2pb: a pytest-benchmark file is not one" "pytest-benchmark.json: benchmarks\\[0\\]|no benchmark|benchmarks \\(" \
	sh "$I/gbench2pb.sh" --a x --b y "$H/pytest-benchmark.json"
bad "gbench2pb: only aggregates" 'agg.json: only aggregates .*--benchmark_report_aggregates_only' sh "$I/gbench2pb.sh" agg.json
bad "gbench2pb: a failed benchmark, its message on one line" \
	'err.json: BM_sum_list repetition 2: the benchmark failed: boom\\nbang \(a failed repetition has no time\)$' sh "$I/gbench2pb.sh" err.json
bad "gbench2pb: a time of 0" 'zero.json: BM_sum_list repetition 1: real_time is 0: not a time above 0$' sh "$I/gbench2pb.sh" zero.json
bad "gbench2pb: a time that is not a number" 'str.json: BM_sum_list repetition 1: real_time is missing or not a number$' \
	sh "$I/gbench2pb.sh" str.json
bad "gbench2pb: an unknown time_unit" 'ps.json: BM_sum_list repetition 1: time_unit "ps" is not ns, us, ms or s$' sh "$I/gbench2pb.sh" ps.json
bad "gbench2pb: times under 1 ns" 'sub.json: BM_sum_list repetition 0: real_time is 0.0001 ns: below 1 ns' sh "$I/gbench2pb.sh" sub.json
bad "gbench2pb: one benchmark" 'one.json: 1 benchmark\(s\): an A/B comparison needs 2$' sh "$I/gbench2pb.sh" one.json
bad "gbench2pb: three without --a, --b" 'three.json: 3 benchmarks \("BM_sum_list", "BM_sum_vector", "BM_other"\): choose the arms with --a NAME --b NAME$' \
	sh "$I/gbench2pb.sh" three.json
bad "gbench2pb: an unknown --a" 'no benchmark "BM_nope" \(it has "BM_sum_list", "BM_sum_vector"\)$' \
	sh "$I/gbench2pb.sh" --a BM_nope --b BM_sum_list "$G"
bad "gbench2pb: files with other arms" 'one.json: 1 benchmark' sh "$I/gbench2pb.sh" "$G" one.json
bad "gbench2pb: one file twice" 'gbench.json: given twice$' sh "$I/gbench2pb.sh" "$G" "$G"
bad "gbench2pb: a missing file" '^gbench2pb: nothere.json: cannot read$' sh "$I/gbench2pb.sh" nothere.json
fails 2 '^gbench2pb: --time is real or cpu' "gbench2pb --time wall: usage" sh "$I/gbench2pb.sh" --time wall "$G"
fails 2 '^gbench2pb: no Google Benchmark JSON file' "gbench2pb: no file: usage" sh "$I/gbench2pb.sh"
fails 2 '^gbench2pb: --a and --b go together' "gbench2pb: --a alone: usage" sh "$I/gbench2pb.sh" --a BM_sum_list "$G"
if [ -w /dev/full ]; then
	fails 1 '^gbench2pb: write error on standard output$' "gbench2pb >/dev/full: one line, exit 1" \
		sh -c 'sh "$1" "$2" >/dev/full' sh "$I/gbench2pb.sh" "$G"
else
	skip "no /dev/full"
fi
# the real thing: a two-function benchmark built with g++ and libbenchmark
if command -v g++ >/dev/null 2>&1 && [ -f /usr/include/benchmark/benchmark.h ]; then
	# the benchmark is the test's own: its build is checked with the import
	g++ -O2 -o bench bench.cc -lbenchmark -lpthread 2>g++.err
	built="$?:$(head -n 3 g++.err)"
	for k in 1 2; do
		./bench --benchmark_repetitions=4 --benchmark_min_time=0.01 --benchmark_out="live-$k.json" \
			--benchmark_out_format=json >/dev/null 2>&1
	done
	run sh "$I/gbench2pb.sh" live-1.json live-2.json
	cp "$T/out" live-gb.tsv
	is "$built|$rc:$(cat "$T/err"):$(meta runs live-gb.tsv):$(row_count live-gb.tsv)" "0:|0::8:16" \
		"g++ builds a two-function benchmark with libbenchmark; gbench2pb: two fresh runs of 4 repetitions: 8 runs"
	jq -r --arg f "$T/live-1.json" '.benchmarks[] | select(.run_type == "iteration") | "\(input_filename) \(.run_name) \(.real_time | round)"' \
		live-1.json live-2.json | awk '{ print $2, $3 }' | sort >want
	rak live-gb.tsv | awk '{ print ($2 == "A" ? "BM_sum_list" : "BM_sum_vector"), $3 }' | sort >got
	is_file got want "... every ns a fresh repetition's real_time (against jq)"
	analysed "gbench2pb, fresh" live-gb.tsv
else
	skip "g++ or libbenchmark-dev not installed"; skip "no fresh Google Benchmark JSON"
	skip "no fresh Google Benchmark JSON"
fi

# ===== pytest-benchmark =====
P=$H/pytest-benchmark.json
run sh "$I/pytest-benchmark2pb.sh" "$P"
cp "$T/out" pt.tsv
ran_ok "pytest-benchmark2pb: the captured file: exit 0, stderr empty"
run pb-pair pt.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::10" "pb-pair accepts it: 1 run of 10 rounds"
jq -r '.benchmarks[] | (if .name == "test_plus" then "A" else "B" end) as $arm | .stats.data[] | "1 \($arm) \(. * 1e9 | round)"' "$P" |
	sort >want
rak pt.tsv | sort >got
is_file got want "every ns is a round's time (s) x 1e9, rounded (all 20, against jq)"
is "$(rows pt.tsv | awk -F'\t' '$4 == "B" { print $7 }' | tr '\n' ' ')" \
	"$(jq -r '.benchmarks[1].stats.data | map(. * 1e9 | round | tostring) | join(" ")' "$P") " "pair i is round i, in the file's order"
# B's rounds in the stream (whole ns) against the file's stats.mean (s):
# rounding moves a mean by half a ns at most
within "$(rows pt.tsv | awk -F'\t' '$4 == "B" { s += $7; k++ } END { if (k) printf "%.3f\n", s / k }')" \
	"$(jq '.benchmarks[1].stats.mean * 1e9' "$P")" 0.5 \
	"the rounds are per-iteration times: B's mean in the stream is stats.mean (iterations $(jq '.benchmarks[1].stats.iterations' "$P"))"
is "$(meta cmd_a pt.tsv)|$(meta cmd_b pt.tsv)" "test_join.py::test_plus|test_join.py::test_join" "cmd_a and cmd_b: the tests' full names, in the file's order"
blocked pytest-benchmark2pb pt.tsv pytest-benchmark
is "$(meta runs pt.tsv):$(meta pairs pt.tsv)" "1:10" "runs 1 (one file), pairs 10 (rounds)"
like "$(meta note pt.tsv)" '^1 run: an interval over runs needs 2 or more' "one file: a note says what one run means"
is "$(meta iterations pt.tsv):$(meta host pt.tsv):$(meta python pt.tsv)" "A 1, B 3 per round:vm:CPython 3.11.2" \
	"iterations, host, python from the file"
like "$(meta source pt.tsv)" '^pytest-benchmark JSON \(pytest-benchmark 3\.2\.2\); run k is file k: ' "source: the tool's version"
like "$(sed -n 's/^# run: 1 //p' pt.tsv)" '^source=.*pytest-benchmark.json date=[0-9T:.-]+ host=vm$' "run comment: the file, its date, the host last"
# a second file: another datetime, rounds 1% longer (a copy is refused, t/1464)
jq '.datetime = "2026-12-01T09:54:02.120004" | .benchmarks[].stats.data |= map(. * 1.01)' "$P" >p2.json
run sh "$I/pytest-benchmark2pb.sh" "$P" p2.json
cp "$T/out" pt2.tsv
is "$rc:$(meta runs pt2.tsv)" "0:2" "two files: two runs"
faster pytest-benchmark2pb pt2.tsv
run sh "$I/pytest-benchmark2pb.sh" --a test_join --b test_join.py::test_plus "$P"
is "$rc:$(meta cmd_a "$T/out"):$(rows "$T/out" | awk -F'\t' '$5 == 1 { print $4 }' | sort -u)" "0:test_join.py::test_join:B" \
	"--a by name, --b by full name: arms swapped, B (listed first) at pos 1"
jq '.benchmarks[0].stats.data |= .[:7]' "$P" >short.json
run sh "$I/pytest-benchmark2pb.sh" short.json
is "$rc:$(cat "$T/err"):$(meta pairs "$T/out")" "0:pytest-benchmark2pb: warning: run 1: 3 round(s) of B beyond the other arm's 7 left out:7" \
	"fewer rounds of A: one warning, 7 pairs"
jq '.benchmarks |= map(.stats.data |= map(. / 10))' "$P" >tiny.json
run sh "$I/pytest-benchmark2pb.sh" tiny.json
like "$rc:$(cat "$T/err")" '^0:pytest-benchmark2pb: warning: values down to [0-9.]+ ns: rounding to whole ns costs up to ' \
	"rounds under 1 us: a warning says what rounding costs"
# bad input
jq 'del(.benchmarks[0].stats.data)' "$P" >nodata.json
jq '.benchmarks[0].stats.data[3] = -1' "$P" >neg.json
jq '.benchmarks[0].stats.data[3] = null' "$P" >null.json
jq '.benchmarks += [.benchmarks[0] | .fullname = "other.py::test_plus"]' "$P" >dup.json
jq '.benchmarks |= .[:1]' "$P" >single.json
bad "pytest-benchmark2pb: not JSON" '^pytest-benchmark2pb: bad.json: not JSON: ' sh "$I/pytest-benchmark2pb.sh" bad.json
bad "pytest-benchmark2pb: an empty file" 'empty.json: no JSON value in it' sh "$I/pytest-benchmark2pb.sh" empty.json
bad "pytest-benchmark2pb: a Google Benchmark file" 'gbench.json: no "machine_info": not a pytest-benchmark JSON file' \
	sh "$I/pytest-benchmark2pb.sh" "$G"
bad "pytest-benchmark2pb: no per-round data names the option" \
	'nodata.json: test_join.py::test_plus: no per-round times \(stats.data\): write the file with --benchmark-json=FILE' \
	sh "$I/pytest-benchmark2pb.sh" nodata.json
bad "pytest-benchmark2pb: a negative round" 'neg.json: test_join.py::test_plus: stats.data\[3\] is -1: not a time above 0$' \
	sh "$I/pytest-benchmark2pb.sh" neg.json
bad "pytest-benchmark2pb: a round that is not a number" 'null.json: test_join.py::test_plus: stats.data\[3\] is not a number$' \
	sh "$I/pytest-benchmark2pb.sh" null.json
bad "pytest-benchmark2pb: a name twice wants the full name" \
	'dup.json: 2 benchmarks named "test_plus": give the full name \("test_join.py::test_plus", "other.py::test_plus"\)$' \
	sh "$I/pytest-benchmark2pb.sh" --a test_plus --b test_join dup.json
bad "pytest-benchmark2pb: three without --a, --b" 'dup.json: 3 benchmarks .*: choose the arms with --a NAME --b NAME$' \
	sh "$I/pytest-benchmark2pb.sh" dup.json
bad "pytest-benchmark2pb: one benchmark" 'single.json: 1 benchmark\(s\): an A/B comparison needs 2$' \
	sh "$I/pytest-benchmark2pb.sh" single.json
bad "pytest-benchmark2pb: the same benchmark twice, by two names" 'the same benchmark, "test_join.py::test_plus"$' \
	sh "$I/pytest-benchmark2pb.sh" --a test_plus --b test_join.py::test_plus "$P"
bad "pytest-benchmark2pb: files with other arms" 'the arms are "test_join" and "test_plus", not "test_plus" and "test_join"' \
	sh "$I/pytest-benchmark2pb.sh" "$P" "$(jq '.benchmarks |= reverse' "$P" >rev.json && echo rev.json)"
fails 2 '^pytest-benchmark2pb: no pytest-benchmark JSON file' "pytest-benchmark2pb: no file: usage" sh "$I/pytest-benchmark2pb.sh"
# the real thing: pytest with pytest-benchmark (Debian's, for the python3 that has it)
PYB=
for py in python3 /usr/bin/python3; do
	command -v "$py" >/dev/null 2>&1 && "$py" -c 'import pytest, pytest_benchmark' 2>/dev/null && { PYB=$py; break; }
done
if [ -n "$PYB" ]; then
	# three runs: with two, a t interval has df = 1 and a loaded machine can
	# stretch it over 1 even for a fivefold effect
	for k in 1 2 3; do
		(cd pt && PYTHONDONTWRITEBYTECODE=1 "$PYB" -m pytest -q -p no:cacheprovider --benchmark-json="$T/live-$k.json" \
			--benchmark-min-rounds=10 --benchmark-max-time=0.00001 --benchmark-warmup=off test_join.py >"$T/pytest-$k.log" 2>&1)
	done
	run sh "$I/pytest-benchmark2pb.sh" live-1.json live-2.json live-3.json
	cp "$T/out" live-pt.tsv
	is "$rc:$(cat "$T/err"):$(meta runs live-pt.tsv)" "0::3" "pytest-benchmark2pb: three fresh pytest runs: 3 runs"
	[ "$rc" = 0 ] || diag "$(tail -n 5 pytest-1.log)"
	jq -r '(input_filename | capture("live-(?<k>[0-9])").k) as $k | .benchmarks[]
		| (if .name == "test_plus" then "A" else "B" end) as $arm | .stats.data[] | "\($k) \($arm) \(. * 1e9 | round)"' \
		live-1.json live-2.json live-3.json | sort >want
	rak live-pt.tsv | sort >got
	is_file got want "... every ns a fresh round's time (against jq)"
	analysed "pytest-benchmark2pb, fresh" live-pt.tsv
else
	skip "pytest-benchmark not installed (Debian package python3-pytest-benchmark)"
	skip "no fresh pytest-benchmark JSON"; skip "no fresh pytest-benchmark JSON"
fi

# ===== go test -bench =====
O=$H/gotest.txt
run sh "$I/gotest2pb.sh" "$O"
cp "$T/out" go.tsv
ran_ok "gotest2pb: the captured output: exit 0, stderr empty"
run pb-pair go.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::5" "pb-pair accepts it: -count 5, 5 runs of 1 pair"
awk '/^BenchmarkSumList-2 / { print ++a, "A", $3 } /^BenchmarkSumSlice-2 / { print ++b, "B", $3 }' "$O" | sort >want
rak go.tsv | sort >got
is_file got want "every ns is a count's ns/op; run k = count k (all 10, against awk)"
is "$(meta cmd_a go.tsv)|$(meta cmd_b go.tsv)" "BenchmarkSumList-2 in pbsum|BenchmarkSumSlice-2 in pbsum" "cmd_a and cmd_b: the benchmarks and the package"
blocked gotest2pb go.tsv "go test -bench"
like "$(meta pairing go.tsv)" 'not fresh processes' "pairing: the counts share one process"
is "$(meta runs go.tsv):$(meta pairs go.tsv | cut -d' ' -f1):$(meta iterations go.tsv)" "5:1:A 2000, B 2000 per count (b.N of the first count)" \
	"runs 5, pairs 1, iterations"
is "$(meta goos go.tsv):$(meta cpu go.tsv)" "linux/amd64:AMD EPYC" "goos and cpu from the output"
is "$(grep -c '^# run: [1-5] source=.*gotest.txt count=[1-5]$' go.tsv)" 5 "one '# run:' comment per count"
faster gotest2pb go.tsv
run sh "$I/gotest2pb.sh" <"$O"
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:10:$(rows go.tsv | md5sum)" "the standard input reads the same"
like "$(meta source "$T/out")" 'standard input runs 1 to 5$' "... and is named so"
run sh "$I/gotest2pb.sh" --a BenchmarkSumSlice --b BenchmarkSumList "$O"
is "$rc:$(meta cmd_a "$T/out"):$(rows "$T/out" | awk -F'\t' '$5 == 1 { print $4 }' | sort -u)" "0:BenchmarkSumSlice-2 in pbsum:B" \
	"--a and --b without the -GOMAXPROCS suffix: arms swapped, B (ran first) at pos 1"
# a second output: its ns/op 1% longer (a copy is refused, t/1464)
awk '$4 == "ns/op" { $3 = int($3 * 1.01) } 1' "$O" >'two=files.txt'
run sh "$I/gotest2pb.sh" "$O" 'two=files.txt'
is "$rc:$(meta runs "$T/out")" "0:10" "two outputs (one named NAME=VALUE, not an awk assignment): 10 runs"
# what go test prints around results: -benchmem columns, -v, a benchmark that prints, CRLF
sed 's/ ns\/op$/ ns\/op\t    3320 B\/op\t       9 allocs\/op/' "$O" >mem.txt
run sh "$I/gotest2pb.sh" mem.txt
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:10:$(rows go.tsv | md5sum)" "-benchmem columns are left out"
awk '/^BenchmarkSumList-2 / { print "BenchmarkSumList-2   \thello from the benchmark"; print "hello again"
	sub(/^BenchmarkSumList-2 +\t/, "    "); print; print "--- BENCH: BenchmarkSumList-2"; print "    x_test.go:9: a log line"; next } 1' "$O" >printed.txt
run sh "$I/gotest2pb.sh" printed.txt
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:10:$(rows go.tsv | md5sum)" "a benchmark that prints: the name, its output, then the result line"
awk '/^BenchmarkSumList-2 / && !l++ { print "BenchmarkSumList" } /^BenchmarkSumSlice-2 / && !s++ { print "BenchmarkSumSlice" } 1' "$O" >v.txt
run sh "$I/gotest2pb.sh" v.txt
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:10:$(rows go.tsv | md5sum)" "go test -v: the bare name lines before the results"
sed 's/$/\r/' "$O" >crlf.txt
run sh "$I/gotest2pb.sh" crlf.txt
is "$rc:$(row_count "$T/out"):$(rows "$T/out" | md5sum)" "0:10:$(rows go.tsv | md5sum)" "CRLF line ends read the same"
awk '/^BenchmarkSumList/ && ++n == 5 { next } 1' "$O" >fewer.txt
run sh "$I/gotest2pb.sh" fewer.txt
is "$rc:$(cat "$T/err"):$(meta runs "$T/out")" "0:gotest2pb: warning: fewer.txt: counts of A 4, of B 5: 4 runs kept:4" \
	"one count fewer of A: one warning, 4 runs"
sed 's/^\(BenchmarkSumSlice-2 *\t *2000\t *\)[0-9]*/\11.25/' "$O" >tiny.txt
run sh "$I/gotest2pb.sh" tiny.txt
like "$rc:$(cat "$T/err"):$(rows "$T/out" | awk -F'\t' '$4 == "B" { print $7 }' | sort -u)" \
	'^0:gotest2pb: warning: values down to 1.25 ns: rounding to whole ns costs up to 40% of a value:1$' \
	"1.25 ns/op: rounded to 1, with a warning that says what that costs"
# bad input
sed 's/^\(BenchmarkSumSlice-2 *\t *2000\t *\)[0-9]*/\10.25/' "$O" >sub.txt
sed '8s/ [0-9]* ns\/op/ 12x ns\/op/' "$O" >nan.txt
printf 'PASS\nok  \tpbsum\t0.1s\n' >none.txt
grep -v SumSlice "$O" >one.txt
{ cat "$O"; printf 'pkg: other\nBenchmarkSumList-2  \t 2000\t 5 ns/op\n'; } >twopkg.txt
{ cat "$O"; printf '%s\n' '--- FAIL: BenchmarkSumSlice' '    sum_test.go:30: broken'; } >failed.txt
grep -v '^BenchmarkSumSlice' "$O" | { cat; printf '%s\n' '--- FAIL: BenchmarkSumSlice' '    sum_test.go:30: broken'; } >failed-only.txt
printf 'BenchmarkA-1 \t 10\t 5 ns/op\nBenchmarkA-2 \t 10\t 5 ns/op\nBenchmarkB-1 \t 10\t 5 ns/op\n' >cpus.txt
bad "gotest2pb: under 1 ns/op" 'sub.txt: line 10: BenchmarkSumSlice-2: 0.25 ns/op is below 1 ns, too small for whole ns' sh "$I/gotest2pb.sh" sub.txt
bad "gotest2pb: a value that is not a number" 'nan.txt: line 8: BenchmarkSumList-2: 12x ns/op is not a number$' sh "$I/gotest2pb.sh" nan.txt
bad "gotest2pb: no result line" 'none.txt: no benchmark result .*not the output of go test -bench$' sh "$I/gotest2pb.sh" none.txt
bad "gotest2pb: an empty file" '^gotest2pb: empty.json: empty: not the output of go test -bench$' sh "$I/gotest2pb.sh" empty.json
bad "gotest2pb: empty standard input" '^gotest2pb: standard input: empty' sh -c 'sh "$1" </dev/null' sh "$I/gotest2pb.sh"
bad "gotest2pb: one benchmark" 'one.txt: 1 benchmark \(BenchmarkSumList-2\): an A/B comparison needs 2$' sh "$I/gotest2pb.sh" one.txt
bad "gotest2pb: a name in two packages" 'twopkg.txt: BenchmarkSumList-2 in two packages, pbsum and other' sh "$I/gotest2pb.sh" twopkg.txt
bad "gotest2pb: an arm that failed" 'failed.txt: line 17: BenchmarkSumSlice-2 failed \(--- FAIL\)$' sh "$I/gotest2pb.sh" failed.txt
bad "gotest2pb: an arm that failed before any result" 'failed-only.txt: line 12: BenchmarkSumSlice failed \(--- FAIL\)$' \
	sh "$I/gotest2pb.sh" --a BenchmarkSumList --b BenchmarkSumSlice failed-only.txt
bad "gotest2pb: a name that matches one per -cpu" 'cpus.txt: BenchmarkA matches 2 benchmarks \(one per -cpu value\)' \
	sh "$I/gotest2pb.sh" --a BenchmarkA --b BenchmarkB cpus.txt
bad "gotest2pb: three without --a, --b" 'cpus.txt: 3 benchmarks \(BenchmarkA-1, BenchmarkA-2, BenchmarkB-1\): choose the arms' \
	sh "$I/gotest2pb.sh" cpus.txt
bad "gotest2pb: an unknown --a" 'no benchmark BenchmarkNope \(it has BenchmarkSumList-2, BenchmarkSumSlice-2\)$' \
	sh "$I/gotest2pb.sh" --a BenchmarkNope --b BenchmarkSumList "$O"
bad "gotest2pb: a missing file" '^gotest2pb: nothere.txt: cannot read$' sh "$I/gotest2pb.sh" nothere.txt
printf 'BenchmarkA-2 \t 10\t 5 ns/op\nBenchmark\033[2JB-2 \t 10\t 7 ns/op\n' >ctl.txt
run sh "$I/gotest2pb.sh" ctl.txt
is "$rc:$(meta cmd_b "$T/out")" "0:Benchmark?[2JB-2" "a control byte in a name is written as ?"
fails 2 '^gotest2pb: --a and --b go together' "gotest2pb: --b alone: usage" sh "$I/gotest2pb.sh" --b x "$O"
if [ -w /dev/full ]; then
	fails 1 '^gotest2pb: write error on standard output$' "gotest2pb >/dev/full: one line, exit 1" \
		sh -c 'sh "$1" "$2" >/dev/full' sh "$I/gotest2pb.sh" "$O"
else
	skip "no /dev/full"
fi
# the real thing: go test -bench -count 5 of the two-benchmark package
if command -v go >/dev/null 2>&1; then
	cache=$(go env GOCACHE 2>/dev/null) || cache=
	case $cache in ''|off) cache=$T/gocache ;; esac
	(cd gosum && env GOCACHE="$cache" GOPATH="$T/gopath" GOFLAGS= GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off \
		go test -run '^$' -bench . -count 5 -benchtime 2000x >"$T/live.txt" 2>&1)
	built=$?   # the package is the test's own: checked with the import
	run sh "$I/gotest2pb.sh" live.txt
	cp "$T/out" live-go.tsv
	is "$built:$rc:$(cat "$T/err"):$(meta runs live-go.tsv):$(row_count live-go.tsv)" "0:0::5:10" \
		"go test -bench . -count 5: exit 0; gotest2pb: a fresh go test: 5 runs"
	[ "$rc" = 0 ] || diag "$(head -n 12 live.txt)"
	awk '/^BenchmarkSumList/ { print ++a, "A", int($3 + 0.5) } /^BenchmarkSumSlice/ { print ++b, "B", int($3 + 0.5) }' live.txt | sort >want
	rak live-go.tsv | sort >got
	is_file got want "... every ns a fresh count's ns/op (against awk)"
	analysed "gotest2pb, fresh" live-go.tsv
else
	skip "go not installed (Debian package golang-go)"; skip "no fresh go test output"
	skip "no fresh go test output"
fi

done_testing

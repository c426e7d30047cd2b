#!/bin/sh
# make demo: pb's main job on a built-in workload, no server needed.
#  1. A/B: A is a 1 ms synthetic workload, B the same with 3 % less work,
#     both served by a worker process (one fresh worker per run); pb-run
#     pairs them in random order in 10 runs, and the analysis says how sure
#     it is that B is faster.
#  2. Sensitivity: A/A with known delays on B; which delays did every run
#     see, and did any run "see" a delay of 0?
#  3. Pictures in demo/ (PNG when gnuplot is there).
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
PATH="$top/bin:$PATH"
W="$top/examples/workload/pb-workload"
out=${PB_DEMO_OUT:-$top/demo}
mkdir -p "$out"

echo "== 1. A/B: is B (970 us of work) faster than A (1000 us)?"
echo "   pb-run --runs 10 --pairs 100 --warmup 20 --worker 'pb-workload --worker --us 1000 --b-us 970'"
pb-run --runs 10 --pairs 100 --warmup 20 --no-shell --quiet \
	--worker "$W --worker --us 1000 --b-us 970" >"$out/raw.tsv"
pb-pair "$out/raw.tsv" >"$out/pairs.tsv"
echo "   pb-pair --by-run raw.tsv | pb-logratio | pb-tint --threshold 1.25 --finding"
pb-pair --by-run "$out/raw.tsv" | pb-logratio | pb-tint --threshold 1.25 --finding >"$out/tint.tsv"
grep -v '^#' "$out/tint.tsv" | cut -f1,2,7,8,9,10,11,13 | sed 's/^/   /'
grep '^# finding' "$out/tint.tsv" | sed 's/^# finding: /   /' | fold -s -w 76 | sed '2,$s/^/   /'
med() { awk -F'\t' -v arm="$1" '!/^#/ && $3 == "measure" && $4 == arm { print $7 }' "$out/raw.tsv" |
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
awk -v a="$(med A)" -v b="$(med B)" 'BEGIN { printf "   truth: 30 us less work; medians A %.1f us, B %.1f us: ratio %.4f\n", a / 1000, b / 1000, a / b }' 
pb-cross "$out/pairs.tsv" | awk -F'\t' '/^#/ { next } !h { h = 1; next }
	{ printf "   paired: %d of %d runs saw B faster; one run of A then one of B: right %d of %d times\n", $9, $1, $3, $2 }'
echo
echo "== 2. Sensitivity: A/A on the 1 ms workload (worker), delays on B"
echo "   pb-sense --delays 0,2us,10us,50us --runs 8 --pairs 100 --worker 'pb-workload --worker --us 1000'"
pb-sense --delays 0,2us,10us,50us --runs 8 --pairs 100 --warmup 10 --quiet --no-shell \
	--resamples 1000 --worker "$W --worker --us 1000" >"$out/sense.tsv"
# a few of its columns: the bootstrap's and the t analysis's verdicts,
# the realized delay and whether each interval held it
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
		printf "   %-9s %-5s %-5s %-8s %-8s %-8s %-10s %-9s\n", "delay_ns", "runs", "seen", "spin_ns", "resolved", "covered", "t_resolved", "t_covered"; next }
	{ printf "   %-9s %-5s %-5s %-8s %-8s %-8s %-10s %-9s\n", $c["delay_ns"], $c["runs"], $c["seen"], $c["spin_ns"],
		$c["resolved"], $c["covered"], $c["t_resolved"], $c["t_covered"] }' "$out/sense.tsv"
grep '^# sense' "$out/sense.tsv" | sed 's/^# sense: /   /' | fold -s -w 76 | sed '2,$s/^/   /'
echo
if command -v gnuplot >/dev/null 2>&1; then
	pb-plot runs -o "$out/runs.png" "$out/pairs.tsv"
	pb-plot trend -o "$out/trend.png" "$out/pairs.tsv"
	pb-plot pairs -o "$out/pairs.png" "$out/pairs.tsv"
	pb-plot sense -o "$out/sense.png" "$out/sense.tsv"
	echo "== 3. Pictures: $out/runs.png trend.png pairs.png sense.png"
else
	echo "== 3. Pictures skipped: gnuplot not found (apt-get install gnuplot-nox)"
fi
echo "   Streams: $out/raw.tsv pairs.tsv tint.tsv sense.tsv"

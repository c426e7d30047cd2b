#!/bin/sh
# make demo: pb's main job on a built-in workload, no server needed.
# A and B run the same 1 ms synthetic workload; pb-run adds a busy-wait of
# 50 us (5 %) to every B observation. Can pb see a 5 % effect, and say how
# sure it is? Then the same analysis on the example study shipped in
# examples/data (simulated runs that differ by ~15 %, B 3 % faster).
set -eu
cd "$(dirname "$0")/.."
PATH="$(pwd)/bin:$PATH"
W=examples/workload/pb-workload
out=${TMPDIR:-/tmp}/pb-demo.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT

echo "== 1. pb-run: 10 runs x 100 pairs of a 1 ms workload, B delayed by 50 us"
echo "   pb-run --no-shell --runs 10 --pairs 100 --warmup 20 --delay 50us -- '$W --us 1000'"
pb-run --no-shell --runs 10 --pairs 100 --warmup 20 --delay 50us -- "$W --us 1000" >"$out/raw.tsv"
echo "   $(grep -c '	measure	' "$out/raw.tsv") measured observations in $out/raw.tsv"
echo
echo "== 2. runs as the unit: pb-pair --by-run | pb-logratio | pb-tint --threshold 1.25 --finding"
pb-pair --by-run "$out/raw.tsv" | pb-logratio | pb-tint --threshold 1.25 --finding >"$out/tint.tsv"
grep -v '^#' "$out/tint.tsv" | cut -f1,2,7,8,9,10,11,13
grep '^# finding' "$out/tint.tsv"
awk -F'\t' '!/^#/ && $3 == "measure" && $4 == "A" { print $7 }' "$out/raw.tsv" | sort -n |
	awk '{ v[NR] = $1 } END { a = v[int((NR + 1) / 2)] / 1000
		printf "   truth: B = A + 50 us; A takes %.0f us (1 ms of work, the rest is process start-up),\n", a
		printf "   so the true ratio is %.0f/%.0f = %.4f\n", a, a + 50, a / (a + 50) }' 
echo
echo "== 3. the shipped example study: examples/data/raw-ab.tsv"
pb-pair --by-run examples/data/raw-ab.tsv | pb-logratio | pb-tint --threshold 1.25 --finding |
	grep '^# finding'

#!/bin/sh
# Bench section (issue 19): the large jobs. pb-pair on 10^7 pairs of a raw
# stream (10 runs of 10^6 pairs, written by awk first, so that only
# pb-pair is timed), and pb-cross on 16000 runs (t/0810-cross.t's). Wall
# time is the median of SPEED_REPS (3) runs; peak RSS from time(1).
# Writes the figures to OUTDIR/fig-*.txt for run.sh's summary.
# Usage: sh examples/bench/speed.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: speed.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
. "$top/examples/bench/lib.sh"
REPS=${SPEED_REPS:-3}
PAIRS=${SPEED_PAIRS:-1000000}   # per run, 10 runs
mkdir -p "$out"

# timed NAME CMD: median wall seconds and the largest peak RSS (KiB) of
# REPS runs of CMD (stdout to /dev/null), as "SECONDS KIB"
timed() {
	: >"$out/$1.times"
	i=0
	while [ "$i" -lt "$REPS" ]; do
		/usr/bin/time -f '%e %M' sh -c "$2" 2>>"$out/$1.times" >/dev/null
		i=$((i + 1))
	done
	s=$(awk '{ print $1 }' "$out/$1.times" | median)
	k=$(awk '$2 > m { m = $2 } END { print m }' "$out/$1.times")
	echo "$s $k"
}

echo "## Large jobs (issue 19)"
echo
awk -v runs=10 -v pairs="$PAIRS" 'BEGIN {
	OFS = "\t"; srand(3)
	print "# pb-run: 0.1.0 pb-run --runs " runs " --pairs " pairs " --warmup 0 -- a b"
	print "# mode: command"; print "# runs: " runs; print "# first_run: 1"
	print "# pairs: " pairs; print "# warmup: 0"
	print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status", "spin_ns"
	for (r = 1; r <= runs; r++) {
		print "# run: " r " start=2026-01-01T00:00:00.000Z pid=1 study=0123456789abcdef host=h"
		for (p = 1; p <= pairs; p++) {
			a = 1000000 + int(rand() * 50000); b = 1000000 + int(rand() * 50000)
			if (rand() < .5) {
				print r, p, "measure", "A", 1, 0, a, 0, 0; print r, p, "measure", "B", 2, 0, b, 0, 0
			} else {
				print r, p, "measure", "B", 1, 0, b, 0, 0; print r, p, "measure", "A", 2, 0, a, 0, 0
			}
		}
	} }' >"$out/raw-10m.tsv"
set -- $(timed pair "pb-pair $out/raw-10m.tsv")
pair_s=$1 pair_k=$2
rows=$(pb-pair "$out/raw-10m.tsv" | grep -vc '^#')
rm -f "$out/raw-10m.tsv"
echo "$pair_s $pair_k" >"$out/fig-pair-s.txt"

awk 'BEGIN { srand(16000); print "run\tn\ta\tb\td\tdelay"; for (r = 1; r <= 16000; r++) {
	a = 1e6 + int(rand() * 1e5); b = a + int(rand() * 2000) - 900
	print r "\t100\t" a "\t" b "\t" b - a "\t0" } }' >"$out/cross-16k.tsv"
set -- $(timed cross "pb-cross $out/cross-16k.tsv")
cross_s=$1 cross_k=$2
echo "$cross_s $cross_k" >"$out/fig-cross.txt"

echo "Median wall time of $REPS runs; peak RSS, the largest of them."
echo
echo "| job | wall time | peak RSS | note |"
echo "|---|---|---|---|"
echo "| pb-pair, $((10 * PAIRS)) pairs (10 runs; $(awk -v p="$PAIRS" 'BEGIN { print 20 * p }') raw rows) | $pair_s s | $(awk -v k="$pair_k" 'BEGIN { printf "%.1f MiB", k / 1024 }') | $((rows - 1)) pair rows written |"
echo "| pb-cross, 16000 runs (255984000 cross-run estimates) | $cross_s s | $(awk -v k="$cross_k" 'BEGIN { printf "%.1f MiB", k / 1024 }') | |"
echo
echo "Targets (issue 19): pb-pair <= 2 s with memory that follows the open pairs"
echo "(here one at a time), not the input; pb-cross <= 1 s, O(runs) memory."
echo

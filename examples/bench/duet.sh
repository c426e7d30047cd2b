#!/bin/sh
# Bench section (issue 31): duet pairs (pb-run --duet: A and B at the
# same moment, each on its own CPU) against sequential pairs, at equal
# wall time, on a CPU-bound workload (pb-workload --cpu-us 2000), under
# (a) a quiet machine, (b) bursts that take every CPU at once (burst
# --bursts: a SCHED_FIFO thread a CPU, DUET_BURST every DUET_PERIOD)
# and (c) a hog on CPU 0 (burst --hog 0). Each design gets the same
# --max-time a study (DUET_TIME) with DUET_PAIRS pairs a run, so it
# measures as many runs as fit. For each condition and design,
# DUET_STUDIES A/A studies (interval widths, false positives) and as
# many with --delay 25us on B (the recovered delay).
# DUET=auto (the default) measures duet where pb-run has --duet; DUET=0
# leaves it out, DUET=1 insists.
# Usage: sh examples/bench/duet.sh OUTDIR  (Markdown on stdout)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/examples/bench/lib.sh"
bench_init "$@"
STUDIES=${DUET_STUDIES:-10} PAIRS=${DUET_PAIRS:-10} TIME=${DUET_TIME:-3s}
[ "${BENCH_QUICK:-0}" = 1 ] && STUDIES=${DUET_STUDIES:-3} TIME=${DUET_TIME:-1200ms}
PERIOD=${DUET_PERIOD:-37ms} BURST=${DUET_BURST:-6ms} DELAY=25us
[ -x "$W" ] || { echo "duet.sh: no $W: run make first" >&2; exit 1; }

echo "## Duet against sequential pairs (issue 31)"
echo
if [ "$(uname -s)" != Linux ] || [ "$(getconf _NPROCESSORS_ONLN)" -lt 2 ]; then
	echo "Needs Linux and two CPUs: not measured here."
	echo
	exit 0
fi
duet=${DUET:-auto}
if [ "$duet" = auto ]; then
	pb-run --list-options | grep -q '^--duet' && duet=1 || duet=0
fi
designs=sequential
[ "$duet" = 1 ] && designs="sequential duet"

cc -O2 -std=c11 -D_XOPEN_SOURCE=700 -I"$top/lib" -o "$out/burst" "$top/examples/bench/burst.c" \
	"$top/lib/libpb.a" -lm -pthread
# The interference: started before a condition, stopped after it, and
# bounded by --seconds besides, so it never outlives this script.
noise_pid=
noise_stop() {
	[ -z "$noise_pid" ] || { kill "$noise_pid" 2>/dev/null || :; wait "$noise_pid" 2>/dev/null || :; }
	noise_pid=
}
trap noise_stop EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
# noise_start CONDITION: $noise_why empty when it runs, else why not
noise_start() {
	noise_why=
	case $1 in
	quiet) return 0 ;;
	bursts) set -- --bursts --period "$PERIOD" --burst "$BURST" ;;
	hog) set -- --hog 0 ;;
	esac
	"$out/burst" "$@" --seconds 3600 2>"$out/duet-noise.err" & noise_pid=$!
	sleep 0.3
	kill -0 "$noise_pid" 2>/dev/null ||
		{ noise_pid=; noise_why=$(head -n 1 "$out/duet-noise.err"); noise_why=${noise_why:-burst ended}; }
}

now_ns() { date +%s%N; }
# median_ns: lib.sh's median, but whole to the ns (no %g rounding)
median_ns() { sort -g | awk '{ v[NR] = $1 } END { printf "%.1f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# study COND DESIGN KIND SEED: one study; one line of its figures:
# "wall_s pairs runs width_runs excl_runs width_pairs excl_pairs median_d"
study() {
	f=$out/duet-$1-$2-$3-$4
	set -- "$2" "$3" "$4"
	d=
	[ "$1" = duet ] && d=--duet
	dl=
	[ "$2" = delay ] && dl="--delay $DELAY"
	t0=$(now_ns)
	# shellcheck disable=SC2086
	pb-run $d $dl --runs 10000 --pairs "$PAIRS" --warmup 3 --max-time "$TIME" --quiet \
		--no-shell --seed "$3" -- "$W --cpu-us 2000" >"$f.raw.tsv" 2>"$f.err" || return 1
	t1=$(now_ns)
	pb-pair --by-run --stat lr-median "$f.raw.tsv" >"$f.byrun.tsv" 2>>"$f.err" &&
		pb-tint "$f.byrun.tsv" >"$f.runs.tsv" 2>>"$f.err" &&
		pb-pair "$f.raw.tsv" >"$f.pairs.tsv" 2>>"$f.err" &&
		pb-logratio "$f.pairs.tsv" 2>>"$f.err" | pb-tint >"$f.pt.tsv" 2>>"$f.err" || return 1
	awk -v t0="$t0" -v t1="$t1" -v n="$(column d "$f.pairs.tsv" | wc -l)" \
		-v runs="$(field n "$f.runs.tsv")" -v md="$(column d "$f.pairs.tsv" | median_ns)" \
		-v rl="$(field ratio_lo "$f.runs.tsv")" -v rh="$(field ratio_hi "$f.runs.tsv")" \
		-v pl="$(field ratio_lo "$f.pt.tsv")" -v ph="$(field ratio_hi "$f.pt.tsv")" 'BEGIN {
		printf "%.3f %d %d %.6f %d %.6f %d %s\n", (t1 - t0) / 1e9, n, runs,
			rh - rl, (rl > 1 || rh < 1), ph - pl, (pl > 1 || ph < 1), md }'
}

# cell COND DESIGN: every study of one cell, its lines in one file
cell() {
	: >"$out/duet-$1-$2.txt"
	s=1
	while [ "$s" -le "$STUDIES" ]; do
		for kind in aa delay; do
			r=$(study "$1" "$2" "$kind" "$s") ||
				r="failed $(grep -v '^#' "$out/duet-$1-$2-$kind-$s.err" | head -n 1)"
			echo "$kind $r" >>"$out/duet-$1-$2.txt"
		done
		s=$((s + 1))
	done
}

# row COND DESIGN: the cell's table row; its median A/A width (runs) in
# $out/fig-duet-COND-DESIGN.txt for the width ratio
row() {
	awk -v c="$1" -v d="$2" -v delay="$(echo "$DELAY" | sed 's/us$//')" -v fig="$out/fig-duet-$1-$2.txt" '
	function med(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	$2 == "failed" { bad++; if (why == "") { why = $0; sub(/^[a-z]* failed /, "", why) } next }
	$1 == "aa" { na++; wall += $2; pairs += $3; runs += $4; wr[na] = $5; fr += $6; wp[na] = $7; fp += $8 }
	$1 == "delay" { nd++; e = $9 / 1000 - delay; err[nd] = e; ae = e < 0 ? -e : e; if (ae > worst) worst = ae }
	END {
		if (!na || !nd) { printf "| %s | %s | failed: %s | | | | | |\n", c, d, why; exit }
		m = med(wr, na); mp = med(wp, na); print m, mp > fig
		printf "| %s | %s | %.1f s, %.1f runs, %d pairs%s | %.4f | %d of %d | %.4f | %d of %d | %+.2f us (worst %.2f) |\n",
			c, d, wall / na, runs / na, pairs / na, bad ? sprintf(" (%d studies failed: %s)", bad, why) : "",
			m, fr, na, mp, fp, na, med(err, nd), worst }' "$out/duet-$1-$2.txt"
}

echo "\`pb-workload --cpu-us 2000\` (2 ms of CPU time, which interference slows) in"
echo "command mode, \`pb-run --runs 10000 --pairs $PAIRS --warmup 3 --max-time $TIME\`: each design"
echo "measures the runs that fit in the same wall time. Per cell $STUDIES A/A studies and"
echo "$STUDIES with \`--delay $DELAY\` on B, seeds 1 to $STUDIES. Bursts: \`burst --bursts --period $PERIOD"
echo "--burst $BURST\` (a SCHED_FIFO thread pinned to each CPU, all spinning at once); hog:"
echo "\`burst --hog 0\` (a plain busy loop on CPU 0)."
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Width: the median over the A/A studies of the 95 % interval's width of the"
echo "time ratio A/B, with the runs as the unit (\`pb-pair --by-run --stat lr-median | pb-tint\`)"
echo "and with the pairs (\`pb-pair | pb-logratio | pb-tint\`); false positives: the A/A"
echo "intervals that exclude 1 (nominal 5 %). Delay error: the median over the delay"
echo "studies of (median paired d - $DELAY), and the largest |error| of one study."
echo
echo "| condition | design | wall, runs, pairs (mean of a study) | width, runs | false pos., runs | width, pairs | false pos., pairs | delay error | load |"
echo "|---|---|---|---|---|---|---|---|---|"
for cond in quiet bursts hog; do
	noise_start "$cond"
	if [ -n "$noise_why" ]; then
		echo "| $cond | | not measured: $noise_why | | | | | | |"
		continue
	fi
	for design in $designs; do
		l0=$(cut -d' ' -f1 /proc/loadavg)
		cell "$cond" "$design"
		row "$cond" "$design" | sed "s/|\$/| $l0 to $(cut -d' ' -f1 /proc/loadavg) |/"
	done
	noise_stop
done
echo
if [ "$duet" = 1 ]; then
	echo "Width ratio, sequential / duet, at equal wall time (runs as the unit; pairs):"
	for cond in quiet bursts hog; do
		[ -s "$out/fig-duet-$cond-duet.txt" ] && [ -s "$out/fig-duet-$cond-sequential.txt" ] || continue
		cat "$out/fig-duet-$cond-sequential.txt" "$out/fig-duet-$cond-duet.txt" |
			awk -v c="$cond" '{ r[NR] = $1; p[NR] = $2 } END { printf "%s %.2fx (%.2fx);", c, r[1] / r[2], p[1] / p[2] }'
	done | sed 's/;$/./; s/;/; /g'
	echo
	echo
	echo "Target (issue 31) under the bursts: duet's interval at least 3x narrower, A/A"
	echo "false positives at 5 %, the delay within 2 us; under the hog duet is expected to"
	echo "lose (the hog slows one arm of each pair)."
else
	echo "Duet not measured: this pb-run has no --duet (DUET=1 to insist once it has)."
fi
echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
echo

#!/bin/sh
# Bench section (issue 15): what pb-sense says of this machine. The 1 ms
# synthetic worker and the same work as a command (--no-shell), 10 runs
# x 300 pairs: the smallest delay each analysis resolves; then with a CPU
# hog beside the worker, the realized delay against the nominal one and
# how often each analysis's interval holds it; then --delays auto
# --budget 60s on the worker and on gzip -1 of a small file: the grid,
# the answer and the wall time. Every figure with the load average.
# Usage: sh examples/bench/sense.sh OUTDIR (Markdown on stdout).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/examples/bench/lib.sh"
bench_init "$@"
RUNS=10 PAIRS=300 BUDGET=60s
[ "${BENCH_QUICK:-0}" = 1 ] && RUNS=5 PAIRS=100 BUDGET=20s
[ -x "$W" ] || { echo "sense.sh: no $W: run make first" >&2; exit 1; }

load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
meta() { sed -n "s/^# pb-sense\\.$1: //p" "$2"; }
# answer FILE KEY: a resolves line (resolves or t_resolves, and the
# missed or t_missed beside it) as a person reads it
answer() {
	awk -v r="$(meta "$2" "$1")" -v s="$(meta "${2%resolves}missed" "$1")" \
		-v m="$(meta median_ns "$1")" 'BEGIN {
		if (r == "none") { printf "none (up to %s)", s; exit }
		f = r >= 1e6 ? sprintf("%g ms", r / 1e6) : r >= 1e3 ? sprintf("%g us", r / 1e3) : r " ns"
		printf "%s (%.2f %%)%s", f, 100 * r / m, s == "none" ? ", the smallest tried" : sprintf(", not %g us", s / 1e3) }'
}
now() { date +%s; }

echo "## Calibration: what pb-sense resolves on this machine (issue 15)"
echo
echo "$RUNS runs x $PAIRS pairs (30 warm-up), 2000 resamples, level 0.95. 'bootstrap' is"
echo "every run's interval of the median d and the run-block interval above 0;"
echo "'t' the t interval over the runs' median log ratios below parity."
echo
echo "| workload | delays tried | bootstrap resolves | t resolves | workload median | seconds | load |"
echo "|---|---|---|---|---|---|---|"
sense_row() {   # NAME DELAYS PB-SENSE-ARGS...
	name=$1 delays=$2
	shift 2
	l0=$(load) t0=$(now)
	pb-sense --runs "$RUNS" --pairs "$PAIRS" --warmup 30 --seed 1 --quiet --delays "$delays" "$@" \
		>"$out/sense-$name.tsv"
	printf '| %s | %s | %s | %s | %s us | %s | %s to %s |\n' "$name" "$delays" \
		"$(answer "$out/sense-$name.tsv" resolves)" "$(answer "$out/sense-$name.tsv" t_resolves)" \
		"$(awk -v m="$(meta median_ns "$out/sense-$name.tsv")" 'BEGIN { printf "%.1f", m / 1000 }')" \
		"$(($(now) - t0))" "$l0" "$(load)"
}
sense_row worker 0,100ns,200ns,500ns,1us,2us,5us,10us --no-shell --worker "$W --worker --us 1000"
sense_row command 0,1us,2us,5us,10us,20us,50us,100us --no-shell -- "$W --us 1000"
echo

# A CPU hog beside the worker: a bounded busy loop, killed at the end.
echo "### With a CPU hog beside the worker"
echo
timeout 1800 awk 'BEGIN { for (;;) x++ }' &
hog=$!
trap 'kill "$hog" 2>/dev/null' EXIT
l0=$(load)
pb-sense --runs "$RUNS" --pairs "$PAIRS" --warmup 30 --seed 1 --quiet \
	--delays 0,1us,2us,5us,10us,20us,50us,100us,200us --no-shell \
	--worker "$W --worker --us 1000" >"$out/sense-hog.tsv"
l1=$(load)
kill "$hog" 2>/dev/null || :
echo "One busy loop (\`awk 'BEGIN { for (;;) x++ }'\`) on the machine's $(nproc 2>/dev/null || echo '?') cores,"
echo "the 1 ms worker; load $l0 to $l1. spin is the median realized delay."
echo
echo "| delay | spin (realized) | spin - delay | run-block est [lo, hi] | covers | t ratio [lo, hi] | ratio_spin | covers |"
echo "|---|---|---|---|---|---|---|---|"
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ printf "| %s | %s | %s | %s [%s, %s] | %s | %.6f [%.6f, %.6f] | %.6f | %s |\n", $c["delay_ns"], $c["spin_ns"],
		$c["spin_ns"] - $c["delay_ns"], $c["est"], $c["lo"], $c["hi"], $c["covered"], $c["ratio"], $c["ratio_lo"],
		$c["ratio_hi"], $c["ratio_spin"], $c["t_covered"] }' "$out/sense-hog.tsv"
echo
echo "$(meta coverage "$out/sense-hog.tsv" | sed 's/^t/T/')."
meta warning "$out/sense-hog.tsv" | sed 's/^/Warning: /; s/$/./'
echo

# --delays auto within a budget
echo "### --delays auto --budget $BUDGET"
echo
head -c 65536 "$top/share/man/man1/pb-run.1" >"$out/small.txt"
echo "| workload | grid tried | both resolve | bootstrap | t | wall s | load |"
echo "|---|---|---|---|---|---|---|"
auto_row() {   # NAME PB-SENSE-ARGS...
	name=$1
	shift
	l0=$(load) t0=$(now)
	pb-sense --runs "$RUNS" --pairs "$PAIRS" --warmup 30 --quiet --delays auto --budget "$BUDGET" "$@" \
		>"$out/auto-$name.tsv"
	printf '| %s | %s | %s | %s | %s | %s | %s to %s |\n' "$name" \
		"$(meta grid "$out/auto-$name.tsv" | sed 's/ (in the order tried)//')" \
		"$(meta search "$out/auto-$name.tsv" | sed 's/^[^;]*; //')" \
		"$(answer "$out/auto-$name.tsv" resolves)" "$(answer "$out/auto-$name.tsv" t_resolves)" \
		"$(($(now) - t0))" "$l0" "$(load)"
}
auto_row worker --no-shell --worker "$W --worker --us 1000"
auto_row "gzip -1 of 64 KiB" --no-shell -- "gzip -1 -c $out/small.txt"
echo

#!/bin/sh
# Bench section (issue 19): what pb-run --cpu does to the smallest delay
# that every run sees, with and without a CPU hog on the other core.
# pb-sense runs A/A at each of PIN_DELAYS (the delay on B), PIN_RUNS runs
# x PIN_PAIRS pairs, in command mode (--no-shell, a 1 ms workload built
# static, as a command's start-up is then the program's own) and in
# worker mode (1 ms a request). Pinned: pb-run --cpu LAST (the last
# online CPU), the hog (a shell loop) pinned to CPU 0; unpinned, the hog
# is pinned to CPU 0 all the same and pb-run goes where the scheduler
# puts it. Target (issue 19): command mode sees 1 % (10 us) in every run
# with pinning under a hog.
# Usage: sh examples/bench/pin.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: pin.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
DELAYS=${PIN_DELAYS:-0,1us,5us,10us,25us,100us}
RUNS=${PIN_RUNS:-10} PAIRS=${PIN_PAIRS:-300} WARMUP=${PIN_WARMUP:-30}
mkdir -p "$out"
last=$(($(getconf _NPROCESSORS_ONLN) - 1))

echo "## Pinning (issue 19): the smallest delay every run sees"
echo
if [ "$(uname -s)" != Linux ] || [ "$last" -lt 1 ] || ! command -v taskset >/dev/null; then
	echo "Needs Linux, two CPUs and taskset(1): not measured here."
	echo
	exit 0
fi
W=$top/examples/workload/pb-workload
Ws=$out/pb-workload-static
cc=${STATIC_CC:-}
[ -n "$cc" ] || { command -v musl-gcc >/dev/null && cc=musl-gcc || cc=cc; }
$cc -O2 -static -o "$Ws" "$top/examples/workload/pb-workload.c" 2>/dev/null ||
	{ echo "(no static build of pb-workload: the dynamic one is used)"; echo; cp "$W" "$Ws"; }

hog_pid=
hog_start() { taskset -c 0 sh -c 'while :; do :; done' & hog_pid=$!; }
hog_stop() { [ -z "$hog_pid" ] || { kill "$hog_pid" 2>/dev/null; wait "$hog_pid" 2>/dev/null || :; hog_pid=; }; }
trap hog_stop EXIT INT TERM

# resolves FILE KEY: pb-sense's "resolves" answer KEY (resolves or
# t_resolves, with the missed or t_missed beside it) as a person reads it
resolves() {
	awk -v r="$(sed -n "s/^# pb-sense\\.$2: //p" "$1")" \
		-v s="$(sed -n "s/^# pb-sense\\.${2%resolves}missed: //p" "$1")" \
		-v m="$(sed -n 's/^# pb-sense\.median_ns: //p' "$1")" 'BEGIN {
		if (r == "") { printf "(no answer)"; exit }
		if (r == "none") { printf "none (up to %g us)", s / 1e3; exit }
		printf "%g us (%.2f %%)", r / 1e3, 100 * r / m }'
}

# sense MODE PIN HOG: one pb-sense; its answers as three table cells
sense() {
	f=$out/pin-$1-$2-$3
	[ "$3" = yes ] && hog_start
	set -- "$1" "$2"
	[ "$2" = yes ] && set -- "$@" --cpu "$last"
	case $1 in
	command) set -- "$@" --no-shell -- "$Ws --us 1000" ;;
	worker) set -- "$@" --no-shell --worker "$W --worker --us 1000" ;;
	esac
	shift 2
	pb-sense --delays "$DELAYS" --runs "$RUNS" --pairs "$PAIRS" --warmup "$WARMUP" --quiet \
		--seed 19 "$@" >"$f.tsv" 2>"$f.err" || :
	hog_stop
	if grep -q '^# pb-sense\.resolves: ' "$f.tsv"; then
		echo "$(resolves "$f.tsv" resolves) | $(resolves "$f.tsv" t_resolves) |" \
			"$(sed -n 's/^# pb-sense\.false_positives: \([0-9]* of [0-9]*\) .*/\1/p' "$f.tsv")"
	else
		echo "(failed: $(head -c 200 "$f.err")) | |"
	fi
}

echo "pb-sense, $RUNS runs x $PAIRS pairs ($WARMUP warm-up), delays $DELAYS on B;"
echo "pinned: \`pb-run --cpu $last\`; hog: \`taskset -c 0 sh -c 'while :; do :; done'\`."
echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Resolved: the smallest delay that every run saw with the pooled interval"
echo "above 0 (pb-sense's bootstrap analysis), and the t analysis's over runs; the"
echo "share is of the workload's median time."
echo
echo "| mode | pinned | hog on CPU 0 | resolved (bootstrap) | resolved (t over runs) | A/A false positives (runs) |"
echo "|---|---|---|---|---|---|"
for mode in command worker; do
	for pin in no yes; do
		for hog in no yes; do
			r=$(sense "$mode" "$pin" "$hog")
			echo "$r" >"$out/fig-pin-$mode-$pin-$hog.txt"
			echo "| $mode | $pin | $hog | $r |"
		done
	done
done
echo
echo "Target (issue 19): command mode, pinned, under the hog: 10us (1 %) or less, in every run."
echo

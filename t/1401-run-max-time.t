#!/bin/sh
# pb-run's short options (-r -p -w -t, the letters pb-compare uses for the
# same options) and --max-time: no run is started that would end past the
# limit at the pace so far; the head records the limit, the last line why
# the study stopped.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
design() { for k in runs pairs warmup until; do printf '%s=%s ' "$k" "$(meta "$k" "$1")"; done; }
now_ms() { date +%s%3N; }

# --- the short options are the long ones
run pb-run -r 2 -p 3 -w 1 --seed 5 --quiet --no-shell -- "$W --us 10"
saved short.tsv
run pb-run --runs 2 --pairs 3 --warmup 1 --seed 5 --quiet --no-shell -- "$W --us 10"
saved long.tsv
is "$(design short.tsv)" "runs=2 pairs=3 warmup=1 until= " "-r 2 -p 3 -w 1: the design in the head"
is "$(design long.tsv)" "runs=2 pairs=3 warmup=1 until= " "  as --runs 2 --pairs 3 --warmup 1 gives it"
is_count "$(row_count short.tsv)" "$(row_count long.tsv)" "  and as many rows"
run pb-run -r 4 -p 3 -w 0 --until threshold -t 1.5 --quiet --no-shell -- "$W --us 10" "$W --us 10"
is "$rc:$(meta until "$T/out")" "0:threshold 1.5" "-t 1.5 is --threshold 1.5"
fails 2 "^pb-run: unknown option '-b'" "-b is not pb-run's (pb-compare's budget)" \
	pb-run -b 10s -- true

# --- --max-time: runs of about 20 ms, a limit of 300 ms, room for 50 runs.
# A run cannot take less than its two 10 ms busy-waits, so at most 15 fit
# whatever the load; how many fewer depends on the load, so the stop is
# checked against pb-run's own pace p (its stop line's): its n runs took
# n p, no more than t1 - t0 (the wall time outside it, 1 ms for date's
# rounding), and that time and one run more pass the limit. No bound on
# the wall time itself: a loaded machine stretches it.
t0=$(now_ms)
run pb-run --runs 50 --pairs 1 --warmup 0 --max-time 300ms --quiet --no-shell -- \
	"$W --us 10000" "$W --us 10000"
t1=$(now_ms)
saved mt.tsv
nruns=$(grep -c '^# run: ' mt.tsv)
is "$rc:$(meta max_time_ns mt.tsv)" "0:300000000" "--max-time 300ms: exit 0, the limit in the head"
if [ "$nruns" -ge 1 ] && [ "$nruns" -le 15 ]; then ok "it stopped after 1 to 15 runs of 50 ($nruns)"
else not_ok "it stopped after 1 to 15 runs of 50 ($nruns)"; fi
like "$(tail -n 1 mt.tsv)" "^# max_time: stop after run $nruns: the next run would end past --max-time 300\\.0 ms \\(runs take [0-9.]+ m?s\\)$" \
	"the last line: why it stopped, after which run"
# the pace in ms, from "(20.53 ms a run)" or "(1.234 s a run)"
pace=$(tail -n 1 mt.tsv | sed -n 's/.*(runs take \([0-9.]*\) ms)$/\1/p; s/.*(runs take \([0-9.]*\) s)$/\1e3/p')
pace=$(awk -v p="$pace" 'BEGIN { if (p != "") printf "%.17g", p + 0 }')
if nums "$pace" && [ "$nruns" -ge 1 ] &&
   awk -v p="$pace" -v n="$nruns" -v w="$((t1 - t0))" 'BEGIN { exit !(n * p <= w + 1 && w + p > 300) }'
then ok "the stop was due: $nruns runs at its pace fit in the time it ran, one more passes 300 ms"
else not_ok "the stop was due: $nruns runs at its pace fit in the time it ran, one more passes 300 ms"
	diag "pace '$pace' ms, $nruns runs, $((t1 - t0)) ms in all"; fi
is_count "$(row_count mt.tsv)" "$((2 * nruns))" "every run it started is whole"

# --- with --until: the stop line says the limit came first (--min-runs
# 50: an A/A sequence may answer by chance, 5 % by design, and under load
# one did at run 3; it cannot before run 50, and at most 15 runs fit)
run pb-run --runs 50 --min-runs 50 --pairs 1 --warmup 0 --max-time 150ms --until parity --quiet --no-shell -- \
	"$W --us 10000" "$W --us 10000"
saved seq.tsv
nruns=$(grep -c '^# run: ' seq.tsv)
like "$(tail -n 1 seq.tsv)" "^# sequential: stop after run $nruns: the next run would end past --max-time 150\\.0 ms \\(runs take [0-9.]+ ms\\), without an answer \\(--until parity\\)$" \
	"--until parity: the stop line gives --max-time as the reason ($nruns runs)"
is "$(grep -c '^# sequential: stop after run ' seq.tsv):$(grep -c '^# max_time:' seq.tsv)" 1:0 \
	"  and no '# max_time:' line besides the stop line"

# --- the first run is always measured; a limit it passes stops after it
run pb-run --runs 3 --pairs 2 --warmup 0 --max-time 1ms --quiet --no-shell -- "$W --us 2000"
saved one.tsv
is "$rc:$(grep -c '^# run: ' one.tsv)" "0:1" "a limit shorter than a run: one run, then the stop"
like "$(tail -n 1 one.tsv)" '^# max_time: stop after run 1: ' "  said on the last line"

# --- no limit, no line; bad values are usage errors
run pb-run --runs 2 --pairs 1 --warmup 0 --quiet -- true
is "$rc:$(row_count "$T/out"):$(grep -c '^# max_time' "$T/out")" 0:4:0 "without --max-time: 4 rows, no max_time lines"
fails 2 "^pb-run: --max-time must be more than 0 \\(see pb-run --help\\)$" "--max-time 0" \
	pb-run --max-time 0 -- true
fails 2 "^pb-run: --max-time wants a duration such as 250us" "--max-time 5xs" \
	pb-run --max-time 5xs -- true

done_testing

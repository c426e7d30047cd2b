#!/bin/sh
# pb-compare --duet and --duet auto, pb-sense --duet: the studies they
# run are duet studies (pb-run --duet), auto says which design it kept
# and keeps the other pilot beside, and one CPU leaves the sequential
# design with the reason. Which design auto keeps depends on the
# machine: only that its words, files and stream agree is checked.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$(uname -s)" != Linux ] || [ "$ncpu" -lt 2 ] || ! command -v taskset >/dev/null; then
	skip "duet needs Linux, two CPUs and taskset (util-linux): $(uname -s), $ncpu CPUs"
	done_testing; exit
fi
# Budgets only a defect misses; the work is bounded by --runs and --pairs.
B="-b 600s -r 4 -p 4 --no-pictures"
plan_of() { sed -n 's/.*"plan": "\([^"]*\)".*/\1/p' "$1/compare.json" | head -1; }

# --- --duet: every step that measures runs A and B at once
run pb-compare $B --duet --dir on -- "$W --cpu-us 500" "$W --cpu-us 500"
is "$rc:$(meta order on/raw.tsv):$(meta order on/pilot.tsv)" \
	"0:duet:duet" "--duet: the pilot and the study are duet studies"
is "$(rows on/raw.tsv | cut -f5 | sort -u | tr '\n' ' ')$(row_count on/raw.tsv)" "0 $(( 4 * (4 + 1) * 2 ))" \
	"  the study's rows: pos 0, 4 runs x (4 + 1 warm-up) pairs"
like "$(plan_of on)" "; duet: A and B at once\\)" "  the plan line says duet"
like "$(grep -c '^duet_cpu	' on/check.tsv):$(grep -c '^position	' on/check.tsv)" '^1:0$' \
	"  pb-check's duet_cpu in place of position"
like "$(grep ' runs x ' "$T/out")" '^4 runs x 4 duet pairs in ' "  the summary's line of runs says duet pairs"

# what a duet cannot be, refused before anything runs: one line, exit 2
for a in "--duet on -- true false|takes 'auto' or nothing, not 'on'" \
	"--duet --order alternate -- true false|--duet and --order do not go together" \
	"--duet auto --order blocked -- true false|--duet auto and --order do not go together" \
	"--duet auto --resources tree -- true false|--resources tree do not go together" \
	"--duet -- true false true|two arms at once, on two CPUs: not 3" \
	"--duet --worker true --arms 3|two arms at once, on two CPUs: not --arms 3"; do
	args=${a%%|*} why=${a#*|}
	run pb-compare -b 600s $args
	is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(grep -c -F -- "$why" "$T/err")" 2:1:1 \
		"pb-compare $args: exit 2, one line: $why"
done

# --- --duet auto: a second pilot, the design kept, the other beside it
run pb-compare $B --duet auto --dir auto -- "$W --cpu-us 500" "$W --cpu-us 500"
p=$(plan_of auto)
like "$rc:$p" '^0:.*; duet auto: (duet \(A and B at once\)|sequential pairs) kept, less variance for the time \((in sequence|in duet): within [0-9.]+ % at [0-9.]+ [mµn]?s a pair\)' \
	"--duet auto: exit 0, the plan line says which design was kept and the other's figures"
case $p in
*"duet auto: duet"*) want="duet:pilot-sequential.tsv:in sequence" ;;
*) want="random:pilot-duet.tsv:in duet" ;;
esac
other=$(echo "$want" | cut -d: -f2)
is "$(meta order auto/raw.tsv):$other:$(echo "$p" | sed -n 's/.*kept, less variance for the time (\(in [a-z]*\):.*/\1/p')" "$want" \
	"  the study runs the design kept, whose other pilot is $other"
is "$(meta order auto/pilot.tsv)|$(meta order "auto/$other")" \
	"$(meta order auto/raw.tsv)|$(if [ "$other" = pilot-duet.tsv ]; then echo duet; else echo random; fi)" \
	"  pilot.tsv is the kept design's pilot, $other the other's"

# --- one CPU: auto keeps the sequence and says why; --duet alone fails
run taskset -c 0 pb-compare $B --duet auto --dir one -- "$W --cpu-us 500" "$W --cpu-us 500"
like "$rc:$(plan_of one)" '^0:.*duet auto: sequential pairs, as duet cannot run here \(.*two CPUs' \
	"one CPU, --duet auto: a sequential study, and the plan says duet cannot run here"
is "$(meta order one/raw.tsv)" random "  the study is sequential"
run taskset -c 0 pb-compare $B --duet -- "$W --cpu-us 500" "$W --cpu-us 500"
like "$rc:$(wc -l <"$T/err" | tr -d ' '):$(cat "$T/err")" '^[12]:1:pb-compare: .*two CPUs' \
	"one CPU, --duet: one line that says why, a failure"

# --- pb-sense --duet: its studies are duet studies, the delay on B's rows
run pb-sense --duet --runs 3 --pairs 4 --warmup 1 --resamples 200 --raw sense \
	--delays 0,20ms -- "$W --cpu-us 200"
is "$rc:$(row_count "$T/out")" 0:2 "pb-sense --duet: exit 0, a row per delay"
is "$(meta order sense/raw-0.tsv):$(meta order sense/raw-20000000.tsv)" duet:duet \
	"  each delay's raw stream is a duet study"
is "$(rows sense/raw-20000000.tsv | awk -F'\t' '$5 == 0 && (($4 == "B" && $6 == 20000000 && $9 >= $6) ||
	($4 == "A" && $6 == 0))' | wc -l | tr -d ' ')" 30 \
	"  at 20ms: all 30 rows together, the delay spun on B's rows"

done_testing

#!/bin/sh
# pb-check on 400 clean synthetic studies (t/gen/synth, seeds 1 to 400,
# 10 runs x 300 pairs, no defect): each check warns in at most its nominal
# share, 1 - level = 1 %, of them: at most 8 of 400 (the nominal 4 and two
# standard errors of a count of 400 at 1 %, 2 sqrt(400 x 0.01 x 0.99) = 4).
# The seeds fix every study, so the counts are the same on every machine:
# order 2, position 4, carry 5, drift 2, outliers 7, bimodal 2, skew 2,
# warmup, partial and spread 0; pb-check(1) gives the shares over 1400
# seeds.
. "$(dirname "$0")/lib.sh"
G=$D/../gen/synth
N=400
# under memcheck: a few studies, for memory errors only
[ "${PB_VALGRIND:-0}" = 1 ] && N=3
s=1
while [ $s -le $N ]; do
	$G --seed $s | pb-pair 2>/dev/null | pb-check >"$T/check.tsv" || echo "pb-check failed on seed $s" >>"$T/failed"
	# every study gives its rows: a check that wrote nothing would pass
	# below, so each count is of the studies that did ($T/checked)
	if [ "$(rows "$T/check.tsv" | awk -F'\t' '$2 == "ok" || $2 == "warn" || $2 == "n/a"' | wc -l)" -ge 10 ]
	then echo "$s" >>"$T/checked"
	else echo "seed $s: fewer than 10 check rows" >>"$T/failed"; fi
	awk -F'\t' -v s=$s '!/^#/ && $2 == "warn" { sub(/_.*/, "", $1); print s, $1 }' "$T/check.tsv" | sort -u
	s=$((s + 1))
done >"$T/warns"
is "$(cat "$T/failed" 2>/dev/null)" "" "pb-check gave its rows for each of the $N clean studies"
if [ "$N" != 400 ]; then done_testing; exit; fi
# the studies that gave their rows: all 400, or a count of warnings means nothing
m=$(cat "$T/checked" 2>/dev/null | wc -l | tr -d ' ')
for c in order position carry drift warmup outliers partial bimodal spread skew; do
	k=$(awk -v c=$c '$2 == c' "$T/warns" | wc -l | tr -d ' ')
	if [ "$m" -eq 400 ] && [ "$k" -le 8 ]; then ok "$c: warns in $k of $m clean studies (<= 8)"
	else not_ok "$c: warns in $k of $m clean studies (<= 8)"; diag "$m of 400 studies gave their rows"; fi
done
is "$m $(awk '$2 == "partial" || $2 == "warmup" || $2 == "spread"' "$T/warns" | wc -l | tr -d ' ')" "400 0" \
	"partial, warmup and spread: never on these clean studies (no short run; no level change; equal spread)"
done_testing

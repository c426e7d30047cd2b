#!/bin/sh
# Bench section (issue 16): the anytime-valid confidence sequence of
# pb-tint --sequential against peeking at the fixed-n t interval.
# Synthetic sequences of per-run values x ~ N(mu, 1) (examples/bench/
# seq-gen.awk, seeded; no processes), looked at after every run from 2 to
# SEQ_MAX (50): every prefix is one group of pb-tint --group seq,n.
#  - A/A (mu = 0), SEQ_AA sequences (10000): the share whose interval
#    excludes 0 at some look, for the sequence and for the t interval.
#  - mu = 0.5, 1, 3, 10 (x the sd), SEQ_EFF sequences each (2000): stop at
#    the first look whose interval excludes 0 (or at SEQ_MAX); the share
#    whose interval at that stop holds mu, the share stopped, the mean
#    number of runs at the stop.
# Usage: sh examples/bench/sequential.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: sequential.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
gen=$top/examples/bench/seq-gen.awk
AA=${SEQ_AA:-10000} EFF=${SEQ_EFF:-2000} MAX=${SEQ_MAX:-50}
mkdir -p "$out"

# looks SEQS MU SEED METHOD: pb-tint's rows for every prefix (2..MAX).
looks() {
	awk -v seed="$3" -v seqs="$1" -v nmin=2 -v nmax="$MAX" -v mu="$2" -f "$gen" |
		pb-tint --column x --group seq,n $4 2>/dev/null | grep -v '^#' | tail -n +2
}
# share P N: "p ± se" in %
share() { awk -v c="$1" -v n="$2" 'BEGIN { p = c / n; printf "%.2f ± %.2f", 100 * p, 100 * sqrt(p * (1 - p) / n) }'; }
# ever FILE: sequences whose interval excludes 0 at some look (lo, hi are
# fields 9, 10; empty while unbounded, which excludes nothing)
ever() { awk -F'\t' '$9 != "" && ($9 > 0 || $10 < 0) { hit[$1] = 1 } END { n = 0; for (s in hit) n++; print n }' "$1"; }
# stopped FILE MU: "covered stopped runs" at the first look excluding 0
stopped() {
	awk -F'\t' -v mu="$2" -v max="$MAX" '
		$1 in done { next }
		$9 != "" && ($9 > 0 || $10 < 0 || $2 == max) {
			done[$1] = 1; n++; runs += $2; cov += ($9 <= mu && mu <= $10)
			stop += ($9 > 0 || $10 < 0) }
		END { printf "%d %d %d %.2f\n", n, cov, stop, runs / n }' "$1"
}

t0=$(date +%s)
looks "$AA" 0 1 --sequential >"$out/seq-aa-cs.tsv"
looks "$AA" 0 1 --no-sequential >"$out/seq-aa-t.tsv"
cs=$(ever "$out/seq-aa-cs.tsv") tt=$(ever "$out/seq-aa-t.tsv")

echo "## Sequential studies: the confidence sequence (issue 16)"
echo
echo "Synthetic per-run values x ~ N(mu, 1) (\`examples/bench/seq-gen.awk\`, seeded),"
echo "looked at after every run from 2 to $MAX, each look one group of"
echo "\`pb-tint --group seq,n\` (\`--sequential\`: g = 25, level 0.95; or the fixed-n t)."
echo
echo "A/A, $AA sequences: the share whose 95 % interval excludes 0 at some look"
echo "(must be at most 5 % for the sequence; the t interval shows optional stopping):"
echo
echo "| interval | sequences ever excluding 0 |"
echo "|---|---|"
echo "| confidence sequence (\`--sequential\`) | $cs of $AA: $(share "$cs" "$AA") % |"
echo "| fixed-n t, peeked at every run | $tt of $AA: $(share "$tt" "$AA") % |"
echo
echo "True effects, $EFF sequences each, stopped at the first look whose sequence"
echo "excludes 0 (or at $MAX runs): coverage of mu by the interval at the stop."
echo
echo "| mu / sd | coverage at the stop | answered (excludes 0) by run $MAX | mean runs at the stop |"
echo "|---|---|---|---|"
seed=2
for mu in 0.5 1 3 10; do
	looks "$EFF" "$mu" "$seed" --sequential >"$out/seq-eff.tsv"
	set -- $(stopped "$out/seq-eff.tsv" "$mu")
	echo "| $mu | $(share "$2" "$1") % | $(share "$3" "$1") % | $4 |"
	seed=$((seed + 1))
done
rm -f "$out/seq-eff.tsv"
echo
echo "Section time: $(( $(date +%s) - t0 )) s."
echo

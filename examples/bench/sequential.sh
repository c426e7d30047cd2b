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

# --- real runs: pb-run --until parity on the 1 ms worker
W=$top/examples/workload/pb-workload
REPS=${SEQ_REPS:-20} EREPS=${SEQ_EREPS:-10}
# study B_US SEED: "runs answered" of one sequential study of at most 40 runs
study() {
	pb-run --until parity --runs 40 --pairs 100 --warmup 10 --seed "$2" --quiet \
		--worker "$W --worker --us 1000 --b-us $1" >"$out/seq-run.tsv"
	tail -n 1 "$out/seq-run.tsv" | awk '{ sub(/:$/, "", $6); print $6, ($0 ~ /without an answer/ ? 0 : 1) }'
}
echo "Real runs: \`pb-run --until parity --runs 40 --pairs 100 --warmup 10\` on the synthetic"
echo "worker (\`pb-workload --worker --us 1000 --b-us B\`), each study with its own seed."
echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)."
echo
echo "| B's work | studies | answered | mean runs at the stop | runs of a fixed 10-run design saved |"
echo "|---|---|---|---|---|"
for b in 1000 990 970 900; do
	n=$REPS; [ "$b" = 1000 ] || n=$EREPS
	k=0; : >"$out/seq-stops"
	while [ $k -lt "$n" ]; do
		study "$b" $((100 + k)) >>"$out/seq-stops"
		k=$((k + 1))
	done
	awk -v b="$b" -v n="$n" '{ runs += $1; ans += $2 }
		END { m = runs / n; label = b == 1000 ? "A/A (1000 us)" : sprintf("%d us (%.0f %% less)", b, (1000 - b) / 10)
			printf "| %s | %d | %d | %.1f | %s |\n", label, n, ans, m, b == 1000 ? "(answers are false ones)" : sprintf("%.0f %%", 100 * (1 - m / 10)) }' "$out/seq-stops"
done
rm -f "$out/seq-run.tsv" "$out/seq-stops"
echo
echo "An A/A study should run to 40 runs: each one that stops earlier is a false answer,"
echo "which the sequence allows in at most 5 % of studies."
echo
echo "Section time: $(( $(date +%s) - t0 )) s."
echo

#!/bin/sh
# Writes the study's report (Markdown) from the analysis files in $1.
set -eu
out=$1
col() { awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$2"; }
meta() { sed -n "s/^# $1: //p" "$out/raw.tsv" | head -n 1; }

echo "# Study: $(meta cmd_a) vs $(meta cmd_b)"
echo
echo "$(meta runs) runs x $(meta pairs) pairs after $(meta warmup) warm-up pairs, order $(meta order),"
echo "seed $(meta seed), on $(meta host) ($(meta cpu)), started $(meta start)."
echo
echo "## Finding (runs as the unit)"
echo
sed -n 's/^# finding: //p' "$out/study/tint.tsv"
echo
echo "## Per-run and pooled intervals of the median paired difference d = b - a (ns)"
echo
echo "| run | est | lo | hi | saw it |"
echo "|---|---|---|---|---|"
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ printf "| %s | %.0f | %.0f | %.0f | %s |\n", $c["run"], $c["est"], $c["lo"], $c["hi"], $c["sign"] }' "$out/runs.tsv"
echo
# Rounded to whole ns for reading; the exact values are in the .tsv files.
ns() { col "$1" "$out/block.tsv" | awk '{ printf "%.0f", $1 }'; }
echo "Pooled over runs (run-block bootstrap): est $(ns est) ns,"
echo "interval [$(ns lo), $(ns hi)] ns."
echo
echo "## What unpaired runs would have said"
echo
echo "One run of A, then one run of B, compared: right $(col right "$out/cross.tsv") of"
echo "$(col combos "$out/cross.tsv") times; paired, $(col paired_right "$out/cross.tsv") of"
echo "$(col runs "$out/cross.tsv") runs saw the right sign (r = $(col r "$out/cross.tsv" | awk '{ printf "%.3f", $1 }'))."
echo
echo "## Planning the next study"
echo
echo "| plan | runs | pairs | half-width of lr | time (s) |"
echo "|---|---|---|---|---|"
awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ printf "| %s | %s | %s | %.4g | %.1f |\n", $c["plan"], $c["runs"], $c["pairs"], $c["halfwidth"], $c["total_s"] }' "$out/plan.tsv"
echo
if [ -f "$out/sense.tsv" ]; then
	echo "## Sensitivity of this harness"
	echo
	sed -n 's/^# sense: //p' "$out/sense.tsv"
	# make sense measured it; a later study.mk (another design) outdates it
	if [ -f study.mk ] && [ -z "$(find "$out/sense.tsv" -newer study.mk)" ]; then
		echo
		echo "(Measured before the last change to study.mk: run \`make sense\` again.)"
	fi
	echo
fi
echo "![per-run intervals](runs.png) ![trend](trend.png)"

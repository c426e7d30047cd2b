#!/bin/sh
# Bench section (issue 33): pb-pair merging SHARDS_N (1000) shards of 10
# runs each in one call, against one file with the same rows
# (shards-gen.awk writes both). Wall and CPU (user + sys) time are the
# medians of SHARDS_REPS (5) calls, alternated; the ratio shards/one is
# the cost of the merge's per-file work. Goal: within 2x.
# Writes the figures to OUTDIR/fig-shards.txt for run.sh's summary.
# Usage: sh examples/bench/shards.sh OUTDIR  (Markdown on stdout)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/examples/bench/lib.sh"
bench_init "${1:-}"
K=${SHARDS_N:-1000} R=10 P=${SHARDS_PAIRS:-20}
REPS=${SHARDS_REPS:-5}
g=$out/shards-gen
rm -rf "$g"
mkdir -p "$g"
awk -v shards="$K" -v runs="$R" -v pairs="$P" -v dir="$g" -f "$top/examples/bench/shards-gen.awk"
i=1
set --
while [ "$i" -le "$K" ]; do set -- "$@" "$g/shard-$i.tsv"; i=$((i + 1)); done

# The same data rows and run lines, or the timing compares two jobs.
pb-pair "$g/one.tsv" | grep -v '^#' >"$g/one.rows"
pb-pair "$@" | grep -v '^#' >"$g/shards.rows"
cmp -s "$g/one.rows" "$g/shards.rows" && same=yes || same=NO

: >"$g/one.times"
: >"$g/shards.times"
n=0
while [ "$n" -lt "$REPS" ]; do
	/usr/bin/time -f '%e %U %S' pb-pair "$g/one.tsv" 2>>"$g/one.times" >/dev/null
	/usr/bin/time -f '%e %U %S' pb-pair "$@" 2>>"$g/shards.times" >/dev/null
	n=$((n + 1))
done
wall() { awk '{ print $1 }' "$1" | median; }
cpu() { awk '{ print $2 + $3 }' "$1" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
ow=$(wall "$g/one.times") sw=$(wall "$g/shards.times")
oc=$(cpu "$g/one.times") sc=$(cpu "$g/shards.times")
rows=$(wc -l <"$g/one.rows" | tr -d ' ')
bytes=$(cat "$@" | wc -c | tr -d ' ')
rm -rf "$g"
echo "$(ratio "$sw" "$ow") $(ratio "$sc" "$oc")" >"$out/fig-shards.txt"

echo "## Shards at scale (issue 33)"
echo
echo "\`pb-pair\` over $K shards of $R runs x $P pairs ($bytes bytes, one call,"
echo "$K file names) against one file with the same rows; median of $REPS calls"
echo "each, alternated. Same output rows: $same ($rows lines)."
echo
echo "| input | wall | CPU (user + sys) |"
echo "|---|---|---|"
echo "| one file | $ow s | $oc s |"
echo "| $K shards | $sw s | $sc s |"
echo "| shards / one | $(ratio "$sw" "$ow")x | $(ratio "$sc" "$oc")x |"
echo
echo "Goal: the merge within 2x of one file."
echo

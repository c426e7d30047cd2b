#!/bin/sh
# make bench: pb's speed against named peers, measured side by side in one
# run. Writes examples/bench/out/report.md and prints it. Not part of
# make check: timings belong here, not in tests.
set -eu
cd "$(dirname "$0")/../.."
top=$(pwd)
PATH="$top/bin:$PATH"
sh share/dev/need hyperfine:hyperfine mawk:mawk /usr/bin/time:time
out=examples/bench/out
mkdir -p "$out"
report=$out/report.md
N=${BENCH_ROWS:-1000000}

# hyperfine's JSON mean/median without jq: the first "median" field.
median_of() { sed -n 's/.*"median": *\([0-9.e+-]*\).*/\1/p' "$1" | head -n "$2" | tail -n 1; }
peak_kib() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

{
echo "# pb benchmark report"
echo
echo "Machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); $(nproc) cores."
echo "Date: $(date -u +%Y-%m-%dT%H:%MZ). pb $(pb-tint --version | sed 's/.* //')."
echo
} >"$report"

# --- filters: pb-logratio vs mawk, pb-tint vs a one-pass awk mean/sd -----
awk -v n="$N" 'BEGIN { OFS = "\t"; srand(1)
	print "run", "pair", "first", "a", "b", "d", "delay"
	for (i = 1; i <= n; i++) {
		a = 1000000 + int(rand() * 50000); b = 1000000 + int(rand() * 50000)
		print int((i - 1) / (n / 10)) + 1, i, (rand() < .5 ? "A" : "B"), a, b, b - a, 0
	} }' >"$out/pairs.tsv"
pb-logratio "$out/pairs.tsv" >"$out/lr.tsv"

hyperfine -N -w 2 -r 10 --export-json "$out/logratio.json" \
	"pb-logratio $out/pairs.tsv" \
	"mawk -F'\t' -v OFS='\t' 'NR == 1 { print \$0, \"lr\"; next } { printf \"%s\t%.17g\n\", \$0, log(\$4 / \$5) }' $out/pairs.tsv" \
	>"$out/logratio.txt" 2>&1
pb=$(median_of "$out/logratio.json" 1); mk=$(median_of "$out/logratio.json" 2)
rss=$(peak_kib pb-logratio "$out/pairs.tsv")

hyperfine -N -w 2 -r 10 --export-json "$out/tint.json" \
	"pb-tint $out/lr.tsv" \
	"mawk -F'\t' 'NR > 1 { n++; x = \$8; s += x; ss += x * x } END { m = s / n; printf \"%.17g %.17g\n\", m, sqrt((ss - n * m * m) / (n - 1)) }' $out/lr.tsv" \
	>"$out/tint.txt" 2>&1
pt=$(median_of "$out/tint.json" 1); at=$(median_of "$out/tint.json" 2)
trss=$(peak_kib pb-tint "$out/lr.tsv")

{
echo "## Filters over $N pair rows (hyperfine -N, 10 runs, medians)"
echo
echo "| job | pb | peer | peer/pb | pb peak RSS |"
echo "|---|---|---|---|---|"
echo "| add lr = ln(a/b) | pb-logratio ${pb}s | mawk printf %.17g ${mk}s | $(ratio "$mk" "$pb")x | ${rss} KiB |"
echo "| mean, sd of lr | pb-tint ${pt}s (t interval too) | mawk one-pass ${at}s | $(ratio "$at" "$pt")x | ${trss} KiB |"
echo
echo "Goals (issue 2): pb-logratio >= 3x mawk with peak RSS < 8 MiB; pb-tint >= 2x awk."
echo
} >>"$report"

for extra in examples/bench/*.sh; do
	case $extra in */run.sh) continue ;; esac
	sh "$extra" "$out" >>"$report"
done
cat "$report"

#!/bin/sh
# pb-compare against hyperfine, side by side (issue 18), both with their
# defaults, alternating the two tools in one sitting on the same machine:
#  (1) gzip -1 against gzip -6 of a ~5 MB mixed file (text and random
#      bytes): the wall time of each tool and its answer;
#  (2) a known 2 % effect (pb-workload --us 5000 against --us 5100,
#      command mode): each tool's answer and whether it is right;
#  (3) A/A (pb-workload --us 5000 twice): how often each tool claims a
#      difference.
# hyperfine "claims" a difference when its ratio's error bar excludes 1
# (it always names a fastest command: that is counted too); pb-compare
# when its verdict is faster or slower. Writes a markdown section to
# stdout; OUT (the first argument) keeps every study and JSON.
# CMP_GZIP, CMP_EFFECT, CMP_AA: the repetitions (3, 5, 10).
set -eu
cd "$(dirname "$0")/../.."
top=$(pwd)
PATH="$top/bin:$top/examples/workload:$PATH"
out=${1:-examples/bench/out}/compare
rm -rf "$out"
mkdir -p "$out"
R1=${CMP_GZIP:-3} R2=${CMP_EFFECT:-5} R3=${CMP_AA:-10}
now_ms() { date +%s%3N; }
load() { cut -d' ' -f1 /proc/loadavg; }

# the mixed file: about 2.5 MB of text, 2.5 MB of random bytes
f=$out/mixed.bin
{ i=0; while [ "$i" -lt 12 ]; do cat "$top"/share/man/man*/*.[17] "$top"/README; i=$((i + 1)); done
} | head -c 2500000 >"$f"
head -c 2500000 /dev/urandom >>"$f"

# pbc TAG A B: one pb-compare with its defaults; prints
# "wall_ms verdict ratio lo hi"
pbc() {
	t0=$(now_ms)
	pb-compare --dir "$out/$1" --export-json "$out/$1.json" -- "$2" "$3" >"$out/$1.txt" 2>&1 || :
	t1=$(now_ms)
	jq -r --arg w "$((t1 - t0))" '[$w, (.comparisons[0].verdict | gsub(" "; "_")),
		.comparisons[0].ratio // "nan", .comparisons[0].ratio_lo // "nan",
		.comparisons[0].ratio_hi // "nan"] | @tsv' "$out/$1.json" 2>/dev/null | tr '\t' ' ' |
		grep . || echo "$((t1 - t0)) failed nan nan nan"
}
# hf TAG A B: one hyperfine with its defaults; prints
# "wall_ms fastest ratio err": ratio = slower/faster mean, err as hyperfine
# propagates it
hf() {
	t0=$(now_ms)
	hyperfine --style basic --export-json "$out/$1.json" -- "$2" "$3" >"$out/$1.txt" 2>&1 || :
	t1=$(now_ms)
	jq -r --arg w "$((t1 - t0))" '.results as $r | ($r[0].mean) as $a | ($r[1].mean) as $b |
		(if $a <= $b then ["A", $b / $a, $r[1].stddev / $b, $r[0].stddev / $a]
		 else ["B", $a / $b, $r[0].stddev / $a, $r[1].stddev / $b] end) as $x |
		[$w, $x[0], $x[1], $x[1] * ((($x[2] * $x[2]) + ($x[3] * $x[3])) | sqrt)] | @tsv' "$out/$1.json" | tr '\t' ' '
}

echo "## pb-compare against hyperfine (issue 18)"
echo
echo "hyperfine $(hyperfine --version | cut -d' ' -f2), both with their defaults, alternating;"
echo "$(nproc) cores, load $(load) at the start (the machine is shared with other work)."
echo
echo "### (1) gzip -1 against gzip -6 of a 5 MB mixed file ($R1 times each)"
echo
echo "| try | tool | wall | answer |"
echo "|---|---|---|---|"
i=1
while [ "$i" -le "$R1" ]; do
	set -- $(pbc "gzip-pb-$i" "gzip -1 -c $f" "gzip -6 -c $f")
	printf '| %d | pb-compare | %.1f s | A/B %.4f, 95%% CS %.4f to %.4f: %s (load %s) |\n' "$i" \
		"$(echo "$1 / 1000" | bc -l)" "$3" "$4" "$5" "$(echo "$2" | tr _ ' ')" "$(load)"
	set -- $(hf "gzip-hf-$i" "gzip -1 -c $f" "gzip -6 -c $f")
	printf '| %d | hyperfine | %.1f s | %s faster, %.3f ± %.3f times (load %s) |\n' "$i" \
		"$(echo "$1 / 1000" | bc -l)" "$2" "$3" "$4" "$(load)"
	i=$((i + 1))
done
echo
echo "### (2) a known 2 % effect: pb-workload --us 5000 (A) against --us 5100 (B) ($R2 times each)"
echo
echo "Right: A faster (B slower). pb-compare resolves when its sequence excludes 1;"
echo "hyperfine when its error bar does."
echo
echo "| try | pb-compare | hyperfine |"
echo "|---|---|---|"
pr=0 pw=0 pn=0 hr=0 hw=0 hn=0
i=1
while [ "$i" -le "$R2" ]; do
	set -- $(pbc "eff-pb-$i" "pb-workload --us 5000" "pb-workload --us 5100")
	pv=$2 pt=$(printf 'A/B %.4f [%.4f, %.4f] %s, %.1f s' "$3" "$4" "$5" "$(echo "$2" | tr _ ' ')" "$(echo "$1 / 1000" | bc -l)")
	case $pv in slower) pr=$((pr + 1)) ;; faster) pw=$((pw + 1)) ;; *) pn=$((pn + 1)) ;; esac
	set -- $(hf "eff-hf-$i" "pb-workload --us 5000" "pb-workload --us 5100")
	ht=$(printf '%s faster, %.3f ± %.3f, %.1f s' "$2" "$3" "$4" "$(echo "$1 / 1000" | bc -l)")
	if [ "$(echo "$3 - $4 > 1" | bc -l)" = 1 ]; then
		if [ "$2" = A ]; then hr=$((hr + 1)); else hw=$((hw + 1)); fi
	else hn=$((hn + 1)); fi
	printf '| %d | %s | %s |\n' "$i" "$pt" "$ht"
	i=$((i + 1))
done
echo
echo "pb-compare: right $pr, wrong $pw, unresolved $pn; hyperfine (error bar excludes 1): right $hr, wrong $hw, unresolved $hn."
echo
echo "### (3) A/A: pb-workload --us 5000 twice ($R3 times each)"
echo
echo "| try | pb-compare | hyperfine |"
echo "|---|---|---|"
pc=0 hc=0
i=1
while [ "$i" -le "$R3" ]; do
	set -- $(pbc "aa-pb-$i" "pb-workload --us 5000" "pb-workload --us 5000")
	pt=$(printf 'A/B %.4f [%.4f, %.4f] %s, %.1f s' "$3" "$4" "$5" "$(echo "$2" | tr _ ' ')" "$(echo "$1 / 1000" | bc -l)")
	case $2 in slower|faster) pc=$((pc + 1)) ;; esac
	set -- $(hf "aa-hf-$i" "pb-workload --us 5000" "pb-workload --us 5000")
	ht=$(printf '%s faster, %.3f ± %.3f, %.1f s' "$2" "$3" "$4" "$(echo "$1 / 1000" | bc -l)")
	[ "$(echo "$3 - $4 > 1" | bc -l)" = 1 ] && hc=$((hc + 1))
	printf '| %d | %s | %s |\n' "$i" "$pt" "$ht"
	i=$((i + 1))
done
echo
echo "False claims: pb-compare $pc of $R3; hyperfine $hc of $R3 by its error bar (and it names a faster command every time)."
echo "Load at the end: $(load)."
echo

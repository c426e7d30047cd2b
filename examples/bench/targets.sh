#!/bin/sh
# Bench section (issue 19): the targets' table, from the figures the
# other sections of this run left in OUTDIR (fig-*.txt, the filters'
# pb-tint streams). A row whose section did not run says so.
# Usage: sh examples/bench/targets.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: targets.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/examples/bench/lib.sh"

# fig NAME: the figure file's words, or nothing
fig() { [ -s "$out/fig-$1.txt" ] && cat "$out/fig-$1.txt" || :; }
# ratio NAME: the filters' ratio peer/pb of NAME with its interval
ratio() {
	[ -s "$out/$1.tint.tsv" ] || { echo "not measured"; return; }
	printf '%.2fx [%.2f, %.2f]' "$(field ratio "$out/$1.tint.tsv")" \
		"$(field ratio_lo "$out/$1.tint.tsv")" "$(field ratio_hi "$out/$1.tint.tsv")"
}
# met COND: "met" when the awk condition holds, else "not met"
met() { awk "BEGIN { exit !($1) }" && echo met || echo "not met"; }
pt() { [ -s "$out/$1.tint.tsv" ] && field ratio "$out/$1.tint.tsv" || echo 0; }
boot() {   # NAME: "S s, M MiB"
	fig "boot-$1" | awk '{ printf "%.2f s, %.1f MiB", $1, $2 / 1024; n++ } END { if (!n) printf "not measured" }'
}
# w NAME K: the K-th word of the figure NAME, or nothing
w() { fig "$1" | awk -v k="$2" '{ print $k }'; }

echo "## Issues 19 and 30: the targets, as measured in this run"
echo
echo "| job | measured | target | |"
echo "|---|---|---|---|"
r=$(pt lr-vs-mawk)
echo "| pb-logratio vs mawk (%.17g), 1 M rows | $(ratio lr-vs-mawk) | >= 8x | $(met "$r >= 8") |"
r=$(pt tint-vs-awk)
echo "| pb-tint vs one-pass mawk mean/sd, 1 M values | $(ratio tint-vs-awk) | >= 5x | $(met "$r >= 5") |"
s=$(w pair-s 1) k=$(w pair-s 2)
echo "| pb-pair, 10^7 pairs | ${s:-not measured} s, $(awk -v k="${k:-0}" 'BEGIN { printf "%.1f MiB", k / 1024 }') | <= 2 s, O(open pairs) memory | $(met "${s:-99} <= 2") |"
s=$(w boot-jobs2 1)
echo "| pb-boot 2000 x median of 300 000, --jobs 2 | $(boot jobs2) (--jobs 1: $(boot jobs1)) | <= 0.7 s, same interval at any --jobs | $(met "${s:-99} <= 0.7") |"
s=$(w boot-bca 1) k=$(w boot-bca 2)
echo "| pb-boot BCa (median), 300 000 values, 2000 resamples | $(boot bca) (mean: $(boot bca-mean)) | <= 2 s, < 100 MiB | $(met "${s:-99} <= 2 && ${k:-1e9} < 102400") |"
s=$(w cross 1) k=$(w cross 2)
echo "| pb-cross, 16 000 runs | ${s:-not measured} s, $(awk -v k="${k:-0}" 'BEGIN { printf "%.1f MiB", k / 1024 }') | <= 1 s, O(runs) memory | $(met "${s:-99} <= 1") |"
s=$(w shards 1)
echo "| pb-pair over 1000 shards of 10 runs vs one file, same rows (wall; CPU $(w shards 2)x) | ${s:-not measured}x | <= 2x (issue 33) | $(met "${s:-99} <= 2") |"
s=$(w worker 3)
echo "| worker round trip vs bare pipe ping-pong, both on CPU 0 | ${s:-not measured}x [$(w worker 4), $(w worker 5)] ($(w worker 1) vs $(w worker 2) ns) | <= 1.05x (issue 30) | $(met "${s:-99} <= 1.05") |"
s=$(w worker-free 3)
echo "| the same, neither pinned | ${s:-not measured}x [$(w worker-free 4), $(w worker-free 5)] ($(w worker-free 1) vs $(w worker-free 2) ns) | <= 1.15x (issue 30) | $(met "${s:-99} <= 1.15") |"
s=$(w command 3)
echo "| command mode vs bare posix_spawn+wait loop, same static binary | ${s:-not measured}x [$(w command 4), $(w command 5)] ($(w command 1) vs $(w command 2) ns) | <= 1.05x | $(met "${s:-99} <= 1.05") |"
p=$(fig pin-command-yes-yes | cut -d'|' -f1 | sed 's/ *$//')
us=$(echo "$p" | sed -n 's/^\([0-9.]*\) us .*/\1/p')
echo "| command mode, pinned (--cpu), hog on the other core: smallest delay every run saw (bootstrap) | ${p:-not measured} | 10 us (1 %) | $(met "${us:-1e9} <= 10") |"
echo

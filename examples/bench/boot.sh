#!/bin/sh
# Bench section (issue 5): pb-boot against R's boot package on the same
# data in the same run: 2000 resamples of the median of 300 000 values.
# Usage: sh examples/bench/boot.sh OUTDIR  (Markdown on stdout)
set -eu
out=${1:?usage: boot.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
sh "$top/share/dev/need" Rscript:r-base-core '/usr/lib/R/*/boot/DESCRIPTION:r-cran-boot' \
	/usr/bin/time:time >&2
mkdir -p "$out"
. "$top/examples/bench/lib.sh"
N=${BOOT_N:-300000}
awk -v n="$N" 'BEGIN { srand(11); print "d"; for (i = 0; i < n; i++) printf "%d\n", int(1000 * (rand() + rand() + rand())) - 1500 }' >"$out/boot.tsv"
cat >"$out/boot.R" <<'R'
library(boot)
x <- read.delim(commandArgs(TRUE)[1], comment.char = "#")$d
set.seed(1)
b <- boot(x, function(d, i) median(d[i]), R = 2000)
ci <- boot.ci(b, conf = 0.95, type = "perc")
cat(sprintf("%.17g %.17g %.17g\n", b$t0, ci$percent[4], ci$percent[5]))
R
t() { /usr/bin/time -f '%e %M' "$@" 2>"$out/time.txt" >"$out/time.out"; tail -n 1 "$out/time.txt"; }
pb=$(t pb-boot --resamples 2000 "$out/boot.tsv")
pbci=$(grep -v '^#' "$out/time.out" | tail -n 1 | cut -f2-4 | tr '\t' ' ')
r=$(t Rscript "$out/boot.R" "$out/boot.tsv")
rci=$(cat "$out/time.out")
awk -v pb="$pb" -v r="$r" -v n="$N" -v pbci="$pbci" -v rci="$rci" 'BEGIN {
	split(pb, p, " "); split(r, q, " ")
	print "## Bootstrap (issue 5): 2000 resamples of the median of " n " values"
	print ""
	print "| tool | wall time | peak RSS | est, lo, hi |"
	print "|---|---|---|---|"
	printf "| pb-boot | %.2f s | %.1f MiB | %s |\n", p[1], p[2] / 1024, pbci
	printf "| R boot (boot.ci perc) | %.2f s | %.1f MiB | %s |\n", q[1], q[2] / 1024, rci
	printf "\npb-boot is %.0fx faster and uses %.0fx less memory. Goal: < 2 s and < 50 MiB.\n\n",
		q[1] / p[1], q[2] / p[2]
}'

# Issue 19: --jobs (the same interval at any N), and BCa at this size.
row() {   # LABEL OPTIONS...: a table row of pb-boot with OPTIONS; its interval to $out/ci-LABEL
	l=$1
	shift
	: >"$out/times-$l"
	for k in 1 2 3; do t pb-boot --resamples 2000 "$@" "$out/boot.tsv" >>"$out/times-$l"; done
	tm="$(cut -d' ' -f1 "$out/times-$l" | median) $(cut -d' ' -f2 "$out/times-$l" | sort -n | tail -n 1)"
	grep -v '^#' "$out/time.out" | tail -n 1 | cut -f2-4 | tr '\t' ' ' >"$out/ci-$l"
	echo "$tm" >"$out/fig-boot-$l.txt"
	awk -v tm="$tm" -v l="$l" -v o="$*" -v ci="$(cat "$out/ci-$l")" 'BEGIN {
		split(tm, p, " "); printf "| %s | `%s` | %.2f s | %.1f MiB | %s |\n", l, o, p[1], p[2] / 1024, ci }'
}
echo "Threads and BCa (issue 19), the same data, $(getconf _NPROCESSORS_ONLN) online CPUs; the median wall"
echo "time of 3 runs each, the largest peak RSS:"
echo
echo "| job | options | wall time | peak RSS | est, lo, hi |"
echo "|---|---|---|---|---|"
row jobs1 --jobs 1
row jobs2 --jobs 2
row jobs3 --jobs 3
row bca --method bca
row bca-mean --stat mean --method bca
echo
same=no
cmp -s "$out/ci-jobs1" "$out/ci-jobs2" && cmp -s "$out/ci-jobs1" "$out/ci-jobs3" && same=yes
echo "Same interval at --jobs 1, 2 and 3: $same. Targets (issue 19): the median"
echo "with --jobs 2 <= 0.7 s; BCa <= 2 s and < 100 MiB."
echo

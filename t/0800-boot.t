#!/bin/sh
# pb-boot: intervals against R's boot at 200000 resamples, estimates,
# seeds and metadata, signs, groups, invariants, blocks, BCa fallback,
# errors, a large sample.
. "$(dirname "$0")/lib.sh"
cd "$D/boot" || exit 1

# row FILE: the first data row with '|' between fields (when there is
# none, col's "<col: no row>", which is refuses)
row() { rows "$1" | head -n 1 | tr '\t' '|' | grep . || echo "<col: no row in $1>"; }
# lohi FILE K: "lo hi" of data row K
lohi() { echo "$(col lo "$2" "$1") $(col hi "$2" "$1")"; }
# width FILE: hi - lo of the first row; nothing when they are not numbers
width() {
	_wl=$(col lo 1 "$1") _wh=$(col hi 1 "$1")
	nums "$_wl" "$_wh" && awk -v l="$_wl" -v h="$_wh" 'BEGIN { print h - l }'
}
# against FILE LO HI TOL NAME: lo and hi of the first row within TOL
against() {
	within "$(col lo 1 "$1")" "$2" "$4" "$5: lo"
	within "$(col hi 1 "$1")" "$3" "$4" "$5: hi"
}

# --- Agreement with R's boot -------------------------------------------
# References: R 4.2.2, boot 1.3-28.1, run from the top of the tree:
#   library(boot)
#   rd <- function(f) read.delim(file.path("t/data/boot", f), comment.char = "#")
#   bca.half <- function(b, L, conf = 0.95) {   # boot:::bca.ci, ties at t0 counted half
#     t <- b$t[, 1]; w <- qnorm((sum(t < b$t0) + sum(t == b$t0) / 2) / length(t))
#     a <- sum(L^3) / (6 * sum(L^2)^1.5); z <- qnorm((1 + c(-conf, conf)) / 2)
#     boot:::norm.inter(t, pnorm(w + (w + z) / (1 - a * (w + z))))[, 2] }
#   ref <- function(b) { L <- empinf(b, type = "jack"); L <- L - mean(L)
#     sprintf("%.17g", c(boot.ci(b, type = "perc")$percent[4:5], bca.half(b, L))) }
#   x <- rd("odd.tsv")$d        # then even.tsv
#   set.seed(1); ref(boot(x, function(d, i) median(d[i]), R = 200000))
#   set.seed(1); ref(boot(x, function(d, i) mean(d[i]), R = 200000))
#   r <- rd("runs.tsv"); ids <- as.character(unique(r$run)); byrun <- split(r$d, r$run)
#   set.seed(1); ref(boot(ids, function(ids, i) median(unlist(byrun[ids[i]])), R = 200000))
#   set.seed(1); ref(boot(ids, function(ids, i) mean(unlist(byrun[ids[i]])), R = 200000))
# Each gives perc lo, perc hi, bca lo, bca hi.
# - boot.ci's percentile ends interpolate between order statistics on the
#   normal scale (norm.inter) where pb-boot interpolates linearly; at
#   200000 resamples the neighbours are equal or a grid step apart, far
#   below the tolerances.
# - BCa: pb-boot's conventions, given to R explicitly. The acceleration
#   uses jackknife values (boot.ci's default L is a regression estimate)
#   centred on their mean (Efron & Tibshirani 14.15; empinf's jackknife
#   centres on t0, hence L - mean(L): the same for the mean, not for the
#   median). The bias correction counts replicates equal to the estimate
#   as half below, where boot.ci counts them as above: a median replicate
#   equals the estimate a quarter of the time in odd.tsv, and boot.ci's
#   count moves the BCa interval from (20, 65) to (15, 55).
# Tolerances. Medians: the exact (B = infinity) bootstrap distribution of
# the median (binomial for odd n; the joint law of the two middle order
# statistics for even n; all 6435 multisets of 8 runs for the blocks)
# puts every quantile level, BCa's adjusted ones included, at least 3.7
# (mostly 10 to 25) Monte Carlo standard errors from an atom boundary,
# except the block percentile lo (0.025 is 3 s.e. below the step from -38
# to -37): so the ends are exactly these order statistics, and block lo
# may be -38..-37.
# Six R seeds and fifty pb-boot seeds all gave exactly these medians.
# Means: the largest Monte Carlo sd of any end, over 6 R seeds and 50
# pb-boot seeds at 200000 resamples, is s = 0.126 (odd), 0.091 (even),
# 0.158 (runs); a difference of two such estimates has sd s * sqrt(2);
# the tolerance is 4 s sqrt(2): 0.72, 0.52, 0.90 (about 2 % of the width).
B=200000
run pb-boot --resamples $B odd.tsv
against "$T/out" 25 70 0 "odd n = 41, median, percentile vs R"
run pb-boot --resamples $B --method bca odd.tsv
against "$T/out" 20 65 0 "odd n = 41, median, BCa vs R"
run pb-boot --resamples $B --stat mean odd.tsv
against "$T/out" 37.439024390243901 74.146341463414629 0.72 "odd n = 41, mean, percentile vs R"
run pb-boot --resamples $B --stat mean --method bca odd.tsv
against "$T/out" 38.658536585365852 75.853658536585371 0.72 "odd n = 41, mean, BCa vs R"
run pb-boot --resamples $B even.tsv
against "$T/out" 25 55 0 "even n = 64, median, percentile vs R"
run pb-boot --resamples $B --method bca even.tsv
against "$T/out" 25 55 0 "even n = 64, median, BCa vs R"
run pb-boot --resamples $B --stat mean even.tsv
against "$T/out" 36.953125 62.96875 0.52 "even n = 64, mean, percentile vs R"
run pb-boot --resamples $B --stat mean --method bca even.tsv
against "$T/out" 38.4375 65.78125 0.52 "even n = 64, mean, BCa vs R"
run pb-boot --resamples $B --block run --method percentile runs.tsv
within "$(col lo 1 "$T/out")" -37.5 0.5 "8 runs, block median, percentile vs R: lo in [-38, -37]"
within "$(col hi 1 "$T/out")" 24 0 "8 runs, block median, percentile vs R: hi"
cp "$T/out" "$T/block"
run pb-boot --resamples $B --block run --method bca runs.tsv
against "$T/out" -38 24 0 "8 runs, block median, BCa vs R"
run pb-boot --resamples $B --block run --method percentile --stat mean runs.tsv
against "$T/out" -35.410448336706551 14.877551020408163 0.90 "8 runs, block mean, percentile vs R"
run pb-boot --resamples $B --block run --stat mean --method bca runs.tsv
against "$T/out" -35.242718446601941 15.144578313253012 0.90 "8 runs, block mean, BCa vs R"

# --- The estimate and n --------------------------------------------------
# R: x <- rd("odd.tsv")$d; sprintf("%.17g", c(length(x), median(x), mean(x)))
#   41 35 55.243902439024389;  even.tsv: 64 42.5 48.984375 (the middles
#   are 40 and 45);  runs.tsv: 100 -15.5 -11.220000000000001
run pb-boot odd.tsv
is "$(col n 1 "$T/out")" 41 "odd: n is the row count"
near "$(col est 1 "$T/out")" 35 0 "odd: est is the median"
run pb-boot --stat mean odd.tsv
near "$(col est 1 "$T/out")" 55.243902439024389 0 "odd: est is the mean (the same double as R's)"
run pb-boot even.tsv
is "$(col n 1 "$T/out"):$(col est 1 "$T/out")" 64:42.5 "even: est is the mean of the two middles"
run pb-boot --stat mean even.tsv
near "$(col est 1 "$T/out")" 48.984375 0 "even: est is the mean"
run pb-boot --block run runs.tsv
is "$(col n 1 "$T/out"):$(col est 1 "$T/out")" 100:-15.5 "--block: n and est over all rows"
run pb-boot --block run --stat mean runs.tsv
near "$(col est 1 "$T/out")" -11.220000000000001 0 "--block: est is the mean of all rows"
# Even n, middles far apart and large: no overflow in the midpoint.
printf 'd\n1e308\n-1\n1.5e308\n9e307\n' >"$T/huge.tsv"
run pb-boot "$T/huge.tsv"
near "$(col est 1 "$T/out")" 9.5e307 1e-15 "even n with huge middles: (9e307 + 1e308)/2"

# --- Seeds and metadata ----------------------------------------------------
# (saved: the output of a run that exited 0, else nothing)
run pb-boot --stat mean odd.tsv
saved "$T/s_default"
run pb-boot --stat mean odd.tsv
saved "$T/s_again"
same_output "$T/s_again" "$T/s_default" "no --seed: the same output twice"
like "$(cat "$T/out")" '^# pb-boot.seed: 1$' "the default seed, 1, in the metadata"
run pb-boot --stat mean --seed 1 odd.tsv
saved "$T/s1"
rows "$T/s1" >"$T/s1.rows"
rows "$T/s_default" >"$T/s_default.rows"
same_file "$T/s1.rows" "$T/s_default.rows" "--seed 1 = the default"
run pb-boot --stat mean --seed 77 odd.tsv
saved "$T/s77"
run pb-boot --stat mean --seed 77 odd.tsv
saved "$T/s77_again"
same_output "$T/s77_again" "$T/s77" "--seed 77: the same output twice"
like "$(cat "$T/out")" '^# pb-boot.seed: 77$' "--seed 77 in the metadata"
run pb-boot --stat mean --seed 78 odd.tsv
differ "$(lohi "$T/out" 1)" "$(lohi "$T/s77" 1)" "--seed 78: other lo/hi than --seed 77"
is "$(col est 1 "$T/out")" "$(col est 1 "$T/s77")" "--seed 78: the same est"
run pb-boot --seed 9007199254740992 odd.tsv
ran_ok "--seed 2^53 is accepted"
like "$(cat "$T/out")" '^# pb-boot.seed: 9007199254740992$' "--seed 2^53 in the metadata, every digit"

run pb-boot --column d --stat mean --method bca --resamples 999 --level 0.9999999 --block run runs.tsv
grep '^#' "$T/out" | sed 1,2d >"$T/got"   # drop the fixture note and the argv line
cat >"$T/want" <<EOF
# pb-boot.column: d
# pb-boot.stat: mean
# pb-boot.method: bca (bias-corrected and accelerated, jackknife acceleration)
# pb-boot.ties: half (replicates equal to est count half below)
# pb-boot.resamples: 999
# pb-boot.level: 0.9999999
# pb-boot.seed: 1
# pb-boot.block: run (whole blocks resampled with replacement; the statistic of their pooled rows)
EOF
is_file "$T/got" "$T/want" "metadata: column, stat, method, resamples, level (every digit), seed, block"
like "$(sed -n 1p "$T/out")" '^# fixture, R: set.seed\(8\)' "input metadata copied first"
like "$(sed -n 2p "$T/out")" '^# pb-boot: [^ ]+ pb-boot --column d --stat mean --method bca --resamples 999 --level 0.9999999 --block run runs.tsv$' \
	"then version and argv"
run pb-boot odd.tsv
like "$(cat "$T/out")" '^# pb-boot.method: percentile$' "default method: percentile"
like "$(cat "$T/out")" '^# pb-boot.stat: median$' "default stat: median"
like "$(cat "$T/out")" '^# pb-boot.resamples: 2000$' "default resamples: 2000"
like "$(cat "$T/out")" '^# pb-boot.level: 0.95$' "default level: 0.95"
is "$rc:$(grep -c '^# pb-boot.block' "$T/out"):$(row_count "$T/out")" 0:0:1 "no --block: no block line"
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "n est lo hi sign" "header without groups"

# --- The sign column ---------------------------------------------------------
# + when lo > 0, - when hi < 0, else 0; strict at 0: {0 x3, 10 x4} has
# median 10 and P(median* = 0) = P(Bin(7, 3/7) >= 4) = 0.29, so lo = 0.
sign_of() { printf 'd\n'; printf '%s\n' "$@"; }
sign_of 3 5 7 9 11 >"$T/pos.tsv"
sign_of -3 -5 -7 -9 -11 >"$T/neg.tsv"
sign_of -10 -5 0 5 10 >"$T/mid.tsv"
sign_of 0 0 0 10 10 10 10 >"$T/lo0.tsv"
sign_of 0 0 0 -10 -10 -10 -10 >"$T/hi0.tsv"
#   file  data                 est  lo   hi   sign
for c in "pos 7|3|11|+" "neg -7|-11|-3|-" "mid 0|-10|10|0" "lo0 10|0|10|0" "hi0 -10|-10|0|0"; do
	run pb-boot "$T/${c% *}.tsv"
	is "$(row "$T/out" | cut -d'|' -f 2-)" "${c#* }" "sign, ${c% *}: est lo hi sign"
done

# --- Groups ------------------------------------------------------------------
# groups.tsv: runs 3, 1, 2 interleaved.
#   run 3 d {-120,-95,-101,-110,-99}        median -101
#   run 1 d {-80,-60,-75,-70,-65,-90}       median (-75 + -70)/2 = -72.5
#   run 2 d {10,-5,20,15,0,5,25}            median 10
run pb-boot --group run groups.tsv
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "run n est lo hi sign" "--group run: header"
is "$(rows "$T/out" | cut -f 1-3 | tr '\t\n' ' ;')" "3 5 -101;1 6 -72.5;2 7 10;" \
	"--group run: first-appearance order, n and est per run"
is "$(rows "$T/out" | cut -f 6 | tr '\n' ' ')" "- - 0 " "--group run: signs (runs 3 and 1 all negative)"
# Each group is its own rows and nothing else: with that group's rows
# first, its row equals pb-boot on those rows alone.
for k in 3 1 2; do
	awk -F'\t' -v k=$k 'NR == 1 || $1 == k' groups.tsv >"$T/only"
	{ cat "$T/only"; awk -F'\t' -v k=$k 'NR > 1 && $1 != k' groups.tsv; } >"$T/first"
	run pb-boot --group run "$T/first"
	got=$(row "$T/out" | cut -d'|' -f 2-)
	run pb-boot "$T/only"
	is "$got" "$(row "$T/out")" "--group run: run $k's row = pb-boot on run $k alone"
done
# Two columns, keys in first-appearance order:
#   3 A {-120,-101,-99} -101   1 B {-80,-75,-65} -75   3 B {-95,-110} -102.5
#   2 A {10,20,0,25} 15        1 A {-60,-70,-90} -70   2 B {-5,15,5} 5
run pb-boot --group run,first groups.tsv
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "run first n est lo hi sign" "--group run,first: header"
is "$(rows "$T/out" | cut -f 1-4 | tr '\t\n' ' ;')" \
	"3 A 3 -101;1 B 3 -75;3 B 2 -102.5;2 A 4 15;1 A 3 -70;2 B 3 5;" \
	"--group run,first: six keys in order, n and est"
# --group with --block: blocks belong to their group (each 'first' has
# runs 3, 1 and 2 as its blocks).
run pb-boot --group first --block run groups.tsv
is "$(rows "$T/out" | cut -f 1-3 | tr '\t\n' ' ;')" "A 10 -65;B 8 -70;" "--group first --block run: n and est"
awk -F'\t' 'NR == 1 || $3 == "A"' groups.tsv >"$T/a.tsv"
got=$(row "$T/out" | cut -d'|' -f 2-)
run pb-boot --block run "$T/a.tsv"
is "$got" "$(row "$T/out")" "--group first --block run: group A = --block run on A's rows"

# --- Invariants ----------------------------------------------------------------
# lo <= est <= hi, and intervals nest as the level grows (the same seed,
# the same replicates, higher and lower order statistics).
for f in odd runs; do
	for s in median mean; do
		prev=
		for L in 0.5 0.8 0.95 0.99; do
			run pb-boot --stat $s --level $L $f.tsv
			lo=$(col lo 1 "$T/out") est=$(col est 1 "$T/out") hi=$(col hi 1 "$T/out")
			ascending "$f $s level $L: lo <= est <= hi" "$lo" "$est" "$hi"
			if [ -n "$prev" ]; then
				set -- $prev
				ascending "$f $s level $L: contains the narrower level's interval" "$lo" "$1" "$2" "$hi"
			fi
			prev="$lo $hi"
		done
	done
done
run pb-boot --stat mean --level 0.5 odd.tsv
w50=$(width "$T/out")
run pb-boot --stat mean --level 0.99 odd.tsv
w99=$(width "$T/out")
nums "$w50" "$w99" && awk -v a="$w50" -v b="$w99" 'BEGIN { exit !(b > 2 * a) }' && ok "mean: width at 0.99 ($w99) > 2 x width at 0.5 ($w50)" ||
	not_ok "mean: width at 0.99 ($w99) > 2 x width at 0.5 ($w50)"

# Shift by 1000: the same draws pick the same ranks, so est, lo and hi
# move by exactly 1000. Exact in doubles with integer data, n = 64 (a sum
# over 64 is exact) and level 0.5 with 3999 resamples (the ends are the
# 1000th and 3000th order statistics, no interpolation).
awk -F'\t' -v OFS='\t' '/^#/ || $1 == "d" { print; next } { print $1 + 1000 }' even.tsv >"$T/shift.tsv"
for s in median mean; do
	run pb-boot --stat $s --level 0.5 --resamples 3999 even.tsv
	cp "$T/out" "$T/base"
	run pb-boot --stat $s --level 0.5 --resamples 3999 "$T/shift.tsv"
	for c in est lo hi; do
		near "$(col $c 1 "$T/out")" "$(awk -v v="$(col $c 1 "$T/base")" 'BEGIN { printf "%.17g", v + 1000 }')" 0 \
			"shift by 1000, $s: $c moves by exactly 1000"
	done
done
# BCa too, up to rounding of the interpolation weights.
run pb-boot --stat mean --method bca even.tsv
cp "$T/out" "$T/base"
run pb-boot --stat mean --method bca "$T/shift.tsv"
for c in est lo hi; do
	near "$(col $c 1 "$T/out")" "$(awk -v v="$(col $c 1 "$T/base")" 'BEGIN { printf "%.17g", v + 1000 }')" 1e-13 \
		"shift by 1000, mean, BCa: $c"
done
# Negation: est negates exactly; the ends negate and swap in distribution
# (the draws now pick mirrored ranks), so within the tolerances above.
awk -F'\t' '/^#/ || $1 == "d" { print; next } { print -$1 }' odd.tsv >"$T/neg41.tsv"
for m in percentile bca; do
	for s in median mean; do
		run pb-boot --resamples $B --method $m --stat $s odd.tsv
		cp "$T/out" "$T/base"
		run pb-boot --resamples $B --method $m --stat $s "$T/neg41.tsv"
		tol=0.72; [ $s = median ] && tol=0
		near "$(col est 1 "$T/out")" "-$(col est 1 "$T/base")" 0 "negated, $s $m: est negates"
		within "$(col lo 1 "$T/out")" "-$(col hi 1 "$T/base")" $tol "negated, $s $m: lo = -hi"
		within "$(col hi 1 "$T/out")" "-$(col lo 1 "$T/base")" $tol "negated, $s $m: hi = -lo"
	done
done
# Constant data: a zero-width interval at est, BCa included (every
# replicate ties with est), even when the sum rounds (0.1 + 0.1 + 0.1).
# est is the value itself. BCa warns that its acceleration is 0/0 (every
# jackknife value is the same) and takes 0.
printf 'd\n5\n5\n5\n' >"$T/c5.tsv"
printf 'd\n0.1\n0.1\n0.1\n' >"$T/c01.tsv"
acc0="pb-boot: column 'd': every jackknife value is the same, so BCa's acceleration is 0/0; acceleration 0 used"
for f in c5 c01; do
	v=5; [ $f = c01 ] && v=0.1
	for m in percentile bca; do
		run pb-boot --stat mean --method $m "$T/$f.tsv"
		w=; [ $m = bca ] && w=$acc0
		is "$rc:$(row "$T/out" | cut -d'|' -f 2-4):$(cat "$T/err")" "0:$v|$v|$v:$w" \
			"constant $f, mean, $m: est = lo = hi = $v${w:+, one warning}"
	done
done

# --- Blocks: the point of --block ------------------------------------------
# runs.tsv has strong run effects (run means -65 .. 50, sd 20 within a
# run). Resampling rows treats 100 rows as independent and gives a far
# too narrow interval; resampling the 8 runs gives one at least twice as
# wide. R, as above: set.seed(1); b <- boot(r$d, function(d, i) median(d[i]),
# R = 200000); boot.ci(b, type = "perc") gives (-23, -5), under a third of
# the block interval (-38, 24).
run pb-boot --resamples $B runs.tsv
wn=$(width "$T/out")
wb=$(width "$T/block")
nums "$wn" "$wb" && awk -v n="$wn" -v b="$wb" 'BEGIN { exit !(b >= 2 * n && n > 0) }' && ok "block interval ($wb) >= 2 x the row interval ($wn)" ||
	not_ok "block interval ($wb) >= 2 x the row interval ($wn)"
is "$(col sign 1 "$T/out") $(col sign 1 "$T/block")" "- 0" "rows say '-' (wrongly sure), blocks say '0'"
# Blocks need not be contiguous: rows sorted by d interleave the runs and
# renumber them (first appearance), which changes the draws but not the
# law: the same est, and the R reference with the tolerances above.
{ sed -n 1,2p runs.tsv; tail -n +3 runs.tsv | sort -n -k3,3; } >"$T/shuffled.tsv"
run pb-boot --resamples $B --block run --method percentile "$T/shuffled.tsv"
is "$(col n 1 "$T/out"):$(col est 1 "$T/out")" "100:-15.5" "--block, runs interleaved: n, est"
within "$(col lo 1 "$T/out")" -37.5 0.5 "--block, runs interleaved: lo vs R"
within "$(col hi 1 "$T/out")" 24 0 "--block, runs interleaved: hi vs R"

# --- BCa falls back to percentile -----------------------------------------
# With thousands of resamples no data set puts every replicate on one
# side of est: est is itself a possible replicate (the identity resample)
# and, except for constant data, the resample of the smallest and of the
# largest values lie on both sides; ties count half, so even est = the
# smallest replicate does not do it. A single resample does: with seed 1
# the one mean replicate of odd.tsv is not est (it is with probability
# 0.5 %, the share of replicates equal to est measured in R).
run pb-boot --stat mean --resamples 1 --method bca odd.tsv
bca=$(row "$T/out")
is "$rc:$(cat "$T/err")" "0:pb-boot: column 'd': every replicate lies on one side of the estimate, so BCa is undefined; percentile interval given" \
	"BCa, one replicate off est: exit 0, one warning"
run pb-boot --stat mean --resamples 1 odd.tsv
is "$bca" "$(row "$T/out")" "BCa fallback: the percentile interval"
# A replicate equal to est counts half below, so it is no fallback: with
# seed 2 the one median replicate of odd.tsv is 35 = est (a median
# replicate equals est with probability 0.24 here).
run pb-boot --resamples 1 --seed 2 --method bca odd.tsv
is "$rc:$(row "$T/out"):$(cat "$T/err")" "0:41|35|35|35|+:" "BCa, the one replicate = est: no fallback, no warning"
run pb-boot --group run --resamples 1 --method bca --seed 3 groups.tsv
like "$(cat "$T/err")" "^pb-boot: group '[0-9]': every replicate lies on one side" "BCa fallback per group names the group"

# --- The methods over blocks (issue 12) ---------------------------------------
# Without --method, --block gives the expanded percentile interval: the
# percentile ends read at Φ(-+sqrt(k/(k-1)) t_{k-1}(0.025)). For 8 runs,
# R: k <- 8; pnorm(sqrt(k/(k-1)) * qt(0.025, k-1)) = 0.0064430...,
# so with B = 200000 the ends are the 1288.6th and 198711.4th order
# statistics of the same replicates the percentile reads at 5000.025.
run pb-boot --resamples 2000 --block run runs.tsv
like "$(cat "$T/out")" '^# pb-boot.method: expanded \(percentile read at levels widened for k blocks: z = sqrt\(k/\(k-1\)\) t\(k-1\), Hesterberg 2015\)$' \
	"--block: the default method is expanded, named in the metadata"
exp_lo=$(col lo 1 "$T/out") exp_hi=$(col hi 1 "$T/out")
run pb-boot --resamples 2000 --block run --method expanded runs.tsv
is "$(rows "$T/out")" "$(printf '100\t-15.5\t%s\t%s\t0' "$exp_lo" "$exp_hi")" "--method expanded = the --block default"
run pb-boot --resamples 2000 --block run --method percentile runs.tsv
like "$(cat "$T/out")" '^# pb-boot.method: percentile$' "--block --method percentile: the plain percentile, by name"
awk -v a="$exp_lo" -v b="$exp_hi" -v c="$(col lo 1 "$T/out")" -v d="$(col hi 1 "$T/out")" \
	'BEGIN { exit !(a <= c && b >= d && (a < c || b > d)) }' &&
	ok "expanded ($exp_lo, $exp_hi) holds the percentile interval and is wider" ||
	not_ok "expanded ($exp_lo, $exp_hi) holds the percentile interval ($(col lo 1 "$T/out"), $(col hi 1 "$T/out"))"
# The expanded levels against the percentile's: 10 blocks of one value
# each, 0..9: the replicates are means of 10 draws; with the same seed
# the same replicates, read at 2001 * 0.0085506 = 17.11 (R:
# 2001 * pnorm(sqrt(10/9) * qt(0.025, 9))) instead of 50.025.
awk 'BEGIN { print "run\td"; for (i = 0; i < 10; i++) print i "\t" i }' >"$T/ten.tsv"
run pb-boot --stat mean --block run --method expanded "$T/ten.tsv"
saved "$T/e1"
rows "$T/e1" >"$T/e1.rows"
# (R: sprintf("%.17g", 1 - 2 * pnorm(sqrt(10/9) * qt(0.025, 9))); the
# replicates are multiples of 0.1, so a last-bit difference in the level
# moves no end)
run pb-boot --stat mean --block run --method percentile --level 0.98289872195118722 "$T/ten.tsv"
saved "$T/p1"
rows "$T/p1" >"$T/p1.rows"
same_file "$T/e1.rows" "$T/p1.rows" "expanded, 10 blocks = percentile at level 1 - 2 x 0.0085506 (R)"
# Without --block, --method expanded widens for n values, and the
# default stays the percentile.
run pb-boot --method expanded odd.tsv
like "$(cat "$T/out")" 'levels widened for k values' "--method expanded without --block: k is the values"
run pb-boot odd.tsv
like "$(cat "$T/out")" '^# pb-boot.method: percentile$' "no --block: the default is still the percentile"
# expanded-bca: BCa at the expanded levels; its fallback is the expanded
# percentile.
run pb-boot --block run --method expanded-bca runs.tsv
ran_ok "--method expanded-bca: exit 0, no warning, a row"
like "$(cat "$T/out")" '^# pb-boot.method: expanded-bca \(bias-corrected and accelerated, jackknife acceleration, at levels widened for k blocks' \
	"expanded-bca: named in the metadata"
like "$(cat "$T/out")" '^# pb-boot.ties: half ' "expanded-bca: the ties rule in the metadata"
run pb-boot --block run --method expanded-bca --stat mean --resamples 1 runs.tsv
saved "$T/b1"
rows "$T/b1" >"$T/b1.rows"
like "$(cat "$T/err")" "BCa is undefined; expanded percentile interval given$" "expanded-bca fallback: the expanded percentile, said so"
run pb-boot --block run --method expanded --stat mean --resamples 1 runs.tsv
saved "$T/x1"
rows "$T/x1" >"$T/x1.rows"
same_file "$T/b1.rows" "$T/x1.rows" "expanded-bca fallback = --method expanded"

# --- BCa's ties (issue 12) -----------------------------------------------------
# --ties below counts replicates equal to est as above, as boot.ci does;
# half (the default) counts them half below. R 4.2.2, boot 1.3-28.1, as at
# the top, with boot.ci's own BCa and the jackknife L given to it:
#   ref <- function(b) { L <- empinf(b, type = "jack"); L <- L - mean(L)
#     sprintf("%.17g", boot.ci(b, type = "bca", L = L)$bca[4:5]) }
#   x <- rd("odd.tsv")$d   # then even.tsv; runs by block as at the top
#   set.seed(1); ref(boot(x, function(d, i) median(d[i]), R = 200000))  # 15 55
#   set.seed(1); ref(boot(x, function(d, i) mean(d[i]), R = 200000))
#     # 38.536585365853661 75.731707317073173
#   even: 25 52.5;  38.359375 65.703125
#   runs: -38 24;  -35.276595744680854 14.989247311827956
# Tolerances as at the top: the median's ends are these order statistics
# exactly; the means' within 4 Monte Carlo sd of the difference.
run pb-boot --resamples $B --method bca --ties below odd.tsv
against "$T/out" 15 55 0 "odd, median, BCa --ties below vs R's boot.ci"
like "$(cat "$T/out")" '^# pb-boot.ties: below \(only replicates below est count below; as boot.ci\)$' \
	"--ties below in the metadata"
run pb-boot --resamples $B --method bca --ties below --stat mean odd.tsv
against "$T/out" 38.536585365853661 75.731707317073173 0.72 "odd, mean, BCa --ties below vs R's boot.ci"
run pb-boot --resamples $B --method bca --ties below even.tsv
against "$T/out" 25 52.5 0 "even, median, BCa --ties below vs R's boot.ci"
run pb-boot --resamples $B --method bca --ties below --stat mean even.tsv
against "$T/out" 38.359375 65.703125 0.52 "even, mean, BCa --ties below vs R's boot.ci"
run pb-boot --resamples $B --method bca --ties below --block run runs.tsv
against "$T/out" -38 24 0 "8 runs, block median, BCa --ties below vs R's boot.ci"
run pb-boot --resamples $B --method bca --ties below --block run --stat mean runs.tsv
against "$T/out" -35.276595744680854 14.989247311827956 0.90 "8 runs, block mean, BCa --ties below vs R's boot.ci"
run pb-boot --resamples $B --method bca --ties half odd.tsv
against "$T/out" 20 65 0 "odd, median: --ties half is the default rule (the reference at the top)"
# A replicate equal to est, with --ties below, counts as above: the one
# replicate 35 = est (seed 2, as above) is not below, so BCa falls back.
run pb-boot --resamples 1 --seed 2 --method bca --ties below odd.tsv
is "$rc:$(row "$T/out"):$(cat "$T/err")" "0:41|35|35|35|+:pb-boot: column 'd': every replicate lies on one side of the estimate (or on it, with --ties below), so BCa is undefined; percentile interval given" \
	"--ties below, the one replicate = est: the fallback, said so"
# Every jackknife value equal (0/0 acceleration; boot.ci stops there):
# pb-boot takes acceleration 0 and warns. cross.tsv's median leaves the
# same middle whatever value is left out.
run pb-boot --method bca cross.tsv
is "$rc:$(cat "$T/err")" "0:pb-boot: column 'd': every jackknife value is the same, so BCa's acceleration is 0/0; acceleration 0 used" \
	"BCa, every jackknife value equal: exit 0, one warning"
cp "$T/out" "$T/acc0"
run pb-boot --method bca --resamples 2000 cross.tsv
is "$(col lo 1 "$T/out") $(col hi 1 "$T/out")" "$(col lo 1 "$T/acc0") $(col hi 1 "$T/acc0")" "  the same interval twice"

# --- BCa of the mean: ties by multiset, not by the last bit (issue 12) ---------
# 0.1, 0.2, 0.3: the bootstrap law of the mean is symmetric about est and
# the jackknife values (0.25, 0.2, 0.15) are too, so z0 = 0, acc = 0 and
# BCa is the percentile interval: lo = the mean of 0.1 x 3 (an atom of
# 1/27 = 3.7 %, above 2.5 %). Resamples holding 0.1, 0.2, 0.3 in some
# order (6/27) tie with est; summed in draw order some landed an ulp
# below and BCa gave lo 0.1333. Data x 10: the same in integers.
printf 'd\n0.1\n0.2\n0.3\n' >"$T/p3.tsv"
printf 'd\n1\n2\n3\n' >"$T/i3.tsv"
for blk in "" "--block d"; do
	run pb-boot --stat mean --method bca --resamples 199999 $blk "$T/p3.tsv"
	bca=$(row "$T/out")
	near "$(col lo 1 "$T/out")" 0.1 2e-16 "0.1 0.2 0.3, mean, BCa ${blk:-rows}: lo = 0.1 (the smallest replicate)"
	near "$(col hi 1 "$T/out")" 0.3 2e-16 "0.1 0.2 0.3, mean, BCa ${blk:-rows}: hi = 0.3"
	run pb-boot --stat mean --method percentile --resamples 199999 $blk "$T/p3.tsv"
	is "$bca" "$(row "$T/out")" "  = the percentile interval (z0 = 0, acc = 0)"
	run pb-boot --stat mean --method bca --resamples 199999 $blk "$T/i3.tsv"
	is "$(row "$T/out")" "3|2|1|3|+" "1 2 3 (x 10), mean, BCa ${blk:-rows}: 1 to 3"
done

# --- Values whose statistics overflow (issue 11 item 15) -----------------------
# BCa on values near 1e200 read outside the replicates (the acceleration's
# cubes overflowed to nan, and a nan level made a position before the
# array; ASan: heap-buffer-overflow) and printed nan with exit 0. Now the
# acceleration is scale-free: the interval is that of the values / 2^664
# (9.6e199), times 2^664 (a power of 2: every sum and comparison scales
# exactly, ties included).
awk 'BEGIN { s = 2 ^ 664; print "d"; split("1 -3 5 2 7", v, " "); for (i = 1; i <= 5; i++) printf "%.17g\n", v[i] * s }' >"$T/e200.tsv"
printf 'd\n1\n-3\n5\n2\n7\n' >"$T/e0.tsv"
for s in median mean; do
	run pb-boot --method bca --stat $s "$T/e0.tsv"
	lo0=$(col lo 1 "$T/out") hi0=$(col hi 1 "$T/out")
	run pb-boot --method bca --stat $s "$T/e200.tsv"
	ran_ok "9.6e199, $s, BCa: exit 0, no warning, a row"
	near "$(col lo 1 "$T/out")" "$(awk -v v="$lo0" 'BEGIN { printf "%.17g", v * 2 ^ 664 }')" 1e-15 \
		"9.6e199, $s, BCa: lo = that of the values / 2^664, x 2^664"
	near "$(col hi 1 "$T/out")" "$(awk -v v="$hi0" 'BEGIN { printf "%.17g", v * 2 ^ 664 }')" 1e-15 \
		"9.6e199, $s, BCa: hi likewise"
done
# A level whose 1 - a rounds to 1: qnorm(1) was infinite, and BCa's upper
# level nan. The level is 1 - 2^-53 (0.9999999999999999), written to
# every digit: under memcheck, whose long double has 64 bits, the short
# form reads as 1.
# The shared level check (opt_level) now refuses such a level up front
# for every tool, so BCa never meets it; the library's guard stays, and
# the unit tests reach it directly.
run pb-boot --method bca --level 0.99999999999999988897769753748434595763683319091796875 odd.tsv
is "$rc" 2 "--level 0.9999999999999999, BCa: a usage error (opt_level)"
like "$(cat "$T/err")" '^pb-boot: --level' "  one line naming --level"
# The median of huge values of both signs: its midpoint overflowed to inf.
printf 'd\n-1.5e308\n1.5e308\n1e308\n-1e308\n' >"$T/pm.tsv"
run pb-boot --method bca "$T/pm.tsv"
like "$rc:$(row "$T/out")" '^0:4\|0\|-1\.5e308\|1\.5e308\|0$' "median of -+1.5e308, -+1e308: est 0, the ends finite"
# The mean of values whose sums overflow: refused, one line, no output.
printf 'd\n1e308\n1e308\n1.5e308\n' >"$T/ovf.tsv"
refuses 1 "^pb-boot: column 'd': values as large as 1\.5e308 overflow the sums of the mean of 3 values; rescale the column \(e\.g\. to other units\)$" \
	"mean of 1e308s: exit 1, one line, no output" pb-boot --stat mean "$T/ovf.tsv"
# 8 values of -+1e307: a sum of 8 stays below 8.99e307 (DBL_MAX / 2),
# accepted; over blocks of 1, 1, 1 and 5 values a resample may draw the
# block of 5 four times: 20 values, refused.
awk 'BEGIN { print "run\td"; for (i = 0; i < 8; i++) print (i < 3 ? i : 3) "\t" (i % 2 ? 1e307 : -1e307) }' >"$T/ovfb.tsv"
run pb-boot --stat mean "$T/ovfb.tsv"
is "$rc:$(col n 1 "$T/out")" "0:8" "mean of 8 values of -+1e307: accepted"
fails 1 "^pb-boot: column 'd': values as large as 1e307 overflow the sums of the mean of 20 values" \
	"  over blocks of 1, 1, 1 and 5 values: 20 in a resample, exit 1" pb-boot --stat mean --block run "$T/ovfb.tsv"
run pb-boot --block run "$T/ovfb.tsv"
is "$rc:$(col n 1 "$T/out")" "0:8" "  the median of the same: no sums, accepted"

# --- Errors ----------------------------------------------------------------------
{ cat groups.tsv; printf '9\t1\tA\t4\n'; } >"$T/g9.tsv"
refuses 1 "^pb-boot: group '9': only 1 value; a bootstrap interval needs at least 2$" \
	"a group of 1 value: exit 1, one line, no output" pb-boot --group run "$T/g9.tsv"
printf 'd\n7\n' >"$T/one.tsv"
fails 1 "^pb-boot: column 'd': only 1 value; a bootstrap interval needs at least 2$" \
	"one value: exit 1, one line" pb-boot "$T/one.tsv"
printf 'd\n' >"$T/empty.tsv"
fails 1 "^pb-boot: .*empty.tsv:1: no data rows after the header$" "header only: exit 1, one line" \
	pb-boot "$T/empty.tsv"
awk -F'\t' 'NR <= 2 || $1 == 3' runs.tsv >"$T/run3.tsv"
fails 1 "^pb-boot: column 'd': only 1 block of 'run'; resampling blocks needs at least 2$" \
	"--block with one block: exit 1, one line" pb-boot --block run "$T/run3.tsv"
fails 1 "^pb-boot: group '3': only 1 block of 'run'; resampling blocks needs at least 2$" \
	"--group run --block run: every group one block: exit 1" pb-boot --group run --block run groups.tsv
fails 1 "^pb-boot: groups.tsv: no column 'x' \(columns: run pair first d\)$" "missing --column: exit 1, names it" \
	pb-boot --column x groups.tsv
sed '1s/d$/d2/' groups.tsv >"$T/d2.tsv"
fails 1 "no column 'd' \(columns: run pair first d2\)$" "default column d missing: exit 1" pb-boot "$T/d2.tsv"
fails 1 "no column 'blk'" "missing --block column: exit 1" pb-boot --block blk groups.tsv
fails 1 "no column 'grp'" "missing --group column: exit 1" pb-boot --group run,grp groups.tsv
sed '6s/-60/-6o/' groups.tsv >"$T/bad.tsv"
fails 1 "^pb-boot: .*bad.tsv:6: column 'd': not a finite number: '-6o'$" "bad number: exit 1, file:line" \
	pb-boot "$T/bad.tsv"
sed '6s/-60/nan/' groups.tsv >"$T/nan.tsv"
fails 1 "nan.tsv:6: column 'd': not a finite number: 'nan'$" "nan: exit 1, file:line" pb-boot "$T/nan.tsv"
# Options that change nothing where they are given are refused, not ignored.
fails 2 "^pb-boot: --ties is how BCa counts .* it goes with --method bca or expanded-bca" \
	"--ties without BCa: usage" pb-boot --ties below odd.tsv
fails 2 "^pb-boot: --quartiles .* it takes no --method" "--quartiles --method: usage" \
	pb-boot --quartiles --method expanded odd.tsv
run pb-boot --resamples 200 --method expanded-bca --ties below odd.tsv
ran_ok "--ties with --method expanded-bca: exit 0, a row"
for a in "--stat mode" "--stat ''" "--method boot" "--method BCa" "--method expand" "--ties" \
	"--ties all" "--ties Below" "--level 0" "--level 1" "--level 1.5" \
	"--level -0.5" "--level abc" "--resamples 0" "--resamples -5" "--resamples 1.5" "--resamples abc" \
	"--resamples 100000001" "--seed -1" "--seed abc" "--seed 1.5" "--seed 9007199254740993" "--bogus" "--stat"; do
	eval "set -- $a"
	refuses 2 '^pb-boot: ' "$a: exit 2, one line, no output" pb-boot "$@" odd.tsv
done
run pb-boot --help
is "$rc:$(head -n 1 "$T/out")" "0:usage: pb-boot [options] [FILE...]" "--help: usage, exit 0"

# --- A large sample --------------------------------------------------------------
# 300000 values, i * 7919 mod 300000 for i = 0..299999: a permutation of
# 0..299999 (7919 is prime to 300000), so the median is 149999.5 and a
# value is its own rank. 200 resamples; the ends lie near the ranks
# 150000 -+ 1.96 sqrt(n)/2 = -+537 (the median's bootstrap law is close
# to normal); the Monte Carlo sd of the rank of a 2.5 % end from 200
# resamples is about 52, so allow 250.
awk 'BEGIN { print "d"; for (i = 0; i < 300000; i++) print (i * 7919) % 300000 }' >"$T/big.tsv"
run pb-boot --resamples 200 "$T/big.tsv"
is "$rc:$(col n 1 "$T/out")" "0:300000" "n = 300000: exit 0, n"
near "$(col est 1 "$T/out")" 149999.5 0 "n = 300000: est = mean of the two middles"
within "$(col lo 1 "$T/out")" 149463 250 "n = 300000: lo near rank 149463"
within "$(col hi 1 "$T/out")" 150537 250 "n = 300000: hi near rank 150537"

# --- Quantiles -------------------------------------------------------------------
# The estimate against R (odd.tsv's d):
#   sprintf("%.17g", quantile(d, c(0.9, 0.99, 0.95, 0.05), type = 7))
#   125, 211.00000000000006, 185, -15
# The replicates are exact (t/unit/boot.c: every replicate the statistic of
# its resample, the jackknife leave-one-out), so here: the ends bracket the
# estimate, q0.5 is the median to the byte, and the names.
k=0
for q in p90:125 p99:211.00000000000006 q0.95:185 q0.05:-15; do
	st=${q%%:*} want=${q#*:}
	run pb-boot --resamples 500 --stat "$st" odd.tsv
	near "$(col est 1 "$T/out")" "$want" 1e-15 "--stat $st: est = R's quantile (type 7)"
	lo=$(col lo 1 "$T/out") hi=$(col hi 1 "$T/out") est=$(col est 1 "$T/out")
	ascending "--stat $st: lo <= est <= hi" "$lo" "$est" "$hi"
	for m in "--method bca" "--block run"; do
		[ "$m" = "--block run" ] && f=runs.tsv || f=odd.tsv
		run pb-boot --resamples 200 --stat "$st" $m "$f"
		is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:1" "--stat $st $m: one row, exit 0"
	done
done
run pb-boot --resamples 500 --stat p99 odd.tsv
like "$(cat "$T/out")" '^# pb-boot.stat: p99 \(quantile 0.99, R.s type 7\)$' "--stat p99: in the metadata"
for m in "" "--method bca" "--block run" "--block run --method expanded-bca"; do
	[ -n "$m" ] && [ "${m#--block}" != "$m" ] && f=runs.tsv || f=odd.tsv
	run pb-boot --resamples 300 $m "$f"
	saved "$T/medall"
	run pb-boot --resamples 300 --stat q0.5 $m "$f"
	saved "$T/q5all"
	grep -v '^# pb-boot' "$T/medall" >"$T/med"
	grep -v '^# pb-boot' "$T/q5all" >"$T/q5"
	same_output "$T/q5" "$T/med" "--stat q0.5 $m: the median's rows, to the byte"
done
for a in "--stat q" "--stat q1.5" "--stat q-0.1" "--stat q+0.5" "--stat qnan" "--stat p50" "--stat P90"; do
	eval "set -- $a"
	fails 2 '^pb-boot: --stat ' "$a: exit 2, one line" pb-boot "$@" odd.tsv
done

# --- --jobs: threads share the resamples; each replicate's generator is
# derived from (seed, group, resample), so the output is the same at any
# number of threads. A sample large enough that pb-boot uses them (above
# a million draws): 3001 values in 2 groups and 10 runs.
awk 'BEGIN { srand(5); print "g\trun\td"
	for (i = 0; i < 3001; i++) printf "%s\t%d\t%d\n", i % 3 ? "x" : "y", i % 10 + 1,
		int(1000 * (rand() + rand() + rand())) - 1500 }' >"$T/big.tsv"
for m in "" "--stat mean" "--method bca" "--stat p90 --method expanded-bca" \
		"--group g" "--block run --resamples 200000" "--block run --stat mean --method bca --resamples 200000"; do
	pb-boot --jobs 1 $m "$T/big.tsv" >"$T/j1" 2>&1
	jrc=$?
	for j in 2 3 7; do
		pb-boot --jobs "$j" $m "$T/big.tsv" >"$T/j$j" 2>&1
		jjrc=$?
		# (lines of both, which an empty output has none of)
		if [ "$jrc:$jjrc" = 0:0 ]; then
			is_count "$(grep -vc '^# pb-boot:' "$T/j$j")" "$(grep -vc '^# pb-boot:' "$T/j1")" \
				"--jobs $j $m: exit 0, as many lines as --jobs 1"
		else not_ok "--jobs $j $m: exit 0, as many lines as --jobs 1"; diag "status $jrc (--jobs 1), $jjrc"; fi
		grep -v '^# pb-boot:' "$T/j1" >"$T/j1.rest"
		grep -v '^# pb-boot:' "$T/j$j" >"$T/jj.rest"
		same_output "$T/jj.rest" "$T/j1.rest" "--jobs $j $m: the output of --jobs 1, to the byte"
	done
done
run pb-boot "$T/big.tsv"
saved "$T/jdef"
grep -v '^# pb-boot:' "$T/jdef" >"$T/jdef.rest"
run pb-boot --jobs 1 "$T/big.tsv"
saved "$T/j1"
grep -v '^# pb-boot:' "$T/j1" >"$T/j1.rest"
same_output "$T/jdef.rest" "$T/j1.rest" "no --jobs (the online CPUs): the output of --jobs 1"
for a in 0 -1 x 1.5 257; do
	fails 2 '^pb-boot: --jobs' "--jobs $a: exit 2, one line" pb-boot --jobs "$a" odd.tsv
done

done_testing

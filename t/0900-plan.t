#!/bin/sh
# pb-plan: variance components against R's aov (balanced, unbalanced, a
# negative between-run estimate), the current half-width, the cheapest
# design against an R brute force, Kalibera & Jones' pairs per run, costs
# from options, stamps, warm-up or nothing, validation by simulation,
# errors.
. "$(dirname "$0")/lib.sh"
cd "$D/plan" || exit 1

# the ROW (by plan name) of FILE as runs|pairs|halfwidth|total_s
plan_row() {
	awk -F'\t' -v p="$1" '!/^#/ && $1 == p { print $4 "|" $5 "|" $6 "|" $7; exit }' "$2"
}
# meta KEY FILE: the value of '# KEY: ...'
meta() { sed -n "s/^# $1: //p" "$2" | tail -n 1; }

# --- Variance components against R ---------------------------------------
# References: R 4, from t/data/plan:
#   vc <- function(f, level = 0.95) {
#     x <- read.delim(f, comment.char = "#", colClasses = c(run = "character"))
#     a <- anova(aov(lr ~ factor(run), x)); MSB <- a[1, 3]; MSW <- a[2, 3]
#     n <- table(x$run); N <- sum(n); k <- length(n)
#     n0 <- (N - sum(n^2) / N) / (k - 1); s2b <- max(0, (MSB - MSW) / n0)
#     hw <- qt(1 - (1 - level) / 2, k - 1) * sqrt(s2b / k + MSW / (k * (N / k)))
#     sprintf("%.17g", c(s2b, MSW, hw, (MSB - MSW) / n0)) }
# The tolerance 1e-9 (relative) leaves room for summation order only.
run pb-plan balanced.tsv
# vc("balanced.tsv"): 4 runs x 5 pairs
near "$(col sigma2_between 1 "$T/out")" 0.00091721225924499986 1e-9 "balanced: sigma2_between = R's (MSB - MSW) / n"
near "$(col sigma2_within 1 "$T/out")" 6.7170120625000015e-05 1e-9 "balanced: sigma2_within = R's MSW"
near "$(col halfwidth 1 "$T/out")" 0.048542642354460389 1e-9 "balanced: current half-width = R's qt(0.975, 3) * sqrt(s2b/4 + s2w/20)"
is "$(col plan 1 "$T/out") $(col runs 1 "$T/out") $(col pairs 1 "$T/out")" "current 4 5" "balanced: the current row is 4 runs x 5 pairs"
like "$(meta pb-plan.model "$T/out")" 'n0 = 5;' "balanced: n0 = 5 in the metadata"
run pb-plan --level 0.9 balanced.tsv
# vc("balanced.tsv", level = 0.9)
near "$(col halfwidth 1 "$T/out")" 0.03589643581919455 1e-9 "balanced, --level 0.9: half-width = R's qt(0.95, 3) * ..."

# unbalanced.tsv: runs 3, 1, 10, 2, 7 of 2, 7, 3, 5, 4 pairs (N = 21), ids
# compared as text, one row of run 1 moved to the end.
run pb-plan unbalanced.tsv
# vc("unbalanced.tsv"); n0 = (21 - 103/21)/4 = 4.0238095238095237
near "$(col sigma2_between 1 "$T/out")" 0.0005840653697244823 1e-9 "unbalanced: sigma2_between = R's (MSB - MSW) / n0"
near "$(col sigma2_within 1 "$T/out")" 0.00012881510955505956 1e-9 "unbalanced: sigma2_within = R's MSW"
near "$(col halfwidth 1 "$T/out")" 0.030785646849193452 1e-9 "unbalanced: current half-width with pbar = N/k = 4.2"
is "$(col runs 1 "$T/out") $(col pairs 1 "$T/out")" "5 4.2" "unbalanced: current is 5 runs x 4.2 pairs (the mean)"
like "$(meta pb-plan.model "$T/out")" 'n0 = 4\.023809523809524;' "unbalanced: n0 = 4.023809523809524 in the metadata, printed shortest"

run pb-plan negative.tsv
# vc("negative.tsv"): (MSB - MSW) / n0 = -7.6944444444444451e-05, so 0
is "$(col sigma2_between 1 "$T/out")" 0 "negative between-run estimate is set to 0"
near "$(col sigma2_within 1 "$T/out")" 0.00030877777777777777 1e-9 "negative: sigma2_within = R's MSW"
near "$(col halfwidth 1 "$T/out")" 0.021825725605249209 1e-9 "negative: current half-width uses sigma2_between = 0"

# --- The cheapest design against a brute force -------------------------
# R: for every r in 2..400 and p in 1..400, the half-width and the cost
# r * (run_cost + p * pair_cost); the cheapest that reaches the target
# (unique: the next cost up is given), and Kalibera & Jones' p* with the
# fewest runs that reach the target with it:
#   brute <- function(s2b, s2w, target, rc, pc, level = 0.95) {
#     g <- expand.grid(r = 2:400, p = 1:400)
#     g$hw <- qt(1 - (1 - level) / 2, g$r - 1) * sqrt(s2b / g$r + s2w / (g$r * g$p))
#     g$cost <- g$r * (rc + g$p * pc); ok <- g[g$hw <= target, ]
#     print(ok[ok$cost == min(ok$cost), ]); print(sort(unique(ok$cost))[2] / 1e9)
#     pk <- max(1, round(sqrt(rc * s2w / (pc * s2b))))
#     rk <- min(g$r[g$p == pk & g$hw <= target])
#     sprintf("%.17g", c(pk, rk, qt(1 - (1 - level) / 2, rk - 1) *
#       sqrt(s2b / rk + s2w / (rk * pk)), rk * (rc + pk * pc) / 1e9)) }
# with s2b, s2w the vc() values above.
# checks FILE TARGET RUN_COST_NS PAIR_COST_NS NAME: every row but current
# reaches the target and costs no less than best; every row's total_s is
# r * (run_cost + p * pair_cost) / 1e9.
checks() {
	awk -F'\t' -v h="$2" -v rc="$3" -v pc="$4" '
		/^#/ { next } !hd { hd = 1; next }
		$1 == "best" { best = $7 }
		{ want = $4 * (rc + $5 * pc) / 1e9; d = $7 - want
		  if (d > 1e-12 * want || -d > 1e-12 * want) { print "total_s", $0; bad = 1 } }
		$1 != "current" && ($6 > h || (best != "" && $7 < best)) { print "row", $0; bad = 1 }
		END { exit bad || best == "" }' "$1" >"$T/why"
	if [ $? -eq 0 ]; then ok "$5"; else not_ok "$5"; diag "$(cat "$T/why")"; fi
}
# kj_pairs FILE RUN_COST PAIR_COST: p* from the row's own variances
kj_pairs() {
	awk -F'\t' -v rc="$2" -v pc="$3" '!/^#/ && $1 == "current" {
		p = sqrt(rc * $3 / (pc * $2)); p = int(p + 0.5); print p < 1 ? 1 : p }' "$1"
}

run pb-plan --target 0.005 --run-cost 100ms --pair-cost 1ms unbalanced.tsv
# brute(s2b, s2w, 0.005, 1e8, 1e6): best r 96, p 6, hw 0.004985965547364149,
# 10.176 s (next 10.185 s); K&J: p* 5, r 97, 0.0049770846976384927, 10.185
is "$(plan_row best "$T/out" | cut -d'|' -f1,2,4)" "96|6|10.176" "target 0.005: best = R brute force (96 runs x 6 pairs, 10.176 s)"
near "$(col halfwidth 2 "$T/out")" 0.004985965547364149 1e-9 "target 0.005: best's half-width = R's"
checks "$T/out" 0.005 100000000 1000000 "target 0.005: every plan reaches the target, none beats best, total_s = r(run + p pair)"
is "$(kj_pairs "$T/out" 1e8 1e6)" 5 "target 0.005: p* = round(sqrt(run_cost s2w / (pair_cost s2b))) = 5"
is "$(plan_row kalibera_jones "$T/out" | cut -d'|' -f1,2,4)" "97|5|10.185" "target 0.005: kalibera_jones row = p* pairs, fewest runs (R: 97)"
near "$(plan_row kalibera_jones "$T/out" | cut -d'|' -f3)" 0.0049770846976384927 1e-9 "target 0.005: kalibera_jones half-width = R's"
is "$(meta pb-plan.target "$T/out")" 0.005 "target in the metadata"
is "$(rows "$T/out" | cut -f1 | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" \
	"alternative:4 best:1 current:1 kalibera_jones:1 " "target 0.005: rows current, best, kalibera_jones, 4 alternatives"

run pb-plan --target 0.02 --run-cost 100ms --pair-cost 1ms unbalanced.tsv
# brute(s2b, s2w, 0.02, 1e8, 1e6): best 9 x 2, 0.918 s (next 0.927 s);
# K&J: p* 5, r 9, 0.945 s, so best is not K&J here
is "$(plan_row best "$T/out" | cut -d'|' -f1,2,4)" "9|2|0.918" "target 0.02: best = R brute force (9 x 2, 0.918 s)"
is "$(plan_row kalibera_jones "$T/out" | cut -d'|' -f1,2,4)" "9|5|0.945" "target 0.02: kalibera_jones = 9 x 5, 0.945 s"
checks "$T/out" 0.02 100000000 1000000 "target 0.02: every plan reaches the target, none beats best"

run pb-plan --target 0.02 --run-cost 3ms --pair-cost 250us balanced.tsv
# brute(s2b, s2w, 0.02, 3e6, 2.5e5) on balanced: best 12 x 1, 0.039 s
# (next 0.042); p* = round(sqrt(3e6 * s2w / (2.5e5 * s2b))) = round(0.94) = 1
is "$(plan_row best "$T/out" | cut -d'|' -f1,2,4)" "12|1|0.039" "balanced, target 0.02: best = R brute force (12 x 1)"
is "$(plan_row kalibera_jones "$T/out" | cut -d'|' -f1,2)" "12|1" "balanced: p* below 1.5 gives 1 pair per run"
checks "$T/out" 0.02 3000000 250000 "balanced, target 0.02: every plan reaches the target, none beats best"

run pb-plan --target 0.01 --run-cost 1ms --pair-cost 1ms negative.tsv
# brute(0, s2w, 0.01, 1e6, 1e6): best 9 x 2, 0.027 s (next 0.028)
is "$(plan_row best "$T/out" | cut -d'|' -f1,2,4)" "9|2|0.027" "sigma2_between 0: best = R brute force (9 x 2)"
is "$rc:$(plan_row kalibera_jones "$T/out"):$(col plan 2 "$T/out")" "0::best" "sigma2_between 0: no kalibera_jones row (p* unbounded)"

run pb-plan --target 0.001 --max-runs 10 --run-cost 1ms --pair-cost 1ms balanced.tsv
is "$rc $(rows "$T/out" | cut -f1 | tr '\n' ' ')" "0 current " "unreachable target: only the current row"
like "$(cat "$T/err")" '^pb-plan: no design with at most 10 runs reaches a half-width of 0\.001$' "unreachable target: a warning says so"

# --- Costs --------------------------------------------------------------
# cost KEY: "NS (HOW)", the cost pb-compare reads and the note beside it
cost() { printf '%s (%s)' "$(meta "pb-plan.$1" "$T/out")" "$(meta "pb-plan.$1.note" "$T/out")"; }
run pb-plan --run-cost 100ms --pair-cost 1ms unbalanced.tsv
is "$(col total_s 1 "$T/out")" 0.521 "current total_s = 5 * (100 ms + 4.2 * 1 ms) = 0.521 s"
is "$(cost run_cost) / $(cost pair_cost)" \
	"100000000 (given) / 1000000 (given)" "given costs: in whole ns, and the notes say given"

# stamps.tsv: a + b per run 8000, 4000, 6000, 2000 ns over 8 pairs, so a
# pair costs 2500 ns. Starts 2028-02-29T23:59:59.990, 2028-03-01T00:00:00.000,
# .020, .025 (a leap day, and March, where the civil-day count's year
# begins): gaps less the earlier run's pairs are 10 ms - 8000 ns,
# 20 ms - 4000 ns, 5 ms - 6000 ns; the median is 9992000 ns. Its
# '# warmup: 3' is not used: stamps come first.
run pb-plan stamps.tsv
is "$(cost pair_cost)" "2500 (measured: mean of a + b)" "pair cost: the mean of a + b, said to be measured"
is "$(cost run_cost)" \
	"9992000 (measured: median gap between run starts less the run's measured pairs)" \
	"run cost from the '# run:' start stamps (median gap less the earlier run's pairs)"
is "$(col total_s 1 "$T/out")" 0.039988 "current total_s = 4 * (9992000 + 2 * 2500) ns"
# The same pairs of a duet study (# order: duet): A and B ran at once, so a
# pair costs the longer of a and b (here a = b: 1250 ns), and the gaps less
# the runs' longer halves are 10 ms - 4000, 20 ms - 2000, 5 ms - 3000 ns,
# median 9996000; current total 4 * (9996000 + 2 * 1250) ns = 0.039994 s.
sed 's/^# warmup: 3$/&\
# order: duet/' stamps.tsv >"$T/duet-stamps.tsv"
run pb-plan "$T/duet-stamps.tsv"
is "$(cost pair_cost)|$(cost run_cost)|$(col total_s 1 "$T/out")" \
	"1250 (measured: mean of the longer of a and b (duet: A and B at once))|9996000 (measured: median gap between run starts less the run's measured pairs)|0.039994" \
	"duet: a pair costs the longer of a and b, in the pair and the run cost"
# warmup.tsv: the same pairs, one stamp only, '# warmup: 4': 4 * 2500 ns
run pb-plan warmup.tsv
is "$(cost run_cost)" "10000 (estimated: 4 warm-up pairs)" "run cost without two stamps: warm-up pairs x pair cost"
run pb-plan balanced.tsv
like "$(cost run_cost)" '^0 \(unknown, taken as 0' "run cost with neither stamps nor warm-up: 0, and the metadata says so"
is "$(col total_s 1 "$T/out")" \
	"$(awk -F'\t' 'NR > 1 { s += $4 + $5 } END { printf "%.9g", s / 1e9 }' balanced.tsv)" \
	"no run cost: current total_s = the measured pairs' time"
# raw.tsv through pb-pair and pb-logratio: the stamps survive the pipeline.
# Measured a + b: run 1 4000 ns, run 2 6000 ns; starts 0, 5 ms, 12 ms:
# gaps 4996000 and 6994000, median 5995000.
pb-pair raw.tsv | pb-logratio >"$T/raw-lr.tsv"
run pb-plan "$T/raw-lr.tsv"
like "$(cost run_cost)" '^5995000 \(measured' "run cost from a raw stream through pb-pair | pb-logratio"
run pb-plan --pair-cost 1ms noab.tsv
is "$rc $(col plan 1 "$T/out")" "0 current" "no a and b columns: --pair-cost is enough"
# without --target the costs are not needed: total_s is left empty, and
# no 'nan' is written, even with a warm-up count to multiply
{ echo '# warmup: 4'; cat noab.tsv; } >"$T/noab-warm.tsv"
run pb-plan "$T/noab-warm.tsv"
is "$rc|$(col plan 1 "$T/out")|$(col total_s 1 "$T/out")|$(cost pair_cost)" \
	"0|current|| (unknown (no a and b columns))" \
	"no a and b, no --target: exit 0, total_s empty, pair cost unknown: no number, the note says so"
is "$rc:$(grep -ci nan "$T/out"):$(row_count "$T/out")" 0:0:1 "no a and b, no --target: no 'nan' in the output"

# --- Validation by simulation --------------------------------------------
# Normal deviates in awk from MRG32k3a (L'Ecuyer 1999; its double form is
# exact, so every awk draws the same numbers) by Box-Muller. A Park-Miller
# generator was tried first: its Box-Muller pairs made t intervals cover
# 0.956 on average over 6 seeds, so it is not used.
GEN='function u(  p, k) {
	if (!seeded) { x10 = x11 = x12 = y20 = y21 = y22 = seed; seeded = 1
		for (k = 0; k < 16; k++) u() }
	p = 1403580 * x11 - 810728 * x10; k = int(p / 4294967087); p -= k * 4294967087
	if (p < 0) p += 4294967087
	x10 = x11; x11 = x12; x12 = p
	p = 527612 * y22 - 1370589 * y20; k = int(p / 4294944443); p -= k * 4294944443
	if (p < 0) p += 4294944443
	y20 = y21; y21 = y22; y22 = p
	return (x12 > y22 ? x12 - y22 : x12 - y22 + 4294967087) * 2.328306549295727688e-10
}
function gauss(  r) {
	if (have) { have = 0; return g2 }
	r = sqrt(-2 * log(u())); th = 6.283185307179586 * u()
	g2 = r * sin(th); have = 1; return r * cos(th)
}'
# The first 16 draws are dropped: from six equal small words the first
# ones are far from uniform (seed 11 starts at 0.0037). L'Ecuyer's C code
# seeded 12345 draws 0.1270111220 first, then 0.2989749434 and
# 0.0341544971 as its 17th and 18th.
is "$(awk -v seed=12345 "$GEN"' BEGIN { printf "%.10f %.10f", u(), u() }')" \
	"0.2989749434 0.0341544971" "the generator draws MRG32k3a's sequence (L'Ecuyer's C code)"

# (a) Estimates. S = 200 studies of k = 10 runs, lr = 0.01 + b + e with
# b ~ N(0, 0.03^2) (sigma2_between 9e-4) and e ~ N(0, 0.1^2) (sigma2_within
# 0.01); balanced (50 pairs) and unbalanced (20..80 pairs, uniform). Both
# method-of-moments estimates are unbiased (E MSB = s2w + n0 s2b); the
# truncation at 0 adds a bias below 1e-6 (P(MSB < MSW) ~ 0.4 %, by
# about s2w / n0 each time) against a standard error of the mean near
# 4e-5. So the mean over the studies must be within 4 standard errors (the
# estimates' sd / sqrt(S)) of the truth: a correct estimator fails that
# about once in 15000. Balanced, theory: sd(s2b) ~ sqrt(2 / 9) (0.01 +
# 50 * 9e-4) / 50 and sd(s2w) = 0.01 sqrt(2 / 490), so the standard errors
# of the means are 3.7e-5 and 4.5e-5 (4 % and 0.45 % of the truth); the
# simulated ones are 3.6e-5 and 4.7e-5. Got (z): s2b +0.64, s2w -1.07
# balanced; -0.31, -1.30 unbalanced.
simulate_estimates() {   # SEED NMIN NMAX PREFIX: writes $T/PREFIX-NNN.tsv
	awk -v seed="$1" -v nlo="$2" -v nhi="$3" -v pre="$T/$4" "$GEN"'
	BEGIN { for (st = 1; st <= 200; st++) {
		f = sprintf("%s-%03d.tsv", pre, st); print "run\tpair\tlr" >f
		for (i = 1; i <= 10; i++) { b = 0.03 * gauss(); n = nlo + int(u() * (nhi - nlo + 1))
			for (j = 1; j <= n; j++) printf "%d\t%d\t%.17g\n", i, j, 0.01 + b + 0.1 * gauss() >f }
		close(f) } }'
	for f in "$T/$4"-*.tsv; do
		pb-plan --pair-cost 1ms "$f" | awk -F'\t' '$1 == "current" { print $2 "\t" $3 }'
	done >"$T/$4.est"
}
# mean_se FILE COLUMN: the mean and its standard error
mean_se() {
	awk -v c="$2" '{ x = $c; n++; s += x; ss += x * x } END { m = s / n
		printf "%.6g %.6g %d\n", m, sqrt((ss - n * m * m) / (n - 1) / n), n }' "$1"
}
# centred NAME MEAN SE N TRUTH: the mean within 4 standard errors of the truth
centred() {
	if [ "$4" = 200 ] && awk -v m="$2" -v se="$3" -v t="$5" 'BEGIN { exit !(m - t <= 4 * se && t - m <= 4 * se) }'
	then ok "$1"; else not_ok "$1"
		diag "mean $2, s.e. $3 over $4 studies, truth $5"; fi
}
# (400 runs of pb-plan on the paths checked above: a quarter of an hour
# under valgrind, which checks memory, not these statistics)
if [ "${PB_VALGRIND:-0}" = 1 ]; then
	for i in 1 2 3 4; do skip "simulated studies: not under valgrind"; done
else
simulate_estimates 11 50 50 bal
centred "simulated, balanced 10 x 50: mean sigma2_between within 4 s.e. of 9e-4" $(mean_se "$T/bal.est" 1) 9e-4
centred "simulated, balanced 10 x 50: mean sigma2_within within 4 s.e. of 0.01" $(mean_se "$T/bal.est" 2) 0.01
simulate_estimates 12 20 80 unb
centred "simulated, unbalanced 10 x 20..80: mean sigma2_between within 4 s.e. of 9e-4" $(mean_se "$T/unb.est" 1) 9e-4
centred "simulated, unbalanced 10 x 20..80: mean sigma2_within within 4 s.e. of 0.01" $(mean_se "$T/unb.est" 2) 0.01
fi

# (b) Planned against achieved. A pilot of 20 runs x 40 pairs whose sample
# moments are exactly the truth (run effects centred and scaled to a
# sample variance of s2b + s2w/40, residuals centred in each run and
# scaled to SSW / (N - k) = s2w), so the plan is made from s2b = 4e-4,
# s2w = 0.01 and planning is tested apart from estimation. The plan for
# a half-width of 0.02 at 20 ms a run and 1 ms a pair, by R's brute
# force (brute(4e-4, 0.01, 0.02, 2e7, 1e6)): 12 runs x 17 pairs,
# 0.019973614867562394, 0.444 s. Then M = 2000 fresh studies of that
# design from the truth (mean 0.01), each one's t interval of the mean of
# its per-run means by pb-tint --group study.
# Expectations: coverage 0.95 exactly (the run means are i.i.d. normal),
# binomial s.e. 0.0049, allowed 4 s.e. = 0.0195; the mean achieved
# half-width is c4(12) = 0.97756 times the prediction (E s = c4 sigma),
# allowed 10 % of the prediction, and more tightly c4 times it within 4
# s.e. of the mean (the half-widths' sd / sqrt(M), about 0.55 %); the
# variance of the study means is (prediction / t)^2, relative s.e.
# sqrt(2 / (M - 1)) = 3.2 %, allowed 4 s.e. Got: mean half-width 0.019653
# (0.984 of the prediction; c4 x prediction 0.019525, z = 1.34), coverage
# 0.9450, variance of the study means 8.90e-5 against 8.24e-5 (z = 2.56).
awk -v seed=13 -v k=20 -v n=40 -v sb2=4e-4 -v sw2=0.01 "$GEN"'
BEGIN { for (i = 1; i <= k; i++) { b[i] = gauss(); mb += b[i] / k; for (j = 1; j <= n; j++) e[i, j] = gauss() }
	for (i = 1; i <= k; i++) { b[i] -= mb; vb += b[i] * b[i] / (k - 1); m = 0
		for (j = 1; j <= n; j++) m += e[i, j] / n
		for (j = 1; j <= n; j++) { e[i, j] -= m; ssw += e[i, j] * e[i, j] } }
	cb = sqrt((sb2 + sw2 / n) / vb); cw = sqrt(sw2 / (ssw / (k * n - k)))
	print "run\tpair\tlr"
	for (i = 1; i <= k; i++) for (j = 1; j <= n; j++) printf "%d\t%d\t%.17g\n", i, j, 0.01 + cb * b[i] + cw * e[i, j] }' >"$T/pilot.tsv"
run pb-plan --target 0.02 --run-cost 20ms --pair-cost 1ms "$T/pilot.tsv"
cp "$T/out" "$T/plan.tsv"
near "$(col sigma2_between 1 "$T/plan.tsv")" 4e-4 1e-9 "pilot: sigma2_between is the truth, 4e-4"
near "$(col sigma2_within 1 "$T/plan.tsv")" 0.01 1e-9 "pilot: sigma2_within is the truth, 0.01"
is "$(plan_row best "$T/plan.tsv" | cut -d'|' -f1,2,4)" "12|17|0.444" "pilot: best plan = R brute force, 12 runs x 17 pairs"
near "$(plan_row best "$T/plan.tsv" | cut -d'|' -f3)" 0.019973614867562394 1e-9 "pilot: predicted half-width = R's"
# p* = round(sqrt(2e7 * 0.01 / (1e6 * 4e-4))) = round(22.36) = 22; R: 11 runs
is "$(plan_row kalibera_jones "$T/plan.tsv" | cut -d'|' -f1,2,4)" "11|22|0.462" "pilot: kalibera_jones = 11 runs x 22 pairs (p* rounded, not raised)"
r=$(plan_row best "$T/plan.tsv" | cut -d'|' -f1)
p=$(plan_row best "$T/plan.tsv" | cut -d'|' -f2)
pred=$(plan_row best "$T/plan.tsv" | cut -d'|' -f3)
awk -v seed=14 -v r="${r:-2}" -v p="${p:-1}" "$GEN"'
BEGIN { print "study\trun\tm"
	for (st = 1; st <= 2000; st++) for (i = 1; i <= r; i++) { x = 0; b = 0.02 * gauss()
		for (j = 1; j <= p; j++) x += 0.01 + b + 0.1 * gauss()
		printf "%d\t%d\t%.17g\n", st, i, x / p } }' |
	pb-tint --column m --group study >"$T/studies.tsv"
# c4(r) = sqrt(2 / (r - 1)) G(r/2) / G((r - 1)/2), by G(x + 1) = x G(x)
set -- $(awk -F'\t' -v mu=0.01 -v r="${r:-2}" -v pred="${pred:-1}" '
	/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	{ w = ($c["hi"] - $c["lo"]) / 2; n++; sw += w; sww += w * w; t = $c["t"]
	  cov += $c["lo"] <= mu && mu <= $c["hi"]; m = $c["mean"]; sm += m; smm += m * m }
	END { g = 1 / sqrt(3.141592653589793); for (k = 2; k < r; k++) g = (k - 1) / 2 / g
	  c4 = sqrt(2 / (r - 1)) * g; mw = sw / n; se = sqrt((sww - n * mw * mw) / (n - 1) / n)
	  printf "%d %.6g %.6g %.6g %.4f %.6g %.6g\n", n, mw, se, c4, cov / n,
	    (smm - sm * sm / n) / (n - 1), (pred / t) ^ 2 }' "$T/studies.tsv")
M=${1:-0} achieved=${2:-0} se=${3:-1} c4=${4:-0} cover=${5:-0} var=${6:-0} pvar=${7:-1}
is "$M" 2000 "2000 simulated studies analysed"
near "$achieved" "$pred" 0.10 "achieved mean half-width within 10 % of the prediction"
within "$achieved" "$(awk -v p="$pred" -v c="$c4" 'BEGIN { print p * c }')" "$(awk -v s="$se" 'BEGIN { print 4 * s }')" \
	"achieved mean half-width = c4(r) x prediction within 4 s.e."
within "$cover" 0.95 0.0195 "coverage of the true mean within 4 binomial s.e. of 0.95"
near "$var" "$pvar" "$(awk 'BEGIN { print 4 * sqrt(2 / 1999) }')" "variance of the study means = (prediction / t)^2 within 4 s.e."

# --- Numbers a double cannot hold ----------------------------------------
# No row shows inf or nan. Values near 1e308 overflow the variances; values
# 1e-170 apart underflow them to 0, which would read as "no noise".
printf 'run\td\n1\t1e308\n1\t1.1e308\n2\t1.2e308\n2\t1.3e308\n' >"$T/huge.tsv"
refuses 1 '^pb-plan: values too large: their variances overflow a double$' \
	"d near 1e308: refused, not nan, no output" pb-plan --column d "$T/huge.tsv"
printf 'run\td\n1\t1e-170\n1\t1.1e-170\n2\t1.2e-170\n2\t1.3e-170\n' >"$T/tiny.tsv"
fails 1 '^pb-plan: values too close together: their variances underflow a double \(rescale the column\)$' \
	"d 1e-170 apart: refused, not sigma2 = 0" pb-plan --column d "$T/tiny.tsv"
# Runs with equal means and a within-run variance of 2e300: reaching a
# half-width of 1e-100 needs more pairs than a double holds (s2w / room
# overflows): no design, not a row of inf pairs.
printf 'run\td\n1\t1e150\n1\t-1e150\n2\t1e150\n2\t-1e150\n' >"$T/wide.tsv"
run pb-plan --column d --target 1e-100 --pair-cost 1ms "$T/wide.tsv"
is "$rc:$(rows "$T/out" | cut -f 1 | tr '\n' ' '):$(grep -c 'inf\|nan' "$T/out")" "0:current :0" \
	"more pairs than a double holds: only the current row, no inf"
is "$(cat "$T/err")" "pb-plan: no design with at most 10000 runs reaches a half-width of 1e-100" \
	"more pairs than a double holds: the usual warning"
# a + b near 1e307: each pair costs 2e307 ns, so the alternatives of 2e307
# ns x 15 runs x 2 pairs cost more than a double holds: left out.
printf 'run\td\ta\tb\n1\t1\t1e307\t1e307\n1\t2\t1e307\t1e307\n2\t3\t1\t1\n2\t5\t1\t1\n' >"$T/costly.tsv"
run pb-plan --column d --target 1 "$T/costly.tsv"
is "$rc:$(grep -c 'inf\|nan' "$T/out"):$(rows "$T/out" | cut -f 7 | grep -c '^$'):$(row_count "$T/out")" "0:0:0:3" \
	"costs near the largest double: no inf, no empty total_s"
printf 'run\td\ta\tb\n1\t1\t1e308\t1e308\n1\t2\t1\t1\n2\t3\t1\t1\n2\t5\t1\t1\n' >"$T/ab-huge.tsv"
fails 1 ':2: values too large: the sum of a \+ b overflows a double$' "a + b over the largest double" \
	pb-plan --column d "$T/ab-huge.tsv"

# --- Errors -------------------------------------------------------------
fails 1 '^pb-plan: onerun\.tsv: only 1 run' "one run: exit 1" pb-plan onerun.tsv
fails 1 '^pb-plan: byrun\.tsv: one row per run; .*--by-run' "a by-run stream: exit 1, says why" pb-plan byrun.tsv
fails 1 "^pb-plan: balanced\.tsv: no column 'value' \(columns: run pair first a b d delay lr\)" \
	"missing --column: exit 1, names it and the columns" pb-plan --column value balanced.tsv
fails 1 "no column 'id'" "missing --run column: exit 1" pb-plan --run id balanced.tsv
fails 1 '^pb-plan: no a and b columns .*give --pair-cost' "no a and b without --pair-cost: exit 1" pb-plan --target 0.01 noab.tsv
fails 2 '^pb-plan: --target must be more than 0' "--target 0: exit 2" pb-plan --target 0 balanced.tsv
fails 2 '^pb-plan: --target must be more than 0' "--target -0.01: exit 2" pb-plan --target -0.01 balanced.tsv
fails 2 "^pb-plan: --target wants a number, not '1%'" "--target 1%: exit 2" pb-plan --target 1% balanced.tsv
fails 2 '^pb-plan: --level wants a level between 0 and 1' "--level 95: exit 2" pb-plan --level 95 balanced.tsv
fails 2 '^pb-plan: --level wants' "--level 1: exit 2" pb-plan --level 1 balanced.tsv
# An arm is the first field of each row: one that begins with '#' would
# make its row a comment, and is refused as pb-cross refuses it.
pb-pair ../arms/raw3.tsv 2>/dev/null | awk -F'\t' 'BEGIN { OFS = "\t" }
	/^#/ || !h++ { print; next } $3 == "C" { $3 = "#C"; if ($4 == "C") $4 = "#C" } 1' |
	pb-logratio >"$T/hash-arm.tsv"
fails 1 "^pb-plan: .*hash-arm.tsv:[0-9]+: column 'arm': the value '#C' would begin an output row" \
	"an arm that begins with '#': exit 1, one line" pb-plan "$T/hash-arm.tsv"
fails 2 "^pb-plan: --run-cost wants a duration .*not '5 ms'" "--run-cost '5 ms': exit 2" pb-plan --run-cost '5 ms' balanced.tsv
fails 2 "^pb-plan: --run-cost wants a duration .*not '-1ms'" "--run-cost -1ms: exit 2" pb-plan --run-cost -1ms balanced.tsv
fails 2 '^pb-plan: --pair-cost must be more than 0' "--pair-cost 0: exit 2" pb-plan --pair-cost 0 balanced.tsv
fails 2 "^pb-plan: --max-runs wants" "--max-runs 1x: exit 2" pb-plan --max-runs 1x balanced.tsv
run pb-plan --help
is "$rc $(head -n 1 "$T/out")" "0 usage: pb-plan [options] [FILE...]" "--help: usage on stdout, exit 0"

done_testing

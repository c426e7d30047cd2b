#!/bin/sh
# The pipeline the tools are made for: raw | pb-pair | pb-logratio | pb-tint.
# The last output carries the provenance of every step, in order.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
V=$(sed -n 's/^VERSION = //p' ../../config.mk)

pb-pair raw-small.tsv | pb-logratio | pb-tint --threshold 1.25 --finding >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/err"):$(row_count "$T/out")" "0::1" "pb-pair | pb-logratio | pb-tint: exit 0, stderr empty"
is "$(grep -E '^# pb-(run|pair|logratio|tint): ' "$T/out" | cut -d' ' -f 2-3)" \
	"$(printf 'pb-run: 0.1.0\npb-pair: %s\npb-logratio: %s\npb-tint: %s' "$V" "$V" "$V")" \
	"provenance of pb-run, pb-pair, pb-logratio, pb-tint, in that order"
grep '^#' "$T/out" | grep -v '^# finding' >"$T/got"
{
	sed -n '1,9p' raw-small.tsv
	cat <<EOF
# pb-pair: $V pb-pair raw-small.tsv
# pair: d = b - a in ns (b is arm B, the candidate); delay = delay_b - delay_a; first = the arm that ran first
# pb-logratio: $V pb-logratio
# pb-logratio.column: lr a b
# log_ratio: lr = ln(a/b); A is the baseline, B the candidate; lr > 0 means B took less time
# run: 2 start=2026-11-30T05:00:01.000Z pid=101
# pb-pair.warmup_rows: 4 dropped
# pb-tint: $V pb-tint --threshold 1.25 --finding
# pb-tint.column: lr (log ratio ln(A/B); ratio = A/B time, > 1 means B took less time; reduction = 1 - 1/ratio)
# pb-tint.level: 0.95
# pb-tint.method: t
# pb-tint.method.note: t interval (valid for a number of runs fixed in advance)
# pb-tint.threshold: 1.25
# pb-tint.threshold.note: a ratio A/B
EOF
} >"$T/want"
is_file "$T/got" "$T/want" "every comment of every step, in stream order"

# R: a <- c(1100, 1200, 1300, 2000, 2300, 2200); b <- c(1000, 1150, 1210, 1900, 2100, 2000)
#    lr <- log1p((a - b)/b); r <- t.test(lr); n <- 6
#    sprintf("%.17g", c(mean(lr), sd(lr), sd(lr)/sqrt(n), qt(0.975, 5), r$conf.int,
#                       exp(mean(lr)), exp(r$conf.int), 1 - 1/exp(mean(lr))))
set -- n 6 0 mean 0.074531491913260695 1e-14 sd 0.023254144450732692 1e-13 \
       se 0.0094934647182113498 1e-13 df 5 0 t 2.5705818356363137 1e-12 \
       lo 0.050127763951372389 1e-12 hi 0.098935219875149 1e-12 \
       ratio 1.0773792717225941 1e-13 ratio_lo 1.0514054195059048 1e-12 \
       ratio_hi 1.1039947803226902 1e-12 reduction 0.07182175651001188 1e-12
while [ $# -gt 0 ]; do
	near "$(col $1 1 "$T/out")" $2 $3 "pairs: $1"
	shift 3
done
is "$(col verdict 1 "$T/out")" below "pairs: below 1.25 (ratio_hi 1.104 < 1.25)"
# R: formatC(c(100 * (1 - 1/exp(mean(lr))), exp(mean(lr)), exp(r$conf.int)),
#      digits = 4, format = "fg", flag = "#") = 7.182 1.077 1.051 1.104
is "$(grep '^# finding' "$T/out")" \
	"# finding: B took 7.182% less time than A: A/B time ratio 1.077, 95% CI 1.051 to 1.104 (t interval, n = 6 pairs from 2 runs, df = 5). Threshold 1.25: below; the whole interval is under it, so B is not 1.25x as fast as A. Caution: pairs inside a run are not independent, so this interval can be too narrow; pb-pair --by-run makes runs the unit." \
	"pairs: the finding, with the ratio, the runs and the caution"
is "$(tail -n 1 "$T/out" | cut -c 1-10)" "# finding:" "the finding ends the output"

# Runs as the unit: --by-run medians, then the same two steps.
# R: lr <- log1p(c(1200 - 1150, 2200 - 2000)/c(1150, 2000)); r <- t.test(lr)
pb-pair --by-run raw-small.tsv | pb-logratio | pb-tint --threshold 1.25 --finding >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/err"):$(row_count "$T/out")" "0::1" "pb-pair --by-run | pb-logratio | pb-tint: exit 0"
set -- n 2 0 mean 0.068934897111560395 1e-14 sd 0.037300282495531877 1e-13 \
       se 0.026375282692764467 1e-13 df 1 0 t 12.706204736174694 1e-12 \
       lo -0.26619484475718996 1e-12 hi 0.4040646389803107 1e-12 \
       ratio 1.0713664578268827 1e-13 ratio_lo 0.76628980540310665 1e-12 \
       ratio_hi 1.4979007666071036 1e-12 reduction 0.066612555681124785 1e-12
while [ $# -gt 0 ]; do
	near "$(col $1 1 "$T/out")" $2 $3 "runs: $1"
	shift 3
done
is "$(col verdict 1 "$T/out")" crosses "runs: crosses 1.25"
like "$(grep '^# finding' "$T/out")" \
	'^# finding: No difference resolved: A/B time ratio 1\.071, 95% CI 0\.7663 to 1\.498 \(t interval, n = 2 runs, df = 1\)\. Threshold 1\.25: crosses; [^C]*$' \
	"runs: the finding counts runs, no caution; the interval includes 1, so no direction"
is "$(grep -E '^# pb-(run|pair|logratio|tint): ' "$T/out" | cut -d' ' -f 2,4-)" \
	"$(printf 'pb-run: pb-run --runs 2 --pairs 3 --warmup 1 -- ./old ./new\npb-pair: pb-pair --by-run raw-small.tsv\npb-logratio: pb-logratio\npb-tint: pb-tint --threshold 1.25 --finding')" \
	"runs: the provenance keeps every argv"

# Grouped by run, the pairs give one interval per run, and no caution.
pb-pair raw-small.tsv | pb-logratio | pb-tint --group run --finding >"$T/out" 2>"$T/err"
is "$?:$(rows "$T/out" | cut -f 1,2 | tr '\t\n' ': ')" "0:1:3 2:3 " "--group run: runs 1 and 2, 3 pairs each"
is "$(grep -c 'pairs from 1 run, ' "$T/out"):$(grep -c Caution "$T/out")" "2:0" "--group run: no caution"

done_testing

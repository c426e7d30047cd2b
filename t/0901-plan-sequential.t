#!/bin/sh
# pb-plan --sequential: the half-width of the t confidence sequence at r
# runs against hand-worked values, more runs than the fixed design for
# the same target, --tighter's target from pb-tint's interval, errors,
# and share/dev/sim-tighter: at the design pb-plan gives, how often the
# half-width at its runs reaches the target and how often a true
# difference of the target's size is resolved by then.
. "$(dirname "$0")/lib.sh"
cd "$D/plan" || exit 1

# the ROW (by plan name) of FILE as runs|pairs|halfwidth|total_s
plan_row() {
	awk -F'\t' -v p="$1" '!/^#/ && $1 == p { print $4 "|" $5 "|" $6 "|" $7; exit }' "$2"
}
meta() { sed -n "s/^# $1: //p" "$2" | tail -n 1; }

# --- The sequence's half-width against hand-worked values ----------------
# balanced.tsv: sigma2_between and sigma2_within as t/0900 checks them
# against R's aov. The sequence's half-width at r runs of p pairs is
# tstar(r) * sqrt(s2b + s2w/p) / sqrt(r), tstar from lib/seq.h's closed
# form, computed apart from lib/seq.c by python3:
#   from math import *
#   s2b = 0.00091721225924499986; s2w = 6.7170120625000015e-05
#   def hw(r, p, g=25, level=0.95):
#       a = 1 - level; c = 1 + r*g; K = (sqrt(c)/a)**(2/r)
#       if K >= c: return None          # unbounded
#       t = sqrt((r-1)*(K-1)/(1-K/c)); return '%.17g' % (t*sqrt(s2b + s2w/p)/sqrt(r))
#   hw(4, 5) = 0.1034382913171773     hw(4, 5, 25, 0.9) = 0.083626467177940145
#   hw(9, 1) = 0.047646989951119607   hw(8, 1, 1) = 0.04715384868556053
#   hw(8, 3, 1) = 0.046068838762424687  hw(4, 5, 1) = None
run pb-plan --sequential balanced.tsv
near "$(plan_row current "$T/out" | cut -d'|' -f3)" 0.1034382913171773 1e-12 "r 4, p 5, g 25: the sequence's half-width"
is "$(meta pb-plan.sequential "$T/out"):$(meta pb-plan.seq_g "$T/out"):$(meta pb-plan.level "$T/out")" "t:25:0.95" \
	"the metadata names the sequence, its g and level"
like "$(meta pb-plan.model "$T/out")" 'tstar\(r, g, level\)' "the model line gives the sequence's half-width"
run pb-plan --sequential --level 0.9 balanced.tsv
near "$(plan_row current "$T/out" | cut -d'|' -f3)" 0.083626467177940145 1e-12 "r 4, p 5, level 0.9"
run pb-plan --sequential --target 0.05 --run-cost 1ms --pair-cost 1ms balanced.tsv
is "$(plan_row best "$T/out" | cut -d'|' -f1,2)" "9|1" "target 0.05: best 9 runs x 1 pair (8 runs reach only 0.0499 at g 25)"
near "$(plan_row best "$T/out" | cut -d'|' -f3)" 0.047646989951119607 1e-12 "r 9, p 1: the half-width"
run pb-plan --sequential --seq-g 1 --target 0.05 --run-cost 1s --pair-cost 10ms balanced.tsv
near "$(plan_row best "$T/out" | cut -d'|' -f3)" 0.04715384868556053 1e-12 "g 1, r 8, p 1: the half-width"
near "$(plan_row kalibera_jones "$T/out" | cut -d'|' -f3)" 0.046068838762424687 1e-12 "g 1, r 8, p 3: the half-width"
is "$rc:$(plan_row current "$T/out" | cut -d'|' -f1-3)" "0:4|5|" \
	"g 1: unbounded at 4 runs: the current half-width empty, not inf"

# --- The sequence needs more runs than the fixed design -------------------
for h in 0.05 0.03 0.02; do
	pb-plan --target $h --run-cost 1ms --pair-cost 1ms balanced.tsv >"$T/fixed"
	pb-plan --sequential --target $h --run-cost 1ms --pair-cost 1ms balanced.tsv >"$T/seq"
	is "$(awk -v f="$(plan_row best "$T/fixed" | cut -d'|' -f1)" -v s="$(plan_row best "$T/seq" | cut -d'|' -f1)" \
		'BEGIN { print (s > f && f > 0) }')" 1 "target $h: the sequence needs more runs than the t design"
done

# --- --tighter: half the bound pb-tint's interval proves ---------------
# lo 0.9941, hi 1.0075: B within 1/0.9941 - 1 = 0.74442% of A, the larger
# side; python3: b = max(1 - 1/1.0075, 1/0.9941 - 1) = 0.007444168734491385,
# log1p(b/2) = 0.003715174551863433
printf 'n\tmean\tratio\tratio_lo\tratio_hi\n12\t0\t1.001\t0.9941\t1.0075\n' >"$T/same.tsv"
run pb-plan --sequential --tighter "$T/same.tsv" --run-cost 1ms --pair-cost 1ms balanced.tsv
near "$(meta pb-plan.target "$T/out")" 0.003715174551863433 1e-12 "--tighter: the target log1p(bound / 2)"
near "$(meta pb-plan.tighter "$T/out")" 0.007444168734491385 1e-12 "--tighter: the bound in pb-plan.tighter"
is "$rc:$(plan_row best "$T/out" | cut -d'|' -f2)" "0:1" "--tighter: a best row"
printf 'n\tmean\tratio\tratio_lo\tratio_hi\n12\t0\t1.1\t1.02\t1.2\n' >"$T/faster.tsv"
# with pb-tint's sd of the runs' statistic (0.061 here), the components
# are scaled so that the study's design (4 runs x 5 pairs) has it;
# python3: k = 0.061**2 / (s2b + s2w/5) = 3.9982967390421855, s2b k =
# 0.0036672867851487985, the current half-width hw(4, 5) sqrt(k) =
# 0.20683253234374815 (tstar(4) 0.061 / sqrt(4))
printf 'n\tmean\tsd\tratio\tratio_lo\tratio_hi\n12\t0\t0.061\t1.001\t0.9941\t1.0075\n' >"$T/samesd.tsv"
run pb-plan --sequential --tighter "$T/samesd.tsv" --run-cost 1ms --pair-cost 1ms balanced.tsv
near "$(meta pb-plan.tighter.scale "$T/out")" 3.9982967390421855 1e-12 "--tighter with sd: the scale, sd^2 over the model's run variance"
near "$(plan_row current "$T/out" | cut -d'|' -f3)" 0.20683253234374815 1e-12 "  the study's design then has the spread its runs showed"
near "$(rows "$T/out" | awk -F'\t' '$1 == "current" { print $2 }')" 0.0036672867851487985 1e-12 "  sigma2_between scaled (and said so)"
like "$(meta pb-plan.tighter.scale.note "$T/out")" '^sigma2_between and sigma2_within scaled by it, so that the study.s design has the spread of its runs. statistic \(sd 0\.061 in ' \
	"  the note says why"
run pb-plan --sequential --tighter "$T/faster.tsv" balanced.tsv
is "$rc:$(meta pb-plan.tighter "$T/out"):$(rows "$T/out" | cut -f1 | tr '\n' ' ')" "0:none:current " \
	"--tighter, a difference resolved: no target, the current row only"
like "$(meta pb-plan.tighter.note "$T/out")" 'does not hold 1' "--tighter, resolved: the note says why"
printf 'n\tmean\tratio\tratio_lo\tratio_hi\n2\t0\t1.1\t\t\n' >"$T/unbounded.tsv"
run pb-plan --sequential --tighter "$T/unbounded.tsv" balanced.tsv
is "$rc:$(meta pb-plan.tighter "$T/out"):$(meta pb-plan.tighter.note "$T/out")" \
	"0:none:the interval is unbounded: no target" "--tighter, an unbounded sequence: no target"
printf 'arm\tratio_lo\tratio_hi\nB\t0.99\t1.01\nC\t0.99\t1.01\n' >"$T/two.tsv"
fails 1 'two.tsv:3: a second interval: --tighter takes one comparison' "--tighter with two intervals: exit 1" \
	pb-plan --tighter "$T/two.tsv" balanced.tsv
fails 1 "no column 'ratio_lo'" "--tighter on a stream without ratio_lo: exit 1" pb-plan --tighter balanced.tsv balanced.tsv

# --- Errors -------------------------------------------------------------
fails 2 '^pb-plan: --sequence median: .*pb-plan prices --sequence t' "--sequence median: refused in one line, exit 2" \
	pb-plan --sequential --sequence median balanced.tsv
fails 2 '^pb-plan: --sequence is t ' "--sequence x: exit 2" pb-plan --sequential --sequence x balanced.tsv
fails 2 '^pb-plan: --seq-g is the sequence.s: give --sequential too' "--seq-g without --sequential: exit 2" \
	pb-plan --seq-g 2 balanced.tsv
fails 2 '^pb-plan: --seq-g wants a number above 0' "--seq-g 0: exit 2" pb-plan --sequential --seq-g 0 balanced.tsv
fails 2 '^pb-plan: --tighter and --target both set the target' "--tighter with --target: exit 2" \
	pb-plan --tighter "$T/same.tsv" --target 0.01 balanced.tsv

# --- The simulation ---------------------------------------------------------
# A study of 30 runs x 40 pairs with sigma2_between 2.5e-5 and
# sigma2_within 1e-3 (seeded), pb-plan's design for a target of 0.003,
# then 2000 studies of that design with the variances pb-plan measured
# as the truth (share/dev/sim-tighter, seeded: the same on every
# machine). The half-width at the design's runs reaches the target in
# about half the studies (the sd each study measures is noisy, and the
# design is where the half-width at the spread measured meets it); a
# true difference of the target's size is resolved by then in more than
# half; with none, at most 5 % answer (the sequence's guarantee).
S=$D/../../share/dev/sim-tighter
"$S" -w 2.5e-5 1e-3 30 40 | pb-plan --sequential --target 0.003 --run-cost 50ms --pair-cost 1ms >"$T/plan"
best=$(awk -F'\t' '!/^#/ && $1 == "best" { print $2, $3, $4, $5 }' "$T/plan")
# shellcheck disable=SC2086   # four numbers; x where a stub gave none
set -- $best x x x x
like "$best" '^[^ ]+ [^ ]+ 57 53$' "the plan from the seeded study: 57 runs x 53 pairs"
"$S" -m 2000 "$1" "$2" "$3" "$4" 0.003 >"$T/sim"
value() { awk -F'\t' -v e="$1" -v c="$2" '!h { for (i = 1; i <= NF; i++) if ($i == c) j = i; h = 1; next }
	($1 == 0) == (e == 0) { print $j }' "$T/sim"; }
is "$(head -n 1 "$T/sim" | tr '\t' ' ')" "effect studies hw_reached hw_se resolved resolved_se median_hw" "its columns"
is "$(awk -v p="$(value 0 hw_reached)" -v s="$(value 0 hw_se)" 'BEGIN { print (p - 4 * s < 0.5 && p + 4 * s > 0.4) }')" 1 \
	"no difference: the half-width reaches the target in about half the studies"
is "$(awk -v p="$(value 1 resolved)" -v s="$(value 1 resolved_se)" 'BEGIN { print (p - 2 * s > 0.5) }')" 1 \
	"a true difference of the target's size: resolved in more than half the studies"
is "$(awk -v p="$(value 0 resolved)" -v s="$(value 0 resolved_se)" 'BEGIN { print (p != "" && s > 0 && p - 2 * s < 0.05) }')" 1 \
	"no difference: at most 5 % answer"
"$S" -m 2000 "$1" "$2" "$3" "$4" 0.003 >"$T/again"
is "$(test -s "$T/sim" && cmp -s "$T/again" "$T/sim" && echo same)" same "seeded: the same table twice"
run "$S"
like "$rc:$(head -n 1 "$T/err")" '^2:usage: sim-tighter' "sim-tighter without its operands: exit 2, its usage"

done_testing

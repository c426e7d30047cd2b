#!/bin/sh
# pb-tint --sequence median: the distribution-free confidence sequence of
# the median (lib/seq.c, Howard and Ramdas's beta-binomial sequence with a
# uniform mixture): its ranks worked by hand, its unbounded start, the
# study pb-run --until --sequence median makes, and a simulation under
# skewed runs, where the t sequence of the mean errs far beyond its level.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
G=$D/../gen/skewed-seq.awk

# k at n values: the least s with n ln 2 - ln(n + 1) - ln C(n, s) < ln(1/0.05).
# n = 10: s = 0 gives 10 ln 2 - ln 11 = 4.534 >= 2.996, s = 1 gives
# 4.534 - ln 10 = 2.231 < 2.996: k = 1, the interval [x(1), x(10)].
seq 1 10 | awk 'BEGIN { print "x" } { print $1 }' >ten.tsv
run pb-tint --column x --sequence median ten.tsv
ran_ok "ten values: exit 0, a row"
is "$(col lo 1 "$T/out") $(col hi 1 "$T/out")" "1 10" "n = 10: from x(1) to x(10) (hand-worked k = 1)"
is "$(col t 1 "$T/out")" "" "  no multiplier: t is empty"
is "$(meta pb-tint.method "$T/out")" sequence "  the method: sequence"
like "$(meta pb-tint.method.note "$T/out")" '^confidence sequence of the median \(anytime-valid and distribution-free' \
	"  and its note names the median"
# n = 30: R, a = 1 (uniform mixture):
#   lm <- function(s, n) n*log(2) + lbeta(s+1, n-s+1); s <- 0:15; min(s[lm(s, 30) < log(20)])  # 7
seq 1 30 | awk 'BEGIN { print "x" } { print $1 }' >thirty.tsv
run pb-tint --column x --sequence median thirty.tsv
is "$(col lo 1 "$T/out") $(col hi 1 "$T/out")" "7 24" "n = 30: from x(7) to x(24) (R: k = 7)"

# Unbounded below 8 values at 0.95: 7 ln 2 - ln 8 = 2.773 < 2.996 accepts s = 0.
seq 1 7 | awk 'BEGIN { print "lr" } { print $1 / 100 }' >seven.tsv
run pb-tint --sequence median --finding seven.tsv
ran_ok "seven values: exit 0"
is "$(col lo 1 "$T/out")|$(col hi 1 "$T/out")|$(col ratio_lo 1 "$T/out")" "||" "  lo, hi and ratio_lo empty: unbounded"
like "$(meta pb-tint.unbounded "$T/out")" 'needs at least 8 values at level 0\.95' "  the note says from 8 values"
# the ratio is exp of the median, 0.04
near "$(col ratio 1 "$T/out")" 1.0408107741923882 1e-15 "  ratio = exp(median) = exp(0.04) (R: exp(0.04))"
like "$(grep '^# finding:' "$T/out")" 'median time ratio 1\.041, the 95% confidence sequence is still unbounded \(anytime-valid median sequence, n = 7 values\)\. It needs at least 8 values at this level' \
	"  the finding names the median, no df and no g"

# Bonferroni with the median: each at 0.975, so 8 values are not enough
# (8 ln 2 - ln 9 = 3.347 < ln 40 = 3.689), 9 are (9 ln 2 - ln 10 = 3.936).
awk 'BEGIN { print "g\tx"; for (i = 1; i <= 9; i++) { print "1\t" i; print "2\t" i + 100 } }' >fam.tsv
run pb-tint --column x --group g --sequence median --adjust bonferroni fam.tsv
is "$(rows "$T/out" | cut -f1,8,9 | tr '\t\n' ' ')" "1 1 9 2 101 109 " "bonferroni, 9 values each at 0.975: [x(1), x(9)] each"
lacks "$T/out" '^# pb-tint.adjust:.*p_adj' "  and no word of p"

refuses 2 "--sequence is t .* or median" "--sequence mean: exit 2, one line" pb-tint --sequence mean ten.tsv
refuses 2 "--seq-g is the t sequence's" "--seq-g with the median sequence: exit 2" \
	pb-tint --sequence median --seq-g 3 ten.tsv
refuses 2 "--sequence goes with the confidence sequence" "--sequence with --no-sequential: exit 2" \
	pb-tint --sequence median --no-sequential ten.tsv

# pb-run --until --sequence median: the head says so, with no g, and
# pb-tint reads it (the median sequence without being asked).
run pb-run -r 12 -p 3 -w 0 --seed 3 --until parity --sequence median -- true true
ran_ok "pb-run --until parity --sequence median: exit 0"
is "$(meta seq_kind "$T/out")|$(meta seq_g "$T/out")" "median|" "  # seq_kind: median, and no # seq_g"
cp "$T/out" study.tsv
pb-pair --by-run study.tsv | pb-logratio | pb-tint >an.tsv
like "$(meta pb-tint.method.note an.tsv)" '^confidence sequence of the median' "  pb-tint analyses it with the median sequence"
refuses 2 "bounded from run 8 on, beyond --runs 7" "pb-run: 7 runs cannot bound it: exit 2" \
	pb-run -r 7 --until parity --sequence median -- true true
refuses 2 "--sequence goes with --until" "pb-run: --sequence without --until: exit 2" \
	pb-run --sequence median -- true true

# The simulation: 400 A/A sequences of skewed runs (lognormal, sigma 1),
# looked at after every run from 2 to 30. The median sequence, of median 0,
# should exclude it at some look in at most 5 % + 2 SE (28 of 400; expect
# about 2.5 %); the t sequence, of mean 0, errs in far more (about 22 %).
ever() { rows "$1" | awk -F'\t' '{ seen[$1] = 1 } $9 != "" && ($9 > 0 || $10 < 0) { hit[$1] = 1 }
	END { n = 0; for (s in seen) n++; h = 0; for (s in hit) h++; print n, h }'; }
awk -v seed=5 -v seqs=400 -v nmin=2 -v nmax=30 -v c=1 -f "$G" >med0.tsv
awk -v seed=5 -v seqs=400 -v nmin=2 -v nmax=30 -v c=1.6487212707001282 -f "$G" >mean0.tsv
pb-tint --column x --group seq,n --sequence median med0.tsv >ms.tsv
pb-tint --column x --group seq,n --sequence t mean0.tsv >ts.tsv
set -- $(ever ms.tsv) $(ever ts.tsv)
diag "skewed A/A, 400 x 29 looks: the median sequence ever excludes the median in $2, the t sequence the mean in $4"
[ "$1" = 400 ] && [ "$2" -le 28 ] && ok "the median sequence errs in at most 28 of 400 ($2)" ||
	not_ok "the median sequence errs in at most 28 of 400 ($2 of $1)"
[ "$3" = 400 ] && [ "$4" -ge 40 ] && ok "the t sequence errs in at least 40 of 400 ($4): why --sequence median" ||
	not_ok "the t sequence errs in at least 40 of 400 ($4 of $3)"
done_testing

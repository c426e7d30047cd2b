#!/bin/sh
# pb-tint --tolerance PCT: the verdict of an interval of the ratio A/B
# against an equivalence margin m = 1 + PCT/100 (equivalent inside 1/m to
# m, slower wholly under 1/m, faster wholly over m, not_slower at or over
# 1/m otherwise, not_faster at or under m otherwise, undecided), its
# finding, its metadata, and the default a study of pb-run --until
# tolerance gives it. Intervals by hand in R; bounds hit exactly by the
# median sequence, whose ends are the values themselves.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

# --- one group per verdict, t intervals at 95 %, a margin of 5 %
# R: g <- list(eq = c(0.01, -0.01, 0.005, 0, 0.002),
#   slow = c(-0.2, -0.21, -0.19, -0.205, -0.2), fast = c(0.2, 0.21, 0.19, 0.205, 0.2),
#   ns = c(0.02, 0.05, 0.03, 0.06, 0.04), nf = c(-0.02, -0.05, -0.03, -0.06, -0.04),
#   und = c(0.1, -0.1, 0.08, -0.09, 0))
#   for (k in names(g)) cat(k, sprintf("%.17g", exp(t.test(g[[k]])$conf.int)), "\n")
# eq   0.99223860754327109 1.0106479591074542   inside 1/1.05 = 0.952 to 1.05
# slow 0.81041531620447582 0.82547890237745236  under 0.952
# fast 1.2114179988366891 1.2339352181587966    over 1.05
# ns   1.0205764027122832 1.061446320722305     over 0.952, past 1.05
# nf   0.9421107600801788 0.97983844947071141   under 1.05, below 0.952
# und  0.88933525794784241 1.1199465898184431   past both
{
	echo 'g|lr'
	for v in 0.01 -0.01 0.005 0 0.002; do echo "eq|$v"; done
	for v in -0.2 -0.21 -0.19 -0.205 -0.2; do echo "slow|$v"; done
	for v in 0.2 0.21 0.19 0.205 0.2; do echo "fast|$v"; done
	for v in 0.02 0.05 0.03 0.06 0.04; do echo "ns|$v"; done
	for v in -0.02 -0.05 -0.03 -0.06 -0.04; do echo "nf|$v"; done
	for v in 0.1 -0.1 0.08 -0.09 0; do echo "und|$v"; done
} | tsv >six.tsv
run pb-tint --group g --tolerance 5 --finding six.tsv
cp "$T/out" six.out
ran_ok "--tolerance 5 over six groups: exit 0, rows"
is "$(rows six.out | cut -f1,14 | tr '\t\n' ': ')" \
	"eq:equivalent slow:slower fast:faster ns:not_slower nf:not_faster und:undecided " \
	"one verdict of each kind, in the column verdict"
k=0
for want in "0.99223860754327109 1.0106479591074542" "0.81041531620447582 0.82547890237745236" \
	"1.2114179988366891 1.2339352181587966" "1.0205764027122832 1.061446320722305" \
	"0.9421107600801788 0.97983844947071141" "0.88933525794784241 1.1199465898184431"; do
	k=$((k + 1))
	set -- $want
	near "$(col ratio_lo $k six.out)" "$1" 1e-12 "group $k: ratio_lo as R's t.test"
	near "$(col ratio_hi $k six.out)" "$2" 1e-12 "group $k: ratio_hi as R's t.test"
done
is "$(meta pb-tint.tolerance six.out)" 5 "# pb-tint.tolerance: 5"
like "$(meta pb-tint.tolerance.note six.out)" '^a margin in percent, m = 1.05: verdict equivalent when' \
	"  and its note says what the verdicts mean"
is "$(grep -c '^# pb-tint.tolerance:' six.out):$(grep -c '^# pb-tint.threshold' six.out)" 1:0 "a margin, and no threshold"
f() { grep "^# finding: \[$1\]" six.out; }
like "$(f eq)" 'Tolerance 5%: equivalent; the interval lies within 5% of 1 \(inside 1/1.05 to 1.05\): B is equivalent to A within 5%\.$' \
	"finding, equivalent"
like "$(f slow)" 'Tolerance 5%: slower; the whole interval is under 1/1.05: B is slower than A by more than the 5% tolerance\.$' \
	"finding, slower"
like "$(f fast)" 'Tolerance 5%: faster; the whole interval is over 1.05: B is faster than A by more than the 5% tolerance\.$' \
	"finding, faster"
like "$(f ns)" 'Tolerance 5%: not_slower; the interval lies at or over 1/1.05: B is not slower than A by more than 5%, but it reaches past 1.05: B may be faster by more than 5%; more runs would narrow it\.$' \
	"finding, not_slower: not slower, and no more"
like "$(f nf)" 'Tolerance 5%: not_faster; the interval lies at or under 1.05: B is not faster than A by more than 5%, but it reaches below 1/1.05: B may be slower by more than 5%; more runs would narrow it\.$' \
	"finding, not_faster: may be slower"
like "$(f und)" 'Tolerance 5%: undecided; the interval reaches below 1/1.05 and past 1.05: these data cannot say whether B is within 5% of A; more runs would narrow it\.$' \
	"finding, undecided"
run pb-tint --group g --tolerance 5% six.tsv
is "$(rows "$T/out" | cut -f14 | tr '\n' ' ')" "equivalent slower faster not_slower not_faster undecided " \
	"--tolerance 5%: the same as 5"

# --- the bounds themselves: the median sequence of 8 values at 95 % is
# their least to their most (k = 1), ends a double holds exactly; a
# margin of 25 %: 1/m = 0.8 and m = 1.25, exp(log(x)) == x for these x
# (python3: math.exp(math.log(0.8)) == 0.8, and so for 1.25, 0.7, 0.5, 1.5, 1.105)
{
	echo 'g|lr'
	for v in -0.2231435513142097 0 0 0 0 0 0 0.09984533496971612; do echo "lo_on_1/m|$v"; done
	for v in -0.35667494393873245 0 0 0 0 0 0 0.22314355131420976; do echo "hi_on_m|$v"; done
	for v in -0.6931471805599453 -0.5 -0.5 -0.5 -0.5 -0.5 -0.5 -0.2231435513142097; do echo "hi_on_1/m|$v"; done
	for v in 0.22314355131420976 0.3 0.3 0.3 0.3 0.3 0.3 0.4054651081081644; do echo "lo_on_m|$v"; done
	for v in -0.2231435513142097 0 0 0 0 0 0 0.22314355131420976; do echo "both|$v"; done
} | tsv >bounds.tsv
run pb-tint --group g --sequence median --tolerance 25 --finding bounds.tsv
cp "$T/out" bounds.out
is "$(rows bounds.out | cut -f1,11,12,14 | tr '\t\n' ': ')" \
	"lo_on_1/m:0.8:1.105:not_slower hi_on_m:0.7:1.25:not_faster hi_on_1/m:0.5:0.8:not_faster lo_on_m:1.25:1.5:not_slower both:0.8:1.25:not_slower " \
	"an end on 1/m or m: not inside, so never equivalent; on 1/m not slower, on m not faster"
like "$(grep '^# finding: \[both\]' bounds.out)" 'Tolerance 25%: not_slower; the interval lies from 1/1.25 to 1.25 with an end on a bound: B is not slower than A by more than 25% either way, but is not shown to be strictly within 25%\.$' \
	"finding, both ends on the bounds: neither beyond, not shown within"

# --- --adjust: the adjusted interval decides
# R: a <- c(0.03, 0.015, 0.045, 0.02, 0.04); b <- c(0, 0.01, -0.01, 0.005, -0.005)
#   exp(t.test(a)$conf.int) 1.0142727240239218 1.0468945101202545: equivalent at 5 %
#   exp(t.test(a, conf.level = 1 - 0.05/2)$conf.int) 1.0101240249303642 1.0511942299546437
{
	echo 'g|lr'
	for v in 0.03 0.015 0.045 0.02 0.04; do echo "a|$v"; done
	for v in 0 0.01 -0.01 0.005 -0.005; do echo "b|$v"; done
} | tsv >two.tsv
run pb-tint --group g --tolerance 5 two.tsv
is "$(col verdict 1 "$T/out"):$(col verdict 2 "$T/out")" "equivalent:equivalent" "two groups, each alone: equivalent"
for a in bonferroni holm; do
	run pb-tint --group g --tolerance 5 --adjust $a two.tsv
	cp "$T/out" adj.out
	is "$(col verdict 1 adj.out):$(col verdict 2 adj.out)" "not_slower:equivalent" \
		"--adjust $a: group a's Bonferroni interval reaches past 1.05: not_slower"
	near "$(col ratio_hi 1 adj.out)" 1.0511942299546437 1e-12 "  its ratio_hi as R's at 1 - 0.05/2"
done

# --- the confidence sequence: the verdict of its interval
run pb-tint --group g --sequential --tolerance 5 six.tsv
cp "$T/out" seq.out
bad=$(rows seq.out | awk -F'\t' '{ lo = $11; hi = $12; v = $14; m = 1.05; w = "undecided"
	if (hi <= m) w = "not_faster"
	if (lo >= 1/m) w = "not_slower"
	if (lo > m) w = "faster"
	if (hi < 1/m) w = "slower"
	if (lo > 1/m && hi < m) w = "equivalent"
	if (lo == "" || hi == "" || v != w) print $1 ": " v " (want " w ")" }')
is "$(row_count seq.out):${bad:-none}" "6:none" "--sequential: each verdict is that of the sequence's ends"
is "$(col verdict 1 seq.out):$(col verdict 6 seq.out)" "equivalent:undecided" \
	"  the sequence is wider than t, but eq stays equivalent and und undecided"

# --- a study of pb-run --until tolerance: its margin by default
{
	echo '# until: tolerance 20'
	echo '# tolerance: 20'
	echo 'run|lr'
	for v in 0.01 -0.01 0.005 0 0.002; do echo "1|$v"; done
} | tsv >study.tsv
run pb-tint --no-sequential --finding study.tsv
cp "$T/out" study.out
is "$(meta pb-tint.tolerance study.out):$(col verdict 1 study.out)" "20:equivalent" \
	"the head's # tolerance: 20 is the default margin"
run pb-tint --no-sequential --tolerance 0.5 study.tsv
is "$(meta pb-tint.tolerance "$T/out"):$(col verdict 1 "$T/out")" "0.5:undecided" \
	"--tolerance 0.5 given: it, not the head's (0.9922 to 1.011 reaches past 1/1.005 and 1.005)"
run pb-tint --no-sequential --threshold 1.1 study.tsv
is "$(meta pb-tint.tolerance "$T/out"):$(meta pb-tint.threshold "$T/out"):$(col verdict 1 "$T/out")" \
	":1.1:below" "--threshold given: the threshold's verdict, no margin"
sed 's/^# tolerance: 20$/# tolerance: 100/' study.tsv >study100.tsv
refuses 1 "^pb-tint: study100.tsv: '# tolerance: 100' is not a percentage above 0 and below 100" \
	"a head margin of 100 %: refused" pb-tint study100.tsv
{ echo 'run|a|b|d'; echo '1|10|11|1'; echo '1|12|11|-1'; } | tsv >d.tsv
sed 's/^run/# tolerance: 20\nrun/' d.tsv >dhead.tsv
run pb-tint --column d dhead.tsv
is "$rc:$(grep -c '^# pb-tint.tolerance' "$T/out"):$(rows "$T/out" | wc -l | tr -d ' '):$(grep -c verdict "$T/out")" "0:0:1:0" \
	"a head margin and a column that is no log ratio: no verdict (no margin of it)"

# --- usage
refuses 2 '^pb-tint: --threshold and --tolerance both give the verdict: one or the other' \
	"--threshold with --tolerance" pb-tint --threshold 1.1 --tolerance 2 six.tsv
refuses 2 "^pb-tint: --tolerance is a margin about ratio 1: 'd' is not a log-ratio column" \
	"--tolerance of a column that is not a log ratio" pb-tint --column d --tolerance 2 d.tsv
for v in 0 100 -1 x '' 2%% 1e999 '%' nan; do
	refuses 2 "^pb-tint: --tolerance is a percentage above 0 and below 100, such as 2 for 2 %, not '$v'" \
		"--tolerance '$v'" pb-tint --tolerance "$v" six.tsv
done
run pb-tint --help
like "$(grep -c -- '--tolerance PCT' "$T/out")" '^1$' "--help names --tolerance PCT"
run pb-tint --list-options
like "$(grep -- '^--tolerance' "$T/out")" '^--tolerance=PCT$' "--list-options lists --tolerance=PCT"

done_testing

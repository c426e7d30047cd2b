#!/bin/sh
# pb-cross: hand-computed cross-run estimates, counts and correlation on a
# four-run fixture; --each; --expect + / - / auto; by-run input; errors.
. "$(dirname "$0")/lib.sh"
cd "$D/boot" || exit 1
V=$(sed -n 's/^VERSION = //p' ../../../config.mk)
HEAD='runs|combos|right|wrong|ties|est_min|est_med|est_max|paired_right|r'
META_EST='# pb-cross.est: median b of run_b - median a of run_a, for every ordered pair of different runs: what one run of A, a change, then one run of B would have said'
META_PR='# pb-cross.paired_right: runs whose own median paired difference d has the expected sign; r = correlation of the runs'"'"' medians of a and b'
# summary FILE: the data row with '|' between fields (when there is none,
# col's "<col: no row>", which is refuses)
summary() { rows "$1" | tr '\t' '|' | grep . || echo "<col: no row in $1>"; }

# cross.tsv by hand; runs appear in the order 2, 1, 3, 4 (not sorted).
#   run 2  a {200,190,210,205} -> 202.5  b {203,195,212,206} -> 204.5  d {3,5,2,1} -> 2.5
#   run 1  a {100,110,120}     -> 110    b {105,118,121}     -> 118    d {5,8,1}   -> 5
#   run 3  a {150,160,140}     -> 150    b {149,158,141}     -> 149    d {-1,-2,1} -> -1
#   run 4  a {118,117,119}     -> 118    b {120,122,121}     -> 121    d {2,5,2}   -> 2
# est(run_a i, run_b j) = median b(j) - median a(i), i outer, j inner:
#   i=2: 118-202.5 = -84.5   149-202.5 = -53.5   121-202.5 = -81.5
#   i=1: 204.5-110 =  94.5   149-110   =  39     121-110   =  11
#   i=3: 204.5-150 =  54.5   118-150   = -32     121-150   = -29
#   i=4: 204.5-118 =  86.5   118-118   =   0     149-118   =  31
# sorted: -84.5 -81.5 -53.5 -32 -29 0 11 31 39 54.5 86.5 94.5
#   min -84.5, median (0 + 11)/2 = 5.5, max 94.5; 6 positive, 5 negative, 1 zero.
# Pooled d (13 values) sorted: -2 -1 1 1 1 2 2 2 3 5 5 5 8, median 2 > 0, so
# auto (delay all 0) expects +: right 6, wrong 5, ties 1; per-run d medians
# 2.5 5 -1 2: paired_right 3.
# r, R: sprintf("%.17g", cor(c(202.5, 110, 150, 118), c(204.5, 118, 149, 121)))
#   [1] "0.99689109846404644"
R=0.99689109846404644
run pb-cross cross.tsv
{
	echo "# pb-cross: $V pb-cross cross.tsv"
	echo '# pb-cross.expect: + (the sign of the pooled median paired difference): + means B took longer'
	echo "$META_EST"
	echo "$META_PR"
	echo "$HEAD" | tsv
	echo "4|12|6|5|1|-84.5|5.5|94.5|3|$(col r 1 "$T/out")" | tsv
} >"$T/want"
is_file "$T/out" "$T/want" "summary of cross.tsv: every line (r checked next)"
ran_ok "exit 0, nothing on stderr"
near "$(col r 1 "$T/out")" $R 1e-15 "r against R's cor() (to 1e-15: two sums of products, 2 ulp apart)"
saved "$T/plus_auto"

# --each: one row per ordered pair of different runs, run_a in order of
# first appearance, then run_b in the same order.
run pb-cross --each cross.tsv
tsv >"$T/want" <<EOF
run_a|run_b|est
2|1|-84.5
2|3|-53.5
2|4|-81.5
1|2|94.5
1|3|39
1|4|11
3|2|54.5
3|1|-32
3|4|-29
4|2|86.5
4|1|0
4|3|31
EOF
grep -v '^#' "$T/out" >"$T/got"
is_file "$T/got" "$T/want" "--each: run_a run_b est, every ordered pair, in input order"
is "$rc:$(grep -c '^# pb-cross.expect' "$T/out"):$(row_count "$T/out")" 0:0:12 "--each: no expected sign (it uses none)"
is "$rc:$(grep -c '^# pb-cross.paired_right' "$T/out"):$(row_count "$T/out")" 0:0:12 "--each: no paired_right note"

# --expect: given signs. With -, right and wrong swap (5 and 6), ties stay
# 1, paired_right counts the one run with a negative median d (run 3).
run pb-cross --expect + cross.tsv
is "$(summary "$T/out")" "$(summary "$T/plus_auto")" "--expect + = auto here"
like "$(cat "$T/out")" '^# pb-cross.expect: \+ \(given\)' "--expect +: 'given' in the metadata"
run pb-cross --expect - cross.tsv
is "$(summary "$T/out")" "4|12|5|6|1|-84.5|5.5|94.5|1|$(col r 1 "$T/plus_auto")" "--expect -: counts flip, estimates stay"
like "$(cat "$T/out")" '^# pb-cross.expect: - \(given\)' "--expect -: in the metadata"

# auto from a nonzero delay column: its sign wins over the pooled median
# (which is +): delay -40 everywhere expects -.
awk -F'\t' -v OFS='\t' 'NR > 1 { $7 = -40 } 1' cross.tsv >"$T/neg.tsv"
run pb-cross "$T/neg.tsv"
is "$(summary "$T/out" | cut -d'|' -f 3-5,9)" "5|6|1|1" "auto, delay -40: expects - (right 5 wrong 6 ties 1 paired_right 1)"
like "$(cat "$T/out")" '^# pb-cross.expect: - \(the sign of the injected delay' "auto, delay -40: says why"
awk -F'\t' -v OFS='\t' 'NR > 1 { $7 = 40 } 1' cross.tsv >"$T/pos.tsv"
run pb-cross "$T/pos.tsv"
is "$(summary "$T/out" | cut -d'|' -f 3-5,9)" "6|5|1|3" "auto, delay 40: expects +"
like "$(cat "$T/out")" '^# pb-cross.expect: \+ \(the sign of the injected delay' "auto, delay 40: says why"
# Zero delays beside negative ones (e.g. a pair without the delay) do not
# make a second sign.
awk -F'\t' -v OFS='\t' 'NR > 1 { $7 = NR % 2 ? 0 : -40 } 1' cross.tsv >"$T/zneg.tsv"
run pb-cross "$T/zneg.tsv"
is "$(summary "$T/out" | cut -d'|' -f 3-5)" "5|6|1" "auto, delay 0 and -40: expects -"
awk -F'\t' -v OFS='\t' 'NR > 1 { $7 = NR % 2 ? 40 : -40 } 1' cross.tsv >"$T/mixed.tsv"
fails 1 '^pb-cross: the delay column has both signs; give --expect$' \
	"auto, delay of both signs: exit 1, one line" pb-cross "$T/mixed.tsv"
is "$(cat "$T/out")" "" "auto, delay of both signs: no output"
run pb-cross --expect + "$T/mixed.tsv"
is "$rc:$(summary "$T/out" | cut -d'|' -f 3-5)" "0:6|5|1" "delay of both signs with --expect +: fine"

# Without a delay column auto uses the pooled median; without a d column d
# is b - a (as it is in cross.tsv): the same summary.
cut -f 1-6 cross.tsv >"$T/nodelay.tsv"
run pb-cross "$T/nodelay.tsv"
is "$(summary "$T/out")" "$(summary "$T/plus_auto")" "no delay column: auto from the pooled median"
cut -f 1-5 cross.tsv >"$T/nod.tsv"
run pb-cross "$T/nod.tsv"
is "$(summary "$T/out")" "$(summary "$T/plus_auto")" "no d column: d = b - a"
# Pooled median 0 with delay 0: no way to tell the sign.
#   run 1 d {-1, 1}, run 2 d {0}: pooled {-1, 0, 1}, median 0
tsv >"$T/zero.tsv" <<EOF
run|a|b|d|delay
1|10|9|-1|0
1|10|11|1|0
2|10|10|0|0
EOF
fails 1 '^pb-cross: the pooled median paired difference is 0, so the expected sign is unknown; give --expect \+ or --expect -$' \
	"auto, pooled median 0: exit 1, one line" pb-cross "$T/zero.tsv"

# A by-run stream (pb-pair --by-run: run n a b d delay, d = b - a) of the
# same runs: the same run medians, so the same estimates and r; pooled d
# {2, 8, -1, 3} has median 2.5 > 0 and three positive runs.
tsv >"$T/byrun.tsv" <<EOF
run|n|a|b|d|delay
2|4|202.5|204.5|2|0
1|3|110|118|8|0
3|3|150|149|-1|0
4|3|118|121|3|0
EOF
run pb-cross "$T/byrun.tsv"
is "$rc:$(summary "$T/out")" "0:$(summary "$T/plus_auto")" "by-run stream: the same summary"
run pb-cross --each "$T/byrun.tsv"
saved "$T/a.out" && rows "$T/a.out" >"$T/a"
run pb-cross --each cross.tsv
saved "$T/b.out" && rows "$T/b.out" >"$T/b"
same_file "$T/a" "$T/b" "by-run stream: the same --each rows"

# The pipeline: pb-pair's pair stream and its --by-run stream of
# ../raw-small.tsv (run 1: a 1200 b 1150, run 2: a 2200 b 2000, medians
# of three pairs each; by-run d = b - a = -50, -200; pair d {-100, -50,
# -90} and {-100, -200, -200}, medians -90, -200, pooled median -100).
# est: 2000 - 1200 = 800 and 1150 - 2200 = -1050, median -125; auto
# expects - either way; paired_right 2; r of two runs = 1.
for by in '' --by-run; do
	pb-pair $by ../raw-small.tsv | pb-cross >"$T/out" 2>"$T/err"
	is "$?:$(summary "$T/out"):$(cat "$T/err")" "0:2|2|1|1|0|-1050|-125|800|2|1:" "pb-pair $by | pb-cross"
done

# r undefined: every run's median a is 10. Ties counted:
#   median b: run 1 12.5, run 2 10, run 3 10; est = median b(j) - 10:
#   (1,2) 0 (1,3) 0 (2,1) 2.5 (2,3) 0 (3,1) 2.5 (3,2) 0: 4 ties, 2 right
#   pooled d {2, 3, -1, 1, 0}: median 1, expect +; run d medians 2.5 0 0
tsv >"$T/flat.tsv" <<EOF
run|a|b|d|delay
1|10|12|2|0
1|10|13|3|0
2|10|9|-1|0
2|10|11|1|0
3|10|10|0|0
EOF
run pb-cross "$T/flat.tsv"
is "$rc:$(summary "$T/out")" "0:3|6|2|0|4|0|0|2.5|1|" "r undefined: empty field, ties counted"
is "$(cat "$T/err")" "pb-cross: r is undefined (the per-run medians of one arm do not vary); its field is left empty" \
	"r undefined: one warning"

# Two runs: r is +-1 and the two estimates are the two cross differences.
head -n 8 cross.tsv >"$T/two.tsv"   # runs 2 and 1
run pb-cross "$T/two.tsv"
is "$(summary "$T/out")" "2|2|1|1|0|-84.5|5|94.5|2|1" "two runs: (-84.5 + 94.5)/2 = 5, r = 1"

# Against brute force: every estimate of every ordered pair of different
# runs, by awk, sorted; right/wrong/ties against +, min, median (the mean
# of the two middles: R(R - 1) is even), max. Values are small integers
# and halves, so run medians and estimates are exact in both, with many
# ties; runs have odd and even numbers of pairs.
brute() {
	awk -F'\t' 'NR == 1 { next } { r = $1; if (!(r in n)) ids[++R] = r
		c = ++n[r]; A[r, c] = $3; B[r, c] = $4 }
	function med(X, r, m,   i, j, t, v) { for (i = 1; i <= m; i++) v[i] = X[r, i]
		for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2 }
	END { for (i = 1; i <= R; i++) { ma[i] = med(A, ids[i], n[ids[i]]); mb[i] = med(B, ids[i], n[ids[i]]) }
		for (i = 1; i <= R; i++) for (j = 1; j <= R; j++) if (i != j) {
			e = mb[j] - ma[i]; est[++k] = e; if (e > 0) up++; else if (e < 0) down++; else tie++ }
		print k; print up + 0; print down + 0; print tie + 0
		for (i = 1; i <= k; i++) print est[i] }' "$1" >"$T/brute"
	head -n 4 "$T/brute" | tr '\n' '|'
	tail -n +5 "$T/brute" | sort -g >"$T/sorted"
	k=$(head -n 1 "$T/brute")
	awk -v k="$k" '{ v[NR] = $1 } END { printf "%.17g|%.17g|%.17g\n", v[1], (v[k / 2] + v[k / 2 + 1]) / 2, v[k] }' "$T/sorted"
}
for nr in 2 3 4 7 19 60; do
	awk -v R=$nr 'BEGIN { srand(R); print "run\tpair\ta\tb\td"
		for (r = 1; r <= R; r++) for (p = 1; p <= 1 + (r * 7) % 4; p++) {
			a = int(rand() * 9) / 2; b = int(rand() * 9) / 2; print (r * 37) % 101 "\t" p "\t" a "\t" b "\t" b - a } }' >"$T/rand.tsv"
	run pb-cross --expect + "$T/rand.tsv"
	got=$(summary "$T/out" | cut -d'|' -f 2-8 | awk -F'|' -v OFS='|' '{ for (i = 5; i <= 7; i++) $i = sprintf("%.17g", $i) } 1')
	is "$rc:$got" "0:$(brute "$T/rand.tsv")" "$nr runs with ties: counts, min, median, max as brute force"
done

# Memory follows the runs, not the R(R - 1) estimates: 16000 runs (256
# million estimates, 2 GB if stored) within 200 MB of address space. A
# sanitizer build reserves more than that at start; then the case is
# skipped.
awk 'BEGIN { srand(16000); print "run\tn\ta\tb\td\tdelay"; for (r = 1; r <= 16000; r++) {
	a = 1e6 + int(rand() * 1e5); b = a + int(rand() * 2000) - 900
	print r "\t100\t" a "\t" b "\t" b - a "\t0" } }' >"$T/16k.tsv"
if (ulimit -v 200000 && pb-cross --version) >/dev/null 2>&1; then
	(ulimit -v 200000; timeout 60 pb-cross "$T/16k.tsv") >"$T/out" 2>"$T/err"
	is "$?:$(summary "$T/out" | cut -d'|' -f 1-2):$(cat "$T/err")" "0:16000|255984000:" \
		"16000 runs in 200 MB: exit 0, 255984000 estimates"
else
	skip "16000 runs in 200 MB: the build cannot start within 200 MB (a sanitizer)"
fi

# r is the same at any scale: the medians times 1e-300 (their sums of
# squares underflow) or times 1e160 (their product overflows) give r of
# cross.tsv, not an empty field and a false "do not vary".
for scale in 1e-300 1e160; do
	awk -F'\t' -v OFS='\t' -v s=$scale 'NR > 1 { $4 = sprintf("%.17g", $4 * s); $5 = sprintf("%.17g", $5 * s)
		$6 = sprintf("%.17g", $5 - $4) } 1' cross.tsv >"$T/scaled.tsv"
	run pb-cross "$T/scaled.tsv"
	near "$(col r 1 "$T/out")" $R 1e-14 "values times $scale: r as unscaled"
	ran_ok "values times $scale: exit 0, no warning"
done

# Estimates or medians that overflow a double are refused, not inf.
printf 'run\ta\tb\n1\t1.7e308\t1.7e308\n2\t-1.7e308\t-1.7e308\n' >"$T/huge.tsv"
for each in '' --each; do
	fails 1 '^pb-cross: values too large: a cross-run estimate \(median b - median a\) overflows a double$' \
		"an estimate over the largest double $each: exit 1, one line" pb-cross $each --expect + "$T/huge.tsv"
	is "$(cat "$T/out")" "" "an estimate over the largest double $each: no output"
done
printf 'run\ta\tb\n1\t-1.7e308\t1\n1\t1.7e308\t1\n2\t1\t1\n' >"$T/hugemed.tsv"
fails 1 '^pb-cross: run 1: values too large: a median overflows a double$' \
	"a median over the largest double: exit 1, one line" pb-cross --expect + "$T/hugemed.tsv"

# Errors.
head -n 5 cross.tsv >"$T/one.tsv"
fails 1 'only 1 run; comparing across runs needs at least 2$' "one run: exit 1, one line" \
	pb-cross "$T/one.tsv"
for e in up '' plus 0 -1; do
	fails 2 "^pb-cross: --expect is \+, - or auto, not '$e' \\(see pb-cross --help\\)$" "--expect '$e': exit 2" \
		pb-cross --expect "$e" cross.tsv
done
cut -f 1,2,3,5,6,7 cross.tsv >"$T/noa.tsv"
fails 1 "no column 'a' \(columns: run pair first b d delay\)" "missing column a: exit 1, names it" \
	pb-cross "$T/noa.tsv"
sed '4s/212/21x/' cross.tsv >"$T/bad.tsv"
fails 1 ":4: column 'b': not a finite number: '21x'" "bad number: exit 1 with file:line" \
	pb-cross "$T/bad.tsv"

done_testing

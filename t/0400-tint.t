#!/bin/sh
# pb-tint: Student t intervals against R, groups, log ratios, thresholds,
# invariants, findings.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1

# interval FILE K LABEL N MEAN SD SE DF T LO HI: data row K against R.
# n and df exact; the rest relative (Welford vs R's two-pass sums; the t
# quantile is promised to 1e-9 and is far better).
interval() {
	f=$1 k=$2 label=$3
	shift 3
	for c in n mean sd se df t lo hi; do
		case $c in n|df) tol=0 ;; mean) tol=1e-14 ;; sd|se) tol=1e-13 ;; *) tol=1e-12 ;; esac
		near "$(col $c $k "$f")" "$1" $tol "$label: $c"
		shift
	done
}

# R, for every interval below:
#   iv <- function(x, L, cap = Inf) { n <- length(x); df <- min(n - 1, cap)
#     q <- qt(1 - (1 - L)/2, df); se <- sd(x)/sqrt(n)
#     sprintf("%.17g", c(n, mean(x), sd(x), se, df, q, mean(x) - q*se, mean(x) + q*se)) }
# and t.test(x, conf.level = L)$conf.int agrees with lo, hi (cap = Inf).
#   x <- c(1.5, 2.25, 3, 2.75, 1.75); y <- c(101.25, 99.5, 103.75, 98, 100.125)
run pb-tint --column x --level 0.8 tint-xy.tsv
interval "$T/out" 1 "x, level 0.8" 5 2.25 0.63737743919909806 0.28504385627478446 4 \
	1.5332062740589429 1.812968971177545 2.6870310288224553
cp "$T/out" "$T/x80"
run pb-tint --column x tint-xy.tsv
interval "$T/out" 1 "x, level 0.95 (default)" 5 2.25 0.63737743919909806 0.28504385627478446 4 \
	2.7764451051977934 1.4585913804791713 3.041408619520829
cp "$T/out" "$T/x95"
run pb-tint --column x --level 0.999 tint-xy.tsv
interval "$T/out" 1 "x, level 0.999" 5 2.25 0.63737743919909806 0.28504385627478446 4 \
	8.6103015813795221 -0.2043135664452943 4.7043135664452942
cp "$T/out" "$T/x999"
like "$(cat "$T/out")" '^# pb-tint.level: 0.999$' "level in the metadata"
run pb-tint --column x --level 0.9999999 --threshold 2.0000001 tint-xy.tsv
like "$(cat "$T/out")" '^# pb-tint.level: 0.9999999$' "level in the metadata, every digit"
like "$(cat "$T/out")" '^# pb-tint.threshold: 2.0000001$' "threshold in the metadata, every digit"
run pb-tint --column y tint-xy.tsv
interval "$T/out" 1 "y, level 0.95" 5 100.52500000000001 2.1513077418165909 0.96209407024469273 4 \
	2.7764451051977934 97.853798627929294 103.1962013720707
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "n mean sd se df t lo hi" \
	"plain column: no ratio columns, no verdict"

# Groups: one row per value, in order of first appearance (input unsorted).
#   g3 <- c(-120, -95, -101); g1 <- c(-80, -60, -75); g2 <- c(-150, -170, -140, -155)
run pb-tint --column d --group run tint-groups.tsv
is "$(rows "$T/out" | cut -f 1 | tr '\n' ' ')" "3 1 2 " "--group run: first-appearance order"
is "$(grep -v '^#' "$T/out" | head -n 1 | cut -f 1-2 | tr '\t' ' ')" "run n" "--group run: group column first"
grep -v '^#' "$T/out" | cut -f 2- >"$T/g"   # without the group column
interval "$T/g" 1 "group 3" 3 -105.33333333333333 13.051181300301263 7.5351030369715444 2 \
	4.3026527297494619 -137.75426498430241 -72.912401682364248
interval "$T/g" 2 "group 1" 3 -71.666666666666671 10.408329997330663 6.0092521257733154 2 \
	4.3026527297494619 -97.522391729377986 -45.810941603955357
interval "$T/g" 3 "group 2" 4 -153.75 12.5 6.25 3 \
	3.1824463052837078 -173.64028940802316 -133.85971059197684
run pb-tint --column d tint-groups.tsv
interval "$T/out" 1 "all ten d" 10 -114.59999999999999 37.924486373142443 11.992775603114847 9 \
	2.2621571627982049 -141.7295432324178 -87.470456767582178

# --df-cap 30 with n = 100: df = 30 and qt(0.975, 30).
#   z <- (1:100 * 37) %% 101
awk 'BEGIN { print "z"; for (i = 1; i <= 100; i++) print i * 37 % 101 }' >"$T/z.tsv"
run pb-tint --column z "$T/z.tsv"
interval "$T/out" 1 "n = 100" 100 50.5 29.011491975882016 2.9011491975882016 99 \
	1.9842169515864172 44.743490583064165 56.256509416935849
run pb-tint --column z --df-cap 30 "$T/z.tsv"
interval "$T/out" 1 "n = 100, --df-cap 30" 100 50.5 29.011491975882016 2.9011491975882016 30 \
	2.0422724563012378 44.575062902145177 56.424937097854823
like "$(cat "$T/out")" '^# pb-tint.df: min\(n-1, 30\)$' "--df-cap in the metadata"
run pb-tint --column z --df-cap 200 "$T/z.tsv"
is "$(col df 1 "$T/out")" 99 "--df-cap 200 with n = 100: df = 99"

# Log ratios (a column called lr): ratio = exp(mean), ratio_lo/hi = exp(lo/hi),
# reduction = 1 - 1/ratio.
#   lr <- c(0.212, 0.198, 0.245, 0.231, 0.187, 0.219, 0.254, 0.203, 0.226, 0.209, 0.241, 0.195)
#   r <- t.test(lr, conf.level = L)
#   sprintf("%.17g", c(exp(mean(lr)), exp(r$conf.int), 1 - 1/exp(mean(lr))))
for L in 0.9:'1.7958848187040435 0.20725981346295691 0.22940685320370971 1.2303021793294779 1.2578536967243015' \
         0.95:'2.2009851600916388 0.20476194353659444 0.23190472313007218 1.2272328794671736 1.2609995790118025'; do
	run pb-tint --level ${L%%:*} tint-lr.tsv
	set -- ${L#*:}
	interval "$T/out" 1 "lr, level ${L%%:*}" 12 0.21833333333333332 0.021359832027486175 \
		0.006166052385457167 11 $1 $2 $3
	near "$(col ratio 1 "$T/out")" 1.2440016657374491 1e-13 "lr, level ${L%%:*}: ratio"
	near "$(col ratio_lo 1 "$T/out")" $4 1e-12 "lr, level ${L%%:*}: ratio_lo"
	near "$(col ratio_hi 1 "$T/out")" $5 1e-12 "lr, level ${L%%:*}: ratio_hi"
	near "$(col reduction 1 "$T/out")" 0.19614255547865678 1e-13 "lr, level ${L%%:*}: reduction"
done
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" \
	"n mean sd se df t lo hi ratio ratio_lo ratio_hi reduction" "lr: ratio columns"
# Another name is a log ratio when pb-logratio declared it, or when asked.
pb-logratio --name speed pairs-lr.tsv >"$T/speed.tsv"
run pb-tint --column speed "$T/speed.tsv"
like "$(grep -v '^#' "$T/out" | head -n 1)" 'ratio	ratio_lo	ratio_hi	reduction$' \
	"a column pb-logratio declared is a log ratio"
awk -F'\t' '!/^#/ && !h { print "run\tq"; h = 1; next } 1' tint-lr.tsv >"$T/q.tsv"
run pb-tint --column q "$T/q.tsv"
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "n mean sd se df t lo hi" "an undeclared column is not"
run pb-tint --column q --log-ratio "$T/q.tsv"
near "$(col ratio 1 "$T/out")" 1.2440016657374491 1e-13 "--log-ratio: ratio"
# What pb-tint reads is pb-logratio's key, never the sentence beside it:
# a "# log_ratio:" sentence alone declares nothing; the key alone does,
# and its columns name the quantity of the finding.
{ echo '# log_ratio: q = ln(a_maxrss/b_maxrss); A is the baseline, B the candidate'; cat "$T/q.tsv"; } \
	>"$T/q-sentence.tsv"
run pb-tint --column q --finding "$T/q-sentence.tsv"
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "0:n mean sd se df t lo hi" \
	"a '# log_ratio:' sentence without pb-logratio.column: not read, not a log ratio"
{ echo '# pb-logratio.column: q a_maxrss b_maxrss'; cat "$T/q.tsv"; } >"$T/q-key.tsv"
run pb-tint --column q --finding "$T/q-key.tsv"
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" \
	"0:n mean sd se df t lo hi ratio ratio_lo ratio_hi reduction" \
	"'# pb-logratio.column: q a_maxrss b_maxrss': q is a log ratio"
like "$(grep '^# finding: ' "$T/out")" '^# finding: B used [0-9.]+% less peak memory than A: A/B peak memory ratio ' \
	"  of peak memory, as its columns say"
{ echo '# pb-logratio.column: q2 a_maxrss b_maxrss'; echo '# pb-logratio.column: q a b'
  echo '# pb-logratio.column: q a_maxrss b_maxrss'; cat "$T/q.tsv"; } >"$T/q-twice.tsv"
run pb-tint --column q --finding "$T/q-twice.tsv"
like "$rc:$(grep '^# finding: ' "$T/out")" '^0:# finding: B took [0-9.]+% less time than A: A/B time ratio ' \
	"q declared twice: the first line that names q counts (time), not another column's"

# --threshold: above (lo >= T), below (hi < T), crosses. For a log ratio
# T is a ratio and compared with exp(lo), exp(hi).
#   a <- c(0.40, 0.42, 0.41, 0.43): exp(conf.int) = 1.4835789787224667 1.5458015873472377
#   b <- c(0.05, 0.06, 0.04, 0.05): exp(conf.int) = 1.03770102912356 1.0650186200634999
printf 'lr\n0.40\n0.42\n0.41\n0.43\n' >"$T/fast.tsv"
printf 'lr\n0.05\n0.06\n0.04\n0.05\n' >"$T/slow.tsv"
for c in fast.tsv:1.25:above slow.tsv:1.25:below "$D/tint-lr.tsv":1.25:crosses \
         "$D/tint-lr.tsv":1.15:above "$D/tint-lr.tsv":1.3:below; do
	f=${c%%:*} v=${c##*:} th=${c#*:}; th=${th%:*}
	case $f in /*) ;; *) f=$T/$f ;; esac
	run pb-tint --threshold $th "$f"
	is "$rc:$(col verdict 1 "$T/out")" "0:$v" "${f##*/} --threshold $th: $v"
done
# 1.15 is 'above' only on the ratio scale: lo = 0.2048 is a log ratio < 1.15.
is "$(meta pb-tint.threshold "$T/out")|$(meta pb-tint.threshold.note "$T/out")" "1.3|a ratio A/B" \
	"threshold in the metadata: the number alone, and a note that it is a ratio A/B"
# On a plain column T is in the column's unit. lo and hi as printed read
# back exactly, so they test the edges: lo = T is above, hi = T crosses.
# The edges come from the tool's own lo and hi (positive here), and the
# next double up is the next bit pattern (perl, as prove needs perl).
run pb-tint --column x tint-xy.tsv
lo=$(col lo 1 "$T/out") hi=$(col hi 1 "$T/out")
up() { perl -e 'printf "%.17g", unpack("d", pack("Q", unpack("Q", pack("d", $ARGV[0])) + 1))' "$1"; }
for c in 1.4:above 3.1:below 2:crosses "$lo:above" "$(up "$lo"):crosses" \
         "$hi:crosses" "$(up "$hi"):below"; do
	run pb-tint --column x --threshold "${c%:*}" tint-xy.tsv
	# valgrind computes long double in 64 bits, not 80: the edges move
	[ "${PB_VALGRIND:-0}" = 1 ] && { skip "x --threshold ${c%:*}: not under valgrind"; continue; }
	is "$(col verdict 1 "$T/out")" "${c#*:}" "x --threshold ${c%:*}: ${c#*:}"
done
fails 2 "^pb-tint: --threshold is a ratio A/B for the log-ratio column 'lr'; it must be > 0" \
	"--threshold 0 for a log ratio" pb-tint --threshold 0 tint-lr.tsv
fails 2 "^pb-tint: --threshold wants a number, not 'high'" "--threshold high" \
	pb-tint --threshold high tint-lr.tsv

# Invariants: lo <= mean <= hi; wider at a higher level; negated data give
# the negated mean and swap lo and hi, exactly.
for f in x80 x95 x999; do
	is "$(awk -F'\t' '!/^#/ && !/^n/ { print ($7 <= $2 && $2 <= $8) }' "$T/$f")" 1 "$f: lo <= mean <= hi"
done
w() { awk -F'\t' '!/^#/ && !/^n/ { print $8 - $7 }' "$1"; }
is "$(awk -v a="$(w "$T/x80")" -v b="$(w "$T/x95")" -v c="$(w "$T/x999")" \
	'BEGIN { print (0 < a && a < b && b < c) }')" 1 "width grows with the level"
neg() { case $1 in -*) echo "${1#-}" ;; 0) echo 0 ;; *) echo "-$1" ;; esac; }
awk -F'\t' '/^#/ || $1 == "x" { print; next } { print "-" $1 "\t-" $2 }' tint-xy.tsv >"$T/neg.tsv"
for L in 0.8 0.95 0.999; do
	pb-tint --column x --level $L tint-xy.tsv >"$T/pos"
	run pb-tint --column x --level $L "$T/neg.tsv"
	is "$(col mean 1 "$T/out") $(col lo 1 "$T/out") $(col hi 1 "$T/out") $(col sd 1 "$T/out")" \
		"$(neg "$(col mean 1 "$T/pos")") $(neg "$(col hi 1 "$T/pos")") $(neg "$(col lo 1 "$T/pos")") $(col sd 1 "$T/pos")" \
		"negated data, level $L: -mean, lo = -hi, hi = -lo, same sd"
done

# A group of one value is an error; equal values give a zero-width
# interval and a warning.
printf 'g\tx\n1\t5\n1\t6\n2\t7\n' >"$T/one.tsv"
fails 1 "^pb-tint: group 2: only 1 value; an interval needs at least 2\$" \
	"a group with one value" pb-tint --column x --group g "$T/one.tsv"
printf 'x\n7\n' >"$T/single.tsv"
fails 1 "^pb-tint: x: only 1 value" "one value in all" pb-tint --column x "$T/single.tsv"
printf 'x\n0.1\n0.1\n0.1\n' >"$T/equal.tsv"
run pb-tint --column x "$T/equal.tsv"
is "$rc:$(cat "$T/err")" \
	"0:pb-tint: column x: all 3 values are equal (sd = 0): the interval has zero width" \
	"equal values: one warning, exit 0"
is "$(rows "$T/out" | cut -f 1-4,7-8 | tr '\t' ' ')" "3 0.1 0 0 0.1 0.1" "equal values: lo = hi = mean"
printf 'g\tx\n1\t5\n1\t6\n2\t7\n2\t7\n' >"$T/eqgroup.tsv"
run pb-tint --column x --group g "$T/eqgroup.tsv"
is "$rc:$(cat "$T/err")" "0:pb-tint: group 2: all 2 values are equal (sd = 0): the interval has zero width" \
	"equal values in one group: the group named"

# --finding: one sentence per group, with the ratio and the unit of n.
# Every number in it has 4 significant digits, trailing zeros kept; R:
#   f <- function(x) formatC(x, digits = 4, format = "fg", flag = "#")
#   f(c(100 * (1 - 1/exp(mean(lr))), exp(mean(lr)), exp(t.test(lr)$conf.int)))
#   [1] "19.61" "1.244" "1.227" "1.261"
run pb-tint --finding tint-lr.tsv
is "$(grep '^# finding' "$T/out")" \
	"# finding: B took 19.61% less time than A: A/B time ratio 1.244, 95% CI 1.227 to 1.261 (t interval, n = 12 runs, df = 11). The interval excludes 1: B is faster." \
	"finding: ratio, reduction, runs as the unit"
is "$(tail -n 1 "$T/out" | cut -c 1-10)" "# finding:" "finding: after the rows"
run pb-tint --finding --threshold 1.25 tint-lr.tsv
like "$(grep '^# finding' "$T/out")" 'n = 12 runs, df = 11\)\. Threshold 1\.25: crosses; ' \
	"finding: the verdict"
# An interval that includes 1 resolves no direction, and the sentence
# starts by saying so. lr less 0.2183 (4 decimals, as awk writes it): R,
#   lr0 <- round(lr - 0.2183, 4); f(c(exp(mean(lr0)), exp(t.test(lr0)$conf.int)))
#   [1] "1.000"  "0.9866" "1.014"
# and what it rules out, how much faster and how much slower B may be:
#   ci <- exp(t.test(lr0)$conf.int); 100 * c(1 - 1/ci[2], 1/ci[1] - 1)
#   [1] 1.351260 1.363011
awk -F'\t' -v OFS='\t' '!/^#/ && $2 != "lr" { $2 = sprintf("%.4f", $2 - 0.2183) } 1' tint-lr.tsv >"$T/lr0.tsv"
run pb-tint --finding "$T/lr0.tsv"
is "$(grep '^# finding' "$T/out")" \
	"# finding: No difference resolved: A/B time ratio 1.000, 95% CI 0.9866 to 1.014 (t interval, n = 12 runs, df = 11). The interval includes 1: B may be up to 1.351% faster or up to 1.363% slower; more runs would narrow it." \
	"finding: an interval across 1 says no direction, what it rules out (R), and 1.000 keeps its zeros"
run pb-tint --finding --threshold 1.05 "$T/lr0.tsv"
like "$(grep '^# finding' "$T/out")" '^# finding: No difference resolved: .* Threshold 1\.05: below; ' \
	"finding: no direction with a threshold too"
# Pairs from several runs, not grouped by run: the caution. d is in ns
# and gets a unit; R: f(c(mean(d), t.test(d)$conf.int)) "-114.6" "-141.7" "-87.47"
run pb-tint --finding --column d tint-groups.tsv
like "$(grep '^# finding' "$T/out")" '^# finding: mean d -114.6 ns, 95% CI -141.7 ns to -87.47 ns \(t interval, n = 10 pairs from 3 runs, df = 9\)\..* Caution: pairs inside a run are not independent' \
	"finding: pairs from 3 runs, with the caution; d in ns"
run pb-tint --finding --column d --group run tint-groups.tsv
is "$(grep -c '^# finding: \[[312]\] .*n = [34] pairs from 1 run, ' "$T/out"):$(grep -c Caution "$T/out")" "3:0" \
	"finding: grouped by run, one per run, no caution"
run pb-tint --finding --column x tint-xy.tsv
like "$(grep '^# finding' "$T/out")" '^# finding: mean x 2\.250, 95% CI 1\.459 to 3\.041 \(t interval, n = 5 values, df = 4\)\. The interval excludes 0' \
	"finding: a plain column (R: f(c(mean(x), t.test(x)\$conf.int)) \"2.250\" \"1.459\" \"3.041\")"
run pb-tint --finding --column y --level 0.999 tint-xy.tsv
like "$(grep '^# finding' "$T/out")" '^# finding: mean y 100\.5, 99\.9% CI 92\.24 to 108\.8 ' \
	"finding: the level in percent as given (R: f(t.test(y, conf.level = 0.999)\$conf.int))"
run pb-tint --finding --column x --level 0.9999999 tint-xy.tsv
like "$(grep '^# finding' "$T/out")" ', 99\.99999% CI ' "finding: level 0.9999999 is 99.99999%, not 100%"
run pb-tint --column x tint-xy.tsv
is "$rc:$(grep -c '^# finding' "$T/out"):$(row_count "$T/out")" 0:0:1 "no --finding, no finding"
# A d column's unit is chosen per value after rounding: 999.96 ns is
# 1.000 µs. R: f(t.test(c(999.95, 999.97))$conf.int) "999.8" "1000.",
# f(t.test(c(5100, 5265))$conf.int / 1000) "4.134" "6.231",
# f(t.test(c(2.5, 2.6))$conf.int) "1.915" "3.185"; the others are exact.
for c in '999.95 999.97:1.000 µs, 95% CI 999.8 ns to 1.000 µs' \
         '5100 5265:5.183 µs, 95% CI 4.134 µs to 6.231 µs' \
         '2.5e9 2.6e9:2.550 s, 95% CI 1.915 s to 3.185 s' \
         '1.5e12 1.5e12:1500 s, 95% CI 1500 s to 1500 s' \
         '0.5 0.5:0.5000 ns, 95% CI 0.5000 ns to 0.5000 ns'; do
	printf 'd\n%s\n%s\n' ${c%%:*} >"$T/units.tsv"
	run pb-tint --finding --column d "$T/units.tsv"
	like "$(grep '^# finding' "$T/out")" "^# finding: mean d ${c#*:} \\(" "finding: d of ${c%%:*} in ns: ${c#*:}"
done
run pb-tint --finding --column d --threshold 0 tint-groups.tsv
like "$(grep '^# finding' "$T/out")" ' Threshold 0 ns: below; ' "finding: a d threshold in ns"

# Warnings of earlier tools ("# pb-TOOL.warning: ...", in the head or
# after the rows, as pb-pair writes them; pb-logratio passes them on): one
# clause each, after the interval sentence, in input order.
{
	sed -n '1,/^run/p' tint-lr.tsv | grep -v '^run'
	echo '# pb-pair.warning: run 3 has 40 of 100 measured pairs: the study stopped on a failure'
	grep -v '^#' tint-lr.tsv | head -n 7
	echo '# pb-pair.warning: the study was interrupted (SIGINT).'
	grep -v '^#' tint-lr.tsv | tail -n 6
	echo '# pb-check.warning: a later tool, the same key'
	echo '# pb-pair.warnings: not a warning key'
	echo '# pb-pair.warning_count: nor this'
	echo '# xpb-pair.warning: nor this'
} >"$T/warned.tsv"
run pb-tint --finding "$T/warned.tsv"
is "$rc:$(grep '^# finding' "$T/out" | sed 's/^.*B is faster\.//')" \
	"0: Warning: run 3 has 40 of 100 measured pairs: the study stopped on a failure. Warning: the study was interrupted (SIGINT). Warning: a later tool, the same key." \
	"finding: every pb-TOOL.warning, one clause each, a full stop added where missing"
awk -F'\t' -v OFS='\t' '!/^#/ { if ($1 == "run") print "run", "a", "b"; else print $1, 1000, 900 + NR; next } 1' \
	"$T/warned.tsv" >"$T/warned-ab.tsv"
pb-logratio "$T/warned-ab.tsv" | pb-tint --finding >"$T/out"
is "$(grep -c '^# finding: .* Warning: run 3 has 40 .* Warning: the study was interrupted' "$T/out")" 1 \
	"finding: the warnings through pb-logratio"
awk -F'\t' -v OFS='\t' '!/^#/ { print $0, ($1 == "run" ? "g" : $1 % 2); next } 1' "$T/warned.tsv" >"$T/warned-g.tsv"
run pb-tint --finding --group g "$T/warned-g.tsv"
is "$(grep -c '^# finding: \[[01]\] .* Warning: run 3 has 40 ' "$T/out")" 2 "finding: each group's finding cites them"
run pb-tint --finding tint-lr.tsv
is "$rc:$(grep -c 'Warning' "$T/out"):$(grep -c '^# finding: ' "$T/out")" 0:0:1 "finding: no warning, no clause"
{ printf 'x\n1\n2\n3\n'; i=0; while [ $i -lt 20 ]; do i=$((i + 1)); echo "# pb-pair.warning: w$i"; done; } >"$T/many-warn.tsv"
run pb-tint --column x --finding "$T/many-warn.tsv"
like "$rc $(grep '^# finding:' "$T/out")" '^0 .* Warning: w1\. .* Warning: w16\. And 4 more warnings in the input\.$' \
	"finding: 16 warnings cited, the rest counted (memory does not follow the input)"

# --check FILE: the warn rows of pb-check's output, one clause each after
# the input's own warnings; its "# pb-check.warning:" lines are not read
# too (one source); "pb-check warned of nothing." when none warns; a check
# of another study is refused.
{
	echo '# study: 00000000000000aa'
	echo '# pb-check.warning: the metadata line, not cited'
	tsv <<EOF
check|status|value|lo|hi|unit|note
order|ok|0.5|0.4|0.6|share|balanced.
position|warn|5|4|6|ns|The second observation of a pair takes 5 ns less time than the first
carry_a|n/a||||ns|Needs 2 runs.
spread|warn|1.5|1.3|1.7|ratio|B is more variable.
EOF
} >"$T/check.tsv"
{ echo '# study: 00000000000000aa'; cat "$T/warned.tsv"; } >"$T/warned-study.tsv"
run pb-tint --finding --check "$T/check.tsv" "$T/warned-study.tsv"
is "$rc:$(grep '^# finding' "$T/out" | sed 's/^.*B is faster\.//')" \
	"0: Warning: run 3 has 40 of 100 measured pairs: the study stopped on a failure. Warning: the study was interrupted (SIGINT). Warning: a later tool, the same key. Warning: The second observation of a pair takes 5 ns less time than the first. Warning: B is more variable." \
	"--check: each warn row's note a clause, after the input's warnings"
awk -F'\t' -v OFS='\t' '!/^#/ && $2 == "warn" { $2 = "ok" } 1' "$T/check.tsv" >"$T/check-ok.tsv"
run pb-tint --finding --check "$T/check-ok.tsv" tint-lr.tsv
na=$(grep -v '^#' "$T/check-ok.tsv" | awk -F'\t' '$2 == "n/a"' | wc -l | tr -d ' ')
all=$(grep -v '^#' "$T/check-ok.tsv" | tail -n +2 | wc -l | tr -d ' ')
like "$rc $(grep '^# finding' "$T/out")" "^0 # finding: .*\\. pb-check warned of nothing, but $na of its $all checks could not be made \\(n/a: too little data for them\\)\\.\$" \
	"--check with no warn row: says pb-check warned of nothing, and how many checks it could not make"
awk -F'\t' -v OFS='\t' '!/^#/ && $2 == "n/a" { $2 = "ok" } 1' "$T/check-ok.tsv" >"$T/check-all.tsv"
run pb-tint --finding --check "$T/check-all.tsv" tint-lr.tsv
like "$rc $(grep '^# finding' "$T/out")" '^0 # finding: .*\. pb-check warned of nothing\.$' \
	"--check with every check made and none warning: pb-check warned of nothing"
awk -F'\t' -v OFS='\t' '!/^#/ { print ($1 == "check" ? "arm" : "C"), $0; next } 1' "$T/check.tsv" >"$T/check-arm.tsv"
run pb-tint --finding --check "$T/check-arm.tsv" tint-lr.tsv
like "$(grep '^# finding' "$T/out")" ' Warning: arm C: The second observation .* Warning: arm C: B is more variable\.$' \
	"--check with an arm column: the arm named in each clause"
{ echo '# study: 00000000000000bb'; cat tint-lr.tsv; } >"$T/other-study.tsv"
fails 1 "^pb-tint: --check .*check.tsv checks study 00000000000000aa, but the input is study 00000000000000bb: give pb-check the pairs of this study\$" \
	"--check of another study: refused" pb-tint --finding --check "$T/check.tsv" "$T/other-study.tsv"
fails 2 "^pb-tint: --check goes with --finding" "--check without --finding: usage error" \
	pb-tint --check "$T/check.tsv" tint-lr.tsv
fails 1 "^pb-tint: --check tint-lr.tsv: not pb-check's output \(no columns check, status and note\)\$" \
	"--check of a stream that is not pb-check's: refused" pb-tint --finding --check tint-lr.tsv tint-lr.tsv
fails 1 "^pb-tint: .*nothing.tsv: " "--check of a missing file: exit 1" \
	pb-tint --finding --check "$T/nothing.tsv" tint-lr.tsv

# Group values round-trip through the next tool, in pb-tint and pb-boot
# alike (lib/group.c writes them): an empty value is an empty field, not a
# missing one; a first value that begins with '#' would make its row a
# comment, and is refused with file:line.
printf 'g\ttag\tx\n1\t\t1\n1\t\t2\n3\tq\t4\n3\tq\t9\n' >"$T/empty-g.tsv"
for tool in "pb-tint --column x" "pb-boot --column x --resamples 200"; do
	t=${tool%% *}
	run $tool --group tag "$T/empty-g.tsv"
	is "$rc:$(rows "$T/out" | cut -f 1-2 | tr '\t\n' '|;')" "0:|2;q|2;" "$t: an empty group value is an empty first field"
	is "$(rows "$T/out" | awk -F'\t' '{ print NF }' | sort -u | tr '\n' ' ')" \
		"$(grep -v '^#' "$T/out" | head -n 1 | awk -F'\t' '{ print NF }') " "$t: every row as wide as the header"
	$tool --group tag "$T/empty-g.tsv" 2>/dev/null >"$T/first.tsv"
	run pb-tint --column n "$T/first.tsv"
	is "$rc:$(col n 1 "$T/out")" "0:2" "$t: its output read again by pb-tint"
	run pb-boot --column n --resamples 200 "$T/first.tsv"
	is "$rc:$(col n 1 "$T/out")" "0:2" "$t: its output read again by pb-boot"
	run $tool --group g,tag "$T/empty-g.tsv"
	is "$rc:$(rows "$T/out" | cut -f 1-3 | tr '\t\n' '|;')" "0:1||2;3|q|2;" "$t: an empty second group value"
	printf 'g\ttag\tx\n1\t#x\t1\n1\t#x\t2\n3\tq\t4\n3\tq\t9\n' >"$T/hash-g.tsv"
	refuses 1 "^$t: .*hash-g.tsv:2: column 'tag': the value '#x' would begin an output row, and a row that begins with '#' is read as a comment \\(pb\\(7\\)\\); put another column first in --group\$" \
		"$t: a first group value '#x' is refused, no output" $tool --group tag "$T/hash-g.tsv"
	run $tool --group g,tag "$T/hash-g.tsv"
	is "$rc:$(rows "$T/out" | cut -f 1-2 | tr '\t\n' '|;')" "0:1|#x;3|q;" "$t: '#x' as a second group value is fine"
done
run pb-tint --column x --group tag --finding "$T/empty-g.tsv"
like "$(grep '^# finding' "$T/out" | head -n 1)" '^# finding: \[\] mean x ' "an empty group in a finding: []"
printf 'g\ttag\tx\n1\t\t1\n3\tq\t4\n3\tq\t9\n' >"$T/empty-one.tsv"
fails 1 "^pb-tint: group '': only 1 value; an interval needs at least 2\$" "an empty group named ''" \
	pb-tint --column x --group tag "$T/empty-one.tsv"
printf 'g\ttag\tx\n1\ta\\b\t1\n1\ta\\b\t2\n' >"$T/bs.tsv"
run pb-tint --column x --group g,tag --finding "$T/bs.tsv"
like "$(grep '^# finding' "$T/out")" '^# finding: \[1\\ta\\\\b\] ' "a finding's group: TAB and backslash escaped as pb(7) says"

# A missing lr most often means pb-logratio was left out.
fails 1 "^pb-tint: pairs-lr.tsv: no column 'lr' \\(columns: run pair first a b d delay\\); did you forget pb-logratio\\?\$" \
	"no lr: did you forget pb-logratio?" pb-tint pairs-lr.tsv
fails 1 "^pb-tint: pairs-lr.tsv: no column 'q' \\(columns: run pair first a b d delay\\)\$" \
	"another missing column: no hint" pb-tint --column q pairs-lr.tsv

# Nothing a double cannot hold reaches a row or a finding: one line, exit 1.
printf 'lr\n1e29\n1.1e29\n' >"$T/lr-huge.tsv"
refuses 1 "^pb-tint: column lr: the interval -?[0-9.e]+ to [0-9.e]+ of the log ratio reaches beyond \\+-709\\.78, where the ratio A/B overflows a double \\(is 'lr' a log ratio\\?\\)\$" \
	"lr near 1e29: exp overflows the ratio columns, no output" pb-tint "$T/lr-huge.tsv"
printf 'lr\n-800\n-801\n' >"$T/lr-low.tsv"
fails 1 "^pb-tint: column lr: the interval .* reaches beyond \\+-709\\.78" \
	"lr near -800: 1/ratio overflows" pb-tint --finding "$T/lr-low.tsv"
printf 'lr\n705\n706\n' >"$T/lr-700.tsv"
fails 1 "^pb-tint: column lr: the interval .* reaches beyond" "lr of 705 and 706: hi = 711.85, beyond" \
	pb-tint "$T/lr-700.tsv"
printf 'x\n1e308\n-1e308\n' >"$T/x-huge.tsv"
fails 1 "^pb-tint: column x: values too large: their variance overflows a double\$" \
	"values near 1e308: the variance overflows" pb-tint --column x "$T/x-huge.tsv"
printf 'x\n1e-320\n2e-320\n' >"$T/x-tiny.tsv"
fails 1 "^pb-tint: column x: values too close together: their variance underflows a double \\(rescale the column\\)\$" \
	"values 1e-320 apart: not 'all values are equal'" pb-tint --column x "$T/x-tiny.tsv"
printf 'x\n1e-320\n1e-320\n' >"$T/x-tiny-eq.tsv"
run pb-tint --column x "$T/x-tiny-eq.tsv"
is "$rc:$(cat "$T/err")" "0:pb-tint: column x: all 2 values are equal (sd = 0): the interval has zero width" \
	"equal tiny values: the usual warning"

# --level: a level whose quantile is infinite, or that reads back as 1,
# is refused (opt_level, shared by every tool); the largest that is not
# still gives a finite interval.
fails 2 "^pb-tint: --level 0\\.9999999999999999 is too close to 1: the interval would be infinite; the largest level is 0\\.9999999999999998 \\(see pb-tint --help\\)\$" \
	"--level 0.9999999999999999: refused" pb-tint --column x --level 0.9999999999999999 tint-xy.tsv
fails 2 "^pb-tint: --level 0\\.99999999999999999 rounds to 1 as a double: the interval would be infinite; the largest level is 0\\.9999999999999998" \
	"--level 0.99999999999999999 (reads as 1): refused" pb-tint --column x --level 0.99999999999999999 tint-xy.tsv
fails 2 "^pb-tint: --level 1e-16 is too close to 0: the level is lost in rounding; the smallest level is 1\\.7e-16" \
	"--level 1e-16: refused" pb-tint --column x --level 1e-16 tint-xy.tsv
run pb-tint --column x --level 0.9999999999999998 --finding tint-xy.tsv
is "$rc:$(rows "$T/out" | cut -f 6-8 | grep -c 'inf\|nan'):$(row_count "$T/out")" "0:0:1" "--level 0.9999999999999998: finite t, lo, hi"
like "$(grep '^# finding' "$T/out")" ', 99\.99999999999998% CI ' "--level 0.9999999999999998 in the finding"
for tool in pb-boot pb-plan; do
	fails 2 "^$tool: --level 0\\.9999999999999999 is too close to 1" "$tool --level 0.9999999999999999: refused too" \
		$tool --level 0.9999999999999999 pairs-lr.tsv
done

# pb-tint(1) EXAMPLES: the rows printed there are what pb-tint prints for
# pb-pair(1)'s example pairs, to the last bits a C library may change (R:
# t.test(c(-100,-50,-90,-100,-200,-200)) gives -188.589893367537712
# -58.076773299128952).
man=$D/../../share/man/man1/pb-tint.1
printf 'run\tpair\tfirst\ta\tb\td\tdelay\n1\t1\tB\t1100\t1000\t-100\t0\n1\t2\tA\t1200\t1150\t-50\t0\n1\t3\tA\t1300\t1210\t-90\t0\n2\t1\tA\t2000\t1900\t-100\t0\n2\t2\tB\t2300\t2100\t-200\t0\n2\t3\tA\t2200\t2000\t-200\t0\n' >"$T/ex.tsv"
# example ROW_PREFIX FIELD OUTPUT_FILE COLUMN NAME
example() {
	near "$(col "$4" 1 "$3")" "$(grep "^$1" "$man" | tr -s ' ' | cut -d' ' -f"$2")" 1e-13 "$5"
}
pb-tint --column d --threshold 0 "$T/ex.tsv" >"$T/ex-d.tsv"
example '6  -188' 2 "$T/ex-d.tsv" lo "pb-tint(1) EXAMPLES: lo of d as printed there"
example '6  -188' 3 "$T/ex-d.tsv" hi "pb-tint(1) EXAMPLES: hi of d as printed there"
is "$(col verdict 1 "$T/ex-d.tsv")" below "pb-tint(1) EXAMPLES: d's verdict, below"
pb-logratio "$T/ex.tsv" | pb-tint --threshold 1.05 >"$T/ex-lr.tsv"
example '6  1\.05' 2 "$T/ex-lr.tsv" ratio_lo "pb-tint(1) EXAMPLES: ratio_lo as printed there"
example '6  1\.05' 3 "$T/ex-lr.tsv" ratio_hi "pb-tint(1) EXAMPLES: ratio_hi as printed there"
is "$(col verdict 1 "$T/ex-lr.tsv")" above "pb-tint(1) EXAMPLES: the ratio's verdict, above"

done_testing

#!/bin/sh
# pb-logratio: lr = ln(a/b), accurate over the whole range, streaming.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
V=$(sed -n 's/^VERSION = //p' ../../config.mk)

# lr against the true value, to 1e-15 relative. Truth: bc -l, scale=50,
# l(a/b). R's sprintf("%.17g", log(a/b)) agrees to 1e-15 except where a/b
# is near 1: there rounding a/b first loses digits, and R's
# log1p((a-b)/b) is the accurate form (given where it differs).
#   a           b           bc                        R log(a/b)               R log1p((a-b)/b)
#   1100        1000        .0953101798043248600440   0.095310179804324935     0.095310179804324865
#   1000000001  1000000000  9.99999999500000000333e-10 1.0000000822403709e-09  9.9999999949999999e-10
#   999999999   1000000000  -1.00000000050000000033e-9 -9.9999997221806861e-10 -1.0000000005000001e-09
#   4294967297  4294967296  2.32830643626764574598e-10 2.3283064362676457e-10
#   3           7           -.847297860387203613710   -0.84729786038720367
#   1           1000000000  -20.7232658369464111562   -20.72326583694641
#   1000000000  1           20.7232658369464111562    20.72326583694641
#   123456789   987654321   -2.07944155079233596966   -2.0794415507923358
#   987654321   123456789   2.07944155079233596966    2.0794415507923358
#   5000        5000        0                         0
run pb-logratio pairs-lr.tsv
ran_ok "pairs-lr.tsv: exit 0"
k=0
for want in .0953101798043248600440 9.99999999500000000333e-10 -1.00000000050000000033e-9 \
            2.32830643626764574598e-10 -.847297860387203613710 -20.7232658369464111562 \
            20.7232658369464111562 -2.07944155079233596966 2.07944155079233596966 0; do
	k=$((k + 1))
	near "$(col lr $k "$T/out")" $want 1e-15 \
		"lr row $k: ln($(col a $k "$T/out")/$(col b $k "$T/out"))"
done
cp "$T/out" "$T/ab"

# Swapping --a and --b negates lr exactly (same digits, sign flipped).
run pb-logratio --a b --b a pairs-lr.tsv
k=0
while [ $k -lt 10 ]; do
	k=$((k + 1))
	l=$(col lr $k "$T/ab")
	case $l in -*) w=${l#-} ;; 0) w=0 ;; *) w=-$l ;; esac
	is "$(col lr $k "$T/out")" "$w" "swapped row $k: -($l)"
done
like "$(cat "$T/out")" '^# log_ratio: lr = ln\(b/a\); ' "swapped: the metadata says ln(b/a)"

# The whole stream: metadata first, rows unchanged (numbers as written),
# comments between rows in place.
tsv >"$T/in" <<'EOF'
# study: write-ahead log on tmpfs
a|b|host
1.1e3|1e3|h1
# run: 2
+1100|1000.000|h2
1100||h3
EOF
sed '$d' "$T/in" >"$T/in2"   # without the last row (empty b)
run pb-logratio "$T/in2"
tsv >"$T/want" <<EOF
# study: write-ahead log on tmpfs
# pb-logratio: $V pb-logratio $T/in2
# pb-logratio.column: lr a b
# log_ratio: lr = ln(a/b); A is the baseline, B the candidate; lr > 0 means B took less time
a|b|host|lr
1.1e3|1e3|h1|0.09531017980432487
# run: 2
+1100|1000.000|h2|0.09531017980432487
EOF
is_file "$T/out" "$T/want" "row text kept, comments in place, metadata line"
fails 1 "^pb-logratio: .*/in:6: column 'b': not a finite number: ''\$" \
	"empty b: file:line" pb-logratio "$T/in"
# pb-logratio reads its rows without cutting them at the TABs (the line
# goes out as read): a message quotes the field, cut at 40 bytes, not
# the rest of the line; a long number in the first column reads whole
x50=$(printf '%050d' 0 | tr 0 x)
printf 'a\tb\tc\n%s\t1000\tz\n' "$x50" >"$T/long.tsv"
fails 1 "^pb-logratio: .*/long.tsv:2: column 'a': not a finite number: 'x{40}\.\.\.'\$" \
	"a 50-byte field that is not a number: quoted to 40 bytes, with ..." pb-logratio "$T/long.tsv"
printf 'a\tb\tc\n2%s\t1e70\tz\n' "$(printf '%070d' 0)" >"$T/long.tsv"
run pb-logratio "$T/long.tsv"
is "$rc:$(col lr 1 "$T/out"):$(rows "$T/out" | cut -f 3)" "0:0.6931471805599453:z" \
	"a = 2e70 in 71 digits, b = 1e70: lr = ln 2, the row whole"

# --name, --a, --b.
run pb-logratio --name lratio pairs-lr.tsv
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "run pair first a b d delay lratio" \
	"--name lratio: the column's name"
like "$(cat "$T/out")" '^# log_ratio: lratio = ln\(a/b\); A is the baseline, B the candidate; lratio > 0 means B took less time$' \
	"--name lratio: in the metadata"
is "$(col lratio 1 "$T/out")" "$(col lr 1 "$T/ab")" "--name lratio: same values"
printf 'old_ns\tnew_ns\n1100\t1000\n' >"$T/ns.tsv"
run pb-logratio --a old_ns --b new_ns "$T/ns.tsv"
is "$rc:$(col lr 1 "$T/out")" "0:0.09531017980432487" "--a old_ns --b new_ns"
like "$(cat "$T/out")" '^# log_ratio: lr = ln\(old_ns/new_ns\); ' "--a/--b: in the metadata"
is "$(meta pb-logratio.column "$T/out")" "lr old_ns new_ns" \
	"--a/--b: pb-logratio.column, what pb-tint reads: the name, then A and B"
fails 1 "^pb-logratio: .*/ns.tsv: no column 'a' \(columns: old_ns new_ns\)\$" \
	"default --a missing: named, columns listed" pb-logratio "$T/ns.tsv"
fails 1 "^pb-logratio: pairs-lr.tsv: no column 'x' \(columns: run pair first a b d delay\)\$" \
	"--b x missing" pb-logratio --b x pairs-lr.tsv
pb-logratio pairs-lr.tsv >"$T/has-lr.tsv"
fails 1 "^pb-logratio: .*/has-lr.tsv: column 'lr' exists already \(choose another with --name\)\$" \
	"an lr column already there" pb-logratio "$T/has-lr.tsv"
fails 1 "^pb-logratio: pairs-lr.tsv: column 'd' exists already" \
	"--name d: exists already" pb-logratio --name d pairs-lr.tsv
refuses 2 "^pb-logratio: --name 'Lr' is not a column name \(\[a-z_\]\[a-z0-9_\]\*\) \(see pb-logratio --help\)\$" \
	"--name that is not a column name: a usage error, as pb-logratio(1) says" \
	pb-logratio --name Lr pairs-lr.tsv
run pb-logratio --name lr2 "$T/has-lr.tsv"
is "$rc:$(grep -c '^# log_ratio: ' "$T/out")" "0:2" "a second log ratio under another name: both declared"
is "$(sed -n 's/^# pb-logratio.column: //p' "$T/out" | tr '\n' ,)" "lr a b,lr2 a b," \
	"  and each has its pb-logratio.column line, in order"

# At the ends of the doubles lr stays finite and exact (no nan or inf
# with exit 0; a guard, as it held before): R, sprintf("%.17g", log(a) - log(b))
#   a <- c(4.9e-324, 1.7976931348623157e308, 1e-320, 1e308, 1)
#   b <- c(1.7976931348623157e308, 4.9e-324, 1, 1e-308, 1 + 2^-52)
printf 'a\tb\n4.9e-324\t1.7976931348623157e308\n1.7976931348623157e308\t4.9e-324\n1e-320\t1\n1e308\t1e-308\n1\t1.0000000000000002\n' >"$T/ends.tsv"
run pb-logratio "$T/ends.tsv"
is "$rc:$(grep -c 'inf\|nan' "$T/out"):$(row_count "$T/out")" "0:0:5" "extreme times: exit 0, no inf or nan"
k=0
for want in -1454.2227848147652 1454.2227848147652 -736.82724089097394 1418.3924172843322 -2.2204460492503128e-16; do
	k=$((k + 1))
	near "$(col lr $k "$T/out")" $want 1e-15 "extreme times, row $k: lr = $want"
done

# Times must be > 0: file:line names the column.
for ab in '0|1000:a' '1100|0:b' '-1100|1000:a' '1100|-1000:b' '0|0:a' '1100|1e-400:b'; do
	row=${ab%:*} c=${ab##*:}
	printf 'a|b\n1100|1000\n%s\n' "$row" | tsv >"$T/neg.tsv"
	if [ $c = a ]; then v=${row%|*}; else v=${row#*|}; fi
	fails 1 "^pb-logratio: .*/neg.tsv:3: column '$c': time must be > 0, got '$v'\$" \
		"a|b = $row: column $c refused" pb-logratio "$T/neg.tsv"
done

# Rows wait in a buffer before stdio (one write per 64 KiB, not per row):
# comments between rows keep their place, and when a row is refused the
# rows before it are all on stdout, whole, before the message.
awk 'BEGIN { print "a\tb"; for (i = 1; i <= 20000; i++) { print 1000 + i "\t" 1000;
	if (i % 3000 == 0) print "# mark: " i } print "0\t1"; print "5\t6" }' >"$T/big.tsv"
run pb-logratio "$T/big.tsv"
is "$rc:$(row_count "$T/out")" "1:20000" "a bad row after 20000: exit 1, the 20000 rows before it written"
is "$(tail -c 1 "$T/out" | od -An -c | tr -d ' ')" '\n' "the output ends with a whole line"
is "$(awk '/^# mark: / { print $3 - rows; next } !/^#/ { rows++ }' "$T/out" | sort -u | tr '\n' ' ')" \
	"-1 " "each comment stays where it was among the rows (the header counted)"

done_testing

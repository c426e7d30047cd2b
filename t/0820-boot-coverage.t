#!/bin/sh
# pb-boot --block run: coverage of the default interval over runs (issue
# 12), a small version of examples/bench/coverage.sh. 400 synthetic
# studies of 10 runs x 101 pairs, d = run effect N(0, 0.5²) + N(0, 1),
# seed 1 (examples/bench/coverage-gen.c); the truth is 0 for the median
# and the mean. Bound: 370 of 400 (92.5 %). Were the coverage 95 %, 400
# studies would fall below it with probability 1.1 %; the plain
# percentile interval over 10 runs covers about 90.4 % (P(|t_9| <=
# 1.96 sqrt(9/10))), and reaches the bound with probability 8.7 %
# (R: pbinom(369, 400, 0.95); 1 - pbinom(369, 400, 0.904)). With this
# seed: expanded 379 and 379, percentile 361 and 359.
# Under make valgrind (PB_VALGRIND=1, memcheck 20-50 times slower) 20
# studies, for memory only: the bounds are skipped.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
S=400
[ "${PB_VALGRIND:-0}" = 1 ] && S=20
cc -O2 -std=c11 -o "$T/gen" "$top/examples/bench/coverage-gen.c" -lm || exit 1
"$T/gen" $S 10 101 normal 0.5 1 >"$T/studies.tsv"
is "$(grep -vc '^#' "$T/studies.tsv")" $((S * 1010 + 1)) "$S studies x 10 runs x 101 pairs, and a header"

# covered ARGS...: run pb-boot; then $rc, and "intervals covering" in $got
covered() {
	run pb-boot --group study --block run "$@" "$T/studies.tsv"
	got=$(awk -F'\t' '!/^#/ && $1 != "study" { n++; c += ($4 <= 0 && $5 >= 0) }
		END { print n + 0, c + 0 }' "$T/out")
}
for s in median mean; do
	covered --stat $s
	set -- $got
	is "$rc:$1" "0:$S" "$s, default method: exit 0, $S intervals"
	if [ $S -ne 400 ]; then skip "$s, default (expanded): the bound, with 400 studies only"
	elif [ "$2" -ge 370 ]; then ok "$s, default (expanded): $2 of 400 hold the truth (>= 370)"
	else not_ok "$s, default (expanded): $2 of 400 hold the truth (>= 370)"; fi
	covered --stat $s --method percentile
	set -- $got
	if [ $S -ne 400 ]; then is "$rc:$1" "0:$S" "$s, --method percentile: exit 0, $S intervals"
	elif [ "$rc" -eq 0 ] && [ "$1" -eq 400 ] && [ "$2" -lt 370 ]; then
		ok "$s, --method percentile: $2 of 400 (< 370: the bound tells the two apart)"
	else not_ok "$s, --method percentile: $2 of 400 (want < 370)"; fi
done

done_testing

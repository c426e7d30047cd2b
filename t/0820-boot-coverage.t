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
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cc -O2 -std=c11 -o "$T/gen" "$top/examples/bench/coverage-gen.c" -lm || exit 1
"$T/gen" 400 10 101 normal 0.5 1 >"$T/studies.tsv"
is "$(grep -vc '^#' "$T/studies.tsv")" 404001 "400 studies x 10 runs x 101 pairs, and a header"

# covered ARGS...: run pb-boot; then $rc, and "intervals covering" in $got
covered() {
	run pb-boot --group study --block run "$@" "$T/studies.tsv"
	got=$(awk -F'\t' '!/^#/ && $1 != "study" { n++; c += ($4 <= 0 && $5 >= 0) }
		END { print n + 0, c + 0 }' "$T/out")
}
for s in median mean; do
	covered --stat $s
	set -- $got
	is "$rc:$1" "0:400" "$s, default method: exit 0, 400 intervals"
	if [ "$2" -ge 370 ]; then ok "$s, default (expanded): $2 of 400 hold the truth (>= 370)"
	else not_ok "$s, default (expanded): $2 of 400 hold the truth (>= 370)"; fi
	covered --stat $s --method percentile
	set -- $got
	if [ "$rc" -eq 0 ] && [ "$1" -eq 400 ] && [ "$2" -lt 370 ]; then
		ok "$s, --method percentile: $2 of 400 (< 370: the bound tells the two apart)"
	else not_ok "$s, --method percentile: $2 of 400 (want < 370)"; fi
done

done_testing

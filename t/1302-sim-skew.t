#!/bin/sh
# share/dev/sim-skew, the simulation behind pb-check's skew and the shape
# table of pb-tint(1): at 2000 studies
# a shape (seeded: the same on every machine) it still shows what the
# pages say: the median sequence within its 5 % under every shape, the t
# sequence far beyond it under lognormal sigma 1 and two humps, the check
# near 1 % on normal runs and on most lognormal ones at 30 runs.
. "$(dirname "$0")/lib.sh"
# make all builds it with the tree's compiler and flags (asan, musl too)
S=$D/../../share/dev/sim-skew
"$S" -m 2000 30 >"$T/s"
is "$?:$(head -n 1 "$T/s" | tr '\t' ' ')" \
	"0:shape runs t_error t_se median_error median_se skew_warned skewed flat mean_g1 mean_b2" "its columns"
is "$(rows "$T/s" | cut -f 1 | tr '\n' ' ')" \
	"normal lognormal-0.25 lognormal-0.5 lognormal-0.75 lognormal-1 t3 bimodal lopsided " "seven shapes and normal"
# value SHAPE COLUMN
value() { awk -F'\t' -v s="$1" -v c="$2" '!h { for (i = 1; i <= NF; i++) if ($i == c) j = i; h = 1; next }
	$1 == s { print $j }' "$T/s"; }
# the count of rows first: a table with no row would have none beyond 5 %
is "$(rows "$T/s" | wc -l | tr -d ' '):$(rows "$T/s" | awk -F'\t' '$5 > 0.05 + 2 * $6 { print $1 }')" "8:" \
	"the median sequence: at most 5 % + 2 SE of studies miss, under every shape"
is "$(awk -v a="$(value lognormal-1 t_error)" -v b="$(value bimodal t_error)" \
	'BEGIN { print (a > 0.15 && b > 0.10) }')" 1 "the t sequence misses in more than 15 % (lognormal 1) and 10 % (two humps)"
is "$(awk -v n="$(value normal skew_warned)" -v l="$(value lognormal-1 skew_warned)" \
	-v b="$(value bimodal skew_warned)" 'BEGIN { print (n <= 0.02 && l > 0.75 && b > 0.85) }')" 1 \
	"the check: at most 2 % of normal studies, most lognormal-1 and two-humped ones"
"$S" -m 2000 30 >"$T/again"
is "$(cmp -s "$T/again" "$T/s" && echo same):$(rows "$T/again" | wc -l | tr -d ' ')" "same:8" \
	"seeded: the same table twice"
run "$S" 1
like "$rc:$(cat "$T/err")" '^2:sim-skew: N is a whole number from 2 to 999 \(at most 64 of them\), not 1$' "N below 2: exit 2, one line"
done_testing

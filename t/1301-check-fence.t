#!/bin/sh
# pb-check's outlier fence: the table of share/dev/gen-fence at the
# default level, n/a with few pairs per run, and still a warning for an
# outlier run. The studies come from t/gen/synth with fixed seeds.
. "$(dirname "$0")/lib.sh"
G=$D/../gen/synth

# note FILE: the outliers row's status and note
note() { awk -F'\t' '!/^#/ && $1 == "outliers" { print $2 ": " $7 }' "$1"; }

# --- The fence is the table's -------------------------------------------------
# gen-fence -m 4000000 5 10 20 (conditional Monte Carlo, rate se 3e-5):
# 13.679, 4.6615, 3.3629; R's plain simulation crosses them in 0.989 %,
# 1.009 % and 0.996 % (lib/check.c, section 6). The simulated fence of
# 20000 samples was 12.99 and 4.563 (1.10 % and 1.09 % false alarms).
for c in 5:13.68 10:4.662 20:3.363; do
	r=${c%:*} k=${c#*:}
	$G --seed 1 --runs "$r" --pairs 20 | pb-pair 2>/dev/null | pb-check >"$T/c"
	like "$(note "$T/c")" "^ok: No run's effect \(median d\) lies beyond $k IQRs " \
		"$r runs: the fence is the table's, $k IQRs"
done
like "$(grep '^# pb-check.outliers:' "$T/c")" "warns beyond the fence that 99% .*gen-fence's table" \
	"the method names the table"
$G --seed 1 --runs 20 --pairs 20 | pb-pair 2>/dev/null | pb-check --level 0.95 >"$T/c"
like "$(grep '^# pb-check.outliers:' "$T/c")" "warns beyond the fence that 95% .*\(simulated, seed 1\)" \
	"--level 0.95: the fence is simulated, and the method says so"

# --- Few pairs per run ------------------------------------------------------------
# A run's median d over fewer than 20 pairs is mostly their own noise: n/a,
# saying why.
$G --seed 1 --runs 250 --pairs 2 --warmup 2 | pb-pair 2>/dev/null | pb-check >"$T/c"
like "$(note "$T/c")" '^n/a: Needs runs of 20 pairs or more, as their median run: .*; these have 2\.$' \
	"250 runs of 2 pairs: outliers n/a, saying why"
$G --seed 1 --runs 10 --pairs 19 | pb-pair 2>/dev/null | pb-check >"$T/c"
like "$(note "$T/c")" '^n/a: Needs runs of 20 pairs or more, .*; these have 19\.$' "10 runs of 19 pairs: n/a"
$G --seed 1 --runs 10 --pairs 20 --partial 3:1 | pb-pair 2>/dev/null | pb-check >"$T/c"
like "$(note "$T/c")" "^ok: No run's effect" "10 runs of 20 pairs, one cut short to 1: the median run has 20, outliers answers"

# --- An outlier run still warns ---------------------------------------------------
$G --seed 1 --runs 20 --pairs 20 --outlier 7:100000 | pb-pair 2>/dev/null | pb-check >"$T/c"
like "$(note "$T/c")" '^warn: run 7 has an effect \(median d\) beyond 3\.363 IQRs ' \
	"20 runs x 20 pairs, run 7 100 us off: warns, names run 7"
done_testing

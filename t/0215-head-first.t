#!/bin/sh
# A head that gives a key twice counts its first value (pb(7), Comments
# and metadata), in every tool that reads the design or an earlier
# tool's keys: each stream below has a key twice, the second value one
# that would change the output, and the same stream with the two lines
# the other way round shows that the tool reads the key at all.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)

# twice FILE KEY FIRST SECOND OUT: FILE with "# KEY: FIRST" and then
# "# KEY: SECOND" where its head had the key
twice() {
	awk -v k="# $2: " -v a="$3" -v b="$4" '
		!h && index($0, k) == 1 { print k a; print k b; next }
		!/^#/ { h = 1 } { print }' "$1" >"$5"
}

# --- pb-pair: the pairs of a run (a run with fewer is warned of)
twice "$D/raw-small.tsv" pairs 3 5 "$T/pairs35.tsv"
twice "$D/raw-small.tsv" pairs 5 3 "$T/pairs53.tsv"
run pb-pair "$T/pairs35.tsv"
ran_ok "pb-pair: '# pairs: 3' then '# pairs: 5': 3 counts, no warning"
run pb-pair "$T/pairs53.tsv"
like "$rc:$(cat "$T/err")" '^0:pb-pair: run 1 has 3 of 5 measured pairs' \
	"pb-pair: '# pairs: 5' then '# pairs: 3': 5 counts, run 1 is short"

# --- pb-check: the same key through pb-pair, in the pair stream's head
pb-pair "$T/pairs35.tsv" >"$T/p35" 2>/dev/null
pb-pair "$T/pairs53.tsv" >"$T/p53" 2>/dev/null
partial() { awk -F '\t' '!/^#/ && $1 == "partial" { print $2 }' "$1"; }
run pb-check "$T/p35"
is "$rc:$(partial "$T/out")" "0:ok" "pb-check: pairs 3 then 5: no run is partial"
run pb-check "$T/p53"
is "$rc:$(partial "$T/out")" "0:warn" "pb-check: pairs 5 then 3: every run is partial"

# --- pb-plan: the warm-up pairs, its run cost without two stamps (it
# took the last value before)
twice "$D/plan/warmup.tsv" warmup 4 9 "$T/warm49.tsv"
twice "$D/plan/warmup.tsv" warmup 9 4 "$T/warm94.tsv"
run pb-plan --column d "$T/warm49.tsv"
is "$rc:$(meta pb-plan.run_cost "$T/out")" "0:10000" \
	"pb-plan: warmup 4 then 9: 4 x 2500 ns"
run pb-plan --column d "$T/warm94.tsv"
is "$rc:$(meta pb-plan.run_cost "$T/out")" "0:22500" \
	"pb-plan: warmup 9 then 4: 9 x 2500 ns"

# --- pb-tint: the level a sequential study stopped at
{ echo '# until: parity'; echo '# seq_g: 25'; echo '# seq_level: 0.9'; echo '# seq_level: 0.5'
  cat "$D/tint-lr.tsv"; } >"$T/level95.tsv"
{ echo '# until: parity'; echo '# seq_g: 25'; echo '# seq_level: 0.5'; echo '# seq_level: 0.9'
  cat "$D/tint-lr.tsv"; } >"$T/level59.tsv"
run pb-tint "$T/level95.tsv"
is "$rc:$(meta pb-tint.level "$T/out")" "0:0.9" "pb-tint: seq_level 0.9 then 0.5: 0.9"
run pb-tint "$T/level59.tsv"
is "$rc:$(meta pb-tint.level "$T/out")" "0:0.5" "pb-tint: seq_level 0.5 then 0.9: 0.5"

# --- pb-logratio: the reference of a stream of several comparisons
pb-pair "$D/arms/raw3.tsv" >"$T/arms.tsv" 2>/dev/null
twice "$T/arms.tsv" reference A C "$T/refAC.tsv"
run pb-logratio "$T/refAC.tsv"
like "$rc:$(grep '^# log_ratio: ' "$T/out" | tail -n 1)" '^0:# log_ratio: lr = ln\(a/b\); the reference A ' \
	"pb-logratio: reference A then C: A"
twice "$T/arms.tsv" reference C A "$T/refCA.tsv"
run pb-logratio "$T/refCA.tsv"
like "$rc:$(grep '^# log_ratio: ' "$T/out" | tail -n 1)" '^0:# log_ratio: lr = ln\(a/b\); the reference C ' \
	"pb-logratio: reference C then A: C"

# --- pb-plot: the same, in the title of each candidate's panel
if command -v gnuplot >/dev/null 2>&1; then
	run pb-plot trend "$T/refAC.tsv"
	is "$rc:$(grep -c ' B against A: ' "$T/out")" "0:1" "pb-plot: reference A then C: B against A"
	run pb-plot trend "$T/refCA.tsv"
	is "$rc:$(grep -c ' B against C: ' "$T/out")" "0:1" "pb-plot: reference C then A: B against C"
else
	skip "pb-plot: no gnuplot"
	skip "pb-plot: no gnuplot"
fi

# --- pb-compare and pb-report: the design of raw.tsv in a study directory
for order in "4 9" "9 4"; do
	d=$T/dir-$(echo "$order" | tr -d ' ')
	cp -r "$top/examples/compare" "$d"
	# shellcheck disable=SC2086
	twice "$top/examples/compare/raw.tsv" pairs $order "$d/raw.tsv"
done
run pb-compare --from "$T/dir-49"
like "$rc:$(grep ' runs x ' "$T/out")" '^0:12 runs x 4 pairs$' "pb-compare: pairs 4 then 9: 4"
run pb-compare --from "$T/dir-94"
like "$rc:$(grep ' runs x ' "$T/out")" '^0:12 runs x 9 pairs$' "pb-compare: pairs 9 then 4: 9"
run pb-report --no-derive -o "$T/49.html" "$T/dir-49"
is "$rc:$(grep -c ' runs × 4 pairs' "$T/49.html")" "0:1" "pb-report: pairs 4 then 9: 4"
run pb-report --no-derive -o "$T/94.html" "$T/dir-94"
is "$rc:$(grep -c ' runs × 9 pairs' "$T/94.html")" "0:1" "pb-report: pairs 9 then 4: 9"
done_testing

#!/bin/sh
# table.sh: the analysis of examples/preview-cost-jvm from what study.sh
# measured in out/ (make table redoes it without measuring): the plans,
# table.tsv and table.txt in the seed's shape, and the pictures. TOP is
# the top of the pb sources.
set -eu
PATH="$(cd "$TOP/bin" && pwd):$PATH"
out="$(pwd)/out"
die() { echo "preview-cost-jvm: $*" >&2; exit 1; }
rows() { [ -n "$(grep -v '^#' "$1" 2>/dev/null | sed -n 2p)" ]; }
# col NAME: column NAME of a stream on stdin, data rows only
col() { awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) j = i
	h = 1; next } j { print $j }'; }
# meta KEY FILE: the value of "# KEY: value" in FILE's head
meta() { sed -n "s/^# $1: //p" "$2" | sed -n 1p; }
# range NAME: "lo to hi" of column NAME on stdin, in ms, and hi - lo in us
range() { col "$1" | sort -n | awk '{ v[NR] = $1 } END {
	printf "%.3f to %.3f ms (%.0f us apart)", v[1] / 1e6, v[NR] / 1e6, (v[NR] - v[1]) / 1e3 }'; }
for f in answer.txt raw.tsv pairs.tsv tint.tsv boot-runs.tsv cross.tsv sense.tsv blocked.tsv \
	cold.tsv sense-raw/raw-0.tsv blocked-raw/raw-0.tsv; do
	[ -s "$out/$f" ] || die "no $out/$f: run make first"
done
aa=$out/sense-raw/raw-0.tsv

# pb-plan with the comparison as a pilot: the design for +-5% on the
# ratio; with the A/A study at delay 0, for +-50 us on the difference.
pb-pair "$out/raw.tsv" | pb-logratio | pb-plan --target 0.05 >"$out/plan.tsv"
pb-pair "$aa" | pb-plan --column d --target 50000 >"$out/plan-aa.tsv"
rows "$out/plan.tsv" && rows "$out/plan-aa.tsv" || die "pb-plan wrote no rows"

# The table in the seed's shape, one row per delay.
awk -F'\t' -v OFS='\t' '
	FNR == 1 { f++ }
	/^#/ { next }
	!h[f]++ { for (i = 1; i <= NF; i++) c[f, $i] = i; next }
	f == 1 { d = $c[1, "delay_ns"]; bx[d] = $c[1, "est"]; bl[d] = $c[1, "lo"]; bh[d] = $c[1, "hi"]
	  bs[d] = $c[1, "seen"]; next }
	{ d = $c[2, "delay_ns"]
	  b = d in bx ? bx[d] OFS bl[d] OFS bh[d] OFS bs[d] : "" OFS "" OFS "" OFS ""
	  print d, $c[2, "runs"], $c[2, "seen"], $c[2, "est"], $c[2, "lo"], $c[2, "hi"], b,
	    $c[2, "cross_right"], $c[2, "combos"], sprintf("%.4f", $c[2, "cross_right"] / $c[2, "combos"]) }
	BEGIN { print "delay_ns", "runs", "seen", "est_ns", "lo_ns", "hi_ns", "blocked_est_ns",
	    "blocked_lo_ns", "blocked_hi_ns", "blocked_seen", "cross_right", "combos", "cross_rate" }
' "$out/blocked.tsv" "$out/sense.tsv" >"$out/table.tsv"
rows "$out/table.tsv" || die "no table"

# The readable table, with the comparison above it.
{
	n=$(col d <"$out/pairs.tsv" | wc -l)
	slower=$(col d <"$out/pairs.tsv" | awk '$1 < 0' | wc -l)
	echo "The comparison: A the rollback preview over JDBC, B the in-memory copy;"
	echo "both answer $(cat "$out/answer.txt")."
	echo "$(meta runs "$out/raw.tsv") fresh JVMs x $(meta pairs "$out/raw.tsv") pairs after" \
		"$(meta warmup "$out/raw.tsv") warm-up pairs."
	echo "Pairs with the rollback slower: $slower of $n."
	echo "Per-JVM median paired difference B - A: $(range est <"$out/boot-runs.tsv")."
	sed -n 's/^# finding: /Finding: /p' "$out/tint.tsv"
	awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "Across JVMs (A from one, B from another): B faster in %d of %d; paired, in %d of %d JVMs.\n",
		  $c["right"], $c["combos"], $c["paired_right"], $c["runs"] }' "$out/cross.tsv"
	awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "best" { printf "pb-plan, this study as the pilot: +-5%% on the ratio takes %d JVMs x %d pairs (%.0f min).\n",
		  $c["runs"], $c["pairs"], $c["total_s"] / 60 }' "$out/plan.tsv"
	awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "best" { printf "pb-plan, A/A at delay 0 as the pilot: +-50 us on B - A takes %d JVMs x %d pairs (%.0f min).\n",
		  $c["runs"], $c["pairs"], $c["total_s"] / 60 }' "$out/plan-aa.tsv"
	echo
	echo "Identical work (the A/A study at delay 0): the JVMs' medians of the"
	echo "rollback preview, arm A, $(pb-pair --by-run "$aa" | range a);"
	echo "of arm B $(pb-pair --by-run "$aa" | range b)."
	echo
	echo "A/A calibration: both arms the rollback preview, a busy-wait of the true"
	echo "delay on B; $(meta runs "$aa") JVMs x $(meta pairs "$aa") pairs after $(meta warmup "$aa")." \
		"seen: JVMs whose own"
	echo "interval of the median B - A lies above 0 (at delay 0: excludes 0, a false"
	echo "positive). Pooled: median of B - A over all pairs, run-block interval."
	echo "Blocked: the same with all of A, then all of B, in each JVM. Cross-run:"
	echo "how often B from one JVM and A from another say B is slower."
	echo
	awk -F'\t' '/^#/ || NR == 1 { next }
		function us(x) { return sprintf("%.1f", x / 1000) }
		BEGIN { printf "%-9s  %-6s  %-26s  %-34s  %s\n", "delay us", "seen", "pooled us [95% CI]",
		    "blocked us [95% CI], seen", "cross-run" }
		{ bl = $7 == "" ? "-" : us($7) " [" us($8) ", " us($9) "], " $10 "/" $2
		  printf "%-9s  %-6s  %-26s  %-34s  %d/%d = %.2f\n", us($1), $3 "/" $2,
		    us($4) " [" us($5) ", " us($6) "]", bl, $11, $12, $13 }' "$out/table.tsv"
} >"$out/table.txt"

pb-plot sense -o "$out/sense.png" "$out/sense.tsv"
pb-plot runs -o "$out/runs.png" "$out/pairs.tsv"
pb-plot pairs -o "$out/pairs.png" "$out/pairs.tsv"
pb-pair "$out/cold.tsv" | pb-plot trend -o "$out/trend-cold.png"
pb-pair "$out/blocked-raw/raw-0.tsv" | pb-plot trend -o "$out/trend-blocked.png"

#!/bin/sh
# study.sh: the study of examples/preview-cost-jvm, run by its Makefile
# (make; see README.md), which passes the design in the environment: RUNS,
# PAIRS, WARMUP, DELAYS, BLOCKED_DELAYS, SHORT_PAIRS and SHORT_WARMUP (the
# A/A and cold studies'), and CLASSPATH_RUN,
# JAVA, TOP. Starts a throwaway cluster on TCP (PG_TCP=1: JDBC reaches no
# unix socket), stops it on exit, failure or ^C; everything lands in out/.
set -eu
PATH="$(cd "$TOP/bin" && pwd):$PATH"
out="$(pwd)/out"
mkdir -p "$out"
say() { echo "preview-cost-jvm: $*"; }
die() { echo "preview-cost-jvm: $*" >&2; exit 1; }
# rows FILE: FILE is a pb stream with a header and at least one data row
rows() { [ -n "$(grep -v '^#' "$1" 2>/dev/null | sed -n 2p)" ]; }
# col NAME: column NAME of a stream on stdin, data rows only
col() { awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) j = i
	h = 1; next } j { print $j }'; }
step_start=$(date +%s)
step() { now=$(date +%s); printf '%s\t%s\n' "$1" $((now - step_start)) >>"$out/times.tsv"
	step_start=$now; }

. "$TOP/share/dev/pgtmp.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-preview-cost-jvm.XXXXXX")
trap pg_cluster_stop EXIT
trap 'exit 129' HUP; trap 'exit 130' INT; trap 'exit 143' TERM
printf 'step\tseconds\n' >"$out/times.tsv"
say "starting a throwaway cluster in $tmp/pg (TCP on 127.0.0.1)"
PG_TCP=1 pg_cluster_start "$tmp" || die "$pg_cluster_error"
pg_psql -f ../preview-cost/schema.sql
worker="$JAVA -cp $CLASSPATH_RUN Preview"

# The arms agree, to the last digit: psql's rollback preview, and the
# worker's own check of its two arms against each other.
sql=$(pg_psql -c begin -f ../preview-cost/arm-a.sql -c rollback)
jvm=$($worker check) || die "the worker's check failed"
[ "$sql" = "$jvm" ] || die "the arms disagree: psql $sql, the JVM $jvm"
printf '%s\n' "$sql" >"$out/answer.txt"
say "both arms answer $sql (psql and the JVM's two arms)"
step setup

# (a) The comparison: one fresh JVM per run.
say "the comparison: $RUNS JVMs x $PAIRS pairs after $WARMUP"
pb-run --worker "$worker" --runs "$RUNS" --pairs "$PAIRS" --warmup "$WARMUP" >"$out/raw.tsv"
rows "$out/raw.tsv" || die "pb-run wrote no rows"
pb-pair "$out/raw.tsv" >"$out/pairs.tsv"
pb-pair --by-run "$out/raw.tsv" >"$out/runs.tsv"
pb-logratio "$out/runs.tsv" | pb-tint --finding >"$out/tint.tsv"
pb-boot --group run "$out/pairs.tsv" >"$out/boot-runs.tsv"
pb-check "$out/pairs.tsv" >"$out/check.tsv"
pb-cross "$out/pairs.tsv" >"$out/cross.tsv"
rows "$out/tint.tsv" && rows "$out/boot-runs.tsv" && rows "$out/cross.tsv" ||
	die "the analysis of the comparison wrote no rows"
step comparison

# (b, c) The A/A grid over fresh JVMs: both arms the rollback preview, the
# known delay on B; pb-sense's cross_right/combos is (c), what "run,
# change, run again" across JVMs would have said.
say "the A/A grid: delays $DELAYS, $RUNS JVMs x $SHORT_PAIRS pairs after $SHORT_WARMUP"
pb-sense --delays "$DELAYS" --runs "$RUNS" --pairs "$SHORT_PAIRS" --warmup "$SHORT_WARMUP" \
	--raw "$out/sense-raw" --worker "$worker aa" >"$out/sense.tsv"
rows "$out/sense.tsv" || die "pb-sense wrote no rows"
step sense

# (d) The blocked order on A/A: all of A, then all of B, in each JVM.
say "the blocked order: delays $BLOCKED_DELAYS, $RUNS JVMs x $SHORT_PAIRS pairs after $SHORT_WARMUP"
pb-sense --order blocked --delays "$BLOCKED_DELAYS" --runs "$RUNS" --pairs "$SHORT_PAIRS" \
	--warmup "$SHORT_WARMUP" --raw "$out/blocked-raw" --worker "$worker aa" >"$out/blocked.tsv"
rows "$out/blocked.tsv" || die "pb-sense --order blocked wrote no rows"
step blocked

# What the JVM adds: its warm-up, seen by pb-check in runs without one.
say "the JIT's warm-up: $RUNS JVMs x $SHORT_PAIRS pairs, no warm-up"
pb-run --worker "$worker" --runs "$RUNS" --pairs "$SHORT_PAIRS" --warmup 0 >"$out/cold.tsv"
rows "$out/cold.tsv" || die "pb-run wrote no rows"
pb-pair "$out/cold.tsv" | pb-check >"$out/cold-check.tsv"
rows "$out/cold-check.tsv" || die "pb-check wrote no rows"
step cold
trap - EXIT; pg_cluster_stop

# pb-plan from the comparison as a pilot: the design for +-1% on the
# ratio, and for +-10us on the A/A difference (its delay-0 study).
pb-pair "$out/raw.tsv" | pb-logratio | pb-plan --target 0.01 >"$out/plan.tsv"
pb-pair "$out/sense-raw/raw-0.tsv" | pb-plan --column d --target 10000 >"$out/plan-aa.tsv"
rows "$out/plan.tsv" && rows "$out/plan-aa.tsv" || die "pb-plan wrote no rows"

# The table in the seed's shape, one row per delay.
awk -F'\t' -v OFS='\t' '
	FNR == 1 { f++ }
	/^#/ { next }
	!h[f]++ { for (i = 1; i <= NF; i++) c[f, $i] = i; next }
	f == 1 { d = $c[1, "delay_ns"]; bx[d] = $c[1, "est"]; bl[d] = $c[1, "lo"]; bh[d] = $c[1, "hi"]; next }
	{ d = $c[2, "delay_ns"]
	  b = d in bx ? bx[d] OFS bl[d] OFS bh[d] : "" OFS "" OFS ""
	  print d, $c[2, "runs"], $c[2, "seen"], $c[2, "est"], $c[2, "lo"], $c[2, "hi"], b,
	    $c[2, "cross_right"], $c[2, "combos"], $c[2, "cross_right"] / $c[2, "combos"] }
	BEGIN { print "delay_ns", "runs", "seen", "est_ns", "lo_ns", "hi_ns", "blocked_est_ns",
	    "blocked_lo_ns", "blocked_hi_ns", "cross_right", "combos", "cross_rate" }
' "$out/blocked.tsv" "$out/sense.tsv" >"$out/table.tsv"
rows "$out/table.tsv" || die "no table"

# The readable table, with the comparison above it.
{
	n=$(col d <"$out/pairs.tsv" | wc -l)
	slower=$(col d <"$out/pairs.tsv" | awk '$1 < 0' | wc -l)
	echo "The comparison: A the rollback preview over JDBC, B the in-memory copy;"
	echo "both answer $sql."
	echo "$RUNS fresh JVMs x $PAIRS pairs after $WARMUP warm-up pairs."
	echo "Pairs with the rollback slower: $slower of $n."
	col est <"$out/boot-runs.tsv" | sort -n | awk '{ v[NR] = $1 } END {
		printf "Per-JVM median paired difference B - A: %.1f to %.1f us (%d JVMs).\n",
		v[1] / 1000, v[NR] / 1000, NR }'
	sed -n 's/^# finding: /Finding: /p' "$out/tint.tsv"
	awk -F'\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "Across JVMs (run A in one, B in another): B faster in %d of %d combinations; paired, in %d of %d JVMs.\n",
		  $c["right"], $c["combos"], $c["paired_right"], $c["runs"] }' "$out/cross.tsv"
	echo
	echo "A/A calibration: both arms the rollback preview, a busy-wait of the true"
	echo "delay on B; $RUNS JVMs x $SHORT_PAIRS pairs after $SHORT_WARMUP. seen: JVMs whose own"
	echo "interval of the median B - A lies above 0 (at delay 0: excludes 0, a false"
	echo "positive). Pooled: median of B - A over all pairs, run-block interval."
	echo "Blocked: the same with all of A, then all of B, in each JVM. Cross-run:"
	echo "how often B from one JVM and A from another say B is slower."
	echo
	awk -F'\t' '/^#/ || NR == 1 { next }
		function us(x) { return sprintf("%.1f", x / 1000) }
		BEGIN { printf "%-9s  %-9s  %-28s  %-28s  %s\n", "delay us", "seen", "pooled us [95% CI]",
		    "blocked us [95% CI]", "cross-run" }
		{ bl = $7 == "" ? "-" : us($7) " [" us($8) ", " us($9) "]"
		  printf "%-9s  %-9s  %-28s  %-28s  %d/%d = %.2f\n", us($1), $3 "/" $2,
		    us($4) " [" us($5) ", " us($6) "]", bl, $10, $11, $12 }' "$out/table.tsv"
} >"$out/table.txt"

pb-plot sense -o "$out/sense.png" "$out/sense.tsv"
pb-plot runs -o "$out/runs.png" "$out/pairs.tsv"
pb-plot pairs -o "$out/pairs.png" "$out/pairs.tsv"
pb-pair "$out/cold.tsv" | pb-plot trend -o "$out/trend-cold.png"
pb-pair "$out/blocked-raw/raw-0.tsv" | pb-plot trend -o "$out/trend-blocked.png"
step analysis
echo
cat "$out/table.txt"
echo
say "the streams, table.tsv, table.txt and the pictures are in $out"

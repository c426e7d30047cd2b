#!/bin/sh
# study.sh: the study of examples/preview-cost-jvm, run by its Makefile
# (make; see README.md), which passes the design in the environment: RUNS,
# PAIRS, WARMUP, DELAYS, BLOCKED_DELAYS, SHORT_PAIRS and SHORT_WARMUP (the
# A/A and cold studies'), and CLASSPATH_RUN, JAVA, TOP. Starts a throwaway cluster on TCP (PG_TCP=1: JDBC reaches no
# unix socket), stops it on exit, failure or ^C; everything lands in out/,
# and table.sh makes the table and the pictures from it.
set -eu
PATH="$(cd "$TOP/bin" && pwd):$PATH"
out="$(pwd)/out"
rm -rf "$out" && mkdir -p "$out"
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
pg_psql -f "$TOP/examples/preview-cost/schema.sql"
worker="$JAVA -cp $CLASSPATH_RUN Preview"

# The arms agree, to the last digit: psql's rollback preview, and the
# worker's own check of its two arms against each other.
sql=$(pg_psql -c begin -f "$TOP/examples/preview-cost/arm-a.sql" -c rollback)
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

TOP="$TOP" sh table.sh
step analysis
echo
cat "$out/table.txt"
echo
say "the streams, table.tsv, table.txt and the pictures are in $out"

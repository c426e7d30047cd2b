#!/bin/sh
# make bench: pb's speed against named peers, measured by pb itself where
# it fits: pb-run runs the peer (arm A) and pb (arm B) as randomized pairs
# in several runs, pb-tint gives the time ratio peer/pb with its interval.
# Writes examples/bench/out/report.md and prints it. Not in make check:
# timings belong here, not in tests.  BENCH_QUICK=1 for a fast smoke run.
# BENCH_PEERS (the filters' rows: lr-vs-mawk lr-vs-mlr tint-vs-awk
# tint-vs-datamash) and BENCH_SECTIONS (the sections' scripts: boot speed
# shards coverage sequential runner pin duet pg sense sense-pg) name a part to run,
# when the whole will not fit; the report says what was left out.
set -eu
cd "$(dirname "$0")/../.."
top=$(pwd)
PATH="$top/bin:$PATH"
sh share/dev/need hyperfine:hyperfine mawk:mawk mlr:miller datamash:datamash \
	/usr/bin/time:time jq:jq >&2
out=examples/bench/out
mkdir -p "$out"
report=$out/report.md
N=${BENCH_ROWS:-1000000}
RUNS=${BENCH_RUNS:-5} PAIRS=${BENCH_PAIRS:-8}
[ "${BENCH_QUICK:-0}" = 1 ] && N=100000 RUNS=3 PAIRS=3

. examples/bench/lib.sh
arm_median() { awk -F'\t' -v arm="$2" '!/^#/ && $3 == "measure" && $4 == arm { print $7 }' "$1" | median; }
peak_kib() { /usr/bin/time -f %M sh -c "$1" 2>&1 >/dev/null | tail -n 1; }
ms() { awk -v ns="$1" 'BEGIN { printf "%.1f ms", ns / 1e6 }'; }

# versus NAME PEER_CMD PB_CMD: pb-run pairs peer (A) with pb (B); one row
# of the report: medians, ratio peer/pb = how many times faster pb is,
# with the t interval over runs, and pb's peak RSS.
PEERS=${BENCH_PEERS:-lr-vs-mawk lr-vs-mlr tint-vs-awk tint-vs-datamash}
SECTIONS=${BENCH_SECTIONS:-boot speed shards coverage sequential runner pin duet compare pg sense sense-pg}
versus() {
	name=$1 peer=$2 pbcmd=$3
	case " $PEERS " in *" $name "*) ;; *) return 0 ;; esac
	pb-run --runs "$RUNS" --pairs "$PAIRS" --warmup 1 --quiet --seed 1 \
		-- "$peer" "$pbcmd" >"$out/$name.raw.tsv"
	pb-pair --by-run "$out/$name.raw.tsv" | pb-logratio | pb-tint >"$out/$name.tint.tsv"
	printf '| %s | %s | %s | %.2fx [%.2f, %.2f] | %s KiB |\n' "$name" \
		"$(ms "$(arm_median "$out/$name.raw.tsv" B)")" \
		"$(ms "$(arm_median "$out/$name.raw.tsv" A)")" \
		"$(field ratio "$out/$name.tint.tsv")" "$(field ratio_lo "$out/$name.tint.tsv")" \
		"$(field ratio_hi "$out/$name.tint.tsv")" "$(peak_kib "$pbcmd")"
}

{
echo "# pb benchmark report"
echo
echo "Machine: $(uname -srm); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); $(nproc) cores;"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)."
echo "Date: $(date -u +%Y-%m-%dT%H:%MZ). pb $(pb-tint --version | sed 's/.* //'). Reproduce: \`make bench\`."
[ -z "${BENCH_PEERS:-}${BENCH_SECTIONS:-}" ] ||
	echo "A part only: BENCH_PEERS='$PEERS' BENCH_SECTIONS='$SECTIONS'."
echo
} >"$report"

# --- filters -------------------------------------------------------------
awk -v n="$N" 'BEGIN { OFS = "\t"; srand(1)
	print "run", "pair", "first", "a", "b", "d", "delay"
	for (i = 1; i <= n; i++) {
		a = 1000000 + int(rand() * 50000); b = 1000000 + int(rand() * 50000)
		print int((i - 1) / (n / 10)) + 1, i, (rand() < .5 ? "A" : "B"), a, b, b - a, 0
	} }' >"$out/pairs.tsv"
pb-logratio "$out/pairs.tsv" >"$out/lr.tsv"
P=$out/pairs.tsv L=$out/lr.tsv
{
echo "## Filters over $N rows"
echo
echo "Measured with pb: \`pb-run --runs $RUNS --pairs $PAIRS -- PEER PB\`, then"
echo "\`pb-pair --by-run | pb-logratio | pb-tint\`. Ratio = peer time / pb time"
echo "(how many times faster pb is), 95 % t interval over the runs. Medians of"
echo "single observations; each includes starting the process and writing to /dev/null."
echo
echo "| job | pb | peer | peer/pb | pb peak RSS |"
echo "|---|---|---|---|---|"
versus "lr-vs-mawk" \
	"mawk -F'\t' -v OFS='\t' 'NR == 1 { print \$0, \"lr\"; next } { printf \"%s\t%.17g\n\", \$0, log(\$4 / \$5) }' $P >/dev/null" \
	"pb-logratio $P >/dev/null"
versus "lr-vs-mlr" \
	"mlr --tsv put '\$lr = log(\$a / \$b)' $P >/dev/null" \
	"pb-logratio $P >/dev/null"
versus "tint-vs-awk" \
	"mawk -F'\t' 'NR > 1 { n++; x = \$8; s += x; ss += x * x } END { m = s / n; printf \"%.17g %.17g\n\", m, sqrt((ss - n * m * m) / (n - 1)) }' $L >/dev/null" \
	"pb-tint $L >/dev/null"
versus "tint-vs-datamash" \
	"grep -v '^#' $L | datamash --header-in mean 8 sstdev 8 >/dev/null" \
	"pb-tint $L >/dev/null"
echo
echo "Goals (issue 2): pb-logratio at least 3x mawk, peak RSS under 8 MiB;"
echo "pb-tint at least 2x a one-pass awk mean/sd."
echo
} >>"$report"

# coverage.sh: 1000 studies a row (about 8 minutes); 200 with BENCH_QUICK=1.
[ "${BENCH_QUICK:-0}" = 1 ] && COV_STUDIES=${COV_STUDIES:-200} && export COV_STUDIES
[ "${BENCH_QUICK:-0}" = 1 ] && SEQ_AA=${SEQ_AA:-1000} SEQ_EFF=${SEQ_EFF:-200} && export SEQ_AA SEQ_EFF
[ "${BENCH_QUICK:-0}" = 1 ] && SPEED_PAIRS=${SPEED_PAIRS:-100000} SPEED_REPS=${SPEED_REPS:-1} SHARDS_REPS=${SHARDS_REPS:-3} &&
	PIN_RUNS=${PIN_RUNS:-3} PIN_PAIRS=${PIN_PAIRS:-60} PIN_WARMUP=${PIN_WARMUP:-5} &&
	export SPEED_PAIRS SPEED_REPS SHARDS_REPS PIN_RUNS PIN_PAIRS PIN_WARMUP
rm -f "$out"/fig-*.txt
for section in $SECTIONS; do
	section=examples/bench/$section.sh
	[ "${BENCH_QUICK:-0}" = 1 ] && [ "$section" = examples/bench/boot.sh ] && continue
	sh "$section" "$out" >>"$report" || echo "(section $section failed: see its output)" >>"$report"
done
sh examples/bench/targets.sh "$out" >>"$report"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)." >>"$report"
cat "$report"

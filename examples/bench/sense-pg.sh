#!/bin/sh
# Bench section (issue 15): the A/A rollback preview of
# examples/preview-cost on PostgreSQL, arm A in both arms, calibrated by
# pb-sense at delays 0 and 25 us on B, pass after pass: what each
# analysis estimates, whether its interval holds the realized delay
# (spin_ns), the A/A false positives, the plain percentile run-block
# interval on the same pairs (the default before the expanded one), and
# pb-check's position and carry-over rows. On a throwaway cluster started
# here and stopped at the end. Usage: sh examples/bench/sense-pg.sh OUTDIR
# (Markdown on stdout). SENSE_PG_PASSES passes (default 10; 3 with
# BENCH_QUICK=1), each of 10 fresh connections x 300 pairs after 80.
set -eu
out=${1:?usage: sense-pg.sh OUTDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/bin:$PATH"
mkdir -p "$out"
out=$(cd "$out" && pwd)
passes=${SENSE_PG_PASSES:-10}
[ "${BENCH_QUICK:-0}" = 1 ] && passes=${SENSE_PG_PASSES:-3}
ex=$top/examples/preview-cost

[ -x "$top/bin/pb-run" ] || { echo "sense-pg.sh: no $top/bin/pb-run: run make first" >&2; exit 1; }
echo "## Calibration on PostgreSQL: the A/A rollback preview (issue 15)"
echo
. "$top/share/dev/pgtmp.sh"
if ! pb_run_has_pg; then
	echo "Skipped: pb-run was built without PostgreSQL (make PG=0)."
	echo
	exit 0
fi
sh "$top/share/dev/need" '/usr/lib/postgresql/*/bin/initdb:postgresql' >&2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-bench-sense-pg.XXXXXX")
trap pg_cluster_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pg_cluster_start "$tmp" || { echo "bench: PostgreSQL: $pg_cluster_error" >&2; exit 1; }
pg_psql -f "$ex/schema.sql" >/dev/null

. "$top/examples/bench/lib.sh"
# col COL ROW FILE: a column of a row of a stream
col() { awk -F'\t' -v c="$1" -v k="$2" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) j = i; h = 1; next }
	++r == k { print $j; exit }' "$3"; }
us() { awk -v x="$1" 'BEGIN { printf "%.1f", x / 1000 }'; }
pct() { awk -v x="$1" 'BEGIN { printf "%+.2f", 100 * (1 / x - 1) }'; }   # ratio A/B as B's % more time
# check ROW FILE: "value [lo, hi] status" of a pb-check row, in us
check() { awk -F'\t' -v k="$1" '!/^#/ && $1 == k { printf "%.1f [%.1f, %.1f] %s", $3 / 1000, $4 / 1000, $5 / 1000, $2 }' "$2"; }

load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
rm -f "$out"/sense-pg-*.tsv "$out"/sense-pg-*.txt
i=1
while [ "$i" -le "$passes" ]; do
	echo "sense-pg: pass $i of $passes, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" >&2
	pb-sense --pg '' --rollback --sql-a-file "$ex/arm-a.sql" --runs 10 --pairs 300 --warmup 80 \
		--delays 0,25us --quiet --raw "$out/sense-pg-raw-$i" >"$out/sense-pg-$i.tsv" 2>"$out/sense-pg-$i.err" ||
		{ echo "sense-pg: pass $i failed: $(tail -n 1 "$out/sense-pg-$i.err")" >&2; exit 1; }
	cut -d' ' -f1 /proc/loadavg >"$out/sense-pg-$i.load" 2>/dev/null || echo '?' >"$out/sense-pg-$i.load"
	i=$((i + 1))
done
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

ver=$(sed -n 's/^# server_version: //p' "$out/sense-pg-1.tsv")
echo "PostgreSQL $ver; the rollback preview of examples/preview-cost (arm-a.sql) in"
echo "both arms, \`--rollback\`; $passes passes of"
echo "\`pb-sense --pg '' --rollback --sql-a-file arm-a.sql --runs 10 --pairs 300 --warmup 80 --delays 0,25us\`."
echo "Load average $load0 at the start, $load1 at the end. Times in us; the"
echo "run-block interval is pb-boot's default (expanded percentile), 'plain' the"
echo "percentile interval on the same pairs; the t interval is over the runs'"
echo "median log ratios, as B's time against A's in %."
echo
echo "| pass | delay | A median | spin (realized) | run-block est [lo, hi] | covers | plain [lo, hi] | covers | runs seen | t interval, B vs A % | covers | position | carry_a | carry_b | load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
i=1
while [ "$i" -le "$passes" ]; do
	f=$out/sense-pg-$i.tsv
	for k in 1 2; do
		d=$(col delay_ns "$k" "$f")
		raw=$out/sense-pg-raw-$i/raw-$d.tsv
		pb-pair "$raw" 2>/dev/null >"$out/sense-pg-pairs.tsv"
		pb-boot --block run --method percentile "$out/sense-pg-pairs.tsv" >"$out/sense-pg-plain.tsv"
		pb-check "$out/sense-pg-pairs.tsv" >"$out/sense-pg-check-$i-$d.tsv" 2>/dev/null || :
		spin=$(col spin_ns "$k" "$f")
		plo=$(col lo 1 "$out/sense-pg-plain.tsv") phi=$(col hi 1 "$out/sense-pg-plain.tsv")
		pcov=$(awk -v l="$plo" -v h="$phi" -v s="$spin" 'BEGIN { print (l + 0 <= s + 0 && s + 0 <= h + 0) }')
		echo "$d $(col covered "$k" "$f") $pcov $(col t_covered "$k" "$f") $(col seen "$k" "$f") $(col runs "$k" "$f")" \
			>>"$out/sense-pg-cov.txt"
		am=$(awk -F'\t' '!/^#/ && $3 == "measure" && $4 == "A" && $8 == 0 { print $7 }' "$raw" | median)
		printf '| %s | %s | %s | %s | %s [%s, %s] | %s | [%s, %s] | %s | %s of %s | %s [%s, %s] | %s | %s | %s | %s | %s |\n' \
			"$i" "$(us "$d")" "$(us "$am")" "$(us "$spin")" \
			"$(us "$(col est "$k" "$f")")" "$(us "$(col lo "$k" "$f")")" "$(us "$(col hi "$k" "$f")")" \
			"$(col covered "$k" "$f")" "$(us "$plo")" "$(us "$phi")" "$pcov" \
			"$(col seen "$k" "$f")" "$(col runs "$k" "$f")" \
			"$(pct "$(col ratio "$k" "$f")")" "$(pct "$(col ratio_hi "$k" "$f")")" "$(pct "$(col ratio_lo "$k" "$f")")" \
			"$(col t_covered "$k" "$f")" \
			"$(check position "$out/sense-pg-check-$i-$d.tsv")" "$(check carry_a "$out/sense-pg-check-$i-$d.tsv")" \
			"$(check carry_b "$out/sense-pg-check-$i-$d.tsv")" "$(cat "$out/sense-pg-$i.load")"
	done
	i=$((i + 1))
done
echo
# Totals: intervals that held the realized delay, by analysis; the A/A
# runs that saw an effect against what chance gives
awk -v passes="$passes" '
	function upper(k, n, p,   l, i, t, s, j) {
		if (k <= 0) return 1
		l = k * log(p) + (n - k) * log(1 - p)
		for (i = 1; i <= k; i++) l += log((n - k + i) / i)
		t = exp(l); s = t
		for (j = k; j < n; j++) { t *= (n - j) / (j + 1) * p / (1 - p); s += t }
		return s
	}
	{ n++; b += $2; p += $3; t += $4; if ($1 == 0) { fp += $5; fr += $6 } }
	END {
		printf "Over %d intervals (%d passes x 2 delays), the realized delay was held by the run-block interval %d times, by the plain percentile interval %d times, by the t interval %d times; at 95 %%, %.1f misses are expected by chance", n, passes, b, p, t, n * 0.05
		printf " (binomial P(>= misses): run-block %.2g, plain %.2g, t %.2g).", upper(n - b, n, 0.05), upper(n - p, n, 0.05), upper(n - t, n, 0.05)
		printf " At delay 0, %d of %d runs saw an effect, %.1f expected by chance (binomial P = %.2g).\n", fp, fr, fr * 0.05, upper(fp, fr, 0.05)
	}' "$out/sense-pg-cov.txt"
echo
# pb-check's position row over every study: how often it warned
awk -F'\t' '!/^#/ && $1 == "position" { n++; w += $2 == "warn"; v[n] = $3 }
	END { m = 0; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
	      printf "pb-check position over the %d studies: warned in %d; median %.1f us (the second observation of a pair faster by that much).\n", n, w, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) / 1000 }' \
	"$out"/sense-pg-check-*.tsv
echo
rm -f "$out/sense-pg-pairs.tsv" "$out/sense-pg-plain.tsv" "$out/sense-pg-cov.txt"

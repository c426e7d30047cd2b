#!/bin/sh
# Bench section (issue 4): the time pb-run --pg reports for SELECT 1 against
# pgbench's latency for the same statement, same protocol (simple query, as
# PQexec), same unix socket, on a throwaway cluster started here and
# stopped at the end. Usage: sh examples/bench/pg.sh OUTDIR (Markdown on
# stdout).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/examples/bench/lib.sh"
bench_init "$@"
bench_pg_section pg "PostgreSQL: SELECT 1 through pb-run against pgbench (issue 4)"

# median and mean of a column of numbers, times $1 (to ns); their count
stats() { sort -g | awk -v k="$1" '{ v[NR] = $1 * k; s += $1 * k }
	END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	      printf "%.0f %.0f %d\n", m, s / NR, NR }'; }
# median (min to max) of a column
spread() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "%.2f (%.2f to %.2f)", m, v[1], v[NR] }'; }

echo 'select 1' >"$out/select1.sql"
pgb() {
	"$PGBIN/pgbench" -n -M simple -f "$out/select1.sql" -c 1 -j 1 -t "$1" -r \
		-l --log-prefix="$out/pgblog-$2" postgres >"$out/pgbench-$2.txt" 2>&1
}
pbr() {
	pb-run --pg '' --sql-a 'select 1' --runs 1 --pairs 1000 --warmup 50 --first-run "$1" \
		--quiet --seed 1 >"$out/pg-select1-$1.tsv"
}
pbns() { awk -F'\t' '!/^#/ && $3 == "measure" { print $7 }' "$@"; }
# -l: client xact time_us script epoch us. A round trip takes tens of us;
# pgbench 15 on a loaded machine was seen to log 0 for most transactions
# of some rounds, so those are left out and counted (pgzero).
pgns() { awk '$3 > 0 { print $3 }' "$@"; }
pgzero() { awk '$3 <= 0 { z++ } END { print z + 0 }' "$@"; }
rm -f "$out"/pgblog-* "$out"/pgbench-*.txt "$out"/pg-select1-*.tsv
pgb 2000 w >/dev/null   # warm the server up
rm -f "$out"/pgblog-w.* "$out/pgbench-w.txt"
# $R rounds of 2000 observations each side, in ABBA order, so that a
# drift of the machine falls on both; each round gives one ratio.
R=10 i=1
while [ $i -le $R ]; do
	if [ $((i % 2)) = 1 ]; then pbr $i; pgb 2000 $i; else pgb 2000 $i; pbr $i; fi
	a=$(pbns "$out/pg-select1-$i.tsv" | stats 1) b=$(pgns "$out"/pgblog-$i.* | stats 1000)
	echo "${a%% *} ${b%% *}"
	i=$((i + 1))
done >"$out/pg-rounds.txt"
set -- $(pbns "$out"/pg-select1-*.tsv | stats 1) $(pgns "$out"/pgblog-[0-9]*.* | stats 1000)
rr=$(awk '{ print $1 / $2 }' "$out/pg-rounds.txt" | spread)
pgr=$(sed -n 's/^ *\([0-9.]*\) *[0-9]* *select 1$/\1/p' "$out/pgbench-1.txt")
ver=$(sed -n 's/^# server_version: //p' "$out/pg-select1-1.tsv")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
rm=$(ratio "$1" "$4") ra=$(ratio "$2" "$5")

echo "PostgreSQL $ver, unix socket, one connection at a time, simple query"
echo "protocol on both sides (pb-run's PQexec; pgbench -M simple -c 1 -j 1)."
echo "$R rounds, in ABBA order: pb-run --runs 1 --pairs 1000 --warmup 50 (A/A,"
echo "2000 measured observations) and pgbench -t 2000 (per-transaction log, -l,"
echo "in microseconds)."
echo
echo "| | pb-run --pg | pgbench -M simple | ratio pb-run/pgbench |"
echo "|---|---|---|---|"
echo "| observations | $3 | $6 | |"
echo "| median | $1 ns | $4 ns | $rm |"
echo "| mean | $2 ns | $5 ns | $ra |"
echo "| ratio of the medians in each round: median (min to max) | | | $rr |"
echo
zeros=$(pgzero "$out"/pgblog-[0-9]*.*)
if [ "$zeros" -gt 0 ]; then
	echo "pgbench logged a latency of 0 us for $zeros transactions (impossible for a"
	echo "round trip; seen when the machine is loaded); they are left out above."
	echo
fi
echo "pgbench -r, per-statement average latency of round 1: ${pgr:-?} ms."
echo "Goal: pb-run within 1.2x of pgbench: $(awk -v r="$rm" 'BEGIN { print (r <= 1.2 ? "met" : "not met") }') (ratio of the medians $rm)."
echo

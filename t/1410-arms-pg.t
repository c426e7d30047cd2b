#!/bin/sh
# pb-run --pg with more than two arms: --sql X=SQL and --sql-file X=FILE
# for any arm, next to --sql-a and --sql-b; the head's sql_c ...; blocks
# of k rows over one connection per run; pb-pair's candidates.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }

printf 'select 3\n-- arm C, from a file\n' >"$T/c.sql"
run pb-run --pg '' --sql-a 'select 1' --sql B='select 2' --sql-file C="$T/c.sql" \
	--sql D='select 4' --runs 2 --pairs 3 --warmup 1 --seed 4 --quiet
saved "$T/pg4"
ran_ok "--sql-a, --sql B=, --sql-file C=, --sql D=: exit 0"
is "$(meta sql_a "$T/pg4")|$(meta sql_b "$T/pg4")|$(meta sql_c "$T/pg4")|$(meta sql_d "$T/pg4")" \
	'select 1|select 2|select 3\n-- arm C, from a file\n|select 4' "head: sql_a to sql_d, a file's text escaped"
is "$(meta arms "$T/pg4"):$(meta reference "$T/pg4"):$(grep -c '^# design:' "$T/pg4")" "4:A:0" \
	"head: arms 4, reference A, no A/A design line"
# every 4 adjacent rows one block: same run, phase, pair; places 1 to 4; arms A to D once
is "$(rows "$T/pg4" | awk -F'\t' '{ i = (NR - 1) % 4; if (i == 0) { k = $1 " " $2 " " $3; seen = "" }
	if ($1 " " $2 " " $3 != k || $5 != i + 1 || index(seen, $4) || index("ABCD", $4) == 0) print "bad", NR
	seen = seen $4 }'):$(row_count "$T/pg4")" ":32" "2 runs x 4 pairs: blocks of 4 rows, places 1 to 4, each arm once"
is "$(sed -n 's/^# run: [0-9]* .* pid=\([0-9]*\).*/\1/p' "$T/pg4" | sort -u | wc -l | tr -d ' ')" 2 \
	"one connection per run, whatever the arms"
run pb-pair --by-run "$T/pg4"
is "$rc:$(rows "$T/out" | cut -f1-3 | tr '\t\n' ' |')" "0:1 B 3|1 C 3|1 D 3|2 B 3|2 C 3|2 D 3|" \
	"pb-pair --by-run: a row per run and candidate"
run pb-run --pg '' --sql A='select 1' --runs 1 --pairs 1 --warmup 0 --quiet
is "$rc:$(meta design "$T/out"):$(meta sql_b "$T/out")" "0:A/A: the same SQL in both arms:select 1" \
	"--sql A= alone: A/A, as --sql-a alone"
fails 2 "^pb-run: --sql C=\.\.\. but no SQL for arm B" "--sql C= without B: usage error" \
	pb-run --pg '' --sql-a 'select 1' --sql C='select 3'

done_testing

#!/bin/sh
# pb-run --pg against a throwaway cluster: rows and pairs, metadata, A/A,
# SQL files, one fresh connection per run, application_name, --rollback,
# --setup-sql, passwords kept out of every output, delay injection, and
# the analysis filters reading the result.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

# meta KEY FILE: the value of "# KEY: value"
meta() { sed -n "s/^# $1: //p" "$2"; }
# the backend pids of the "# run:" comments, one a line
run_pids() { sed -n 's/^# run: [0-9]* .* pid=\([0-9]*\).*/\1/p' "$1"; }

# --- rows and pairs ----------------------------------------------------
# R = 3 runs of W = 2 warm-up and P = 4 measured pairs: 3 * (2 + 4) = 18
# pairs, 36 rows, each pair two adjacent rows (A and B, pos 1 then 2).
run pb-run --pg '' --sql-a 'select 1' --sql-b 'select 2' --runs 3 --pairs 4 \
	--warmup 2 --seed 7 --quiet
ran_ok "exit 0, stderr empty"
cp "$T/out" "$T/basic"
is "$(grep -v '^#' "$T/basic" | head -n 1)" \
	"$(printf 'run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus\tspin_ns')" "the raw header"
is "$(rows "$T/basic" | wc -l | tr -d ' ')" 36 "R*(W+P)*2 = 36 rows"
# Odd rows open a pair: run pair phase, in order; the even row closes it.
rows "$T/basic" | awk -F'\t' 'NR % 2 { print $1, $2, $3 }' >"$T/got"
for r in 1 2 3; do
	for p in 1 2; do echo "$r $p warmup"; done
	for p in 1 2 3 4; do echo "$r $p measure"; done
done >"$T/want"
is_file "$T/got" "$T/want" "runs 1..3, warm-up pairs 1..2 then measured pairs 1..4"
bad=$(rows "$T/basic" | awk -F'\t' '
	NR % 2 { r = $1; p = $2; ph = $3; a = $4; if ($5 != 1) print "pos1", NR; next }
	{ if ($1 != r || $2 != p || $3 != ph) print "split", NR
	  if ($5 != 2) print "pos2", NR
	  if ($4 == a || ($4 != "A" && $4 != "B") || (a != "A" && a != "B")) print "arms", NR }')
is "$bad:$(row_count "$T/basic")" ":36" "each pair: adjacent rows, one A and one B, pos 1 then 2"
bad=$(rows "$T/basic" | awk -F'\t' '!($7 ~ /^[0-9]+$/ && $7 > 0) || $8 != 0 || $6 != 0 { print NR }')
is "$bad:$(row_count "$T/basic")" ":36" "ns > 0, status 0, delay_ns 0 on every row"
is "$(rows "$T/basic" | awk -F'\t' '$5 == 1 { print $4 }' | sort | uniq -c | wc -l | tr -d ' ')" 2 \
	"random order: both arms go first sometimes"

# --- metadata ------------------------------------------------------------
is "$(meta mode "$T/basic")" pg "mode: pg"
like "$(meta clock "$T/basic")" '^CLOCK_MONOTONIC; ns = the round trip of the script' "clock: the round trip of the script"
is "$(meta server_version "$T/basic")" "$(pg_sql 'show server_version')" \
	"server_version: the server's"
is "$(meta sql_a "$T/basic")|$(meta sql_b "$T/basic")" "select 1|select 2" "sql_a, sql_b"
is "$(meta rollback "$T/basic")" no "rollback: no"
is "$(grep -c '^# design:' "$T/basic"):$(row_count "$T/basic")" 0:36 "A/B: no design line"
like "$(meta conninfo "$T/basic")" '^\(empty: libpq defaults' "empty conninfo said so"
pids=$(run_pids "$T/basic")
is "$(echo "$pids" | grep -c '^[1-9][0-9]*$'):$(echo "$pids" | sort -u | wc -l | tr -d ' ')" \
	"3:3" "'# run:' comments: 3 backend pids, all different"

# --- A/A ---------------------------------------------------------------
run pb-run --pg '' --sql-a 'select 1' --runs 1 --pairs 2 --warmup 0 --quiet
is "$rc:$(meta design "$T/out")" "0:A/A: the same SQL in both arms" "--sql-b omitted: A/A"
is "$(meta sql_b "$T/out"):$(rows "$T/out" | cut -f4 | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
	"select 1: 2 A, 2 B," "A/A: sql_b = sql_a, arms A and B both run"

# --- scripts from files, several statements -------------------------------
pg_sql "create table log (arm text)"
printf "insert into log values ('a');\n-- a comment\ninsert into log values ('a')" >"$T/a.sql"
printf "insert into log values ('b');\nselect count(*) from log;\n" >"$T/b.sql"
run pb-run --pg '' --sql-a-file "$T/a.sql" --sql-b-file "$T/b.sql" --runs 2 --pairs 3 \
	--warmup 1 --quiet
ran_ok "--sql-a-file, --sql-b-file: exit 0"
# 2 runs * 4 pairs = 8 observations per arm; arm A inserts twice each time.
is "$(pg_sql "select arm || count(*) from log group by arm order by arm" | tr '\n' ' ')" \
	"a16 b8 " "every statement of each file ran, once per observation"
is "$(meta sql_a "$T/out")" \
	"insert into log values ('a');\\n-- a comment\\ninsert into log values ('a')" \
	"sql_a: the file's text, newlines escaped"

# COPY TO STDOUT inside a script: its data is read (and dropped) inside the
# timed window and the statements after it run; no hang.
pg_sql "delete from log"
run timeout -s KILL 30 pb-run --pg '' --sql-a "copy (select g from generate_series(1, 50000) g) to stdout;
insert into log values ('after copy')" --sql-b 'select 1' --runs 1 --pairs 3 --warmup 0 --quiet
is "$rc:$(cat "$T/err"):$(rows "$T/out" | cut -f8 | sort -u)" "0::0" "COPY TO STDOUT in arm A: exit 0, status 0"
is "$(pg_sql "select count(*) from log where arm = 'after copy'")" 3 "the statement after the COPY ran"
# Server notices do not reach stderr (one line per failure is the rule).
run pb-run --pg '' --setup-sql 'drop table if exists nothere' \
	--sql-a "do \$\$ begin raise notice 'hello'; end \$\$" --runs 2 --pairs 2 --warmup 0 --quiet
ran_ok "RAISE NOTICE, DROP ... IF EXISTS: stderr stays empty"

# --- one fresh connection per run; application_name -------------------------
pg_sql "create table seen (name text, pid int, at timestamptz default clock_timestamp())"
setup="insert into seen (name, pid) select current_setting('application_name'), pg_backend_pid()"
run pb-run --pg '' --setup-sql "$setup" --sql-a 'select 1' --runs 4 --pairs 2 --warmup 1 --quiet
is "$rc:$(pg_sql "select count(distinct pid) || ' ' || count(*) from seen")" "0:4 4" \
	"4 runs: --setup-sql ran 4 times, in 4 different backends"
is "$(pg_sql "select string_agg(distinct name, ',') from seen")" pb-run \
	"application_name is pb-run"
is "$(run_pids "$T/out" | wc -l | tr -d ' '):$(run_pids "$T/out" | sort -n | tr '\n' ' ')" \
	"4:$(pg_sql "select pid from seen order by pid" | tr '\n' ' ')" \
	"the '# run:' pids are the backends that ran the setup"
pg_sql "delete from seen"
run pb-run --pg 'application_name=mine' --setup-sql "$setup" --sql-a 'select 1' --runs 2 \
	--pairs 1 --warmup 0 --quiet
is "$rc:$(pg_sql "select string_agg(distinct name, ',') || count(*) from seen")" "0:mine2" \
	"application_name from the conninfo wins"

# Each run closes its connection: the next run's setup sees one pb-run
# backend, its own (after waiting up to 5 s for the last one to exit).
pg_sql "create table conns (n int)"
wait1="do \$\$ begin for i in 1..500 loop perform pg_stat_clear_snapshot();
	exit when (select count(*) from pg_stat_activity where application_name = 'pb-run') = 1;
	perform pg_sleep(0.01); end loop; end \$\$;
	insert into conns select count(*) from pg_stat_activity where application_name = 'pb-run'"
run pb-run --pg '' --setup-sql "$wait1" --sql-a 'select 1' --runs 4 --pairs 2 --warmup 1 --quiet
is "$rc:$(pg_sql "select string_agg(n::text, ',') from conns")" "0:1,1,1,1" \
	"one connection at a time: each run's is closed before the next"

# --- --setup-sql: once per connection, before the warm-up ------------------
# The arms use a temporary table that only the setup creates; a second
# setup in the same session would fail (it exists already).
pg_sql "delete from seen"
run pb-run --pg '' --setup-sql "create temp table tt (x int); $setup" \
	--sql-a 'insert into tt values (1)' --sql-b 'select count(*) from tt' \
	--runs 3 --pairs 4 --warmup 2 --quiet
ran_ok "--setup-sql: the first warm-up observation sees its temp table"
is "$(pg_sql "select count(*) from seen")" 3 "--setup-sql ran once per run (3)"
is "$(meta setup_sql "$T/out")" "create temp table tt (x int); $setup" "setup_sql in the metadata"

# --- --rollback: the database is left as it was ---------------------------
pg_sql "create table price (id int primary key, cat int, p numeric);
	insert into price select g, g % 10, g * 1.5 from generate_series(1, 1000) g"
sum="select md5(string_agg(t::text, ',' order by id)) from price t"
before=$(pg_sql "$sum")
upd='update price set p = p * 1.1 where cat = 7; select sum(p) from price'
ro='select sum(case when cat = 7 then p * 1.1 else p end) from price'
run pb-run --pg '' --rollback --sql-a "$upd" --sql-b "$ro" --runs 2 --pairs 5 --warmup 2 --quiet
ran_ok "--rollback preview run: exit 0"
is "$(row_count "$T/out"):$(pg_sql "$sum")" "28:$before" "--rollback: the table's checksum is unchanged"
like "$(meta rollback "$T/out")" '^yes: each observation is BEGIN; script; ROLLBACK' \
	"rollback: yes in the metadata"
run pb-run --pg '' --sql-a "$upd" --sql-b "$ro" --runs 1 --pairs 1 --warmup 0 --quiet
after=$(pg_sql "$sum")
is "$rc:$([ "$after" != "$before" ] && echo changed)" "0:changed" \
	"without --rollback the same update persists"

# --- passwords: never in stdout or stderr ---------------------------------
# Trust accepts any password; the role pw needs its own (scram), so a run
# as pw proves the password reached libpq after it was kept out of argv.
pg_sql "create role pw login password 'sekrit123'"
hba=$PGDIR/data/pg_hba.conf
{ echo 'local all pw scram-sha-256'; cat "$hba"; } >"$T/hba" && cat "$T/hba" >"$hba"
pg_sql "select pg_reload_conf()" >/dev/null
# the reload is asynchronous: ask until a wrong password is refused
i=0
while PGPASSWORD=wrong "$PGBIN/psql" -X -q -U pw -c 'select 1' >/dev/null 2>&1 && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
nopw() { ! grep -q sekrit123 "$T/out" "$T/err"; }
for ci in 'password=sekrit123' 'user=pw password=sekrit123' \
	"postgresql://postgres:sekrit123@/postgres?host=$PGHOST" \
	"postgresql://pw:sekrit123@/postgres?host=$PGHOST"; do
	run pb-run --pg "$ci" --sql-a 'select 1' --runs 1 --pairs 1 --warmup 0 --quiet
	is "$rc:$(cat "$T/err"):$(nopw && echo clean):$(row_count "$T/out")" "0::clean:2" "success, password absent: $ci"
done
like "$(meta conninfo "$T/out")" "user='pw'.*host='$PGHOST'" "URI: conninfo recorded without it"
is "$(head -n 1 "$T/out" | sed 's/ --sql-a.*//')" \
	"# pb-run: $(pb-run --version | cut -d' ' -f3) pb-run --pg 'postgresql://pw@/postgres?host=$PGHOST'" \
	"argv line: the conninfo as given, without its password"
run pb-run --pg='user=pw password=sekrit123' --sql-a 'select 1' --runs 1 --pairs 1 --quiet
is "$rc:$(nopw && echo clean):$(rows "$T/out" | head -n 1 | grep -c .)" "0:clean:1" "--pg=CONNINFO: password absent"
for ci in 'user=pw password=wrong1sekrit123' 'password=sekrit123 dbname=nope' \
	"postgresql://postgres:sekrit123@/nope?host=$PGHOST"; do
	run pb-run --pg "$ci" --sql-a 'select 1' --runs 1 --pairs 1 --warmup 0 --quiet
	is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(wc -c <"$T/out" | tr -d ' '):$(nopw && echo clean)" \
		"1:1:0:clean" "cannot connect: exit 1, one line, no output, password absent: $ci"
done
like "$(cat "$T/err")" '^pb-run: cannot connect to PostgreSQL: .*database "nope" does not exist' \
	"the reason is libpq's"
# libpq's parse errors quote the URI, or the bad token, which may be the password.
for ci in 'postgresql://postgres:sekrit123@[::1/postgres' 'postgresql://postgres:sekrit%zz123@/postgres' \
	"password='sekrit123"; do
	run pb-run --pg "$ci" --sql-a 'select 1' --runs 1 --pairs 1 --quiet
	is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(grep -c sekrit "$T/err" "$T/out" | cut -d: -f2 | tr '\n' ,)" \
		"2:1:0,0," "malformed conninfo: exit 2, one line, password absent: $ci"
done

# --- delay injection ------------------------------------------------------
run pb-run --pg '' --sql-a 'select 1' --delay 20ms --runs 2 --pairs 6 --warmup 1 --quiet
is "$rc:$(meta delay_ns "$T/out"):$(meta delay_arm "$T/out")" "0:20000000:B" "--delay 20ms on B"
is "$(rows "$T/out" | awk -F'\t' '{ print $4, $6 }' | sort -u | tr '\n' ,)" \
	"A 0,B 20000000," "delay_ns: 20 ms on every B row, 0 on A"
bad=$(rows "$T/out" | awk -F'\t' '$4 == "B" && $7 < 20000000 { print NR }')
is "$bad:$(row_count "$T/out")" ":28" "every B row took at least its 20 ms delay"
cp "$T/out" "$T/delay"
run pb-pair "$T/delay"
med=$(rows "$T/out" | cut -f6 | sort -n | awk '{ v[NR] = $1 } END {
	printf "%.0f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
is "$rc:$(rows "$T/out" | wc -l | tr -d ' '):$(nums "$med" && awk -v m="$med" 'BEGIN { print (m > 15000000) }')" \
	"0:12:1" "pb-pair: 12 pairs, median d = $med ns > 15 ms"

# --- the filters read pg-mode output -------------------------------------
run sh -c "pb-pair '$T/delay' | pb-logratio | pb-tint --threshold 1.25 --finding"
ran_ok "pb-pair | pb-logratio | pb-tint: exit 0"
is "$(col n 1 "$T/out")" 12 "pb-tint: n = 12 pairs"
r=$(col ratio 1 "$T/out")
is "$(nums "$r" && awk -v r="$r" 'BEGIN { print (r > 0 && r < 0.5) }')" 1 "ratio a/b = $r, far below 1 (B is 20 ms slower)"
like "$(grep '^# finding:' "$T/out")" . "a finding sentence"
like "$(grep -c '^# mode: pg' "$T/out")" '^1$' "pb-run's metadata carried through the pipeline"
run sh -c "pb-pair --by-run '$T/delay' | pb-logratio | pb-tint"
is "$rc:$(col n 1 "$T/out")" "0:2" "--by-run: one row per run, n = 2"

done_testing

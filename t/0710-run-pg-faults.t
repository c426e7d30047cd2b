#!/bin/sh
# pb-run --pg faults: a server error (now, and after some pairs), with and
# without --ignore-failure; the backend killed; the server stopped; no
# connection; SIGINT during a statement; usage errors. Every command runs
# under a timeout, so a hang is a failure, not a stuck suite.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

# tmo CMD...: CMD, killed after 30 s (status 137 then)
tmo() { timeout -s KILL 30 "$@"; }
# until_pg SQL [PID]: wait for SQL to answer t (asked every 0.1 s, up to
# 300 times: a bound for a hang, not a time anything must take); false at
# once when PID, the pb-run the answer waits on, is gone without it
until_pg() {
	i=0
	while [ "$(pg_sql "$1")" != t ]; do
		i=$((i + 1)); [ $i -gt 300 ] && return 1
		[ -z "${2-}" ] || kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
}
# the backends of pb-run still there; those still running SQL like $1
pbrun_left="select count(*) = 0 from pg_stat_activity where application_name = 'pb-run'"
one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && echo 1; }
nrows() { rows "$T/out" | wc -l | tr -d ' '; }

pg_sql "create table price (id int primary key, cat int, p numeric);
	insert into price select g, g % 10, g * 1.5 from generate_series(1, 1000) g;
	create sequence s; create sequence s2; create sequence e; create sequence k; create sequence k2"
sum="select md5(string_agg(t::text, ',' order by id)) from price t"
before=$(pg_sql "$sum")

# --- a server error at once ------------------------------------------------
run tmo pb-run --pg '' --sql-a 'select 1' --sql-b 'select * from nosuch' --runs 2 \
	--pairs 3 --warmup 1 --quiet
is "$rc:$(one_line)" "1:1" "relation does not exist: exit 1, one line on stderr"
is "$(cat "$T/err")" \
	'pb-run: run 1 pair 1 (warmup) arm B: SQL error 42P01: relation "nosuch" does not exist' \
	"the line: run, pair, phase, arm, SQLSTATE, the server's message"
is "$(tail -n 1 "$T/out")" \
	'# failed: run 1 pair 1 (warmup) arm B: SQL error 42P01: relation "nosuch" does not exist' \
	"'# failed:' comment last on stdout"
is "$(nrows):$(grep -c '^run	pair	' "$T/out")" 0:1 "no pair completed, no rows"

# --- a server error after 5 calls of arm B: completed pairs kept ------------
# nextval is not rolled back, so B's 6th call divides by zero: with one
# warm-up pair that is measured pair 5, whichever arm goes first.
a_sql='update price set p = p * 2 where cat = 3; select sum(p) from price'
b_sql() { echo "update price set p = p + 1 where cat = 3;
select 1 / (case when nextval('$1') > 5 then 0 else 1 end)"; }
run tmo pb-run --pg '' --rollback --sql-a "$a_sql" --sql-b "$(b_sql s)" --runs 2 --pairs 10 \
	--warmup 1 --quiet
msg='run 1 pair 5 (measure) arm B: SQL error 22012: division by zero (transaction rolled back)'
is "$rc:$(one_line):$(cat "$T/err")" "1:1:pb-run: $msg" "division by zero in pair 5: exit 1, one line"
is "$(tail -n 1 "$T/out")" "# failed: $msg" "'# failed:' comment"
is "$(nrows):$(rows "$T/out" | tail -n 1 | cut -f1-3):$(rows "$T/out" | cut -f8 | sort -u)" \
	"10:$(printf '1\t4\tmeasure'):0" "the warm-up pair and measured pairs 1-4 kept, status 0"
is "$(pg_sql "select last_value from s")" 6 "arm B ran 6 times"
is "$(pg_sql "select last_value from s"):$(pg_sql "$sum")" "6:$before" "--rollback: the failed transaction left the table unchanged"

# --ignore-failure: the failure is a row (status -6) and the study goes on.
# 2 runs * 11 pairs = 22 B observations, the first 5 succeed.
run tmo pb-run --pg '' --rollback --ignore-failure --sql-a "$a_sql" \
	--sql-b "$(b_sql s2)" \
	--runs 2 --pairs 10 --warmup 1 --quiet
ran_ok "--ignore-failure: exit 0, stderr empty"
is "$(nrows)" 44 "--ignore-failure: every pair written (2 * 11 * 2 rows)"
is "$(rows "$T/out" | cut -f4,8 | sort | uniq -c | tr -s ' \t' '  ' | tr '\n' ,)" \
	" 22 A 0, 17 B -6, 5 B 0," "A always 0; B: 5 times 0, then status -6"
is "$(pg_sql "select last_value from s2"):$(pg_sql "$sum")" "22:$before" "--ignore-failure --rollback: the table unchanged"

# Without --rollback, a script's own transaction that fails is rolled back
# by pb-run, or every later observation would fail (25P02) in it.
run tmo pb-run --pg '' --ignore-failure --sql-a 'select 1' --sql-b "begin;
update price set p = p + 1 where id = 1;
select 1 / (case when nextval('e') = 3 then 0 else 1 end); commit" \
	--runs 1 --pairs 5 --warmup 0 --quiet
is "$rc:$(rows "$T/out" | awk -F'\t' '$4 == "B" { printf "%s,", $8 }')" "0:0,0,-6,0,0," \
	"a failed BEGIN ... COMMIT in a script: ended, the next observations succeed"
is "$(pg_sql "select p from price where id = 1")" 5.5 "four of its five updates committed"

# COPY FROM STDIN: pb-run has no data to send; the COPY fails, no hang.
pg_sql "create table c (x int)"
run tmo pb-run --pg '' --sql-a 'copy c from stdin' --runs 1 --pairs 1 --warmup 0 --quiet
is "$rc:$(one_line)" "1:1" "COPY FROM STDIN: exit 1, one line"
like "$(cat "$T/err")" '^pb-run: run 1 pair 1 \(measure\) arm [AB]: SQL error 57014: COPY from stdin failed' \
	"the COPY ended with an error"

# --- the backend killed --------------------------------------------------
kill_b() { echo "select case when nextval('$1') > 3 then pg_terminate_backend(pg_backend_pid()) end"; }
run tmo pb-run --pg '' --sql-a 'select 1' --sql-b "$(kill_b k)" --runs 2 --pairs 5 --warmup 0 --quiet
is "$rc:$(one_line)" "1:1" "backend terminated: exit 1 (no hang), one line"
like "$(cat "$T/err")" \
	'^pb-run: run 1 pair 4 \(measure\) arm B: connection lost: .*terminating connection due to administrator command' \
	"'connection lost' with libpq's reason"
like "$(tail -n 1 "$T/out")" '^# failed: run 1 pair 4 \(measure\) arm B: connection lost' "'# failed:' comment"
is "$(nrows)" 6 "the 3 pairs before kept"
until_pg "$pbrun_left"
is "$?:$(nrows)" 0:6 "no pb-run connection left"

# With --ignore-failure the run ends, and the next run connects afresh.
# Blocked order: B always goes second, so each pair that lost the
# connection is written, with status -7.
run tmo pb-run --pg '' --ignore-failure --sql-a 'select 1' --sql-b "$(kill_b k2)" \
	--runs 3 --pairs 5 --warmup 0 --order blocked --quiet
ran_ok "--ignore-failure: exit 0, stderr empty"
is "$(grep -c '^# run_ended: run [123] pair [14] (measure) arm B: connection lost' "$T/out")" 3 \
	"each run ended at its connection loss ('# run_ended:')"
pids=$(sed -n 's/^# run: .* pid=\([0-9]*\).*/\1/p' "$T/out" | sort -u | wc -l | tr -d ' ')
is "$pids" 3 "three runs, three backends"
is "$(rows "$T/out" | awk -F'\t' '$1 == 1 && $8 == 0 && $4 == "B"' | wc -l | tr -d ' ')" 3 \
	"run 1: three good pairs first"
is "$(rows "$T/out" | awk -F'\t' '{ print $1, $2, $4, $8 }' | grep -v ' 0$' | tr '\n' ,)" \
	"1 4 B -7,2 1 B -7,3 1 B -7," "status -7 (connection lost) where each run ended"

# --- no connection ----------------------------------------------------------
run tmo pb-run --pg 'host=/nonexistent' --sql-a 'select 1' --runs 1 --pairs 1
is "$rc:$(one_line):$(wc -c <"$T/out" | tr -d ' ')" "1:1:0" "cannot connect: exit 1, one line, stdout empty"
like "$(cat "$T/err")" \
	'^pb-run: cannot connect to PostgreSQL: .*"/nonexistent/\.s\.PGSQL\.5432" failed: No such file or directory' \
	"libpq's reason"
run tmo pb-run --pg '' --setup-sql 'select * from nosuch' --sql-a 'select 1' --runs 1 --pairs 1
is "$rc:$(one_line):$(cat "$T/err")" \
	"1:1:pb-run: run 1 (setup): --setup-sql failed: SQL error 42P01: relation \"nosuch\" does not exist" \
	"--setup-sql fails: exit 1, one line"
is "$(nrows):$(tail -n 1 "$T/out" | cut -c1-24)" "0:# failed: run 1 (setup):" "no rows, '# failed:' comment"

# --- usage -------------------------------------------------------------------
refuses 2 '^pb-run: --pg needs --sql-a' "--pg without --sql-a: exit 2, stdout empty" pb-run --pg ''
fails 2 '^pb-run: .*need --pg' "--sql-a without --pg: exit 2" pb-run --sql-a 'select 1' -- true
fails 2 '^pb-run: .*need --pg' "--rollback without --pg: exit 2" pb-run --rollback -- true
fails 2 '^pb-run: no command' "--sql-a alone: exit 2" pb-run --sql-a 'select 1'
fails 2 '^pb-run: --pg: missing "=" after "host"' "malformed conninfo: exit 2, one line" \
	pb-run --pg 'host' --sql-a 'select 1'
fails 2 '^pb-run: choose one of' "--pg and commands: exit 2" pb-run --pg '' --sql-a 'select 1' -- true

# --- SIGINT during a statement: the query is cancelled -------------------------
# (timeout itself in the background: $! of a function would be a subshell)
# The statement outlasts the 30 s kill: a pb-run that waited for it would
# end by the kill (137), so no clock is read.
timeout -s KILL 30 pb-run --pg '' --sql-a 'select pg_sleep(300)' --runs 1 --pairs 1 \
	--warmup 0 --quiet >"$T/out" 2>"$T/err" &
bg=$!
sleeping="select count(*) = 1 from pg_stat_activity where application_name = 'pb-run'
	and state = 'active' and query like 'select pg_sleep(300)%'"
until_pg "$sleeping" $bg
is $? 0 "pb-run's backend runs pg_sleep(300)"
kill -INT $bg   # timeout hands it on to pb-run
wait $bg
rc=$?
is "$rc:$(one_line)" "130:1" "SIGINT: exit 130 (not the 30 s kill: the statement was not waited for), one line"
like "$(cat "$T/err")" '^pb-run: interrupted by SIGINT in run 1 pair 1 \(measure\) arm [AB]$' "the line"
like "$(tail -n 1 "$T/out")" '^# interrupted: SIGINT in run 1 pair 1 \(measure\) arm [AB]; 0 pairs written$' \
	"'# interrupted:' comment"
until_pg "$pbrun_left"
is "$?:$(tail -n 1 "$T/out" | cut -c1-14)" "0:# interrupted:" "no pb-run backend left running pg_sleep"
grep -A1 'ERROR:  canceling statement due to user request' "$PGDIR/log" >"$T/log"
like "$(cat "$T/log")" 'STATEMENT:  select pg_sleep\(300\)' "the server log: pg_sleep cancelled by request"

# --- --timeout: statement_timeout on each connection ----------------------------
# (the statement outlasts the 30 s kill: waiting for it would be status 137)
run timeout -s KILL 30 pb-run --pg '' --sql-a 'select pg_sleep(300)' --runs 1 --pairs 1 \
	--warmup 0 --timeout 200ms --quiet
is "$rc:$(one_line)" "1:1" "--timeout: a long statement fails, one line; no wait for the statement (not the 30 s kill)"
like "$(cat "$T/err")" 'timed out after 0\.2 s \(--timeout\): cancelled$' \
	"--timeout: the message says so"
run timeout -s KILL 30 pb-run --pg '' --sql-a 'select pg_sleep(0.6)' --sql-b 'select 1' \
	--runs 1 --pairs 2 --warmup 0 --timeout 200ms --ignore-failure --quiet
is "$rc:$(rows "$T/out" | awk -F'\t' '{ print $4 $8 }' | sort | tr '\n' ' ')" \
	"0:A-1 A-1 B0 B0 " "--timeout --ignore-failure: status -1 on the timed-out arm, the run goes on"
# The limit is on the whole script, not on each of its statements.
run timeout -s KILL 30 pb-run --pg '' --sql-a 'select pg_sleep(0.15); select pg_sleep(0.15)' \
	--sql-b 'select 1' --runs 1 --pairs 1 --warmup 0 --timeout 200ms --ignore-failure --quiet
is "$rc:$(rows "$T/out" | awk -F'\t' '{ print $4 $8 }' | sort | tr '\n' ' ')" "0:A-1 B0 " \
	"--timeout: two statements of 0.15 s each exceed 0.2 s together: a timeout"

# --- the server stopped mid-run (last: the cluster stays down) -------------------
# (the statement outlasts the 30 s kill: a hang would be status 137)
timeout -s KILL 30 pb-run --pg '' --sql-a 'select pg_sleep(600)' --runs 1 --pairs 1 \
	--warmup 0 --quiet >"$T/out" 2>"$T/err" &
bg=$!
until_pg "$(echo "$sleeping" | sed 's/(300)/(600)/')" $bg
is $? 0 "pb-run's backend runs pg_sleep(600)"
as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
wait $bg
rc=$?
is "$rc:$(one_line)" "1:1" "server stopped: exit 1 (no hang: not the 30 s kill), one line"
like "$(cat "$T/err")" '^pb-run: run 1 pair 1 \(measure\) arm [AB]: connection lost: ' "'connection lost'"
like "$(tail -n 1 "$T/out")" '^# failed: run 1 pair 1 \(measure\) arm [AB]: connection lost' "'# failed:' comment"

done_testing

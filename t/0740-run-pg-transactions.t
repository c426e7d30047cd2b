#!/bin/sh
# pb-run --pg and the scripts' own transactions. Under --rollback a script
# that commits (COMMIT, END, COMMIT AND CHAIN, COMMIT; BEGIN) would change
# the table while the metadata says each observation was rolled back: the
# study stops at the first, with one line, even with --ignore-failure.
# Without --rollback a script that leaves its BEGIN open would run the next
# observation inside it: refused the same way, the table unchanged.
# Transaction control that keeps the promise (savepoints, a ROLLBACK of
# its own, BEGIN ... COMMIT without --rollback) is accepted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && echo 1; }
nrows() { rows "$T/out" | wc -l | tr -d ' '; }
tmo() { timeout -s KILL 30 "$@"; }
pg_sql "create table t (id int primary key, n int); insert into t values (1, 0), (2, 0)"
n1() { pg_sql "select n from t where id = 1"; }
reset() { pg_sql "update t set n = 0"; }
# pb ARGS...: a short study, arm A the script under test, arm B reading
pb() {
	run tmo pb-run --pg '' "$@" --sql-b 'select sum(n) from t' --runs 2 --pairs 5 --warmup 1 \
		--order alternate --quiet
}
upd='update t set n = n + 1 where id = 1'

# --- --rollback and a script that commits: stopped at the first ------------
msg='--rollback, but the script ran COMMIT \(COMMIT, END or COMMIT AND CHAIN\): its changes are committed, not rolled back'
for script in "$upd; commit" "$upd; end" "$upd; commit and chain" "$upd; commit; begin" \
	"$upd; COMMIT; select 1" "begin; $upd; commit" "$upd; commit; select 1 / 0"; do
	for opt in --rollback '--rollback --ignore-failure'; do
		reset
		pb $opt --sql-a "$script"
		is "$rc:$(one_line):$(nrows)" "1:1:0" "$opt, '$script': exit 1, one line, no pair"
		like "$(cat "$T/err")" "^pb-run: run 1 pair 1 \\(warmup\\) arm A: $msg" "... the line says so"
		like "$(tail -n 1 "$T/out")" "^# failed: run 1 pair 1 \\(warmup\\) arm A: $msg" \
			"... '# failed:' last"
		is "$(n1)" 1 "... only that first observation's change was committed"
	done
done

# --- --rollback: transaction control that keeps the table as it was ---------
for script in "savepoint s; $upd; rollback to s; $upd" "$upd; rollback" \
	"$upd; rollback; $upd" "$upd; rollback and chain; $upd"; do
	reset
	pb --rollback --sql-a "$script"
	is "$rc:$(cat "$T/err"):$(nrows):$(n1)" "0::24:0" \
		"--rollback, '$script': accepted, the table unchanged"
done

# --- no --rollback: a BEGIN left open ----------------------------------------
open_msg='the script left a transaction open \(a BEGIN without COMMIT\?\): the next observation, of either arm, would run inside it'
for script in "begin; $upd" "$upd; begin" "begin; $upd; commit; begin"; do
	for opt in '' --ignore-failure; do
		reset
		pb $opt --sql-a "$script"
		is "$rc:$(one_line):$(nrows)" "1:1:0" "'$script' $opt: exit 1, one line, no pair"
		like "$(cat "$T/err")" "^pb-run: run 1 pair 1 \\(warmup\\) arm A: $open_msg" "... the line says so"
		want=0; [ "$script" = "begin; $upd; commit; begin" ] && want=1
		is "$(n1):$(tail -n 1 "$T/out" | cut -c1-9)" "$want:# failed:" "... what stayed open was rolled back (the table: $want)"
	done
done
reset
pb --sql-a "begin; $upd; commit"
is "$rc:$(cat "$T/err"):$(n1)" "0::12" "no --rollback, 'begin; ...; commit': accepted, 12 commits"
# the warm-up would run inside a transaction --setup-sql leaves open
run tmo pb-run --pg '' --setup-sql 'begin' --sql-a 'select 1' --runs 1 --pairs 1 --quiet
is "$rc:$(one_line):$(cat "$T/err")" \
	"1:1:pb-run: run 1 (setup): --setup-sql left a transaction open: the warm-up would run inside it; end the transaction in the setup" \
	"--setup-sql 'begin': refused, one line"

done_testing

#!/bin/sh
# pb-run's faults: a failing or killed command, --ignore-failure, --timeout,
# a worker that answers error or garbage, dies or hangs, SIGINT and SIGTERM,
# usage errors and a full stdout. Each failure is one line on stderr, keeps
# the completed pairs and leaves no process behind.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
V=$(sed -n 's/^VERSION = //p' "$top/config.mk")
cd "$T" || exit 1

# The workload under names of its own, so that what is left of it can be
# found by path (pgrep -f) without matching this script.
for name in hang worker sig; do ln -s "$W" "$T/pbw-$name"; done

count() { grep -Ec -- "$1" "$2"; }
# pairs FILE: number of data rows / 2
npairs() { rows "$1" | awk 'END { print NR / 2 }'; }
# gone NAME CHECK STREAM: no process runs $T/pbw-NAME (dying ones get 2 s
# to go), after a pb-run that wrote STREAM (nothing is left by nothing)
gone() {
	command -v pgrep >/dev/null || { skip "$2: no pgrep (Debian package procps)"; return; }
	grep -q '^# pb-run: ' "$3" || { not_ok "$2"; diag "no pb-run stream in $3"; return; }
	i=0
	while pgrep -f "$T/pbw-$1" >/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
	left=$(pgrep -f "$T/pbw-$1")
	if [ -n "$left" ]; then
		not_ok "$2"; diag "left: $(ps -o pid,args -p "$(echo $left | tr ' ' ,)")"
		kill -KILL $left
	else ok "$2"; fi
}
# stop PID SIG: send SIG, then wait for PID; $rc its exit status. A pb-run
# that does not stop within 120 s (a hang: no load outlasts it) is
# killed (status 137) and the test fails.
stop() {
	kill -"$2" "$1"
	(i=0; while kill -0 "$1" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	 kill -KILL "$1" 2>/dev/null) >/dev/null 2>&1 &
	dog=$!
	wait "$1"; rc=$?
	wait "$dog"
}

# --- a command that fails: stop, keep what was done, one line
# B fails on its 4th call: with alternate order (A first on odd pairs) that
# is measure pair 3, where B goes first; 3 pairs are complete.
run pb-run --order alternate --runs 2 --warmup 1 --pairs 5 -- true "sh $D/run/fail-at.sh $T/cnt 4 3"
is "$rc:$(row_count "$T/out")" 1:6 "a failing command: exit 1"
hint="its output went to /dev/null; --output inherit shows it"
is "$(cat "$T/err")" "pb-run: run 1 pair 3 (measure) arm B: command exited with status 3 ($hint)" \
	"a failing command: one line naming run, pair, arm and status, and how to see its output"
is "$(tail -n 1 "$T/out")" "# failed: run 1 pair 3 (measure) arm B: command exited with status 3 ($hint)" \
	"a failing command: a final '# failed:' comment, the same words"
is "$(rows "$T/out" | cut -f1-3 | uniq | tr '\t\n' ': ')" "1:1:warmup 1:1:measure 1:2:measure " \
	"a failing command: every pair completed before it is kept"
is "$(npairs "$T/out"):$(count '^# run: 2' "$T/out")" "3:0" "a failing command: 3 pairs, no run 2"

fails 1 '^pb-run: run 1 pair 1 \(measure\) arm B: command killed by signal 9 \(status 137; its output went to /dev/null; --output inherit shows it\)$' \
	"a command killed by a signal: exit 1, one line with signal and status 137" \
	pb-run --order alternate --runs 1 --warmup 0 --pairs 2 -- true 'kill -9 $$'
for o in inherit "$T/cmd.out"; do
	fails 1 '^pb-run: run 1 pair 1 \(measure\) arm [AB]: command exited with status 3$' \
		"--output $(basename "$o"): a failing command's message has no hint" \
		pb-run --output "$o" --runs 1 --warmup 0 --pairs 1 -- 'exit 3'
done

# --- --ignore-failure: the status is recorded and the study goes on
run pb-run --ignore-failure --runs 2 --warmup 1 --pairs 3 -- true 'kill -9 $$'
ran_ok "--ignore-failure: exit 0, nothing on stderr"
is "$(npairs "$T/out")" 8 "--ignore-failure: all pairs present"
is "$(rows "$T/out" | cut -f4,8 | sort -u | tr '\t\n' ': ')" "A:0 B:137 " \
	"--ignore-failure: a killed command's status 137 is in the status column"
like "$(grep '^# ignore_failure:' "$T/out")" . "--ignore-failure: in the metadata"
rm -f cnt
run pb-run --ignore-failure --order alternate --runs 1 --warmup 1 --pairs 5 -- true "sh $D/run/fail-at.sh $T/cnt 4 3"
is "$rc:$(npairs "$T/out")" "0:6" "--ignore-failure: exit 0, all 6 pairs"
is "$(rows "$T/out" | awk -F'\t' '$8 != 0 { print $2, $3, $4, $8 }')" "3 measure B 3" \
	"--ignore-failure: the failed observation's status is on its row"

# --- --timeout
run pb-run --timeout 100ms --runs 1 --warmup 0 --pairs 2 -- "$T/pbw-hang --hang"
is "$rc:$(count '^# failed: ' "$T/out")" 1:1 "--timeout on a hanging command: exit 1"
like "$(cat "$T/err")" '^pb-run: run 1 pair 1 \(measure\) arm [AB]: command timed out after 0\.1 s' \
	"--timeout: one line, timed out"
is "$(wc -l <"$T/err")" 1 "--timeout: one line on stderr"
like "$(tail -n 1 "$T/out")" '^# failed: .*timed out' "--timeout: a final '# failed:' comment"
gone hang "--timeout: no process left behind (the shell's child too)" "$T/out"
# The timeout ends the wait, not the command's own end: a command of 20 s
# (a busy-wait to its deadline, however loaded the machine) is killed at
# 100 ms, and pb-run stops there; a late timeout would see it exit 0.
run pb-run --timeout 100ms --runs 1 --warmup 0 --pairs 1 --no-shell -- "$T/pbw-hang --us 20000000"
is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(grep -c 'command timed out after 0\.1 s' "$T/err")" 1:1:1 \
	"--timeout: done at the timeout, long before a 20 s command ends"
gone hang "--timeout, a 20 s command: no process left behind" "$T/out"
run pb-run --ignore-failure --timeout 100ms --runs 1 --warmup 0 --pairs 2 -- "$T/pbw-hang --hang"
is "$rc:$(npairs "$T/out")" "0:2" "--timeout with --ignore-failure: every pair recorded"
is "$(rows "$T/out" | cut -f8 | sort -u)" "-1" "--timeout with --ignore-failure: status -1 on each row"
gone hang "--timeout with --ignore-failure: no process left behind" "$T/out"

# --- worker faults (alternate order: requests m1 A, m1 B, m2 B, m2 A, ...)
WK="$T/pbw-worker --worker --us 0"
wrun() { pb-run --order alternate --runs 2 --warmup 0 --pairs 3 "$@"; }
run wrun --worker "$WK --error-at 3"
is "$rc:$(cat "$T/err")" "1:pb-run: run 1 pair 2 (measure) arm B: worker answered: error injected failure" \
	"worker answers error: exit 1, one line with its text"
is "$(npairs "$T/out"):$(tail -n 1 "$T/out")" \
	"1:# failed: run 1 pair 2 (measure) arm B: worker answered: error injected failure" \
	"worker answers error: the pair before it kept, a '# failed:' comment"
fails 1 "^pb-run: run 1 pair 2 \(measure\) arm B: worker answered neither ok nor error: 'hello'\$" \
	"worker answers garbage: exit 1, neither ok nor error" wrun --worker "$WK --garbage-at 3"
fails 1 '^pb-run: run 1 pair 2 \(measure\) arm B: worker died \(end of its output; worker exited with status 3; its stderr went to /dev/null; --output inherit shows it\)$' \
	"worker dies: exit 1, worker died with its exit status, and how to see its stderr" wrun --worker "$WK --die-at 3"
fails 1 '^pb-run: run 1 pair 2 \(measure\) arm B: worker died \(end of its output; worker exited with status 3\)$' \
	"worker dies, --output inherit: no hint" wrun --output inherit --worker "$WK --die-at 3"
run wrun --timeout 200ms --worker "$WK --hang-at 3"
is "$rc:$(cat "$T/err")" "1:pb-run: run 1 pair 2 (measure) arm B: worker timed out after 0.2 s (killed)" \
	"worker hangs with --timeout: exit 1, timed out"
gone worker "worker faults: no worker left behind" "$T/out"
# As for a command: a worker whose B answers take 20 s is killed at the
# timeout, on the first request of B (m1 B), not answered
fails 1 '^pb-run: run 1 pair 1 \(measure\) arm B: worker timed out after 0\.2 s \(killed\)$' \
	"worker hangs: done at the timeout, long before a 20 s answer" \
	wrun --timeout 200ms --worker "$WK --b-us 20000000"
gone worker "worker slow past --timeout: no worker left behind" "$T/out"

run wrun --ignore-failure --worker "$WK --die-at 3"
cp "$T/out" ended
is "$rc:$(cat "$T/err"):$(row_count ended)" "0::4" "--ignore-failure, worker dies: exit 0"
is "$(count '^# run_ended: run [12] pair 2 \(measure\) arm B: worker died' ended)" 2 \
	"--ignore-failure, worker dies: a '# run_ended:' comment in each run"
is "$(rows ended | cut -f1-4,8 | tr '\t\n' ': ')" "1:1:measure:A:0 1:1:measure:B:0 2:1:measure:A:0 2:1:measure:B:0 " \
	"--ignore-failure, worker dies: the run ends there, the next one goes on"
p1=$(sed -n 's/^# run: 1 .* pid=\([0-9]*\) .*/\1/p' ended)
p2=$(sed -n 's/^# run: 2 .* pid=\([0-9]*\) .*/\1/p' ended)
if [ -n "$p1" ] && [ -n "$p2" ] && [ "$p1" != "$p2" ]; then ok "--ignore-failure, worker dies: a fresh worker for the next run"
else not_ok "--ignore-failure, worker dies: a fresh worker for the next run"; diag "pids: '$p1' '$p2'"; fi
run pb-run --order blocked --ignore-failure --runs 2 --warmup 0 --pairs 3 --worker "$WK --die-at 2"
is "$rc:$(count '^# run_ended:' "$T/out"):$(npairs "$T/out")" "0:2:0" \
	"blocked, worker dies among the A: the run ends, no B asked of a dead worker"
gone worker "--ignore-failure: no worker left behind" "$T/out"

# --- signals: the running child is stopped, completed pairs kept, 128+N
pb-run --runs 1 --warmup 0 --pairs 3000 -- "$T/pbw-sig --us 200" >sigint.out 2>sigint.err &
pid=$!
wait_rows sigint.out 4 "$pid"
stop "$pid" INT
is "$rc" 130 "SIGINT: exit 130"
tail -n 1 sigint.out >last
like "$(cat last)" '^# interrupted: SIGINT in run 1 pair [0-9]+ \(measure\) arm [AB]; [0-9]+ pairs written$' \
	"SIGINT: a final '# interrupted:' comment"
is "$(sed 's/.*; \([0-9]*\) pairs written/\1/' last)" "$(npairs sigint.out)" "SIGINT: every completed pair is kept"
is "$(rows sigint.out | awk -F'\t' '$8 != 0' | wc -l | tr -d ' '):$(rows sigint.out | head -n 1 | grep -c .)" 0:1 \
	"SIGINT: no half-done observation written"
like "$(cat sigint.err)" '^pb-run: interrupted by SIGINT in run 1 pair [0-9]+' "SIGINT: one line on stderr"
is "$(wc -l <sigint.err)" 1 "SIGINT: only one line"
gone sig "SIGINT: no workload left behind" sigint.out

pb-run --runs 1 --warmup 0 --pairs 3000 -- "$T/pbw-sig --us 200" >sigterm.out 2>sigterm.err &
pid=$!
wait_rows sigterm.out 4 "$pid"
stop "$pid" TERM
is "$rc" 143 "SIGTERM: exit 143"
tail -n 1 sigterm.out >last
like "$(cat last)" '^# interrupted: SIGTERM in run 1 pair [0-9]+ \(measure\) arm [AB]; [0-9]+ pairs written$' \
	"SIGTERM: a final '# interrupted:' comment"
is "$(sed 's/.*; \([0-9]*\) pairs written/\1/' last)" "$(npairs sigterm.out)" "SIGTERM: every completed pair is kept"
gone sig "SIGTERM: no workload left behind" sigterm.out

# A worker that hangs in pair 2 (no --timeout): SIGINT still stops it.
pb-run --order alternate --runs 1 --warmup 0 --pairs 5 --worker "$WK --hang-at 3" >sigw.out 2>sigw.err &
pid=$!
wait_rows sigw.out 2 "$pid"
sleep 0.2
stop "$pid" INT
is "$rc:$(tail -n 1 sigw.out)" "130:# interrupted: SIGINT in run 1 pair 2 (measure) arm B; 1 pairs written" \
	"SIGINT, worker busy: exit 130, '# interrupted:', the pair done kept"
gone worker "SIGINT, worker busy: no worker left behind" sigw.out
# The same with --timeout and a --prepare hook: the wait for the answer is
# a poll that SIGTERM interrupts.
pb-run --order alternate --runs 1 --warmup 0 --pairs 5 --timeout 60s --prepare : \
	--worker "$WK --hang-at 3" >sigw.out 2>sigw.err &
pid=$!
wait_rows sigw.out 2 "$pid"
sleep 0.2
stop "$pid" TERM
is "$rc:$(tail -n 1 sigw.out)" "143:# interrupted: SIGTERM in run 1 pair 2 (measure) arm B; 1 pairs written" \
	"SIGTERM, worker busy, --timeout: exit 143 at once, '# interrupted:'"
gone worker "SIGTERM, worker busy, --timeout: no worker left behind" sigw.out

# --- usage errors: exit 2, one line, nothing on stdout
usage() {
	pat=$1 name=$2
	shift 2
	refuses 2 "^pb-run: .*$pat" "usage: $name" pb-run "$@"
}
usage "--runs .*'0'" "--runs 0" --runs 0 -- true
usage "--runs .*'x'" "--runs x" --runs x -- true
usage "--pairs .*'-1'" "--pairs -1" --pairs -1 -- true
usage "--warmup .*'-1'" "--warmup -1" --warmup -1 -- true
usage "--first-run .*'x'" "--first-run x" --first-run x -- true
usage "'sideways'" "--order sideways" --order sideways -- true
usage "--delay .*'5parsecs'" "--delay 5parsecs" --delay 5parsecs -- true
usage "--delay .*'-1ms'" "--delay -1ms" --delay -1ms -- true
usage "--delay-arm .*'C'" "--delay-arm C" --delay-arm C -- true
usage "--timeout" "--timeout 0" --timeout 0 -- true
usage "no command" "no command" --runs 1
usage "at most 26 commands" "27 commands" -- true true true true true true true true true true true true true true true true true true true true true true true true true true true
usage "choose one" "--worker with commands" --worker "$WK" -- true
usage "--pg" "--sql-a without --pg" --sql-a 'select 1' -- true
usage "unknown option '--frobnicate'" "unknown option" --frobnicate -- true
usage "'--runs' needs a value" "an option without its value" --runs

run pb-run --help
is "$rc:$(head -n 1 "$T/out" | cut -c1-13):$(cat "$T/err")" "0:usage: pb-run:" "--help: usage on stdout, exit 0"
run pb-run --version
is "$rc:$(cat "$T/out")" "0:pb-run (pb) $V" "--version: exit 0"
pb-run --runs 1 --warmup 0 --pairs 1 -- true >/dev/full 2>"$T/err"
rc=$?
is "$rc:$(wc -l <"$T/err")" "1:1" "a full stdout: exit 1, one line"
like "$(cat "$T/err")" '^pb-run: .*(write|No space)' "a full stdout: the message says so"

done_testing

#!/bin/sh
# pb-run against hostile commands and workers: text it did not write (a
# worker's answer, a hook, the host name) cannot forge rows; a worker that
# closes its pipes, leaves a child holding them or answers twice; what
# commands and workers leave running; SIGHUP; a stdout gone mid-study;
# closed standard fds. No test waits longer than its watchdog.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

# The workload under names of its own, found later by path (pgrep -f).
for name in bg wbg gc live hup epipe; do ln -s "$W" "$T/pbw-$name"; done

count() { grep -Ec -- "$1" "$2"; }
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
# bounded CMD...: like run, but CMD is killed after 120 s (then rc is 137):
# a guard against a hang, which a loaded machine never outlasts
bounded() {
	"$@" >"$T/out" 2>"$T/err" &
	bpid=$!
	(i=0; while kill -0 "$bpid" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	 kill -KILL "$bpid" 2>/dev/null) >/dev/null 2>&1 &
	dog=$!
	wait "$bpid"; rc=$?
	wait "$dog"
}
# forged FILE NAME: pb-pair reads the raw stream FILE: exit 0, the one
# true pair (of run 1) and no row of run 7 (the forged one); the stream
# holds no line the forgery wrote
forged() {
	pb-pair "$1" >"$T/pairs" 2>"$T/pairs.err"
	prc=$?
	is "$prc:$(rows "$T/pairs" | cut -f1 | tr '\n' ' '):$(count '^7	' "$1")" "0:1 :0" \
		"$2: pb-pair exits 0, sees the true pair and no forged row"
}
# A forged pair: two raw rows of run 7, as the attacker's text holds them.
ROWS=$(printf '7\t7\tmeasure\tA\t1\t0\t5\t0\n7\t7\tmeasure\tB\t2\t0\t5\t0')

# --- item: nothing written into the stream unescaped
# A worker's error text, a line with rows after it in one write
cat >err-worker.sh <<'EOF'
read -r req; echo ok
read -r req; echo ok
read -r req
printf 'error x\n7\t7\tmeasure\tA\t1\t0\t5\t0\n7\t7\tmeasure\tB\t2\t0\t5\t0\n'
while read -r req; do echo ok; done
EOF
run pb-run --runs 1 --warmup 0 --pairs 3 --no-shell --worker "sh err-worker.sh"
cp "$T/out" err-worker.out
is "$rc:$(count '^# failed: ' err-worker.out)" "1:1" "a worker's error text with rows after it: exit 1, a '# failed:' line"
forged err-worker.out "a worker's error text"
run pb-run --ignore-failure --runs 1 --warmup 0 --pairs 3 --no-shell --worker "sh err-worker.sh"
cp "$T/out" err-worker.out
is "$rc:$(count '^# run_ended: .*before this request' err-worker.out)" "0:1" \
	"the same with --ignore-failure: the rows are an answer before a request, in '# run_ended:'"
forged err-worker.out "a worker's text in '# run_ended:'"
cat >tab-worker.sh <<'EOF'
read -r req; echo ok
read -r req; echo ok
read -r req
printf 'error a\tb\\c\r\n'
EOF
run pb-run --order alternate --runs 1 --warmup 0 --pairs 2 --no-shell --worker "sh tab-worker.sh"
is "$(tail -n 1 "$T/out")" '# failed: run 1 pair 2 (measure) arm B: worker answered: error a\tb\\c\r' \
	"a worker's TAB, backslash and CR in '# failed:': escaped as in every metadata value"
is "$(cat "$T/err")" 'pb-run: run 1 pair 2 (measure) arm B: worker answered: error a\x09b\c\x0d' \
	"the same on stderr: control bytes as \\xNN"
# A hook's command: sh runs the forged lines as commands, which fail.
run pb-run --output hook.log --runs 1 --warmup 0 --pairs 2 --prepare "test \$PB_PAIR = 1 && exit 0
$ROWS
false" -- true
cp "$T/out" hook.out
is "$rc:$(count '^# failed: .*--prepare hook failed' hook.out)" "1:1" "a failing hook with rows in its text: exit 1, a '# failed:' line"
forged hook.out "a hook's command"
like "$(cat "$T/err")" '^pb-run: run 1 pair 2 \(measure\) arm [AB]: --prepare hook failed with status 1: test \$PB_PAIR = 1 && exit 0\\x0a7\\x09' \
	"a hook's command on stderr: control bytes escaped"
# The host name, set in a namespace of its own (root, Linux x86-64 only).
sethost='$h = shift; syscall(170, $h, length $h) == 0 or exit 77; exec @ARGV'
if [ "$(uname -m)" = x86_64 ] && command -v unshare >/dev/null && command -v perl >/dev/null &&
   unshare -u perl -e "$sethost" "h" true 2>/dev/null; then
	unshare -u perl -e "$sethost" "h x
$ROWS" pb-run --runs 1 --warmup 0 --pairs 1 -- true >host.out 2>host.err
	is "$?:$(count '^# run: [0-9]+ .* host=h x\\n7\\t7\\tmeasure' host.out)" "0:1" \
		"a host name with rows in it: exit 0, escaped in the '# run:' line, last"
	forged host.out "a host name"
else
	skip "a host name with rows in it: needs unshare -u, perl and x86-64 as root"
	skip "a host name: pb-pair sees no forged row"
fi

# --- item: a worker's pipes are its own; a worker that closed them is dead
# It closes its stdin and stdout after the second request and lives on.
cat >closer.sh <<EOF
read -r req; echo ok
read -r req
exec <&- >&-
exec "$T/pbw-live" --hang
EOF
bounded pb-run --order alternate --runs 1 --warmup 0 --pairs 2 --no-shell --worker "sh closer.sh"
is "$rc:$(cat "$T/err")" "1:pb-run: run 1 pair 1 (measure) arm B: worker died (end of its output; it was still running after 1 s: killed; its stderr went to /dev/null; --output inherit shows it)" \
	"a worker that closes its stdin and stdout and lives on: dead, killed, exit 1 (no hang)"
gone live "a worker that closed its pipes: not left running" "$T/out"
bounded pb-run --ignore-failure --order alternate --runs 2 --warmup 0 --pairs 2 --no-shell --worker "sh closer.sh"
is "$rc:$(rows "$T/out" | cut -f1,4,8 | tr '\t\n' ': ')" "0:1:A:0 1:B:-4 2:A:0 2:B:-4 " \
	"--ignore-failure: its observation has status -4 and its run ends"
gone live "--ignore-failure: no worker that closed its pipes left running" "$T/out"
# It leaves a child holding its stdout, and exits without an answer.
cat >leaver.sh <<EOF
"$T/pbw-gc" --hang &
read -r req; echo ok
read -r req
exit 3
EOF
bounded pb-run --order alternate --runs 1 --warmup 0 --pairs 2 --output inherit --no-shell --worker "sh leaver.sh"
is "$rc:$(cat "$T/err")" "1:pb-run: run 1 pair 1 (measure) arm B: worker died (end of its output; worker exited with status 3)" \
	"a worker that exits while its child holds its stdout: dead at once, exit 1 (no hang)"
gone gc "the child it left holding its stdout: killed" "$T/out"

# --- item: an answer before a request is a protocol error (status -3)
# Two answers to the first request, in two writes; the --prepare hook
# waits for the second to be written (the file echoed) before the next
# request, however slowly the worker runs: the worker makes 'got' before
# its first answer, so the hook before the first request waits for
# nothing; --setup clears both for each run's fresh worker.
cat >twice.sh <<'EOF'
read -r req; : >got; echo ok; echo ok; : >echoed
while read -r req; do echo ok; done
EOF
hooks="--setup 'rm -f got echoed' --prepare 'while [ -e got ] && [ ! -e echoed ]; do sleep 0.01; done'"
twice="pb-run: run 1 pair 1 (measure) arm B: worker wrote 'ok' before this request was sent (two answers to one request?)"
eval "run pb-run --order alternate --runs 1 --warmup 0 --pairs 3 $hooks --no-shell --worker 'sh twice.sh'"
is "$rc:$(cat "$T/err")" "1:$twice" "a worker that answers twice (two writes): exit 1, the next observation a protocol error"
is "$(tail -n 1 "$T/out")" "# failed: ${twice#pb-run: }" "... and a '# failed:' comment"
printf 'read -r req; printf "ok\\nok\\n"\nwhile read -r req; do echo ok; done\n' >twice1.sh
run pb-run --order alternate --runs 1 --warmup 0 --pairs 3 --no-shell --worker "sh twice1.sh"
is "$rc:$(cat "$T/err")" "1:$twice" "a worker that answers twice (one write): the same"
eval "run pb-run --ignore-failure --order alternate --runs 2 --warmup 0 --pairs 3 $hooks \
	--no-shell --worker 'sh twice.sh'"
is "$rc:$(rows "$T/out" | cut -f1,4,8 | tr '\t\n' ': '):$(count '^# run_ended: .*two answers' "$T/out")" \
	"0:1:A:0 1:B:-3 2:A:0 2:B:-3 :2" "--ignore-failure: status -3, the run ends, a fresh worker for the next"

# --- item: nothing left running
run pb-run --runs 1 --warmup 0 --pairs 3 -- "$T/pbw-bg --hang & true"
ran_ok "commands that leave a child in the background: exit 0"
gone bg "commands' background children are killed when each observation ends" "$T/out"
run pb-run --runs 2 --warmup 0 --pairs 3 --worker "$T/pbw-wbg --hang & exec $W --worker --us 0"
ran_ok "a worker that leaves a child in the background: exit 0"
gone wbg "a worker's background children are killed at the end of its run" "$T/out"
# stdout gone in the middle of a study (EPIPE): the worker is stopped,
# and the child it left with it.
{ pb-run --runs 1 --warmup 0 --pairs 1000000 \
	--worker "$T/pbw-epipe --hang & exec $W --worker --us 0" 2>epipe.err
  echo $? >epipe.rc; } | head -n 40 >epipe.out
is "$(cat epipe.rc):$(wc -l <epipe.err)" "1:1" "stdout gone mid-study: exit 1, one line"
like "$(cat epipe.err)" '^pb-run: write error on standard output: Broken pipe$' "stdout gone: the line says so"
gone epipe "stdout gone: the worker and its children are stopped" epipe.out
# SIGHUP is SIGTERM's twin: the observation stopped, '# interrupted:', 129
pb-run --runs 1 --warmup 0 --pairs 3000 -- "$T/pbw-hup --us 200" >hup.out 2>hup.err &
pid=$!
wait_rows hup.out 4 "$pid"
kill -HUP "$pid"
wait "$pid"; rc=$?
is "$rc" 129 "SIGHUP: exit 129"
like "$(tail -n 1 hup.out)" '^# interrupted: SIGHUP in run 1 pair [0-9]+ \(measure\) arm [AB]; [0-9]+ pairs written$' \
	"SIGHUP: a final '# interrupted:' comment"
like "$(cat hup.err)" '^pb-run: interrupted by SIGHUP in run 1 pair [0-9]+' "SIGHUP: one line on stderr"
gone hup "SIGHUP: the running command is stopped" hup.out

# --- item: closed standard fds
pb-run --output closed.out --runs 1 --warmup 0 --pairs 1 -- true >&- 2>"$T/err"
rc=$?
if [ "${PB_VALGRIND:-0}" = 1 ]; then   # memcheck's own files take the closed fd 1
	skip "stdout closed: exit 1, one line: not under valgrind"
	is "$(cat closed.out 2>/dev/null | wc -l)" 0 "stdout closed: the stream does not go into the --output file"
else
	is "$rc:$(cat "$T/err"):$(cat closed.out 2>/dev/null | wc -l | tr -d ' ')" \
		"1:pb-run: standard output is closed: the stream has nowhere to go (redirect it to a file: > FILE):0" \
		"stdout closed: exit 1, one line, and the stream does not go into the --output file"
fi
pb-run --output closed2.out --runs 1 --warmup 0 --pairs 1 -- 'exit 3' >"$T/out" 2>&-
rc=$?
is "$rc:$(tail -n 1 "$T/out" | cut -c1-9)" "1:# failed:" "stderr closed: exit 1, the stream on stdout"
is "$(grep -c '^pb-run:' closed2.out)" 0 "stderr closed: pb-run's messages do not go into the --output file"
run pb-run --runs 1 --warmup 0 --pairs 2 --worker "$W --worker --us 0" <&-
is "$rc:$(rows "$T/out" | wc -l)" "0:4" "stdin closed: the worker still gets its requests"

done_testing

#!/bin/sh
# Hostile workers and commands (issue 27, items 5, 6, 15 and 20): a
# second answer to a run's last request, in one write with the first,
# after the worker's stdin closed or as it exits, is seen (exit 1, the
# pair not written); a worker that answers every request twice fails
# every run; the Node helper's fd 1 is the standard error and its
# answers' descriptor, like the C helper's, is not inherited; the Python
# helper answers an exception whose str() fails; a command, worker or
# hook that starts with '-' is run, not taken for the shell's options.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
S=$top/share/pb
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

# feed INPUT CMD...: CMD with printf INPUT on stdin, at most 20 s; its
# answers in ans, its stderr in err, the status in $rc.
feed() { input=$1; shift; printf "$input" | timeout 20 "$@" >ans 2>err; rc=$?; }
# lines FILE: FILE on one line, lines joined by "|"
lines() { tr '\n' '|' <"$1" | sed 's/|$//'; }
# twice WHEN: the reason of a second answer to the run's last request,
# found WHEN ("with its answer": in one read; "after its answer")
# (an ERE)
twice() { echo "worker wrote 'ok' $1 to the run's last request \\(two answers to one request\\?\\)"; }

# --- item 5: a second answer to the run's last request
# -p1 -w0: two requests a run, the second the last. Both answers to it in
# one write: already there when pb-run reads the first.
printf 'read -r r; echo ok\nread -r r; printf "ok\\nok\\n"\nwhile read -r r; do echo ok; done\n' >one-write.sh
fails 1 "^pb-run: run 1 pair 1 \(measure\) arm [AB]: $(twice 'with its answer')\$" \
	"two answers to the run's last request in one write: exit 1, one line" \
	pb-run --runs 4 --pairs 1 --warmup 0 --order alternate --no-shell --worker 'sh one-write.sh'
is "$(row_count "$T/out"):$(tail -n 1 "$T/out" | cut -c1-31)" "0:# failed: run 1 pair 1 (measure" \
	"... its pair is not written, a '# failed:' comment ends the stream"
run pb-run --ignore-failure --runs 2 --pairs 1 --warmup 0 --no-shell --worker 'sh one-write.sh'
is "$rc:$(rows "$T/out" | cut -f1,8 | sort | tr '\t\n' ': '):$(grep -Ec "^# run_ended: run [12] pair 1 \(measure\) arm [AB]: $(twice 'with its answer')" "$T/out")" \
	"0:1:-3 1:0 2:-3 2:0 :2" "--ignore-failure: each run's last observation status -3, its run ended"

# The second answer written only once the worker's stdin is closed.
printf 'while read -r r; do echo ok; done\necho ok\n' >at-eof.sh
fails 1 "^pb-run: run 1 pair 2 \(measure\) arm [AB]: $(twice 'after its answer')\$" \
	"a second answer written after the worker's stdin closed: exit 1" \
	pb-run --runs 1 --pairs 2 --warmup 1 --no-shell --worker 'sh at-eof.sh'
is "$(rows "$T/out" | cut -f2,3,4 | sort | tr '\t\n' ', ')" "1,measure,A 1,measure,B 1,warmup,A 1,warmup,B " \
	"... the pairs before the last are kept"
# ... or as it exits, from a trap, in a worker under /bin/sh
fails 1 "^pb-run: run 1 pair 3 \(measure\) arm [AB]: $(twice 'after its answer')\$" \
	"a second answer written by the worker's EXIT trap: exit 1" \
	pb-run --runs 1 --pairs 3 --warmup 0 --worker "trap 'echo ok' EXIT; while read -r r; do echo ok; done"

# The issue's racing worker, two writes a request: mid-run its second
# answer may come in as the next request's, but the worker is then an
# answer ahead to the end of its run, and every run is seen so.
run pb-run --ignore-failure --runs 5 --pairs 2 --warmup 0 \
	--worker 'while read -r l; do echo ok; echo ok; done'
is "$rc:$(grep -c '^# run_ended: run [1-5] .*worker wrote .ok. .*(two answers to one request?)' "$T/out")" \
	"0:5" "a worker that answers each request twice, in two writes: every run of 5 ends on it"

# A worker that answers once, under the shell and not, and the helpers'
# own templates: nothing follows the last answer, exit 0.
run pb-run --runs 3 --pairs 4 --warmup 1 --no-shell --worker "$W --worker --us 0"
ran_ok "pb-workload --worker, 3 runs: exit 0, nothing follows a last answer"
is "$(row_count "$T/out")" 30 "... every pair written (3 runs x 5 pairs x 2 arms)"
run pb-run --runs 2 --pairs 3 --warmup 0 --worker "sh $top/examples/worker/worker.sh"
ran_ok "examples/worker/worker.sh through /bin/sh: exit 0"

# --- item 6: what a child of an arm prints, and what it inherits
# The arms start a child that prints "ok" on the stdout it inherits, and
# writes "leak N" to each descriptor N from 3 to 9 that it inherited
# open: the answers' pipe, if it is one of them.
child='echo ok; for d in 3 4 5 6 7 8 9; do { echo "leak $d" >&$d; } 2>/dev/null; done; echo checked'
cat >w.c <<EOF
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include "pb-worker.h"
static int arm(void *ctx) { (void)ctx; return system("$(printf '%s' "$child" | sed 's/"/\\"/g')") != 0; }
int main(void) { return pb_worker_serve(arm, arm, NULL); }
EOF
${CC:-cc} -std=c11 -D_XOPEN_SOURCE=700 -I"$S" -o w w.c 2>cc.err
cc_says="$?:$(cat cc.err)"
feed 'A\t1\t1\n' ./w
is "$cc_says/$rc:$(lines ans):$(lines err)" "0:/0:ok:ok|checked" \
	"C: it builds; the child's stdout is the standard error, and it inherits no answers' descriptor"

NODE=$(command -v node || command -v nodejs)
if [ -n "$NODE" ]; then
	cat >w.mjs <<EOF
import { serve } from '$S/pb-worker.mjs';
import { spawnSync } from 'node:child_process';
const arm = () => { spawnSync('sh', ['-c', '$child'], { stdio: 'inherit' }); };
process.exitCode = await serve({ a: arm, b: arm });
EOF
	feed 'A\t1\t1\nB\t1\t1\n' "$NODE" w.mjs
	is "$rc:$(lines ans):$(lines err)" "0:ok|ok:ok|checked|ok|checked" \
		"Node: a child started with stdio 'inherit' prints on the standard error, and inherits no answers' descriptor"
	run pb-run --runs 2 --pairs 2 --warmup 0 --output node.out --no-shell --worker "$NODE w.mjs"
	ran_ok "Node: under pb-run, the children's 'ok' is no answer: exit 0"
	is "$(grep -c '^ok$' node.out)" 8 "... each of the 8 went to --output"
else
	skip "node not installed (Debian package nodejs; make check installs it)"
	skip "node not installed"; skip "node not installed"
fi

# --- item 20: pb_worker.py, an exception whose str() raises
PY=$(command -v python3)
if [ -n "$PY" ]; then
	cat >w.py <<EOF
import sys
sys.path.insert(0, "$S")
import pb_worker
class Bad(Exception):
    def __str__(self):
        raise RuntimeError("no text")
Odd = type("Odd\\nok", (Exception,), {"__str__": lambda self: 1})
def b(): raise Bad()
def c(): raise Odd()
sys.exit(pb_worker.serve(a=lambda: None, b=b, c=c))
EOF
	feed 'B\t1\t1\nC\t1\t1\nA\t1\t1\n' "$PY" w.py
	is "$rc:$(lines ans):$(lines err)" '0:error Bad|error Odd\nok|ok:' \
		"Python: an exception whose __str__ raises, or returns no string: 'error TYPE', escaped, and the worker goes on"
else
	skip "python3 not installed (Debian package python3; make check installs it)"
fi

# --- item 15: a command that starts with '-'
mkdir bin
for c in -a -b -s; do printf '#!/bin/sh\n: >"%s/ran%s"\n' "$T" "$c" >"bin/$c"; done
printf '#!/bin/sh\nwhile read -r r; do echo ok; done\n' >bin/-w
chmod +x bin/-*
run env PATH="$T/bin:$PATH" pb-run --runs 1 --pairs 1 --warmup 0 --setup -s -- -a -b
ran_ok "commands and a --setup hook named -a, -b and -s through /bin/sh: exit 0"
is "$(ls ran-* 2>/dev/null | tr '\n' ' ')" "ran-a ran-b ran-s " "... each of them ran"
run env PATH="$T/bin:$PATH" pb-run --runs 1 --pairs 2 --warmup 0 --worker -w
ran_ok "a worker named -w through /bin/sh: exit 0"
rm -f ran-*
run env PATH="$T/bin:$PATH" pb-compare -b 600s -r 6 -p 2 --dir cmp -- -a -b
exited_ok "pb-compare -- -a -b: its probe and study run them: exit 0"
is "$(meta cmd_a cmp/raw.tsv):$(ls ran-* 2>/dev/null | tr '\n' ' ')" "-a:ran-a ran-b " "... and they ran"

# --- item 16's kind in pb-run's own messages: a hook's command and a
# worker's error text, quoted on stderr, show a C1 control (raw 0x9b, or
# U+009B as c2 9b) as \xNN like ESC, and keep the UTF-8 that prints
run pb-run --runs 1 --pairs 1 --warmup 0 --setup "exit 3 #$(printf '\233')2J $(printf '\302\233')x $(printf '\303\251')" -- true true
is "$rc:$(grep -c "$(printf '\233')" "$T/err"):$(grep -c 'setup hook failed with status 3' "$T/err")" "1:0:1" \
	"a failing --setup hook with C1 controls in it: exit 1, its line, no raw 0x9b on stderr"
like "$(cat "$T/err")" "exit 3 #\\\\x9b2J \\\\xc2\\\\x9bx $(printf '\303\251')\$" "... each shown as \\xNN, the é as it is"
printf '#!/bin/sh\nwhile read -r l; do printf "error \\302\\2332J\\033x\\n"; done\n' >c1.sh
chmod +x c1.sh
run pb-run --runs 1 --pairs 1 --warmup 0 --worker ./c1.sh
is "$rc:$(grep -c "$(printf '\233')" "$T/err"):$(grep -c 'worker answered: error' "$T/err")" "1:0:1" \
	"a worker's error with U+009B: exit 1, its line, no raw 0x9b on stderr"
like "$(cat "$T/err")" 'worker answered: error \\xc2\\x9b2J\\x1bx$' "... shown as \\xNN, as ESC is"

done_testing

#!/bin/sh
# The worker helpers, share/pb/pb-worker.h (C), pb_worker.py (Python),
# pb-worker.mjs (Node.js) and PbWorker.java, each where its compiler or
# interpreter exists:
# a real pb-run study whose arm B busy-waits twice as long as arm A, seen
# by pb-pair --by-run | pb-logratio | pb-tint; an arm's failure answered
# "error ..." (status -2); end of input ends the worker; the protocol
# errors (one line on stderr, non-zero exit); an unknown arm, a third arm,
# requests split over reads or sharing one; what the arms print kept off
# the answers; one write per answer (strace). Then what only Java needs:
# a child that inherits the JVM's stdout, pb-run's answer descriptor;
# the examples in examples/worker under pb-run, and make install of the
# helpers.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
S=$top/share/pb
X=$top/examples/worker
cd "$T" || exit 1

# feed INPUT CMD...: CMD with printf INPUT on stdin; stdout in $T/out,
# stderr in $T/err, the status in $rc. The timeouts here only end a
# helper that hangs (a defect): a JVM on a loaded machine starts slowly.
feed() { input=$1; shift; printf "$input" | timeout 120 "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# lines FILE: FILE on one line, lines joined by "|"
lines() { tr '\n' '|' <"$1" | sed 's/|$//'; }
# median_ns ARM FILE: the median ns of ARM's measured rows of a raw stream
median_ns() { rows "$2" | awk -F'\t' -v a="$1" '$3 == "measure" && $4 == a { print $7 }' |
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# --- the workers under test, one per language, alike: arm A busy-waits
# 100 us, arm B 200 us; arm A prints a line on its first call (on stdout,
# which the helper turns into stderr); arm B fails on its Nth call (FAIL,
# the first argument; 0 never); with a second argument "3", arm C, which
# prints "arm C ran", is served too.
cat >w.c <<'EOF'
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>
#include "pb-worker.h"

struct calls { int a, b, fail_at; };

static void spin_us(long us)
{
	struct timespec t;
	long long end;

	clock_gettime(CLOCK_MONOTONIC, &t);
	end = t.tv_sec * 1000000000LL + t.tv_nsec + us * 1000;
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec * 1000000000LL + t.tv_nsec < end);
}
static int arm_a(void *ctx)
{
	struct calls *c = (struct calls *)ctx;

	if (c->a++ == 0)
		printf("first call of A\n");
	spin_us(100);
	return 0;
}
static int arm_b(void *ctx)
{
	struct calls *c = (struct calls *)ctx;

	spin_us(200);
	return ++c->b == c->fail_at ? 3 : 0;
}
static int arm_c(void *ctx)
{
	(void)ctx;
	printf("arm C ran\n");
	return 0;
}
int main(int argc, char **argv)
{
	struct calls c = { 0, 0, 0 };
	int (*const arms[3])(void *) = { arm_a, arm_b, arm_c };

	c.fail_at = argc > 1 ? atoi(argv[1]) : 0;
	if (argc > 2)
		return pb_worker_serve_arms(3, arms, &c);
	return pb_worker_serve(arm_a, arm_b, &c);
}
EOF
cat >w.py <<EOF
import sys, time
sys.path.insert(0, "$S")
import pb_worker

calls = {"a": 0, "b": 0}
fail_at = int(sys.argv[1]) if len(sys.argv) > 1 else 0

def spin_us(us):
    end = time.perf_counter_ns() + us * 1000
    while time.perf_counter_ns() < end:
        pass

def arm_a():
    calls["a"] += 1
    if calls["a"] == 1:
        print("first call of A")
    spin_us(100)

def arm_b():
    spin_us(200)
    calls["b"] += 1
    if calls["b"] == fail_at:
        raise ValueError("call %d of B\nfailed" % fail_at)

def arm_c():
    print("arm C ran")

if len(sys.argv) > 2:
    sys.exit(pb_worker.serve(a=arm_a, b=arm_b, c=arm_c))
sys.exit(pb_worker.serve(a=arm_a, b=arm_b))
EOF
cat >w.mjs <<EOF
import { serve } from '$S/pb-worker.mjs';

const calls = { a: 0, b: 0 };
const failAt = Number(process.argv[2] || 0);
const spinUs = (us) => {
  const end = process.hrtime.bigint() + BigInt(us) * 1000n;
  while (process.hrtime.bigint() < end)
    ;
};
const a = () => {
  if (++calls.a === 1)
    console.log('first call of A');
  spinUs(100);
};
// async: awaited by the helper; a rejection is an error answer
const b = async () => {
  await null;
  spinUs(200);
  if (++calls.b === failAt)
    throw new RangeError(\`call \${failAt} of B\nfailed\`);
};
const c = () => console.log('arm C ran');
process.exitCode = await serve(process.argv[3] ? { a, b, c } : { a, b });
EOF
# Java: the same, arm B's failure a checked exception (an Arm may throw
# one); three arms through the map form
cat >W.java <<'EOF'
import java.util.Map;

public class W {
    static int a, b, failAt;

    static void spinUs(long us) {
        long end = System.nanoTime() + us * 1000;
        while (System.nanoTime() < end)
            Thread.onSpinWait();
    }

    static void armA() {
        if (++a == 1)
            System.out.println("first call of A");
        spinUs(100);
    }

    static void armB() throws java.io.IOException {
        spinUs(200);
        if (++b == failAt)
            throw new java.io.IOException("call " + failAt + " of B\nfailed");
    }

    public static void main(String[] args) {
        failAt = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        if (args.length > 1)
            System.exit(PbWorker.serve(Map.<Character, PbWorker.Arm>of('A', W::armA, 'B', W::armB,
                'C', () -> System.out.println("arm C ran"))));
        System.exit(PbWorker.serve(W::armA, W::armB));
    }
}
EOF
JAVA= JAVAC=$(command -v javac)
if [ -n "$JAVAC" ]; then
	"$JAVAC" -Xlint:all -Werror -d jcls "$S/PbWorker.java" W.java >javac.err 2>&1
	is "$?:$(head -n 5 javac.err)" "0:" "java: a worker with PbWorker.java builds (javac -Xlint:all -Werror)"
	JAVA=$(command -v java)
fi

CFLAGS_TEST=${CFLAGS:--O2 -g -Wall -Wextra -Werror -pedantic}
# shellcheck disable=SC2086   # flags are words
${CC:-cc} -std=c11 -D_XOPEN_SOURCE=700 $CFLAGS_TEST -I"$S" ${LDFLAGS:-} -o w w.c 2>cc.err
is "$?:$(cat cc.err)" "0:" "C: a worker with pb-worker.h builds (-std=c11 $CFLAGS_TEST)"

PY=$(command -v python3)
NODE=$(command -v node || command -v nodejs)
langs="c"
[ -n "$PY" ] && langs="$langs py"
[ -n "$NODE" ] && langs="$langs js"
[ -n "$JAVA" ] && langs="$langs java"
worker() {
	case $1 in
	c) echo "$T/w" ;;
	py) echo "$PY $T/w.py" ;;
	js) echo "$NODE $T/w.mjs" ;;
	java) echo "$JAVA -cp $T/jcls W" ;;
	esac
}
[ -n "$PY" ] || skip "python3 not installed (Debian package python3; make check installs it)"
[ -n "$NODE" ] || skip "node not installed (Debian package nodejs; make check installs it)"
[ -n "$JAVA" ] || skip "javac not installed (Debian package default-jdk-headless; make check installs it)"

for L in $langs; do
	Wk=$(worker "$L")
	# --- a real study: 8 runs x (3 warm-up + 30) pairs
	run pb-run --runs 8 --warmup 3 --pairs 30 --timeout 300s --no-shell \
		--output "$T/$L-output.txt" --worker "$Wk"
	cp "$T/out" "$L-raw.tsv"
	ran_ok "$L: pb-run --worker: exit 0, nothing on stderr"
	is "$(rows "$L-raw.tsv" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" 528 \
		"$L: 8 runs x 33 pairs x 2 arms, every observation ok"
	is "$(grep -c '^first call of A$' "$L-output.txt")" 8 \
		"$L: what arm A printed went to --output, once per run (a fresh worker each), not into the answers"
	pids=$(sed -n 's/^# run: .* pid=\([0-9]*\) .*/\1/p' "$L-raw.tsv" | tr '\n' ' ')
	left=
	for p in $pids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
	is "$(echo "$pids" | wc -w | tr -d ' '):$left" "8:" "$L: end of input ended each run's worker"
	# per run the median of the paired ratios, which a load that comes and
	# goes moves far less than each arm's median (t/README, Timing)
	pb-pair --by-run --stat lr-median "$L-raw.tsv" | pb-tint --finding >"$L-tint.tsv" 2>"$L-tint.err"
	is "$?:$(cat "$L-tint.err"):$(row_count "$L-tint.tsv")" "0::1" "$L: pb-pair --by-run --stat lr-median | pb-tint: exit 0, one interval"
	if [ "${PB_VALGRIND:-0}" = 1 ]; then   # pb-run under memcheck: its times are its own
		skip "$L: the finding: not under valgrind"; skip "$L: the ratio: not under valgrind"
	else
		like "$(grep '^# finding' "$L-tint.tsv")" 'The interval excludes 1: B is slower\.$' \
			"$L: the finding: B is slower"
		# the estimate, not its interval, whose width is the machine's
		# load's (a loaded CI once gave 0.53 to 0.92): the round trip is
		# added to both arms, and only a helper that spent hundreds of
		# microseconds on it would move the ratio of 100 us to 200 us of
		# work from 0.5 to 0.9
		r=$(col ratio 1 "$L-tint.tsv")
		if nums "$r" && awk -v r="$r" 'BEGIN { exit !(r > 0.25 && r < 0.9) }'; then
			ok "$L: A/B time ratio $r, between 0.25 and 0.9 (work 100 us against 200 us)"
		else
			not_ok "$L: A/B time ratio between 0.25 and 0.9"
			diag "ratio $r; medians A $(median_ns A "$L-raw.tsv") B $(median_ns B "$L-raw.tsv") ns"
		fi
	fi

	# --- an arm that fails: answered "error ...", status -2
	run pb-run --runs 2 --warmup 0 --pairs 5 --timeout 300s --no-shell --ignore-failure \
		--worker "$Wk 3"
	cp "$T/out" "$L-fail.tsv"
	is "$rc:$(rows "$L-fail.tsv" | awk -F'\t' '$8 != 0 { print $1 $4 $8 }' | tr '\n' ' ')" \
		"0:1B-2 2B-2 " "$L: B's third call fails in each run: status -2, and the run goes on"
	is "$(rows "$L-fail.tsv" | wc -l | tr -d ' ')" 20 "$L: ... every observation has its row"
	run pb-run --runs 1 --warmup 0 --pairs 5 --timeout 300s --no-shell --worker "$Wk 3"
	case $L in
	c) want='worker answered: error arm B returned 3$' ;;
	py) want='worker answered: error ValueError: call 3 of B\\nfailed$' ;;
	js) want='worker answered: error RangeError: call 3 of B\\nfailed$' ;;
	java) want='worker answered: error java\.io\.IOException: call 3 of B\\nfailed$' ;;
	esac
	like "$rc:$(cat "$T/err")" "^1:pb-run: run 1 pair [0-9]+ \\(measure\\) arm B: $want" \
		"$L: without --ignore-failure the study stops, with the helper's text on one line"

	# --- the worker by itself
	feed 'A\t1\t1\nB\t1\t1\n' $Wk
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "0:ok|ok:first call of A" \
		"$L: two requests, two answers on stdout, A's print on stderr, exit 0 at end of input"
	# (and the same worker answers a request: a worker that does nothing
	# writes nothing either)
	feed '' $Wk
	none="$rc:$(lines "$T/out"):$(lines "$T/err")"
	feed 'B\t1\t1\n' $Wk
	is "$none|$rc:$(lines "$T/out")" "0::|0:ok" "$L: no request: exit 0, nothing written (one request: answered ok)"
	(printf 'A\t1'; sleep 0.3; printf '\t1\nB\t1\t2\nA\t1\t3\n'; sleep 0.3; printf 'B\t1\t4\n') |
		timeout 120 $Wk >split.out 2>/dev/null
	is "$?:$(lines split.out)" "0:ok|ok|ok|ok" \
		"$L: a request split over two reads, two in one read: each answered once"
	feed 'B\t7\t9\tphase=measure\n' $Wk
	is "$rc:$(lines "$T/out")" "0:ok" "$L: fields after PAIR are ignored"
	feed 'C\t1\t1\nA\t1\t2\n' $Wk
	is "$rc:$(lines "$T/out")" "0:error no arm C: this worker serves arms A to B|ok" \
		"$L: a request for arm C, not served: answered error, and the worker goes on"
	feed 'C\t1\t1\nB\t1\t1\nZ\t1\t2\n' $Wk 0 3
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "0:ok|ok|error no arm Z: this worker serves arms A to C:arm C ran" \
		"$L: three arms: C served (its print on stderr), Z not"

	# --- protocol errors: one line on stderr, exit non-zero
	feed 'hello\n' $Wk
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "1::pb-worker: request 1 is not ARM<TAB>RUN<TAB>PAIR: 'hello'" \
		"$L: a request that is not one: one line, exit 1"
	feed 'A\t1\t1\na\t1\t2\n' $Wk
	is "$rc:$(lines "$T/out"):$(sed 's/^first call of A$//' "$T/err" | grep -v '^$')" \
		"1:ok:pb-worker: request 2 is not ARM<TAB>RUN<TAB>PAIR: 'a\\t1\\t2'" \
		"$L: request 2 bad (a lower-case arm): the first answered, the second named, escaped"
	for bad in 'A\t1\n|two fields' 'A\t\t1\n|an empty run' 'A\t1\t-1\n|a sign' 'AB\t1\t1\n|two letters' \
		'A 1 1\n|blanks for TABs' 'A\t1\t1\r\n|a CR before the newline' '\n|an empty line'; do
		feed "${bad%|*}" $Wk
		if [ "$rc" = 1 ] && [ ! -s "$T/out" ] &&
		   grep -q '^pb-worker: request 1 is not ARM<TAB>RUN<TAB>PAIR: ' "$T/err"; then
			ok "$L: a bad request refused: ${bad#*|}"
		else
			not_ok "$L: a bad request refused: ${bad#*|}"
			diag "status $rc, out $(lines "$T/out"), err $(lines "$T/err")"
		fi
	done
	feed 'A\t1\t1' $Wk
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "1::pb-worker: the input ended inside request 1: 'A\\t1\\t1'" \
		"$L: input that ends inside a request: one line, exit 1"
	head -c 5000 /dev/zero | tr '\0' A | timeout 120 $Wk >long.out 2>long.err
	is "$?:$(lines long.out):$(lines long.err)" "1::pb-worker: request 1 is longer than 4095 bytes" \
		"$L: a request longer than 4095 bytes: one line, exit 1"
	printf '\001\033[2J\n' | timeout 120 $Wk >ctl.out 2>ctl.err
	is "$?:$(lines ctl.err)" "1:pb-worker: request 1 is not ARM<TAB>RUN<TAB>PAIR: '\\x01\\x1b[2J'" \
		"$L: control bytes in a bad request are escaped in the message"

	# --- one write per answer, no buffering (strace, where it exists)
	if command -v strace >/dev/null 2>&1; then
		printf 'A\t1\t%s\n' 1 2 3 4 5 6 7 8 9 10 >ten.req
		# LeakSanitizer (make asan) cannot run under ptrace
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			timeout 120 strace -f -qq -e trace=write -e signal=none -o trace.log $Wk <ten.req >/dev/null 2>&1
		is "$?:$(grep -c 'write([0-9]*, "ok\\n", 3)' trace.log)" "0:10" "$L: 10 requests: 10 writes of ok and a newline (strace)"
	else
		skip "strace not installed"
	fi
done

# --- the C helper: the standards and compilers it claims
CCS="${CC:-cc}"
for c in gcc clang; do
	command -v "$c" >/dev/null 2>&1 && [ "$c" != "${CC:-cc}" ] && CCS="$CCS $c"
done
for c in $CCS; do
	for std in c99 c11; do
		$c -std=$std -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -pedantic -I"$S" -fsyntax-only w.c 2>std.err
		is "$?:$(head -n 3 std.err)" "0:" "C: $c -std=$std -pedantic -Wall -Wextra -Werror: no warning"
	done
done
if command -v c++ >/dev/null 2>&1; then
	c++ -x c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$S" -fsyntax-only w.c 2>cxx.err
	is "$?:$(head -n 3 cxx.err)" "0:" "C++: c++ -std=c++11 -pedantic -Wall -Wextra -Werror: the header compiles"
else
	skip "no C++ compiler (Debian package g++)"
fi
cat >only-arms.c <<'EOF'
#include "pb-worker.h"
static int a(void *ctx) { (void)ctx; return 0; }
int main(int argc, char **argv)
{
	int (*const arms[1])(void *) = { a };

	(void)argv;
	return pb_worker_serve_arms(argc > 1 ? 27 : 1, arms, NULL);
}
EOF
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -D_XOPEN_SOURCE=700 $CFLAGS_TEST -I"$S" ${LDFLAGS:-} -o only-arms only-arms.c 2>cc.err
built="$?:$(cat cc.err)"
feed 'A\t1\t1\nB\t1\t1\n' ./only-arms
is "$built|$rc:$(lines "$T/out")" "0:|0:ok|error no arm B: this worker serves arm A only" \
	"C: pb_worker_serve_arms alone: no unused-function warning (static inline); one arm: B is not served"
feed 'A\t1\t1\n' ./only-arms x
is "$rc:$(lines "$T/out"):$(lines "$T/err")" "1::pb-worker: pb_worker_serve_arms: 27 arms: give from 1 to 26, A to Z" \
	"C: 27 arms: refused, one line, exit 1"

# --- the Python and Node helpers refuse what is not arms, at once
if [ -n "$PY" ]; then
	for call in 'serve()' 'serve(a=1)' 'serve(a=print, bb=print)' 'serve(A=print)'; do
		run "$PY" -c "import sys; sys.path.insert(0, '$S'); import pb_worker; pb_worker.$call" </dev/null
		like "$rc:$(tail -n 1 "$T/err")" '^1:TypeError: pb_worker.serve: ' "py: $call: a TypeError that says what arms are"
	done
	feed 'A\t1\t1\nB\t1\t1\nC\t1\t1\n' "$PY" -c "import sys; sys.path.insert(0, '$S'); import pb_worker
def boom(): raise KeyError('k' * 9000)
def stop(): raise SystemExit(7)
sys.exit(pb_worker.serve(a=boom, b=lambda: 42, c=stop))"
	is "$rc:$(head -n 1 "$T/out" | wc -c | tr -d ' '):$(sed -n 2p "$T/out")" "7:4095:ok" \
		"py: a long message cut to a 4095-byte line; a return value is ignored; SystemExit ends the worker"
fi
if [ -n "$NODE" ]; then
	for call in 'serve()' 'serve({ a: 1 })' 'serve({ a() {}, bb() {} })' 'serve({})'; do
		run "$NODE" --input-type=module -e "import { serve } from '$S/pb-worker.mjs'; await $call;" </dev/null
		like "$rc:$(grep -m 1 '^TypeError' "$T/err")" '^1:TypeError: pb-worker serve: ' "js: $call: a TypeError that says what arms are"
	done
	feed 'A\t1\t1\nB\t1\t1\nC\t1\t1\nD\t1\t1\n' "$NODE" --input-type=module -e "import { serve } from '$S/pb-worker.mjs';
class Mine extends Error {}
process.exitCode = await serve({ a: () => { throw 'plain'; }, b: () => Promise.reject(new Mine('x'.repeat(9000))),
  c: async () => 42, d: () => { process.stdin; } });"
	is "$rc:$(sed -n 1p "$T/out"):$(sed -n 2p "$T/out" | cut -c1-16):$(sed -n 2p "$T/out" | wc -c | tr -d ' '):$(sed -n 3,4p "$T/out" | lines /dev/stdin)" \
		"0:error thrown: plain:error Mine: xxxx:4095:ok|ok" \
		"js: a thrown string; a subclass named; a long message cut to 4095 bytes; an async value ignored"
	# process.stdin touched before serve: descriptor 0 is non-blocking, the stream reads
	feed 'A\t1\t1\nB\t1\t1\n' "$NODE" --input-type=module -e "import { serve } from '$S/pb-worker.mjs';
process.stdin; process.exitCode = await serve({ a() {}, b() {} });"
	is "$rc:$(lines "$T/out")" "0:ok|ok" "js: process.stdin touched first (non-blocking): still served"
	printf '%s\n' "import { serve } from '$S/pb-worker.mjs';" 'process.stdin;' \
		'process.exitCode = await serve({ a() {}, b: async () => {} });' >stdin-first.mjs
	run pb-run --runs 2 --warmup 1 --pairs 10 --timeout 300s --no-shell --worker "$NODE $T/stdin-first.mjs"
	is "$rc:$(cat "$T/err"):$(rows "$T/out" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" "0::44" \
		"js: ... and under pb-run, where each read would wait: every observation ok"
fi

# --- Java: what a child prints on the stdout it inherits from the JVM
# (inheritIO, Redirect.INHERIT) stays off the answers: pb-run offers a
# descriptor for them (PB_WORKER_ANSWER_FD), which the helper takes
if [ -n "$JAVA" ]; then
	cat >Child.java <<'EOF'
public class Child {
    public static void main(String[] args) {
        System.exit(PbWorker.serve(
            () -> new ProcessBuilder("sh", "-c", "echo child of A; printf 'ok\\nok\\n'").inheritIO().start().waitFor(),
            () -> { System.out.println("ok"); System.out.write('o'); System.out.write('k'); System.out.write('\n'); }));
    }
}
EOF
	"$JAVAC" -d jcls -cp jcls Child.java >javac.err 2>&1 || diag "$(cat javac.err)"
	run pb-run --runs 2 --warmup 2 --pairs 10 --no-shell --output "$T/child-output.txt" \
		--worker "$JAVA -cp $T/jcls Child"
	cp "$T/out" child.tsv
	is "$rc:$(cat "$T/err"):$(rows child.tsv | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" "0::48" \
		"java: arm A's child, which inherits the JVM's stdout, and arm B print ok: every observation ok"
	is "$(grep -c '^child of A$' child-output.txt):$(grep -c '^ok$' child-output.txt)" "24:96" \
		"java: ... and what they printed went to --output, all of it (pb-run copies it there)"
	# run by hand, without pb-run's descriptor: the answers on stdout
	feed 'B\t1\t1\n' "$JAVA" -cp jcls Child
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "0:ok:ok|ok" \
		"java: by hand the answers are on stdout, and System.out on stderr"
	feed 'A\t1\t1\n' env PB_WORKER_ANSWER_FD=3 "$JAVA" -cp jcls Child 3>fd3.out
	is "$rc:$(lines fd3.out):$(lines "$T/out")" "0:hello|ok:child of A|ok|ok" \
		"java: with PB_WORKER_ANSWER_FD=3 it says hello there, then answers there"
	feed 'A\t1\t1\n' env PB_WORKER_ANSWER_FD=x3 "$JAVA" -cp jcls Child
	is "$rc:$(lines "$T/out"):$(lines "$T/err")" "1::pb-worker: PB_WORKER_ANSWER_FD is not a descriptor: 'x3'" \
		"java: a PB_WORKER_ANSWER_FD that is not a number: one line, exit 1"
	for call in "new java.util.HashMap<Character, Runnable>()" "java.util.Map.of('1', (Runnable) () -> {})" \
		"(Runnable) null, () -> {}"; do
		printf 'public class Bad { public static void main(String[] a) { PbWorker.serve(%s); } }\n' "$call" >Bad.java
		"$JAVAC" -d jcls -cp jcls Bad.java >javac.err 2>&1 || diag "$(cat javac.err)"
		run "$JAVA" -cp jcls Bad </dev/null
		like "$rc:$(grep -m 1 'Exception' "$T/err")" '^1:Exception in thread "main" java\.lang\.IllegalArgumentException: PbWorker\.serve: ' \
			"java: serve($call): refused at once, saying what arms are"
	done
	cat >Long.java <<'EOF'
public class Long {
    public static void main(String[] args) {
        System.exit(PbWorker.serve(() -> { throw new IllegalStateException("x" + "\u00e9".repeat(5000)); },
            () -> { throw new Exception() { @Override public String toString() { throw new RuntimeException(); } }; }));
    }
}
EOF
	"$JAVAC" -d jcls -cp jcls Long.java >javac.err 2>&1 || diag "$(cat javac.err)"
	feed 'A\t1\t1\nB\t1\t1\n' "$JAVA" -cp jcls Long
	is "$rc:$(sed -n 1p "$T/out" | wc -c | tr -d ' '):$(sed -n 1p "$T/out" | tail -c 4):$(sed -n 2p "$T/out")" \
		"0:4094:...:error Long\$1" \
		"java: a long message cut before a character it would split (4094 bytes, ...); a toString() that throws: the class alone"
fi

# --- the answer descriptor, for any worker: one that says hello on its
# descriptor 3 answers there, and what it prints on its stdout is copied
# to --output; a worker that closes it, or never writes on it, answers
# on its stdout as before; a first line there other than hello is refused
cat >fd3.sh <<'EOF'
[ "$PB_WORKER_ANSWER_FD" = 3 ] || exit 9
echo hello >&3
while read -r arm run pair; do echo "printed $arm$pair"; echo ok >&3; done
EOF
run pb-run --runs 2 --warmup 0 --pairs 5 --output "$T/fd3-output.txt" --worker "sh $T/fd3.sh"
is "$rc:$(cat "$T/err"):$(rows "$T/out" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' '):$(grep -c '^printed [AB][1-5]$' fd3-output.txt)" \
	"0::20:20" "answer descriptor: hello, then answers on 3; all 20 observations ok; what it printed in --output"
run pb-run --runs 2 --warmup 0 --pairs 5 --duet --worker "sh $T/fd3.sh"
if [ "$rc" = 2 ] && grep -q 'two CPUs' "$T/err"; then
	skip "answer descriptor under --duet: one CPU here"
else
	is "$rc:$(cat "$T/err"):$(rows "$T/out" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" "0::20" \
		"answer descriptor under --duet (the timer decides, pb-run follows): all 20 ok"
fi
run pb-run --runs 1 --warmup 0 --pairs 3 --worker 'exec 3>&-; while read -r l; do echo ok; done'
is "$rc:$(rows "$T/out" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" "0:6" \
	"answer descriptor closed by the worker: it answers on its stdout"
run pb-run --runs 1 --warmup 0 --pairs 3 --worker 'echo hi >&3; while read -r l; do echo ok >&3; done'
like "$rc:$(cat "$T/err")" "^1:pb-run: run 1 pair 1 \\(measure\\) arm [AB]: worker wrote 'hi' first on its descriptor 3 \\(PB_WORKER_ANSWER_FD\\), not hello$" \
	"answer descriptor: a first line there other than hello: one line, exit 1"

# --- the examples in examples/worker: each a short study under pb-run, in
# which B, the faster way, is faster
# shellcheck disable=SC2086
${CC:-cc} -std=c11 $CFLAGS_TEST -I"$S" ${LDFLAGS:-} -o concat "$X/concat.c" 2>cc.err
concat_built="$?:$(cat cc.err)"
for ex in "c:$T/concat" "py:$PY $X/join.py" "js:$NODE $X/sort.mjs"; do
	L=${ex%%:*} Wk=${ex#*:}
	case " $langs " in *" $L "*) ;; *) skip "$L: no interpreter for the example"; continue ;; esac
	# concat.c's build is checked with its study
	case $L in
	c) built="$concat_built|" want="0:|" b="examples/worker/concat.c builds with -Ishare/pb; " ;;
	*) built= want= b= ;;
	esac
	run pb-run --runs 3 --warmup 5 --pairs 30 --timeout 300s --no-shell --worker "$Wk"
	cp "$T/out" "ex-$L.tsv"
	is "$built$rc:$(cat "$T/err"):$(rows "ex-$L.tsv" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' ')" "${want}0::210" \
		"${b}example $L ($Wk): 3 runs x 35 pairs, every observation ok"
	ml=$(median_lr "ex-$L.tsv")
	if [ "${PB_VALGRIND:-0}" = 1 ]; then skip "example $L: B took less time: not under valgrind"
	elif nums "$ml" && awk -v m="$ml" 'BEGIN { exit !(m > 0) }'; then
		ok "example $L: B took less time (per-run median log ratio, mean over runs: $ml)"
	else not_ok "example $L: B took less time"; diag "per-run median log ratio, mean over runs: '$ml'"; fi
done

# --- make install: the header in include, the helpers in share/pb; the
# installed examples find them there
root=$T/root
R=$root/usr/local
# from a copy of the tree, as t/1220 does: make install builds first, and
# a make of the tree itself that does not know the suite's PG=0 (make
# musl) relinked bin/pb-run with PostgreSQL and glibc under the other
# tests, which then ran that pb-run, or found it half written (EACCES)
nomk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }
nomk -C "$top" copy-to TO="$T/copy" >copy.log 2>&1 || diag "make copy-to: $(tail -n 3 copy.log)"
mk() { nomk -C "$T/copy" "$@" DESTDIR="$root" PREFIX=/usr/local; }
mk install >install.log 2>&1
installed=$?
missing=
for f in include/pb-worker.h share/pb/pb_worker.py share/pb/pb-worker.mjs share/pb/PbWorker.java \
	share/pb/examples/worker/concat.c share/pb/examples/worker/join.py \
	share/pb/examples/worker/sort.mjs share/pb/examples/worker/README.md; do
	cmp -s "$R/$f" "$top/$(echo "$f" | sed 's|^include/|share/pb/|; s|^share/pb/examples/|examples/|')" ||
		missing="$missing $f"
done
is "$installed:$missing" "0:" "make install DESTDIR=... PREFIX=/usr/local: exit 0; the header in PREFIX/include; the helpers in share/pb; the examples beside"
[ "$installed" = 0 ] || diag "$(tail -n 5 install.log)"
# shellcheck disable=SC2086
${CC:-cc} -std=c11 $CFLAGS_TEST -I"$R/include" ${LDFLAGS:-} -o concat-installed \
	"$R/share/pb/examples/worker/concat.c" 2>cc.err
feed 'A\t1\t1\nB\t1\t1\n' ./concat-installed
is "$rc:$(lines "$T/out"):$(cat cc.err)" "0:ok|ok:" "the installed concat.c builds with -I PREFIX/include, and serves"
if [ -n "$PY" ]; then
	# as a user runs it: python3 writes the helper's bytecode beside it,
	# which make uninstall must remove too
	feed 'A\t1\t1\nB\t1\t1\n' env -u PYTHONPATH -u PYTHONDONTWRITEBYTECODE "$PY" \
		"$R/share/pb/examples/worker/join.py"
	is "$rc:$(lines "$T/out")" "0:ok|ok" "the installed join.py finds the installed pb_worker.py"
fi
if [ -n "$NODE" ]; then
	feed 'A\t1\t1\nB\t1\t1\n' "$NODE" "$R/share/pb/examples/worker/sort.mjs"
	is "$rc:$(lines "$T/out")" "0:ok|ok" "the installed sort.mjs finds the installed pb-worker.mjs"
fi
mk uninstall >uninstall.log 2>&1
is "$?:$(find "$root" ! -type d | sed "s|^$root||" | tr '\n' ' ')" "0:" "make uninstall removes them all"

done_testing

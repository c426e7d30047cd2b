#!/bin/sh
# pb-run --pg against servers that never answer: a listener that accepts
# and stays silent (the probe connection, and a run's own connection), a
# stopped backend, a stopped server. With --timeout pb-run gives up in
# bounded time; SIGINT and SIGTERM stop it at once; each way with one
# line and its exit status. Every command runs under a 30 s kill, so a hang
# is a failure (status 137), not a stuck suite; no clock is read: "in
# bounded time" and "at once" are "not the kill", whatever the load.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && echo 1; }
# tmo CMD...: run under a 30 s kill (status 137 then)
tmo() { run timeout -s KILL 30 "$@"; }
# until_file FILE PATTERN: wait for a line of FILE to match, while the
# background pb-run ($bg, under its 30 s kill) lives
until_file() {
	i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 400 ] && return 1
		kill -0 "$bg" 2>/dev/null || { grep -q -- "$2" "$1" 2>/dev/null; return; }
		sleep 0.1
	done
}
# bg_pb ARGS...: pb-run in the background ($bg), output in $T/out, $T/err
# (removed first: the background shell truncates them only when it runs,
# and a pid read from the last run's output must never be signalled)
# (under a 30 s kill: timeout hands the signals sent to it on to pb-run)
# Under make asan on a loaded machine a signalled pb-run was twice held
# until the 30 s kill (137, with an 'Aborted' line); never without ASan,
# nor alone. LeakSanitizer's stop-the-world at exit is the likely cause,
# so these runs go without it; valgrind (make valgrind) checks their
# leaks.
bg_pb() {
	rm -f "$T/out" "$T/err"
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" timeout -s KILL 30 pb-run "$@" >"$T/out" 2>"$T/err" &
	else
		timeout -s KILL 30 pb-run "$@" >"$T/out" 2>"$T/err" &
	fi
	bg=$!
}
# signal_bg SIG: send it, wait for pb-run; $rc its status
signal_bg() { kill -"$1" $bg; wait $bg; rc=$?; }

# A server that accepts connections and never answers: a unix socket,
# as libpq looks for it in a directory (host=$T/mute).
mkdir "$T/mute"
perl -e 'use IO::Socket::UNIX; use Socket qw(SOL_SOCKET SO_PEERCRED);
	my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 64)
		or die "listen: $!";
	open(my $f, ">", $ARGV[1]) and close($f);
	my @held; while (my $c = $s->accept) {
		my ($pid) = unpack("i", getsockopt($c, SOL_SOCKET(), SO_PEERCRED()) // pack("i", 0));
		push @held, $c; my $g; open($g, ">>", $ARGV[2]) and print $g "$pid\n" and close($g) }' \
	"$T/mute/.s.PGSQL.5432" "$T/mute/ready" "$T/accepted" &
mute=$!
i=0
while [ ! -e "$T/mute/ready" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
mute_ci="host=$T/mute port=5432"
# accepted: wait (up to 30 s, while the background pb-run lives) until the
# mute server has taken a connection from the background pb-run (the
# child of its timeout, $bg): pb-run is then waiting for its answer. The
# server writes each connection's peer pid, so a late accept of an
# earlier pb-run's connection cannot pass for this one.
accepted() {
	i=0
	while [ $i -lt 300 ] && kill -0 "$bg" 2>/dev/null; do
		child=$(ps -A -o pid= -o ppid= | awk -v p="$bg" '$2 == p { print $1 }')
		[ -n "$child" ] && grep -qx "$child" "$T/accepted" 2>/dev/null && return
		sleep 0.1; i=$((i + 1))
	done
}
# drained: print a pid once the mute server has accepted every connection
# made before this call: a connection of our own, opened now, is accepted
# after them (the listen queue is first in, first out), and the server
# writes its pid (ours) like any other. Nothing printed after 30 s.
drained() {
	perl -e 'use IO::Socket::UNIX;
		my $c = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Peer => $ARGV[0]) or exit 1;
		for (1 .. 300) {
			if (open(my $f, "<", $ARGV[1])) { while (<$f>) { chomp; if ($_ eq $$) { print "$$\n"; exit 0 } } }
			select(undef, undef, undef, 0.1) }
		exit 1' "$T/mute/.s.PGSQL.5432" "$T/accepted"
}
cleanup() { kill $mute 2>/dev/null; pg_cluster_stop; }
trap 'cleanup' EXIT

# --- the probe connection: no answer -------------------------------------
tmo pb-run --pg "$mute_ci" --sql-a 'select 1' --timeout 200ms --runs 1 --pairs 1
is "$rc:$(one_line):$(wc -c <"$T/out" | tr -d ' ')" "1:1:0" \
	"mute server, --timeout 200ms: exit 1 (not the kill), one line, no output"
is "$(cat "$T/err")" \
	"pb-run: cannot connect to PostgreSQL: no answer from the server within 2 s (--timeout)" \
	"the line: no answer within 2 s (connecting gets at least 2 s)"
tmo pb-run --pg "$mute_ci connect_timeout=3" --sql-a 'select 1' --timeout 200ms --runs 1 --pairs 1
is "$rc:$(cat "$T/err")" \
	"1:pb-run: cannot connect to PostgreSQL: no answer from the server within 3 s (connect_timeout)" \
	"connect_timeout=3 in the conninfo: it bounds the connection (not the kill)"
tmo pb-run --pg "$mute_ci connect_timeout=2x" --sql-a 'select 1' --runs 1
is "$rc:$(cat "$T/err")" \
	"2:pb-run: --pg: connect_timeout '2x' (of the conninfo, or PGCONNECT_TIMEOUT) is not a whole number of seconds (see pb-run --help)" \
	"connect_timeout that is not a number: a usage error"
# every connection so far accepted (a late one too): the first two runs'
sentinel=$(drained)
is "$([ -n "$sentinel" ] && grep -cvx "$sentinel" "$T/accepted")" 2 \
	"... found before a connection is opened (the server saw only the first two runs')"
for sig in INT TERM; do
	bg_pb --pg "$mute_ci" --sql-a 'select 1' --runs 1 --pairs 1
	accepted
	signal_bg $sig
	want=130; [ $sig = TERM ] && want=143
	is "$rc:$(one_line)" "$want:1" "mute server, no --timeout, SIG$sig: exit $want at once (not the kill)"
	is "$(cat "$T/err")" "pb-run: interrupted by SIG$sig while connecting to PostgreSQL" \
		"SIG$sig: the line"
done

# --- a run's own connection: no answer --------------------------------------
# $T/sw is the server's socket until the --setup hook of run 2 points it at
# the mute one: the probe and run 1 connect, run 2 waits for an answer.
mkdir "$T/sw"
ln -s "$PGHOST/.s.PGSQL.5432" "$T/sw/.s.PGSQL.5432"
to_mute="[ \"\$PB_RUN\" = 1 ] || ln -sf '$T/mute/.s.PGSQL.5432' '$T/sw/.s.PGSQL.5432'"
tmo pb-run --pg "host=$T/sw port=5432" --setup "$to_mute" --sql-a 'select 1' --timeout 200ms \
	--runs 2 --pairs 2 --warmup 0 --quiet
is "$rc:$(one_line)" "1:1" "run 2 cannot connect: exit 1 (not the kill), one line"
is "$(cat "$T/err")" \
	"pb-run: run 2 (setup): cannot connect to PostgreSQL: no answer from the server within 2 s (--timeout)" \
	"the line names the run"
is "$(rows "$T/out" | wc -l | tr -d ' '):$(tail -n 1 "$T/out" | cut -c1-28)" \
	"4:# failed: run 2 (setup): can" "run 1's pairs kept, '# failed:' last"
ln -sf "$PGHOST/.s.PGSQL.5432" "$T/sw/.s.PGSQL.5432"
bg_pb --pg "host=$T/sw port=5432" --setup "$to_mute" --sql-a 'select 1' --runs 2 --pairs 2 \
	--warmup 0 --quiet
accepted
signal_bg INT
is "$rc:$(one_line)" "130:1" "run 2 connecting, SIGINT: exit 130 at once (not the kill)"
is "$(cat "$T/err"):$(tail -n 1 "$T/out")" \
	"pb-run: interrupted by SIGINT in run 2 (setup):# interrupted: SIGINT in run 2 (setup); 2 pairs written" \
	"the line and the '# interrupted:' comment name run 2's setup"

# --- a server that keeps data coming: the deadline still counts ------------------
tmo pb-run --pg '' --sql-a 'copy (select g from generate_series(1, 1000000000) g) to stdout' \
	--sql-b 'select 1' --timeout 300ms --ignore-failure --runs 1 --pairs 1 --warmup 0 --quiet
is "$rc:$(cat "$T/err"):$(rows "$T/out" | awk -F'\t' '{ print $4 $8 }' | sort | tr '\n' ' ')" \
	"0::A-1 B0 " "an endless COPY TO STDOUT, --timeout 300ms: cancelled (not the kill)"

# --- a stopped backend -----------------------------------------------------------
# backend: the pid of the '# run:' comment in $T/out
backend() { sed -n 's/^# run: .* pid=\([0-9]*\) .*/\1/p' "$T/out" | tail -n 1; }
bg_pb --pg '' --sql-a 'select pg_sleep(0.005)' --runs 1 --pairs 100000 --warmup 0 --quiet \
	--timeout 200ms
until_file "$T/out" '^# run:'
pid=$(backend)
until_file "$T/out" '^1	'
[ -n "$pid" ] && kill -STOP "$pid"
wait $bg; rc=$?
[ -n "$pid" ] && kill -CONT "$pid"
is "$rc:$(one_line)" "1:1" "backend stopped, --timeout 200ms: exit 1 (not the kill), one line"
like "$(cat "$T/err")" \
	'^pb-run: run 1 pair [0-9]+ \(measure\) arm [AB]: timed out after 0\.2 s \(--timeout\), and the server did not answer the cancel within 2 s: connection closed$' \
	"the line: timed out, no answer to the cancel"
like "$(tail -n 1 "$T/out")" '^# failed: run 1 pair [0-9]+ \(measure\) arm [AB]: timed out' "'# failed:' last"

for sig in INT TERM; do
	bg_pb --pg '' --sql-a 'select pg_sleep(0.005)' --runs 1 --pairs 100000 --warmup 0 --quiet
	until_file "$T/out" '^# run:'
	pid=$(backend)
	until_file "$T/out" '^1	'
	[ -n "$pid" ] && kill -STOP "$pid"
	sleep 0.5
	signal_bg $sig
	[ -n "$pid" ] && kill -CONT "$pid"
	want=130; [ $sig = TERM ] && want=143
	is "$rc:$(one_line)" "$want:1" "backend stopped, no --timeout, SIG$sig: exit $want at once (not the kill)"
	like "$(cat "$T/err")" "^pb-run: interrupted by SIG$sig in run 1 pair [0-9]+ \\(measure\\) arm [AB]\$" \
		"SIG$sig: the line"
done

# --- the whole server stopped: even the cancel gets no answer -------------------
pm=$(head -n 1 "$PGDIR/data/postmaster.pid")
bg_pb --pg '' --sql-a 'select pg_sleep(0.005)' --runs 1 --pairs 100000 --warmup 0 --quiet \
	--timeout 200ms --seed 730730
until_file "$T/out" '^# run:'
pid=$(backend)
until_file "$T/out" '^1	'
[ -n "$pid" ] && [ -n "$pm" ] && kill -STOP "$pm" "$pid"
wait $bg; rc=$?
[ -n "$pid" ] && kill -CONT "$pm" "$pid"
is "$rc:$(one_line)" "1:1" "server and backend stopped, --timeout: exit 1 (not the kill)"
like "$(cat "$T/err")" 'timed out after 0\.2 s \(--timeout\), and the server did not answer' \
	"the line: the cancel got no answer either"
# (pb-run has exited: what it left would still be there)
is "$(pgrep -f 'seed 730730' | wc -l | tr -d ' '):$(tail -n 1 "$T/out" | cut -c1-9)" "0:# failed:" \
	"no pb-run process left (nor the cancel's child)"

done_testing

#!/bin/sh
# pb-run --pg: the password in every spelling libpq takes (keyword, quoted,
# URI user info, ?password=, percent-encoded keyword), with --pg given once
# or twice, as "--pg X" or "--pg=X", is in neither the provenance line, the
# '# conninfo:' metadata nor stderr, and not in ps: pb-run overwrites it in
# its argv. The role pw needs its password (scram), so each run that
# connects proves the password still reached libpq.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

V=$(pb-run --version | cut -d' ' -f3)
meta() { sed -n "s/^# $1: //p" "$2"; }
pg_sql "create role pw login password 'sekrit123'; create role pw2 login password 'sek rit''s 9'"
hba=$PGDIR/data/pg_hba.conf
{ echo 'local all pw,pw2 scram-sha-256'; cat "$hba"; } >"$T/hba" && cat "$T/hba" >"$hba"
pg_sql "select pg_reload_conf()" >/dev/null
# the reload is asynchronous: ask until a wrong password is refused
i=0
while PGPASSWORD=wrong "$PGBIN/psql" -X -q -U pw -c 'select 1' >/dev/null 2>&1 && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
run "$PGBIN/psql" -X -q -w -U pw -c 'select 1'
is "$rc" 2 "the role pw cannot connect without its password"

# clean: none of the passwords in stdout or stderr
clean() { ! grep -Eq 'sekrit|sek rit|first1|ssl2nd|rit'"'"'s' "$T/out" "$T/err"; }
# measured: 1 when stdout holds data rows (the run connected and measured)
measured() { rows "$T/out" | head -n 1 | grep -c .; }
# argv_line: the provenance line up to --sql-a
argv_line() { head -n 1 "$T/out" | sed 's/ --sql-a.*//'; }
go() { run pb-run "$@" --sql-a 'select current_user' --runs 1 --pairs 1 --warmup 0 --quiet; }
U="postgresql://pw:sekrit123@/postgres?host=$PGHOST"

# --- every spelling, --pg given twice: both redacted, the last one used ----
# spelling | what the provenance line shows of it
while IFS='|' read -r ci shown; do
	go --pg 'password=first1 user=nobody' --pg "$ci"
	is "$rc:$(cat "$T/err"):$(clean && echo clean):$(measured)" "0::clean:1" "exit 0, no password anywhere: $ci"
	is "$(argv_line)" "# pb-run: $V pb-run --pg user=nobody --pg $shown" \
		"provenance: both conninfos, without their passwords: $ci"
	like "$(meta conninfo "$T/out")" "user='pw2?'" "# conninfo: the last --pg, without its password"
done <<EOF
user=pw password=sekrit123|user=pw
password=sekrit123 user=pw|user=pw
user=pw password = sekrit123 sslpassword=ssl2nd|user=pw
user=pw2 password='sek rit\\'s 9'|user=pw2
user=pw2 password=sek\\ rit\\'s\\ 9|user=pw2
postgresql://pw:sekrit123@/postgres?host=$PGHOST|'postgresql://pw@/postgres?host=$PGHOST'
postgres://pw:sekrit123@/postgres?host=$PGHOST&sslpassword=ssl2nd|'postgres://pw@/postgres?host=$PGHOST'
postgresql://pw@/postgres?password=sekrit123&host=$PGHOST|'postgresql://pw@/postgres?host=$PGHOST'
postgresql:///postgres?host=$PGHOST&user=pw&password=sekrit123|'postgresql:///postgres?host=$PGHOST&user=pw'
postgresql:///postgres?pass%77ord=sekrit123&host=$PGHOST&user=pw|'postgresql:///postgres?host=$PGHOST&user=pw'
postgresql://pw2:sek%20rit's%209@/postgres?host=$PGHOST|'postgresql://pw2@/postgres?host=$PGHOST'
EOF

# --pg=CONNINFO, and --pg between other options
run pb-run --runs 1 --pg='password=first1' --pairs 1 --pg="$U" --sql-a 'select 1' --warmup 0 --quiet
is "$rc:$(clean && echo clean):$(measured)" "0:clean:1" "--pg=X twice, between other options: no password"
is "$(head -n 1 "$T/out" | sed 's/ --sql-a.*//')" \
	"# pb-run: $V pb-run --runs 1 --pg= --pairs 1 '--pg=postgresql://pw@/postgres?host=$PGHOST'" \
	"provenance: --pg=X redacted in place"
# A value that only looks like a conninfo (an SQL comment) is not touched.
run pb-run --pg "$U" --sql-a 'select 1 -- password=kept' --runs 1 --pairs 1 --warmup 0 --quiet
like "$(head -n 1 "$T/out")" "--sql-a 'select 1 -- password=kept'" "other arguments are left as they are"

# A failed connection says nothing of the password either.
run pb-run --pg "$U" --pg 'user=pw password=wrong1sekrit123' --sql-a 'select 1' --runs 1 --pairs 1
is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(clean && echo clean)" "1:1:clean" \
	"wrong password: exit 1, one line, no password"

# --- ps: the password leaves argv as soon as the options are read ------------
pb-run --pg "$U" --sql-a 'select pg_sleep(0.2)' --runs 1 --pairs 500 --warmup 0 --quiet \
	>"$T/bg.out" 2>"$T/bg.err" &
bg=$!
i=0
while ! grep -q '^# run:' "$T/bg.out" 2>/dev/null && [ $i -lt 300 ] && kill -0 $bg 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
args=$(tr '\0' ' ' <"/proc/$bg/cmdline" 2>/dev/null)
psargs=$(ps -o args= -p "$bg" 2>/dev/null)
kill -TERM $bg; wait $bg
if [ "${PB_VALGRIND:-0}" = 1 ]; then   # the process is valgrind, its argv its own
	skip "/proc/PID/cmdline: pb-run runs under valgrind"; skip "ps: under valgrind"
else
	like "$args" "--pg postgresql://pw@/postgres\\?host=" \
		"/proc/PID/cmdline of the running pb-run: the conninfo"
	is "$(printf '%s\n' "$args" "$psargs" | grep -c sekrit):$(printf '%s\n' "$args" "$psargs" | grep -c -- '--pg ')" 0:2 \
		"/proc/PID/cmdline and ps: no password"
fi

# --- the ways to keep it out of argv altogether --------------------------------
run env PGPASSWORD=sekrit123 pb-run --pg 'user=pw' --sql-a 'select 1' --runs 1 --pairs 1 --quiet
is "$rc:$(clean && echo clean):$(measured)" "0:clean:1" "PGPASSWORD: connects, no password in the output"
printf '*:*:*:pw:sekrit123\n' >"$T/pgpass" && chmod 600 "$T/pgpass"
run env PGPASSFILE=$T/pgpass pb-run --pg 'user=pw' --sql-a 'select 1' --runs 1 --pairs 1 --quiet
is "$rc:$(clean && echo clean):$(measured)" "0:clean:1" "a password file (PGPASSFILE): connects, no password in the output"
printf '[bench]\nuser=pw\npassword=sekrit123\n' >"$T/services"
run env PGSERVICEFILE=$T/services pb-run --pg 'service=bench' --sql-a 'select 1' --runs 1 --pairs 1 --quiet
is "$rc:$(clean && echo clean):$(meta conninfo "$T/out")" \
	"0:clean:service='bench' (password, if any, removed)" "a service file: connects, no password"

done_testing

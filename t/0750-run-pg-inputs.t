#!/bin/sh
# pb-run refuses, up front and with one line, what one line of the stream
# (STREAM_LINE_MAX, 16 MiB) cannot carry: an SQL file (--sql-a-file
# /dev/zero is read no further than the limit), a file whose escapes make
# its metadata line too long, and a command line too long for the
# provenance line. What fits exactly is taken, and pb-pair reads it back.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start

L=16777216                       # STREAM_LINE_MAX
V=$(pb-run --version | cut -d' ' -f3)
one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && echo 1; }
longest() { awk '{ if (length($0) > m) m = length($0) } END { print m }' "$1"; }
# spaces N: N blanks; tabs N: N tabs
spaces() { head -c "$1" /dev/zero | tr '\0' ' '; }
tabs() { head -c "$1" /dev/zero | tr '\0' '\t'; }
go() { run timeout -s KILL 60 pb-run --pg '' "$@" --runs 1 --pairs 1 --warmup 0 --quiet; }

# --- SQL files: the raw limit ---------------------------------------------
# "# sql_a: " is 9 bytes: a file of L - 9 bytes that needs no escapes fills
# the line exactly.
{ printf 'select 1'; spaces $((L - 9 - 8)); } >"$T/full.sql"
go --sql-a-file "$T/full.sql"
ran_ok "an SQL file of exactly the line's room: taken"
is "$(longest "$T/out")" $L "its '# sql_a:' line is $L bytes"
mv "$T/out" "$T/full.tsv"
run pb-pair "$T/full.tsv"
is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:1" "pb-pair reads that stream"
rm -f "$T/full.tsv"
printf ' ' >>"$T/full.sql"
go --sql-a-file "$T/full.sql"
is "$rc:$(one_line):$(wc -c <"$T/out" | tr -d ' ')" "1:1:0" "one byte more: exit 1, one line, no output"
is "$(cat "$T/err")" \
	"pb-run: $T/full.sql: more than $((L - 9)) bytes: an SQL file must fit in one metadata line of the stream ($L bytes)" \
	"the line names the file and the limit"
run timeout -s KILL 60 pb-run --pg '' --sql-a 'select 1' --sql-b-file "$T/full.sql" --runs 1
is "$rc:$(cat "$T/err")" \
	"1:pb-run: $T/full.sql: more than $((L - 9)) bytes: an SQL file must fit in one metadata line of the stream ($L bytes)" \
	"--sql-b-file: the same"
rm -f "$T/full.sql"
# /dev/zero: read up to the limit, not until memory runs out (1 GB of
# address space is room for the limit, not for all of /dev/zero; not
# under ASan or valgrind, which need more).
lim='ulimit -v 1000000 2>/dev/null;'
[ -n "${ASAN_OPTIONS:-}" ] || [ "${PB_VALGRIND:-0}" = 1 ] && lim=
run timeout -s KILL 60 sh -c "$lim exec pb-run --pg '' --sql-a-file /dev/zero"
is "$rc:$(one_line)" "1:1" "--sql-a-file /dev/zero: exit 1, one line"
like "$(cat "$T/err")" "^pb-run: /dev/zero: more than $((L - 9)) bytes" "... refused at the limit"

# --- SQL files: escapes count ------------------------------------------------
# A TAB is written as \t: "select 1 " and (L - 18) / 2 tabs fill the line.
k=$(((L - 18) / 2))
{ printf 'select 1 '; tabs $k; } >"$T/tabs.sql"
go --sql-a-file "$T/tabs.sql"
is "$rc:$(cat "$T/err"):$(longest "$T/out")" "0::$L" "tabs escaped to exactly the line's room: taken"
printf '\t' >>"$T/tabs.sql"
go --sql-a-file "$T/tabs.sql"
is "$rc:$(one_line):$(wc -c <"$T/out" | tr -d ' ')" "1:1:0" "one tab more: exit 1, one line, no output"
is "$(cat "$T/err")" \
	"pb-run: $T/tabs.sql: $((k + 10)) bytes, $((L + 2)) once escaped as '# sql_a:': more than one metadata line of the stream carries ($L bytes)" \
	"the line gives both sizes and the limit"
rm -f "$T/tabs.sql"

# --- the provenance line ---------------------------------------------------------
# Arguments are at most 128 KiB each on Linux, but many of them, each
# quote written as '\'', outgrow a line. That needs room for arguments
# beyond the default (ulimit -s unlimited gives 6 MB).
# provenance_args N: the arguments (into "$@" of the caller's set --) that
# make a provenance line of exactly N bytes: --setup 'true #'''...' words
# (the last --setup counts and is a shell comment: it runs).
if (ulimit -s unlimited) 2>/dev/null; then
	cat >"$T/prov.sh" <<'EOF'
# sh prov.sh N OUT: pb-run with a provenance line of N bytes, stdout to OUT
ulimit -s unlimited
n=$1 out=$2
quotes() { head -c "$1" /dev/zero | tr '\0' "'"; }
tail=" --runs 1 --pairs 1 --warmup 0 --quiet -- true"
v=$(pb-run --version | cut -d' ' -f3)
left=$((n - ${#v} - ${#tail} - 17))   # "# pb-run: V pb-run"
q=$(quotes 131000)
set --
# each word: " --setup " 9, then 'true #' 8 and 4 per quote
while [ $left -gt $((17 + 4 * 131000 + 17 + 4)) ]; do
	set -- "$@" --setup "true #$q"; left=$((left - 17 - 4 * 131000))
done
last=$((left - 17)) x=$(( (left - 17) % 4 ))
set -- "$@" --setup "true #$(quotes $((last / 4)))$(head -c $x /dev/zero | tr '\0' x)"
exec pb-run "$@" --runs 1 --pairs 1 --warmup 0 --quiet -- true >"$out"
EOF
	run timeout -s KILL 60 sh "$T/prov.sh" $L "$T/prov.tsv"
	is "$rc:$(cat "$T/err"):$(head -n 1 "$T/prov.tsv" | wc -c | tr -d ' ')" "0::$((L + 1))" \
		"a provenance line of exactly $L bytes: taken"
	run pb-pair "$T/prov.tsv"
	is "$rc:$(row_count "$T/out")" 0:1 "pb-pair reads that stream"
	rm -f "$T/prov.tsv"
	run timeout -s KILL 60 sh "$T/prov.sh" $((L + 1)) "$T/prov.tsv"
	is "$rc:$(one_line):$(wc -c <"$T/prov.tsv" | tr -d ' ')" "1:1:0" \
		"one byte more: exit 1, one line, no output"
	is "$(cat "$T/err")" \
		"pb-run: the command line is $((L + 1)) bytes as the stream's first line (# pb-run: ...): more than a line of the stream carries ($L bytes)" \
		"the line gives the size and the limit"
	rm -f "$T/prov.tsv"
else
	skip "ulimit -s unlimited refused: no room for a long command line"
	skip "..."; skip "..."; skip "..."
fi

done_testing

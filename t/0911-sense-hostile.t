#!/bin/sh
# pb-sense under attack and misuse: its comments are escaped onto one line
# (an argument cannot forge a row), its provenance line carries no --pg
# password in any spelling, --raw never writes through a planted symlink,
# and its usage errors are its own, made before anything is measured.
# Most of it runs pb-sense beside a pb-run that measures nothing (it
# writes t/data/raw-small.tsv), so no server is needed.
. "$(dirname "$0")/lib.sh"
SHARE=$(cd "$D/../../share/pb" && pwd)
mkdir "$T/stub"
ln -s "$(command -v pb-sense)" "$T/stub/pb-sense"
cat >"$T/stub/pb-run" <<EOF
#!/bin/sh
# pb-run that measures nothing; it says where it was called
grep -v '^# pb-run:' '$D/raw-small.tsv'
touch '$T/pb-run-ran'
EOF
chmod +x "$T/stub/pb-run"
stub() { PB_SHARE=$SHARE "$T/stub/pb-sense" --resamples 20 "$@"; }
prov() { grep '^# pb-sense: ' "$1" | cut -d' ' -f4-; }

# --- Comments stay comments -------------------------------------------
# A command whose text holds a newline, a forged header and a forged row
# (a here-document, so the shell never runs them): unescaped, the next
# tool would read them as the header and a row.
cmd="true <<'#X'
delay_ns	runs	seen	est	lo	hi	cross_right	combos
0	9	9	1	1	1	9	9
#X"
run pb-sense --runs 2 --pairs 2 --warmup 0 --resamples 20 --delays 0,1us -- "$cmd"
cp "$T/out" "$T/forged.tsv"
is "$rc $(grep -c '^# pb-sense: ' "$T/forged.tsv")" "0 1" "a command with newlines: exit 0, one provenance line"
like "$(prov "$T/forged.tsv")" "-- 'true <<'\\\\''#X'\\\\''\\\\ndelay_ns\\\\truns\\\\t.*\\\\n0\\\\t9\\\\t9\\\\t1.*\\\\n#X'\$" \
	"its newlines and TABs are written as backslash-n and backslash-t, inside its quotes"
is "$(rows "$T/forged.tsv" | cut -f1 | tr '\n' ' ')" "0 1000 " "the rows are the two delays' and no other"
run pb-tint --column est "$T/forged.tsv"
is "$rc $(col n 1 "$T/out")" "0 2" "pb-tint reads the output: 2 rows, none forged"
run stub --delays 0 --setup "$(printf 'a\tb\\c\rd')" -- true
is "$(prov "$T/out")" "pb-sense --delays 0 --resamples 20 --setup 'a\\tb\\\\c\\rd' -- true" \
	"a TAB, a backslash and a CR are written as backslash-t, two backslashes and backslash-r"

# --- No password in the provenance line -----------------------------------
# Every spelling libpq reads, --pg given many times, and one libpq cannot
# read; secret* must appear nowhere.
run stub --delays 0 --sql-a 'select 1' \
	--pg 'host=/tmp dbname=x password=secret1' \
	--pg "password='a b secret2' dbname=x" \
	--pg 'password = secret3 dbname=x' \
	--pg 'dbname=x password=sec\ ret4 port=5' \
	--pg=postgresql://user:secret5@host/db \
	--pg 'postgresql://host/db?sslmode=disable&password=secret6&application_name=a' \
	--pg 'postgres://h/d?pass%77ord=secret7' \
	--pg 'PassWord=secret8 dbname=x' \
	--pg "sslpassword='secret9' user=u" \
	--pg 'postgresql://u:p@ssecret10@host/db' \
	--pg postgresql://u:secret11@ \
	--pg "host='unterminated password=secret12"
is "$rc $(grep -c secret "$T/out") $(row_count "$T/out")" "0 0 1" "no password in the output, in any spelling"
is "$(prov "$T/out")" "pb-sense --delays 0 --resamples 20 --sql-a 'select 1' \
--pg 'host=/tmp dbname=x' --pg dbname=x --pg dbname=x --pg 'dbname=x port=5' \
--pg=postgresql://user@host/db --pg 'postgresql://host/db?sslmode=disable&application_name=a' \
--pg postgres://h/d --pg dbname=x --pg user=u --pg postgresql://u@host/db --pg postgresql://u@ \
--pg '(a conninfo libpq cannot read, not shown)'" \
	"each conninfo is written without its password, the rest kept"

# --- --raw never writes through a symlink ----------------------------------
mkdir "$T/raw" "$T/victim.d"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/raw/raw-0.tsv"
run stub --delays 0 --raw "$T/raw" -- true
is "$rc $(cat "$T/victim") $(row_count "$T/out")" "0 precious 1" "--raw: a planted symlink's target is left alone"
if [ -f "$T/raw/raw-0.tsv" ] && [ ! -L "$T/raw/raw-0.tsv" ] &&
   [ "$(grep -c '^1	1	measure' "$T/raw/raw-0.tsv")" = 2 ]; then
	ok "--raw: the symlink is replaced by the raw stream"
else not_ok "--raw: the symlink is replaced by the raw stream"; fi
rm "$T/raw/raw-0.tsv"
ln -s "$T/victim.d" "$T/raw/raw-0.tsv"
fails 1 "^pb-sense: $T/raw/raw-0\.tsv: a directory is in the way$" "--raw: a symlink to a directory: exit 1, one line" \
	stub --delays 0 --raw "$T/raw" -- true
is "$(ls -A "$T/victim.d" | wc -l | tr -d ' ') $(ls -A "$T/raw" | tr '\n' ' ')" "0 raw-0.tsv " \
	"... nothing written into it, no temporary directory left in DIR"
(cd "$T" && PB_SHARE=$SHARE "$T/stub/pb-sense" --resamples 20 --delays 0 --raw -dash -- true >/dev/null)
is "$?:$(ls "$T/-dash")" "0:raw-0.tsv" "--raw -dash: a directory named -dash"

# --- Usage errors are pb-sense's, before anything runs ------------------------
rm -f "$T/pb-run-ran"
fails 2 "^pb-sense: --runs wants a whole number from 2 to 100000000, not '1' \(see pb-sense --help\)$" \
	"--runs 1: exit 2, pb-sense's words" stub --delays 0,1us --runs 1 -- true
fails 2 "^pb-sense: --pairs wants a whole number from 2 to 100000000, not '1' " \
	"--pairs 1: exit 2 (a run of one pair has no interval)" stub --delays 0 --pairs 1 -- true
fails 2 "^pb-sense: --runs wants a whole number from 2 to 100000000, not '1e3' " "--runs 1e3: exit 2" \
	stub --delays 0 --runs 1e3 -- true
fails 2 "^pb-sense: --warmup wants a whole number from 0 to 100000000, not '-1' " "--warmup -1: exit 2" \
	stub --delays 0 --warmup -1 -- true
fails 2 "^pb-sense: --seed wants a whole number from 0 to 9007199254740992, not '9007199254740993' " \
	"--seed 2^53 + 1: exit 2" stub --delays 0 --seed 9007199254740993 -- true
fails 2 "^pb-sense: --order is random, alternate or blocked, not 'x' " "--order x: exit 2" \
	stub --delays 0 --order x -- true
fails 2 "^pb-sense: --timeout must be more than 0 " "--timeout 0: exit 2" stub --delays 0 --timeout 0 -- true
fails 2 "^pb-sense: option '--runs' needs a value " "--runs at the end: exit 2" stub --delays 0 --runs
fails 2 "^pb-sense: no command: give -- CMD, --worker CMD or --pg " "no command: exit 2" stub --delays 0
fails 2 "^pb-sense: choose one of: a command after --, --worker, --pg " "a worker and a command: exit 2" \
	stub --delays 0 --worker w -- true
fails 2 "^pb-sense: --pg needs --sql-a SQL " "--pg without --sql-a: exit 2" stub --delays 0 --pg x
fails 2 "^pb-sense: unexpected 'x': the command goes after -- " "a stray word: exit 2" stub --delays 0 x -- true
fails 2 "^pb-sense: unknown option '-x' " "-x: exit 2" stub --delays 0 -x -- true
fails 2 "^pb-sense: --delays: '1000ns' is a delay already in the list " "1us and 1000ns: exit 2" \
	stub --delays 1us,1000ns -- true
fails 2 "^pb-sense: --delays: bad duration ' 1us' " "a space in the list: exit 2" stub --delays '0, 1us' -- true
fails 2 "^pb-sense: --delays: bad duration '1e300s' \(such as 0, 250ns, 10us, 1\.5ms, 2s; at most 2\^62 ns\) " \
	"a delay over 2^62 ns: exit 2" stub --delays 0,1e300s -- true
fails 2 "^pb-sense: option '--quiet' takes no value " "--quiet=1: exit 2" stub --delays 0 --quiet=1 -- true
fails 2 "^pb-sense: option '--s' is ambiguous \(--seed, --setup, --sql-a, " "--s: ambiguous, not unknown" \
	stub --delays 0 --s 1 -- true
is "$(ls "$T" | grep -c '^pb-run-ran$')" 0 "none of these ran pb-run"
# what pb-run alone can refuse is said in pb-sense's words too
fails 2 "^pb-sense: --pg: [^:]*conn.* \(see pb-sense --help\)$" "a conninfo pb-run refuses: exit 2, pb-sense's line" \
	pb-sense --delays 0 --pg "host='x" --sql-a 'select 1'

done_testing

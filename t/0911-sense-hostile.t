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
REAL_RUN=$(command -v pb-run)
cat >"$T/stub/pb-run" <<EOF
#!/bin/sh
# pb-run that measures nothing (its option table is the real one); it
# says where it was called
case \$1 in --list-options) exec '$REAL_RUN' --list-options ;; esac
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
run stub --delays 0 --raw "$T/raw" -- true
refused 1 "^pb-sense: $T/raw/raw-0\.tsv: a directory is in the way$" \
	"--raw: a symlink to a directory: exit 1, one line, nothing written into it, no temporary directory left in DIR" \
	"$(ls -A "$T/victim.d" | wc -l | tr -d ' ') $(ls -A "$T/raw" | tr '\n' ' ')" "0 raw-0.tsv "
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
# the last of them, with what none of them did: run pb-run
run stub --delays 0 --s 1 -- true
refused 2 "^pb-sense: option '--s' is ambiguous \(--stat, --seed, --setup, --sql-a, " \
	"--s: ambiguous, not unknown; none of these usage errors ran pb-run" "$(ls "$T" | grep -c '^pb-run-ran$')" 0
# what pb-run alone can refuse is said in pb-sense's words too (a pb-run
# built without PostgreSQL, make musl's, refuses --pg itself)
. "$(dirname "$0")/../share/dev/pgtmp.sh"
why='[^:]*conn.*'
pb_run_has_pg || why='this pb-run was built without PostgreSQL support.*'
fails 2 "^pb-sense: --pg: $why \(see pb-sense --help\)$" "a conninfo pb-run refuses: exit 2, pb-sense's line" \
	pb-sense --delays 0 --pg "host='x" --sql-a 'select 1'

# --- pb-run's options come from pb-run ------------------------------------
# A pb-run with an option no other pb-run has: pb-sense passes it through
# (and its abbreviation) because it asks pb-run for its table
# (pb-run --list-options), it keeps no copy of its own.
mkdir "$T/newopt"
ln -s "$(command -v pb-sense)" "$T/newopt/pb-sense"
cat >"$T/newopt/pb-run" <<EOF
#!/bin/sh
case \$1 in --list-options) '$REAL_RUN' --list-options; echo --brand-new=N ; exit ;; esac
printf '%s\n' "\$@" >'$T/newopt/args'
grep -v '^# pb-run:' '$D/raw-small.tsv'
EOF
chmod +x "$T/newopt/pb-run"
run env PB_SHARE="$SHARE" "$T/newopt/pb-sense" --resamples 20 --delays 0 --brand-n 7 -- true
is "$rc $(grep -c -x -e --brand-new -e 7 "$T/newopt/args" 2>/dev/null)" "0 2" \
	"an option pb-run lists is passed through, abbreviated too: pb-sense has no copy of the table"
like "$(prov "$T/out")" ' --brand-new 7 -- true$' "... written out in full in the provenance"
is "$(grep -c 'sql-b-file' "$(command -v pb-sense)")" 1 \
	"bin/pb-sense names pb-run's options only where it refuses one (no table)"
cat >"$T/newopt/pb-run" <<'EOF'
#!/bin/sh
echo '--runs=R -r'
echo '* --pairs=P'
EOF
fails 1 "^pb-sense: pb-run --list-options wrote '\*', not an option name$" \
	"a pb-run whose table is not option names: exit 1, one line" \
	env PB_SHARE="$SHARE" "$T/newopt/pb-sense" --delays 0 --runs 2 -- true

# --- Columns by name ---------------------------------------------------------
# A raw stream with its columns in another order, B 5 ms slower than A:
# every run sees every delay, so the summary names the median of arm A's
# measured times with status 0: 1100 1200 1300 2000 2200 2300 (the
# failed B of run 2 pair 3 keeps its A), median (1300 + 2000) / 2 = 1650
# ns; 1 ms is 100 * 1e6 / 1650 = 60606.06 % of it (hand-worked).
mkdir "$T/perm"
ln -s "$(command -v pb-sense)" "$T/perm/pb-sense"
awk -F'\t' -v OFS='\t' '/^#/ { print; next }
	{ if ($3 == "measure" && $4 == "B") $7 += 5000000
	  if ($1 == 2 && $2 == 3 && $4 == "B") $8 = 1
	  print $8, $7, $6, $5, $4, $3, $2, $1 }' "$D/raw-small.tsv" >"$T/perm/raw.tsv"
cat >"$T/perm/pb-run" <<EOF
#!/bin/sh
case \$1 in --list-options) exec '$REAL_RUN' --list-options ;; esac
while [ "\$1" != --delay ]; do shift; done
case \$2 in 0) ns=0 ;; *) ns=1000000 ;; esac
sed "s/^# delay_ns: 0\\\$/# delay_ns: \$ns/" '$T/perm/raw.tsv'
EOF
chmod +x "$T/perm/pb-run"
run env PB_SHARE="$SHARE" "$T/perm/pb-sense" --resamples 20 --delays 0,1ms -- true
is "$rc $(rows "$T/out" | cut -f1-3 | tr '\t\n' ' |')" "0 0 2 2|1000000 2 2|" \
	"a raw stream whose columns are in another order: exit 0, every run sees both delays"
is "$(grep '^# sense:' "$T/out")" \
	"# sense: the bootstrap analysis resolves 1ms (60606.06% of the workload's median 1.65us), the smallest delay tried; the t analysis (per-run medians) resolves 1ms (60606.06%), the smallest delay tried; A/A: 2 of 2 runs saw an effect at delay 0, 0.1 expected by chance at level 0.95 (binomial p = 0.0025)" \
	"the summary reads the raw stream's columns by name: the median of A is 1650 ns"

done_testing

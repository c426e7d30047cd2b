#!/bin/sh
# pb-compare --export-junit: JUnit XML that the schema Jenkins and GitLab
# read accepts (t/data/junit-pb.xsd, junit-10.xsd's shape, checked with
# xmllint), whose test cases' states are the gate's exit status, and in
# which nothing of a command is written unescaped: quotes, < & >, ]]>, a
# tab, an escape, bytes that are not UTF-8, U+FFFE, a 10 kB name. The
# studies are fixed ones read back (examples/compare: A/B 95% CS 0.3077
# to 0.9598), and one live study of a second for the time it took.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ex=$top/examples/compare
xsd=$top/t/data/junit-pb.xsd
cd "$T" || exit 1
if ! command -v xmllint >/dev/null 2>&1; then
	plan 1
	skip "no xmllint (Debian package libxml2-utils; make check installs it)"
	exit 0
fi
valid() { xmllint --noout --schema "$xsd" "$1" >"$T/lint" 2>&1; }
xp() { xmllint --xpath "$1" "$2" 2>/dev/null; }
# "failures skipped errors" of the suite
counts() { echo "$(xp 'string(//testsuite/@failures)' "$1") $(xp 'string(//testsuite/@skipped)' "$1") $(xp 'string(//testsuite/@errors)' "$1")"; }

# a study whose B is a hostile command (the head's escapes: \t is a tab)
hostile=$(printf 'q'"'"'"<a&b>]]>\\t\377\376\303(\357\277\276\033[31m')
# cmd_b VALUE <raw.tsv: the stream with that command as B's
cmd_b() { V=$1 awk '/^# cmd_b: / { print "# cmd_b: " ENVIRON["V"]; next } 1'; }
mkdir h && cmd_b "$hostile" <"$ex/raw.tsv" >h/raw.tsv
run pb-compare --analyse h --no-pictures --fail-if-slower 1.02 --export-junit h.xml
if [ "$rc" = 3 ] && valid h.xml; then ok "a hostile command, slower: exit 3, valid against the schema"
else not_ok "a hostile command, slower: exit 3, valid against the schema"; diag "rc $rc" "$(head -5 "$T/lint")"; fi
is "$(counts h.xml):$(xp 'count(//testcase/failure)' h.xml)" "1 0 0:1" "  the test case failed, as exit 3 says"
is "$(xp 'string(//testcase/@name)' h.xml)" \
	"q'\"<a&b>]]>\\x09\\xff\\xfe\\xc3(\\xef\\xbf\\xbe\\x1b[31m + --delay 5.000 ms" \
	"  its name the command, what is not text as \\xNN"
lacks h.xml "$(printf '[\001-\010\033\177\377]')|]]>|<a&" "  no control byte, no raw markup in the file"
is "$(xp 'string(//failure/@message)' h.xml)" \
	"B is slower than 1.02x A: A/B 95% CS [0.3077, 0.9598] lies below 1/1.02 = 0.9804" \
	"  the message: the sentence with the interval"
is "$(xp 'string(//property[@name="ratio"]/@value)' h.xml) $(xp 'string(//property[@name="ci_lo"]/@value)' h.xml) $(xp 'string(//property[@name="ci_hi"]/@value)' h.xml) $(xp 'string(//property[@name="level"]/@value)' h.xml) $(xp 'string(//property[@name="runs"]/@value)' h.xml) $(xp 'string(//property[@name="pairs"]/@value)' h.xml) $(xp 'string(//property[@name="gate"]/@value)' h.xml)" \
	"0.5434147067186647 0.3076561331137124 0.959836361750627 0.95 12 48 --fail-if-slower 1.02" \
	"  the properties: ratio, interval, level, runs, pairs, gate"

# each gate's states against its exit status: --from, to stdout
for g in "2:0:0 1 0" "5:0:0 0 0" "2 --bisect:125:0 1 0" "1.02 --bisect:1:1 0 0" "5 --bisect:0:0 0 0"; do
	args=${g%%:*} want=${g#*:}
	# shellcheck disable=SC2086   # the gate's words
	run pb-compare --from h --export-junit - --fail-if-slower $args
	cp "$T/out" g.xml
	if valid g.xml && [ "$rc:$(counts g.xml)" = "$want" ]; then ok "--fail-if-slower $args: exit and states $want"
	else not_ok "--fail-if-slower $args: exit and states $want"; diag "got $rc:$(counts g.xml)" "$(head -3 "$T/lint")"; fi
done
run pb-compare --from h --export-junit -
cp "$T/out" none.xml
if valid none.xml && [ "$rc:$(counts none.xml):$(xp 'string(//property[@name="gate"]/@value)' none.xml)" = "0:0 0 0:none" ]
then ok "no gate: no test case fails"; else not_ok "no gate: no test case fails"; diag "$rc:$(counts none.xml)"; fi
is "$(grep -c '^<?xml' none.xml):$(grep -c 'B is slower than A$' none.xml)" "1:0" "  - is stdout, and the summary is not printed"

# a study that stopped on a tolerance of 50 %: neither within it nor
# slower than 1.5x is --tolerance's exit 4, a skipped case
mkdir tol && sed 's/^# until: parity$/# until: tolerance 50\
# tolerance: 50/' "$ex/raw.tsv" >tol/raw.tsv
run pb-compare --analyse tol --no-pictures --fail-if-slower 1.5 --export-junit tol.xml
if valid tol.xml && [ "$rc:$(counts tol.xml)" = "4:0 1 0" ]; then ok "--tolerance undecided: exit 4, skipped"
else not_ok "--tolerance undecided: exit 4, skipped"; diag "got $rc:$(counts tol.xml)"; fi
is "$(xp 'string(//skipped/@message)' tol.xml)" \
	"B is shown neither slower than 1.5x A nor within 50% of it (or faster): A/B 95% CS [0.3077, 0.9598]" \
	"  and says so"

# a 10 kB command, newline-free
long=$(awk 'BEGIN { while (n++ < 10000) printf "x" }')
mkdir l && cmd_b "$long" <"$ex/raw.tsv" >l/raw.tsv
run pb-compare --analyse l --no-pictures --export-junit l.xml --bisect --fail-if-slower 2
if [ "$rc" = 125 ] && valid l.xml; then ok "a 10 kB command: valid, skip"; else not_ok "a 10 kB command: valid, skip"; diag "rc $rc" "$(head -3 "$T/lint")"; fi
is "$(printf %s "$(xp 'string(//testcase/@name)' l.xml)" | wc -c | tr -d ' '):$(counts l.xml)" "10019:0 1 0" \
	"  its name whole (10000 + ' + --delay 5.000 ms'), skipped"

# three arms: a test case each, properties named by the candidate
mkdir a3 && cp "$top/t/data/arms/raw3.tsv" a3/raw.tsv
run pb-compare --analyse a3 --no-pictures --fail-if-slower 1.01 --export-junit a3.xml
if [ "$rc" = 3 ] && valid a3.xml; then ok "three arms: valid, exit 3"; else not_ok "three arms: valid, exit 3"; diag "rc $rc"; fi
is "$(xp 'string(//testsuite/@tests)' a3.xml):$(counts a3.xml):$(xp 'string(//testcase[failure]/@name)' a3.xml):$(xp 'string(//property[@name="C.ci_hi"]/@value)' a3.xml)" \
	"2:1 0 0:pb-workload --worker --us 100 --arm-us B=97 --arm-us C=103 (arm C):0.982709393545315" \
	"  C fails, B passes; C.ci_hi"

# live: the suite's time and timestamp
run pb-compare -b 60s -r 3 -p 2 --dir live --no-pictures --export-junit live.xml -- true true
t=$(xp 'string(//testsuite/@time)' live.xml)
if [ "$rc" = 0 ] && valid live.xml && nums "$t" && awk -v t="$t" 'BEGIN { exit !(t > 0 && t < 60) }'; then
	ok "a live study: valid, its time in seconds"; else not_ok "a live study: valid, its time in seconds"; diag "rc $rc time '$t'" "$(head -3 "$T/lint")"; fi
like "$(xp 'string(//testsuite/@timestamp)' live.xml)" '^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:.]+Z$' "  and its timestamp"
done_testing

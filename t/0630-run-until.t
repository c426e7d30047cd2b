#!/bin/sh
# pb-run --until: a study that stops as soon as the anytime-valid
# confidence sequence of the time ratio answers its question. After each
# run, '# sequential:' says where the interval stands; the last line says
# why the study stopped; pb-pair --by-run | pb-logratio | pb-tint on the
# finished stream gives the same interval to the last digit.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
# the last '# sequential: run' line's word NAME=
look() { grep '^# sequential: run ' "$2" | tail -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# --- B does 20 % less work: answered in a few runs (3 in 5 of 5 at a
# load of 3; load can only delay it, so the most is far away)
run pb-run --until parity --runs 1000 --pairs 60 --warmup 5 --seed 1 --quiet \
	--worker "$W --worker --us 500 --b-us 400"
cp "$T/out" fast.tsv
ran_ok "--until parity, B 20 % faster: exit 0, rows"
is "$(meta until fast.tsv):$(meta seq_g fast.tsv):$(meta seq_level fast.tsv):$(meta min_runs fast.tsv)" \
	"parity:25:0.95:3" "the head: the rule, g, the level, the fewest runs"
nruns=$(grep -c '^# run: ' fast.tsv)
is_count "$(grep -c '^# sequential: run ' fast.tsv)" "$nruns" "one '# sequential:' line per run"
like "$nruns" '^([3-9]|[1-9][0-9]|[1-9][0-9][0-9])$' "it stopped after 3 runs or more, before the most of 1000 ($nruns)"
like "$(tail -n 1 fast.tsv)" "^# sequential: stop after run $nruns: the interval lies above 1: B is faster \\(--until parity\\)$" \
	"the last line: why it stopped, after which run"
like "$(grep '^# sequential: run 2 ' fast.tsv)" '^# sequential: run 2 n=2 ratio=[0-9.]+ unbounded$' \
	"run 2: the sequence is still unbounded"
# same_look GOT WANT NAME: every digit; under make valgrind (memcheck's
# long double is 64 bits, and R's mean of pb-tint and pb-run's look lose
# their last bits differently) to 1e-14 of each end.
same_look() {
	if [ "${PB_VALGRIND:-0}" != 1 ]; then is "$1" "$2" "$3"; return; fi
	set -- "$1" "$2" "$3 (to 1e-14: under valgrind)"
	if awk -v g="$1" -v w="$2" 'BEGIN { split(g, a, " "); split(w, b, " ")
		for (i = 1; i <= 2; i++) { d = a[i] - b[i]; if (d < 0) d = -d
			m = b[i] < 0 ? -b[i] : b[i]; if (!(d <= 1e-14 * m) || a[i] == "") exit 1 } }'
	then ok "$3"; else not_ok "$3"; diag "got:  $1" "want: $2"; fi
}
pb-pair --by-run fast.tsv | pb-logratio | pb-tint --finding >fast.tint
same_look "$(col ratio_lo 1 fast.tint) $(col ratio_hi 1 fast.tint)" "$(look lo fast.tsv) $(look hi fast.tsv)" \
	"pb-tint on the finished study: the same interval, every digit"
is "$(meta pb-tint.method fast.tint)" sequence "  pb-tint chose the sequence by itself"
like "$(grep '^# finding:' fast.tint)" 'B took .* less time than A: .* 95% CS ' "  and its finding says CS"

# --- the threshold and half-width rules, another level and statistic
# (B does half the work: a ratio of 2 against a threshold of 1.1, which
# the means of runs disturbed by load cannot hide; 1.25 could, at a load
# of 8 on two cores)
# (each run's median: a run's mean, on a loaded machine, takes in the
# pairs a burst of load stretched, and 30 runs of musl's build at a load
# of 9 did not resolve half the work against 1.1 by means)
run pb-run --until threshold --threshold 1.1 --level 0.9 --stat median --runs 1000 --pairs 30 \
	--warmup 5 --seed 2 --quiet --worker "$W --worker --us 500 --b-us 250"
cp "$T/out" thr.tsv
is "$rc:$(meta until thr.tsv):$(meta seq_level thr.tsv)" "0:threshold 1.1:0.9" "--until threshold 1.1 at level 0.9"
like "$(tail -n 1 thr.tsv)" '^# sequential: stop after run [0-9]+: the interval is at or over the threshold \(--until threshold 1.1\)$' \
	"  answered: at or over 1.1 (B does half the work)"
pb-pair --by-run --stat median thr.tsv | pb-logratio | pb-tint >thr.tint
same_look "$(col ratio_lo 1 thr.tint) $(col ratio_hi 1 thr.tint)" "$(look lo thr.tsv) $(look hi thr.tsv)" \
	"  pb-pair --by-run --stat median | pb-logratio | pb-tint: the same interval (the head's level)"
run pb-run --until halfwidth:0.5 --stat lr-median --runs 1000 --pairs 20 --warmup 2 --seed 3 --quiet \
	--worker "$W --worker --us 200 --b-us 200"
cp "$T/out" hw.tsv
like "$rc:$(tail -n 1 hw.tsv)" '^0:# sequential: stop after run [0-9]+: the interval is within the half-width asked for \(--until halfwidth 0.5\)$' \
	"--until halfwidth:0.5 on A/A: stops when the interval is within a factor 1.5"
pb-pair --by-run --stat lr-median hw.tsv | pb-tint >hw.tint
same_look "$(col ratio_lo 1 hw.tint) $(col ratio_hi 1 hw.tint)" "$(look lo hw.tsv) $(look hi hw.tsv)" \
	"  --stat lr-median: pb-pair --by-run --stat lr-median | pb-tint agrees"

# --- --until tolerance: an equivalence margin. The workload busy-waits
# its microseconds, so A/A is a ratio of 1, and B doing ten times the
# work (or a tenth) one of 0.1 (or 10), far past the margin's 1/1.2 and
# 1.2: a load that stretches both arms alike by up to 88 ms in the median
# cannot bring it inside (2600 against 2000, 30 %, stopped at 1.2
# unanswered under make check's load; twice the work did under a musl
# build beside it). The verdicts need no particular speed, only an end:
# the runs' bound (1000) is one that only a defect reaches.
run pb-run --until tolerance --tolerance 20 --runs 1000 --pairs 20 --warmup 2 --seed 5 --quiet \
	--worker "$W --worker --us 2000"
cp "$T/out" tol-aa.tsv
is "$rc:$(meta until tol-aa.tsv):$(meta tolerance tol-aa.tsv)" "0:tolerance 20:20" \
	"--until tolerance --tolerance 20: # until: tolerance 20 and # tolerance: 20 in the head"
like "$(tail -n 1 tol-aa.tsv)" '^# sequential: stop after run [0-9]+: the interval lies within 20% of 1: B is equivalent to A within 20% \(--until tolerance 20\)$' \
	"  A/A: stopped, equivalent within 20 %"
holds "  and its last look lies inside 1/1.2 to 1.2" 'lo > 1 / 1.2 && hi < 1.2' \
	lo="$(look lo tol-aa.tsv)" hi="$(look hi tol-aa.tsv)"
pb-pair --by-run tol-aa.tsv | pb-logratio | pb-tint --finding >tol-aa.tint
is "$(meta pb-tint.tolerance tol-aa.tint):$(col verdict 1 tol-aa.tint)" "20:equivalent" \
	"  pb-tint on the finished study: the head's margin, verdict equivalent"
same_look "$(col ratio_lo 1 tol-aa.tint) $(col ratio_hi 1 tol-aa.tint)" "$(look lo tol-aa.tsv) $(look hi tol-aa.tsv)" \
	"  the same interval as the last look"
like "$(grep '^# finding:' tol-aa.tint)" 'Tolerance 20%: equivalent; the interval lies within 20% of 1 \(inside 1/1.2 to 1.2\): B is equivalent to A within 20%\.' \
	"  its finding says so"
run pb-run --until tolerance --tolerance 20% --runs 1000 --pairs 20 --warmup 2 --seed 6 --quiet \
	--worker "$W --worker --us 2000 --b-us 20000"
cp "$T/out" tol-slow.tsv
like "$rc:$(meta tolerance tol-slow.tsv):$(tail -n 1 tol-slow.tsv)" '^0:20:# sequential: stop after run [0-9]+: the interval lies below 1/1.2: B is slower by more than 20% \(--until tolerance 20\)$' \
	"B ten times as slow, --tolerance 20%: stopped, slower by more than 20 %"
pb-pair --by-run tol-slow.tsv | pb-logratio | pb-tint >tol-slow.tint
is "$(col verdict 1 tol-slow.tint)" slower "  pb-tint's verdict: slower"
run pb-run --until tolerance --tolerance 20 --runs 1000 --pairs 20 --warmup 2 --seed 7 --quiet \
	--worker "$W --worker --us 20000 --b-us 2000"
like "$rc:$(tail -n 1 "$T/out")" '^0:# sequential: stop after run [0-9]+: the interval lies above 1.2: B is faster by more than 20% \(--until tolerance 20\)$' \
	"B ten times as fast: stopped, faster by more than 20 %"

# --- A/A to the most runs: it may stop (at most 5 % of such studies do,
# by design), but what it says must hold together
run pb-run --until parity --runs 4 --pairs 10 --warmup 2 --seed 4 --quiet \
	--worker "$W --worker --us 100"
cp "$T/out" aa.tsv
last=$(tail -n 1 aa.tsv)
case $last in
*"--runs 4 reached without an answer"*) ok "A/A, --runs 4: ran to the end without an answer" ;;
*"the interval lies"*) lo=$(look lo aa.tsv) hi=$(look hi aa.tsv)
	if awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l > 1 || h < 1) }'; then
		ok "A/A, --runs 4: stopped early (a false answer, allowed at 5 %), and its interval does exclude 1"
	else not_ok "A/A: stopped, but the interval $lo $hi includes 1"; fi ;;
*) not_ok "A/A, --runs 4: the last line is a stop line"; diag "$last" ;;
esac
# 3 runs (--until's fewest) to 4, each with its look
nruns=$(grep -c '^# run: ' aa.tsv)
like "$(grep -c '^# sequential: run ' aa.tsv):$nruns" '^(3:3|4:4)$' "  one look per run, 3 or 4 runs"

# --- a study without --until has none of it
run pb-run --runs 2 --pairs 2 --warmup 0 --quiet --worker "$W --worker --us 0"
is "$rc:$(row_count "$T/out"):$(grep -c '^# until:\|^# sequential:' "$T/out")" "0:8:0" \
	"without --until: 8 rows, no sequential metadata"

# --- usage
fails 2 '^pb-run: --until is parity, threshold, tolerance or halfwidth:H' "--until bogus" pb-run --until bogus -- true
fails 2 '^pb-run: --until is parity, threshold, tolerance or halfwidth:H' "--until halfwidth:0" pb-run --until halfwidth:0 -- true
fails 2 '^pb-run: --until is parity, threshold, tolerance or halfwidth:H' "--until halfwidth:1.5" pb-run --until halfwidth:1.5 -- true
fails 2 '^pb-run: --until threshold needs --threshold T' "--until threshold without a threshold" pb-run --until threshold -- true
fails 2 '^pb-run: --threshold goes with --until threshold' "--threshold with --until parity" \
	pb-run --until parity --threshold 1.1 -- true
fails 2 '^pb-run: --threshold goes with --until' "--threshold alone" pb-run --threshold 1.1 -- true
fails 2 '^pb-run: --stat goes with --until' "--stat alone" pb-run --stat mean -- true
fails 2 '^pb-run: --until tolerance needs --tolerance PCT' "--until tolerance without a margin" \
	pb-run --until tolerance -- true
fails 2 '^pb-run: --tolerance goes with --until tolerance' "--tolerance with --until parity" \
	pb-run --until parity --tolerance 2 -- true
fails 2 '^pb-run: --tolerance goes with --until \(a study' "--tolerance alone" pb-run --tolerance 2 -- true
for v in 0 100 150 -2 x 2%% '' nan; do
	fails 2 "^pb-run: --tolerance is a percentage above 0 and below 100, such as 2 for 2 %, not '$v'" \
		"--tolerance '$v'" pb-run --until tolerance --tolerance "$v" -- true
done
run pb-run --list-options
like "$(grep -- '^--until\|^--tolerance' "$T/out" | tr '\n' '|')" \
	'^--until=RULE parity threshold tolerance halfwidth:0.01\|--tolerance=PCT\|$' \
	"--list-options: tolerance among --until's rules, and --tolerance=PCT"
run pb-run --until tolerance --tolerance 0.5% --runs 3 --pairs 2 --warmup 0 --quiet -- true
is "$rc:$(meta until "$T/out"):$(meta tolerance "$T/out")" "0:tolerance 0.5:0.5" \
	"--tolerance 0.5%: # until: tolerance 0.5, # tolerance: 0.5"
fails 2 '^pb-run: --min-runs must be at least 2' "--min-runs 1" pb-run --until parity --min-runs 1 -- true
fails 2 '^pb-run: --min-runs 9 is more than --runs 5' "--min-runs > --runs" \
	pb-run --until parity --min-runs 9 --runs 5 -- true
fails 2 '^pb-run: --until stops from run 3 on: --runs 2 leaves it no choice' "--until with --runs 2" \
	pb-run --until parity --runs 2 -- true
fails 2 "^pb-run: --stat is median, mean, min, lr-median, p90, p99 or qQ" "--stat mode" \
	pb-run --until parity --stat mode -- true
fails 2 '^pb-run: --threshold is a ratio A/B: it must be > 0' "--threshold 0" \
	pb-run --until threshold --threshold 0 -- true
fails 2 '^pb-run: --until: with --seq-g 1e-20 the sequence is never bounded' "--seq-g that never bounds" \
	pb-run --until parity --seq-g 1e-20 -- true
fails 2 '^pb-run: --seq-g-note says why --seq-g is what it is: give --seq-g too' \
	"--seq-g-note without --seq-g" pb-run --until parity --seq-g-note why -- true
fails 2 '^pb-run: --seq-g-note wants a text' "--seq-g-note ''" \
	pb-run --until parity --seq-g 2 --seq-g-note '' -- true
fails 2 '^pb-run: --seq-g-note says why the t sequence.s g is what it is; the median sequence has no g' \
	"--seq-g-note with the median sequence" pb-run --until parity --sequence median --seq-g-note why -- true
fails 2 '^pb-run: --seq-g goes with --until' "--seq-g and its note without --until" \
	pb-run --seq-g 2 --seq-g-note why -- true
run pb-run --until parity --runs 8 --pairs 2 --warmup 1 --seq-g 2 --seq-g-note "$(printf 'tuned\tto 2 %%')" \
	--quiet -- true true
is "$rc:$(meta seq_g "$T/out"):$(meta seq_g.note "$T/out")" '0:2:tuned\tto 2 %' \
	"--seq-g-note: kept as # seq_g.note:, escaped as metadata is"
fails 2 '^pb-run: --until: with g 0.01 at level 0.95 the sequence is bounded from run [0-9]+ on, beyond --runs 5' \
	"--seq-g 0.01, --runs 5: bounded only later" pb-run --until parity --seq-g 0.01 --runs 5 -- true
fails 2 '^pb-run: --until follows one comparison: it takes two arms, not 3' "--until with three arms" \
	pb-run --until parity -- true true true
fails 2 '^pb-run: --until compares B with A: leave out --reference' "--until with --reference B" \
	pb-run --until parity --reference B -- true true

# --- the progress line shows the interval (on a terminal only)
if script -qc true /dev/null >/dev/null 2>&1; then
	script -qc "pb-run --until parity --runs 5 --pairs 400 --warmup 0 --worker '$W --worker --us 200 --b-us 100' >'$T/tty.tsv'" /dev/null |
		tr '\r' '\n' >tty.err
	like "$(cat tty.err)" 'run [2-5]/5 .* ratio [0-9.]+(, unbounded| \[[0-9.]+, [0-9.]+\])' "on a terminal: the progress line shows where the interval stands"
else
	skip "no util-linux script for a terminal"
fi
done_testing

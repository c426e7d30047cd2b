#!/bin/sh
# pb-compare beyond two commands: three arms (a fixed design from the
# budget, Holm-adjusted intervals, one row per candidate), a worker, and
# --calibrate (pb-sense --delays auto on A/A of the first command).
# Each study has a budget of 600 s that only a defect misses, and its
# work is bounded by --runs and --pairs (the calibration's too: 6 runs
# of --pairs pairs at each step of pb-sense's search), not by the clock.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

# --- three arms: C does half the work
run pb-compare -v -b 600s -r 5 -p 4 --dir k3 --no-pictures --no-shell -- "$W --us 2000" "$W --us 2000" "$W --us 1000"
cp "$T/out" k3.out
exited_ok "three arms: exit 0"
# (the verdicts are the load's to decide in 5 runs; the form is not)
ratio='^   ([BC] takes [0-9.]+% (more|less) time than A \([0-9.]+% to [0-9.]+% (more|less), at 95% confidence\)|[BC] is within [0-9.]+% of A: it takes from [0-9.]+% less time to [0-9.]+% more \(at 95% confidence\))$'
like "$(sed -n 1p k3.out)" '^(B is (faster|slower) than A|No difference resolved between A and B)$' "  the answer first: B's verdict,"
like "$(sed -n 2p k3.out)" "$ratio" "  B's ratio as a percentage"
like "$(sed -n 3p k3.out)" '^(C is (faster|slower) than A|No difference resolved between A and C)$' "  C's verdict"
like "$(sed -n 4p k3.out)" "$ratio" "  C's ratio as a percentage"
like "$(sed -n 5p k3.out)" '^5 runs x 4 pairs in [0-9.]+ (n|µ|m)?s; study: k3$' "  what it rests on"
like "$(grep '^plan: ' k3.out)" ', a fixed design \(3 arms: Holm-adjusted 95% intervals\), within 600\.0 s, the analysis included: ' \
	"  the plan says: a fixed design, Holm-adjusted"
is "$(meta arms k3/raw.tsv):$(grep -c '^# until: ' k3/raw.tsv 2>/dev/null)" 3:0 "  pb-run of 3 arms without --until"
like "$(grep -c '^[BC] against A: A/[BC] time ratio [0-9.]*, 95% CI ' k3.out)" '^2$' "  a line per candidate, t intervals"
like "$(sed -n 's/^# pb-tint: [^ ]* //p' k3/tint.tsv)" '--adjust holm' "  tint.tsv: pb-tint --adjust holm"
is "$(jq -r '[.comparisons[].candidate] | join(",")' k3/compare.json)" "B,C" "  compare.json: both candidates"
is "$(jq -r '.comparisons[1].ratio' k3/compare.json)" "$(col ratio 2 k3/tint.tsv)" "  C's ratio is pb-tint's"
mkdir again && cp k3/raw.tsv k3/Makefile again/ && make -s -C again >/dev/null 2>&1
same_remade again/tint.tsv k3/tint.tsv "  make -C DIR redoes it"

# --- raw.tsv alone: pb-compare --from and pb-report make what is missing
# by the one recipe (lib/recipe), so both adjust with Holm as the study did
mkdir d1 d2 && cp k3/raw.tsv d1/ && cp k3/raw.tsv d2/
run pb-compare --from d1 -v
cp "$T/out" d1.out
exited_ok "--from a directory of raw.tsv alone: exit 0"
is "$(ls d1)" raw.tsv "  it writes nothing there"
grep '^finding: ' d1.out >d1.find
# the study's, less the clauses of the warnings the summary says on lines
# of their own ("warning: B: note" is pb-tint's " Warning: arm B: note.")
sed -n 's/^warning: //p' d1.out >d1.warn
sed -n 's/^# finding: /finding: /p' k3/tint.tsv | awk 'BEGIN { while ((getline l < "d1.warn") > 0) w[++n] = l }
	{ for (i = 1; i <= n; i++) for (k = 1; k <= 2; k++) {
		c = " Warning: " (k == 1 ? "arm " : "") w[i] (w[i] ~ /[.]$/ ? "" : ".")
		while ((j = index($0, c)) > 0) $0 = substr($0, 1, j - 1) substr($0, j + length(c)) }
	  print }' >k3.find
same_file d1.find k3.find "  the findings are the study's, byte for byte, but for the warnings said on their own lines"
run pb-report -o d2.html d2
is "$rc:$(grep -c '^<html' d2.html 2>/dev/null)" 0:1 "pb-report of raw.tsv alone: exit 0, a page"
like "$(grep -c "Holm&#39;s step-down over the 2 tests" d2.html)" '^[1-9]' "  the page adjusts with Holm"
for k in 1 2; do
	ci=$(sed -n 's/^finding: .*95% CI \([0-9.]* to [0-9.]*\) .*/\1/p' d1.out | sed -n "${k}p")
	like "$(grep -c "95% CI $ci " d2.html)" '^[1-9]' "  the page gives the interval --from gives ($k: $ci)"
done

# --- --analyse: raw.tsv analysed in its directory as the study was
mkdir d3 && cp k3/raw.tsv d3/
run pb-compare --analyse d3 --no-pictures -v
exited_ok "--analyse DIR: exit 0"
same_file d3/tint.tsv k3/tint.tsv "  tint.tsv is the study's, byte for byte"
same_file d3/Makefile k3/Makefile "  and so is the Makefile"
is "$(grep -c '^finding: ' "$T/out")" 2 "  the summary gives both findings"
refuses 1 'no raw.tsv to analyse' "--analyse a directory without raw.tsv" pb-compare --analyse k3/none
refuses 2 'does not apply \(--analyse DIR analyses it again\)' "--from with --stat: usage" \
	pb-compare --from k3 --stat mean
refuses 2 '--budget does not apply' "--analyse with --budget: usage" pb-compare --analyse d3 -b 1s
# a link planted where --analyse writes is replaced, never written through
mkdir d4 && cp k3/raw.tsv d4/ && echo keep >victim
for f in Makefile summary.txt report.md compare.json tint.tsv; do ln -s ../victim "d4/$f"; done
run pb-compare --analyse d4 --no-pictures
exited_ok "--analyse over planted links: exit 0"
is "$(cat victim):$(find d4 -type l | wc -l | tr -d ' ')" "keep:0" "  no link written through, none left"
same_file d4/tint.tsv k3/tint.tsv "  and the analysis is the study's"
# a head that lies (2 arms of 3): the steps fail, --from says so and exits 1
mkdir d5 && sed 's/^# arms: 3$/# arms: 2/' k3/raw.tsv >d5/raw.tsv
run pb-compare --from d5
is "$rc:$(grep -c '^pb-compare: d5: pairs.tsv could not be made: pb-pair: ' "$T/err")" 1:1 \
	"--from a raw.tsv whose head lies: exit 1, the failing step named"
refuses 2 'analyses the raw.tsv there' "--analyse with commands: usage" pb-compare --analyse d3 -- true true

# --- a worker: the arms' words name it
run pb-compare -b 600s -r 3 -p 4 --dir wk -v --no-pictures --no-shell --worker "$W --worker --us 1000 --b-us 1000"
exited_ok "--worker: exit 0"
like "$(grep '^A  ' "$T/out")" "^A  $W --worker --us 1000 --b-us 1000 \\(arm A\\)$" "  arm A is the worker's"
fails 2 "--calibrate runs A/A of the first command" "--calibrate with --worker: usage" \
	pb-compare --calibrate --worker "$W --worker"

# --- --calibrate: a quarter of the budget on pb-sense (150 s: its search
# ends by its steps, at most 10 times A's median, long before)
run pb-compare -b 600s -r 3 -p 4 --calibrate --dir cal --no-pictures --no-shell -- "$W --us 1000" "$W --us 1000"
exited_ok "--calibrate: exit 0"
has_rows cal/sense.tsv "  sense.tsv: pb-sense's rows"
like "$(sed -n 's/^# pb-sense: [^ ]* //p' cal/sense.tsv)" '^pb-sense --delays auto --budget 150000000000 .*--runs=6 --warmup=1 --pairs=4 ' \
	"  pb-sense: a quarter of the budget, 6 runs of the study's 4 pairs"
like "$(grep '^calibration: ' "$T/out")" '^calibration: this harness (resolves [0-9.]+% here \([0-9.]+ (n|µ|m)s of [0-9.]+ (n|µ|m)s; sense\.tsv\)|resolved none of the delays tried here \(up to [0-9.]+ (n|µ|m)s\))$' \
	"  the summary says what this harness resolves here"
like "$(sed -n 's/^# pb-tint: [^ ]* //p' cal/tint.tsv)" '--sense sense\.tsv' "  pb-tint cites it (--sense)"
is "$(jq -r '.calibration | type' cal/compare.json)" object "  compare.json: calibration"
done_testing

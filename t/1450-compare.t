#!/bin/sh
# pb-compare: one study within its budget, the study directory and its
# Makefile, the summary on a pipe and on a terminal, the exports, a
# parameter scan, --fail-if-slower, an interrupt, and usage errors.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1
now_ms() { date +%s%3N; }
esc=$(printf '\033')

# --- an A/A study runs to its budget, and no further than 20 % past it
t0=$(now_ms)
run pb-compare -b 4s --dir aa --no-shell -- "$W --us 2000" "$W --us 2000"
t1=$(now_ms)
cp "$T/out" aa.out
is "$rc" 0 "A/A for 4 s: exit 0"
like "$((t1 - t0))" '^([2-3][0-9]{3}|4[0-7][0-9]{2})$' \
	"  in 2 s to 4.8 s ($((t1 - t0)) ms): the budget within 20 % (load: $(cut -d" " -f1 /proc/loadavg))"
# A machine so loaded (or slowed, make asan) that 40 pairs do not fit the
# budget gets no pilot and no pictures: the layout checks follow the plan.
case $(head -n 1 aa.out) in *'(no pilot: '*) nopilot=1; diag "no pilot: $(head -n 1 aa.out)" ;; *) nopilot=0 ;; esac
if [ "$nopilot" = 1 ]; then
	like "$(head -n 1 aa.out)" '^plan: [0-9]+ pairs? x up to [0-9]+ runs, warm-up 0 \(no pilot: the budget affords about [0-9]+ pairs; the probe: a pair [0-9.]+ .s\), stop when the 95% sequence excludes 1, within 4\.000 s$' \
		"  the plan line first, and why (no pilot)"
else
	like "$(head -n 1 aa.out)" '^plan: [0-9]+ pairs x up to [0-9]+ runs, warm-up [0-9]+ \(.*pilot: a pair [0-9.]+ .s, a run.s start .*\), stop when the 95% sequence excludes 1, within 4\.000 s$' \
		"  the plan line first, and why"
fi
like "$(grep '^B against A: ' aa.out)" '^B against A: A/B time ratio [0-9.]+, 95% CS [0-9.]+ to [0-9.]+: (no difference resolved \(the interval includes 1; the estimate alone: B takes [^)]*\)|too few runs for the sequence to bound it \(the estimate alone: B takes [^)]*\)|B takes [^:]*: B is (faster|slower))$' \
	"  the ratio, its sequence and the verdict; a direction only where the interval resolves one"
like "$(grep -c '^   median [0-9.]* .s  IQR ' aa.out)" '^2$' "  a median and IQR per arm, in human units"
like "$(grep '^[0-9]* runs x ' aa.out)" '^[0-9]+ runs x [0-9]+ pairs \(warm-up [0-9]+\) in [0-9.]+ s of a 4\.000 s budget; stop after run' \
	"  runs x pairs and the wall time of the budget"
like "$(grep '^finding: ' aa.out)" '^finding: .*A/B time ratio' "  pb-tint's finding"
is "$(tail -n 1 aa.out)" "study: aa" "  the study directory last"
if grep -q "$esc" aa.out || grep -q "$(printf '\r')" aa.out; then
	not_ok "  on a pipe: no colour and no progress"; else ok "  on a pipe: no colour and no progress"; fi
# (command mode: CPU time and peak memory have runs-* and tint-* files of their own)
use="runs-cpu.tsv runs-memory.tsv"
if [ "$nopilot" = 1 ]; then want="Makefile check.tsv compare.json pairs.tsv raw.tsv report.md $use runs.tsv summary.txt tint-cpu.tsv tint-memory.tsv tint.tsv "
else want="Makefile check.tsv compare.json pairs.svg pairs.tsv pilot.tsv plan.tsv raw.tsv report.md $use runs.svg runs.tsv summary.txt tint-cpu.tsv tint-memory.tsv tint.tsv trend.svg "; fi
is "$(cd aa && ls | tr '\n' ' ')" "$want" "the study directory holds exactly its files"
is "$(head -n 1 aa/summary.txt)" "$(head -n 1 aa.out)" "summary.txt: the summary printed"
like "$(sed -n 's/^# until: //p' aa/raw.tsv)" '^parity$' "raw.tsv is pb-run --until parity's"
if [ "$nopilot" = 1 ]; then skip "no pilot"; else
	like "$(grep -c '^# run: ' aa/pilot.tsv)" '^3$' "pilot.tsv: the pilot's 3 runs, kept apart"; fi

# --- the Makefile redoes the analysis byte for byte
mkdir again && cp aa/raw.tsv aa/Makefile again/ && for f in pilot.tsv plan.tsv; do [ ! -f aa/$f ] || cp aa/$f again/; done
run make -s -C again
is "$rc" 0 "make -C DIR: exit 0"
for f in pairs.tsv runs.tsv check.tsv tint.tsv report.md; do
	case $f in   # the means (R's long double) differ in their last bit under valgrind
	tint.tsv|report.md) same_remade again/$f aa/$f "  $f made again, the same bytes" ;;
	*) same_file again/$f aa/$f "  $f made again, the same bytes" ;;
	esac
done
run pb-compare --from aa
is "$rc:$(grep -c . "$T/out")" "0:$(($(grep -c . aa.out) - 2))" \
	"--from DIR: the summary again (without the plan and directory lines)"

# --- exports
is "$(jq -r '[.schema, .exit_status, .partial, (.arms|length), .comparisons[0].reference,
	.comparisons[0].candidate, (.comparisons[0].ratio|type), (.budget_ns|type), .design.until] | @tsv' aa/compare.json)" \
	"$(printf '1\t0\tfalse\t2\tA\tB\tnumber\tnumber\tparity')" "compare.json: the schema's keys (jq)"
is "$(jq -r '.comparisons[0].ratio' aa/compare.json)" "$(awk -F'\t' '!/^#/ && h { print $9; exit } !/^#/ { h = 1 }' aa/tint.tsv)" \
	"  the ratio with every digit of tint.tsv"
run pb-compare --from aa --export-json - --export-markdown md --export-csv csv
is "$rc:$(jq -r .dir "$T/out")" "0:aa" "--export-json -: only the JSON on stdout"
is "$(sed -n 1,2p md)" "$(printf '%s\n' '| Command | Median | IQR | A/X time ratio | 95% CS | Verdict | CPU time | Peak memory |' '|:---|---:|---:|---:|:---|:---|---:|---:|')" \
	"--export-markdown: a table hyperfine users paste"
like "$(sed -n 3p md)" '^\| `.*--us 2000` \(A\) \| [0-9.]+ .s \| .* \| 1 \| \| reference \| [0-9.]+ .s \| [0-9.]+ MiB( \(pb-run.s own peak\))? \|$' "  the reference's row"
is "$(head -n 1 csv | cut -d, -f1-10)" "arm,command,median_ns,q1_ns,q3_ns,ratio,ratio_lo,ratio_hi,reduction,verdict" \
	"--export-csv: the header"
is "$(awk -F, 'NR == 3 { print $1 }' csv):$(wc -l <csv | tr -d ' ')" "B:3" "  a row per arm"

# --- on a terminal: colour and a progress line; NO_COLOR
if command -v script >/dev/null 2>&1; then
	script -qc "pb-compare -b 3s --dir tty --no-shell -- '$W --us 2000' '$W --us 2200'" /dev/null >tty.out 2>&1
	if grep -q "${esc}\[1m" tty.out; then ok "under a terminal: colour"; else not_ok "under a terminal: colour"; fi
	like "$(tr '\r' '\n' <tty.out | grep -c 'pb-compare: run [0-9]* of up to')" '^[1-9][0-9]*$' "  and a progress line"
	NO_COLOR=1 script -qc "pb-compare -b 3s --dir tty2 --no-shell -- '$W --us 2000' '$W --us 2200'" /dev/null >tty2.out 2>&1
	if grep -q "${esc}\[[0-9]*m" tty2.out; then not_ok "  NO_COLOR: none"; else ok "  NO_COLOR: none"; fi
	run pb-compare --color always --from aa
	if grep -q "${esc}\[1m" "$T/out"; then ok "--color always on a pipe: colour"; else not_ok "--color always on a pipe: colour"; fi
else
	skip "no script(1)"; skip "no script(1)"; skip "no script(1)"; skip "no script(1)"
fi

# --- a known regression: B 30 ms slower (pb-run --delay, passed through); exit 3
run pb-compare -r 10 -p 3 --dir slow --fail-if-slower 1.1 --delay 30ms --no-shell -- "$W --us 2000" "$W --us 2000"
is "$rc" 3 "--fail-if-slower 1.1 on a regression of 30 ms: exit 3"
like "$(sed -n 's/^# until: //p' slow/raw.tsv)" '^threshold 0\.909090909' \
	"  the sequence stops on the gate's question: resolved against 1/1.1"
like "$(cat "$T/out")" 'slower than --fail-if-slower 1\.1 with confidence' "  the summary says why"
is "$(jq -r '.exit_status, .comparisons[0].slower_than_fail' slow/compare.json | tr '\n' ' ')" "3 true " \
	"  and compare.json"
run pb-compare --from slow --fail-if-slower 50
is "$rc" 0 "  --fail-if-slower 50 on the same study: exit 0"
like "$(cat "$T/out")" '--fail-if-slower 50: passed, B is not shown to take 50 times A.s time or more' \
	"  and the summary says the gate passed"

# --- a parameter scan: one study per value
run pb-compare -b 3s --dir scan -P us 2000,3000 --no-shell -- "$W --us 2000" "$W --us {us}"
is "$rc" 0 "-P us 2000,3000: exit 0"; [ "$rc" = 0 ] || diag "$(cat "$T/err")"
is "$(cd scan && ls | tr '\n' ' ')" "compare.json report.md summary.txt us=2000 us=3000 " "  a directory per value, a summary of all"
is "$(jq -r '.parameter, (.studies|length), .studies[1].value, .studies[1].arms[1].command' scan/compare.json | tr '\n' '|')" \
	"us|2|us=3000|$W --us 3000|" "  {us} replaced in each study's commands"
like "$(grep -c '^| `us=' scan/report.md)" '^4$' "  report.md: a row per arm and value"

# --- an interrupt keeps what was measured and says partial
# (a budget long enough for a slow build: under make asan on a loaded
# machine the study of a 30 s budget once ended before it was seen)
# Under make valgrind the pilot takes most of a budget of 120 s and the
# study ended before the signal once: 600 s there, and the signal as soon
# as the study has rows.
ib=120s
[ "${PB_VALGRIND:-0}" = 1 ] && ib=600s
pb-compare -b $ib --dir int --no-shell -- "$W --us 2000" "$W --us 2000" >int.out 2>int.err &
pid=$!
# the study under way (raw.tsv.tmp with measured rows), then a second of
# it (not under valgrind)
i=0
while [ "$(cat int/raw.tsv.tmp 2>/dev/null | grep -c '	measure	')" -lt 4 ] && [ "$i" -lt 1800 ] &&
	kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
[ "${PB_VALGRIND:-0}" = 1 ] || sleep 1
kill -INT $pid
wait $pid
is "$?" 130 "SIGINT: exit 130"
like "$(sed -n 2p int.out)" '^partial: interrupted by SIGINT' "  the summary marked partial"
like "$(grep -c '^# interrupted: SIGINT' int/raw.tsv)" '^1$' "  raw.tsv kept, with pb-run's '# interrupted:'"
has_rows int/pairs.tsv "  and analysed"
is "$(jq -r .partial int/compare.json)" true "  compare.json: partial"
# during the pilot, before the study: a line that says nothing of it was measured
pb-compare -b 60s --dir intp --no-shell -- "$W --us 20000" "$W --us 20000" >intp.out 2>intp.err &
pid=$!
i=0
while [ ! -e intp/pilot.tsv.tmp ] && [ ! -e intp/pilot.tsv ] && [ "$i" -lt 300 ]; do sleep 0.05; i=$((i + 1)); done
kill -INT $pid
wait $pid
rc=$?
if [ -e intp/pilot.tsv ]; then
	skip "the pilot ended before the signal (a fast machine)"
else
	is "$rc:$(cat intp.err)" "130:pb-compare: interrupted during the pilot, before the study began: nothing of the study was measured" \
		"SIGINT in the pilot: exit 130 and one line that says so"
fi

# --- usage errors: one line, exit 2; refusals: exit 1
fails 2 '^pb-compare: ' "no commands: usage" pb-compare
fails 2 "--until is pb-compare's to set" "--until is refused" pb-compare --until parity -- true true
fails 2 "--color is auto, always or never" "--color bad" pb-compare --color sometimes -- true true
fails 2 "budget" "--budget 0" pb-compare --budget 0 -- true true
fails 2 "^pb-compare: --budget wants a duration such as .*, not '1m'" "--budget 1m: one line that names the option once" pb-compare --budget 1m -- true true
fails 2 "needs (NAME and LIST|a value)" "-P without NAME and LIST" pb-compare -P
fails 2 "needs NAME and LIST" "-P NAME without LIST" pb-compare -P us
fails 2 "unknown option" "an unknown option" pb-compare --no-such -- true true
fails 2 "fail-if-slower" "--fail-if-slower -1" pb-compare --fail-if-slower -1 -- true true
fails 1 "^pb-compare: aa exists: " "an existing --dir is refused" pb-compare --dir aa -- true true
fails 1 "takes about .* beyond the 100\.0 ms budget: give --budget [0-9]+s or more$" \
	"a command far slower than the budget: one line before the study" \
	pb-compare -b 100ms --dir tooslow --no-shell -- "$W --us 50000" "$W --us 50000"
fails 1 "pb-run: " "a command that fails: pb-run's message" pb-compare --dir failing -- false false
run pb-compare -b 1500ms --dir least --no-pictures --delay 250ms --no-shell -- "$W --us 1000" "$W --us 1000"
like "$rc:$(cat "$T/err")" '^0:pb-compare: a pair of observations takes .* beyond the 1\.500 s budget: it runs anyway \(give --budget [0-9]+s or more to plan for more\)$' \
	"a command slower than the budget allows, within 3 budgets: one line, then the least study"
like "$(head -n 1 "$T/out")" '^plan: 1 pair x up to 3 runs, warm-up 0 \(the least study, beyond the budget; the probe: a pair ' "  3 runs of a pair"

done_testing

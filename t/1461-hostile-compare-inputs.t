#!/bin/sh
# pb-compare against crafted inputs: a study directory whose head names an
# arm it lacks, values that would reach the study's Makefile, text that
# would reach report.md, a terminal or a CSV file unescaped, a scan value
# that fails, and the words of its refusals.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$T" || exit 1

# --- a '# reference:' or '# arms:' that is not pb-run's (item 4) ---------
# Each shape, in a directory with its analysis made (read back as it is)
# and in one with raw.tsv alone (the recipe makes the rest first): one
# line naming the file and the value, exit 1, no summary, no crash.
for line in '# reference: Z' '# reference: C' '# reference: AB' '# reference: a' \
	'# arms: 1' '# arms: 27'; do
	n_shape=$((n_shape + 1))
	rm -rf whole bare && cp -r "$top/examples/compare" whole && mkdir bare
	awk -v l="$line" 'NR == 2 { print l } 1' "$top/examples/compare/raw.tsv" >whole/raw.tsv
	cp whole/raw.tsv bare/raw.tsv
	case $line in *reference*) want="is not one of the arms \\(A to B\\)" ;;
		*) want="is not a number of arms \\(2 to 26\\)" ;; esac
	v=$(printf '%s' "$line" | sed 's/[][().*]/\\&/g')
	for d in whole bare; do
		run pb-compare --from $d
		refused 1 "^pb-compare: $d/raw\\.tsv: '$v' $want\$" \
			"--from, '$line', $d directory: one line, exit 1" "$rc" 1
	done
done
# the study's Makefile: report.md is made by pb-compare --from .
rm -rf mk && cp -r "$top/examples/compare" mk
awk 'NR == 2 { print "# reference: Z" } 1' "$top/examples/compare/raw.tsv" >mk/raw.tsv
touch -r mk/raw.tsv mk/*.tsv mk/report.md
for f in mk/*.tsv; do [ "$f" = mk/raw.tsv ] || touch -d '+1 hour' "$f"; done
rm -f mk/report.md
(cd mk && make report.md) >"$T/out" 2>"$T/err"
rc=$?
like "$rc:$(grep -c '^pb-compare:' "$T/err"):$(grep '^pb-compare:' "$T/err")" \
	"^2:1:pb-compare: \\./raw\\.tsv: '# reference: Z' is not one of the arms \\(A to B\\)\$" \
	"the Makefile's report.md rule (--from .): pb-compare's one line, make fails"

# --- values checked before anything runs (item 8) ------------------------
# A --stat with a newline would be rules of the study's Makefile; the
# values pb-compare passes to pb-run are pb-run's usage errors, said by
# pb-compare before any probe: exit 2, one line, no study directory.
nl='
'
run pb-compare -b 2s --quiet --dir st --stat "median${nl}all: evil${nl}evil:${nl}	touch pwned" -- true true
refused 2 "^pb-compare: --stat is median, mean" "--stat with a newline: usage, before anything runs" \
	"$(ls -d st pwned 2>/dev/null)" ""
for bad in "--reference=BB" "--delay-arm=Q1" "--seq-g=x" "--arms=30"; do
	run pb-compare -b 2s --quiet --dir st "$bad" -- true true
	refused 2 "^pb-compare: ${bad%%=*} (is|wants) .*'${bad#*=}' \\(see pb-compare --help\\)\$" \
		"$bad: pb-compare's usage error, no probe run" "$(ls -d st 2>/dev/null)" ""
done

# --- report.md: raw.tsv's words are text, never markup (item 9) ----------
rm -rf md && cp -r "$top/examples/compare" md
sed -e 's/^# order: .*/# order: <img src=x onerror=alert(1)>/' \
	-e 's/^# seed: .*/# seed: <script>alert(2)<\/script>/' \
	-e 's/^# start: .*/# start: [click](javascript:alert(3))/' "$top/examples/compare/raw.tsv" >md/raw.tsv
sed 's/^# pb-pair\.stat: .*/# pb-pair.stat: median <b>x<\/b> ![i](javascript:alert(4))/' \
	"$top/examples/compare/runs.tsv" >md/runs.tsv
run pb-compare --from md --export-report-md -
saved md.out
like "$rc:$(grep -c 'the arms in \\<img src=x onerror=alert\\(1\\)\\> order' md.out)" '^0:1$' \
	"report.md: '# order:' with a tag, escaped (\\<img ...\\>)"
like "$(grep -c '(seed \\<script\\>alert\\(2\\)\\</script\\>)' md.out)" '^1$' \
	"  '# seed:' with a script, escaped"
like "$(grep -c 'started \\\[click\\\]\\(javascript:alert\\(3\\)\\)\.' md.out)" '^1$' \
	"  '# start:' with a javascript: link, escaped"
like "$(grep -c 'reduced to the median \\<b\\>x\\</b\\> \\!\\\[i\\\]\\(javascript' md.out)" '^1$' \
	"  the statistic with a tag and an image, escaped"
lacks md.out '(^|[^\\])<(img|script|b|/)|[^\\]\]\(|(^|[^\\])!\[' "  no tag, link or image left unescaped"

# --- C1 controls and bytes that are not UTF-8 (item 16) ------------------
# U+009B in UTF-8 (0xc2 0x9b), a raw 0x9b, ESC and 0xff in a command: the
# summary and the CSV export show each as \xNN, and nothing else changes.
c1=$(printf '\302\233') raw=$(printf '\233') esc=$(printf '\033') ff=$(printf '\377')
rm -rf c1 && cp -r "$top/examples/compare" c1
sed "s/^# cmd_a: .*/# cmd_a: evil ${c1}31m raw ${raw}2J esc ${esc}[1m bad ${ff} ok é/" \
	"$top/examples/compare/raw.tsv" >c1/raw.tsv
want='evil \xc2\x9b31m raw \x9b2J esc \x1b[1m bad \xff ok é'
run pb-compare -v --from c1
saved c1.out
is "$rc:$(grep -F -c "A  $want" c1.out)" "0:1" "summary: C1, raw 0x9b, ESC and 0xff as \\xNN, é kept"
lacks c1.out "$c1|$raw|$esc|$ff" "  none of those bytes reaches the terminal"
run pb-compare --from c1 --export-csv -
saved c1.csv
is "$rc:$(grep -F -c "A,$want,24326525," c1.csv)" "0:1" "CSV: the command as the summary shows it"
lacks c1.csv "$c1|$raw|$esc|$ff" "  no control byte, no byte that is not UTF-8"
run pb-compare --from c1 --export-markdown -
is "$rc:$(grep -F -c "| \`$want\` (A) |" "$T/out")" "0:1" "markdown table: the same text, in a code span"

# --- pb-compare's words (item 23) ---------------------------------------
# A budget pb-run's runs cannot fill: a usage error before the probe.
run pb-compare -b 1e7s --quiet --dir st -- true true
refused 2 "^pb-compare: --budget is at most 1000000s \\(11\\.6 days\\), not '1e7s'" \
	"-b 1e7s: usage, exit 2, before the probe and the pilot" "$(ls -d st 2>/dev/null)" ""
# The sequence's level with every digit, not %g's "1".
run pb-run -r4 -p1 --until parity --level 0.99999999999 -- true true
refused 2 "^pb-run: --until: with g 25 at level 0\\.99999999999 the sequence is bounded from run [0-9]+ on, beyond --runs 4" \
	"--level 0.99999999999: said as given, not 'at level 1'" "$(ls st 2>/dev/null)" ""
rm -rf st && run pb-compare -b 2s --quiet --dir st -r 4 --level 0.99999999999 -- true true
like "$rc:$(wc -l <"$T/err" | tr -d ' '):$(cat "$T/err")" \
	"^1:1:pb-compare: pb-run: --until: with g 25 at level 0\\.99999999999 the sequence is bounded from run [0-9]+ on" \
	"pb-compare --level 0.99999999999 -r 4: pb-run's line, named once, the level as given"
# (These studies' budgets are 600 s, which no load makes too small: a
# budget pb-run's own start-up outgrows adds a line of its own.)
# pb-run named once when it fails: B fails on its second start (the
# pilot, or the first run when the budget affords no pilot), then on its
# 60th (in the first run of 100 pairs: the probe and a pilot of at most 3
# runs of 11 pairs start it 34 times at most).
count='n=$(cat "$0.n" 2>/dev/null || echo 0); echo $((n + 1)) >"$0.n"; [ "$n" -lt "$1" ]'
printf '%s\n' "$count" >"$T/bee"
rm -rf st && run pb-compare -b 600s --quiet --dir st -- true "sh $T/bee 1"
like "$rc:$(wc -l <"$T/err" | tr -d ' '):$(cat "$T/err")" \
	'^1:1:pb-compare: pb-run( \(the pilot\))?: run 1 pair 1 \((warmup|measure)\) arm B: command exited with status 1' \
	"B fails on its second start: one line, pb-run named once"
rm -rf st "$T/bee.n" && run pb-compare -b 600s --quiet -p 100 --dir st -- true "sh $T/bee 60"
like "$rc:$(head -n 1 "$T/err")" \
	'^1:pb-compare: pb-run failed \(exit 1\): run 1 pair [0-9]+ \(measure\) arm B: command exited with status 1' \
	"B fails in the study's first run: pb-run named once"

# --- a scan whose values fail (item 12) ---------------------------------
# Checked before anything runs: a value too long to name NAME=VALUE, a
# pb-run option that is bad once {NAME} is replaced.
long=$(awk 'BEGIN { while (n++ < 300) printf "x" }')
run pb-compare -b 2s --quiet --dir scan -P n "1,$long" -- 'true {n}' true
refused 2 "^pb-compare: --parameter-scan: the value 'x{40}\\.\\.\\.' is too long to name a directory \\(n=VALUE: 255 bytes at most\\)" \
	"-P with a value of 300 bytes: usage, no study run" "$(ls -d scan 2>/dev/null)" ""
run pb-compare -b 2s --quiet --dir scan -P n 1,2 --timeout '{n}x' -- 'true {n}' true
refused 2 "^pb-compare: --timeout wants a duration .*, not '1x'" \
	"-P with --timeout '{n}x': the option with each value checked, before any study" \
	"$(ls -d scan 2>/dev/null)" ""
# A value whose probe fails: said in one line, recorded as failed with
# nothing measured, and the scan goes on; every file of the scan written.
run pb-compare -b 600s -r 3 -p 2 --quiet --dir scan --export-json scan.json -P n 1,2,3 -- \
	'test {n} -ne 2' true
like "$rc:$(grep -c '' "$T/err"):$(cat "$T/err")" \
	'^1:1:pb-compare: pb-run: run 1 pair 1 \(measure\) arm A: command exited with status 1' \
	"-P n 1,2,3, n=2's probe fails: its one line, exit 1"
like "$(grep -c '^n=[13]$' "$T/out"):$(grep -c '; study: scan/n=[13]$' "$T/out"):$(grep -A1 '^n=2$' "$T/out" | sed -n 2p)" \
	'^2:2:failed: pb-run: run 1 pair 1 \(measure\) arm A: .*; nothing was measured$' \
	"  the summary: n=1 and n=3 measured, n=2 failed"
is "$(jq -r '[.studies[] | .value + ":" + (.failed // "-" | .[0:6]) + ":" + (.arms | length | tostring)] | join(" ")' scan/compare.json 2>&1)" \
	"n=1:-:2 n=2:pb-run:0 n=3:-:2" "  compare.json: the three, n=2 failed with no arms"
same_file scan/compare.json scan.json "  --export-json written, the same"
like "$(grep -c '^- `n=2`: failed, nothing was measured: pb-run: run 1 pair 1 \\(measure\\)' scan/report.md 2>&1):$(grep -c '^n=2$' scan/summary.txt 2>&1)" \
	'^1:1$' "  report.md and summary.txt record n=2"

done_testing

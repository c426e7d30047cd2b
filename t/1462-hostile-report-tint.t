#!/bin/sh
# Issue 27's second hostile pass, items 2, 7, 14, 18 and 23's pb-tint
# part: pb-report's page never written through what stands at
# DIR/report.html, a picture's root kept in its box; pb-tint's sequence
# refused beyond a double as its t interval is, one line for --group;
# pb-compare's analysis reserve priced from what the pilot's tools cost.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
cd "$T" || exit 1

# --- item 2: DIR/report.html is replaced, never written through ------------------
# page_at DIR: DIR/report.html is a regular file (not a link), the whole page
page_at() {
	[ -f "$1/report.html" ] && [ ! -L "$1/report.html" ] &&
	[ "$(head -n 1 "$1/report.html")" = "<!DOCTYPE html>" ] && grep -q '^</html>$' "$1/report.html"
}
# report_over KIND NAME: a study whose report.html is KIND (made by the
# commands after it); pb-report must end (a KILL after 120 s is only a
# net: a FIFO opened for writing blocks for ever) with exit 0, the page
# put in place of what stood there, no temporary file left in DIR, and
# nothing outside the directory written
report_over() {
	_name=$1
	shift
	rm -rf s outside.fifo outside.txt
	mkdir s
	cp "$top/examples/compare/pairs.tsv" s/
	"$@"
	run timeout -s KILL 120 pb-report --no-derive s
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && page_at s &&
	   [ "$(ls -A s | tr '\n' ' ')" = "pairs.tsv report.html " ] &&
	   { [ ! -e outside.fifo ] || [ -p outside.fifo ]; } &&
	   { [ ! -e outside.txt ] || [ "$(cat outside.txt)" = old ]; }; then ok "$_name"
	else not_ok "$_name"; diag "status $rc, stderr: $(cat "$T/err")" "$(ls -l s/report.html 2>&1)"; fi
}
report_over "report.html a FIFO: the page replaces it, no hang" mkfifo s/report.html
fifo_link() { mkfifo outside.fifo && ln -s ../outside.fifo s/report.html; }
report_over "report.html a link to a FIFO outside: the link replaced, the FIFO untouched" fifo_link
report_over "report.html a link to /dev/null: the link replaced by the page" ln -s /dev/null s/report.html
file_link() { echo old >outside.txt && ln -s ../outside.txt s/report.html; }
report_over "report.html a link to a file outside: that file keeps its bytes" file_link

# --- item 18: a picture's root stays in its box ------------------------------------
S='<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"'
# picture NAME WHY ROOT_ATTRS: runs.svg whose root has ROOT_ATTRS is not
# embedded, for WHY, said on stderr and in the page, none of it in the page
picture() {
	rm -rf pic && mkdir pic
	cp "$top/examples/compare/pairs.tsv" pic/
	printf '%s %s><rect width="400" height="300" fill="red"/></svg>' "$S" "$3" >pic/runs.svg
	run pb-report --no-derive pic
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q "^pb-report: pic: runs.svg is not embedded: line 1: $2" "$T/err" &&
	   grep -q "<p class=\"missing\">No picture of .*runs.svg: it is not embedded: line 1: $2" \
	     pic/report.html && ! grep -q 'z-index\|fixed\|verdict faster' pic/report.html; then
		ok "$1"; else not_ok "$1"; diag "status $rc" "stderr: $(cat "$T/err")"; fi
}
picture "a style on the svg element (position:fixed over the page): not embedded" \
	"a style attribute on the svg element (it would style the page.*s box, not the drawing)" \
	'style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:99"'
picture "a STYLE in upper case on the svg element: not embedded" "a STYLE attribute on the svg element" \
	'STYLE="position:fixed;z-index:99"'
picture "a class of the page's on the svg element: not embedded" "a class attribute on the svg element" \
	'class="verdict faster"'
# A style inside the picture positions nothing (SVG's elements are not
# boxes of the page): it is kept.
rm -rf pic && mkdir pic && cp "$top/examples/compare/pairs.tsv" pic/
printf '%s overflow="visible" transform="translate(0,-400)"><rect x="-3000" y="-3000" width="9000" height="9000" style="fill:red;position:fixed"/></svg>' \
	"$S" >pic/runs.svg
run pb-report --no-derive pic
if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] &&
   grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" overflow="visible" transform="translate(0,-400)" role="img"' pic/report.html &&
   grep -q '^figure svg{[^}]*position:static;overflow:hidden;transform:none}$' pic/report.html; then
	ok "a root's overflow and transform attributes: embedded, and the page's style keeps the picture in its box"
else not_ok "a root's overflow and transform attributes: embedded, and the page's style keeps the picture in its box"
	diag "status $rc, stderr: $(cat "$T/err")"; fi

# --- item 7: a sequence still unbounded, its mean beyond a double's exp -----------
# At n = 2 the sequence (g = 25) is unbounded: no ends to check, but the
# ratio column is exp(mean). Refused as the t interval is, for --sequential
# and for a study of pb-run --until (the sequence its default).
printf 'lr\n800\n801\n' >hi.tsv
printf 'lr\n-800\n-801\n' >lo.tsv
{ echo '# until: parity'; cat hi.tsv; } >until.tsv
msg="the mean (-?800\\.5) of the log ratio is beyond \\+-709\\.78, where the ratio A/B overflows a double \\(is 'lr' a log ratio\\?\\)\$"
refuses 1 "^pb-tint: column lr: $msg" "--sequential, mean log ratio 800.5: refused, no ratio inf" \
	pb-tint --sequential hi.tsv
refuses 1 "^pb-tint: column lr: $msg" "--sequential --finding, mean -800.5: refused, no ratio 0 or reduction -inf" \
	pb-tint --sequential --finding lo.tsv
refuses 1 "^pb-tint: column lr: $msg" "'# until:' study, mean 800.5: refused, no finding cut short" \
	pb-tint --finding until.tsv
# Within a double the unbounded sequence still gives its row: 709.25's
# ratio is 1.06e308 (bc: e(709.25) = 1.0552644065332...e308).
printf 'lr\n709\n709.5\n' >edge.tsv
run pb-tint --sequential edge.tsv
near "$(col ratio 1 "$T/out")" 1.0552644065332e308 1e-12 "--sequential, mean 709.25: the ratio 1.055e308 (bc), exit 0"

# --- item 23 (pb-tint): a run that fails says one line ------------------------------
# Group x's values are all equal (a warning), group y has one value (an
# error): the error alone, not the warning of x before it.
printf 'g\tlr\nx\t0.1\nx\t0.1\ny\t0.2\n' >g-one.tsv
refuses 1 '^pb-tint: group y: only 1 value; an interval needs at least 2$' \
	"--group, x all equal and y one value: one line, y's error" pb-tint --group g g-one.tsv
printf 'g\tlr\nx\t0.1\nx\t0.1\ny\t800\ny\t801\n' >g-big.tsv
refuses 1 "^pb-tint: group y: the interval .* of the log ratio reaches beyond \\+-709\\.78" \
	"--group, x all equal and y beyond +-709.78: one line, y's error" pb-tint --group g g-big.tsv
# Each group that warns, in a run that succeeds, is still named.
printf 'g\tlr\nx\t0.1\nx\t0.1\ny\t0.2\ny\t0.2\n' >g-eq.tsv
run pb-tint --group g g-eq.tsv
is "$rc $(row_count "$T/out") $(tr '\n' '|' <"$T/err")" \
	"0 2 pb-tint: group x: all 2 values are equal (sd = 0): the interval has zero width|pb-tint: group y: all 2 values are equal (sd = 0): the interval has zero width|" \
	"--group, two groups all equal: exit 0, two rows, each group warned of"

# --- item 14: the analysis reserve, priced from the pilot's tools ------------------
# The plan says what the analysis was priced at and from what; the price
# holds together whatever the machine's pace: the reserve is 1.5 steps
# per step of the streams and 30 per picture drawn, at the step the
# pilot measured (the pricing with given numbers: t/unit/price.c). The
# study is bounded by -r and -p; its budget no load makes too small.
W=$top/examples/workload/pb-workload
run pb-compare -b 600s -r 3 -p 2 --dir priced --no-shell -- "$W --us 500" "$W --us 500"
# ns N UNIT: a duration as the plan writes it (h4ns), in ns
ns() { awk -v n="$1" -v u="$2" 'BEGIN { m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "µs" ? 1e3 : u == "ns" ? 1 : -1
	if (m < 0) exit 1; printf "%.17g\n", n * m }'; }
words=$(grep "^plan: " priced/summary.txt | sed -n 's/.*, the analysis included: \([0-9]*\) steps\( and \([0-9]\) pictures\)\{0,1\}, \([0-9.]*\) \([µmn]*s\) at the pilot.s \([0-9.]*\) \([µmn]*s\) a step$/\1 0\3 \4 \5 \6 \7/p')
# shellcheck disable=SC2086   # numbers and units, one word each
set -- $words x x x x x x
steps=$1 pics=${2#0} reserve=$(ns "$3" "$4") step=$(ns "$5" "$6")
pics=${pics:-0}
# the two durations are rounded to 4 digits: within 0.2 % of each other
holds "the plan prices the analysis: (1.5 x $steps steps + 30 x $pics pictures) x the pilot's step" \
	'rc == 0 && steps >= 4 && r > 0 && s > 0 && (r - (1.5 * steps + 30 * pics) * s) ^ 2 <= (0.002 * r) ^ 2' \
	rc="$rc" steps="$steps" pics="$pics" r="${reserve:-x}" s="${step:-x}"
is "$(ls priced 2>/dev/null | grep -c '^pilot\.tsv$\|^plan\.tsv$') $(ls priced 2>/dev/null | grep -c '\.svg$')" \
	"2 $(( ${pics:-0} + 0 ))" "  the step the pilot's plan measured; the pictures priced are drawn"

done_testing

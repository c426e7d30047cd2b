#!/bin/sh
# pb-report's page in a real browser: headless Chromium (Debian's
# chromium) loads report.html from a file, and t/1251-browser.py says
# what it saw. The page is not blank, every picture is drawn, no script
# runs, nothing is loaded but the page, and the console stays silent;
# a page of hostile values shows them as text. Two pages made to fail
# (a blank one, one with a script) show that the checks can fail. The
# screenshots are left in t/tmp/ to be looked at. Without chromium the
# test skips, unless PB_REQUIRE_BROWSER=1 (CI: .ci/run).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
RAW=$top/examples/data/raw-ab.tsv
SEE=$top/t/1251-browser.py
CHROMIUM=${PB_CHROMIUM:-chromium}
if ! command -v "$CHROMIUM" >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	if [ "${PB_REQUIRE_BROWSER:-0}" = 1 ]; then
		echo "1..1"
		echo "not ok 1 - chromium and python3 are needed (PB_REQUIRE_BROWSER=1): apt-get install chromium python3"
		exit 1
	fi
	echo "1..0 # SKIP chromium or python3 not installed (PB_REQUIRE_BROWSER=1 makes this a failure)"
	exit 0
fi
export PB_CHROMIUM="$CHROMIUM"
SHOTS=$top/t/tmp
mkdir -p "$SHOTS"

# see PAGE NAME: what the browser saw of PAGE, in $T/NAME.seen; the
# screenshot in t/tmp/1251-NAME.png
see() {
	rm -f "$SHOTS/1251-$2.png"
	python3 "$SEE" "$1" "$SHOTS/1251-$2.png" >"$T/$2.seen" 2>"$T/$2.err"
	see_rc=$?
	[ "$see_rc" -eq 0 ] || diag "$(cat "$T/$2.err")"
}
fact() { sed -n "s/^$1 //p" "$T/$2.seen"; }
# clean NAME: no script element, no request but the page, no console line
clean() {
	if [ "$(fact scripts "$1")" = 0 ] && [ "$(grep -c '^request ' "$T/$1.seen")" = 1 ] &&
	   ! grep -q '^console ' "$T/$1.seen"; then ok "$2"; else
		not_ok "$2"; diag "$(grep -E '^(scripts|request|console) ' "$T/$1.seen")"; fi
}
# drawn NAME N: N inline pictures, each of a size and of many colours
drawn() {
	if [ "$(grep -c '^svg ' "$T/$1.seen")" = "$2" ] &&
	   awk '/^svg / { if (!($3 > 200 && $4 > 150 && $5 >= 16)) bad = 1 } END { exit bad }' \
	     "$T/$1.seen"; then ok "$3"; else not_ok "$3"; diag "$(grep '^svg ' "$T/$1.seen")"; fi
}

# --- a whole study directory ----------------------------------------------------
sh "$D/report/study.sh" "$RAW" "$T/full" "$D/sense/sense.tsv" 2>"$T/study.err" &&
	pb-report --no-derive "$T/full" 2>"$T/err"
is "$? $(cat "$T/err")$(head -n 1 "$T/full/report.html")" "0 <!DOCTYPE html>" \
	"pb-report of a whole study directory"
see "$T/full/report.html" full
is "$see_rc" 0 "chromium loaded the page and took a screenshot"
if [ -s "$SHOTS/1251-full.png" ]; then ok "... a PNG written"; else not_ok "... a PNG written"; fi
is "$(fact title full)" "pb report: ./old vs ./new" "the page's title, as the browser read it"
like "$(fact colours full)" '^(6[0-4]|[1-5][0-9])$' "the page is not blank: many colours on screen"
like "$(fact height full)" '^[0-9]{4,}$' "... and it is more than a screen tall"
drawn full 4 "four pictures drawn, each of a size and of many colours"
clean full "no script, no request but the page, nothing on the console"

# --- on a 1200 px window: every chart's text at least 11 px as rendered ---------------
# (pb-plot writes 11 px at 960 px; the page shows the charts at that size,
# where a column had shrunk them to 7 px)
python3 "$SEE" "$T/full/report.html" "$SHOTS/1251-w1200.png" 1200 >"$T/w1200.seen" 2>"$T/w1200.err"
is "$?" 0 "... rendered 1200 pixels wide"
is "$(grep -c '^svgtext ' "$T/w1200.seen"):$(awk '/^svgtext / && !($3 >= 10.995) { printf "svg %s %s px; ", $2, $3 }' "$T/w1200.seen")" "4:" \
	"... the text of each of the four charts at least 11 px"
# the measure can fail: the same page squeezed into 700 px shrinks the text
python3 "$SEE" "$T/full/report.html" "$SHOTS/1251-w700.png" 700 >"$T/w700.seen" 2>"$T/w700.err"
is "$(awk '/^svgtext / && $3 < 10 { n++ } END { print n + 0 }' "$T/w700.seen")" 4 \
	"... and at 700 px, where they must shrink, the measure sees it"

# --- raw.tsv alone, a narrow screen ---------------------------------------------------
mkdir "$T/raw"
cp "$RAW" "$T/raw/raw.tsv"
pb-report "$T/raw" 2>"$T/err"
is "$? $(cat "$T/err")$(head -n 1 "$T/raw/report.html")" "0 <!DOCTYPE html>" "pb-report of raw.tsv alone"
python3 "$SEE" "$T/raw/report.html" "$SHOTS/1251-narrow.png" 800 >"$T/narrow.seen" 2>"$T/narrow.err"
is "$?" 0 "... rendered 800 pixels wide"
drawn narrow 3 "... its three pictures drawn for the page, one above the other"
clean narrow "... silent"

# --- hostile values ----------------------------------------------------------------
mkdir "$T/bad"
awk 'NR == 3 { print "# cmd_a: <script>alert(1)</script>"; next }
	NR == 4 { print "# cmd_b: \"q\" & '"'"'x'"'"' </pre> <img src=x onerror=alert(2)>"; next }
	{ print }' "$RAW" >"$T/bad/raw.tsv"
pb-report "$T/bad" 2>"$T/err"
is "$? $(cat "$T/err")$(head -n 1 "$T/bad/report.html")" "0 <!DOCTYPE html>" "pb-report of hostile values"
see "$T/bad/report.html" bad
is "$(fact title bad)" "pb report: <script>alert(1)</script> vs \"q\" & 'x' </pre> <img src=x onerror=alert(2)>" \
	"the browser reads the values as text: the title is the commands as written"
clean bad "... no script, no image loaded, nothing on the console"
drawn bad 3 "... and the pictures drawn"

# --- the checks can fail ------------------------------------------------------------
printf '<!DOCTYPE html><html><head><title>blank</title></head><body></body></html>\n' >"$T/blank.html"
see "$T/blank.html" blank
is "$(fact colours blank)" 1 "a blank page is seen as one colour"
sed 's|</body>|<script>console.error("x")</script><img src="http://192.0.2.1/x.png"></body>|' \
	"$T/full/report.html" >"$T/scripted.html"
see "$T/scripted.html" scripted
is "$(fact scripts scripted)" 1 "a page with a script: the script is seen"
like "$(grep '^console error' "$T/scripted.seen")" \
	"Executing inline script violates the following Content Security Policy" \
	"... the policy refuses it, and the console says so"
like "$(grep '^request ' "$T/scripted.seen" | sed 1d)" '^request http://192\.0\.2\.1/x\.png$' \
	"... and an image from the network is seen as a request"
done_testing

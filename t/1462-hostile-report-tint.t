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
# put in place of what stood there, and nothing outside the directory
# written
report_over() {
	_name=$1
	shift
	rm -rf s outside.fifo outside.txt
	mkdir s
	cp "$top/examples/compare/pairs.tsv" s/
	"$@"
	run timeout -s KILL 120 pb-report --no-derive s
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && page_at s &&
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
ls -A s >"$T/left"
is "$(cat "$T/left" | tr '\n' ' ')" "pairs.tsv report.html " "... and no temporary file is left in DIR"

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

done_testing

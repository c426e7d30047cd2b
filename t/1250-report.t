#!/bin/sh
# pb-report: the page of a whole study directory (made by the real tools,
# t/data/report/study.sh), of a raw stream alone (the rest made for the
# page and cleaned up), and of a small real pb-run study; the numbers it
# shows against R; hostile values escaped, hostile pictures refused or
# cleaned; what is missing said; the refusals. The page in a browser:
# t/1251-report-browser.t.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
RAW=$top/examples/data/raw-ab.tsv
W=$top/examples/workload/pb-workload
V=$(sed -n 's/^VERSION = //p' "$top/config.mk")
mkdir "$T/tmp"
export TMPDIR="$T/tmp"

# count FILE ERE: lines of FILE that match
count() { grep -Ec -- "$2" "$1"; }
# wrote PAGE NAME: the last run exited 0, said nothing, and PAGE is an
# HTML page
wrote() {
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$(head -n 1 "$1" 2>/dev/null)" = "<!DOCTYPE html>" ] &&
	   grep -q '^</html>$' "$1"; then ok "$2"; else
		not_ok "$2"; diag "status $rc, stderr: $(cat "$T/err")" "$1: $(head -c 100 "$1" 2>&1)"; fi
}

# --- a whole study directory --------------------------------------------------
sh "$D/report/study.sh" "$RAW" "$T/full" "$D/sense/sense.tsv" 2>"$T/study.err"
# its exit status, and none of the files the tools made empty
is "$?:$(cd "$T/full" && for f in pairs.tsv runs.tsv check.tsv tint.tsv plan.tsv runs.svg trend.svg pairs.svg sense.svg; do
	[ -s "$f" ] || printf '%s ' "$f"; done)" 0: "the fixture: a whole study directory made with the real tools"
run pb-report --no-derive "$T/full"
P=$T/full/report.html
wrote "$P" "a whole directory: exit 0, nothing on stderr, report.html an HTML5 page"
is "$(cat "$T/out")" "report: $T/full/report.html" "... and where the page is, one line on the standard output"
is "$(count "$P" '<meta http-equiv="Content-Security-Policy" content="default-src '"'none'"'; style-src '"'unsafe-inline'"'; img-src data:; base-uri '"'none'"'; form-action '"'none'"'">')" 1 \
	"a Content-Security-Policy that forbids scripts and every load"
is "$(count "$P" '<script')" 0 "no script element"
is "$(count "$P" '(src|href)="(https?:|//|file:)')" 0 "no reference out of the directory"
is "$(grep -o '<svg ' "$P" | wc -l | tr -d ' ')" 4 "the four pictures inline (runs, trend, pairs, sense)"
is "$(count "$P" 'Made for this page')" 0 "--no-derive on a whole directory: nothing made"
is "$(count "$P" '<p class="verdict faster">B is faster</p>')" 1 "the verdict in words: B is faster"
finding=$(sed -n 's/^# finding: //p' "$T/full/tint.tsv" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
is "$(grep -cF "<p class=\"finding\">$finding</p>" "$P")" 1 "pb-tint's finding sentence, whole"
# The estimate row: 4 significant digits of tint.tsv's ratio, its digits in the title.
ratio=$(col ratio 1 "$T/full/tint.tsv")
lo=$(col ratio_lo 1 "$T/full/tint.tsv")
is "$(count "$P" "<td class=\"n\" title=\"$ratio\">$(printf '%.3f' "$ratio")</td>")" 1 \
	"the ratio: four digits shown, every digit in its title ($ratio)"
is "$(count "$P" "<td class=\"n\" title=\"$lo\">1.027</td>")" 1 "its lower end 1.027"
# B against A in percent, from the ratio: 100 (1/1.031... - 1), R:
#   Rscript -e 'r <- 1.03101; signif(100*(1/r-1),4)'  (the digits of tint.tsv: -3.008)
is "$(count "$P" '<td class="n">-3.008%</td>')" 1 "B's time against A's: -3.008 %"
# Each arm, against R (quartiles of type 7 over all 1000 pairs):
#   grep -v '^#' pairs.tsv | Rscript -e 'x <- read.delim(file("stdin"));
#     quantile(x$a, c(.25,.5,.75)); quantile(x$b, c(.25,.5,.75))'
#   a: 931894.00 1048668.00 1155645.75   b: 900676.75 1021882.50 1120695.25
is "$(count "$P" '<tr><th>A</th><td class="mono">./old</td><td class="n">1.049 ms</td><td class="n wrap">931.9 µs – 1.156 ms</td>')" 1 \
	"arm A: median 1.049 ms, middle half 931.9 µs – 1.156 ms (R)"
is "$(count "$P" '<tr><th>B</th><td class="mono">./new</td><td class="n">1.022 ms</td><td class="n wrap">900.7 µs – 1.121 ms</td>')" 1 \
	"arm B: median 1.022 ms, middle half 900.7 µs – 1.121 ms (R)"
is "$(grep -c '^<tr><td>[0-9]*</td><td class="n">100</td>' "$P")" 10 "the runs: ten rows of 100 pairs"
# (check.tsv warns: carry_b, below; two counts of 0 would prove nothing)
warns=$(grep -c '	warn	' "$T/full/check.tsv")
is "$(count "$P" '<td class="status-warn">warn</td>'):$([ "$warns" -gt 0 ] && echo some)" "$warns:some" \
	"every warning of check.tsv in the table of checks"
like "$(grep -A3 'pb-check warns' "$P")" 'carry_b' "... and above, beside the finding"
is "$(count "$P" '^<tr><td class="n" title="[0-9]+">[0-9.]+ (n|µ|m)?s</td><td class="n">[0-9] of 4</td>')" 6 \
	"the calibration: the six delays of sense.tsv"
is "$(count "$P" '<td>this study</td><td class="n">10</td><td class="n">100</td>')" 1 "the plan: the current design, named this study"
is "$(count "$P" "<li><code># pb-tint: $V pb-tint --finding --check check.tsv runs.tsv</code></li>")" 1 \
	"the provenance: the lines of the chain as written"
is "$(count "$P" '<dt>cmd_a</dt><dd class="mono">./old</dd>')" 1 "... and the study's head"
links=
for f in raw.tsv pairs.tsv runs.tsv tint.tsv check.tsv sense.tsv plan.tsv; do
	links="$links$(count "$P" "<a href=\"$f\">$f</a>")"
done
is "$links" 1111111 "relative links to the streams beside it"
is "$(count "$P" '<a href="runs.svg">runs.svg</a>')" 2 "... and to the pictures (caption, list of files)"
is "$(count "$P" '<td>summary.txt</td>.*missing')" 1 "a file the layout has and the directory lacks: missing"

# --- a raw stream alone: the rest made for the page ----------------------------
mkdir "$T/raw"
cp "$RAW" "$T/raw/raw.tsv"
run pb-report "$T/raw"
P=$T/raw/report.html
wrote "$P" "raw.tsv alone: exit 0, nothing on stderr, a page"
is "$(ls "$T/raw" | tr '\n' ' ')" "raw.tsv report.html " "... only report.html written beside it"
# the runs measured, not the head's '# runs:' (the most: --until and
# --max-time stop a study earlier)
# no warning, but checks not made: not "every check is ok" (warmup the
# one n/a: env is n/a too on a stream that records no machine)
mkdir "$T/na"
cp "$T/full/"*.tsv "$T/na/"
awk -F'\t' -v OFS='\t' '!/^#/ && ($2 == "warn" || $2 == "n/a") { $2 = "ok" } NR > 0 && !/^#/ && $1 == "warmup" { $2 = "n/a" } 1' \
	"$T/full/check.tsv" >"$T/na/check.tsv"
run pb-report --no-derive "$T/na"
is "$rc:$(grep -c 'every check of the evidence is ok' "$T/na/report.html"):$(grep -c 'pb-check warned of nothing, but 1 of its [0-9]* checks could not be made' "$T/na/report.html")" "0:0:1" \
	"no warning but a check not made (n/a): the page says so, not that every check is ok"
mkdir "$T/fewer"
sed 's/^# runs: .*/# runs: 99/' "$RAW" >"$T/fewer/raw.tsv"
run pb-report "$T/fewer"
is "$rc:$(grep -c ' 99 runs ' "$T/fewer/report.html"):$(grep -c " $(pb-pair --by-run "$RAW" 2>/dev/null | rows | wc -l | tr -d ' ') runs × " "$T/fewer/report.html")" "0:0:1" \
	"the heading counts the runs measured, not the most the head allowed"
is "$(ls -A "$T/tmp" | wc -l | tr -d ' ') $(grep -c 'Made for this page' "$P")" "0 3" \
	"... the finding, checks and plan made for it, its temporary directory removed"
is "$(grep -o '<svg ' "$P" | wc -l | tr -d ' ')" 3 "... three pictures drawn (no calibration to draw)"
is "$(count "$P" '<td class="n" title="[^"]*">1.031</td>')" 1 "... the same ratio as the whole directory's"
is "$(count "$P" 'Made for this page: <code>pb-tint --finding --check check.tsv runs.tsv</code>')" 1 \
	"... and it says how the finding was made"
is "$(count "$P" 'No calibration in this directory: sense.tsv is missing')" 1 "... and that there is no calibration"
run pb-report --no-derive -o - "$T/raw"
wrote "$T/out" "--no-derive -o -: exit 0, the page on the standard output"
lacks "$T/out" '^report: ' "... with no line of where it is: the page is the output"
is "$(count "$T/out" '^<p class="missing">No finding: tint.tsv is missing')" 1 \
	"--no-derive: the page says the finding is missing"
is "$(grep -c '<svg ' "$T/out") $(count "$T/out" 'No picture of .*runs.svg is missing')" "0 1" \
	"... and draws nothing"
# -o onto what is not a regular file (/dev/null, a pipe): written to it,
# never replaced by a renamed file (a FIFO here, not the machine's /dev/null)
mkfifo "$T/fifo"
timeout 600 cat "$T/fifo" >"$T/from-fifo" &
reader=$!
run pb-report --no-derive -o "$T/fifo" "$T/raw"
# a pb-report that never opened the FIFO left cat waiting for a writer
# (or not yet there): opened read-write (Linux: no wait), it gets one,
# and then its end
while kill -0 "$reader" 2>/dev/null; do : <>"$T/fifo"; sleep 0.1; done
wait
is "$rc:$([ -p "$T/fifo" ] && echo fifo):$(count "$T/from-fifo" '^<p class="missing">No finding')" "0:fifo:1" \
	"-o a FIFO: the page goes through it, and the FIFO is still a FIFO"
fails 1 "^pb-report: $T: a directory: give -o a file name\$" "-o a directory: refused" \
	pb-report --no-derive -o "$T" "$T/raw"

# --- a small real pb-run study ------------------------------------------------
# In worker mode (no process start in the time): B's 800 us against A's 200 us.
if pb-run --runs 6 --pairs 20 --warmup 2 --seed 3 --quiet --no-shell \
	--worker "$W --worker --us 200 --b-us 800" >"$T/run.tsv" 2>"$T/run.err"; then
	mkdir "$T/real"
	mv "$T/run.tsv" "$T/real/raw.tsv"
	run pb-report "$T/real"
	wrote "$T/real/report.html" "a real pb-run study: exit 0, nothing on stderr, a page"
	is "$(count "$T/real/report.html" '<p class="verdict slower">B is slower</p>')" 1 \
		"... B (800 us) slower than A (200 us)"
	is "$(count "$T/real/report.html" "^<h1>Worker <span class=\"mono\">$W --worker --us 200 --b-us 800</span>: A vs B</h1>")" 1 \
		"... the worker named in the heading"
	is "$(count "$T/real/report.html" "<dt>host</dt><dd class=\"mono\">$(uname -n)</dd>")" 1 \
		"... its head: the host"
else
	not_ok "pb-run made the small study"; diag "$(cat "$T/run.err")"
fi

# In command mode pb-run measures CPU time and peak memory too: the page
# says them in the summary's words (lib/summary).
if pb-run --runs 3 --pairs 4 --warmup 1 --seed 3 --quiet --no-shell \
	-- "$W --us 200" "$W --us 300" >"$T/cmd.tsv" 2>"$T/run.err"; then
	mkdir "$T/cmd"
	mv "$T/cmd.tsv" "$T/cmd/raw.tsv"
	run pb-report "$T/cmd"
	wrote "$T/cmd/report.html" "a command-mode study: exit 0, nothing on stderr, a page"
	is "$(count "$T/cmd/report.html" '^<li>CPU time: A/B [0-9.]+, 95% CI [0-9.]+ to [0-9.]+: ')$(count "$T/cmd/report.html" '^<li>peak memory: A/B [0-9.]+, 95% CI ')" 11 \
		"... the CPU time and peak memory ratios, each with its interval"
else
	not_ok "pb-run made the command-mode study"; diag "$(cat "$T/run.err")"
fi

# --- pb-compare's plan.tsv is its pilot's: the study's own plan beside it --------
mkdir -p "$T/piloted"
cp "$T/full/raw.tsv" "$T/full/plan.tsv" "$T/piloted/"
cp "$T/full/raw.tsv" "$T/piloted/pilot.tsv"
run pb-report "$T/piloted"
wrote "$T/piloted/report.html" "a pilot's plan.tsv: exit 0, nothing on stderr, a page"
is "$(count "$T/piloted/report.html" '^<h3>From the pilot \(plan.tsv\), before the study</h3>$'):$(count "$T/piloted/report.html" '^<tr><td>the pilot</td>')" "1:1" \
	"... the pilot's plan, its current row named the pilot's"
is "$(count "$T/piloted/report.html" '^<h3>From this study.s own pairs: its design</h3>$'):$(count "$T/piloted/report.html" '^<tr><td>this study</td>')" "1:1" \
	"... and beside it the study's own, from its pairs"
is "$(count "$T/full/report.html" '^<tr><td>this study</td>'):$(count "$T/full/report.html" 'From the pilot')" "1:0" \
	"without a pilot: one plan, of this study"
# a pilot, and one pair per run in the study: the pilot's plan stays the pilot's
mkdir -p "$T/piloted1"
$D/../gen/synth --seed 3 --runs 6 --pairs 1 --warmup 0 >"$T/piloted1/raw.tsv"
cp "$T/full/plan.tsv" "$T/piloted1/"
cp "$T/full/raw.tsv" "$T/piloted1/pilot.tsv"
run pb-report "$T/piloted1"
is "$rc:$(count "$T/piloted1/report.html" '^<tr><td>the pilot</td>'):$(count "$T/piloted1/report.html" '<tr><td>this study</td>'):$(count "$T/piloted1/report.html" 'No plan from this study.s own pairs: each run has one pair, and the spread within runs that a plan weighs needs two or more\.')" \
	"0:1:0:1" "a pilot and one pair per run: the pilot's plan named the pilot's, and why there is no other"
# -o through a link writes the file it names and keeps the link
: >"$T/target.html"
ln -s "$T/target.html" "$T/link.html"
run pb-report -o "$T/link.html" "$T/piloted1"
is "$rc:$([ -L "$T/link.html" ] && echo link):$(head -n 1 "$T/target.html")" "0:link:<!DOCTYPE html>" \
	"-o a symbolic link: the page written through it, the link kept"
# -o the file the standard output writes: the page alone there, no line of where it is
run pb-report -o /dev/stdout "$T/piloted1"
is "$rc:$(tail -n 1 "$T/out"):$([ -L /dev/stdout ] && echo link)" "0:</html>:link" \
	"-o /dev/stdout: the page ends the output, /dev/stdout still a link"

# --- one pair per run (slow commands): what cannot be drawn, said in words -------
mkdir -p "$T/one"
$D/../gen/synth --seed 3 --runs 6 --pairs 1 --warmup 0 >"$T/one/raw.tsv"
run pb-report "$T/one"
wrote "$T/one/report.html" "one pair per run: exit 0, nothing on stderr, a page"
is "$(cat "$T/out")" "report: $T/one/report.html" "... and where it is"
# the provenance keeps each tool's 'pb-x: VERSION ...' line; no tool's message
is "$([ -s "$T/one/report.html" ] && grep -Ec 'pb-[a-z]+: [^0-9<]' "$T/one/report.html")" 0 "... no tool's error text on the page"
is "$(count "$T/one/report.html" 'No picture of Per-run intervals of the paired differences: each run has one pair, and a run&#39;s interval needs two or more\.')" 1 \
	"... the runs picture: one sentence saying why it is absent"
is "$(count "$T/one/report.html" 'No plan: each run has one pair, and the spread within runs that a plan weighs needs two or more\.')" 1 \
	"... and the plan's"
is "$(count "$T/one/report.html" '<svg')" 2 "... the two pictures that can be drawn (trend, pairs)"

# --- three arms -----------------------------------------------------------------
# t/data/arms/raw3.tsv: C has 103 us of work, B 97, A 100 (the reference)
mkdir "$T/arms"
cp "$D/arms/raw3.tsv" "$T/arms/raw.tsv"
run pb-report "$T/arms"
P=$T/arms/report.html
wrote "$P" "three arms: exit 0, nothing on stderr, a page"
is "$(grep -c '^<p class="verdict [a-z]*">' "$P") $(count "$P" '^<p class="verdict faster">B is faster</p>') $(count "$P" '^<p class="verdict slower">C is slower</p>')" \
	"2 1 1" "... a verdict for each candidate: B faster, C slower"
is "$(count "$P" '<tr><th>time ratio A/C</th>') $(count "$P" "<tr><th>C's time against A's</th>")" "1 1" \
	"... each candidate's ratio named by its arms"
is "$(count "$P" '^<h1>Worker .*: 3 arms</h1>$') $(count "$P" 'A is the reference, the other arms the candidates')" "1 1" \
	"... the heading says three arms and the reference"
mkdir "$T/cmd3"
grep -v '^# worker: ' "$D/arms/raw3.tsv" >"$T/cmd3/raw.tsv"
run pb-report "$T/cmd3"
is "$rc $(count "$T/cmd3/report.html" '^<h1>Study <span class="mono">[^<]*cmd3</span>: 3 arms</h1>$')" "0 1" \
	"three arms, no worker: the directory, then ': 3 arms' (not run together)"
is "$(grep -c '^<tr><th>[ABC]</th><td class="mono"></td><td class="n">[0-9.]* µs</td>' "$P")" 3 \
	"... each arm's median"

# --- hostile values ----------------------------------------------------------
mkdir "$T/bad"
awk 'NR == 3 { print "# cmd_a: <script>alert(1)</script>"; next }
	NR == 4 { print "# cmd_b: \"q\" & '"'"'x'"'"' </pre> <img src=x onerror=alert(2)>"
		print "# host: </dd><b>h&amp;</b>"; next } { print }' "$RAW" >"$T/bad/raw.tsv"
run pb-report "$T/bad"
P=$T/bad/report.html
wrote "$P" "hostile values in the head: exit 0, a page"
is "$(count "$P" '<script|<img|</pre>|<b>h')" 0 "no value read reaches the page as markup"
is "$(count "$P" '&lt;script&gt;alert\(1\)&lt;/script&gt;')" 4 \
	"the command escaped wherever it is shown (title, heading, arm, head)"
is "$(count "$P" '&quot;q&quot; &amp; &#39;x&#39; &lt;/pre&gt; &lt;img src=x onerror=alert\(2\)&gt;')" 4 \
	"quotes, ampersand and a </pre> escaped"
is "$(count "$P" '<dd class="mono">&lt;/dd&gt;&lt;b&gt;h&amp;amp;&lt;/b&gt;</dd>')" 1 \
	"an entity in a value is shown as written, not read as one"

# --- hostile pictures ------------------------------------------------------------
# picture NAME WHY SVG: runs.svg holding SVG is refused for WHY; the page
# says so, and holds none of it
picture() {
	rm -rf "$T/pic"
	mkdir "$T/pic"
	cp "$T/full/pairs.tsv" "$T/pic/pairs.tsv"
	printf '%s' "$3" >"$T/pic/runs.svg"
	run pb-report --no-derive "$T/pic"
	if [ "$rc" -eq 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -q "^pb-report: $T/pic: runs.svg is not embedded: line [0-9]*: $2" "$T/err" &&
	   grep -q "<p class=\"missing\">No picture of .*runs.svg: it is not embedded: line [0-9]*: $2" \
	     "$T/pic/report.html" && ! grep -q 'evil\|alert' "$T/pic/report.html"; then
		ok "$1"; else not_ok "$1"; diag "status $rc" "stderr: $(cat "$T/err")"; fi
}
S='<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9">'
picture "a script element: refused" "a script element" "$S<script>alert(1)</script></svg>"
picture "an event attribute: refused" "an event attribute (onload)" \
	"$S<rect onload=\"alert(1)\" width=\"5\" height=\"5\"/></svg>"
picture "a link out: refused" "a link out of the picture (xlink:href)" \
	"$S<use xlink:href=\"http://evil.example/x.svg#a\"/></svg>"
# The HTML parser lowers the case of an inline SVG's attribute names: HREF
# is href there, and Style is style.
picture "a link out in upper case (HREF): refused" "a link out of the picture (HREF)" \
	"$S<use HREF=\"http://evil.example/x.svg#a\"/></svg>"
picture "a style in mixed case with quotes: refused" "a style attribute with quotes or @" \
	"$S<rect Style=\"fill:red;background:'evil'\" width=\"5\" height=\"5\"/></svg>"
picture "a url() out in a style: refused" "a url() that points out of the picture" \
	"$S<rect style=\"fill:url(http://evil.example/x)\" width=\"5\" height=\"5\"/></svg>"
picture "foreignObject: refused" "a foreignObject element" \
	"$S<foreignObject><div>alert</div></foreignObject></svg>"
picture "a DOCTYPE with entities: refused" "a DOCTYPE that declares entities" \
	"<!DOCTYPE svg [<!ENTITY x \"<script>alert(1)</script>\">]>$S<text>&x;</text></svg>"
picture "not SVG at all: refused" "" "<html><body>evil</body></html>"
rm -rf "$T/pic" && mkdir "$T/pic" && cp "$T/full/pairs.tsv" "$T/pic/"
printf '%s' "$S<title>&lt;/title&gt;&lt;script&gt;alert(1)</title><defs><clipPath id=\"c\"><rect width=\"5\" height=\"5\"/></clipPath></defs><rect clip-path=\"url(#c)\" width=\"9\" height=\"9\"/><text>a &amp; &lt;/svg&gt;&lt;script&gt;</text></svg>" \
	>"$T/pic/runs.svg"
run pb-report --no-derive "$T/pic"
wrote "$T/pic/report.html" "a picture of drawing elements only: exit 0, a page"
is "$(count "$T/pic/report.html" '<clipPath id="runs-c">.*clip-path="url\(#runs-c\)".*<text>a &amp; &lt;/svg&gt;&lt;script&gt;</text></svg>')" 1 \
	"... its ids prefixed, its text escaped again, its title left out"
is "$(count "$T/pic/report.html" '<script|alert')" 0 "... nothing of the hostile title reaches the page"

# --- refusals ----------------------------------------------------------------
fails 2 '^pb-report: give one study directory \(see pb-report --help\)$' "no directory: usage, exit 2" pb-report
fails 2 '^pb-report: give one study directory \(see pb-report --help\)$' "two directories: usage, exit 2" pb-report "$T/full" "$T/raw"
fails 1 "^pb-report: $T/none: No such file or directory\$" "a directory that does not exist" pb-report "$T/none"
fails 1 "^pb-report: $RAW: not a directory \\(pb-report reads a study directory\\)\$" \
	"a file, not a directory" pb-report "$RAW"
mkdir "$T/empty"
run pb-report "$T/empty"
refused 1 "^pb-report: $T/empty: no raw.tsv \\(pb-run\\) or pairs.tsv \\(pb-pair\\): pb-report needs the study's raw or pair stream\$" \
	"a directory without raw.tsv or pairs.tsv: refused, nothing written there" "$(ls -A "$T/empty")" ""
mkdir "$T/badnum"
cp "$T/full/pairs.tsv" "$T/badnum/"
awk -F'\t' -v OFS='\t' '/^[0-9]/ { $9 = "1x" } { print }' "$T/full/tint.tsv" >"$T/badnum/tint.tsv"
line=$(grep -n '^[0-9]' "$T/badnum/tint.tsv" | head -n 1 | cut -d: -f1)
run pb-report --no-derive "$T/badnum"
refused 1 "^pb-report: $T/badnum/tint.tsv:${line:-?}: column 'ratio': not a number: '1x'\$" \
	"a field that is not a number: file, line and column; no report.html, no temporary file left" \
	"$(ls -A "$T/badnum" | tr '\n' ' ')" "pairs.tsv tint.tsv "
mkdir "$T/edge"
cp "$T/full/pairs.tsv" "$T/edge/"
awk -F'\t' -v OFS='\t' '/^[0-9]/ { $9 = "1e-320"; $10 = "0"; $11 = "1e308" } { print }' \
	"$T/full/tint.tsv" >"$T/edge/tint.tsv"
run pb-report --no-derive -o - "$T/edge"
wrote "$T/out" "a ratio interval from 0 to 1e308: exit 0, a page"
is "$(grep -c '<tr><th>B.s time against A.s</th><td class="n">-100.0%</td><td class="n">—</td><td class="n">—</td></tr>' "$T/out")" 1 \
	"... B against A beyond a double shown as a dash, not as inf"
is "$(grep -Eic '[^a-z](inf|nan)[^a-z]|i\.f' "$T/out") $(grep -c '^</html>$' "$T/out")" "0 1" \
	"... no inf or nan anywhere in the page"
# A directory whose name begins with '-': its paths reach the tools that
# make what is missing as file names, not as options.
mkdir -- "$T/tmp/-dash"
cp "$RAW" "$T/tmp/-dash/raw.tsv"
( cd "$T/tmp" && pb-report -- -dash ) >"$T/out" 2>"$T/err"
rc=$?
is "$rc $(grep -c 'could not be made' "$T/err") $(head -n 1 "$T/tmp/-dash/report.html" 2>/dev/null)" "0 0 <!DOCTYPE html>" \
	"a directory named -dash: exit 0, every stream made (none taken as options)"
is "$(grep -c '<p class="verdict' "$T/tmp/-dash/report.html")" 1 "... and the page has its verdict"
rm -rf -- "$T/tmp/-dash"
done_testing

#!/bin/sh
# pb-plot: PNG and SVG files for every kind, text plots, runs from a pair
# stream and from pb-boot --group run, layering, errors (gnuplot missing
# included).
. "$(dirname "$0")/lib.sh"
PAIRS=$D/plan/balanced.tsv     # 4 runs x 5 pairs: run pair first a b d delay lr
SENSE=$D/sense/sense.tsv       # pb-sense output, 6 delays, 4 runs
export COLUMNS=100

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "1..0 # skip gnuplot not installed"
	exit 0
fi

# png FILE: the PNG signature and the IHDR size, "png 960x600"
png() {
	set -- $(od -An -tu1 -N24 "$1" 2>/dev/null)
	[ "$1 $2 $3 $4 $5 $6 $7 $8" = "137 80 78 71 13 10 26 10" ] || { echo "not png"; return; }
	echo "png $((${17} * 16777216 + ${18} * 65536 + ${19} * 256 + ${20}))x$((${21} * 16777216 + ${22} * 65536 + ${23} * 256 + ${24}))"
}
# svg FILE: "svg 960x600" when FILE holds an <svg> element of that size
svg() {
	grep -q '<svg' "$1" 2>/dev/null || { echo "not svg"; return; }
	echo "svg $(tr '\n' ' ' <"$1" | sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1x\2/p')"
}

# --- Files -------------------------------------------------------------
for kind in runs trend pairs sense; do
	in=$PAIRS
	[ "$kind" = sense ] && in=$SENSE
	run pb-plot "$kind" -o "$T/$kind.png" "$in"
	is "$rc $(png "$T/$kind.png") $(wc -c <"$T/err" | tr -d ' ')" "0 png 960x600 0" "$kind -o x.png: a 960x600 PNG, exit 0, nothing on stderr"
	run pb-plot "$kind" -o "$T/$kind.svg" "$in"
	is "$rc $(svg "$T/$kind.svg") $(wc -c <"$T/err" | tr -d ' ')" "0 svg 960x600 0" "$kind -o x.svg: a 960x600 SVG, exit 0, nothing on stderr"
	is "$(grep -c . "$T/out"):$(svg "$T/$kind.svg")" "0:svg 960x600" "$kind -o: nothing on stdout"
done
# runs from pb-boot --group run output (intervals as they are, no band)
pb-boot --group run --resamples 200 "$PAIRS" >"$T/boot.tsv"
run pb-plot runs -o "$T/boot.png" "$T/boot.tsv"
is "$rc $(png "$T/boot.png")" "0 png 960x600" "runs from pb-boot --group run output: a PNG"
pb-plot runs -o "$T/boot.svg" <"$T/boot.tsv"
like "$(cat "$T/boot.svg")" 'Per-run intervals \(median of d\)' "runs from pb-boot output on stdin: titled with the statistic and column from its metadata"
if [ "$(svg "$T/boot.svg")" != "svg 960x600" ] || grep -q "fill = 'rgb(198, 219, 239)'" "$T/boot.svg"
then not_ok "pb-boot output: no pooled band"; else ok "pb-boot output: no pooled band"; fi
if grep -q "fill = 'rgb(198, 219, 239)'" "$T/runs.svg"; then ok "a pair stream: the pooled band is drawn"; else not_ok "a pair stream: the pooled band is drawn"; fi
# The red median line of pairs is drawn over the bars, not hidden behind
# them: in SVG, what comes later is on top.
last_box=$(grep -n "fill = 'rgb( 31, 119, 180)'" "$T/pairs.svg" | tail -n 1 | cut -d: -f1)
median=$(grep -n "stroke='rgb(214,  39,  40)'" "$T/pairs.svg" | head -n 1 | cut -d: -f1)
if [ -n "$last_box" ] && [ -n "$median" ] && [ "$median" -gt "$last_box" ]; then
	ok "pairs: the median line is drawn over the bars"
else not_ok "pairs: the median line is drawn over the bars"; diag "last box line $last_box, median line $median"; fi

# --- Text plots -----------------------------------------------------------
# text KIND FILE WORDS NAME [OPTIONS]: a text plot on stdout, exit 0,
# nothing on stderr, its title words present
text() {
	kind=$1 in=$2 words=$3 name=$4
	shift 4
	run pb-plot "$kind" "$@" "$in"
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$(grep -c . "$T/out")" -gt 20 ] && grep -q -- "$words" "$T/out"; then ok "$name"
	else not_ok "$name"; diag "status $rc, $(wc -l <"$T/out") lines" "$(cat "$T/err")"; fi
}
text runs "$PAIRS" "Per-run 95% intervals of the median of d" "runs: a text plot with its title"
text trend "$PAIRS" "Paired differences in the order measured" "trend: a text plot with its title"
text pairs "$PAIRS" "Distribution of d over 20 pairs" "pairs: a text plot with its title"
text sense "$SENSE" "Sensitivity: A/A with a known delay on B (4 runs per delay)" "sense: a text plot with its title"
text runs "$T/boot.tsv" "Per-run intervals (median of d)" "runs from pb-boot output: a text plot with its title"
text runs "$PAIRS" "Per-run 50% intervals of the median of lr" "runs --column lr --level 0.5: the title says so" --column lr --level 0.5
pooled=$(pb-boot --column lr --block run --level 0.5 "$PAIRS" |
	awk -F'\t' '!/^#/ && h { printf "%.4g [%.4g, %.4g]", $2, $3, $4 } !/^#/ { h = 1 }')
case $(cat "$T/out") in
*"pooled median $pooled"*) ok "runs --level 0.5: the title gives pb-boot's 50% run-block interval ($pooled)" ;;
*) not_ok "runs --level 0.5: the title gives pb-boot's 50% run-block interval ($pooled)"; diag "$(grep pooled "$T/out")" ;;
esac
pb-plot runs --column lr -o "$T/lr.svg" "$PAIRS"
like "$(cat "$T/lr.svg")" 'lr = ln\(a/b\)' "runs --column lr: the axis says lr = ln(a/b)"
like "$(cat "$T/runs.svg")" 'd = b - a \(µs\)' "runs: the axis of d (thousands of ns) says d = b - a (µs)"
text pairs "$PAIRS" "Distribution of a over 20 pairs" "pairs --column a" --column a
# every interval of a far from 0: no zero line, and the title says so
text runs "$PAIRS" "every interval is above 0, which is off the scale" "runs, all far above 0: the title says 0 is off the scale" --column a
run pb-plot pairs - <"$PAIRS"
like "$(cat "$T/out")" 'Distribution of d over 20 pairs' "FILE '-' is stdin"
# sense: the keys sit below the panels, under the axis labels, clear of the data
run pb-plot sense "$SENSE"
is "$(awk '/seen \/ runs/ && !k { k = NR } /injected delay/ && !x { x = NR } END { print (k && x && k > x ? "below" : "not below") }' "$T/out")" below "sense: the keys sit below the x axis label, clear of the data"
# delay 0 cannot sit on the log axis: its row (1 of 4 runs) is a level line
like "$(cat "$T/out")" 'delay 0 \(A/A\): 1 of 4 runs' "sense: the A/A row is drawn as a level line, labelled with its count"
grep -v '^0	' "$SENSE" >"$T/no0.tsv"
run pb-plot sense "$T/no0.tsv"
is "$rc:$(grep -c "delay 0 (A/A)" "$T/out"):$(grep -c 'Sensitivity: A/A' "$T/out")" 0:0:1 "sense without a delay-0 row: no A/A line"
COLUMNS=60 pb-plot pairs "$PAIRS" >"$T/narrow" 2>&1
is "$(tr -d '\f' <"$T/narrow" | sed 's/µ/u/g' | awk '{ if (length > m) m = length } END { print m }')" 60 "COLUMNS=60: a text plot 60 wide (µ one character)"

# Long options may be shortened to any unambiguous prefix (pb(7)).
run pb-plot runs --col a --out "$T/abbr.svg" --lev 0.9 "$PAIRS"
is "$rc:$(grep -c 'Per-run 90% intervals of the median of a' "$T/abbr.svg")" "0:1" \
	"--col a --out FILE --lev 0.9: abbreviations work"

# --- The numbers of the view: lib's quantiles, through pb-boot --quartiles ---
# pb-boot --quartiles against R: quantile(c(3,1,4,1,5,9,2,6), type = 7)
# gives 1 1.75 3.5 5.25 9; one value is its own quartiles.
printf 'g\tv\nx\t3\nx\t1\nx\t4\nx\t1\ny\t7\nx\t5\nx\t9\nx\t2\nx\t6\n' >"$T/q.tsv"
run pb-boot --quartiles --column v --group g "$T/q.tsv"
is "$rc $(rows "$T/out" | tr '\t\n' ' |')" "0 x 8 1 1.75 3.5 5.25 9|y 1 7 7 7 7 7|" \
	"pb-boot --quartiles: n min q1 median q3 max per group, R's type 7 (one value: itself)"
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "g n min q1 median q3 max" "... its header"
fails 2 "^pb-boot: --quartiles describes the rows as they are: it takes no --block" \
	"pb-boot --quartiles --block run: exit 2" pb-boot --quartiles --block g "$T/q.tsv"
printf 'v\n-1.7e308\n1.7e308\n' >"$T/wide.tsv"
# (its head and header come first: no row of inf after them)
run pb-boot --quartiles --column v "$T/wide.tsv"
like "$rc:$(grep -c inf "$T/out"):$(wc -l <"$T/err" | tr -d ' '):$(cat "$T/err")" \
	"^1:0:1:pb-boot: column 'v': the values span more than a double holds" \
	"pb-boot --quartiles of -1.7e308 and 1.7e308: exit 1, one line, no inf written"
# The fences: d = 0, 10, 1000 has type-7 quartiles 5 and 505, so the
# upper fence 505 + 3 * 500 = 2005 keeps 1000 in view (quartiles read
# off the order statistics, 0 and 10, would put it at 40 and hide 1000).
printf 'run\tpair\tfirst\td\n1\t1\tA\t0\n1\t2\tB\t10\n1\t3\tA\t1000\n' >"$T/fence.tsv"
text pairs "$T/fence.tsv" "Distribution of d over 3 pairs" "pairs of 0, 10, 1000: a text plot"
lacks "$T/out" 'outside the view' "... none outside the view: the fences come from type-7 quartiles"
text trend "$T/fence.tsv" "order effects and drift" "trend of 0, 10, 1000: a text plot"
lacks "$T/out" 'outside the view' "... none outside the view there either"
# The bin width of the balanced pairs: 2 IQR / n^(1/3) over the 20 values
# drawn, in R: x <- read.delim("t/data/plan/balanced.tsv", comment.char
# = "#")$d; 2 * IQR(x) / 20^(1/3) = 6506.920634, drawn as 6507.
text pairs "$PAIRS" "bins of 6.507 µs; red: median -4.909 µs" "pairs: Freedman-Diaconis bins from type-7 quartiles (R: 6506.92 ns)"
# No sort -g (not POSIX): a sort that refuses -g is enough, for values
# pb writes in scientific notation (beyond 1e21, below 1e-5) too.
mkdir "$T/posix-sort"
printf '#!/bin/sh\nfor a; do case $a in -*g*) echo "sort: -g: not POSIX" >&2; exit 2 ;; esac; done\nexec %s "$@"\n' \
	"$(command -v sort)" >"$T/posix-sort/sort"
chmod +x "$T/posix-sort/sort"
printf 'run\tpair\tfirst\td\n1\t1\tA\t3e+21\n1\t2\tB\t1e+22\n1\t3\tA\t2.5e-07\n1\t4\tB\t-4e+21\n' >"$T/sci.tsv"
# (text wants stderr empty: a sort -g that was refused says so there)
PATH="$T/posix-sort:$PATH" text pairs "$T/sci.tsv" "Distribution of d over 4 pairs" \
	"pairs of values in scientific notation with a sort that has no -g, nothing on stderr"
PATH="$T/posix-sort:$PATH" text trend "$T/sci.tsv" "order effects and drift" "trend likewise, nothing on stderr"

# --- Human units, keys, every pair ------------------------------------------
# pairs_of SCALE OUT: a pair stream of 4 runs x 25 pairs whose d is
# about -3.5 SCALE (a spread of a tenth of it), a and b about 100 SCALE
pairs_of() {
	awk -v s="$1" 'BEGIN { srand(7); print "run\tpair\tfirst\ta\tb\td"
		for (r = 1; r <= 4; r++) for (p = 1; p <= 25; p++) {
			a = 100 * s + rand() * s; d = -3.5 * s + (rand() - 0.5) * 0.35 * s
			printf "%d\t%d\t%s\t%.0f\t%.0f\t%.0f\n", r, p, (p % 2 ? "A" : "B"), a, a + d, d } }' >"$2"
}
# ticks SVG: the tick labels of an SVG picture (the texts that are numbers)
ticks() { sed -n 's/.*<text>\(.*\)<\/text>.*/\1/p' "$1" | grep -E '^[-+0-9.]|x10' ; }
# plain_ticks SVG NAME: SVG has tick labels, and none reads x10^ or e+
plain_ticks() { ticks "$1" >"$T/ticks"; lacks "$T/ticks" 'x10|[0-9]e[-+]' "$2"; }
# text_y SVG TEXT: the y of the first text element TEXT in an SVG picture
text_y() { PB_T=$2 awk '/translate\(/ { y = $0; sub(/.*translate\([^,]*,/, "", y); sub(/\).*/, "", y) }
	index($0, "<text>" ENVIRON["PB_T"] "</text>") { print y; exit }' "$1"; }
for u in "1 ns" "1000 µs" "1000000 ms" "1000000000 s"; do
	set -- $u
	pairs_of "$1" "$T/u.tsv"
	for kind in runs trend pairs; do
		run pb-plot "$kind" -o "$T/u.svg" "$T/u.tsv"
		is "$rc $(grep -c "<text>d = b - a ($2)</text>" "$T/u.svg")" "0 1" "$kind of d about -3.5 $2: the axis says d = b - a ($2)"
		plain_ticks "$T/u.svg" "... no tick label reads x10^ or e+ ($(ticks "$T/u.svg" | tr '\n' ' '))"
	done
done
# 3.5x10^8 ns: the issue's own case, in ms
pairs_of 100000000 "$T/u.tsv"
run pb-plot pairs -o "$T/u.svg" "$T/u.tsv"
like "$(ticks "$T/u.svg" | tr '\n' ' ')" '(^| )-3[0-9.]* ' "pairs of d about -3.5e8 ns: ticks in ms (about -350 ... -300)"
run pb-plot pairs --column a -o "$T/u.svg" "$T/u.tsv"
like "$(cat "$T/u.svg")" '<text>a \(s\)</text>' "pairs --column a of about 1e10 ns: the axis says a (s)"
run pb-plot runs --column a "$T/u.tsv"
like "$(cat "$T/out")" 'a \(s\)' "runs --column a as text: the axis in s"
# a column that is not a time keeps its name and gets no unit
awk -F'\t' -v OFS='\t' 'NR == 1 { print $0, "w"; next } { print $0, NR / 7 }' "$T/u.tsv" >"$T/w.tsv"
run pb-plot pairs --column w -o "$T/w.svg" "$T/w.tsv"
is "$rc $(grep -c '<text>w</text>' "$T/w.svg") $(grep -c 'µs\|(ns)\|(ms)' "$T/w.svg")" "0 1 0" "pairs --column w (no time): the axis is w, no unit"
# sense in ms: delays of 0 to 5 ms drawn in ms on both panels
awk -F'\t' -v OFS='\t' '/^#/ { print; next } !h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
	{ $c["delay_ns"] *= 1000; $c["est"] *= 1000; $c["lo"] *= 1000; $c["hi"] *= 1000; print }' "$SENSE" >"$T/sense-ms.tsv"
run pb-plot sense -o "$T/sense-ms.svg" "$T/sense-ms.tsv"
is "$rc $(grep -c '<text>injected delay (ms)</text>' "$T/sense-ms.svg") $(grep -c 'median paired difference (ms)' "$T/sense-ms.svg")" "0 2 1" \
	"sense of delays up to ms: both panels' delay axes and the estimate in ms"
plain_ticks "$T/sense-ms.svg" "... no tick label reads x10^ or e+"

# A log ratio as it is, and the time ratio a/b = exp(lr) on the opposite
# axis, its ticks inside the view (not in a text plot: no room there)
for kind in runs trend pairs; do
	run pb-plot "$kind" --column lr -o "$T/lr.svg" "$PAIRS"
	is "$rc $(grep -c '<text>lr = ln(a/b)</text>' "$T/lr.svg") $(grep -c '<text>a/b = exp(lr), the time ratio</text>' "$T/lr.svg")" "0 1 1" \
		"$kind --column lr: lr on one axis, a/b = exp(lr) on the other"
	is "$(ticks "$T/lr.svg" | grep -c '^1\.0[0-9]*$' | awk '{ print ($1 >= 2 ? "two or more" : $1) }')" "two or more" \
		"... at least two ratio ticks 1.0x ($(ticks "$T/lr.svg" | grep '^1\.0' | tr '\n' ' '))"
done
run pb-plot runs --column lr "$PAIRS"
is "$rc $(grep -c 'Per-run 95% intervals of the median of lr' "$T/out") $(grep -c 'exp(lr)' "$T/out")" "0 1 0" \
	"runs --column lr as text: no ratio axis"

# Keys below the plot: under the x axis label, which is under the ticks,
# and inside the picture
run pb-plot runs -o "$T/k.svg" "$PAIRS"
set -- "$(text_y "$T/k.svg" 4)" "$(text_y "$T/k.svg" run)" "$(text_y "$T/k.svg" 'run: median, interval')"
is "$(awk -v t="$1" -v l="$2" -v k="$3" 'BEGIN { print (t < l && l < k && k < 600 ? "below" : "not below: " t " " l " " k) }')" below \
	"runs: the key is below the x axis label, inside the picture (ticks $1, label $2, key $3)"
like "$(cat "$T/k.svg")" "<text>pooled median -4\\.909 µs \\[" "runs: the pooled interval is on the title's second line, in µs"
run pb-plot trend -o "$T/k.svg" "$PAIRS"
set -- "$(text_y "$T/k.svg" 'pair, in the order measured (all runs)')" "$(text_y "$T/k.svg" 'A went first')"
is "$(awk -v l="$1" -v k="$2" 'BEGIN { print (l < k && k < 600 ? "below" : "not below: " l " " k) }')" below "trend: the key is below the x axis label"
run pb-plot pairs -o "$T/k.svg" "$PAIRS"
set -- "$(text_y "$T/k.svg" 'd = b - a (µs)')" "$(text_y "$T/k.svg" 'pairs in bins of 6.507 µs; red: median -4.909 µs')"
is "$(awk -v l="$1" -v k="$2" 'BEGIN { print (l < k && k < 600 ? "below" : "not below: " l " " k) }')" below "pairs: the key is below the x axis label"
# the text plot of runs: the key's line after the axis label's
run pb-plot runs "$PAIRS"
is "$(awk '/^ +run +/ && !x { x = NR } /run: median, interval/ && !k { k = NR } END { print (x && k > x ? "below" : "not below") }' "$T/out")" below \
	"runs as text: the key below the x axis label"
# sense as text: no label written over another (the panels' titles and
# y labels each on their own, the y labels in the titles)
run pb-plot sense "$SENSE"
is "$(grep -c 'share of runs that saw it  .*estimate (µs) vs truth' "$T/out"):$(grep -c 'median paired differ' "$T/out")" "1:0" \
	"sense as text: both panel titles whole on one line, no y label across the left panel"
COLUMNS=60 run pb-plot sense "$SENSE"
is "$(grep -c 'share of runs that saw it  .*estimate (µs) vs truth' "$T/out")" 1 "sense as text, 60 wide: the titles still apart"

# Every pair drawn: those beyond the view in an end bin each side, counted
awk -F'\t' -v OFS='\t' 'NR == 1 { print; next } { print }
	END { print 9, 1, "A", 1, 1, -5000000; print 9, 2, "B", 1, 1, -2000000
	      print 9, 3, "A", 1, 1, 8000000; print 9, 4, "B", 1, 1, 3000000; print 9, 5, "A", 1, 1, 9000000 }' \
	"$(pairs_of 1000 "$T/o.tsv"; echo "$T/o.tsv")" >"$T/out.tsv"
run pb-plot pairs "$T/out.tsv"
is "$rc $(grep -c "Distribution of d over 105 pairs" "$T/out")" "0 1" "pairs with 5 far out of 105: a text plot"
like "$(cat "$T/out")" "5 beyond the view, counted in the grey end bins" "... the title says 5 are counted in the end bins"
like "$(cat "$T/out")" "2 below" "... the low end bin: 2 below"
like "$(cat "$T/out")" "\\(to -5 ms\\)" "... down to -5 ms, in its own unit"
like "$(cat "$T/out")" "3 above" "... the high end bin: 3 above"
like "$(cat "$T/out")" "\\(to 9 ms\\)" "... up to 9 ms"
is "$(grep -c 'beyond the view, counted' "$T/out"):$(grep 'beyond the view, counted' "$T/out" | grep -c '[|*]')" 1:0 \
	"... no line of the plot drawn over the title's note"
lacks "$T/out" 'outside the view' "... none 'outside the view, not drawn'"
run pb-plot pairs -o "$T/o.svg" "$T/out.tsv"
is "$rc $(grep -c "<text>beyond the view</text>" "$T/o.svg")" "0 1" "pairs -o x.svg: the key names the grey end bins"
run pb-plot trend "$T/out.tsv"
is "$rc $(grep -c "5 beyond the view, drawn at its edge as triangles" "$T/out")" "0 1" "trend: the 5 beyond the view drawn at its edge, said so"
like "$(cat "$T/out")" "beyond the view \\(5\\)" "... and keyed with their count"
run pb-plot pairs "$PAIRS"
is "$rc $(grep -c 'Distribution of d over 20 pairs' "$T/out") $(grep -c 'beyond the view' "$T/out")" "0 1 0" \
	"pairs with none beyond the view: no end bins, no note"

# --- Errors ---------------------------------------------------------------
fails 2 "^pb-plot: unknown KIND 'bars'" "unknown KIND: exit 2" pb-plot bars "$PAIRS"
fails 2 '^pb-plot: which picture\?' "no KIND: exit 2" pb-plot
run pb-plot runs -o "$T/x.pdf" "$PAIRS"
refused 2 '^pb-plot: -o FILE must end in \.png or \.svg' "-o x.pdf: exit 2, no file written" \
	"$(ls "$T" | grep -c '^x\.pdf$')" 0
fails 2 "^pb-plot: unknown option '--bogus'" "unknown option: exit 2" pb-plot runs --bogus "$PAIRS"
pb-pair --by-run "$D/raw-small.tsv" >"$T/byrun.tsv"
fails 1 "^pb-plot: .*byrun\.tsv: a by-run stream \(one row per run\); runs wants a pair stream" \
	"runs from a by-run stream: exit 1, says what it wants" pb-plot runs "$T/byrun.tsv"
printf 'run\tpair\td\n1\t1\t5\n1\t2\t6\n2\t1\t3\n' >"$T/one.tsv"
fails 1 "^pb-plot: pb-boot: group '2': only 1 value" "runs with a one-pair run: pb-boot's line after ours" \
	pb-plot runs "$T/one.tsv"
fails 2 "^pb-plot: unknown option '--columns'" "a longer name than any option: exit 2" pb-plot runs --columns d "$PAIRS"
fails 2 '^pb-plot: one FILE at most' "two files: exit 2" pb-plot runs "$PAIRS" "$PAIRS"
fails 2 "^pb-plot: option '-o' needs a value" "-o without a value: exit 2" pb-plot runs -o
fails 1 "^pb-plot: .*balanced\.tsv: no column 'delay_ns' for this picture" "sense from a pair stream: exit 1, names delay_ns" pb-plot sense "$PAIRS"
fails 1 "no column 'nope' for this picture" "pairs --column nope: exit 1, names it" pb-plot pairs --column nope "$PAIRS"
fails 1 "no column 'nope' for this picture" "runs --column nope: exit 1, names it" pb-plot runs --column nope "$PAIRS"
fails 1 "no column 'first' for this picture" "trend without first: exit 1, names it" pb-plot trend "$T/boot.tsv"
fails 1 "no column 'run' for this picture" "runs without run: exit 1, names it" pb-plot runs "$SENSE"
fails 1 '^pb-plot: .*empty\.tsv: empty input$' "empty input: exit 1" pb-plot pairs "$D/bad/empty.tsv"
fails 1 '^pb-plot: stdin: empty input$' "empty stdin: exit 1" pb-plot pairs </dev/null
head -n 1 "$PAIRS" >"$T/header-only.tsv"
fails 1 'header-only\.tsv: no data rows after the header$' "header only: exit 1" pb-plot pairs "$T/header-only.tsv"
fails 1 "^pb-plot: $T/absent\.tsv: cannot read$" "a file that is not there: exit 1" pb-plot pairs "$T/absent.tsv"
PB_SHARE=$T/nowhere run pb-plot pairs "$PAIRS"
is "$rc $(cat "$T/err")" "1 pb-plot: gnuplot scripts not found in $T/nowhere" "PB_SHARE without the scripts: exit 1"
PB_SHARE=$T/nowhere run pb-plot --help
is "$rc $(head -n 1 "$T/out" | cut -d" " -f1-2)" "0 usage: pb-plot" "PB_SHARE without the scripts: --help still answers"
# gnuplot missing: a PATH of the tools pb-plot uses, without gnuplot
mkdir "$T/nognuplot"
for t in sh awk sed grep cat cp mktemp rm sort wc head tail tr dirname cut od; do
	p=$(command -v "$t") && ln -s "$p" "$T/nognuplot/$t"
done
fails 1 '^pb-plot: gnuplot not found \(install the Debian package gnuplot-nox\)$' \
	"no gnuplot in PATH: exit 1, names gnuplot-nox" env PATH="$T/nognuplot" "$(command -v pb-plot)" runs "$PAIRS"
run pb-plot --help
is "$rc $(head -n 1 "$T/out" | cut -d' ' -f1-3)" "0 usage: pb-plot KIND" "--help: usage on stdout, exit 0"

# The version is the C tools' (config.mk's VERSION, compiled in): beside
# a pb-boot of another version, pb-plot says that one.
mkdir "$T/ver"
ln -s "$(command -v pb-plot)" "$T/ver/pb-plot"
printf '#!/bin/sh\necho "pb-boot (pb) 9.9.9-test"\n' >"$T/ver/pb-boot"
chmod +x "$T/ver/pb-boot"
run env PB_SHARE="$(cd "$(dirname "$0")/../share/pb" && pwd)" "$T/ver/pb-plot" --version
is "$rc $(cat "$T/out")" "0 pb-plot (pb) 9.9.9-test" "--version: the version of pb-boot beside it, not one of its own"

done_testing

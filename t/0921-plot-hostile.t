#!/bin/sh
# pb-plot under attack: nothing read from a stream, a file name or the
# environment reaches gnuplot as code. Every value pb-plot prints (the
# metadata it reads, run labels, column names, the -o file name, and
# TMPDIR, PB_SHARE and COLUMNS) is tried with backquotes, $(...), both
# quotes, @macros, escapes and newlines, for PNG, SVG and text; a command
# that ran would leave a file X* in $T. And inputs it must refuse in one
# line without filling the disk: /dev/zero, a NUL byte, a line over
# 16 MiB, an endless stream; file names that start with '-'.
. "$(dirname "$0")/lib.sh"
PAIRS=$D/plan/balanced.tsv
export COLUMNS=100 TMPDIR="$T"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "1..0 # skip gnuplot not installed"
	exit 0
fi

png() { [ "$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a ] && echo png || echo "not png"; }
svg() { grep -q '<svg' "$1" 2>/dev/null && echo svg || echo "not svg"; }
# ran: the files a command from the input made since the last call
ran() { (cd "$T" && ls -d X* 2>/dev/null | tr '\n' ' ' && rm -f X*); }
# drawn: whether $T/out holds a text plot (more than 20 lines)
drawn() { grep -c . "$T/out" | awk '{ print ($1 > 20 ? "drawn" : "not drawn") }'; }

# A stream of pb-boot --group run output whose metadata and run labels
# are code in every spelling gnuplot or a shell might run.
{
	printf '# pb-boot.column: d`touch %s/X1`$(touch %s/X2)"; system("touch %s/X3"); x="\n' "$T" "$T" "$T"
	printf "# pb-boot.stat: median'; system('touch %s/X4'); x=' @title_text @x \\\\n\\\\\n" "$T"
	printf 'run\tn\test\tlo\thi\tsign\n'
	printf 'r`touch %s/X5`\t5\t-4260\t-4713\t-42\t-\n' "$T"
	printf "r'; system('touch %s/X6')\t5\t-6665\t-8566\t-5104\t-\n" "$T"
	printf 'r"$(touch %s/X7)"\t5\t-10730\t-13024\t-8012\t-\n' "$T"
	printf '@title_text\t5\t3324\t2849\t4743\t+\n'
} >"$T/evil.tsv"

run pb-plot runs -o "$T/evil.png" "$T/evil.tsv"
is "$rc $(png "$T/evil.png") $(ran)" "0 png " "runs -o x.png: code in metadata and run labels is not run, the PNG is drawn"
run pb-plot runs -o "$T/evil.svg" "$T/evil.tsv"
is "$rc $(svg "$T/evil.svg") $(ran)" "0 svg " "runs -o x.svg: code in metadata and run labels is not run, the SVG is drawn"
# the title shows the values as text, on one line, backslashes escaped
want=$(printf '%s' "Per-run intervals \\(median'; system\\('touch [^ ]*/X4'\\); x=' @title_text @x " \
	'\\\\n\\\\ of d`touch [^ ]*/X1`\$\(touch [^ ]*/X2\)"; system\("touch [^ ]*/X3"\); x="\)<')
like "$(cat "$T/evil.svg")" "$want" "runs: the title shows the metadata as text"
like "$(cat "$T/evil.svg")" 'r`touch [^ ]*/X5`' "runs: a run label is shown as text"
run pb-plot runs "$T/evil.tsv"
is "$rc $(ran)$(drawn)" "0 drawn" "runs as text: code in metadata and run labels is not run"
is "$(grep -c . "$T/out" | awk '{ print ($1 > 20) }') $(grep -c '  @title_text ' "$T/out")" "1 1" \
	"runs as text: the plot is drawn, a run label '@title_text' shown as it is"

# Quotes where gnuplot's scanner misreads doubled ones: at the start of a
# value, two and three in a row, at the end; with an @macro after them.
{
	printf "# pb-boot.column: '''d'' @title_text''\n"
	printf "# pb-boot.stat: ''\n"
	grep -v '^#' "$T/evil.tsv"
} >"$T/quotes.tsv"
for ext in png svg; do
	run pb-plot runs -o "$T/quotes.$ext" "$T/quotes.tsv"
	is "$rc $($ext "$T/quotes.$ext") $(ran)" "0 $ext " "runs -o x.$ext: quotes at the start and doubled in metadata: drawn, nothing run"
done
like "$(cat "$T/quotes.svg")" "Per-run intervals \\('' of '''d'' @title_text''\\)<" "... the title shows them as they are"
run pb-plot runs "$T/quotes.tsv"
is "$rc $(ran)$(drawn)" "0 drawn" "runs as text: quotes in metadata: drawn, nothing run"

# -o FILE: every kind of name, for PNG and SVG; a name that starts with
# '-' is a file, not an option
i=0
for name in 'o`touch X8`' 'o$(touch X9)' "o'\"@x" "'o''''x'''" 'o\n\' "o
x" '-o'; do
	for ext in png svg; do
		i=$((i + 1))
		rm -f "$T/$name.$ext"
		(cd "$T" && pb-plot pairs -o "$name.$ext" "$PAIRS" >/dev/null 2>"$T/err")
		st=$?
		is "$st $($ext "$T/$name.$ext") $(ran)" "0 $ext " "-o $(printf '%s' "$name" | tr '\n' '~').$ext: that file, nothing run"
	done
done

# Column names: a stream cannot have them, so they are refused, and not
# run (each refusal and its "nothing run" one assertion)
run pb-plot pairs --column "d\`touch $T/X10\`" "$PAIRS"
refused 2 "^pb-plot: --column wants a column name \(\[a-z_\]\[a-z0-9_\]\*\), not 'd\`touch" \
	"--column with backquotes: exit 2, refused, nothing run" "$(ran)" ""
fails 2 "^pb-plot: --column wants a column name .*, not 'd\\\\x0a" \
	"--column with a newline: exit 2, one line" pb-plot pairs --column "$(printf 'd\nx')" "$PAIRS"
printf 'run\tpair\td$(touch %s/X11)\n1\t1\t5\n' "$T" >"$T/badname.tsv"
run pb-plot pairs --column d "$T/badname.tsv"
refused 1 "^pb-plot: $T/badname\.tsv:1: bad column name 'd\\\$\(touch" \
	"a header name with \$(...): exit 1, the C tools' message, nothing run" "$(ran)" ""

# The environment: TMPDIR and PB_SHARE never reach gnuplot as text,
# COLUMNS is a width or ignored
mkdir "$T/t'\`touch X12\`\$(touch X13)" "$T/s'\`touch X14\`\$(touch X15)"
cp "$D/../../share/pb/"* "$T/s'\`touch X14\`\$(touch X15)/"
(cd "$T" && TMPDIR="$T/t'\`touch X12\`\$(touch X13)" PB_SHARE="$T/s'\`touch X14\`\$(touch X15)" \
	pb-plot trend -o env.svg "$PAIRS" >/dev/null 2>"$T/err")
is "$? $(svg "$T/env.svg") $(ran)" "0 svg " "TMPDIR and PB_SHARE with quotes and backquotes: the SVG, nothing run"
COLUMNS="80,32; system(\"touch $T/X16\")" run pb-plot pairs "$PAIRS"
is "$rc $(tr -d '\f' <"$T/out" | sed 's/µ/u/g' | awk '{ if (length > m) m = length } END { print m }') $(ran)" "0 100 " \
	"COLUMNS that is not a number: ignored (100 wide), nothing run"

# --- Inputs that must be refused in one line ----------------------------
# A limit on the size of the files written (512-byte blocks: 600 MiB) so
# that a regression fails here instead of filling the disk, and a guard
# against one that reads forever (not a bound on speed: 256 MiB take
# seconds, each case ends when pb-plot does)
bounded() { (ulimit -f 1228800; exec timeout 300 "$@"); }
run bounded pb-plot runs /dev/zero
is "$rc $(cat "$T/err")" "1 pb-plot: /dev/zero:1: NUL byte in line (binary input?)" "/dev/zero: exit 1 at once, one line"
run bounded sh -c 'pb-plot pairs </dev/zero'
is "$rc $(cat "$T/err")" "1 pb-plot: stdin:1: NUL byte in line (binary input?)" "/dev/zero on stdin: exit 1, one line"
{ head -n 3 "$PAIRS"; printf '1\t9\tA\t5\t6\000\t1\t0\t0\n'; } >"$T/nul.tsv"
fails 1 "^pb-plot: $T/nul\.tsv:4: NUL byte in line \(binary input\?\)$" "a NUL byte in line 4: exit 1, names the line" \
	pb-plot pairs "$T/nul.tsv"
{ head -n 2 "$PAIRS"; head -c 16777217 /dev/zero | tr '\0' x; echo; } >"$T/long.tsv"
fails 1 "^pb-plot: $T/long\.tsv:3: line longer than 16777216 bytes$" "a line of 16777217 bytes: exit 1, the C tools' message" \
	pb-plot pairs "$T/long.tsv"
{ printf '#'; head -c 16777215 /dev/zero | tr '\0' x; echo; cat "$PAIRS"; } >"$T/edge.tsv"
run pb-plot pairs "$T/edge.tsv"
is "$rc $(grep -c 'Distribution of d over 20 pairs' "$T/out")" "0 1" "a comment of exactly 16777216 bytes is read"
run bounded sh -c 'yes 1 | pb-plot pairs --column x'
is "$rc $(cat "$T/err")" "1 pb-plot: stdin: more than 256 MiB; pb-plot draws streams up to 256 MiB (draw a selection of its runs)" \
	"an endless stream: exit 1 after 256 MiB, one line"
# Arms are fields: one with a space, a backquote or a glob is one panel
# of its own, never split into words or expanded to file names.
pb-pair "$D/arms/raw3.tsv" 2>/dev/null | awk -F'\t' 'BEGIN { OFS = "\t" }
	/^#/ || !h++ { print; next } $3 == "C" { $3 = "* `touch X1`"; if ($4 == "C") $4 = $3 } 1' >"$T/arm-words.tsv"
run sh -c "cd '$T' && COLUMNS=160 pb-plot runs arm-words.tsv"
is "$rc:$(cat "$T/err"):$(drawn)" "0::drawn" "an arm '* \`touch X1\`': exit 0, nothing on stderr, a text plot"
is "$(grep -c ' against A: ' "$T/out")" 2 "... two panels, B and that arm"
is "$(grep -cF '* `touch X1` against A: ' "$T/out"):$(ran)" "1:" "... the arm's panel titled by it whole, and nothing ran"
# file operands that start with '-'
cp "$PAIRS" "$T/-pairs.tsv"
run sh -c "cd '$T' && pb-plot pairs -- -pairs.tsv"
is "$rc $(grep -c 'Distribution of d over 20 pairs' "$T/out")" "0 1" "pb-plot pairs -- -pairs.tsv: the file, not an option"
run pb-plot pairs "$T/"
is "$rc $(cat "$T/err")" "1 pb-plot: $T/: cannot read (a directory)" "a directory: exit 1, one line"
# the last two refusals: no temporary directory of pb-plot's left behind
# in TMPDIR's place, by them or by any run above
run pb-plot pairs -o "$T/none/x.png" "$PAIRS"
refused 1 "^pb-plot: $T/none/x\.png: cannot write \([A-Za-z ]+\)$" \
	"-o in a directory that is not there: exit 1, one line, no temporary directory left behind in TMPDIR's place" \
	"$(ls "$T" | grep -c '^pb-plot\.')" 0
if [ -w /dev/full ]; then
	ln -s /dev/full "$T/full.svg"
	run pb-plot pairs -o "$T/full.svg" "$PAIRS"
	refused 1 "^pb-plot: $T/full\.svg: cannot write \(No space left on device\)$" \
		"-o on a full disk: exit 1, one line, no temporary directory left behind in TMPDIR's place" \
		"$(ls "$T" | grep -c '^pb-plot\.')" 0
else skip "no /dev/full"; fi

done_testing

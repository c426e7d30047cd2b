#!/bin/sh
# pb-compare --from on a crafted study directory: what it read is written
# to a terminal as text, never as escapes.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$T" || exit 1
esc=$(printf '\033')
bel=$(printf '\007')

cp -r "$top/examples/compare" crafted
sed "s/^# cmd_a: .*/# cmd_a: evil ${esc}]0;title${bel} ${esc}[2J/" "$top/examples/compare/raw.tsv" >crafted/raw.tsv
sed "s/^# finding: /# finding: ${esc}[31m/" "$top/examples/compare/tint.tsv" >crafted/tint.tsv
run pb-compare --from crafted -v
exited_ok "--from a directory with control bytes in a command and the finding: exit 0"
lacks "$T/out" "$esc" "  no escape byte reaches the summary"
lacks "$T/out" "$bel" "  nor a bell"
is "$(grep -F -c 'A  evil \x1b]0;title\x07 \x1b[2J' "$T/out")" 1 "  the command shown with its control bytes as \\xNN"
is "$(grep -F -c 'finding: \x1b[31m' "$T/out")" 1 "  the finding too"
run pb-compare --from crafted --export-json -
is "$rc:$(jq -r '.arms[0].command' "$T/out" | grep -c "$esc")" "0:1" \
	"  the JSON keeps the command's bytes (escaped as JSON)"

# A tint.tsv no pb-tint writes: a ratio below 0, or outside its interval,
# is refused with the file and line, not summarised as "200% less time".
for v in "-1 -2 -0.5" "1 2 0.5"; do
	set -- $v
	rm -rf bad && cp -r "$top/examples/compare" bad
	awk -F'\t' -v OFS='\t' -v r="$1" -v l="$2" -v h="$3" '/^[0-9]/ { $9 = r; $10 = l; $11 = h } { print }' \
		"$top/examples/compare/tint.tsv" >bad/tint.tsv
	run pb-compare --from bad
	like "$rc:$(cat "$T/err")" '^1:pb-compare: bad/tint\.tsv:[0-9]+: (a time ratio that is not a positive number|the time ratio lies outside its interval): this is not pb-tint.s output$' \
		"  a ratio $1 in $2 to $3: one line, exit 1"
done

# --parameter-scan values name directories: a '/' or a value given twice
# is a usage error before anything runs, not after the first studies.
for list in "1,a/b" "1,1"; do
	run pb-compare -b 3s --quiet --dir scan -P n "$list" -- 'true {n}' 'true'
	like "$rc:$(wc -l <"$T/err" | tr -d ' '):$(ls -d scan 2>/dev/null):$(cat "$T/err")" \
		"^2:1::pb-compare: --parameter-scan: the value '(a/b|1)' (has a '/'|is given twice)" \
		"-P n $list: usage, exit 2, one line; no study directory made, no study run"
	rm -rf scan
done

# --pg: the password leaves pb-compare's own argv (ps) once it is parsed.
# pb-run waits on a FIFO of SQL meanwhile, so pb-compare stays alive.
# The child waited for is the study's pb-run, exec'd (argv[0] pb-run, and
# --pg): until a child execs its argv is pb-compare's own (matched on --pg
# alone, it was read too early once, when a pb-run --list-options ran
# while the options were parsed). The wait is on that child, as long as
# it takes.
if [ "${PB_VALGRIND:-0}" = 1 ]; then   # the process is valgrind, its argv its own
	skip "--pg: no password in pb-compare's argv: not under valgrind"
elif [ -r /proc/self/cmdline ] && command -v pgrep >/dev/null; then
	mkfifo sql.fifo
	pb-compare -b 3s --quiet --dir pgs --pg 'host=/nonexistent password=SEKRET1 dbname=x' \
		--sql-a-file sql.fifo --sql-b 'select 1' >pgs.out 2>&1 &
	pid=$!
	i=0
	while [ "$i" -lt 3000 ] && kill -0 "$pid" 2>/dev/null &&
		[ -z "$(pgrep -P "$pid" -f -- '^([^ ]*/)?pb-run .*--pg')" ]; do
		sleep 0.1; i=$((i + 1)); done
	args=$(tr '\0' ' ' </proc/$pid/cmdline)
	kill -TERM "$pid"; sleep 0.3; kill -TERM "$pid" 2>/dev/null
	exec 3<>sql.fifo; exec 3>&-
	wait "$pid"
	case $args in
	*--pg*SEKRET1*) not_ok "--pg: no password in pb-compare's argv"; diag "argv: $args" ;;
	*--pg*'dbname=x'*) ok "--pg: no password in pb-compare's argv" ;;
	*) not_ok "--pg: no password in pb-compare's argv"; diag "argv: $args" ;;
	esac
else
	skip "no /proc or no pgrep (Debian package procps): argv not seen"
fi

# check.tsv with an arm column whose values are long: each warning is
# "ARM: note", in memory of the size of both (it was 8 bytes more than
# the note: a heap overflow that aborted pb-compare).
rm -rf ck && cp -r "$top/examples/compare" ck
awk -F'\t' -v OFS='\t' 'BEGIN { L = "X"; while (length(L) < 100000) L = L L }
	/^#/ { print; next }
	!h { h = 1; print "arm", $0; next }
	{ $2 = "warn"; print (NR % 2 ? L : "B"), $0 }' "$top/examples/compare/check.tsv" >ck/check.tsv
run pb-compare --from ck -v
is "$rc:$(grep -c '^warning: XXXXXXXX*: ' "$T/out")" "0:$(grep -c '^XXXX' ck/check.tsv)" \
	"check.tsv with 100000-byte arm values: exit 0, each warning with its arm"

# --- what the answer trusts, checked: a margin, a verdict against it,
# a tighter design (issue 29, a hostile pass). tol DIR LO HI VERDICT PCT:
# examples/compare with that interval and pb-tint's margin and verdict.
tol() {
	rm -rf "$1" && cp -r "$top/examples/compare" "$1"
	awk -F'\t' -v OFS='\t' -v l="$2" -v h="$3" -v v="$4" -v p="$5" '
		/^# pb-tint: / { print; print "# pb-tint.tolerance: " p; next }
		/^#/ { print; next }
		!hd { hd = 1; print $0, "verdict"; next }
		{ $9 = sqrt(l * h); $10 = l; $11 = h; print $0, v }' \
		"$top/examples/compare/tint.tsv" >"$1/tint.tsv"
}
tol t150 0.5 2 equivalent 150
run pb-compare --from t150 --fail-if-slower 1.05
like "$rc:$(cat "$T/err")" "^1:pb-compare: t150/tint\.tsv:[0-9]+: '# pb-tint\.tolerance: 150' is not a percentage above 0 and below 100: this is not pb-tint.s output$" \
	"a margin of 150% in tint.tsv: one line, exit 1 (it decides the gate)"
tol tnan 0.99 1.01 equivalent nan
run pb-compare --from tnan --fail-if-slower 1.05
like "$rc:$(cat "$T/err")" "^1:pb-compare: tnan/tint\.tsv:[0-9]+: '# pb-tint\.tolerance: nan' is not a percentage" \
	"  a margin 'nan': refused, not read as none"
tol tlie 0.4 0.6 equivalent 2
run pb-compare --from tlie --fail-if-slower 1.05
like "$rc:$(cat "$T/err")" "^1:pb-compare: tlie/tint\.tsv:[0-9]+: the verdict 'equivalent' is not what the interval gives against the 2% tolerance: this is not pb-tint.s output$" \
	"  'equivalent' for an interval 0.4 to 0.6: refused"
tol tok 0.99 1.01 equivalent 2
run pb-compare --from tok --fail-if-slower 1.02
is "$rc:$(sed -n 1p "$T/out")" "0:B is equivalent to A within 2%" "  pb-tint's own verdict: the answer, exit 0"

# tighter.tsv no pb-plan writes: a cost no double holds, runs not whole
rm -rf nt && cp -r "$top/examples/compare" nt   # no difference, no margin
awk -F'\t' -v OFS='\t' '/^#/ { print; next } !hd { hd = 1; print; next } { $9 = 1; $10 = 0.99; $11 = 1.01; print }' \
	"$top/examples/compare/tint.tsv" >nt/tint.tsv
tight() {
	rm -rf "$1" && cp -r nt "$1"
	printf '# pb-plan.target: %s\n# pb-plan.tighter: 0.01\nplan\tsigma2_between\tsigma2_within\truns\tpairs\thalfwidth\ttotal_s\nbest\t0\t0.001\t%s\t%s\t0.004\t%s\n' \
		"$2" "$3" "$4" "$5" >"$1/tighter.tsv"
}
for v in "tt1 0.005 40 100 1e308" "tt2 0.005 -40 100 8" "tt3 0.005 40.5 100 8" "tt4 1e300 40 100 8" "tt5 0.005 1e300 100 8"; do
	set -- $v
	tight "$@"
	run pb-compare --from "$1"
	like "$rc:$(cat "$T/err"):$(grep -c 'nan\|inf' "$T/out")" "^1:pb-compare: $1/tighter\\.tsv:[0-9]+: .*: this is not pb-plan.s output:0$" \
		"tighter.tsv with target $2, runs $3, pairs $4, total_s $5: one line, exit 1"
done
# a study of two very noisy runs: pb-plan's target log1p(3e5 / 2), about
# 11.9; read, but a narrowing beyond +-1000 % is no line
rm -rf tt7 && cp -r nt tt7
printf '# pb-plan.target: 11.918\n# pb-plan.tighter: 300000\nplan\tsigma2_between\tsigma2_within\truns\tpairs\thalfwidth\ttotal_s\nbest\t0\t0.001\t3\t100\t11.9\t8\n' >tt7/tighter.tsv
run pb-compare --from tt7
is "$rc:$(sed -n 2p "$T/out"):$(grep -c '^   to narrow it to ' "$T/out"):$(grep -c 'nan\|inf' "$T/out")" \
	"0:   B is within 1.0% of A: it takes from 0.99% less time to 1.0% more (at 95% confidence):0:0" \
	"tighter.tsv of a study bounded by 3e5 %: read, the answer, no narrowing line"
tight tt8 710 40 100 8
run pb-compare --from tt8
like "$rc:$(cat "$T/err")" "^1:pb-compare: tt8/tighter\\.tsv:[0-9]+: .*: this is not pb-plan.s output$" \
	"  a target of 710, beyond any finite bound's: refused"
tight tt6 0.005 40 100 8
run pb-compare --from tt6
is "$rc:$(grep '^   to narrow it to ' "$T/out")" "0:   to narrow it to ±0.50%: about 9.5 s, 40 runs x 100 pairs (-b 9.5s)" \
	"  pb-plan's own: the line, 8 s of runs over 0.85, rounded up"

# pb-check's notes as a warning's line: the first clause, parentheses
# out, cut, never empty
warn_note() {   # DIR NOTE: examples/compare with one warning of that note
	rm -rf "$1" && cp -r "$top/examples/compare" "$1"
	awk -F'\t' -v OFS='\t' -v n="$2" '/^#/ { print; next } !h { h = 1; print; next }
		!w { w = 1; $2 = "warn"; $7 = n } { print }' "$top/examples/compare/check.tsv" >"$1/check.tsv"
}
long=$(awk 'BEGIN { while (length(s) < 100000) s = s "word "; print s }')
for v in "n1|x (y: z) w: more|X w" "n2|(only parens)|(only parens)" "n3|((unbalanced: x|((unbalanced: x" \
	"n4|   |pb-check gave a warning without words" "n5|.|." "n6|Z: note|Z" \
	"n8|Slower on CPU 1 (CI x), more than 25%: read|Slower on CPU 1, more than 25%"; do
	d=${v%%|*} rest=${v#*|} nt=${rest%%|*} want=${rest#*|}
	warn_note "$d" "$nt"
	run pb-compare --from "$d"
	is "$rc:$(sed -n 's/^warning: \(.*\) (more: pb-compare --from [^ ]* -v)$/\1/p' "$T/out")" "0:$want" \
		"a note '$nt': the warning's line says '$want'"
done
warn_note n7 "$long"
run pb-compare --from n7
like "$rc:$(grep '^warning: ' "$T/out" | wc -c | tr -d ' ')" '^0:(1[6-9][0-9]|2[0-4][0-9])$' \
	"  a 100 KB note: a line of at most about 200 bytes"
nl='
'
warn_note "dir${nl}with a newline" "Run 3 is odd: look"
run pb-compare --from "dir${nl}with a newline"
is "$rc:$(grep '^warning: ' "$T/out")" "0:warning: Run 3 is odd (more: pb-compare -v --from the study's directory)" \
	"  a directory with a newline: not offered to paste (it would name another)"
warn_note "it's here" "Run 3 is odd: look"
run pb-compare --from "it's here"
is "$(grep '^warning: ' "$T/out")" "warning: Run 3 is odd (more: pb-compare --from 'it'\\''s here' -v)" \
	"  a quote in the directory: quoted for the shell"
fails 2 "^pb-compare: --verbose says all and --quiet the answer alone: one or the other" \
	"-v with --quiet: usage" pb-compare -v --quiet --from tok

# pb-compare without pb-run beside it or on PATH: one line, its hint once.
# Its options are its own and pb-run's table compiled in (lib/runopt.c):
# --from, which runs no pb-run, needs none.
mkdir lone && cp "$top/bin/pb-compare" lone/
PATH=/nonexistent lone/pb-compare -b 600s -r 3 -p 2 --dir lone/s -- true true >"$T/out" 2>"$T/err"
rc=$?
is "$rc:$(wc -l <"$T/err" | tr -d ' '):$(grep -o 'install pb whole' "$T/err" | wc -l | tr -d ' ')" "1:1:1" \
	"no pb-run: exit 1, one line, the hint to install pb whole once"
like "$(cat "$T/err")" '^pb-compare: pb-run: cannot run pb-run: ' "  it says what failed"
PATH=/nonexistent lone/pb-compare --from "$top/examples/compare" >"$T/out" 2>"$T/err"
rc=$?
exited_ok "no pb-run: --from still reads a study (no child parses the options)"

done_testing

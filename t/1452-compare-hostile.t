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

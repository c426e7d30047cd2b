# t/lib.sh: TAP for shell tests. Source it; call plan N (or done_testing).
# run CMD... stores stdout in $T/out, stderr in $T/err, the status in $rc.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$(cd "$(dirname "$0")" && pwd)/data
n=0
failed=0
# python3 writes no __pycache__ beside the helpers of the tree it tests
# (t/1230 unsets it where it checks what make uninstall removes)
export PYTHONDONTWRITEBYTECODE=1
# a HOME of the test's own when none is set (env -i, cron): GNU parallel
# warns on stderr without one, and it and chromium write in /tmp instead
[ -n "${HOME-}" ] || { HOME=$T; export HOME; }

plan() { echo "1..$1"; }
done_testing() { echo "1..$n"; [ "$failed" -eq 0 ]; }
diag() { printf '# %s\n' "$@" | sed '2,$s/^/# /' >&2; }
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # skip $1"; }

run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }

# is GOT WANT NAME; a column col did not find fails on either side
is() {
	case $1$2 in *'<col: no '*) not_ok "$3"; diag "got:  $1" "want: $2"; return ;; esac
	if [ "$1" = "$2" ]; then ok "$3"; else
		not_ok "$3"; diag "got:  $1" "want: $2"; fi
}
# is_file FILE EXPECTED_FILE NAME: byte-for-byte
is_file() {
	if cmp -s "$1" "$2"; then ok "$3"; else
		not_ok "$3"; diff -u "$2" "$1" | head -40 | sed 's/^/# /' >&2; fi
}
# like STRING PATTERN NAME: grep -E
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then ok "$3"; else
		not_ok "$3"; diag "got:  $1" "want match: $2"; fi
}
# fails STATUS MESSAGE_PATTERN NAME CMD...: exit status, one stderr line, empty-ish stdout check left to caller
fails() {
	want_rc=$1 pat=$2 name=$3
	shift 3
	run "$@"
	if [ "$rc" -eq "$want_rc" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -Eq -- "$pat" "$T/err"; then ok "$name"; else
		not_ok "$name"; diag "status $rc (want $want_rc)" "stderr: $(cat "$T/err")"
	fi
}
# refuses STATUS MESSAGE_PATTERN NAME CMD...: as fails, and nothing on
# stdout (a refusal writes no partial output)
refuses() {
	want_rc=$1 pat=$2 name=$3
	shift 3
	run "$@"
	if [ "$rc" -eq "$want_rc" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	   grep -Eq -- "$pat" "$T/err" && [ ! -s "$T/out" ]; then ok "$name"; else
		not_ok "$name"; diag "status $rc (want $want_rc)" "stderr: $(cat "$T/err")" \
			"stdout: $(head -c 200 "$T/out")"
	fi
}
# exited_ok NAME: the last run exited 0 and wrote something on stdout (a
# summary, a page: ran_ok is for a stream, and wants stderr empty)
exited_ok() {
	if [ "$rc" -eq 0 ] && [ -s "$T/out" ]; then ok "$1"; else
		not_ok "$1"; diag "status $rc, $(wc -c <"$T/out") bytes on stdout" \
		"stderr: $(head -c 300 "$T/err")"; fi
}
# lacks FILE ERE NAME: FILE is not empty and no line of it matches ERE
# ("no nan written" holds of an empty file too: it proves nothing)
lacks() {
	if [ -s "$1" ] && ! grep -Eq -- "$2" "$1"; then ok "$3"; else
		not_ok "$3"
		if [ -s "$1" ]; then diag "$1 matches $2:" "$(grep -E -- "$2" "$1" | head -3)"
		else diag "$1 is empty or missing"; fi
	fi
}
# data rows of a pb stream (no comments, no header)
rows() { grep -v '^#' "$@" | tail -n +2; }
# meta KEY FILE: the first "# KEY: value" of FILE's head (ahead of the
# header), the value alone
meta() { awk -v k="$1" '!/^#/ { exit } index($0, "# " k ": ") == 1 {
	print substr($0, length(k) + 5); exit }' "$2"; }
# row_count FILE: the number of data rows of stream FILE
row_count() { rows "$1" | wc -l | tr -d ' '; }
# value of column NAME in data row K (1-based) of stream FILE; when there
# is no such file, header, column or row: "<col: no ...>", which no
# number check accepts and is refuses, so two missing values never match.
col() {
	[ -r "$3" ] || { echo "<col: no file $3>"; return 1; }
	awk -F'\t' -v c="$1" -v k="$2" '/^#/ { next }
		!h { for (i = 1; i <= NF; i++) if ($i == c) j = i; h = 1; if (!j) exit; next }
		++r == k { v = $j; found = 1; exit }
		END { if (found) print v
			else { printf "<col: no %s>\n", !h ? "header" : !j ? "column " c : "row " k; exit 1 } }' "$3"
}
# wait_rows FILE ROWS PID: wait until stream FILE has ROWS data rows, or
# PID is gone (then the test reads what it left); 120 s at most, a guard
# against a hang that no load outlasts
wait_rows() {
	_wr=0
	while [ "$(rows "$1" 2>/dev/null | wc -l)" -lt "$2" ] && kill -0 "$3" 2>/dev/null &&
		[ $_wr -lt 1200 ]; do
		sleep 0.1; _wr=$((_wr + 1)); done
}
# median_lr FILE: the mean over runs of each run's median paired log
# ratio ln(A/B) of the pb-run stream FILE (> 0: B took less time), by
# pb-pair --by-run --stat lr-median | pb-tint; "<median_lr: ...>" when
# that fails. A test's claim of which arm is faster is judged by it, not
# by a ratio of each run's mean times: under load a few round trips of a
# worker woken on a busy CPU are slowed by far more than the effect, and
# one such run once put a 25 % faster B behind A (t/README, Timing).
median_lr() {
	pb-pair --by-run --stat lr-median "$1" >"$T/median_lr.pair" 2>"$T/median_lr.err" &&
		pb-tint "$T/median_lr.pair" >"$T/median_lr.tint" 2>>"$T/median_lr.err" ||
		{ echo "<median_lr: $(head -n 1 "$T/median_lr.err")>"; return 1; }
	col mean 1 "$T/median_lr.tint"
}
# is_num X: X is one finite decimal number, as pb prints them: not empty,
# not nan or inf, one line.
is_num() {
	case $1 in *"
"*) return 1 ;; esac
	printf '%s\n' "$1" | grep -Eq '^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$'
}
# nums X...: every X is a number (is_num); else one diag line, false
nums() {
	for _num in "$@"; do is_num "$_num" || { diag "not a number: '$_num'"; return 1; }; done
}
# near GOT WANT RELTOL NAME: GOT is a decimal number within RELTOL of WANT,
# relative to |WANT| (RELTOL 0: the same double); compared as awk doubles.
near() {
	if nums "$1" "$2" "$3" &&
	   awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d
		m = w < 0 ? -w : w; exit !(d <= t * m) }'; then ok "$4"; else
		not_ok "$4"; diag "got:  $1" "want: $2 (relative $3)"; fi
}
# within GOT WANT TOL NAME: |GOT - WANT| <= TOL (absolute; awk doubles)
within() {
	if nums "$1" "$2" "$3" &&
	   awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(d <= t + 0 && -d <= t + 0) }'
	then ok "$4"; else not_ok "$4"; diag "got:  $1" "want: $2 (within $3)"; fi
}
# ascending NAME X1 X2 ...: numbers, each <= the next (lo <= est <= hi)
ascending() {
	_asc=$1
	shift
	if nums "$@" && printf '%s\n' "$@" | awk 'NR > 1 && $1 + 0 < p + 0 { bad = 1 } { p = $1 }
		END { exit bad }'; then ok "$_asc"; else not_ok "$_asc"; diag "not ascending: $*"; fi
}
# differ A B NAME: A and B, values runs gave, are not empty, not col's
# "<col: no ...>", and not the same (another seed, another order)
differ() {
	case $1$2 in *'<col: no '*) not_ok "$3"; diag "got:  $1" "and:  $2"; return ;; esac
	if [ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ]; then ok "$3"; else
		not_ok "$3"; diag "got:  $1" "and:  $2 (want two values that differ)"; fi
}
# has_rows FILE NAME: FILE is a stream with a header and at least one data row
has_rows() {
	if [ -n "$(rows "$1" 2>/dev/null | head -n 1)" ]; then ok "$2"; else
		not_ok "$2"; diag "no data rows in $1"; fi
}
# ran_ok NAME: the last run exited 0 with nothing on stderr and a stream
# with at least one data row on stdout
ran_ok() {
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ -n "$(rows "$T/out" | head -n 1)" ]; then
		ok "$1"; else not_ok "$1"; diag "status $rc, $(rows "$T/out" | wc -l) data rows" \
		"stderr: $(head -c 300 "$T/err")"; fi
}
# saved FILE: FILE is the stdout of the last run if it exited 0, else empty
saved() { if [ "$rc" -eq 0 ]; then cp "$T/out" "$1"; else : >"$1"; fi; }
# same_file A B NAME: A and B are not empty and are the same bytes
same_file() {
	if [ -s "$1" ] && [ -s "$2" ] && cmp -s "$1" "$2"; then ok "$3"; else not_ok "$3"
		[ -s "$1" ] || diag "$1 is empty"
		[ -s "$2" ] || diag "$2 is empty"
		diff -u "$1" "$2" 2>&1 | head -40 | sed 's/^/# /' >&2; fi
}
# same_remade A B NAME: a file a study's Makefile made again, the same
# bytes as pb-compare's. Under make valgrind a mean differed in its last
# digit between the two (memcheck's long double has 64 bits, and the
# means are R's long double ones): skipped there, saying why.
same_remade() {
	if [ "${PB_VALGRIND:-0}" = 1 ]; then
		skip "$3: not under valgrind (memcheck's long double: a last digit differed)"
	else same_file "$1" "$2" "$3"; fi
}
# same_output A B NAME: A and B hold data rows (see saved) and are the
# same bytes: two empty outputs, or two failures, are not the same
same_output() {
	if [ -n "$(rows "$1" | head -n 1)" ] && [ -n "$(rows "$2" | head -n 1)" ] && cmp -s "$1" "$2"
	then ok "$3"; else not_ok "$3"
		[ -n "$(rows "$1" | head -n 1)" ] || diag "no data rows in $1"
		[ -n "$(rows "$2" | head -n 1)" ] || diag "no data rows in $2"
		diff -u "$1" "$2" | head -40 | sed 's/^/# /' >&2; fi
}
# tsv: copy stdin to stdout with '|' turned into TAB outside comments
tsv() { awk '!/^#/ { gsub(/\|/, "\t") } 1'; }
# is_count GOT WANT NAME: GOT and WANT are the same whole number above 0
# (the runs and the looks, or the rows, of a run that never ran are 0 and
# 0: no match)
is_count() {
	if printf '%s\n' "$1" | grep -Eq '^[1-9][0-9]*$' && [ "$1" = "$2" ]; then ok "$3"; else
		not_ok "$3"; diag "got:  $1" "want: $2 (a count above 0)"; fi
}
# same_value A B NAME: A and B, values runs gave, are not empty, not
# col's "<col: no ...>", and equal (is takes two empty strings, a meta
# or grep of two files that are not there, as the same)
same_value() {
	case $1$2 in *'<col: no '*) not_ok "$3"; diag "got:  $1" "want: $2"; return ;; esac
	if [ -n "$1" ] && [ "$1" = "$2" ]; then ok "$3"; else
		not_ok "$3"; diag "got:  $1" "want: $2 (two values, not empty, the same)"; fi
}
# refused STATUS PATTERN NAME GOT WANT: the last run was refused as
# refuses wants (exit STATUS, one stderr line matching PATTERN, nothing
# on stdout) and left what GOT = WANT says (no file written, nothing
# run): one assertion, so that the silence is never checked of a stub
# that did nothing at all
refused() {
	if [ "$rc" -eq "$1" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -Eq -- "$2" "$T/err" &&
	   [ ! -s "$T/out" ] && [ "$4" = "$5" ]; then ok "$3"; else
		not_ok "$3"; diag "status $rc (want $1)" "stderr: $(cat "$T/err")" \
			"stdout: $(head -c 200 "$T/out")" "got:  $4" "want: $5"
	fi
}
# holds NAME EXPR VAR=X...: every X is a number (is_num) and the awk
# expression EXPR over the VARs holds ('s - s0 < u - u0' u=... s=...)
holds() {
	_hn=$1 _he=$2
	shift 2
	_hargs=
	for _ha in "$@"; do
		case ${_ha%%=*} in ''|*[!a-z0-9_]*) not_ok "$_hn"; diag "holds: no name in '$_ha'"; return ;; esac
		is_num "${_ha#*=}" || { not_ok "$_hn"; diag "not a number: '$_ha'"; return; }
		_hargs="$_hargs -v $_ha"
	done
	# shellcheck disable=SC2086   # names and numbers, one word each
	if awk $_hargs "BEGIN { exit !($_he) }"; then ok "$_hn"; else
		not_ok "$_hn"; diag "false: $_he, with$_hargs"; fi
}

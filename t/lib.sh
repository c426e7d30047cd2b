# t/lib.sh: TAP for shell tests. Source it; call plan N (or done_testing).
# run CMD... stores stdout in $T/out, stderr in $T/err, the status in $rc.
set -u
T=$(mktemp -d "${TMPDIR:-/tmp}/pb-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$(cd "$(dirname "$0")" && pwd)/data
n=0
failed=0

plan() { echo "1..$1"; }
done_testing() { echo "1..$n"; [ "$failed" -eq 0 ]; }
diag() { printf '# %s\n' "$@" | sed '2,$s/^/# /' >&2; }
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # skip $1"; }

run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }

# is GOT WANT NAME
is() {
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
# data rows of a pb stream (no comments, no header)
rows() { grep -v '^#' "$@" | tail -n +2; }
# value of column NAME in data row K (1-based) of stream FILE
col() { awk -F'\t' -v c="$1" -v k="$2" '/^#/{next} !h{for(i=1;i<=NF;i++) if($i==c) j=i; h=1; next} ++r==k{print $j; exit}' "$3"; }
# near GOT WANT RELTOL NAME: GOT is a decimal number within RELTOL of WANT,
# relative to |WANT| (RELTOL 0: the same double); compared as awk doubles.
near() {
	if printf '%s\n' "$1" | grep -Eq '^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$' &&
	   awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d
		m = w < 0 ? -w : w; exit !(d <= t * m) }'; then ok "$4"; else
		not_ok "$4"; diag "got:  $1" "want: $2 (relative $3)"; fi
}
# tsv: copy stdin to stdout with '|' turned into TAB outside comments
tsv() { awk '!/^#/ { gsub(/\|/, "\t") } 1'; }

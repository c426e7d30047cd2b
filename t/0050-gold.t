#!/bin/sh
# Whole outputs against gold files (t/gold/cases says which): every byte
# of stdout and stderr, and exit 0. A difference is shown as a diff; if
# it was meant, remake the gold files with sh t/gold/update -w (see its
# header) and commit them with the change.
. "$(dirname "$0")/lib.sh"
G=$(cd "$(dirname "$0")/gold" && pwd)
. "$G/run.sh"
if [ "${PB_VALGRIND:-0}" = 1 ]; then
	# valgrind computes long double in 64 bits, not 80: last digits differ
	echo "1..0 # skip gold files: not under valgrind"
	exit 0
fi
gold_init "$T" || exit 1
O=$T/gold-out
# The gold files come from glibc's libm. Another libm (musl's, in make
# musl) may round log, exp or pow in the last bit, so there every number
# is compared within 1e-14 relative and everything else byte for byte.
exact=0
ldd "$(command -v pb-tint)" 2>/dev/null | grep -q 'libc\.so\.6' && exact=1
# near_file GOT WANT: the same words, numbers within 1e-14 relative
near_file() {
	awk -v got="$1" -v want="$2" 'function num(s) { return s ~ /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
	BEGIN { while ((r = getline g < got) > 0) {
			if ((getline w < want) <= 0) exit 1
			n = split(g, gs, /[\t ]/); m = split(w, ws, /[\t ]/)
			if (n != m) exit 1
			for (i = 1; i <= n; i++) {
				if (gs[i] == ws[i]) continue
				if (!num(gs[i]) || !num(ws[i])) exit 1
				d = gs[i] - ws[i]; if (d < 0) d = -d
				s = ws[i] < 0 ? -ws[i] : ws[i]
				if (d > 1e-14 * s) exit 1
			}
		}
		if (r < 0 || (getline w < want) > 0) exit 1
		exit 0 }'
}
same_gold() { cmp -s "$1" "$2" || { [ "$exact" = 0 ] && near_file "$1" "$2"; }; }

gold() {
	name=$1
	shift
	gold_exec "$O" "$name" "$@"
	[ -f "$G/$name.err" ] || : >"$O/$name.want-err"
	werr=$G/$name.err
	[ -f "$werr" ] || werr=$O/$name.want-err
	if [ "$gold_rc" = 0 ] && [ -f "$G/$name.out" ] && same_gold "$O/$name.out" "$G/$name.out" &&
	   cmp -s "$O/$name.err" "$werr"; then
		ok "gold $name: $*"
	else
		not_ok "gold $name: $*"
		diag "status $gold_rc; a difference from t/gold (sh t/gold/update -w remakes it):"
		diff -u "$G/$name.out" "$O/$name.out" 2>&1 | head -40 | sed 's/^/# /' >&2
		diff -u "$werr" "$O/$name.err" 2>&1 | head -10 | sed 's/^/# /' >&2
	fi
	echo "$name" >>"$T/names"
}
# pb-plot's pictures are gnuplot's drawing: another gnuplot draws them
# otherwise, which is not a change in pb
have_gnuplot=$(gold_gnuplot)
gold_plot() {
	name=$1
	shift
	if [ -z "$have_gnuplot" ]; then skip "gold $name: no gnuplot"
	elif [ "$have_gnuplot" != "$(cat "$G/gnuplot-version")" ]; then
		skip "gold $name: made with $(cat "$G/gnuplot-version"), here $have_gnuplot"
	else
		gold "$name" pb-plot "$@"
		return
	fi
	echo "$name" >>"$T/names"
}
. "$G/cases"

# every gold file belongs to a case
stale=
for f in "$G"/*.out "$G"/*.err; do
	[ -f "$f" ] || continue
	b=${f##*/}
	grep -qx -- "${b%.*}" "$T/names" || stale="$stale $b"
done
is "$stale" "" "every gold file in t/gold belongs to a case of t/gold/cases"

done_testing

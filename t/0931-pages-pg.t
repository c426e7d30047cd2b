#!/bin/sh
# pb-pg(7) opens with an example and its output, as every page does
# (t/0930-pages.t checks the others): on a throwaway cluster the example
# runs as written and prints what the page shows, with what varies from
# run to run masked: the server's version, times, ids, the host, and
# the load and CPU pressure (there or not, by system).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
pg_start
page=$(cd "$D/../../share/man/man7" && pwd)/pb-pg.7

# the first literal display of DESCRIPTION, its mdoc escapes undone
awk '/^\.Sh / { on = $2 == "DESCRIPTION"; next }
     on && /^\.Bd -literal/ { lit = 1; next }
     lit && /^\.Ed/ { exit }
     lit' "$page" | sed 's/\\e/\\/g; s/\\&//g' >"$T/opening"
# its commands: from "$ " on, continued after a trailing backslash or pipe
awk '/^\$ / { c = 1; sub(/^\$ /, "") } c { print; c = /[\\|]$/ }' "$T/opening" >"$T/opening.sh"
awk '/^\$ / { c = 1 } !c { print } c { c = /[\\|]$/ }' "$T/opening" >"$T/want"
flat() {
	sed 's/^# server_version: .*/# server_version: V/; s/start=[^ ]*/start=S/; s/end=[^ ]*/end=S/
	     s/ load=[0-9.]*//; s/ psi=[0-9.]*//; s/ psi_run=[0-9.]*//
	     s/pid=[0-9]*/pid=P/; s/study=[0-9a-f]*/study=S/; s/ host=.*/ host=H/; s/[0-9]\{4,\}/N/g' |
	tr -s ' \t\n' '   ' | sed 's/ $//'
}
(cd "$T" && sh ./opening.sh) >"$T/got" 2>"$T/err"
rc=$?
if [ "$rc" = 0 ] && [ -s "$T/got" ] && [ -s "$T/want" ]; then
	is "$(flat <"$T/got")" "$(flat <"$T/want")" "pb-pg.7: its opening example prints what the page shows"
else
	not_ok "pb-pg.7: its opening example runs and prints (status $rc)"
	diag "$(cat "$T/err")"
fi

done_testing

#!/bin/sh
# The man pages describe pb as it is: no page refers to a file that is
# not part of pb (the planning notes, DESIGN.md), every pb page named in
# .Xr exists, and the facts pb(7) once kept in a section about departures
# from those notes are in the sections where they belong.
. "$(dirname "$0")/lib.sh"
M=$(cd "$D/../../share/man" && pwd)
pb7=$M/man7/pb.7

is "$(grep -l -i 'design\.md\|design note\|from the design' "$M"/man*/*.[17] | sed "s|^$M/||" | tr '\n' ' ')" "" \
	"no page refers to the design notes"
missing=
for x in $(sed -n 's/^\.Xr \(pb[a-z-]*\) \([0-9]\).*/\1.\2/p' "$M"/man*/*.[17] | sort -u); do
	[ -f "$M/man${x##*.}/$x" ] || missing="$missing $x"
done
is "$missing" "" "every pb page named in .Xr is in share/man"
# section SECTION: the text of pb(7)'s .Sh or .Ss SECTION, up to the next
section() { awk -v s="$1" '/^\.S[hs] / { on = substr($0, 5) == s; next } on' "$pb7"; }
is "$(grep -c '^\.Sh DEPARTURES' "$pb7")" 0 "pb(7) has no section of departures"
like "$(section 'Pair stream' | tr '\n' ' ')" 'failed observation .*dropped.*pb-pair\.failed_pairs' \
	"Pair stream: a pair with a failed observation is dropped and counted"
like "$(section 'Raw stream' | tr '\n' ' ')" 'other arm waits as long outside its timed window' \
	"Raw stream: with --delay the other arm waits as long, untimed"
like "$(section 'Raw stream' | tr '\n' ' ')" 'negative values, so that they cannot be mistaken' \
	"Raw stream: why pb-run's own failures are negative"
like "$(section 'Provenance' | tr '\n' ' ')" 'pb-pair\.warmup_rows .*pb-pair\.failed_pairs.* there' \
	"Provenance: which metadata follows the rows, and why"
like "$(section 'By-run stream' | tr '\n' ' ')" 'for the mean it equals the mean paired difference' \
	"By-run stream: what d is"
# Every key one tool writes for another (lib/keys.h) is in pb(7)'s table
# of them, with its writer and readers, and pb-sense's too.
keys=$(sed -n 's/^#define KEY_[A-Z_]* "\(pb-[a-z]*\.[a-z_]*\)"$/\1/p' "$D/../../lib/keys.h")
unlisted=
for k in $keys pb-sense.resolves pb-sense.missed; do
	section 'Machine keys' | grep -q "^\.It Li .*\b$k\b" || unlisted="$unlisted $k"
done
like "$(echo "$keys" | grep -c .):$unlisted" '^[1-9][0-9]+:$' \
	"pb(7), Machine keys: every key of lib/keys.h, and pb-sense's"

# Each page opens with an example and its output (ministat's page is the
# model). opening PAGE: the first literal display of PAGE's DESCRIPTION
# with its mdoc escapes undone; its commands are the lines from "$ " on,
# continued after a trailing backslash or pipe; the rest, or else the
# ragged display right after it, is the output shown.
opening() {
	awk '/^\.Sh / { on = $2 == "DESCRIPTION"; next }
	     on && /^\.Bd -literal/ && !done { lit = 1; next }
	     lit && /^\.Ed/ { lit = 0; done = 1; next }
	     lit { print; next }
	     done == 1 && /^\.Bd -ragged/ { rag = 1; next }
	     rag && /^\.Ed/ { exit }
	     rag { print; next }
	     done == 1 && !/^\.Bd/ { exit }' "$1" |
	sed 's/\\e/\\/g; s/\\&//g'
}
# commands/shown FILE: the commands of an opening (without "$ "), and the
# output it shows
commands() { awk '/^\$ / { c = 1; sub(/^\$ /, "") } c { print; c = /[\\|]$/ }' "$1"; }
shown() { awk '/^\$ / { c = 1 } !c { print } c { c = /[\\|]$/ }' "$1"; }
# flat: all blanks and newlines as one space, what a timing varies masked
flat() { sed "$1" | tr -s ' \t\n' '   ' | sed 's/ $//'; }
mkdir -p "$T/ex" && ln -s "$M/../../examples" "$T/ex/examples"
for page in "$M"/man1/*.1 "$M"/man7/*.7; do
	name=${page##*/}
	opening "$page" >"$T/opening"
	commands "$T/opening" >"$T/opening.sh"
	if [ ! -s "$T/opening.sh" ]; then
		not_ok "$name opens with an example"; continue
	fi
	# what varies from run to run: times, ids, the host, the load and CPU
	# pressure (load=, psi=, psi_run=: there or not, by system), and the last
	# three columns, the rusage, whole (a CPU time split at clock ticks
	# can be 0 in either) (pb-run), every number (pb-sense); pb-pg needs a
	# server; pb-plot draws a picture
	mask=
	sp='[[:space:]]\{1,\}'
	case $name in
	pb-run.1) mask="/^[0-9]/s/\\($sp[0-9]\\{1,\\}\\)\\{7\\}\$/ U U U U U U U/; "'s/start=[^ ]*/start=S/; s/end=[^ ]*/end=S/; s/ load=[0-9.]*//; s/ psi=[0-9.]*//; s/ psi_run=[0-9.]*//; s/pid=[0-9]*/pid=P/; s/study=[0-9a-f]*/study=S/; s/ host=.*/ host=H/; s/^\(# maxrss_floor_kib: \)[0-9]*/\1N/; s/[0-9]\{4,\}/N/g' ;;
	pb-sense.1) mask='/^delay_ns/!s/-\{0,1\}[0-9][0-9.]*/N/g' ;;
	pb-pg.7) skip "$name: its opening example needs a PostgreSQL server: t/0931-pages-pg.t"; continue ;;
	pb-plot.1)
		if ! command -v gnuplot >/dev/null 2>&1; then
			skip "gnuplot not installed"; skip "gnuplot not installed"; continue
		fi ;;
	esac
	(cd "$T/ex" && sh ./../opening.sh) >"$T/got" 2>"$T/err"
	rc=$?
	if [ "$name" = pb-plot.1 ]; then
		is "$rc:$([ -s "$T/ex/runs.png" ] && echo png):$(cat "$T/err")" "0:png:" "$name: the opening example draws runs.png"
		lost=
		pb-pair "$M/../../examples/data/raw-ab.tsv" | pb-plot runs -o "$T/runs.svg"
		for q in 'Per-run 95% intervals of the median of d; band: run-block interval of the pooled median' \
			'pooled median -30.21 ' '[-32.72, -26.85]'; do
			grep -qF "$q" "$page" && grep -qF "$q" "$T/runs.svg" 2>/dev/null || lost="$lost '$q'"
		done
		is "$lost" "" "$name: the title and the band the opening describes are in the picture"
		continue
	fi
	shown "$T/opening" >"$T/want"
	if [ "$rc" = 0 ] && [ -s "$T/got" ] && [ -s "$T/want" ]; then
		is "$(flat "$mask" <"$T/got")" "$(flat "$mask" <"$T/want")" "$name: its opening example prints what the page shows"
	else
		not_ok "$name: its opening example runs and prints (status $rc)"
		diag "$(cat "$T/err")"
	fi
done

done_testing

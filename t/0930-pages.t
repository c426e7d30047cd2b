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

done_testing

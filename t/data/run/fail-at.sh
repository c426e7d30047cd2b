#!/bin/sh
# fail-at.sh FILE K STATUS: count the calls in FILE; exit STATUS on call K.
n=$(($(cat "$1" 2>/dev/null || echo 0) + 1))
echo "$n" >"$1"
[ "$n" -ne "$2" ] || exit "$3"

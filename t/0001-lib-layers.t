#!/bin/sh
# lib/ is a one-way chain: drawn from the #include "..." lines of lib/,
# the modules (X.c with X.h; num_parse.c and num_format.c are num) form
# no circle, and the fuzz build (Makefile FUZZ_LIB) compiles exactly the
# sources its targets reach.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# "module module" for every include of one lib/ header by another
# module's file; a source named X_Y.c without its own header belongs to X.
edges() {
	awk -v headers="$(cd lib && echo *.h)" '
	BEGIN { n = split(headers, h, " "); for (i = 1; i <= n; i++) { sub(/\.h$/, "", h[i]); have[h[i]] = 1 } }
	function module(f,   m) {
		m = f; sub(/.*\//, "", m); sub(/\.[ch]$/, "", m)
		while (!(m in have) && m ~ /_/) sub(/_[^_]*$/, "", m)
		return m
	}
	FNR == 1 { m = module(FILENAME); print m, m }
	/^#include "[^"]*\.h"/ {
		d = $2; gsub(/"/, "", d); sub(/\.h$/, "", d)
		if ((d in have) && d != m) print m, d
	}' "$@"
}
edges lib/*.c lib/*.h | sort -u >"$T/edges"
awk '$1 != $2' "$T/edges" >"$T/deps"
if [ "$(wc -l <"$T/deps")" -ge 10 ] && grep -qx 'stream err' "$T/deps"; then
	ok "the include graph of lib/ is drawn"; diag "$(wc -l <"$T/deps") edges"
else
	not_ok "the include graph of lib/ is drawn"; diag "$(cat "$T/deps")"
fi

tsort "$T/edges" >"$T/order" 2>"$T/loop"
if [ $? -eq 0 ] && [ ! -s "$T/loop" ] && [ -s "$T/order" ]; then
	ok "no circle in lib/'s includes"
else
	not_ok "no circle in lib/'s includes"; diag "$(cat "$T/loop")"
fi

# The lib/ sources a fuzz target needs: the modules its includes reach,
# through every file of each module.
sources_of() {
	for f in lib/$1.c lib/$1_*.c; do [ -f "$f" ] && echo "$f"; done
}
needed() {
	reach=$(sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$1" | while read -r h; do
		[ -f "lib/$h.h" ] && echo "$h"; done)
	seen=
	while [ -n "$reach" ]; do
		next=
		for m in $reach; do
			case " $seen " in *" $m "*) continue ;; esac
			seen="$seen $m"
			next="$next $(awk -v m="$m" '$1 == m && $2 != m { print $2 }' "$T/edges")"
		done
		reach=$next
	done
	for m in $seen; do sources_of "$m"; done
}
for f in t/fuzz/*.c; do needed "$f"; done | sort -u >"$T/need"
sed -n 's/^FUZZ_LIB *= *//p' Makefile | tr ' ' '\n' | sed '/^$/d' | sort -u >"$T/fuzzlib"
if [ -s "$T/need" ] && cmp -s "$T/need" "$T/fuzzlib"; then
	ok "FUZZ_LIB lists what the fuzz targets reach"; diag "$(tr '\n' ' ' <"$T/need")"
else
	not_ok "FUZZ_LIB lists what the fuzz targets reach"
	diag "needed: $(tr '\n' ' ' <"$T/need")" "FUZZ_LIB: $(tr '\n' ' ' <"$T/fuzzlib")"
fi
# One runner: the porcelain starts pb's tools through lib/tools, and only
# pb-run (its files, over lib/proc) starts processes of its own.
grep -n -E '\<(fork|vfork|posix_spawnp?|exec[lv]p?e?|proc_start|system|popen) *\(' bin/*.c |
	grep -v '^bin/pb-run' >"$T/spawns"
if [ ! -s "$T/spawns" ] && grep -q 'fork *(' lib/tools.c && grep -q 'fork *(' lib/proc.c; then
	ok "no bin/ file but pb-run's starts a process"
else
	not_ok "no bin/ file but pb-run's starts a process"; diag "$(cat "$T/spawns")"
fi
# Thin mains: each bin/ C file a main over lib/, none over 900 lines, and
# bin/ in all smaller than lib/.
big=$(wc -l bin/*.c | awk '$2 != "total" && $1 > 900 { print $2 ": " $1 }')
binl=$(cat bin/*.c | wc -l)
libl=$(cat lib/*.c lib/*.h | wc -l)
if [ -z "$big" ] && [ "$binl" -gt 1000 ] && [ "$binl" -lt "$libl" ]; then
	ok "bin/ holds thin mains"; diag "bin/*.c $binl lines, lib/ $libl"
else
	not_ok "bin/ holds thin mains"; diag "over 900: ${big:-none}; bin/*.c $binl lines, lib/ $libl"
fi
done_testing

#!/bin/sh
# gotest2pb.sh: the text of `go test -bench -count N` as a pb raw stream,
# so that pb-pair, pb-logratio, pb-tint and the rest can analyse it.
#
# usage: gotest2pb.sh [--a NAME] [--b NAME] [FILE...] > raw.tsv
#
#   --a NAME, --b NAME   the benchmarks that are arms A (the baseline) and
#                        B (the candidate): BenchmarkSort/quick-8, or
#                        without the -GOMAXPROCS suffix when that is
#                        unambiguous; the default is the only two of the
#                        output, in its order
#
# Reads each FILE (the standard input when there is none), the output of
# one `go test -run '^$' -bench ... -count N`. Each count is one pb run of
# one pair: run k is the k-th result line of A with the k-th of B; the
# runs of a second FILE follow those of the first. A result's value is
# go test's ns/op, the time of one iteration averaged over its b.N
# iterations; here it becomes whole ns. go test ran all counts of one
# benchmark, then all of the next, in one process: the pair is a blocked
# design, not an interleaved one, and the metadata says so (see
# README.md). Other metrics (B/op, allocs/op, MB/s) are left out. No jq:
# awk reads the text. The output is written only when every FILE is good:
# errors are one line on stderr, exit 1. A FILE with the results of
# another is a copy, not a second run: refused.
# shellcheck disable=SC2016   # the awk program in single quotes
set -eu
prog=gotest2pb
. "$(dirname "$0")/import.sh"

a='' b=''
import_options "a b" "$@"
shift "$import_used"
import_ab benchmark
import_without_jq=1
import_start

# The program: every result line "NAME ITERATIONS VALUE ns/op ..." kept
# as (file, name, iterations, value); a name alone on a line (the
# benchmark printed something, or -v) is the name of the next result line
# that has none. At the end: the arms chosen and checked, the stream.
program='
function bad(m) { print m > "/dev/stderr"; failed = 1; exit 1 }
# a name or value read from the input, safe to print: control bytes as ?
function clean(s) { gsub(/[\001-\037\177]/, "?", s); return s }
function add(name, iters, v,    k) {
	if (v !~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/)
		bad(shown ": line " FNR ": " name ": " clean(v) " ns/op is not a number")
	v += 0
	if (v * 1 >= 1e15) bad(shown ": line " FNR ": " name ": " v " ns/op is beyond what this script converts")
	if (v < 0.5) bad(shown ": line " FNR ": " name ": " v " ns/op is below 1 ns, too small for whole ns (give the benchmark more work per iteration)")
	if (pkg_of[nf, name] != "" && pkg_of[nf, name] != pkg)
		bad(shown ": " name " in two packages, " pkg_of[nf, name] " and " pkg ": give the output of one package")
	pkg_of[nf, name] = pkg
	if (!((nf, name) in count)) { count[nf, name] = 0; order[nf, ++nnames[nf]] = name }
	k = ++count[nf, name]
	val[nf, name, k] = v; its[nf, name, k] = iters
	if (!(nf in min) || v < min[nf]) min[nf] = v
}
# the names as typed (awk reads a name that starts with - by ./NAME),
# one a line: every file has a first line (none is empty)
BEGIN { nnamed = split(ENVIRON["PB_NAMES"], named, "\n") }
FNR == 1 {
	nf++; shown = nnamed ? named[nf] : "standard input"
	name_of[nf] = shown; pending = ""; pkg = ""; nnames[nf] = 0
}
{ sub(/\r$/, "") }
/^goos: /   { goos[nf] = clean(substr($0, 7)); next }
/^goarch: / { goarch[nf] = clean(substr($0, 9)); next }
/^pkg: /    { pkg = clean(substr($0, 6)); pkgs[nf] = pkgs[nf] (pkgs[nf] == "" ? "" : ", ") pkg; next }
/^cpu: /    { cpu[nf] = clean(substr($0, 6)); next }
/^--- FAIL: Benchmark/ { fail[nf, $3] = FNR; next }
/^Benchmark[^ \t]*[ \t]+[0-9]+[ \t]+[^ \t]+ ns\/op/ { add(clean($1), $2, $3); pending = ""; next }
/^[ \t]+[0-9]+[ \t]+[^ \t]+ ns\/op/ { if (pending != "") add(pending, $1, $2); pending = ""; next }
/^Benchmark[^ \t]*([ \t]|$)/ { pending = clean($1); next }
# pick NAME in file f: the exact name, or NAME-GOMAXPROCS when only one
function pick(want, f,    i, n, hit, got) {
	for (i = 1; i <= nnames[f]; i++) if (order[f, i] == want) return want
	for (i = 1; i <= nnames[f]; i++) {
		n = order[f, i]
		if (index(n, want "-") == 1 && substr(n, length(want) + 2) ~ /^[0-9]+$/) { hit++; got = n }
	}
	if (hit == 1) return got
	if (hit > 1) bad(name_of[f] ": " want " matches " hit " benchmarks (one per -cpu value): give the name with its -N suffix")
	if (failed_at(f, want)) bad(name_of[f] ": line " failed_at(f, want) ": " want " failed (--- FAIL)")
	bad(name_of[f] ": no benchmark " want " (it has " names(f) ")")
}
# the line of "--- FAIL: NAME" for a benchmark, with or without -N; 0 if none
function failed_at(f, n,    base) {
	base = n; sub(/-[0-9]+$/, "", base)
	return (f, n) in fail ? fail[f, n] : (f, base) in fail ? fail[f, base] : 0
}
function names(f,    i, s) {
	for (i = 1; i <= nnames[f] && i <= 6; i++) s = s (i > 1 ? ", " : "") order[f, i]
	return s (nnames[f] > 6 ? ", ..." : "")
}
# a file name as pb(7) escapes a metadata value (a newline is refused)
# (a byte at a time: the backslashes of gsub differ between awks)
function one_line(s,    i, c, out) {
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		out = out (c == "\\" ? "\\\\" : c == "\t" ? "\\t" : c == "\r" ? "\\r" : c)
	}
	return out
}
function word(s) { s = one_line(s); gsub(/ /, "%20", s); return s }
# what identifies file f: the results of its arms, in order; the same in two
# files is a copy of one output, not a second run
function results(f,    k, s) {
	for (k = 1; k <= count[f, arm_a[f]]; k++) s = s " " its[f, arm_a[f], k] ":" val[f, arm_a[f], k]
	s = s " |"
	for (k = 1; k <= count[f, arm_b[f]]; k++) s = s " " its[f, arm_b[f], k] ":" val[f, arm_b[f], k]
	return s
}
# v rounded to whole ns, half away from zero (as jq round), printed whole
function whole(v) { return sprintf("%.0f", int(v + 0.5)) }
END {
	if (failed) exit 1
	if (nf == 0) bad("no input: give the output of go test -bench")
	for (f = 1; f <= nf; f++) {
		if (nnames[f] == 0) bad(name_of[f] ": no benchmark result (a line \"BenchmarkX-N  ITERATIONS  T ns/op\"): not the output of go test -bench")
		if (ENVIRON["PB_A"] != "") { na = pick(ENVIRON["PB_A"], f); nb = pick(ENVIRON["PB_B"], f) }
		else if (nnames[f] == 2) { na = order[f, 1]; nb = order[f, 2] }
		else if (nnames[f] < 2) bad(name_of[f] ": 1 benchmark (" names(f) "): an A/B comparison needs 2")
		else bad(name_of[f] ": " nnames[f] " benchmarks (" names(f) "): choose the arms with --a NAME --b NAME")
		if (na == nb) bad(name_of[f] ": --a and --b name the same benchmark, " na)
		if (failed_at(f, na)) bad(name_of[f] ": line " failed_at(f, na) ": " na " failed (--- FAIL)")
		if (failed_at(f, nb)) bad(name_of[f] ": line " failed_at(f, nb) ": " nb " failed (--- FAIL)")
		if (f > 1 && (na != arm_a[1] || nb != arm_b[1]))
			bad(name_of[f] ": the arms are " na " and " nb ", not " arm_a[1] " and " arm_b[1] " as in " name_of[1])
		arm_a[f] = na; arm_b[f] = nb
		for (g = 1; g < f; g++) if (results(g) == results(f))
			bad(name_of[f] ": the same results as " name_of[g] ": a copy of one output is not a second run")
		ca = count[f, na]; cb = count[f, nb]
		runs_of[f] = ca < cb ? ca : cb
		first_of[f] = 0
		for (i = 1; i <= nnames[f]; i++) if (!first_of[f] && (order[f, i] == na || order[f, i] == nb)) first_of[f] = order[f, i] == na ? 1 : 2
		total += runs_of[f]
		if (ca != cb) unpaired = unpaired sprintf("# import.unpaired: %s: counts of A %d, of B %d: %d runs kept\n", one_line(name_of[f]), ca, cb, runs_of[f])
		if (f == 1 || min[f] < lo) lo = min[f]
	}
	src = ""; r = 0
	for (f = 1; f <= nf; f++) { src = src (f > 1 ? ", " : "") one_line(name_of[f]) " runs " (r + 1) " to " (r + runs_of[f]); r += runs_of[f] }
	print "# gotest2pb: gotest2pb.sh " ENVIRON["PB_ARGV"]
	print "# source: go test -bench text; the runs are counts (-count): " src
	print "# mode: import (go test -bench)"
	print "# cmd_a: " arm_a[1] (pkgs[1] != "" ? " in " pkg_of[1, arm_a[1]] : "")
	print "# cmd_b: " arm_b[1] (pkgs[1] != "" ? " in " pkg_of[1, arm_b[1]] : "")
	print "# runs: " total
	print "# first_run: 1"
	print "# pairs: 1 (a count is one value: ns/op, the time of one iteration averaged over its b.N iterations)"
	print "# warmup: 0 in the stream (go test reports no warm-up; its b.N calibration is not in the output)"
	print "# order: blocked (imported from go test -bench: each benchmark ran all its counts, then the next benchmark)"
	print "# pairing: unpaired: run k = count k of A with count k of B, taken apart in time, in one process per file: the counts are not fresh processes, so what a process decides once (memory layout, the heap, the benchmarks before) is shared by all runs of a file; pos 1 = " (first_of[1] == 1 ? "A" : "B") ", the arm that ran first"
	print "# delay_ns: 0"
	print "# delay_arm: B"
	print "# clock: go test ns/op (wall clock per iteration), rounded to whole ns"
	its_line = ""
	for (f = 1; f <= nf; f++) {
		s = "A " its[f, arm_a[f], 1] ", B " its[f, arm_b[f], 1]
		if (index("; " its_line "; ", "; " s "; ") == 0) its_line = its_line (its_line == "" ? "" : "; ") s
	}
	print "# iterations: " its_line " per count (b.N of the first count)"
	if (goos[1] != "") print "# goos: " goos[1] "/" goarch[1]
	if (cpu[1] != "") print "# cpu: " cpu[1]
	if (total == 1) print "# note: 1 run: an interval over runs needs 2 or more: go test -count N"
	printf "%s", unpaired
	if (lo < 1000) printf "# import.resolution: values down to %s ns: rounding to whole ns costs up to %s%% of a value\n", lo, int(0.5 / lo * 100 * 1000 + 0.5) / 1000
	print "run\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus"
	run = 0
	for (f = 1; f <= nf; f++) for (k = 1; k <= runs_of[f]; k++) {
		run++
		print "# run: " run " source=" word(name_of[f]) " count=" k
		ra = run "\t1\tmeasure\tA\t" first_of[f] "\t0\t" whole(val[f, arm_a[f], k]) "\t0"
		rb = run "\t1\tmeasure\tB\t" (3 - first_of[f]) "\t0\t" whole(val[f, arm_b[f], k]) "\t0"
		if (first_of[f] == 1) print ra "\n" rb; else print rb "\n" ra
	}
}
'
argv=$(operand_words "$@")
[ -z "$a" ] || argv="$(shell_words --a "$a" --b "$b") $argv"
import_files "$@"
for f in "$@"; do
	[ -s "$f" ] || die "$f: empty: not the output of go test -bench"
	f=$(jq_path "$f")
	case $f in /*|./*) ;; *=*) f=./$f ;; esac   # awk: NAME=VALUE is an assignment
	set -- "$@" "$f"
	shift
done
if [ $# -eq 0 ]; then   # the standard input, kept to be read as a file
	cat >"$tmp/stdin" || die "cannot read the standard input"
	[ -s "$tmp/stdin" ] || die "standard input: empty: not the output of go test -bench"
	set -- "$tmp/stdin"
fi
PB_A=$a PB_B=$b PB_ARGV=$argv PB_NAMES=${files#"$nl"} awk "$program" "$@" >"$tmp/out" 2>"$tmp/err" ||
	die "$(sed -n '1p' "$tmp/err" | sed 's/^awk: //')"
import_finish

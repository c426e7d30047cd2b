#!/bin/sh
# A full disk is an error, not silence: every tool with its stdout on
# /dev/full exits 1 with one line naming the write error, for its normal
# output (pb-plot as text), --help and --version alike.
. "$(dirname "$0")/lib.sh"
if ! [ -c /dev/full ] || printf x 2>/dev/null >/dev/full; then
	echo "1..0 # skip no /dev/full here"
	exit 0
fi
cp "$D"/catalogue/raw.tsv "$D"/catalogue/pairs.tsv "$T"/ && cd "$T" || exit 1

# full TOOL ARGS...: TOOL ARGS >/dev/full, checked; one TAP line
full() {
	tool=$1
	timeout -k 5 300 "$@" </dev/null >/dev/full 2>"$T/err"
	rc=$?
	want="$tool: write error on standard output: No space left on device"
	if [ "$rc" -eq 1 ] && [ "$(cat "$T/err")" = "$want" ]; then
		ok "$* >/dev/full: exit 1, one line"
	else
		not_ok "$* >/dev/full: exit 1, one line"
		diag "status $rc; stderr: $(head -c 400 "$T/err")" "want: $want"
	fi
}

for tool in pb-run pb-pair pb-logratio pb-tint pb-boot pb-cross pb-plan pb-sense pb-plot; do
	full "$tool" --help
	full "$tool" --version
done
full pb-run --runs 1 --pairs 2 --warmup 0 -- true
full pb-run --runs 1 --pairs 2 --warmup 0 --worker 'while read x; do echo ok; done'
full pb-pair raw.tsv
full pb-pair --by-run raw.tsv
full pb-logratio --name lr2 pairs.tsv
full pb-tint pairs.tsv
full pb-tint --finding pairs.tsv
full pb-boot pairs.tsv
full pb-cross pairs.tsv
full pb-cross --each pairs.tsv
full pb-plan pairs.tsv
full pb-sense --delays 0,1ms --runs 2 --pairs 3 --warmup 0 -- true
if command -v gnuplot >/dev/null 2>&1; then
	full pb-plot pairs pairs.tsv
	full pb-plot runs pairs.tsv
else
	skip "pb-plot pairs: no gnuplot"
	skip "pb-plot runs: no gnuplot"
fi
done_testing

#!/bin/sh
# Many shards in one pb-pair call (issue 33): 200 shards of 10 runs,
# written by examples/bench/shards-gen.awk together with one file of the
# same rows, merge into the same pairs and the same runs as that file;
# pb-pair --by-run agrees too. make bench times the 1000-shard case
# (examples/bench/shards.sh); nothing here depends on timing.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$T" || exit 1
mkdir g
awk -v shards=200 -v runs=10 -v pairs=4 -v dir=g -f "$top/examples/bench/shards-gen.awk" || exit 1
set --
i=1
while [ "$i" -le 200 ]; do set -- "$@" "g/shard-$i.tsv"; i=$((i + 1)); done

# the data rows and the '# run:' lines, without the shards' heads
body() { grep -v '^#' "$1"; grep '^# run: ' "$1"; }

run pb-pair g/one.tsv
saved one.tsv
run pb-pair "$@"
saved shards.tsv
is "$rc:$(cat "$T/err"):$(row_count shards.tsv)" "0::8000" \
	"pb-pair over 200 shards x 10 runs x 4 pairs: exit 0, stderr empty, 8000 pairs"
body one.tsv >one.body
body shards.tsv >shards.body
same_file shards.body one.body "200 shards merge into the rows and run lines of one file"
is "$(rows shards.tsv | cut -f1 | uniq | awk 'NR != $1 { bad = 1 } END { print NR, !bad }')" "2000 1" \
	"runs 1..2000 in order, each once"
pb-pair --by-run g/one.tsv | grep -v '^#' >one-run
pb-pair --by-run "$@" | grep -v '^#' >shards-run
same_output shards-run one-run "pb-pair --by-run: the same 2000 runs from 200 shards as from one file"
# one shard given twice among the 200 is still refused
fails 1 "g/shard-200.tsv and g/shard-200.tsv both hold run 1991 .*the same run twice" "shard 200 given twice among 200: refused" \
	pb-pair "$@" g/shard-200.tsv

done_testing

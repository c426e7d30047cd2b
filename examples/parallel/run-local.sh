#!/bin/sh
# run-local.sh: one study as K shards that GNU parallel runs side by side
# on this machine, then merged and analysed (merge.sh).
#
# usage: run-local.sh [--shards K] [--runs R] [--jobs J] [--seed S]
#                     [--dir DIR] [pb-run options] -- CMD_A [CMD_B]
#
#   --shards K   shards (default 4)
#   --runs R     runs per shard (default 5): the study has K x R runs
#   --jobs J     shards at once, GNU parallel -j (default 50%: one shard
#                per two cores; see "One machine" in README.md)
#   --seed S     the seed of every shard (default: drawn once, here)
#   --dir DIR    where the shards and the analysis go (default shards)
# Every other option goes to pb-run (--pairs, --warmup, --order, ...).
#
# Shard i (1..K) is
#   pb-run --first-run $((1 + (i-1)*R)) --runs R --seed S [options] -- CMD...
# written to DIR/shard-i.tsv: runs 1..R, R+1..2R, ... never collide, and
# the same seed everywhere is right, because pb-run derives the order of
# run k from the seed and k (run 7 has the same order in any shard).
#
# Example, from the top of the source tree (make first):
#   examples/parallel/run-local.sh --shards 4 --runs 3 --jobs 2 --pairs 50 \
#     -- 'examples/workload/pb-workload --us 1000' \
#        'examples/workload/pb-workload --us 970'
set -eu
prog=run-local.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/shards.sh"
[ -x "$here/../../bin/pb-run" ] && PATH="$(cd "$here/../../bin" && pwd):$PATH"

shards=4 runs=5 jobs=50% seed='' dir=shards after_dashes=0
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	if [ "$after_dashes" = 1 ]; then
		set -- "$@" "$a"
		continue
	fi
	case $a in
	--help|-h) usage; exit 0 ;;
	--shards|--runs|--jobs|--seed|--dir)
		[ "$n" -gt 0 ] || usage_error "option '$a' needs a value"
		case $a in
		--shards) shards=$1 ;;
		--runs) runs=$1 ;;
		--jobs) jobs=$1 ;;
		--seed) seed=$1 ;;
		--dir) dir=$1 ;;
		esac
		shift
		n=$((n - 1)) ;;
	--first-run|--first-run=*)
		usage_error "the script gives each shard its --first-run" ;;
	--) after_dashes=1; set -- "$@" "$a" ;;
	*) set -- "$@" "$a" ;;
	esac
done
check_shard_args
command -v pb-run >/dev/null 2>&1 || die "pb-run not found on PATH"
draw_seed
mkdir -p "$dir" || die "$dir: cannot create the directory"

# -q keeps every word of the commands as it is (no second round of shell
# parsing); -I @SHARD@ leaves a {} in them alone (parallel's other
# replacement strings, {#} {%} {.} {/}, would still be replaced). The
# small sh script numbers the shard's runs. A shard is
# renamed into place only when pb-run succeeded; --halt stops the other
# shards when one fails, since the study would be incomplete.
# shellcheck disable=SC2016   # the $ are for the job's sh
seq 1 "$shards" | parallel --will-cite -j "$jobs" --halt now,fail=1 -I @SHARD@ -q \
	sh -c 'i=$1 r=$2 s=$3 d=$4; shift 4
		pb-run --quiet --first-run $((1 + (i - 1) * r)) --runs "$r" --seed "$s" "$@" \
			>"$d/shard-$i.tsv.part" && mv "$d/shard-$i.tsv.part" "$d/shard-$i.tsv"' \
	sh @SHARD@ "$runs" "$seed" "$dir" "$@" ||
	die "a shard failed (see above; its partial output is $dir/shard-N.tsv.part)"

merge_shards

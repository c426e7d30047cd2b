#!/bin/sh
# slurm.sh: the shards of one study as a Slurm job array, one shard per
# array task, then a dependent job that merges and analyses them.
#
#   sh slurm.sh submit    from the login node, in the directory where the
#                         shards should go: submits the array, then the
#                         merge job with --dependency=afterok:ARRAY
#   sbatch slurm.sh       the array alone; merge later with
#   sh slurm.sh merge     (on any machine that has pb and the shards)
#
# Edit the settings below (or set the PB_* variables: sbatch passes the
# environment on). K, the number of shards, is the --array line: tasks
# 1..K. Array task i runs
#   pb-run --first-run $((1 + (i-1)*RUNS)) --runs RUNS --seed SEED ...
# into shards/shard-i.tsv, so the runs of the study are 1..K*RUNS and no
# two tasks share a run number; every task uses the same seed, which is
# right: pb-run derives the order of run k from the seed and k.
#
# --exclusive gives each shard a whole node, so no other job shares the
# machine while it measures (drop it if your site forbids it, and expect
# more noise). pb must be installed on the nodes (make install
# PREFIX=$HOME/.local, or PB_BIN below); the commands must exist there.
#
#SBATCH --job-name=pb-shard
#SBATCH --array=1-8
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --exclusive
#SBATCH --time=00:30:00
#SBATCH --output=pb-shard-%A_%a.log
set -eu

CMD_A=${PB_CMD_A:-./old}            # arm A, the baseline
CMD_B=${PB_CMD_B:-./new}            # arm B, the candidate
RUNS=${PB_RUNS:-5}                  # runs per shard (array task)
PAIRS=${PB_PAIRS:-200}              # measured pairs per run
WARMUP=${PB_WARMUP:-20}             # warm-up pairs per run
SEED=${PB_SEED:-20261130}           # one seed for every shard
RUN_OPTS=${PB_RUN_OPTS:-}           # more pb-run options, split on blanks
DIR=${PB_DIR:-shards}               # where the shards go (shared storage)
[ -n "${PB_BIN:-}" ] && PATH="$PB_BIN:$PATH"

prog=slurm.sh
die() { echo "$prog: $*" >&2; exit 1; }

# The script itself, to read K from the --array line and to find merge.sh.
# Inside an array task, $0 is Slurm's spool copy; there only the task's
# own number matters.
self=$0
shards() {
	k=${PB_SHARDS:-$(sed -n 's/^#SBATCH --array=1-\([0-9][0-9]*\).*/\1/p' "$self")}
	[ -n "$k" ] || die "no '#SBATCH --array=1-K' line in $self"
	echo "$k"
}

shard() {
	i=$1
	first=$((1 + (i - 1) * RUNS))
	mkdir -p "$DIR"
	# shellcheck disable=SC2086   # RUN_OPTS: blank-separated options
	pb-run --quiet --first-run "$first" --runs "$RUNS" --seed "$SEED" \
		--pairs "$PAIRS" --warmup "$WARMUP" $RUN_OPTS -- "$CMD_A" "$CMD_B" \
		>"$DIR/shard-$i.tsv.part" ||
		die "shard $i failed; its partial output is $DIR/shard-$i.tsv.part"
	mv "$DIR/shard-$i.tsv.part" "$DIR/shard-$i.tsv"
}

merge() {
	k=$(shards)
	set --
	i=1
	while [ "$i" -le "$k" ]; do
		[ -f "$DIR/shard-$i.tsv" ] || die "$DIR/shard-$i.tsv is missing: array task $i failed?"
		set -- "$@" "$DIR/shard-$i.tsv"
		i=$((i + 1))
	done
	sh "$(dirname "$self")/merge.sh" -o "$DIR" "$@"
}

submit() {
	command -v sbatch >/dev/null 2>&1 || die "sbatch not found: not a Slurm login node?"
	here=$(cd "$(dirname "$self")" && pwd)
	array=$(sbatch --parsable "$self") || die "sbatch of the array failed"
	array=${array%%;*}   # "jobid;cluster" on multi-cluster sites
	sbatch --parsable --job-name=pb-merge --dependency="afterok:$array" \
		--output=pb-merge-%j.log --wrap "sh '$here/slurm.sh' merge" >/dev/null ||
		die "sbatch of the merge job failed (the array $array is queued)"
	echo "array job $array: $(shards) shards; merge after it: pb-merge-*.log, $DIR/"
}

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
	shard "$SLURM_ARRAY_TASK_ID"
else
	case ${1:-} in
	submit) submit ;;
	merge) merge ;;
	*) echo "usage: sh $self submit | sbatch $self | sh $self merge" >&2; exit 2 ;;
	esac
fi

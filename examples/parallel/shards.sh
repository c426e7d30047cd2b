# shards.sh: what run-local.sh and run-ssh.sh share. Source it once prog
# and here (this directory) are set; the functions read and set the
# scripts' shards, runs, seed, dir and after_dashes.

die() { echo "$prog: $*" >&2; exit 1; }
usage_error() { echo "$prog: $* (see $prog --help)" >&2; exit 2; }
# usage: the script's head comment, as its --help
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

# check_shard_args: --shards and --runs whole numbers, a command after --,
# GNU parallel on PATH.
check_shard_args() {
	case $shards in ''|*[!0-9]*|0*) usage_error "--shards wants a whole number from 1" ;; esac
	case $runs in ''|*[!0-9]*|0*) usage_error "--runs wants a whole number from 1" ;; esac
	[ "$after_dashes" = 1 ] || usage_error "no command: give -- CMD_A [CMD_B]"
	command -v parallel >/dev/null 2>&1 ||
		die "GNU parallel not found (install the Debian package parallel)"
}

# draw_seed: one seed for every shard, unless --seed gave it.
draw_seed() { [ -n "$seed" ] || seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); }

# merge_shards: hand shard-1.tsv .. shard-K.tsv of $dir to merge.sh.
merge_shards() {
	set --
	ms_i=1
	while [ "$ms_i" -le "$shards" ]; do
		set -- "$@" "$dir/shard-$ms_i.tsv"
		ms_i=$((ms_i + 1))
	done
	exec sh "$here/merge.sh" -o "$dir" "$@"
}

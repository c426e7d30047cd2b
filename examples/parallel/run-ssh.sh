#!/bin/sh
# run-ssh.sh: the shards of one study on several machines over ssh (GNU
# parallel --sshlogin), brought back here, merged and analysed (merge.sh).
#
# usage: run-ssh.sh --hosts LOGINS [--shards K] [--runs R] [--seed S]
#                   [--dir DIR] [--transfer FILE]... [--dry-run]
#                   [pb-run options] -- CMD_A [CMD_B]
#
#   --hosts LOGINS   GNU parallel --sshlogin: host1,user@host2,... One shard
#                    at a time per host (-j1), so shards never compete for a
#                    machine; write 2/host to allow two there
#   --shards K       shards (default: 2 per host)
#   --runs R         runs per shard (default 5)
#   --seed S         the seed of every shard (default: drawn once, here)
#   --dir DIR        where the shards come back to (default shards)
#   --transfer FILE  copy FILE to each host first (GNU parallel --basefile)
#                    into the job's directory, which is first on PATH there
#   --dry-run        print the shard commands; run nothing
# Every other option goes to pb-run.
#
# What each host needs:
#  - pb-run. Either install pb there (make install PREFIX=$HOME/.local, and
#    make sure a non-interactive ssh login has that bin on its PATH), or
#    ship it: --transfer bin/pb-run. A shipped binary must run there: build
#    it static with `make musl` (no libpq, no libc version to match).
#    Only pb-run runs remotely; pairing and analysis happen here.
#  - The commands. Give absolute paths that exist on every host, or ship
#    them with --transfer and call them as ./name.
#  - The same pb version everywhere: pb-pair refuses to merge shards whose
#    '# pb-run:' versions differ.
#  - rsync on both ends (GNU parallel moves the files with it) and ssh
#    without a password prompt (ssh-agent or keys); PARALLEL_SSH or
#    --ssh in PARALLEL changes the ssh command, for ssh and rsync alike:
#    PARALLEL_SSH="ssh -F FILE" for hosts with their own port, user or
#    key in an ssh config FILE (README.md; t/1203 runs so).
#
# Shard i runs `pb-run --first-run $((1 + (i-1)*R)) --runs R --seed S ...`
# in a fresh directory under ~/.parallel/tmp on whichever host is free
# (--workdir ...), writes shard-i.tsv there, and parallel brings it back
# into DIR (--return) and removes the remote copies (--cleanup). Each run
# records its host ('# run: N start=... pid=... host=H'), so merge.sh can
# analyse host by host.
#
# Example:
#   examples/parallel/run-ssh.sh --hosts bench1,bench2,bench3 --shards 6 \
#     --runs 5 --transfer bin/pb-run --pairs 200 -- /opt/app/old /opt/app/new
set -eu
prog=run-ssh.sh
here=$(cd "$(dirname "$0")" && pwd)
. "$here/shards.sh"
[ -x "$here/../../bin/pb-pair" ] && PATH="$(cd "$here/../../bin" && pwd):$PATH"

hosts='' shards='' runs=5 seed='' dir=shards dry=0 after_dashes=0
nl='
'
basefiles=   # newline-separated "--basefile" FILE pairs: names may hold spaces
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
	--dry-run) dry=1 ;;
	--hosts|--shards|--runs|--seed|--dir|--transfer)
		[ "$n" -gt 0 ] || usage_error "option '$a' needs a value"
		case $a in
		--hosts) hosts=$1 ;;
		--shards) shards=$1 ;;
		--runs) runs=$1 ;;
		--seed) seed=$1 ;;
		--dir) dir=$1 ;;
		--transfer)
			[ -f "$1" ] || die "$1: no such file to transfer"
			# "DIR/./NAME": parallel puts it at NAME in the job's directory
			f=$(cd "$(dirname "$1")" && pwd)/./$(basename "$1")
			case $f in *"$nl"*) die "$1: a newline in the file name" ;; esac
			basefiles="$basefiles$nl--basefile$nl$f" ;;
		esac
		shift
		n=$((n - 1)) ;;
	--first-run|--first-run=*)
		usage_error "the script gives each shard its --first-run" ;;
	--) after_dashes=1; set -- "$@" "$a" ;;
	*) set -- "$@" "$a" ;;
	esac
done
[ -n "$hosts" ] || usage_error "--hosts LOGINS is required (host1,host2,...)"
[ -n "$shards" ] || shards=$(( 2 * $(echo "$hosts" | tr ',' '\n' | grep -c .) ))
check_shard_args
# parallel --sshlogin asks for rsync before it runs (or prints) anything
command -v rsync >/dev/null 2>&1 ||
	die "rsync not found: GNU parallel --sshlogin moves files with it (install the Debian package rsync, here and on every host)"
draw_seed
if [ "$dry" = 1 ]; then
	dir=.   # nothing comes back: no directory made
else
	mkdir -p "$dir" || die "$dir: cannot create the directory"
	dir=$(cd "$dir" && pwd)
fi

# GNU parallel's options, one a line. -j1: one shard at a time per host.
opts="--will-cite$nl-j1$nl--sshlogin$nl$hosts$nl--workdir$nl...$nl--return"
opts="$opts${nl}shard-@SHARD@.tsv$nl--cleanup$nl--halt${nl}now,fail=1$nl-I$nl@SHARD@$basefiles"
[ "$dry" = 1 ] && opts="$opts$nl--dry-run"

# The remote side: the job's directory first on PATH (shipped files), then
# pb-run into shard-i.tsv, which --return brings back. -q hands every word
# through ssh unchanged (parallel quotes them for the remote shell); -I
# @SHARD@ leaves a {} in the commands alone.
run_shards() {
	cd "$dir" || return 1
	IFS=$nl
	set -f
	# shellcheck disable=SC2086,SC2016   # $opts splits on newlines; the $ are for sh
	seq 1 "$shards" | parallel $opts -q \
		sh -c 'i=$1 r=$2 s=$3; shift 3; PATH="$(pwd):$PATH"
			pb-run --quiet --first-run $((1 + (i - 1) * r)) --runs "$r" --seed "$s" "$@" \
				>"shard-$i.tsv"' \
		sh @SHARD@ "$runs" "$seed" "$@"
}
(run_shards "$@") || die "a shard failed (see above)"
[ "$dry" = 1 ] && exit 0

merge_shards

#!/bin/sh
# load.sh: one study directory into the history (schema.sql), in one
# transaction: all of it, or nothing and one line that says why.
#
# usage: load.sh --comparison NAME [--commit REV] [--commit-time TIME]
#                [--git DIR] [--db CONNINFO] STUDY_DIR
#
#   --comparison NAME  what is compared ("parser", "q7-index"): the
#                      history follows one comparison across commits
#                      (default: $PB_COMPARISON)
#   --commit REV       the commit of the code under test; default
#                      $PB_COMMIT, $GITHUB_SHA or $CI_COMMIT_SHA, else
#                      `git rev-parse HEAD` in --git DIR
#   --git DIR          the repository of the code under test (default .):
#                      REV is resolved there to its full hash and its
#                      committer date, which orders the history
#   --commit-time TIME the commit's time, when git cannot tell it
#   --db CONNINFO      the database (default: libpq's PG* variables)
# PSQL, in the environment, is the psql to run (default: psql on PATH).
#
# STUDY_DIR holds pb streams, found by name and checked by header:
#   raw.tsv, shard-*.tsv  pb-run's raw streams (one, or a study's shards)
#   pairs.tsv             pb-pair [| pb-logratio]
#   byrun.tsv, by-run.tsv or runs.tsv
#                         pb-pair --by-run | pb-logratio
#   tint.tsv, finding.tsv or overall.tsv
#                         pb-tint [--threshold T] --finding of the by-run
#                         stream (an interval over all runs)
# What is missing is made from what is there with the pb tools (pairs
# and by-run from the raw streams, the finding from the by-run stream),
# in a temporary directory; STUDY_DIR is only read.
set -eu
prog=load.sh
# show TEXT: one line on stdout, control bytes shown as \xNN; say: on stderr
show() {
	printf '%s\n' "$*" | LC_ALL=C awk '
		BEGIN { for (i = 1; i < 32; i++) hex[sprintf("%c", i)] = sprintf("\\x%02x", i)
		        hex[sprintf("%c", 127)] = "\\x7f" }
		{ out = out (NR > 1 ? "\\x0a" : "")
		  for (i = 1; i <= length($0); i++) { c = substr($0, i, 1); out = out (c in hex ? hex[c] : c) } }
		END { print out }'
}
say() { show "$@" >&2; }
die() { say "$prog: $*"; exit 1; }
usage_error() { say "$prog: $* (see the head of $0)"; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
# From the source tree, the tools built there.
[ -x "$here/../../bin/pb-pair" ] && PATH="$(cd "$here/../../bin" && pwd):$PATH"

comparison=${PB_COMPARISON-} commit= commit_time= gitdir= db=
while [ $# -gt 0 ]; do
	case $1 in
	--comparison|--commit|--commit-time|--git|--db)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in
		--comparison) comparison=$2 ;;
		--commit) commit=$2 ;;
		--commit-time) commit_time=$2 ;;
		--git) gitdir=$2 ;;
		--db) db=$2 ;;
		esac
		shift 2 ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage_error "give one study directory"
dir=$1
[ -n "$comparison" ] || usage_error "no --comparison (or PB_COMPARISON): name what the history follows"
[ -d "$dir" ] || die "$dir: not a directory"

# The commit: given, from the CI's environment, or HEAD of --git DIR.
[ -n "$commit" ] || commit=${PB_COMMIT:-${GITHUB_SHA:-${CI_COMMIT_SHA:-}}}
if [ -z "$commit" ]; then
	commit=$(git -C "${gitdir:-.}" rev-parse --verify -q HEAD 2>/dev/null) ||
		usage_error "no commit: give --commit REV, set PB_COMMIT, or run in the repository of the code under test (--git DIR)"
fi
# A revision git may read (not an option, no blank): resolve it when the
# repository knows it. A commit git cannot resolve is kept as given.
case $commit in
-*|*[!A-Za-z0-9._/@^~{}-]*) git_ok= ;;
*) git_ok=1 ;;
esac
if [ -n "$git_ok" ] && full=$(git -C "${gitdir:-.}" rev-parse --verify -q "$commit^{commit}" 2>/dev/null); then
	commit=$full
	[ -n "$commit_time" ] || commit_time=$(git -C "${gitdir:-.}" show -s --format=%cI "$commit")
elif [ -n "$gitdir" ]; then
	die "$gitdir: '$commit' is not a commit of that repository"
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/pb-history.XXXXXX")
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$stage/files.tsv"
for f in meta runs rows-pairs rows-byrun rows-finding; do : >"$stage/$f.tsv"; done

kind_of() { KIND=classify LC_ALL=C awk -f "$here/stage.awk" "$1"; }

# stage FILE LABEL KIND: the stream into the staging files
stage() {
	KIND=$3 LABEL=$2 STAGE=$stage LC_ALL=C awk -f "$here/stage.awk" "$1" ||
		die "$dir: $2: cannot be read"
	printf '%s\t%s\t%s\n' "$(printf '%s' "$2" | sed 's/\\/\\\\/g; s/	/\\t/g')" "$3" \
		"$(wc -l <"$stage/files.tsv" | tr -d ' ')" >>"$stage/files.tsv"
}

# derive OUT TOOL ARGS...: a missing stream made by a pb tool; its
# refusal (one line) said as this study's, its warnings passed on
derive() {
	dv_out=$1
	shift
	"$@" >"$dv_out" 2>"$stage/derive.err" || die "$dir: $(head -n 1 "$stage/derive.err")"
	cat "$stage/derive.err" >&2
}

# first_of KIND NAME...: the first of DIR/NAME that is a KIND stream
first_of() {
	fo_kind=$1
	shift
	for fo in "$@"; do
		[ -f "$dir/$fo" ] && [ "$(kind_of "$dir/$fo")" = "$fo_kind" ] && { echo "$fo"; return; }
	done
	return 0
}

# The raw streams, as "$@".
set --
for f in "$dir"/raw.tsv "$dir"/shard-*.tsv; do
	[ -f "$f" ] || continue
	k=$(kind_of "$f")
	[ "$k" = raw ] || die "$dir: ${f#"$dir"/}: not a raw stream of pb-run (its kind: $k)"
	set -- "$@" "$f"
done
pairs=$(first_of pairs pairs.tsv)
byrun=$(first_of byrun byrun.tsv by-run.tsv runs.tsv)
finding=$(first_of finding tint.tsv finding.tsv overall.tsv)
[ $# -gt 0 ] || [ -n "$pairs$byrun$finding" ] ||
	die "$dir: no pb stream (raw.tsv, shard-*.tsv, pairs.tsv, byrun.tsv, tint.tsv; see $prog --help)"
for f in "$@"; do stage "$f" "${f#"$dir"/}" raw; done
if [ -n "$pairs" ]; then
	stage "$dir/$pairs" "$pairs" pairs
elif [ $# -gt 0 ]; then
	derive "$stage/pairs.in" pb-pair "$@"
	stage "$stage/pairs.in" "pb-pair of the raw streams" pairs
fi
if [ -n "$byrun" ]; then
	stage "$dir/$byrun" "$byrun" byrun
	byrun_file=$dir/$byrun
elif [ $# -gt 0 ]; then
	derive "$stage/byrun.pairs" pb-pair --by-run "$@"
	derive "$stage/byrun.in" pb-logratio "$stage/byrun.pairs"
	stage "$stage/byrun.in" "pb-pair --by-run of the raw streams" byrun
	byrun_file=$stage/byrun.in
else
	byrun_file=
fi
if [ -n "$finding" ]; then
	stage "$dir/$finding" "$finding" finding
elif [ -n "$byrun_file" ]; then
	derive "$stage/finding.in" pb-tint --finding "$byrun_file"
	stage "$stage/finding.in" "pb-tint of the by-run stream" finding
fi
[ -n "$finding$byrun_file" ] ||
	say "$prog: $dir: no finding and no by-run or raw stream to make one: the study is stored, but the history view shows only studies with a finding"

# One transaction; its one line out, or the first error as one line.
set -- -X -q -v ON_ERROR_STOP=1 -v "comparison=$comparison" -v "commit=$commit" \
	-v "commit_time=$commit_time"
[ -z "$db" ] || set -- "$@" -d "$db"
if out=$(cd "$stage" && "${PSQL:-psql}" "$@" <"$here/load.sql" 2>"$stage/err"); then
	show "$prog: loaded $out"
	exit 0
fi
msg=$(sed -n 's/^ERROR:  //p; s/^psql:<stdin>:[0-9]*: ERROR:  //p' "$stage/err" | head -n 1)
[ -n "$msg" ] || msg=$(grep -v '^$' "$stage/err" | head -n 1)
die "$dir: ${msg:-psql failed}"

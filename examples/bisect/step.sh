#!/bin/sh
# step.sh: one step of `git bisect run`, answered by pb-compare --bisect.
# It builds the commit under test (HEAD, as git bisect checked it out)
# from `git archive` into a temporary directory, and compares it (B) with
# a build of the known-good commit (A: built once, kept in a cache
# directory named by that commit and the build command). It exits as git
# bisect run reads a step:
#   0    good: B is shown not slower than PB_BISECT_GATE times A
#   1    bad: B is shown slower than that
#   125  skip: the budget ended without either, or the commit does not build
#   255  stop: anything else (pb-compare failed, no good build, a usage error)
#
# Run it from outside the repository it bisects (pb's install, or a copy):
# git bisect checks out old commits, which would change or remove a copy
# kept in the tree. Builds never touch the work tree.
#
#   git bisect start BAD GOOD
#   PB_BISECT_CMD='./app --input testdata/big' git bisect run /usr/local/share/pb/examples/bisect/step.sh
#
# The environment (README.md):
#   PB_BISECT_CMD     the command timed, run at the top of each build (required)
#   PB_BISECT_BUILD   the build command, run there first (default: make)
#   PB_BISECT_GOOD    the known-good commit (default: the first good one
#                     git bisect was given)
#   PB_BISECT_GATE    R of --fail-if-slower (default: 1.05)
#   PB_BISECT_BUDGET  each step's budget (default: 30s)
#   PB_BISECT_OPTS    more pb-compare options (default: none)
#   PB_BISECT_CACHE   where good builds are kept (default:
#                     ${XDG_CACHE_HOME:-$HOME/.cache}/pb-bisect)
#   PB_BISECT_KEEP    a directory to keep each step's study in, as KEEP/COMMIT
set -u
me=step.sh
stop() { echo "$me: $*: stopping the bisection" >&2; exit 255; }
# a usage error is 255 too: sh's own exit for ${X:?} is 1 or 2, "bad" to git
cmd=${PB_BISECT_CMD-}
[ -n "$cmd" ] || stop "set PB_BISECT_CMD to the command to time (PB_BISECT_CMD=./app)"
build=${PB_BISECT_BUILD:-make}
cache=${PB_BISECT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pb-bisect}
command -v pb-compare >/dev/null 2>&1 || stop "no pb-compare on PATH"

# build REV DIR: REV's tree in DIR, built there; its output in DIR.log
build() {
	mkdir "$2" && git archive "$1" | tar -x -C "$2" &&
		(cd "$2" && sh -c "$build") >"$2.log" 2>&1 </dev/null
}
# quote WORD: WORD as one shell word
quote() { printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g")"; }

good=${PB_BISECT_GOOD:-$(git bisect log 2>/dev/null | sed -n 's/^# good: \[\([0-9a-f]*\)\].*/\1/p' | head -n 1)}
[ -n "$good" ] || stop "no good commit: set PB_BISECT_GOOD, or give git bisect one"
good=$(git rev-parse --verify -q "$good^{commit}") || stop "PB_BISECT_GOOD: no commit '$good'"
rev=$(git rev-parse --verify -q HEAD) || stop "no HEAD"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-bisect.XXXXXX") || stop "no temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 255' INT TERM HUP

# A: the good build, made once per good commit and build command, in
# place (a build may record its own path); A.built says it finished
a=$cache/$good-$(printf %s "$build" | cksum | cut -d ' ' -f 1)
if [ ! -e "$a.built" ]; then
	rm -rf "$a" && mkdir -p "$cache" || stop "cannot make $cache"
	build "$good" "$a" || stop "the good commit $good does not build (log: $a.log)"
	: >"$a.built" || stop "cannot write $a.built"
fi
if ! build "$rev" "$tmp/b"; then
	echo "$me: $rev does not build: skip (125)" >&2
	tail -n 5 "$tmp/b.log" >&2
	exit 125
fi
# shellcheck disable=SC2086 # PB_BISECT_OPTS is words
pb-compare --bisect --fail-if-slower "${PB_BISECT_GATE:-1.05}" -b "${PB_BISECT_BUDGET:-30s}" \
	${PB_BISECT_OPTS-} --no-pictures --dir "$tmp/study" -- \
	"cd $(quote "$a") && $cmd" "cd $(quote "$tmp/b") && $cmd"
rc=$?
if [ -n "${PB_BISECT_KEEP-}" ] && [ -d "$tmp/study" ]; then
	mkdir -p "$PB_BISECT_KEEP" && rm -rf "${PB_BISECT_KEEP:?}/$rev" &&
		cp -R "$tmp/study" "$PB_BISECT_KEEP/$rev"
fi
case $rc in
0|1|125) exit "$rc" ;;
*) stop "pb-compare exited $rc at $rev" ;;
esac

#!/bin/sh
# merge.sh: merge the shards of one study and analyse them, overall and
# host by host. run-local.sh, run-ssh.sh and slurm.sh end with it.
#
# usage: merge.sh [-o DIR] SHARD...
#
# Writes into DIR (default: the directory of the first shard):
#   pairs.tsv     every measured pair of every shard (pb-pair checks here
#                 that the shards belong to one study; see README.md)
#   runs.tsv      one row per run with its host and lr = ln(a/b)
#   hosts.tsv     the t interval of the A/B ratio for each host that has
#                 2 runs or more
#   overall.tsv   the t interval over all runs, with its finding
#   between.tsv   with 2 hosts or more: the interval over the hosts' means,
#                 n = hosts (the honest unit when hosts differ)
#   across.tsv    with 3 hosts or more: hosts as a level (pb-tint --unit
#                 host): how much the hosts differ (tau2, I2) and what a
#                 new host like these should expect (the prediction
#                 interval), with its finding
#   study/raw.tsv every shard's runs as one raw stream, for
#                 `pb-compare --analyse DIR/study` (its summary, report and
#                 exports; hosts.tsv there when 3 hosts or more have 2
#                 runs each)
# and prints the tables and the findings.
set -eu
prog=merge.sh
die() { echo "$prog: $*" >&2; exit 1; }
usage_error() { echo "$prog: $* (see the head of $0)" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
# From the source tree, use the tools built there.
[ -x "$here/../../bin/pb-pair" ] && PATH="$(cd "$here/../../bin" && pwd):$PATH"

out=
case ${1-} in
-o) [ $# -ge 2 ] || usage_error "-o needs a directory"; out=$2; shift 2 ;;
-o*) out=${1#-o}; shift ;;
-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac
[ "${1-}" = -- ] && shift
[ $# -ge 1 ] || usage_error "no shard files"
[ -n "$out" ] || out=$(dirname "$1")
mkdir -p "$out" || die "$out: cannot create the directory"
for f in "$@"; do
	[ -r "$f" ] || die "$f: missing shard (did its job fail?)"
done

# The checked merge: pb-pair refuses shards that disagree on the commands
# or the design, come from another pb version, or reuse run numbers.
pb-pair "$@" >"$out/pairs.tsv" || exit 1
pb-pair --by-run --host "$@" | pb-logratio >"$out/runs.tsv" || exit 1
pb-tint --finding "$out/runs.tsv" >"$out/overall.tsv" || exit 1

# One raw stream of the shards, which pb-pair has just found to agree:
# the first shard's head, its "# runs:" made the study's count of runs
# and its "# first_run:" the lowest of the shards' (given in any order),
# then each shard's rows and the comments among them, whose "# run:"
# lines keep each run's host.
runs_total=$(grep -vc '^#' "$out/runs.tsv") || runs_total=0
runs_total=$((runs_total - 1))
mkdir -p "$out/study" || die "$out/study: cannot create the directory"
first=$(sed -n 's/^# first_run: \([0-9][0-9]*\)$/\1/p' "$@" | sort -n | head -n 1)
awk -v runs="$runs_total" -v first="$first" '
	FNR == 1 { head = 1 }
	head && !/^#/ { head = 0; if (FNR == NR) print; next }
	head && FNR != NR { next }
	head && /^# runs: / { print "# runs: " runs; next }
	head && /^# first_run: / && first != "" { print "# first_run: " first; next }
	{ print }' "$@" >"$out/study/raw.tsv" || die "$out/study/raw.tsv: not written"

# A host with one run has no interval of its own: leave it out of
# hosts.tsv, and say so there.
hosts_with_2_runs() {
	awk -F'\t' '
	NR == FNR { if (/^#/) next
		if (!c) { for (i = 1; i <= NF; i++) if ($i == "host") c = i; next }
		n[$c]++; next }
	FNR == 1 { for (k in n) if (n[k] < 2) lone = lone " " k
		if (lone != "") print "# merge.sh: hosts with one run, left out:" lone }
	/^#/ || !r++ || n[$c] >= 2' "$out/runs.tsv" "$out/runs.tsv"
}
rm -f "$out/hosts.tsv" "$out/between.tsv" "$out/across.tsv"
multi=$(hosts_with_2_runs)
if [ "$(printf '%s\n' "$multi" | grep -vc '^#')" -gt 1 ]; then
	printf '%s\n' "$multi" | pb-tint --group host >"$out/hosts.tsv" || exit 1
	if [ "$(grep -vc '^#' "$out/hosts.tsv")" -gt 2 ]; then
		pb-tint --column mean --log-ratio "$out/hosts.tsv" >"$out/between.tsv" || exit 1
	fi
	if [ "$(grep -vc '^#' "$out/hosts.tsv")" -gt 3 ]; then
		printf '%s\n' "$multi" | pb-tint --unit host --finding >"$out/across.tsv" || exit 1
	fi
fi

# show FILE COL...: the named columns of a pb stream, aligned
show() {
	f=$1
	shift
	grep -v '^#' "$f" | awk -F'\t' -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; n = split(want, w, " ") }
		{ line = ""; for (i = 1; i <= n; i++) {
			v = (w[i] in at) ? $(at[w[i]]) : "-"
			if (NR > 1 && v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ && v ~ /\./) v = sprintf("%.4f", v)
			line = line (i > 1 ? "  " : "") sprintf("%-9s", v) }
		  print "  " line }'
}
if [ -f "$out/hosts.tsv" ]; then
	echo "runs per host, A/B time ratio (95% t interval over the host's runs):"
	show "$out/hosts.tsv" host n ratio ratio_lo ratio_hi
	grep '^# merge.sh: ' "$out/hosts.tsv" | sed 's/^# merge.sh: /  (/; s/$/)/'
fi
echo "all runs:"
show "$out/overall.tsv" n ratio ratio_lo ratio_hi
if [ -f "$out/between.tsv" ]; then
	echo "hosts as the unit (n = hosts):"
	show "$out/between.tsv" n ratio ratio_lo ratio_hi
fi
grep '^# finding: ' "$out/overall.tsv" | sed 's/^# finding: /finding: /' | fold -s -w 76
if [ -f "$out/across.tsv" ]; then
	grep '^# finding: ' "$out/across.tsv" | sed 's/^# finding: /across hosts: /' | fold -s -w 76
fi
echo "the study as pb-compare sees it: pb-compare --analyse $out/study"

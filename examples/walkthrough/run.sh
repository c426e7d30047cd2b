#!/bin/sh
# The walk-through of README.md: three small studies whose truth is known,
# each read four ways side by side: per-run intervals, the run-block
# interval, the naive pooled interval (for contrast: it treats pairs as
# independent), and the cross-run sign rate.
# About 12 s on a quiet machine.
#   examples/walkthrough/run.sh [DIR]     keep the streams in DIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
for f in bin/pb-run bin/pb-pair bin/pb-boot bin/pb-cross examples/workload/pb-workload; do
	if [ ! -x "$top/$f" ]; then
		echo "run.sh: $top/$f is missing: run make in $top first" >&2
		exit 1
	fi
done
PATH="$top/bin:$top/examples/workload:$PATH"
export PATH

if [ $# -gt 0 ]; then
	mkdir -p "$1"
	cd "$1"
else
	tmp=${TMPDIR:-/tmp}/pb-walkthrough.$$
	mkdir "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	cd "$tmp"
fi

RUNS=10 PAIRS=300 WARMUP=30
STUDIES="aa delay vary"
# Each run gets its own speed: A's work in us, run by run (the same for B
# in aa and delay), 500 to 550 us, as fresh processes of real programs
# differ by layout, caches and compilation. In vary, B does EXTRA us more.
LEVEL="520 505 540 510 550 500 530 545 515 535"
EXTRA="2 9 4 7 1 6 3 8 0 10"
# Single quotes: the hook's and the worker's shell expand these, per run.
SETUP='sed -n "${PB_RUN}p" $STUDY.cfg > run.cfg'
WORKER='exec pb-workload --worker $(cat run.cfg)'

# study NAME SEED [pb-run options]: run it, then read it four ways.
study() {
	name=$1 seed=$2
	shift 2
	STUDY=$name pb-run --quiet --seed "$seed" --runs "$RUNS" --pairs "$PAIRS" \
		--warmup "$WARMUP" --setup "$SETUP" --worker "$WORKER" "$@" >"$name.tsv"
	pb-pair "$name.tsv" >"$name.pairs"
	pb-pair --by-run "$name.tsv" >"$name.byrun"
	pb-boot --group run "$name.pairs" >"$name.runs"
	pb-boot --block run "$name.pairs" >"$name.block"
	pb-boot "$name.pairs" >"$name.pooled"
	pb-cross --expect + "$name.pairs" >"$name.cross"
}

# side WIDTH FORMAT COL... -- FILE...: the rows of several pb streams side
# by side, matched by their first column; numbers (all but sign) rounded
# to whole ns by FORMAT (the files keep every digit).
side() {
	w=$1 fmt=$2
	shift 2
	cols=
	while [ "$1" != -- ]; do
		cols="$cols $1"
		shift
	done
	shift
	awk -F '\t' -v w="$w" -v fmt="$fmt" -v cols="$cols" '
		BEGIN { nc = split(cols, c, " ") }
		FNR == 1 { f++ }
		/^#/ { next }
		!seen[f]++ { for (i = 1; i <= NF; i++) col[f, $i] = i; next }
		{
			k = $1
			if (!(k in key)) { key[k] = 1; order[++n] = k }
			s = ""
			for (i = 1; i <= nc; i++)
				s = s sprintf(c[i] == "sign" ? "%s" : fmt, $col[f, c[i]]) \
				    (i < nc ? " " : "")
			cell[f, k] = s
		}
		END {
			for (i = 1; i <= n; i++) {
				line = sprintf("%-4s", order[i])
				for (j = 1; j <= f; j++)
					line = line sprintf("%-" w "s", cell[j, order[i]])
				sub(/ +$/, "", line)
				print line
			}
		}' "$@"
}

# head3 WIDTH TEXT: the study names, then TEXT under each.
head3() {
	printf "%-4s%-$1s%-$1s%s\n" "" aa delay vary run "$2" "$2" "$2"
}

# row LABEL CMD: LABEL in LW columns, then the output of CMD NAME for each
# study in 23 columns.
LW=35
row() {
	label=$1
	shift
	line=$(printf "%-${LW}s" "$label")
	for s in $STUDIES; do
		line="$line$(printf '%-23s' "$("$@" "$s")")"
	done
	printf '%s\n' "$line" | sed 's/ *$//'
}

# pick FILE COL...: the named columns of a stream's first row.
pick() {
	f=$1
	shift
	grep -v '^#' "$f" | awk -F '\t' -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n = split(want, w, " "); s = ""
		  for (i = 1; i <= n; i++) s = s (i > 1 ? "\t" : "") $col[w[i]]
		  print s; exit }'
}

name() { echo "$1"; }
runs_seen() {
	grep -v '^#' "$1.runs" | awk -F '\t' '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n++; s[$col["sign"]]++ }
		END { printf "%d of %d (+ %d, - %d)", s["+"] + s["-"], n, s["+"], s["-"] }'
}
truth() {
	case $1 in
	aa) echo 0 ;;
	delay) echo 5000 ;;
	vary) echo "5000 (mean of runs)" ;;
	esac
}
interval() {
	pick "$1" est lo hi sign | awk -F '\t' '{ printf "%.0f [%.0f, %.0f] %s", $1, $2, $3, $4 }'
}
block() { interval "$1.block"; }
pooled() { interval "$1.pooled"; }
ratio() {
	{ pick "$1.block" lo hi; pick "$1.pooled" lo hi; } | awk -F '\t' '
		NR == 1 { b = $2 - $1 } NR == 2 { p = $2 - $1 }
		END { if (p > 0) printf "%.1f", b / p; else printf "-" }'
}
paired() { pick "$1.cross" paired_right runs | awk -F '\t' '{ print $1 " of " $2 }'; }
across() { pick "$1.cross" right combos | awk -F '\t' '{ print $1 " of " $2 }'; }
against() { pick "$1.cross" wrong ties | awk -F '\t' '{ print $1 ", " $2 }'; }
spread() {
	pick "$1.cross" est_min est_max | awk -F '\t' '{ printf "%.0f to %.0f", $1, $2 }'
}
corr() {
	pick "$1.cross" r | awk '{ if ($0 == "") print "undefined"; else printf "%.4f", $0 }'
}

set -- $LEVEL
: >aa.cfg
: >delay.cfg
: >vary.cfg
for x in $EXTRA; do
	echo "--us $1" >>aa.cfg
	echo "--us $1" >>delay.cfg
	echo "--us $1 --b-us $(($1 + x))" >>vary.cfg
	shift
done
cat <<EOF
Three studies of $RUNS runs x $PAIRS pairs, after $WARMUP warm-up pairs per run.
An observation is one request to pb-workload, which busy-waits; a fresh
worker per run. Each run has its own speed: A's work is 500 to 550 us.

aa     A/A: both arms do the same work. Truth: d = b - a = 0.
delay  A/A with a 5 us busy-wait on B. Truth: d = 5000 ns in every run (1 %).
vary   B does 0 to 10 us more work than A, by run. Truth: d = 0 to 10000 ns
       by run, 5000 on average over the runs.

Line k of aa.cfg, delay.cfg and vary.cfg holds the worker's options for
run k; the first lines are
   aa.cfg     $(sed -n 1p aa.cfg)
   delay.cfg  $(sed -n 1p delay.cfg)
   vary.cfg   $(sed -n 1p vary.cfg)
A --setup hook copies the run's line to run.cfg:

\$ STUDY=aa pb-run --seed 1 --runs $RUNS --pairs $PAIRS --warmup $WARMUP \\
    --setup '$SETUP' \\
    --worker '$WORKER' > aa.tsv
\$ STUDY=delay pb-run --seed 2 ... --delay 5us > delay.tsv
\$ STUDY=vary pb-run --seed 3 ... > vary.tsv

EOF
study aa 1
study delay 2 --delay 5us
study vary 3

cat <<EOF
1. One interval per run (pb-pair | pb-boot --group run): est = the run's
   median of d, in ns; lo, hi = its 95 % bootstrap interval; sign + or -
   when the interval excludes 0: this run saw an effect.

EOF
head3 23 "$(printf '%6s %6s %6s %s' est lo hi sign)"
side 23 '%6.0f' est lo hi sign -- aa.runs delay.runs vary.runs
echo "runs that saw an effect (sign + or -):"
LW=4
row "" runs_seen
LW=35

cat <<EOF

2. One interval for the whole study: est [lo, hi] sign of the median of d.

EOF
row "" name
row "truth" truth
row "run-block (pb-boot --block run)" block
row "naive pooled, contrast (pb-boot)" pooled
row "width, run-block / naive" ratio

cat <<EOF

3. Inside runs against across runs. Each run's medians of a, b and d
   (pb-pair --by-run), in ns:

EOF
head3 25 "$(printf '%7s %7s %7s' a b d)"
side 25 '%7.0f' a b d -- aa.byrun delay.byrun vary.byrun
cat <<EOF

   pb-cross --expect +: would one run of A, then one run of B, say that B
   took longer? Right for delay and vary; for aa neither answer is right.

EOF
row "" name
row "paired: runs whose median d > 0" paired
row "cross-run: run pairs with est > 0" across
row "cross-run: est < 0, est = 0" against
row "cross-run est, min to max" spread
row "r of the runs' medians of a, b" corr

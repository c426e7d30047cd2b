# t/gold/run.sh: how a gold case runs, for t/0050-gold.t and t/gold/update.
# Source it with G (this directory) set, call gold_init DIR, then
# gold_exec OUTDIR NAME CMD... for each case of t/gold/cases.
#
# A case is a command run in t/data with the tools found on PATH, in the C
# locale, COLUMNS=100 (pb-plot's text width), TZ=UTC; what it wrote is
# OUTDIR/NAME.out (stdout) and OUTDIR/NAME.err (stderr), its exit status
# $gold_rc. The gold files are t/gold/NAME.out, and t/gold/NAME.err when
# the case writes to stderr; every case exits 0.

GD=$(cd "$G/../data" && pwd)
GTOP=$(cd "$G/../.." && pwd)

# gold_init DIR: a bin directory under DIR for sense: pb-sense (a link to
# the one on PATH) beside t/gold/stub-pb-run as its pb-run
gold_init() {
	gold_bin=$1/gold-bin
	mkdir -p "$gold_bin" "$1/gold-out" &&
	ln -sf "$(command -v pb-sense)" "$gold_bin/pb-sense" &&
	cp "$G/stub-pb-run" "$gold_bin/pb-run" && chmod +x "$gold_bin/pb-run"
}

# sense ARGS...: pb-sense over the stub pb-run, which writes raw-small.tsv
# with each delay added to arm B
sense() {
	PB_SHARE=$GTOP/share/pb PB_GOLD_RAW=$GD/raw-small.tsv "$gold_bin/pb-sense" "$@"
}

# gold_exec OUTDIR NAME CMD...: run one case
gold_exec() {
	gold_o=$1/$2
	shift 2
	(cd "$GD" && LC_ALL=C COLUMNS=100 TZ=UTC "$@") >"$gold_o.out" 2>"$gold_o.err" </dev/null
	gold_rc=$?
}

# gold_gnuplot: the gnuplot version here, as t/gold/gnuplot-version holds it
gold_gnuplot() { gnuplot --version 2>/dev/null; }

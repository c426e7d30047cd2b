# lib.sh: helpers the bench scripts share. Source it once $top is the
# top of the tree.

# bench_init OUTDIR: the section's files go in OUTDIR, made and then
# absolute in $out; pb's tools first on PATH; $W the synthetic workload.
bench_init() {
	[ -n "${1:-}" ] || { echo "usage: sh $0 OUTDIR  (Markdown on stdout)" >&2; exit 2; }
	out=$1
	PATH="$top/bin:$PATH"
	W=$top/examples/workload/pb-workload
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
}

# bench_pg_section NAME TITLE: the section's title, then a throwaway
# PostgreSQL cluster (share/dev/pgtmp.sh, as the tests make one) in a new
# temporary directory $tmp, stopped at exit; a pb-run built without
# PostgreSQL ends the section with a line that says so.
bench_pg_section() {
	[ -x "$top/bin/pb-run" ] || { echo "$1.sh: no $top/bin/pb-run: run make first" >&2; exit 1; }
	echo "## $2"
	echo
	. "$top/share/dev/pgtmp.sh"
	if ! pb_run_has_pg; then
		echo "Skipped: pb-run was built without PostgreSQL (make PG=0)."
		echo
		exit 0
	fi
	sh "$top/share/dev/need" '/usr/lib/postgresql/*/bin/initdb:postgresql' >&2
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/pb-bench-$1.XXXXXX")
	trap pg_cluster_stop EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	pg_cluster_start "$tmp" || { echo "bench: PostgreSQL: $pg_cluster_error" >&2; exit 1; }
}

# median: the median of the numbers on stdin, one a line.
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# column COL FILE: every value of a pb stream's column COL.
column() { awk -F'\t' -v c="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i; h = 1; next } { print $k }' "$2"; }
# field COL FILE: the first value of a pb stream's column COL.
field() { column "$@" | head -n 1; }

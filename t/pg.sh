# t/pg.sh: a throwaway PostgreSQL cluster for one test file. Source it
# after t/lib.sh, then call pg_start. The cluster lives in $T/pg with its
# unix socket there too (no TCP, fsync off) and is stopped and removed when
# the test ends, even on failure. As root the server runs as the postgres
# user (postgres refuses root). Exports PGHOST, PGPORT, PGUSER, PGDATABASE.
# In CI these tests must run: PB_REQUIRE_PG=1 turns a missing server into
# a failure instead of a skip.

. "$(dirname "$0")/../share/dev/pgtmp.sh"

# pg_start: 0 when the server is up; otherwise skips the whole file
# (exit 0 with a TAP skip plan) or fails when PB_REQUIRE_PG=1.
pg_start() {
	if ! pb_run_has_pg; then
		echo "1..0 # SKIP pb-run was built without PostgreSQL (make PG=0)"
		exit 0
	fi
	trap 'pg_cluster_stop' EXIT
	# dash runs no EXIT trap when a signal kills it (a closed pipe, ^C)
	trap 'pg_cluster_stop; trap - EXIT; exit 129' HUP
	trap 'pg_cluster_stop; trap - EXIT; exit 130' INT
	trap 'pg_cluster_stop; trap - EXIT; exit 141' PIPE
	trap 'pg_cluster_stop; trap - EXIT; exit 143' TERM
	pg_cluster_start "$T" || pg_unavailable "$pg_cluster_error"
}

pg_unavailable() {
	if [ "${PB_REQUIRE_PG:-0}" = 1 ]; then
		echo "1..1"; echo "not ok 1 - PostgreSQL: $1"; exit 1
	fi
	echo "1..0 # SKIP $1"; exit 0
}

# one SQL command through psql (pg_psql)
pg_sql() { pg_psql -c "$1"; }

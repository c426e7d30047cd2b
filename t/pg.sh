# t/pg.sh: a throwaway PostgreSQL cluster for one test file. Source it
# after t/lib.sh, then call pg_start. The cluster lives in $T/pg with its
# unix socket there too (no TCP, fsync off) and is stopped and removed when
# the test ends, even on failure. As root the server runs as the postgres
# user (postgres refuses root). Exports PGHOST, PGPORT, PGUSER, PGDATABASE.
# In CI these tests must run: PB_REQUIRE_PG=1 turns a missing server into
# a failure instead of a skip.

pg_bindir() {
	d=$(pg_config --bindir 2>/dev/null)
	[ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return; }
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return; }
	d=$(dirname "$(command -v initdb 2>/dev/null)" 2>/dev/null)
	[ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_stop() {
	[ -n "${PGDIR:-}" ] && [ -f "$PGDIR/data/postmaster.pid" ] &&
		as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$T"
}

# pg_start: 0 when the server is up; otherwise skips the whole file
# (exit 0 with a TAP skip plan) or fails when PB_REQUIRE_PG=1.
pg_start() {
	PGBIN=$(pg_bindir)
	if PGHOST=/nonexistent pb-run --pg '' --sql-a 'select 1' --runs 1 --pairs 1 2>&1 |
	   grep -q 'without PostgreSQL support'; then
		echo "1..0 # SKIP pb-run was built without PostgreSQL (make PG=0)"
		exit 0
	fi
	if [ -z "$PGBIN" ]; then
		pg_unavailable "no PostgreSQL server binaries (package postgresql)"
	fi
	PGDIR=$T/pg
	mkdir -p "$PGDIR"
	chmod 755 "$T"
	[ "$(id -u)" = 0 ] && chown postgres "$PGDIR"
	trap 'pg_stop' EXIT
	# dash runs no EXIT trap when a signal kills it (a closed pipe, ^C)
	trap 'pg_stop; trap - EXIT; exit 129' HUP
	trap 'pg_stop; trap - EXIT; exit 130' INT
	trap 'pg_stop; trap - EXIT; exit 141' PIPE
	trap 'pg_stop; trap - EXIT; exit 143' TERM
	as_pg "$PGBIN/initdb" -D "$PGDIR/data" --no-sync -A trust -U postgres \
		>"$PGDIR/initdb.log" 2>&1 || pg_unavailable "initdb failed: $(tail -n 1 "$PGDIR/initdb.log")"
	as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 start \
		-o "-c listen_addresses='' -k $PGDIR -c fsync=off -c full_page_writes=off" \
		>/dev/null 2>&1 || pg_unavailable "the server did not start: $(tail -n 3 "$PGDIR/log" 2>/dev/null | tr '\n' ' ')"
	export PGHOST=$PGDIR PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
	unset PGPASSWORD PGSERVICE PGOPTIONS
}

pg_unavailable() {
	if [ "${PB_REQUIRE_PG:-0}" = 1 ]; then
		echo "1..1"; echo "not ok 1 - PostgreSQL: $1"; exit 1
	fi
	echo "1..0 # SKIP $1"; exit 0
}

# psql as the test user, quiet, tuples only, no psqlrc
pg_sql() { "$PGBIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -c "$1"; }

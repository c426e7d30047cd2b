# pgtmp.sh: a throwaway PostgreSQL cluster, for the tests (t/pg.sh), the
# PostgreSQL bench (examples/bench/pg.sh) and examples/preview-cost.
# Source it, then
#   pg_cluster_start DIR || echo "$pg_cluster_error"
#   ...                    # PGHOST PGPORT PGUSER PGDATABASE exported
#   pg_cluster_stop        # the server stopped, DIR removed
# The cluster lives in DIR/pg (PGDIR), its unix socket there too: no TCP,
# fsync off. As root the server runs as the postgres user, which refuses
# root; postgres must then reach DIR, so DIR belongs under /tmp (mktemp
# -d), not inside a checkout that may be private (/root, umask 077).
# PGBIN is the server's bin directory.

# pb_run_has_pg: false when pb-run was built without PostgreSQL (PG=0).
pb_run_has_pg() {
	! PGHOST=/nonexistent pb-run --pg '' --sql-a 'select 1' --runs 1 --pairs 1 2>&1 |
		grep -q 'without PostgreSQL support'
}

# pg_psql ARGS...: psql on the cluster: quiet, tuples only, no psqlrc,
# stopping at the first error.
pg_psql() { "$PGBIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 "$@"; }

pg_bindir() {
	pb_d=$(pg_config --bindir 2>/dev/null)
	[ -n "$pb_d" ] && [ -x "$pb_d/initdb" ] && { echo "$pb_d"; return; }
	pb_d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$pb_d" ] && [ -x "$pb_d/initdb" ] && { echo "$pb_d"; return; }
	pb_d=$(dirname "$(command -v initdb 2>/dev/null)" 2>/dev/null)
	[ -n "$pb_d" ] && [ -x "$pb_d/initdb" ] && echo "$pb_d"
}

as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# pg_cluster_start DIR: 0 with the server up; 1 with pg_cluster_error set.
pg_cluster_start() {
	pg_cluster_error= pg_cluster_dir=$1 PGDIR=$1/pg
	PGBIN=$(pg_bindir)
	[ -n "$PGBIN" ] || { pg_cluster_error="no PostgreSQL server binaries (package postgresql)"; return 1; }
	mkdir -p "$PGDIR" && chmod 755 "$1" ||
		{ pg_cluster_error="cannot make $PGDIR"; return 1; }
	if [ "$(id -u)" = 0 ]; then chown postgres "$PGDIR" || return 1; fi
	as_pg "$PGBIN/initdb" -D "$PGDIR/data" --no-sync -A trust -U postgres \
		>"$1/initdb.log" 2>&1 ||
		{ pg_cluster_error="initdb failed: $(tail -n 1 "$1/initdb.log")"; return 1; }
	as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 start \
		-o "-c listen_addresses='' -k $PGDIR -c fsync=off -c full_page_writes=off" \
		>/dev/null 2>&1 || {
		pg_cluster_error="the server did not start: $(tail -n 3 "$PGDIR/log" 2>/dev/null | tr '\n' ' ')"
		return 1
	}
	PGHOST=$PGDIR PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
	export PGHOST PGPORT PGUSER PGDATABASE
	unset PGPASSWORD PGSERVICE PGOPTIONS
}

# pg_cluster_stop: stop the server (if up) and remove DIR; safe to repeat.
pg_cluster_stop() {
	[ -n "${pg_cluster_dir:-}" ] || return 0
	if [ -f "$PGDIR/data/postmaster.pid" ]; then
		as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
	fi
	rm -rf "$pg_cluster_dir"
	pg_cluster_dir=
}

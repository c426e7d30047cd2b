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
# With PG_TCP=1 the server also listens on 127.0.0.1, on a free port
# (PGPORT), and PGHOST is 127.0.0.1: for clients that cannot reach a unix
# socket, such as Java's JDBC driver without a socket factory
# (examples/preview-cost-jvm). Without it, nothing listens on TCP.

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
	if [ "${PG_TCP:-0}" = 1 ]; then pg_start_tcp || return 1
	else pg_ctl_start '' 5432 || return 1; fi
	PGHOST=$PGDIR PGPORT=$pg_port PGUSER=postgres PGDATABASE=postgres
	[ "${PG_TCP:-0}" = 1 ] && PGHOST=127.0.0.1
	export PGHOST PGPORT PGUSER PGDATABASE
	unset PGPASSWORD PGSERVICE PGOPTIONS
}

# pg_ctl_start ADDRESSES PORT: start the initdb'd server listening there
# (and on its socket in PGDIR); 0 with pg_port set, else 1 with
# pg_cluster_error set.
pg_ctl_start() {
	pg_port=$2
	as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -t 60 start \
		-o "-c listen_addresses='$1' -p $2 -k $PGDIR -c fsync=off -c full_page_writes=off" \
		>/dev/null 2>&1 && return 0
	pg_cluster_error="the server did not start: $(tail -n 3 "$PGDIR/log" 2>/dev/null | tr '\n' ' ')"
	return 1
}

# pg_start_tcp: pg_ctl_start on 127.0.0.1 and a port that is free: one
# drawn from 20000 to 59999, and the next ones while the server says
# that another holds it (no probe can reserve a port for it).
pg_start_tcp() {
	pb_p=$(( ($$ * 7919 + $(date +%s)) % 40000 + 20000 )) pb_try=0
	while [ "$pb_try" -lt 20 ]; do
		[ ! -f "$PGDIR/log" ] || : >"$PGDIR/log"
		pg_ctl_start 127.0.0.1 "$pb_p" && return 0
		grep -Eq 'could not bind|could not create any TCP/IP' "$PGDIR/log" || return 1
		pb_p=$(( (pb_p - 20000 + 97) % 40000 + 20000 )) pb_try=$((pb_try + 1))
	done
	pg_cluster_error="no free port on 127.0.0.1 in 20 tries: $pg_cluster_error"
	return 1
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

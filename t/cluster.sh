# t/cluster.sh: what the live runs of examples/parallel (t/1202 Slurm,
# t/1203 ssh) share. Source it after lib.sh. They start daemons as root
# (slurmctld, slurmd, munged, sshd), each with its files under $T, and
# stop them at exit. Without root or the packages they skip, unless
# PB_REQUIRE_CLUSTER=1 (CI: .ci/run) makes that a failure.

# cluster_need WHAT PACKAGES CMD...: skip (or fail) unless root and every
# CMD is there
cluster_need() {
	_what=$1 _pkgs=$2
	shift 2
	_why=
	[ "$(id -u)" = 0 ] || _why="not root (the daemons run as root)"
	for _c in "$@"; do
		[ -n "$_why" ] || [ -x "$_c" ] || command -v "$_c" >/dev/null 2>&1 ||
			_why="$_c not installed (apt-get install $_pkgs; make check installs it as root)"
	done
	[ -z "$_why" ] && return 0
	if [ "${PB_REQUIRE_CLUSTER:-0}" = 1 ]; then
		echo "1..1"
		echo "not ok 1 - $_what: $_why (PB_REQUIRE_CLUSTER=1)"
		exit 1
	fi
	echo "1..0 # SKIP $_what: $_why (PB_REQUIRE_CLUSTER=1 makes this a failure)"
	exit 0
}

# free_port: a TCP port nothing listens on, from a start that differs
# between processes (two tests, or two stub-check copies, at once)
free_port() {
	_p=$((20000 + $$ % 20000 + ${1:-0}))
	while awk -v p="$(printf '%04X' "$_p")" 'NR > 1 && $4 == "0A" && $2 ~ (":" p "$") { f = 1 }
		END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
		_p=$((_p + 1))
	done
	echo "$_p"
}

# wait_for SECONDS WHAT CMD...: poll CMD every 0.2 s until it succeeds;
# false (and a diag) after SECONDS. The caps are far above what a working
# system needs: only a defect reaches them.
wait_for() {
	_cap=$1 _what=$2
	shift 2
	_end=$(($(date +%s) + _cap))
	until "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$_end" ] || { diag "gave up after ${_cap} s: $_what"; return 1; }
		sleep 0.2
	done
}

# daemons started in the background are recorded here and stopped,
# children first, at exit
DAEMONS=
started() { DAEMONS="$1 $DAEMONS"; }
stop_daemons() {
	for _pid in $DAEMONS; do kill "$_pid" 2>/dev/null; done
	for _pid in $DAEMONS; do
		_i=0
		while kill -0 "$_pid" 2>/dev/null && [ "$_i" -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
		kill -9 "$_pid" 2>/dev/null
	done
	DAEMONS=
}
trap 'stop_daemons; rm -rf "$T"' EXIT
trap 'exit 130' INT HUP TERM PIPE

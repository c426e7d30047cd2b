#!/bin/sh
# examples/parallel/run-ssh.sh over real ssh: an sshd on 127.0.0.1 at a
# free port (host key, user keys and config under $T) stands for two
# hosts, h1 and h2: each is a login with its own key, whose forced
# command gives it its own host name (a UTS namespace) and its own pb-run,
# pinned to its own CPU (pb-run --cpu). GNU parallel --sshlogin runs the
# shards there through an ssh config (PARALLEL_SSH="ssh -F ..."), brings
# them back with rsync, and merge.sh analyses them host by host. Nothing
# depends on timing: GNU parallel starts the first job of each login at
# once, so each host runs one of the two shards.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cluster.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
P=$top/examples/parallel
cluster_need "the ssh run of examples/parallel" "openssh-server openssh-client rsync parallel util-linux" \
	/usr/sbin/sshd ssh ssh-keygen rsync parallel unshare
cd "$T" || exit 1

# --- the keys and the two "hosts": h1 pinned to the first CPU, h2 to the
# second (the first too on a one-CPU machine)
mkdir -m 700 ssh
ssh-keygen -q -t ed25519 -N '' -f ssh/host_key || exit 1
cpu2=$(($(getconf _NPROCESSORS_ONLN) > 1 ? 1 : 0))
: >ssh/authorized_keys
for h in h1 h2; do
	ssh-keygen -q -t ed25519 -N '' -C "$h" -f "ssh/$h" || exit 1
	cpu=0
	[ "$h" = h2 ] && cpu=$cpu2
	# the host's own pb-run: installed there, pinned there
	mkdir "$h-bin"
	printf '#!/bin/sh\nexec %s/bin/pb-run --cpu %s "$@"\n' "$top" "$cpu" >"$h-bin/pb-run"
	ln -s "$top/examples/workload/pb-workload" "$h-bin/pb-workload"
	chmod +x "$h-bin/pb-run"
	# its forced command: its own host name, its PATH, then what was asked
	printf 'command="exec unshare --uts sh -c '"'"'hostname %s && PATH=%s:$PATH && export PATH && exec \\"$SHELL\\" -c \\"$SSH_ORIGINAL_COMMAND\\"'"'"'" %s\n' \
		"$h" "$T/$h-bin" "$(cat "ssh/$h.pub")" >>ssh/authorized_keys
done
port=$(free_port 0)
mkdir -p /run/sshd   # sshd's privilege separation directory (Debian's)
cat >ssh/sshd_config <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $T/ssh/host_key
AuthorizedKeysFile $T/ssh/authorized_keys
PidFile $T/ssh/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AcceptEnv LANG LC_*
CONF
/usr/sbin/sshd -f "$T/ssh/sshd_config" -D -E "$T/ssh/sshd.log" &
started $!
user=$(id -un)
cat >ssh/config <<CONF
Host h1 h2
	HostName 127.0.0.1
	Port $port
	User $user
	IdentityFile $T/ssh/%n
	IdentitiesOnly yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
	BatchMode yes
CONF
sshx() { ssh -F "$T/ssh/config" "$@"; }
wait_for 60 "sshd on 127.0.0.1:$port answers" sshx h1 true
# (ssh's own stderr is shown, not compared: what ssh says is the
# transport's, as with run-ssh.sh below)
is "$(sshx h1 'hostname; pb-run --version' 2>"$T/login.err" | tr '\n' ' ')|$(sshx h2 hostname 2>>"$T/login.err")" \
	"h1 $(pb-run --version) |h2" \
	"sshd on 127.0.0.1: two logins, h1 and h2, each with its pb-run"
[ -s "$T/login.err" ] && diag "ssh's stderr at the logins:" "$(head -c 2000 "$T/login.err")"

# --- run-ssh.sh: 2 shards of 2 runs over h1 and h2, one shard at a time
# on each (-j1 a login): GNU parallel starts one on each at once
PARALLEL_SSH="ssh -F $T/ssh/config"
export PARALLEL_SSH
run sh "$P/run-ssh.sh" --hosts h1,h2 --shards 2 --runs 2 --seed 21 --dir back \
	--pairs 3 --warmup 1 --no-shell -- "pb-workload --us 100" "pb-workload --us 150"
# Nothing of pb's own on stderr: no line of the scripts or the tools, no
# sanitizer report. What the transport says (ssh, rsync, GNU parallel)
# is shown, not judged: CI once saw a line there under ASan's load that
# no run here has shown again, and the sshd log goes with it.
own=$(grep -E '^(run-ssh\.sh|merge\.sh|pb-[a-z]+):|^==[0-9]+==ERROR|runtime error:' "$T/err")
is "$rc:$own:$(rows back/shard-2.tsv | cut -f1 | uniq | tr '\n' ' ')" "0::3 4 " \
	"run-ssh.sh over ssh: exit 0, no line of pb's own on stderr, shard 2 back with runs 3 and 4"
if [ -s "$T/err" ]; then
	diag "stderr, from the transport:" "$(head -20 "$T/err")" \
		"sshd's log, its end:" "$(tail -20 "$T/ssh/sshd.log")"
fi
cp "$T/out" summary
is "$(ls back | tr '\n' ' ')" \
	"between.tsv hosts.tsv overall.tsv pairs.tsv runs.tsv shard-1.tsv shard-2.tsv study " \
	"the 2 shards came back to --dir, and the analysis is there"
runs() { rows "$1" | cut -f1 | uniq | tr '\n' ' '; }
is "$(runs back/pairs.tsv)" "1 2 3 4 " "merged: runs 1..4 from 2 shards"
# each shard: the host it ran on, and the CPU pb-run was pinned to there
for i in 1 2; do
	printf '%s %s\n' "$(sed -n 's/.* host=\([^ ]*\).*/\1/p' "back/shard-$i.tsv" | sort -u | tr '\n' ' ')" \
		"$(meta cpu_affinity "back/shard-$i.tsv" | cut -d' ' -f1)"
done >where
is "$(sort -u where | tr '\n' '|')" "h1  0|h2  $cpu2|" \
	"each host ran a shard: h1's on CPU 0, h2's on the second CPU (pb-run --cpu there)"
# the analysis host by host: hosts.tsv's n is each host's runs
for h in h1 h2; do
	want=$(($(grep -c "^$h " where) * 2))
	got=$(awk -F'\t' -v h="$h" '/^#/ { next } !c { for (i = 1; i <= NF; i++) { if ($i == "host") c = i; if ($i == "n") k = i }; next }
		$c == h { print $k }' back/hosts.tsv)
	printf '%s=%s/%s ' "$h" "$got" "$want"
done >per-host
is "$(sed 's/=\([0-9]*\)\/\1 /=ok /g' per-host)" "h1=ok h2=ok " \
	"hosts.tsv: one interval per host, over that host's runs"
is "$(rows back/runs.tsv | wc -l | tr -d ' '):$(col n 1 back/overall.tsv)" "4:4" \
	"runs.tsv: 4 runs; the overall interval counts 4"
like "$(cat summary)" 'runs per host, A/B time ratio' "run-ssh.sh prints the intervals host by host"
like "$(cat summary)" 'finding: (B took|No difference resolved)' "... and the finding"
# the same orders as one 4-run study with that seed
PATH=$T/h1-bin:$PATH pb-run --quiet --runs 4 --seed 21 --pairs 3 --warmup 1 --no-shell \
	-- "pb-workload --us 100" "pb-workload --us 150" | pb-pair | rows | cut -f1-3 >one
rows back/pairs.tsv | cut -f1-3 >sharded
same_file sharded one "the shards have the orders of one 4-run study"

# --- stop sshd: no process of this test left
pairs=$(row_count back/pairs.tsv)
stop_daemons
left=$(ps -eo pid,args | grep -F "$T" | grep -v -e grep -e "$$" | wc -l | tr -d ' ')
is "$pairs:$left" "12:0" "the study merged; sshd stopped, no process of the test left"

done_testing

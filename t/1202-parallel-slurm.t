#!/bin/sh
# examples/parallel/slurm.sh on a real Slurm: a one-node cluster on this
# machine (munged, slurmctld and slurmd as root, every file under $T),
# slurm.sh submit's job array of 8 shards and its dependent merge job run
# through sbatch; the shards and the merged analysis are checked, and the
# daemons stopped. Waits are on events (the node idle, the queue empty),
# with caps only a defect reaches; nothing depends on timing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cluster.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
P=$top/examples/parallel
cluster_need "the Slurm run of examples/parallel" "slurmctld slurmd slurm-client munge" \
	slurmctld slurmd sbatch squeue sinfo scontrol munged
cd "$T" || exit 1

# --- munge: its own key, socket and files (--force: as root, in /tmp)
mkdir -m 700 munge
dd if=/dev/urandom of=munge/munge.key bs=1024 count=1 2>/dev/null
chmod 400 munge/munge.key
munged --foreground --force --socket="$T/munge/socket" --key-file="$T/munge/munge.key" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
	--seed-file="$T/munge/seed" >munge/out 2>&1 &
started $!
wait_for 60 "munged's socket" test -S "$T/munge/socket"

# --- slurm.conf: one node, this machine, with the CPUs it has
node=$(hostname -s)
cpus=$(getconf _NPROCESSORS_ONLN)
ctld_port=$(free_port 0)
slurmd_port=$(free_port 1)
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$(free_port 2)
mkdir -p slurm/state slurm/spool slurm/log
cat >slurm/slurm.conf <<CONF
ClusterName=pbtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
StateSaveLocation=$T/slurm/state
SlurmdSpoolDir=$T/slurm/spool/%n
SlurmctldPidFile=$T/slurm/slurmctld.pid
SlurmdPidFile=$T/slurm/slurmd.pid
SlurmctldLogFile=$T/slurm/log/slurmctld.log
SlurmdLogFile=$T/slurm/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=pbtest Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
SLURM_CONF=$T/slurm/slurm.conf
export SLURM_CONF
slurmctld -D -i -f "$SLURM_CONF" >slurm/log/slurmctld.out 2>&1 &
started $!
slurmd -D -f "$SLURM_CONF" >slurm/log/slurmd.out 2>&1 &
started $!
node_idle() { [ "$(sinfo -h -n "$node" -o %t 2>/dev/null)" = idle ]; }
wait_for 120 "sinfo: node $node idle" node_idle
is "$(sinfo -h -n "$node" -o '%t %c %P')" "idle $cpus pbtest*" \
	"the one-node cluster is up: this machine idle with its CPUs, partition pbtest"

# --- slurm.sh submit: the array of 8 shards, then the merge after it.
# The workload is on the node's PATH (sbatch passes the environment on).
mkdir wbin && ln -s "$top/examples/workload/pb-workload" wbin/pb-workload || exit 1
mkdir job && cd job || exit 1
PATH=$top/bin:$T/wbin:$PATH PB_CMD_A="pb-workload --us 100" PB_CMD_B="pb-workload --us 150" \
	PB_RUNS=2 PB_PAIRS=3 PB_WARMUP=1 PB_SEED=33 PB_RUN_OPTS=--no-shell \
	run sh "$P/slurm.sh" submit
like "$rc:$(cat "$T/out")" '^0:array job [0-9]+: 8 shards; merge after it: pb-merge-\*\.log, shards/$' \
	"slurm.sh submit: the array and the merge job are queued"
array=$(sed -n 's/^array job \([0-9]*\):.*/\1/p' "$T/out")
queue_empty() { [ -z "$(squeue -h -o %i 2>/dev/null)" ] && squeue -h >/dev/null 2>&1; }
wait_for 600 "squeue: every job done" queue_empty || diag "$(squeue 2>&1)"
# the jobs' states, once the queue is empty: 8 array tasks and the merge
states() {
	scontrol -o show job 2>/dev/null | awk '{ n = ""; s = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^JobName=/) n = substr($i, 9)
			if ($i ~ /^JobState=/) s = substr($i, 10) }
		c[n " " s]++ } END { for (k in c) print k, c[k] }' | sort | tr '\n' ' '
}
runs() { rows "$1" | cut -f1 | uniq | tr '\n' ' '; }
is "$(states)|$(runs shards/shard-2.tsv)" "pb-merge COMPLETED 1 pb-shard COMPLETED 8 |3 4 " \
	"8 array tasks and the merge job completed"
is "$(runs shards/shard-1.tsv)|$(runs shards/shard-8.tsv)" "1 2 |15 16 " \
	"array task i wrote shards/shard-i.tsv with runs 2i-1, 2i"
is "$(runs shards/pairs.tsv)" "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 " \
	"the merge job merged runs 1..16 into shards/pairs.tsv"
is "$(row_count shards/pairs.tsv):$(row_count shards/runs.tsv):$(col n 1 shards/overall.tsv)" "48:16:16" \
	"16 runs x 3 pairs; runs.tsv one row per run; the interval counts 16 runs"
merge_log=$(ls pb-merge-*.log 2>/dev/null | head -n 1)
like "$(cat "$merge_log" 2>/dev/null)" 'finding: (B took|No difference resolved)' \
	"the merge job's log ends with the finding"
hosts=$(awk -F'\t' '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == "host") c = i; h = 1; next }
	c { print $c }' shards/runs.tsv | sort -u | tr '\n' ' ')
is "$hosts" "$node " "the runs record the node they ran on (pb-pair --host)"
# the same study in one piece has the same orders (pb-run seeds run k
# from the seed and k, wherever it runs)
PATH=$T/wbin:$PATH pb-run --quiet --runs 16 --seed 33 --pairs 3 --warmup 1 --no-shell \
	-- "pb-workload --us 100" "pb-workload --us 150" | pb-pair | rows | cut -f1-3 >"$T/one"
rows shards/pairs.tsv | cut -f1-3 >"$T/sharded"
same_file "$T/sharded" "$T/one" "the 8 shards have the orders of one 16-run study"
cd "$T" || exit 1

# --- stop everything: no process of this cluster left
pairs=$(row_count job/shards/pairs.tsv)
stop_daemons
left=$(ps -eo pid,args | grep -F "$T" | grep -v -e grep -e "$$" | wc -l | tr -d ' ')
is "$pairs:$left" "48:0" "the study merged; daemons stopped, no process of the cluster left"

done_testing

#!/bin/sh
# pb-run --resources tree: each observation in cgroups of its own, the
# whole tree's peak memory, CPU time and block-device bytes as
# tree_maxrss_kib tree_cpu_ns tree_read_bytes tree_write_bytes; the
# refusal where no cgroup is writable (a user, --worker, --pg); no cgroup
# or process left after a run, a failure, SIGINT or SIGTERM; pb-pair's
# a_tree_* b_tree_* columns; pb-compare's analysis of them. Amounts are
# pb-workload's (--alloc-mib, every page touched; --cpu-us, CPU time
# however long it takes) and dd's, never times.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

if [ "$(uname -s)" != Linux ] || [ "$(id -u)" != 0 ] || [ ! -r /proc/self/cgroup ] ||
   [ -n "${ASAN_OPTIONS-}" ] || [ "${PB_VALGRIND:-0}" = 1 ]; then
	echo "1..0 # skip cgroups: Linux, as root, not under ASan or valgrind"
	exit 0
fi
tab=$(printf '\t')
# left PID: the cgroups pb-run PID made that are still there
left() { find /sys/fs/cgroup -maxdepth 6 -type d -name "pb-run.$1.*" 2>/dev/null; }
# pid_of FILE: the pid of pb-run's "# run:" line
pid_of() { sed -n 's/^# run: .* pid=\([0-9]*\).*/\1/p' "$1" | head -n 1; }

# --- the columns and the head
run pb-run --quiet -r 1 -p 2 -w 0 --resources tree -- "$W --us 0"
ran_ok "--resources tree: exit 0, rows"
cp "$T/out" one.tsv
is "$(grep -v '^#' one.tsv | head -n 1 | cut -f 16-)" \
	"nivcsw${tab}tree_maxrss_kib${tab}tree_cpu_ns${tab}tree_read_bytes${tab}tree_write_bytes" \
	"the tree columns after nivcsw"
like "$(meta resources one.tsv)" '^tree: .*memory: cgroup v[12] .*cpu: cgroup v[12] .*io: cgroup v[12] ' \
	"# resources: names each quantity's hierarchy"
p=$(pid_of one.tsv)
if [ -n "$p" ] && [ -z "$(left "$p")" ] && nums "$(col tree_cpu_ns 1 one.tsv)"; then
	ok "no cgroup left after the run"; else not_ok "no cgroup left after the run"; diag "$(left "$p")"; fi
run pb-run --quiet -r 1 -p 2 -w 0 -- "$W --us 0"
like "$(grep -v '^#' "$T/out" | head -n 1)" 'nivcsw$' "without it, the stream as it was"

# --- memory: the whole tree's peak, two 64 MiB at once against one. The
# first holds its pages (a busy-wait killed at the end) until the second
# has started: the overlap is an event, not a race.
cat >two.sh <<EOS
$W --alloc-mib 64 --us 600000000 & p=\$!
until [ "\$(awk '/^VmRSS/ { print \$2 }' /proc/\$p/status 2>/dev/null || echo 0)" -ge 65536 ]; do
	kill -0 \$p 2>/dev/null || exit 1; sleep 0.01
done
$W --alloc-mib 64 --us 0
kill \$p
EOS
run pb-run --quiet -r 1 -p 2 -w 0 --order alternate --resources tree -- "sh $T/two.sh" "$W --alloc-mib 64 --us 0"
ran_ok "two at once against one: exit 0"
cp "$T/out" mem.tsv
holds "A's tree peak is both, at least 120000 KiB" 'a >= 120000' a="$(col tree_maxrss_kib 1 mem.tsv)"
holds "B's tree peak is one, under 80000 KiB" 'b >= 60000 && b < 80000' b="$(col tree_maxrss_kib 2 mem.tsv)"
holds "wait4's maxrss is one process's (the largest)" 'm < 80000 && t > m + 50000' \
	m="$(col maxrss_kib 1 mem.tsv)" t="$(col tree_maxrss_kib 1 mem.tsv)"
# the acceptance command as the issue gives it: one 64 MiB in B
run pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- \
	"sh -c '$W --alloc-mib 64 & $W --alloc-mib 64; wait'" "$W --alloc-mib 64"
cp "$T/out" acc.tsv
holds "the issue's command: B under 80000 KiB, A at least one 64 MiB" 'a >= 65536 && b < 80000' \
	a="$(rows acc.tsv | awk -F'\t' '$4 == "A" { print $17 }')" \
	b="$(rows acc.tsv | awk -F'\t' '$4 == "B" { print $17 }')"
diag "the issue's command: A $(rows acc.tsv | awk -F'\t' '$4 == "A" { print $17 }') KiB (two 64 MiB, as much as they overlap)"

# --- CPU time: 200 ms twice against once (CPU time, not time: load only
# stretches it)
run pb-run --quiet -r 1 -p 1 -w 0 --order alternate --resources tree -- \
	"sh -c '$W --us 0 --cpu-us 200000 & $W --us 0 --cpu-us 200000; wait'" "$W --us 0 --cpu-us 200000"
ran_ok "CPU time: exit 0"
cp "$T/out" cpu.tsv
holds "A's tree CPU time is both, at least 400 ms" 'a >= 400000000' a="$(col tree_cpu_ns 1 cpu.tsv)"
holds "B's is one: 200 ms to 300 ms" 'b >= 200000000 && b < 300000000' b="$(col tree_cpu_ns 2 cpu.tsv)"

# --- I/O: 8 MiB written with O_DIRECT and read back, against 8 MiB
# written and fsync'd
run pb-run --quiet -r 1 -p 1 -w 0 --order alternate --resources tree -- \
	"dd if=/dev/zero of=$T/f bs=1M count=8 oflag=direct 2>/dev/null && dd if=$T/f of=/dev/null bs=1M iflag=direct 2>/dev/null" \
	"dd if=/dev/zero of=$T/g bs=1M count=8 conv=fsync 2>/dev/null"
if [ "$rc" -ne 0 ]; then
	skip "I/O: O_DIRECT refused in $T ($(head -c 200 "$T/err"))"
	skip "I/O: fsync"
else
	cp "$T/out" io.tsv
	holds "O_DIRECT: 8 MiB written and read" 'w >= 8388608 && r >= 8388608' \
		w="$(col tree_write_bytes 1 io.tsv)" r="$(col tree_read_bytes 1 io.tsv)"
	holds "fsync: 8 MiB written, less than 1 MiB read" 'w >= 8388608 && r < 1048576' \
		w="$(col tree_write_bytes 2 io.tsv)" r="$(col tree_read_bytes 2 io.tsv)"
fi

# --- pb-pair
run pb-pair mem.tsv
ran_ok "pb-pair: exit 0, rows"
cp "$T/out" pairs.tsv
like "$(grep -v '^#' pairs.tsv | head -n 1)" \
	"a_tree_maxrss${tab}b_tree_maxrss${tab}a_tree_cpu${tab}b_tree_cpu${tab}a_tree_read${tab}b_tree_read${tab}a_tree_write${tab}b_tree_write\$" \
	"pb-pair: the tree columns paired last"
same_value "$(col a_tree_maxrss 1 pairs.tsv):$(col b_tree_maxrss 1 pairs.tsv)" \
	"$(col tree_maxrss_kib 1 mem.tsv):$(col tree_maxrss_kib 2 mem.tsv)" "pb-pair: a_ is A's, b_ is B's"

# --- pb-compare: the whole tree's CPU time and peak memory, analysed as
# wait4's are (two 20 ms of CPU time against one: a ratio of about 2)
run pb-compare -r 3 -p 3 -b 600s --no-pictures -v --resources tree --dir cmp \
	--export-json "$T/cmp.json" -- \
	"sh -c '$W --us 0 --cpu-us 20000 & $W --us 0 --cpu-us 20000; wait'" "$W --us 0 --cpu-us 20000"
exited_ok "pb-compare --resources tree: exit 0, a summary"
cp "$T/out" cmp.txt
r=$(sed -n 's/^   whole-tree CPU time: A\/B \([0-9.]*\),.*/\1/p' cmp.txt)
holds "pb-compare: the whole-tree CPU time ratio A/B, about 2" 'r > 1.6 && r < 2.6' r="$r"
like "$(grep -c '^   whole tree: CPU time median .* peak memory median ' cmp.txt)" '^2$' \
	"pb-compare -v: each arm's whole-tree medians"
like "$(grep '^   whole-tree peak memory: A/B ' cmp.txt)" 'A/B [0-9.]+, ' \
	"pb-compare: the whole-tree peak memory's line"
like "$(tr -d ' \n' <cmp.json)" '"tree_cpu_time":\{"ratio":[0-9.]+,"ratio_lo":[0-9.]+,"ratio_hi":[0-9.]+,"verdict":"less"\}' \
	"pb-compare --export-json: tree_cpu_time, B uses less"
if [ -s cmp/tint-tree-memory.tsv ] && [ -s cmp/runs-tree-cpu.tsv ] && grep -q 'lr_tree_cpu' cmp/Makefile; then
	ok "the study directory: runs-tree-*.tsv, tint-tree-*.tsv, in its Makefile"; else
	not_ok "the study directory: runs-tree-*.tsv, tint-tree-*.tsv, in its Makefile"; diag "$(ls cmp 2>&1)"; fi

# --- what the observation leaves: a daemon killed, nothing after a failure
cat >daemon.sh <<EOS
setsid sh -c 'echo \$\$ >$T/daemon.pid; exec $W --hang' </dev/null >/dev/null 2>&1 &
until [ -s $T/daemon.pid ]; do sleep 0.01; done
EOS
run pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- "sh $T/daemon.sh"
d=$(cat daemon.pid 2>/dev/null)
# gone, or a zombie its new parent (init, here a container's) has yet to reap
state=$(awk '{ print $3 }' "/proc/$d/stat" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ -n "$d" ] && { [ -z "$state" ] || [ "$state" = Z ]; }; then
	ok "a daemon (setsid) is killed with its cgroup"; else
	not_ok "a daemon (setsid) is killed with its cgroup"; diag "rc $rc pid '$d' state '$state'"
	[ -n "$d" ] && kill -9 "$d" 2>/dev/null; fi
run pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- "$W --exit 3"
p=$(pid_of "$T/out")
if [ "$rc" -eq 1 ] && [ -n "$p" ] && [ -z "$(left "$p")" ] && grep -q '^# failed:' "$T/out"; then
	ok "a failed command: exit 1, no cgroup left"; else
	not_ok "a failed command: exit 1, no cgroup left"; diag "rc $rc pid '$p' $(left "$p")"; fi

# a command that makes cgroups of its own inside its memory cgroup (v1,
# as here) and moves a hanging process into the deepest: they go first
cat >nest.sh <<EOS
d=/sys/fs/cgroup/memory\$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
mkdir -p "\$d/sub/deeper" || exit 9
sh -c 'echo \$\$ >"\$1/sub/deeper/cgroup.procs" && echo \$\$ >$T/nest.pid && exec $W --hang' nest "\$d" &
until [ -s $T/nest.pid ]; do sleep 0.01; done
EOS
if grep -q '^[0-9]*:memory:' /proc/self/cgroup; then
	run pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- "sh $T/nest.sh"
	p=$(pid_of "$T/out") d=$(cat nest.pid 2>/dev/null)
	state=$(awk '{ print $3 }' "/proc/$d/stat" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ -n "$p" ] && [ -n "$d" ] && [ -z "$(left "$p")" ] &&
		{ [ -z "$state" ] || [ "$state" = Z ]; }; then
		ok "cgroups the command made inside its own: removed, their process killed"; else
		not_ok "cgroups the command made inside its own: removed, their process killed"
		diag "rc $rc pid '$p' hang '$d' state '$state' left '$(left "$p")' $(cat "$T/err")"
		[ -n "$d" ] && kill -9 "$d" 2>/dev/null; fi
else
	skip "cgroups the command made inside its own: no v1 memory cgroup here"
fi

# SIGINT and SIGTERM while a command hangs in its cgroups
for sig in INT TERM; do
	pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- "$W --hang" >sig.tsv 2>sig.err &
	bp=$!
	i=0
	while [ -z "$(left "$bp")" ] && kill -0 "$bp" 2>/dev/null && [ $i -lt 30000 ]; do
		sleep 0.01; i=$((i + 1)); done
	seen=$(left "$bp")
	kill -"$sig" "$bp" 2>/dev/null
	wait "$bp"
	src=$?
	if [ -n "$seen" ] && [ -z "$(left "$bp")" ] && [ "$src" -gt 128 ]; then
		ok "SIG$sig: the cgroups made are removed ($src)"; else
		not_ok "SIG$sig: the cgroups made are removed"; diag "status $src seen '$seen' left '$(left "$bp")'"; fi
done

# --- refusals
refuses 2 'resources tree.*command mode' "--worker: refused" \
	pb-run --resources tree --worker "$W --worker"
refuses 2 'resources tree.*command mode' "--pg: refused" \
	pb-run --resources tree --pg 'dbname=x' --sql-a 'select 1'
refuses 2 "'--resources'|resources.*process" "--resources what: refused" \
	pb-run --resources what -- true
if command -v setpriv >/dev/null 2>&1 && [ -x "$top/bin/pb-run" ] &&
   setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	refuses 2 '^pb-run: --resources tree: no writable cgroup for memory: .*[(]root, or a cgroup delegated' \
		"a user without cgroups: exit 2, one line" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$top/bin/pb-run" --resources tree -- true
else
	skip "a user without cgroups: no setpriv, or it cannot change user here"
fi

# --- cgroup v2: cpu.stat where a cgroup2 mount holds pb-run's cgroup (one
# of the test's own where none is mounted and the kernel lets it)
v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
made=
if [ -z "$v2" ] && mkdir v2 && mount -t cgroup2 none "$T/v2" 2>/dev/null; then
	v2=$T/v2 made=yes
fi
if [ -z "$v2" ]; then
	skip "cgroup v2: none mounted, and mount -t cgroup2 refused here"
	skip "cgroup v2 memory: no cgroup2"
else
	run pb-run --quiet -r 1 -p 1 -w 0 --resources tree -- "$W --us 0 --cpu-us 100000"
	like "$(meta resources "$T/out")" "cpu: cgroup v2 cpu.stat usage_usec in $v2" \
		"cgroup v2: cpu.stat's usage_usec, in every cgroup2"
	if grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null; then
		like "$(meta resources "$T/out")" "memory: cgroup v2 memory.peak" "cgroup v2: memory.peak"
	else
		skip "cgroup v2 memory: the memory controller is not in $v2's cgroup.subtree_control (bound to v1 here: $(cat "$v2/cgroup.controllers" 2>/dev/null))"
	fi
	[ -n "$made" ] && umount "$T/v2"
fi
done_testing

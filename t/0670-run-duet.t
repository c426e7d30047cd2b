#!/bin/sh
# pb-run --duet: A and B of each pair at the same moment, each pinned to
# a CPU of its own (which drawn per pair), in command and worker modes.
# That the two arms run at once is shown by arms that wait for each
# other (a rendezvous), which sequential pairs cannot finish: no clock
# decides. The start stamps' spread is printed, not judged (load).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ "$(uname -s)" != Linux ] || [ "$ncpu" -lt 2 ] || ! command -v taskset >/dev/null; then
	skip "duet needs Linux, two CPUs and taskset (util-linux): $(uname -s), $ncpu CPUs"
	done_testing; exit
fi
# the first two CPUs this process may use
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
	awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }' | head -2 | paste -sd, -)

# col_of NAME FILE: the number of the column NAME in FILE's header
col_of() { grep -v '^#' "$2" | head -1 | tr '\t' '\n' | grep -nx -- "$1" | cut -d: -f1; }
# by_pair FILE: "run phase pair armA cpuA startA armB cpuB startB" per pair
by_pair() {
	c=$(col_of cpu "$1") s=$(col_of start_ns "$1")
	rows "$1" | awk -F'\t' -v c="$c" -v s="$s" 'NR % 2 { a = $4 " " $c " " $s; k = $1 " " $3 " " $2; next }
		{ print k, a, $4, $c, $s }'
}

# --- command mode: the stream
run pb-run --duet --runs 3 --pairs 20 --warmup 2 --quiet -- "$W --cpu-us 2000" "$W --cpu-us 2000"
cp "$T/out" duet.tsv
is "$rc:$(cat "$T/err"):$(row_count duet.tsv)" "0::132" "--duet: exit 0, nothing on stderr, 3 runs x 22 pairs x 2 rows"
is "$(meta order duet.tsv)|$(meta duet_cpus duet.tsv)" "duet|$cpus" \
	"# order: duet, # duet_cpus: the first two CPUs allowed"
like "$(grep -v '^#' duet.tsv | head -1)" '	spin_ns	user_ns	.*	nivcsw	cpu	start_ns$' \
	"header: cpu and start_ns after every other column"
is "$(rows duet.tsv | cut -f5 | sort -u | tr '\n' ' ')" "0 " "pos 0 on every row: neither arm went first"
by_pair duet.tsv >pairs.txt
is "$(awk '$4 == "A" && $7 == "B"' pairs.txt | wc -l | tr -d ' ')" 66 "each of the 66 pairs: A's row, then B's"
is "$(awk -v c="$cpus" 'BEGIN { split(c, x, ",") }
	($5 == x[1] && $8 == x[2]) || ($5 == x[2] && $8 == x[1])' pairs.txt | wc -l | tr -d ' ')" 66 \
	"each of the 66 pairs: A and B on the two CPUs, one each"
is "$(awk '{ print $5 }' pairs.txt | sort -u | wc -l | tr -d ' ')" 2 \
	"across the pairs A had both CPUs (a coin per pair: all 66 alike has p = 2^-65)"
is "$(rows duet.tsv | awk -F'\t' '$8 == 0 && $7 > 0 && $NF >= 0' | wc -l | tr -d ' ')" 132 \
	"every observation: status 0, ns > 0, start_ns >= 0"
diag "start stamps: median |start_A - start_B| $(awk '{ d = $6 - $9; print d < 0 ? -d : d }' pairs.txt |
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') ns (not judged: load)"

# --- they run at once: each arm waits until the other has started, which
# a sequential pair never gets past (its first arm waits for ever)
printf 'touch "%s/$1"; while [ ! -e "%s/$2" ]; do :; done\n' "$T" "$T" >meet
run pb-run --duet --runs 2 --pairs 5 --warmup 0 --quiet --timeout 120s \
	--prepare "rm -f $T/a $T/b" -- "sh $T/meet a b" "sh $T/meet b a"
is "$rc:$(rows "$T/out" | awk -F'\t' '$8 != 0' | wc -l | tr -d ' '):$(row_count "$T/out")" "0:0:20" \
	"arms that wait for each other: every pair completes in duet"
run pb-run --runs 1 --pairs 1 --warmup 0 --quiet --timeout 300ms \
	--prepare "rm -f $T/a $T/b" -- "sh $T/meet a b" "sh $T/meet b a"
like "$rc:$(cat "$T/err")" "^1:pb-run: run 1 pair 1 .*timed out" \
	"  the same arms in sequential pairs: the first waits until its timeout"

# --- each arm is pinned to the CPU of its row
run pb-run --duet --runs 2 --pairs 6 --warmup 0 --quiet -- \
	"sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >>$T/a.cpus" \
	"sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status >>$T/b.cpus"
c=$(col_of cpu "$T/out")
is "$(grep -c . a.cpus):$(cat a.cpus | tr '\n' ' ')|$(cat b.cpus | tr '\n' ' ')" \
	"12:$(rows "$T/out" | awk -F'\t' -v c="$c" '$4 == "A" { printf "%s ", $c }')|$(rows "$T/out" |
	awk -F'\t' -v c="$c" '$4 == "B" { printf "%s ", $c }')" \
	"command mode: each arm ran on the one CPU its row names (A 12 times)"

# --- the delay: on B's rows, inside its window, as in sequential pairs
run pb-run --duet --runs 1 --pairs 4 --warmup 0 --quiet --delay 2ms -- true
is "$(rows "$T/out" | awk -F'\t' '($4 == "B" && $6 == 2000000 && $9 >= 2000000 && $9 <= $7) ||
	($4 == "A" && $6 == 0 && $9 == 0)' | wc -l | tr -d ' '):$rc" 8:0 \
	"--delay 2ms: delay_ns and spin_ns on B's rows, within ns; 0 on A's"

# --- worker mode: a worker per arm and run, pinned with its arm
cat >cpuw <<EOF
#!/bin/sh
while IFS='	' read -r arm run pair; do
	echo "\$arm \$run \$pair \$\$ \$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" >>$T/w.seen
	echo ok
done
EOF
chmod +x cpuw
run pb-run --duet --runs 2 --pairs 5 --warmup 1 --quiet --worker "$T/cpuw"
is "$rc:$(cat "$T/err"):$(row_count "$T/out")" "0::24" "worker mode: exit 0, 2 runs x 6 pairs"
is "$(awk '{ print $1, $2, $4 }' w.seen | sort -u | awk '{ print $1, $2 }' | sort | uniq -c |
	awk '$1 != 1' | wc -l | tr -d ' '):$(awk '{ print $4 }' w.seen | sort -u | wc -l | tr -d ' ')" "0:4" \
	"worker mode: each arm of each run has a worker of its own (4 processes)"
c=$(col_of cpu "$T/out")
# per run and arm, the CPUs of its requests in the order they came
is "$(grep -c . w.seen) $(awk '{ s[$2 $1] = s[$2 $1] " " $5 } END { for (k in s) print k ":" s[k] }' w.seen | sort)" \
	"24 $(rows "$T/out" | awk -F'\t' -v c="$c" '{ s[$1 $4] = s[$1 $4] " " $c }
	END { for (k in s) print k ":" s[k] }' | sort)" \
	"worker mode: each of the 24 requests was served on the CPU of its row"

# --- refused, one line, exit 2
refused_duet() {   # WHY ARGS...
	why=$1; shift
	run "$@"
	like "$rc:$(wc -l <"$T/err" | tr -d ' '):$(cat "$T/err")" "^2:1:pb-run: " "refused: $why"
}
refused_duet "one CPU (taskset -c 0)" taskset -c 0 pb-run --duet --runs 1 --pairs 1 -- true
refused_duet "--cpu of one CPU" pb-run --duet --cpu 0 --runs 1 --pairs 1 -- true
refused_duet "three arms" pb-run --duet --runs 1 --pairs 1 -- true true true
refused_duet "--order" pb-run --duet --order alternate --runs 1 --pairs 1 -- true
refused_duet "--pg" pb-run --duet --pg 'host=/nonexistent' --sql-a 'select 1'
refused_duet "--resources tree" pb-run --duet --resources tree --runs 1 --pairs 1 -- true
like "$(taskset -c 0 pb-run --duet -- true 2>&1)" "two CPUs" "  one CPU: the line says two CPUs are needed"

# --- nothing outlives pb-run: SIGTERM, and SIGKILL (the timers follow
# their parent, and take their arms with them)
printf 'touch "$1"; sleep 31.7\n' >"$T/pbd-arm"
for sig in TERM KILL; do
	rm -f up.A up.B
	pb-run --duet --runs 1 --pairs 1 --warmup 0 --quiet -- "sh $T/pbd-arm $T/up.A" \
		"sh $T/pbd-arm $T/up.B" >"$sig.tsv" 2>/dev/null &
	pid=$!
	i=0
	while ! { [ -e up.A ] && [ -e up.B ]; } && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	st=$?
	i=0
	while pgrep -f "$T/pbd-arm" >/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	left=$(pgrep -f "$T/pbd-arm")
	[ -n "$left" ] && kill -KILL $left
	if [ "$sig" = TERM ]; then want=143; else want=137; fi
	is "$st:${left:-none}" "$want:none" "SIG$sig while both arms run: pb-run ends ($want), no arm left"
done
is "$(grep -c '^# interrupted: SIGTERM' TERM.tsv)" 1 "  SIGTERM: '# interrupted:' in the stream"

# --- an interrupt ends a long --delay: the spin (a timer's with --duet,
# pb-run's own without) looks at it, and no clock decides: the study
# would take an hour otherwise
for d in --duet ""; do
	pb-run $d --runs 1 --pairs 1 --warmup 0 --quiet --delay 3600s -- true true \
		>delay.tsv 2>/dev/null &
	pid=$!
	i=0
	while ! grep -q '^# run:' delay.tsv && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.5
	kill -INT "$pid" 2>/dev/null
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	if kill -0 "$pid" 2>/dev/null; then
		pkill -KILL -P "$pid"; kill -KILL "$pid"; st=stuck
	else
		wait "$pid"; st=$?
	fi
	is "$st" 130 "SIGINT in a --delay 3600s ${d:-(sequential)}: pb-run ends (130) within 30 s"
done

# --- worker mode: a timer that cannot pin itself (pb-run moved into a
# cpuset of one CPU mid-study) fails its arm with that reason, as in
# command mode, rather than dying on the worker's blob it never filled.
# Needs root and a cgroup v1 cpuset hierarchy; skipped elsewhere.
cs=/sys/fs/cgroup/cpuset
if [ "$(id -u)" = 0 ] && [ -w "$cs/tasks" ] && mkdir "$cs/pbd-$$" 2>/dev/null; then
	echo "${cpus%%,*}" >"$cs/pbd-$$/cpuset.cpus"
	cat "$cs/cpuset.mems" >"$cs/pbd-$$/cpuset.mems"
	pb-run --duet --runs 1 --pairs 100000 --warmup 0 --quiet --worker "$W --worker --us 200" \
		>pin.tsv 2>pin.err &
	pid=$!
	i=0
	while [ "$(grep -vc '^#' pin.tsv)" -lt 10 ] && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	echo "$pid" >"$cs/pbd-$$/tasks"
	wait "$pid"
	st=$?
	rmdir "$cs/pbd-$$"
	is "$st:$(grep -c '^# failed: ' pin.tsv)" 1:1 "worker mode, a timer that cannot pin: exit 1, with a '# failed:' line"
	like "$(cat pin.err)" "cannot pin arm [AB]'s timer to CPU" "  the line says which timer could not pin, and why"
	like "$(tail -1 pin.tsv)" "^# failed: .*cannot pin arm" "  and the stream ends in '# failed:'"
else
	skip "a timer that cannot pin: needs root and a cgroup v1 cpuset hierarchy"
fi

# --- one arm fails, the other would run for ever: the failure ends the
# study at once (timeout only guards the test against the defect)
ln -s "$W" "$T/pbd-hang"
for v in "A|$W --exit 2|$T/pbd-hang --hang|2" "B|$T/pbd-hang --hang|$W --exit 3|3"; do
	IFS='|' read -r arm a b code <<EOF2
$v
EOF2
	run timeout 120 pb-run --duet --runs 1 --pairs 3 --warmup 0 --quiet -- "$a" "$b"
	like "$rc:$(cat "$T/err")" "^1:pb-run: run 1 pair 1 \\(measure\\) arm $arm: command exited with status $code" \
		"arm $arm fails while the other hangs: the study ends on $arm's failure, exit 1"
done
i=0
while pgrep -f "$T/pbd-hang" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
is "$(pgrep -f "$T/pbd-hang" | wc -l | tr -d ' ')" 0 "  the arm that hung is not left running"

# --- a timer killed from outside: its command does not outlive pb-run.
# Both commands have started (their files) before one timer is killed.
rm -f k.A k.B
pb-run --duet --runs 1 --pairs 2 --warmup 0 --quiet -- "sh $T/pbd-arm $T/k.A" \
	"sh $T/pbd-arm $T/k.B" >killed.tsv 2>/dev/null &
pid=$!
i=0
while ! { [ -e k.A ] && [ -e k.B ]; } && kill -0 "$pid" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1; i=$((i + 1))
done
kill -KILL "$(pgrep -P "$pid" | head -1)" 2>/dev/null
wait "$pid"
st=$?
i=0
while pgrep -f "sh $T/pbd-arm $T/k" >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
left=$(pgrep -f "sh $T/pbd-arm $T/k")
[ -n "$left" ] && kill -KILL $left
is "$st:${left:-none}:$(grep -c "^# failed: .*timer ended without a report" killed.tsv)" "1:none:1" \
	"a timer killed: the study fails saying so, and no arm is left running"

done_testing

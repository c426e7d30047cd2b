#!/bin/sh
# Shards of one study (examples/parallel): GNU parallel runs 3 shards of
# 2 runs side by side, merge.sh merges and analyses them; the runs are
# numbered 1..6, the merge is the shards' pairs end to end, the orders are
# those of one 6-run study with the same seed; pb-pair refuses shards that
# overlap or measure something else; --host and pb-tint --group host; the
# ssh form (--dry-run, with stub ssh and rsync) and the Slurm form (array
# tasks simulated, sbatch stubbed). Workloads are tiny; nothing depends
# on timing.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
P=$top/examples/parallel
command -v parallel >/dev/null 2>&1 || { echo "1..0 # SKIP parallel not installed (Debian package parallel; make check installs it)"; exit 0; }
cd "$T" || exit 1

# meta KEY FILE: the first "# KEY: value" of FILE
meta() { sed -n "s/^# $1: //p" "$2" | head -n 1; }
# runs FILE: the run numbers of a stream's rows, in order, without repeats
runs() { rows "$1" | cut -f1 | uniq | tr '\n' ' '; }

# Every shard: 2 runs of 1 warm-up + 3 measured pairs, no shell. The
# workload is found on PATH, so that no command (and no message quoting
# one) holds the path of the clone.
mkdir wbin && ln -s "$W" wbin/pb-workload || exit 1
PATH=$T/wbin:$PATH
DESIGN="--pairs 3 --warmup 1 --no-shell"
W=pb-workload
A="$W --us 100" B="$W --us 150"

# --- run-local.sh: 3 shards, 3 at a time. Shards started together can
# share a start millisecond; pb-pair tells runs apart by start, pid and
# host, so they merge every time.
# shellcheck disable=SC2086
run sh "$P/run-local.sh" --shards 3 --runs 2 --jobs 3 --seed 11 --dir sh $DESIGN -- "$A" "$B"
is "$rc:$(cat "$T/err"):$(row_count sh/pairs.tsv)" "0::18" "run-local.sh: 3 shards run and merge, exit 0, stderr empty"
is "$(ls sh | tr '\n' ' ')" "hosts.tsv overall.tsv pairs.tsv runs.tsv shard-1.tsv shard-2.tsv shard-3.tsv study " \
	"the shards and the analysis in --dir; no .part left"
like "$(cat "$T/out")" 'finding: (B took|No difference resolved)' "the finding is printed (its direction depends on timing)"
is "$(runs sh/shard-1.tsv)|$(runs sh/shard-2.tsv)|$(runs sh/shard-3.tsv)" "1 2 |3 4 |5 6 " \
	"shard i holds runs 2i-1 and 2i (--first-run 1, 3, 5)"
is "$(meta first_run sh/shard-2.tsv):$(meta runs sh/shard-2.tsv):$(meta seed sh/shard-3.tsv)" "3:2:11" \
	"shard metadata: first_run, runs, the shared seed"
is "$(runs sh/pairs.tsv)" "1 2 3 4 5 6 " "merged: runs 1..6, no collision"
is "$(rows sh/pairs.tsv | wc -l | tr -d ' ')" 18 "merged: 6 runs x 3 pairs"
for i in 1 2 3; do pb-pair "sh/shard-$i.tsv" | rows; done >separate
rows sh/pairs.tsv >merged
same_file merged separate "merged pairs = the shards' pairs, each by its own pb-pair, end to end"
is "$(rows sh/runs.tsv | wc -l | tr -d ' '):$(col n 1 sh/overall.tsv)" "6:6" \
	"runs.tsv one row per run; the overall interval counts 6 runs"

# One study of 6 runs with the same seed has the same orders.
pb-run --quiet --runs 6 --seed 11 $DESIGN -- "$A" "$B" | pb-pair | rows | cut -f1-3 >one
rows sh/pairs.tsv | cut -f1-3 >sharded
same_file sharded one "run k's order depends on the seed and k only: shards = one 6-run study"

# --- what pb-pair refuses
pb-run --quiet --first-run 2 --runs 2 --seed 11 $DESIGN -- "$A" "$B" >overlap.tsv
fails 1 '^pb-pair: overlap.tsv:[0-9]+: run 2 is also in sh/shard-1.tsv; give each shard its own --first-run$' \
	"overlapping --first-run: refused, both files named" pb-pair sh/shard-1.tsv overlap.tsv
pb-run --quiet --first-run 7 --runs 1 --seed 11 $DESIGN -- "$A" "$W --us 300" >other-b.tsv
fails 1 "^pb-pair: sh/shard-1.tsv and other-b.tsv disagree on 'cmd_b' \\(pb-workload --us 150 vs pb-workload --us 300\\)" \
	"a shard with another command B: refused" pb-pair sh/shard-1.tsv other-b.tsv
pb-run --quiet --first-run 7 --runs 1 --seed 11 --pairs 4 --warmup 1 --no-shell -- "$A" "$B" >other-p.tsv
fails 1 "disagree on 'pairs' \\(3 vs 4\\)" "a shard with another design (pairs): refused" \
	pb-pair sh/shard-1.tsv other-p.tsv
# A sequential study's rule and sequence are its design too: a shard
# stopped by another rule, or by none, is not one more shard of it.
sed 's/^# runs: /# until: parity\n# seq_g: 25\n&/' sh/shard-2.tsv >other-u.tsv
fails 1 "disagree on 'until' \\(absent vs parity\\)" "a shard stopped by --until, with one that was not: refused" \
	pb-pair sh/shard-1.tsv other-u.tsv
sed 's/^# runs: /# until: parity\n# seq_g: 2\n&/' sh/shard-3.tsv >other-g.tsv
fails 1 "disagree on 'seq_g' \\(25 vs 2\\)" "two shards of --until with another g: refused" \
	pb-pair other-u.tsv other-g.tsv
sed 's/^# pb-run: [^ ]* /# pb-run: 9.9.9 /' sh/shard-2.tsv >other-v.tsv
fails 1 'come from different pb versions' "a shard from another pb version: refused" \
	pb-pair sh/shard-1.tsv other-v.tsv

# --- runs that started in the same millisecond (t/data/shards/stamp-*.tsv)
run pb-pair "$D/shards/stamp-a.tsv" "$D/shards/stamp-b.tsv"
is "$rc:$(row_count "$T/out")" 0:4 "same start= on two hosts: two runs, merged"
run pb-pair "$D/shards/stamp-a.tsv" "$D/shards/stamp-c.tsv"
is "$rc:$(row_count "$T/out")" 0:4 "same start= on one host by two pb-run processes (pids differ): merged"
sed 's/^1\t/2\t/; s/^# run: 1 /# run: 2 /' "$D/shards/stamp-a.tsv" >renumbered.tsv
fails 1 'both hold a run with start=2026-11-30T06:00:00.000Z: the same run twice' \
	"a shard copied with its runs renumbered: still refused" \
	pb-pair "$D/shards/stamp-a.tsv" renumbered.tsv

# --- hosts: shards 2 and 3 as if run on hosts h2 and h3
host=$(meta host sh/shard-1.tsv)
sed 's/^\(# run: .*\) host=[^ ]*$/\1 host=h2/' sh/shard-2.tsv >h2.tsv
sed 's/^\(# run: .*\) host=[^ ]*$/\1 host=h3/' sh/shard-3.tsv >h3.tsv
run pb-pair --host sh/shard-1.tsv h2.tsv h3.tsv
is "$rc:$(rows "$T/out" | cut -f1,9 | sort -u | tr '\t\n' ': ')" "0:1:$host 2:$host 3:h2 4:h2 5:h3 6:h3 " \
	"pb-pair --host: each pair gets its run's host"
# (the shards are of command mode: the paired rusage columns come last)
is "$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "run pair first a b d delay spin host a_user b_user a_sys b_sys a_maxrss b_maxrss a_cpu b_cpu a_minflt b_minflt a_majflt b_majflt a_nvcsw b_nvcsw a_nivcsw b_nivcsw" \
	"pb-pair --host: host after the pair columns, before the paired rusage"
pb-pair --by-run --host sh/shard-1.tsv h2.tsv h3.tsv | pb-logratio >hruns.tsv
run pb-tint --group host hruns.tsv
is "$rc:$(rows "$T/out" | cut -f1,2 | tr '\t\n' ': ')" "0:$host:2 h2:2 h3:2 " \
	"pb-tint --group host: one interval per host, 2 runs each"
run sh "$P/merge.sh" -o hm sh/shard-1.tsv h2.tsv h3.tsv
is "$rc:$(cat "$T/err"):$(row_count hm/hosts.tsv)" "0::3" "merge.sh on 3 hosts: exit 0"
is "$(rows hm/hosts.tsv | wc -l | tr -d ' '):$(col n 1 hm/between.tsv)" "3:3" \
	"merge.sh: hosts.tsv has 3 hosts; between.tsv has n = 3 hosts"
like "$(cat "$T/out")" 'hosts as the unit \(n = hosts\)' "merge.sh prints the host-level interval"
# hosts as a level: pb-tint --unit host over the 3 hosts' runs, its
# finding printed with a prediction for a new host
is "$(rows hm/across.tsv | cut -f1 | tr '\n' ' '):$(col n 4 hm/across.tsv)" "host host host hosts :3" \
	"merge.sh: across.tsv has a row per host and one across the 3 hosts (pb-tint --unit host)"
like "$(tr '\n' ' ' <"$T/out")" 'across hosts: Over 3 hosts .*On +another +machine +like +these' \
	"merge.sh prints what a new host like these should expect"
# the shards as one raw stream: pb-compare --analyse makes the study of
# it, with hosts as a level (hosts.tsv) and the summary's line of it
is "$(meta runs hm/study/raw.tsv):$(runs hm/study/raw.tsv):$(grep -c '^# pb-run: ' hm/study/raw.tsv)" \
	"6:1 2 3 4 5 6 :1" "merge.sh: study/raw.tsv has the 6 runs of 3 shards under one head that says 6"
is "$(grep -c '^run	pair	' hm/study/raw.tsv):$(sed -n 's/^# run: .* host=//p' hm/study/raw.tsv | tr '\n' ' ')" \
	"1:$host $host h2 h2 h3 h3 " "... one header, and each run's host"
run sh "$P/merge.sh" -o rev sh/shard-3.tsv sh/shard-1.tsv sh/shard-2.tsv
is "$rc:$(meta first_run rev/study/raw.tsv):$(meta runs rev/study/raw.tsv)" "0:1:6" \
	"merge.sh, the shards in another order: study/raw.tsv's head says runs 1 to 6"
run pb-compare --no-pictures --analyse hm/study
is "$rc:$(rows hm/study/hosts.tsv | cut -f1,2,3 | tr '\t\n' ': ')" "0:host:$host:2 host:h2:2 host:h3:2 hosts::3 " \
	"pb-compare --analyse on merge.sh's study: hosts.tsv, 3 hosts of 2 runs"
like "$(cat "$T/out")" 'with the 3 hosts as the unit: .* on the average host, .* on a new host like these \(95% prediction\)' \
	"... and the summary says what the average host and a new one show"
sed '0,/host=h3$/s//host=h4/' h3.tsv >h4.tsv
run sh "$P/merge.sh" -o h4 sh/shard-1.tsv h2.tsv h4.tsv
is "$rc:$(rows h4/hosts.tsv | cut -f1 | tr '\n' ' ')" "0:$host h2 " \
	"merge.sh: hosts with one run are left out of hosts.tsv ..."
like "$(cat "$T/out")" 'hosts with one run, left out: (h3 h4|h4 h3)' "... and named"
fails 1 '^merge.sh: sh/shard-9.tsv: missing shard' "merge.sh: a missing shard is named" \
	sh "$P/merge.sh" -o x sh/shard-1.tsv sh/shard-9.tsv

# --- run-local.sh: usage and a failing shard
fails 2 'gives each shard its --first-run' "run-local.sh refuses --first-run" \
	sh "$P/run-local.sh" --first-run 3 -- "$A"
run sh "$P/run-local.sh" --shards 2 --runs 1 --jobs 2 --seed 1 --dir bad --pairs 1 --warmup 0 \
	--no-shell -- "$W --exit 3"
is "$rc:$(tail -n 1 "$T/err")" "1:run-local.sh: a shard failed (see above; its partial output is bad/shard-N.tsv.part)" \
	"run-local.sh: a failing shard stops the study, exit 1"
is "$(ls bad | grep -c '\.part$' | sed 's/[12]/some/'):$(ls bad | grep -c 'shard-[0-9]\.tsv$'):$(grep -qs '^# failed: .*status 3' bad/*.part && echo failed)" "some:0:failed" \
	"... partial output kept as .part, no shard, nothing merged"

run sh "$P/run-local.sh" --shards 2 --runs 1 --jobs 2 --seed 1 --dir brace --pairs 1 --warmup 0 \
	-- 'true {} "a  b"'
is "$rc:$(meta cmd_a brace/shard-2.tsv)" '0:true {} "a  b"' "run-local.sh: the command reaches pb-run unchanged ({}, quotes, blanks)"

# --- run-ssh.sh: syntax, and the commands GNU parallel would send
sh -n "$P/run-ssh.sh"
is "$?" 0 "run-ssh.sh: sh -n"
mkdir stub
printf '#!/bin/sh\ncase $1 in --version) echo "rsync  version 3.2.7  protocol version 31" ;; *) exit 1 ;; esac\n' >stub/rsync
printf '#!/bin/sh\nexit 255\n' >stub/ssh
chmod +x stub/rsync stub/ssh
echo x >'my tool'
PATH="$T/stub:$PATH" run sh "$P/run-ssh.sh" --hosts h1,h2 --runs 3 --seed 5 --dir ssh \
	--transfer 'my tool' --dry-run --pairs 10 -- "./old 'x y'" /opt/new
is "$rc" 0 "run-ssh.sh --dry-run: exit 0"
is "$(grep -c '^sh -c ' "$T/out")" 4 "run-ssh.sh: 2 shards per host by default"
# the job's arguments as parallel quotes them: ./old 'x y' stays one word
got=
for i in 1 2 3 4; do
	tail=$(printf "' sh %s 3 5 --pairs 10 -- './old '\"'\"'x y'\"'\" /opt/new" "$i")
	got="$got$(grep -cF -- "$tail" "$T/out")"
done
is "$got" 1111 "run-ssh.sh: shard i gets i, R, the seed and every word unchanged"
like "$(cat "$T/out")" 'pb-run --quiet --first-run \$\(\(1 \+ \(i - 1\) \* r\)\)' \
	"run-ssh.sh: the remote command numbers the runs"
is "$(ls -d ssh 2>/dev/null | wc -l | tr -d ' ')" 0 "run-ssh.sh --dry-run: no --dir made, no shards"
# without rsync: one line that names it, before parallel is asked
mkdir norsync
for t in sh parallel perl od tr grep cat dirname basename pwd seq; do
	p=$(command -v "$t") && ln -s "$p" "norsync/$t"
done
PATH="$T/norsync" run sh "$P/run-ssh.sh" --hosts h1 --dry-run -- /opt/a
is "$rc:$(cat "$T/err")" \
	"1:run-ssh.sh: rsync not found: GNU parallel --sshlogin moves files with it (install the Debian package rsync, here and on every host)" \
	"run-ssh.sh without rsync: exit 1, one line naming it"
fails 2 'hosts LOGINS is required' "run-ssh.sh without --hosts: usage" sh "$P/run-ssh.sh" -- "$A"

# --- slurm.sh: the array tasks by hand, then the merge; sbatch stubbed
sh -n "$P/slurm.sh"
is "$?" 0 "slurm.sh: sh -n"
mkdir sl
for i in 1 2 3; do
	(cd sl && PB_CMD_A="$A" PB_CMD_B="$B" PB_RUNS=2 PB_PAIRS=3 PB_WARMUP=1 PB_SEED=11 \
		PB_RUN_OPTS=--no-shell SLURM_ARRAY_TASK_ID=$i sh "$P/slurm.sh") || echo "task $i failed"
done >sl.log 2>&1
is "$(cat sl.log)|$(runs sl/shards/shard-1.tsv)|$(runs sl/shards/shard-3.tsv)" "|1 2 |5 6 " \
	"slurm.sh as array tasks 1..3: task i writes runs 2i-1, 2i"
(cd sl && PB_SHARDS=3 sh "$P/slurm.sh" merge) >sl.out 2>sl.err
is "$?:$(cat sl.err):$(runs sl/shards/pairs.tsv)" "0::1 2 3 4 5 6 " "slurm.sh merge: runs 1..6"
cut -f1-3 sl/shards/pairs.tsv | rows >sl-order
same_file sl-order one "slurm.sh shards have the orders of one 6-run study too"
(cd sl && PB_SHARDS=4 sh "$P/slurm.sh" merge) >/dev/null 2>sl.err
is "$?:$(cat sl.err)" "1:slurm.sh: shards/shard-4.tsv is missing: array task 4 failed?" \
	"slurm.sh merge: a missing shard is named"
printf '#!/bin/sh\necho "$*" >>"$SBATCH_LOG"\necho 4242\n' >stub/sbatch
chmod +x stub/sbatch
(cd sl && SBATCH_LOG="$T/sbatch.log" PATH="$T/stub:$PATH" sh "$P/slurm.sh" submit) >sub.out 2>&1
is "$?:$(cat sub.out)" "0:array job 4242: 8 shards; merge after it: pb-merge-*.log, shards/" \
	"slurm.sh submit: K from the --array line"
is "$(sed -n 1p sbatch.log)" "--parsable $P/slurm.sh" "slurm.sh submit: the array first"
like "$(sed -n 2p sbatch.log)" "--dependency=afterok:4242 .*--wrap sh '$P/slurm.sh' merge\$" \
	"slurm.sh submit: then the merge, after the array succeeded"

done_testing

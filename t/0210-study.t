#!/bin/sh
# The comments pb-run writes about its runs, as pb-pair and pb-plan read
# them: "# run:" in its new form (study=, host last) and the older ones;
# the same run twice; warnings of a study that stopped ("# failed:",
# "# interrupted:"), a run that ended early ("# run_ended:") and a run with
# fewer measured pairs than the head's "pairs". The streams of
# t/data/study are made by hand: 3 pairs per run, pairs joined in order.
. "$(dirname "$0")/lib.sh"
cd "$D/study" || exit 1
TAB=$(printf '\t')

# --- the identity of a run: (study, run) when study= is there
# study.tsv: one pb-run in command mode (every run has its pid), runs 1
# and 2 started in the same millisecond: two runs, not one run twice.
run pb-pair study.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::9" \
	"runs 1 and 2 share start, pid and host in one study: 9 pairs, exit 0"
# The older form, without study=: within one file such runs are two runs too.
sed 's/ study=[0-9a-f]*//' study.tsv >"$T/old.tsv"
run pb-pair "$T/old.tsv"
is "$rc:$(cat "$T/err"):$(row_count "$T/out")" "0::9" "without study=: the same start, pid and host in one file are two runs"
fails 1 "^pb-pair: study.tsv and study.tsv both hold run 1 of study 0123456789abcdef: the same run twice\\?\$" \
	"one file given twice: run 1 of the study twice" pb-pair study.tsv study.tsv
sed "s/^# run: 2 .*/# run: 1 start=2026-11-30T06:00:00.000Z pid=500 study=0123456789abcdef host=a/" \
	study.tsv >"$T/again.tsv"
fails 1 "^pb-pair: .*/again.tsv:25: run 1 of study 0123456789abcdef again \\(also line 18\\): the same run twice\\?\$" \
	"a run's comment twice in one file: refused, both lines named" pb-pair "$T/again.tsv"
# A shard copied with its runs renumbered (4, 5, 6): the same study, start,
# pid and host in another file.
sed "s/^\\([123]\\)$TAB/\\1\\1$TAB/; s/^# run: \\([123]\\) /# run: \\1\\1 /" study.tsv >"$T/renumbered.tsv"
fails 1 "^pb-pair: study.tsv and .*/renumbered.tsv both hold a run with start=2026-11-30T06:00:00.000Z: the same run twice\\?\$" \
	"a copy with its runs renumbered: refused" pb-pair study.tsv "$T/renumbered.tsv"
# Two studies that started in one millisecond with the same pid and host
# (two containers): other study ids, other runs.
sed "s/0123456789abcdef/fedcba9876543210/; s/^\\([123]\\)$TAB/\\1\\1$TAB/; s/^# run: \\([123]\\) /# run: \\1\\1 /" \
	study.tsv >"$T/other.tsv"
run pb-pair study.tsv "$T/other.tsv"
is "$rc:$(cat "$T/err"):$(rows "$T/out" | cut -f1 | uniq | tr '\n' ' ')" "0::1 2 3 11 22 33 " \
	"two studies, the same start, pid and host: merged"

# --host: the host is the last word, the rest of the comment
sed 's/ host=a$/ host=rack 4/' study.tsv >"$T/host.tsv"
run pb-pair --by-run --host "$T/host.tsv"
is "$rc:$(rows "$T/out" | cut -f1,7 | tr '\t\n' ': ')" "0:1:rack 4 2:rack 4 3:rack 4 " \
	"--host takes the host from the new form, spaces and all"

# pb-plan reads the start stamps through the same parser: runs 1, 2, 3
# start at 0, 0 and 10 ms; a gap less the earlier run's pairs (a + b of
# run 1: 3306 + 3246 = 6552 ns, of run 2: 3606 + 3546 = 7152 ns) is
# 0 - 6552 and 10000000 - 7152 ns (or, runs 1 and 2 the other way round,
# 0 - 7152 and 10000000 - 6552): the median is 4993148 ns either way.
pb-pair study.tsv | pb-plan --column d >"$T/plan" 2>"$T/err"
is "$?:$(cat "$T/err"):$(sed -n 's/^# pb-plan.run_cost: //p' "$T/plan")" "0::4993148" \
	"pb-plan: the run cost from the new form's start stamps"

# --- warnings: one sentence each, on stderr and after the rows
# warned FILE [ARGS]: pb-pair's stderr, and its pb-pair.warning lines
warned() {
	f=$1
	shift
	run pb-pair "$@" "$f"
	sed -n 's/^# pb-pair.warning: /pb-pair: /p' "$T/out" >"$T/meta"
}
# wants_warning NAME SENTENCE...: exit 0, stderr = the sentences, the
# same after the rows, the last lines of the output
wants_warning() {
	name=$1
	shift
	printf 'pb-pair: %s\n' "$@" >"$T/want"
	is "$rc:$(rows "$T/out" | head -n 1 | grep -c .)" "0:1" "$name: exit 0, rows"
	is_file "$T/err" "$T/want" "$name: stderr"
	is_file "$T/meta" "$T/want" "$name: the same as pb-pair.warning lines"
	is "$(tail -n $# "$T/out" | grep -c '^# pb-pair.warning: ')" $# "$name: after the rows"
}
warned failed.tsv
wants_warning "a failure" \
	"run 2 has 1 of 3 measured pairs: the study stopped on a failure (# failed: run 2 pair 2 (measure) arm B: exit status 1)"
warned failed.tsv --by-run
wants_warning "a failure, --by-run" \
	"run 2 has 1 of 3 measured pairs: the study stopped on a failure (# failed: run 2 pair 2 (measure) arm B: exit status 1)"
is "$(rows "$T/out" | cut -f1,2 | tr '\t\n' ': ')" "1:3 2:1 " "a failure, --by-run: still both runs, n = 3 and 1"
warned interrupted.tsv
wants_warning "interrupted" \
	"run 2 has 1 of 3 measured pairs: the study was interrupted (# interrupted: SIGINT in run 2 pair 2 (measure) arm A; 4 pairs written)"
warned run-ended.tsv
wants_warning "a run ended early" \
	"run 1 has 1 of 3 measured pairs: the run ended early (# run_ended: run 1 pair 2 (measure) arm A: the worker died; the rest of the run is not measured)"
warned short.tsv
wants_warning "a short run, no comment" \
	"run 2 has 2 of 3 measured pairs, and no comment says why (a cut stream?)"
warned setup-failed.tsv
wants_warning "a failure in a setup hook" \
	"the study stopped on a failure (# failed: run 3 (setup): --setup hook failed with status 1: ./reset-cache)"
warned failed.tsv --exclude 2 --why 'it failed'
wants_warning "--exclude of the short run: not named, the study's stop is" \
	"the study stopped on a failure (# failed: run 2 pair 2 (measure) arm B: exit status 1)"

# Many short runs: three named, the rest counted.
{
	sed -n '1,/^run/p' study.tsv
	for r in 1 2 3 4 5 6; do
		printf '%s\t1\tmeasure\tA\t1\t0\t1000\t0\n%s\t1\tmeasure\tB\t2\t0\t900\t0\n' $r $r
	done
} >"$T/many.tsv"
warned "$T/many.tsv"
wants_warning "6 short runs" \
	"run 1 has 1 of 3 measured pairs, and no comment says why (a cut stream?)" \
	"run 2 has 1 of 3 measured pairs, and no comment says why (a cut stream?)" \
	"run 3 has 1 of 3 measured pairs, and no comment says why (a cut stream?)" \
	"3 more runs have fewer than 3 measured pairs"

# A long reason is cut, and says so.
long=$(printf '%0300d' 0 | tr 0 x)
sed "s/exit status 1\$/$long/" failed.tsv >"$T/long.tsv"
warned "$T/long.tsv"
is "$(wc -l <"$T/err" | tr -d ' ')" 1 "a long reason of a failure: one line"
like "$(cat "$T/err")" "arm B: x{170}\\.\\.\\.\\)\$" "... its value cut at 200 bytes (170 of the x), with ..."

# A complete study: no warning at all.
run pb-pair study.tsv
is "$rc:$(grep -c 'pb-pair.warning' "$T/out"):$(row_count "$T/out")" 0:0:9 "a complete study: no warning"

done_testing

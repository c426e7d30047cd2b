#!/bin/sh
# The machine beside the data: pb-run --env (the machine's state and what
# to do about it), the head's "# machine.KEY:" lines, load= and psi= on
# each "# run:" line and the "# run_end:" line at each run's end, and
# pb-check's env check, on crafted streams whose pressure is fixed (the
# machine's own load is never what a check here depends on).
. "$(dirname "$0")/lib.sh"
G=$D/../gen/synth
cd "$T" || exit 1

# --- pb-run --env -------------------------------------------------------------
run pb-run --env
ran_ok "pb-run --env: exit 0, nothing on stderr, rows"
cp "$T/out" env.tsv
is "$(grep -v '^#' env.tsv | head -n 1 | tr '\t' ' ')" "item status state advice" "--env: the header"
is "$(rows env.tsv | cut -f 1 | tr '\n' ' ')" \
	"cpus governor freq_khz boost smt aslr isolcpus isolation load pressure " \
	"--env: one row per item, in order"
is "$(rows env.tsv | awk -F'\t' 'NF != 4 || ($2 != "ok" && $2 != "warn" && $2 != "unknown") ||
	$3 == "" || $4 !~ /^[A-Z\/].*\.$/' | wc -l | tr -d ' '):$(row_count env.tsv)" "0:10" \
	"--env: every row has a status ok, warn or unknown, a state and a sentence of advice"
like "$(sed -n 1p env.tsv)" '^# pb-run: [0-9.]+ pb-run --env$' "--env: the provenance line first"
# what Linux says, where the file is there to say it
if [ -r /proc/sys/kernel/randomize_va_space ]; then
	is "$(rows env.tsv | awk -F'\t' '$1 == "aslr" { print $3 }')" \
		"$(cat /proc/sys/kernel/randomize_va_space)" "--env: aslr as /proc/sys/kernel/randomize_va_space says"
else skip "no /proc/sys/kernel/randomize_va_space"; fi
if [ -r /sys/devices/system/cpu/smt/control ]; then
	is "$(rows env.tsv | awk -F'\t' '$1 == "smt" { print $3 }')" \
		"$(cat /sys/devices/system/cpu/smt/control)" "--env: smt as /sys/devices/system/cpu/smt/control says"
else skip "no /sys/devices/system/cpu/smt/control"; fi
gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none)
if [ "$(uname -s)" = Linux ]; then
	like "$(rows env.tsv | awk -F'\t' '$1 == "governor" { print $3 }')" "^$gov(,|\$)" \
		"--env: the governor as cpufreq says, or none without it ($gov)"
else skip "not Linux: the governor is unknown"; fi
if [ -r /proc/loadavg ]; then
	load=$(rows env.tsv | awk -F'\t' '$1 == "load" { print $3 }')
	like "$load:$(rows env.tsv | awk -F'\t' '$1 == "load" { print $2 }')" '^[0-9]+(\.[0-9]+)?:(ok|warn)$' \
		"--env: the load, a number, ok or warn"
else skip "no /proc/loadavg"; fi
if [ -r /proc/pressure/cpu ]; then
	like "$(rows env.tsv | awk -F'\t' '$1 == "pressure" { print $3 ":" $2 }')" '^[0-9]+(\.[0-9]+)?:(ok|warn)$' \
		"--env: the CPU pressure, a number, ok or warn"
else skip "no /proc/pressure/cpu"; fi
refuses 2 "^pb-run: --env prints the machine's state and runs no study: give it alone" \
	"--env with a study's options: exit 2, one line" pb-run --env --runs 3 -- true
refuses 2 "^pb-run: --env prints the machine's state and runs no study" \
	"--env after a study's options: exit 2" pb-run --runs 3 --env -- true
run pb-run --help
like "$rc:$(grep -c -- '--env' "$T/out")" '^0:[1-9]' "--help names --env"

# --- a real run: the head's machine, # run: and # run_end: ------------------------
run pb-run --runs 2 --pairs 3 --warmup 1 --quiet -- true true
ran_ok "pb-run, 2 runs: exit 0, rows"
cp "$T/out" raw.tsv
is "$(grep -c '^# machine\.' raw.tsv):$(meta machine.cpus raw.tsv | grep -Ec '^([0-9]+|unknown)$')" "8:1" \
	"the head: eight '# machine.KEY:' lines, machine.cpus a number"
is "$(awk '/^# machine\./ { sub(/:.*/, ""); sub(/^# /, ""); printf "%s ", $0 }' raw.tsv)" \
	"machine.cpus machine.governor machine.freq_khz machine.boost machine.smt machine.aslr machine.isolcpus machine.isolation " \
	"the head: the machine's keys in order"
is "$(grep -c '^# run_end: ' raw.tsv):$(grep -Ec '^# run_end: [12] end=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z( |$)' raw.tsv)" "2:2" \
	"a '# run_end: R end=STAMP' line per run"
is "$(awk -F'\t' '/^# run: / { r = $0; sub(/^# run: /, "", r); sub(/ .*/, "", r) } /^# run_end: / { e = $0; sub(/^# run_end: /, "", e); sub(/ .*/, "", e); print r ":" e; n++ }
	!/^#/ && h++ && $1 != r { bad++ } END { print bad + 0 }' raw.tsv | tr '\n' ' ')" "1:1 2:2 0 " \
	"each run's '# run_end:' after its rows, before the next run"
if [ -r /proc/loadavg ] && [ -r /proc/pressure/cpu ]; then
	is "$(grep -Ec '^# run: [12] .* load=[0-9.]+ psi=[0-9.]+ host=' raw.tsv)" 2 \
		"# run: load= and psi= numbers, before host="
	is "$(grep -Ec '^# run_end: [12] end=[^ ]+ load=[0-9.]+ psi=[0-9.]+ psi_run=[0-9.]+$' raw.tsv)" 2 \
		"# run_end: load=, psi= and psi_run= numbers"
	pr=$(sed -n 's/^# run_end: 1 .* psi_run=\([^ ]*\)$/\1/p' raw.tsv)
	if nums "$pr" && awk -v p="$pr" 'BEGIN { exit !(p >= 0 && p <= 101) }'; then
		ok "psi_run a share in %: 0 to 100 ($pr)"
	else not_ok "psi_run a share in %: 0 to 100"; diag "got '$pr'"; fi
else
	skip "no /proc/loadavg or /proc/pressure/cpu"; skip "no /proc/pressure/cpu"; skip "no psi"
fi
# the pairs of such a stream are what they were: pb-pair, pb-check read it
run pb-pair raw.tsv
ran_ok "pb-pair of a stream with # run_end: exit 0, rows"
is "$(row_count "$T/out"):$(grep -c '^# run_end: ' "$T/out")" "6:2" "  its 6 pairs, the # run_end: lines passed on"
run pb-pair --by-run raw.tsv
ran_ok "pb-pair --by-run of it: exit 0, rows"

# --- pb-check's env on crafted streams ------------------------------------------
# raw PSI [GOVERNOR]: synth's 10 runs, each run's "# run_end:" with
# psi_run PSI (none when PSI is -), the head's governor; pairs: pb-pair'd
raw() {
	$G --seed 3 --runs 10 --pairs 40 | awk -v p="$1" -v g="${2-}" '
		g != "" && /^# study: / { print "# machine.governor: " g }
		/^# run: / && r { end() }
		/^# run: / { r = $3 }
		{ print }
		END { end() }
		function end() { if (p != "-") printf "# run_end: %s end=2026-12-01T00:00:0%s.500Z load=0.1 psi=%s psi_run=%s\n", r, r % 10, p, p }'
}
pairs() { raw "$@" | pb-pair 2>/dev/null; }
env_row() { awk -F'\t' '!/^#/ && $1 == "env" { print $2 ":" $3 }' "$1"; }
pairs 0 performance >p0.tsv
run pb-check p0.tsv
ran_ok "pb-check, psi_run 0 and governor performance: exit 0, rows"
is "$(env_row "$T/out")" "ok:0" "  env ok, value 0"
lacks "$T/out" '^# pb-check.warning: .*(pressure|governor)' "  no env warning"
pairs 20 >p20.tsv
run pb-check p20.tsv
ran_ok "pb-check, psi_run 20: exit 0, rows"
is "$(env_row "$T/out")" "warn:20" "  env warns, value 20 (the median run's)"
like "$(grep '^# pb-check.warning: The runs ran under CPU pressure' "$T/out")" \
	'a task waiting for a CPU 20% of the median run.s time .*10% or more warns' \
	"  one warning line: how much, and the threshold"
is "$(grep -c '^# pb-check.warning:' "$T/out")" 1 "  the only warning of synth's clean study"
run pb-check --pressure 25 p20.tsv
ran_ok "pb-check --pressure 25: exit 0, rows"
is "$(env_row "$T/out")" "ok:20" "  psi_run 20 below 25: ok"
like "$(cat "$T/out")" '^# pb-check.env: .*warns at a median of 25% or more' "  the method says 25%"
run pb-check --pressure 20 p20.tsv
is "$(env_row "$T/out")" "warn:20" "--pressure 20: psi_run 20 warns (20 or more)"
run pb-check --pressure 101 p20.tsv
is "$(env_row "$T/out")" "ok:20" "--pressure 101: the pressure part off"
run pb-check --strict p20.tsv
is "$rc:$(env_row "$T/out")" "3:warn:20" "--strict: exit 3 on the env warning"
pairs - ondemand >gov.tsv
run pb-check gov.tsv
is "$(env_row "$T/out")" "warn:" "a scaling governor, no pressure recorded: warns, no value"
like "$(grep '^# pb-check.warning:' "$T/out")" 'governor ondemand changes the clock .* set it to performance' \
	"  the warning names the governor and what to set"
pairs 30 powersave >both.tsv
run pb-check both.tsv
is "$(env_row "$T/out"):$(grep -c '^# pb-check.warning:' "$T/out")" "warn:30:1" "pressure and a scaling governor: one warning"
like "$(grep '^# pb-check.warning:' "$T/out")" 'CPU pressure.*and with the scaling governor powersave' "  naming both"
pairs 50 none >none.tsv
run pb-check --pressure 101 none.tsv
like "$(grep '^env	' "$T/out")" '^env	ok	50			%	.*no governor scales the clock' "governor none: no scaling, ok"
pairs - >old.tsv
run pb-check old.tsv
ran_ok "a stream without # run_end: or # machine.governor: exit 0, rows"
is "$(env_row "$T/out")" "n/a:" "  env n/a, no value"
# psi_run of each run: the median of 0, 0, ..., 90 is 0
$G --seed 3 --runs 10 --pairs 40 | awk '/^# run: / && r { printf "# run_end: %s end=x psi_run=%s\n", r, r == 1 ? 90 : 1 } /^# run: / { r = $3 } { print }
	END { printf "# run_end: %s end=x psi_run=1\n", r }' | pb-pair 2>/dev/null >one.tsv
run pb-check one.tsv
is "$(env_row "$T/out")" "ok:1" "one run at 90 among nine at 1: the median, 1, is ok"
# Lines that are not one reading of one run of the data do not count: a
# run's second line (cat of two files), runs the data lacks, run numbers
# that are not, and shares outside 0 to 100. The 10 runs at 20 stay 20.
raw 20 | awk '{ print } /^# run_end: 3 / { print; print "# run_end: 3 end=x psi_run=99"
	for (r = 11; r <= 30; r++) print "# run_end: " r " end=x psi_run=99"
	print "# run_end: -1 end=x psi_run=99"; print "# run_end: x end=x psi_run=99"
	print "# run_end: 4 end=x psi_run=1e308"; print "# run_end: 4 end=x psi_run=-5" }' |
	pb-pair 2>/dev/null >odd.tsv
run pb-check odd.tsv
is "$(grep -c '^# run_end: ' odd.tsv):$(env_row "$T/out")" "36:warn:20" \
	"36 run_end lines, 10 of them the data's runs' first: the median 20"
like "$(grep '^# pb-check.warning: The runs ran' "$T/out")" ', of 10 runs;' "  of 10 runs, not 36"
raw 30 | awk '/^# run_end: [1-6] / { sub(/psi_run=30/, "psi_run=150") } { print }' | pb-pair 2>/dev/null >over.tsv
run pb-check over.tsv
is "$(env_row "$T/out")" "warn:30" "psi_run 150 in six runs (not a share): the other four, 30"
refuses 2 "^pb-check: --pressure wants a percentage above 0" "--pressure 0: exit 2" pb-check --pressure 0 p0.tsv
refuses 2 "^pb-check: --pressure" "--pressure x: exit 2" pb-check --pressure x p0.tsv

# --- pb-compare shows it ----------------------------------------------------------
mkdir st && raw 20 >st/raw.tsv
run pb-compare --analyse st --no-pictures
exited_ok "pb-compare --analyse of a study under pressure: exit 0, a summary"
is "$(grep -c '^warning: The runs ran under CPU pressure, a task waiting for a CPU 20% of the median run.s time (more: pb-compare --from st -v)$' "$T/out")" 1 \
	"  its warning line: the first clause of the env note"
is "$(awk -F'\t' '$1 == "env" { print $2 }' st/check.tsv)" warn "  check.tsv: env warn"
mkdir st0 && raw 0 >st0/raw.tsv
run pb-compare --analyse st0 --no-pictures
exited_ok "pb-compare --analyse of a study at psi_run 0: exit 0, a summary"
is "$(grep -c 'CPU pressure' "$T/out"):$(awk -F'\t' '$1 == "env" { print $2 }' st0/check.tsv)" "0:ok" \
	"  no pressure warning; check.tsv: env ok"
done_testing

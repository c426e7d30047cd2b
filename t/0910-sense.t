#!/bin/sh
# pb-sense: the table's shape and invariants, a delay every run sees and
# the summary line against the kept raw streams, the raw streams, options
# passed through to pb-run, seeds, errors. Small studies only: timings
# are never compared with a bound that a loaded machine could break.
. "$(dirname "$0")/lib.sh"
PATH=$(cd "$D/../../examples/workload" && pwd):$PATH
V=$(sed -n 's/^VERSION = //p' "$D/../../config.mk")
HEAD='delay_ns|runs|seen|est|lo|hi|cross_right|combos|spin_ns|covered|resolved|ratio|ratio_lo|ratio_hi|t_resolved|ratio_spin|t_covered'
WORKER='pb-workload --worker --us 50'

# --- A worker study at 0, 20 ms and 10 ms ------------------------------
# 10 and 20 ms on a 50 us workload: every pair's d is about 10 or 20 ms,
# so every run's interval lies above 0 unless the machine is loaded (3
# of a run's 10 pairs need A slowed by more than the delay: on two cores
# at a load of 12, d at 10 ms ranged from -90 to +85 ms). What this study
# checks holds whatever the timing; which delays every run sees is
# checked on fixed raw streams below.
run pb-sense --runs 3 --pairs 10 --warmup 2 --resamples 200 --seed 5 \
	--raw "$T/raw" --delays 0,20ms,10ms --worker "$WORKER"
cp "$T/out" "$T/main.tsv"
is "$rc:$(row_count "$T/main.tsv")" 0:3 "worker study at 0, 20ms and 10ms: exit 0"
is "$(grep -v '^#' "$T/main.tsv" | head -n 1 | tr '\t' '|')" "$HEAD" "header: $HEAD"
is "$(rows "$T/main.tsv" | cut -f1 | tr '\n' ' ')" "0 20000000 10000000 " "one row per delay, in the order given, delay_ns in ns"
is "$(rows "$T/main.tsv" | cut -f2,8 | sort -u | tr '\t\n' '| ')" "3|6 " "runs = --runs (3) and combos = 3 * 2 on every row"
# invariants of every row: 0 <= seen <= runs, lo <= est <= hi,
# 0 <= cross_right <= combos, ratio_lo <= ratio <= ratio_hi, the yes/no
# columns 0 or 1 and each what its interval says, a realized delay at
# least the delay asked for (a spin cannot end early), all fields numbers
rows "$T/main.tsv" | awk -F'\t' '
	NF != 17 { print "fields", NF; bad = 1 }
	{ for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) { print "not a number:", $i; bad = 1 }
	  if (!($3 >= 0 && $3 <= $2)) { print "seen", $3; bad = 1 }
	  if (!($5 <= $4 && $4 <= $6)) { print "lo est hi", $5, $4, $6; bad = 1 }
	  if (!($7 >= 0 && $7 <= $8)) { print "cross", $7; bad = 1 }
	  if (!($13 <= $12 && $12 <= $14)) { print "ratio_lo ratio ratio_hi", $13, $12, $14; bad = 1 }
	  if ($9 < $1) { print "spin_ns below the delay", $9, $1; bad = 1 }
	  if ($10 != ($5 <= $9 && $9 <= $6)) { print "covered", $10, "for", $5, $9, $6; bad = 1 }
	  if ($11 != ($1 == 0 ? $5 > 0 || $6 < 0 : $3 == $2 && $5 > 0)) { print "resolved", $11; bad = 1 }
	  if ($15 != ($1 == 0 ? $13 > 1 || $14 < 1 : $14 < 1)) { print "t_resolved", $15; bad = 1 }
	  if ($17 != ($13 <= $16 && $16 <= $14)) { print "t_covered", $17, "for", $13, $16, $14; bad = 1 } }
	END { if (NR != 3) { print "rows", NR; bad = 1 }; exit bad }' >"$T/why"
if [ $? -eq 0 ]; then ok "every row: the invariants of its intervals, counts and yes/no columns"
else not_ok "every row: the invariants of its intervals, counts and yes/no columns"; diag "$(cat "$T/why")"; fi
# The summary against the table and the raw A times (arm A has no delay:
# the workload's median over the measured pairs of all three studies), as
# pb-sense words it: for the bootstrap analysis the smallest delay from
# which on every larger one is resolved (every run saw it, lo > 0): 10ms
# when both are, 20ms when 10ms is not, none when 20ms is not.
r10=$(col resolved 3 "$T/main.tsv") r20=$(col resolved 2 "$T/main.tsv")
want=$(cat "$T/raw/raw-0.tsv" "$T/raw/raw-20000000.tsv" "$T/raw/raw-10000000.tsv" |
	awk -F'\t' '!/^#/ && $3 == "measure" && $4 == "A" && $8 == 0 { print $7 }' | sort -n |
	awk -v r10="$r10" -v r20="$r20" '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		if (r20 != 1) { printf "resolves no delay tried (up to 20ms, %.2f%%)", 2e9 / m; exit }
		d = r10 == 1 ? 1e7 : 2e7
		printf "resolves %gms (%.2f%% of the workload'"'"'s median %s)%s", d / 1e6, 100 * d / m,
			(m >= 1e6 ? sprintf("%gms", m / 1e6) : sprintf("%gus", m / 1e3)), r10 == 1 ? ", the smallest delay tried" : ", not 10ms" }')
fp=$(col seen 1 "$T/main.tsv")
# Rscript -e 'sprintf("%.2g", pbinom(0:2, 3, 0.05, lower.tail = FALSE))':
# "0.14" "0.0073" "0.00013", P(X >= k) for k = 1, 2, 3 of 3 runs
is "$(grep '^# sense:' "$T/main.tsv" | sed 's/; the t analysis.*; A\/A:/; A\/A:/')" \
	"# sense: the bootstrap analysis $want; A/A: $fp of 3 runs saw an effect at delay 0, 0.15 expected by chance at level 0.95 (binomial p = $(awk -v k="$fp" 'BEGIN { print k == 0 ? 1 : k == 1 ? 0.14 : k == 2 ? 0.0073 : 0.00013 }'))" \
	"summary: the smallest delay the bootstrap analysis resolved, its percentage of the raw A median, the false positives of delay 0 as a rate"
is "$(tail -n 1 "$T/main.tsv" | cut -c1-9)" "# sense: " "the summary is the last line"
is "$(grep -c '^# sense:' "$T/main.tsv")" 1 "one summary line"
# metadata: the provenance line, the column notes, pb-run's head metadata
# without the lines that differ between studies
like "$(grep '^# pb-sense:' "$T/main.tsv")" \
	"^# pb-sense: $V pb-sense --delays 0,20ms,10ms --raw $T/raw --seed 5 --resamples 200 --runs 3 --pairs 10 --warmup 2 --worker 'pb-workload --worker --us 50'\$" \
	"provenance: '# pb-sense: VERSION ARGV', the worker quoted"
is "$(grep -c '^# pb-sense\.\(delays\|level\|stat\|seen\|est\|cross_right\|spin_ns\|ratio\|ratio_spin\): ' "$T/main.tsv")" 9 \
	"metadata says what the delays, level, statistic and every column are"
is "$(grep -c '^# \(pb-run\|delay_ns\|seed\|start\|run\):' "$T/main.tsv"):$(row_count "$T/main.tsv")" 0:3 \
	"no per-study metadata (pb-run argv, delay, seed, start, run stamps)"
is "$(grep '^# \(mode\|runs\|pairs\|warmup\):' "$T/main.tsv" | tr '\n' '|')" \
	"# mode: worker|# runs: 3|# pairs: 10|# warmup: 2|" "pb-run's head metadata: mode, runs, pairs, warmup"

# --- A delay every run sees, on fixed raw streams ---------------------------
# Which delays every run sees is pb-sense's counting, checked where the
# timing is fixed: pb-sense beside t/gold/stub-pb-run, which writes
# raw-small.tsv (2 runs of 3 pairs, B 50 to 200 ns faster than A in every
# pair) with the delay added to arm B's times.
mkdir "$T/stub"
ln -s "$(command -v pb-sense)" "$T/stub/pb-sense"
cp "$D/../gold/stub-pb-run" "$T/stub/pb-run"
fixed() { PB_SHARE=$(cd "$D/../../share/pb" && pwd) PB_GOLD_RAW=$D/raw-small.tsv run "$T/stub/pb-sense" "$@"; }
fixed --runs 2 --pairs 3 --warmup 1 --resamples 200 --seed 5 --delays 0,20ms,10ms -- ./new
is "$rc:$(col seen 2 "$T/out") $(col seen 3 "$T/out")" "0:2 2" "20ms and 10ms are seen by every run"
is "$(col cross_right 2 "$T/out") $(col cross_right 3 "$T/out")" "2 2" "20ms, 10ms: every cross-run comparison has the right sign"
like "$(col lo 2 "$T/out") $(col lo 3 "$T/out")" '^[1-9][0-9]{6,}(\.[0-9]+)? [1-9][0-9]{6,}' "20ms, 10ms: the run-block intervals lie above 0 (in the millions of ns)"
# the measured A times 1100 1200 1300 2000 2200 2300: median 1650 ns, and
# 10 ms is 1e7 / 1650 = 6060.6061 times it; B faster: 2 false positives
# Rscript -e "pbinom(1, 2, 0.05, lower.tail = FALSE)": 0.0025
is "$(grep '^# sense:' "$T/out")" \
	"# sense: the bootstrap analysis resolves 10ms (606060.61% of the workload's median 1.65us), the smallest delay tried; the t analysis (per-run medians) resolves 10ms (606060.61%), the smallest delay tried; A/A: 2 of 2 runs saw an effect at delay 0, 0.1 expected by chance at level 0.95 (binomial p = 0.0025)" \
	"summary: 10ms for both analyses, its percentage of the raw A median, the false positives of delay 0 as a rate"

# --- --raw: one valid raw stream per delay -------------------------------
is "$(cd "$T/raw" && ls | tr '\n' ' ')" "raw-0.tsv raw-10000000.tsv raw-20000000.tsv " "--raw keeps raw-<delay_ns>.tsv for each delay"
for f in 0 20000000 10000000; do
	run pb-pair "$T/raw/raw-$f.tsv"
	is "$rc $(wc -l <"$T/err" | tr -d ' ') $(row_count "$T/out")" "0 0 30" "raw-$f.tsv is a valid raw stream (pb-pair reads it)"
	is "$(sed -n 's/^# delay_ns: //p' "$T/raw/raw-$f.tsv") $(grep -c '^# run: ' "$T/raw/raw-$f.tsv")" "$f 3" \
		"raw-$f.tsv: its delay in the metadata, 3 run stamps"
	# --runs 3 --pairs 10 --warmup 2: runs 1..3, 12 pairs each, 2 rows a pair;
	# the delay on B only
	is "$(rows "$T/raw/raw-$f.tsv" | awk -F'\t' '{ n[$1 " " $3]++; if ($4 == "A" ? $6 != 0 : $6 != d) bad++ }
		END { for (k in n) print k, n[k]; print "bad", bad + 0 }' d="$f" | sort | tr '\n' '|')" \
		"1 measure 20|1 warmup 4|2 measure 20|2 warmup 4|3 measure 20|3 warmup 4|bad 0|" \
		"raw-$f.tsv: --runs 3 --pairs 10 --warmup 2 passed through; delay_ns $f on B, 0 on A"
done

# --- Seeds, command mode, order of delays -------------------------------
# Command mode (true as the work); delays in the order given, not sorted;
# 1.5us is 1500 ns.
sense_small() {   # SEED DIR
	pb-sense --runs 2 --pairs 8 --warmup 1 --resamples 50 --seed "$1" --raw "$2" \
		--delays 1.5us,0,10us -- true
}
run sense_small 42 "$T/s1"
is "$rc $(rows "$T/out" | cut -f1 | tr '\n' ' ')" "0 1500 0 10000 " "command mode: rows in the order given, 1.5us = 1500 ns"
is "$(rows "$T/out" | cut -f2,8 | sort -u | tr '\t\n' '| ')" "2|2 " "--runs 2: runs 2, combos 2"
is "$(grep '^# mode:' "$T/out")" "# mode: command" "command mode reaches pb-run"
like "$(grep '^# sense:' "$T/out")" '; A/A: [0-2] of 2 runs saw an effect at delay 0, 0.1 expected by chance at level 0.95 \(binomial p = (1|0.098|0.0025)\)$' \
	"summary counts false positives at 0 (a 0 in the middle of the list)"
# arm orders: run pair phase arm pos of every row (no rows: col's "<col:
# no row>", which is refuses)
orders() {
	[ -n "$(rows "$1" 2>/dev/null | head -n 1)" ] || { echo "<col: no row in $1>"; return; }
	rows "$1" | cut -f1-5 | cksum
}
run sense_small 42 "$T/s2"
is "$(cat "$T/s1/raw-0.tsv" "$T/s2/raw-10000.tsv" 2>/dev/null | rows | grep -c '^[12]	')" 72 \
	"the raw streams compared next hold 2 runs x 9 pairs x 2 arms each"
for f in 0 1500 10000; do
	is "$(orders "$T/s2/raw-$f.tsv")" "$(orders "$T/s1/raw-$f.tsv")" "--seed 42 twice: the same arm orders at delay $f"
done
is "$(sed -n 's/^# seed: //p' "$T/s1/raw-0.tsv")" 42 "--seed reaches pb-run (its '# seed:' line)"
is "$(orders "$T/s1/raw-1500.tsv")" "$(orders "$T/s1/raw-0.tsv")" "one seed: every delay's study has the same orders"
run sense_small 43 "$T/s3"
# 2 runs x 9 pairs in random order: the same by chance with p = 2^-18
differ "$(orders "$T/s3/raw-0.tsv")" "$(orders "$T/s1/raw-0.tsv")" "--seed 43: other arm orders"

# --- What 'seen' counts -----------------------------------------------------
# Not A/A on purpose: B is faster, so every run sees B faster. At delay 0
# a run's interval excluding 0 either way is a false positive; above 0
# only an interval above 0 counts as seen. Measured (B of no work, A of
# 5 ms), a loaded machine slowed B past A pair after pair, so the raw
# streams are fixed, as above; 10ns leaves B faster in every pair.
fixed --runs 2 --pairs 3 --warmup 1 --resamples 50 --seed 3 --delays 0,10ns -- ./new
is "$(rows "$T/out" | cut -f1-3 | tr '\t\n' '| ')" "0|2|2 10|2|0 " "B faster: seen at 0 counts it (either way), at 10ns it does not"
is "$(grep '^# sense:' "$T/out" | cut -d';' -f1,3)" \
	"# sense: the bootstrap analysis resolves no delay tried (up to 10ns, 0.61%); A/A: 2 of 2 runs saw an effect at delay 0, 0.1 expected by chance at level 0.95 (binomial p = 0.0025)" \
	"summary: no delay resolved; the false positives of delay 0"

# --- Progress --------------------------------------------------------------
# One line per study on a terminal (util-linux script gives one), none
# with --quiet or when stderr is not a terminal.
is "$rc:$(grep -c 'pb-sense: delay' "$T/err"):$(row_count "$T/out")" 0:0:2 "no progress when stderr is not a terminal"
if script -qc true /dev/null >/dev/null 2>&1; then
	# its table in $T/tty.out
	tty_sense() { script -qc "pb-sense $* --runs 2 --pairs 2 --warmup 0 --resamples 20 --delays 0,1us -- true >'$T/tty.out'" /dev/null | tr -d '\r'; }
	is "$(tty_sense | grep -o 'pb-sense: delay [^)]*)' | tr '\n' '|')" \
		"pb-sense: delay 0 (1/2)|pb-sense: delay 1us (2/2)|" "progress on a terminal: which delay, how far"
	is "$(tty_sense --quiet | grep -c 'pb-sense: delay'):$(row_count "$T/tty.out")" 0:2 "--quiet: no progress on a terminal"
else
	skip "no util-linux script for a terminal"
	skip "no util-linux script for a terminal"
fi

# --- Errors ---------------------------------------------------------------
fails 2 '^pb-sense: --delays LIST is required' "no --delays: exit 2" pb-sense --runs 2 -- true
# nothing runs: the command would leave a file, and --raw is not created
run pb-sense --delays 0,10xs --raw "$T/never" --runs 2 --pairs 2 -- "touch $T/ran"
refused 2 "^pb-sense: --delays: bad duration '10xs'" "a bad duration: exit 2, nothing ran, no --raw directory made" \
	"$(ls "$T" | grep -c '^\(ran\|never\)$')" 0
fails 2 '^pb-sense: --delays: bad duration' "a negative duration: exit 2" pb-sense --delays=-5us -- true
fails 2 '^pb-sense: --delays: empty list' "--delays ',': exit 2" pb-sense --delays , -- true
fails 2 '^pb-sense: pb-sense sets the delay itself' "--delay: exit 2" pb-sense --delays 0 --delay 5us -- true
fails 2 '^pb-sense: pb-sense sets the delay itself' "--delay-arm=A: exit 2" pb-sense --delays 0 --delay-arm=A -- true
fails 2 '^pb-sense: pb-sense runs A/A: give one command' "two commands: exit 2" pb-sense --delays 0 -- true false
fails 2 '^pb-sense: --resamples wants a whole number' "--resamples 0: exit 2" pb-sense --delays 0 --resamples 0 -- true
fails 2 "^pb-sense: option '--delays' needs a value" "--delays without a value: exit 2" pb-sense --delays
# Abbreviated options resolve as getopt_long resolves them (pb(7)), over
# pb-sense's options and pb-run's together, so the refusals hold for them.
fails 2 '^pb-sense: pb-sense sets the delay itself' "--delay-ar A (abbreviated --delay-arm): exit 2" \
	pb-sense --delays 0 --delay-ar A -- true
fails 2 "^pb-sense: option '--de' is ambiguous \(--delays, --delay, --delay-arm\)" "--de: ambiguous, exit 2" \
	pb-sense --de 0 -- true
fails 2 '^pb-sense: pb-sense runs A/A: give --sql-a only' "--sql-b-f (abbreviated): exit 2" \
	pb-sense --delays 0 --sql-b-f x.sql --pg ''
fails 2 "^pb-sense: --until belongs to pb-run's early stops \(--until, --max-time\); pb-sense runs every delay for all of --runs" \
	"--until: a study of fixed size, exit 2" pb-sense --delays 0 --until parity -- true
fails 2 "^pb-sense: --threshold belongs to pb-run's early stops" "--thr=1.1 (abbreviated --threshold): exit 2" \
	pb-sense --delays 0 --thr=1.1 -- true
fails 2 "^pb-sense: --min-runs belongs to pb-run's" "--min-runs: exit 2" pb-sense --delays 0 --min-runs 3 -- true
fails 2 "^pb-sense: --seq-g belongs to pb-run's" "--seq-g: exit 2" pb-sense --delays 0 --seq-g 10 -- true
fails 2 "^pb-sense: pb-sense runs A/A, two arms of one command: --arms does not apply" "--arms: exit 2" \
	pb-sense --delays 0 --arms 3 --worker true
fails 2 "^pb-sense: unknown option '--bogus' \(see pb-sense --help\)$" "an unknown option: pb-sense says so, exit 2" \
	pb-sense --delays 0 --bogus -- true
# (--resa: --res is also pb-run's --resources, which passes through)
run pb-sense --delays 0,1us --resa 20 --see 7 --lev 0.9 --ru 2 --pa 3 --wa 0 --ra "$T/abbr" -- true
is "$rc:$(row_count "$T/out")" 0:2 "abbreviated options (--resa, --see, --lev, --ru, --pa, --wa, --ra): exit 0"
is "$(grep '^# pb-sense: ' "$T/out" | cut -d' ' -f4-20)" \
	"pb-sense --delays 0,1us --raw $T/abbr --seed 7 --resamples 20 --level 0.9 --runs 2 --pairs 3 --warmup 0" \
	"abbreviations are written out in full in the provenance"
like "$(grep '^# pb-sense.seen: ' "$T/out")" '\(20 resamples, level 0\.9\)' "--resa 20 --lev 0.9 reach pb-sense's analysis"
is "$(grep -h '^# seed: ' "$T/abbr"/raw-*.tsv | sort -u)" "# seed: 7" "--see 7 reaches pb-run as its seed"
fails 2 "^pb-sense: .*--res.*ambiguous|^pb-sense: .*--res.*(--resamples|--resources)" \
	"--res: ambiguous, pb-sense's --resamples or pb-run's --resources" \
	pb-sense --delays 0 --res 20 -- true
# A pb-run option's value passes through as it is, even when it looks
# like an option.
run pb-sense --delays 0 --runs 2 --pairs 2 --warmup 0 --setup --bogus -- true
like "$(cat "$T/err")" 'setup' "a pb-run option's value that starts with -- is its value, not an option"
# pb-sense takes pb-run's options from pb-run --list-options: pb-run's
# table (lib/runopt.c), in its order, "=KIND" on those that take a value
# (the capitals their value starts with), then --help, --version and
# --list-options; between them pb-run's own --env, which is not the
# table's (pb-compare and pb-sense pass that table on to a study)
# (the table read from lib/runopt.c must be the whole table, or the two
# could agree on a part of it: one assertion, so it never holds of a stub)
table=$(sed -n -e 's/^	{ "\([a-z-]*\)", RUNOPT_[A-Z_]*, [^,]*, NULL,.*/\1 NULL/p' \
	-e 's/^	{ "\([a-z-]*\)", RUNOPT_[A-Z_]*, [^,]*, "\([A-Z]*\).*/\1 "\2/p' "$(dirname "$0")/../lib/runopt.c")
whole=$(printf '%s\n' "$table" | cut -d' ' -f1 | tr '\n' ' ' |
	grep -Ec '^runs pairs .* setup-sql until threshold tolerance min-runs stat level seq-g sequence seq-g-note $')
run pb-run --list-options
is "$rc:$whole:$(cut -d' ' -f1 "$T/out" | tr '\n' ' ')" \
	"0:1:$(printf '%s\n' "$table" | awk '{ print "--" $1 ($2 == "NULL" ? "" : "=" substr($2, 2)) }' | tr '\n' ' ')--env --help --version --list-options " \
	"pb-run --list-options: its option table (the whole table of lib/runopt.c), =KIND on those that take a value, then --env"

run pb-sense --runs 2 --pairs 2 --warmup 0 --delays 0,5us -- false
is "$rc:$(grep -c '^pb-sense: pb-run failed' "$T/err")" 1:1 "a failing command: exit 1"
like "$(grep -c . "$T/out"):$(cat "$T/err")" '^0:pb-sense: pb-run failed at delay 0 \(status 1\): pb-run: run 1 pair 1 \(measure\) arm [AB]: command exited with status 1 \(its output went to /dev/null; --output inherit shows it\)$' \
	"a failing command: one line, which delay failed and pb-run's reason; nothing on stdout (a failing first study)"
run pb-sense --help
is "$rc $(head -n 1 "$T/out" | cut -d' ' -f1-3)" "0 usage: pb-sense --delays" "--help: usage on stdout, exit 0"
run pb-sense --version
is "$rc $(cat "$T/out")" "0 pb-sense (pb) $V" "--version: exit 0"

# The version is the C tools' (config.mk's VERSION, compiled in): beside
# a pb-boot of another version, pb-sense says that one.
mkdir "$T/ver"
ln -s "$(command -v pb-sense)" "$T/ver/pb-sense"
printf '#!/bin/sh\necho "pb-boot (pb) 9.9.9-test"\n' >"$T/ver/pb-boot"
chmod +x "$T/ver/pb-boot"
run env PB_SHARE="$(cd "$(dirname "$0")/../share/pb" && pwd)" "$T/ver/pb-sense" --version
is "$rc $(cat "$T/out")" "0 pb-sense (pb) 9.9.9-test" "--version: the version of pb-boot beside it, not one of its own"

done_testing

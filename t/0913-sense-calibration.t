#!/bin/sh
# pb-sense's calibration: its two analyses against the tools run by hand
# on the same raw streams (exact), the realized delay and its coverage on
# streams whose answer is known (t/sense-stub), the A/A false positives
# as a binomial rate, --delays auto on a stub with a known threshold of
# visibility, its budget, and pb-tint --sense citing the calibration.
# Timings are never compared with a bound a loaded machine could break.
. "$(dirname "$0")/lib.sh"
PATH=$(cd "$D/../../examples/workload" && pwd):$PATH
SHARE=$(cd "$D/../../share/pb" && pwd)
mkdir "$T/stub"
ln -s "$(command -v pb-sense)" "$T/stub/pb-sense"
cp "$D/../sense-stub" "$T/stub/pb-run"
stub() { PB_SHARE=$SHARE run "$T/stub/pb-sense" --runs 4 --pairs 20 --warmup 2 --resamples 200 "$@" -- stub; }
# field COL FILE: the first row's COL of a stream the tools wrote
field() { col "$1" 1 "$2"; }

# --- The two analyses, against the tools by hand ---------------------------
# A real worker study; every number of a row is what the tools give on
# the kept raw stream, to the last digit.
run pb-sense --runs 3 --pairs 30 --warmup 3 --resamples 300 --seed 9 --raw "$T/raw" \
	--delays 0,2us --no-shell --worker 'pb-workload --worker --us 100'
cp "$T/out" "$T/worker.tsv"
is "$rc:$(row_count "$T/worker.tsv")" 0:2 "a worker study at 0 and 2us: exit 0, two rows"
# by_hand DELAY_NS STAT ROW FILE: the row's columns against the tools
by_hand() {
	r=$T/raw/raw-$1.tsv
	pb-pair "$r" >"$T/h-pairs.tsv"
	pb-boot --block run --resamples 300 --level 0.95 --seed 9 "$T/h-pairs.tsv" >"$T/h-block.tsv"
	pb-boot --group run --resamples 300 --level 0.95 --seed 9 "$T/h-pairs.tsv" >"$T/h-runs.tsv"
	pb-boot --quartiles --column spin "$T/h-pairs.tsv" >"$T/h-spin.tsv"
	pb-cross --expect + "$T/h-pairs.tsv" >"$T/h-cross.tsv"
	if [ "$2" = lr-median ]; then
		pb-pair --by-run --stat "$2" "$r" | pb-tint >"$T/h-tint.tsv"
	else
		pb-pair --by-run --stat "$2" "$r" | pb-logratio | pb-tint >"$T/h-tint.tsv"
	fi
	seen=$(awk -F'\t' -v d="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == "sign") k = i; h = 1; next }
		{ n += d == 0 ? $k != "0" : $k == "+" } END { print n + 0 }' "$T/h-runs.tsv")
	is "$(col est "$3" "$4") $(col lo "$3" "$4") $(col hi "$3" "$4")" \
		"$(field est "$T/h-block.tsv") $(field lo "$T/h-block.tsv") $(field hi "$T/h-block.tsv")" \
		"delay $1 ($2): est lo hi are pb-pair | pb-boot --block run's"
	is "$(col seen "$3" "$4") $(col spin_ns "$3" "$4")" "$seen $(field median "$T/h-spin.tsv")" \
		"delay $1 ($2): seen is pb-boot --group run's count, spin_ns pb-boot --quartiles --column spin's median"
	is "$(col cross_right "$3" "$4") $(col combos "$3" "$4")" \
		"$(field right "$T/h-cross.tsv") $(field combos "$T/h-cross.tsv")" \
		"delay $1 ($2): cross_right and combos are pb-cross's"
	is "$(col ratio "$3" "$4") $(col ratio_lo "$3" "$4") $(col ratio_hi "$3" "$4")" \
		"$(field ratio "$T/h-tint.tsv") $(field ratio_lo "$T/h-tint.tsv") $(field ratio_hi "$T/h-tint.tsv")" \
		"delay $1 ($2): ratio ratio_lo ratio_hi are pb-pair --by-run --stat $2 | pb-logratio | pb-tint's"
}
by_hand 0 median 1 "$T/worker.tsv"
by_hand 2000 median 2 "$T/worker.tsv"
is "$(col spin_ns 1 "$T/worker.tsv") $(col covered 1 "$T/worker.tsv") $(col ratio_spin 1 "$T/worker.tsv")" "0 $(
	rows "$T/worker.tsv" | awk -F'\t' 'NR == 1 { print ($5 <= 0 && 0 <= $6) }') 1" \
	"delay 0: no realized delay (spin_ns 0, ratio_spin 1), covered when the interval holds 0"
like "$(col spin_ns 2 "$T/worker.tsv")" '^[0-9]+(\.5)?$' "delay 2us: spin_ns is a median of whole ns"
# ratio_spin by hand: a/(a + spin) per run, its geometric mean through the
# same tools (pb-logratio, pb-tint)
pb-pair --by-run "$T/raw/raw-2000.tsv" | awk -F'\t' -v OFS='\t' '/^#/ { next }
	!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; print "a", "b"; next }
	{ printf "%s\t%.17g\n", $c["a"], $c["a"] + $c["spin"] }' | pb-logratio | pb-tint >"$T/h-rspin.tsv" 2>/dev/null
is "$(col ratio_spin 2 "$T/worker.tsv")" "$(field ratio "$T/h-rspin.tsv")" \
	"delay 2us: ratio_spin is the geometric mean over runs of a/(a + spin)"
# the same raw streams through pb-sense again, with another statistic
for st in mean lr-median; do
	mkdir -p "$T/again-$st"
	cat >"$T/again-$st/pb-run" <<EOF
#!/bin/sh
case \$1 in --list-options) exec '$(command -v pb-run)' --list-options ;; esac
while [ "\$1" != --delay ]; do shift; done
cat '$T/raw/raw-'\$2'.tsv'
EOF
	chmod +x "$T/again-$st/pb-run"
	ln -s "$(command -v pb-sense)" "$T/again-$st/pb-sense"
	run env PB_SHARE="$SHARE" "$T/again-$st/pb-sense" --stat "$st" --resamples 300 --seed 9 --delays 0,2000 -- x
	cp "$T/out" "$T/again-$st.tsv"
	is "$rc:$(row_count "$T/again-$st.tsv")" 0:2 "--stat $st over the kept raw streams: exit 0"
	by_hand 2000 "$st" 2 "$T/again-$st.tsv"
done
like "$(grep '^# pb-sense.ratio: ' "$T/again-mean.tsv")" 'pb-pair --by-run --stat mean \| pb-logratio \| pb-tint --level 0.95: the t interval over the runs of the A/B time ratio of per-run means' \
	"--stat mean: the metadata names the t analysis's pipeline and statistic"
is "$(grep '^# pb-sense.stat: ' "$T/again-lr-median.tsv")" "# pb-sense.stat: lr-median" "--stat lr-median: recorded"

# --- The realized delay and its coverage: known answers ---------------------
# t/sense-stub: every run's median d is what B's time holds (ADD), exactly,
# and the run-block interval is [ADD, ADD]; spin_ns says D + OVER.
# An honest harness whose spin ran 5 us long: the intervals hold the
# realized delay, not the nominal one.
STUB_OVER=5000 stub --delays 0,100us,200us
cp "$T/out" "$T/honest.tsv"
is "$rc $(rows "$T/honest.tsv" | cut -f1,4-6,9,10 | tr '\t\n' ' |')" \
	"0 0 0 0 0 0 1|100000 105000 105000 105000 105000 1|200000 205000 205000 205000 205000 1|" \
	"the spin ran 5us long: spin_ns = delay + 5us, the run-block interval [delay + 5us] covers it"
is "$(rows "$T/honest.tsv" | cut -f16,17 | tr '\t\n' ' |')" \
	"1 1|$(col ratio 2 "$T/honest.tsv") 1|$(col ratio 3 "$T/honest.tsv") 1|" \
	"... ratio_spin is the t analysis's ratio, and t_covered"
# 1e6 + 1000 r us of A, 105 us more of B: the ratio excludes the nominal
# 100 us, whose ratio would be above ratio_hi for every run
is "$(awk -v hi="$(col ratio_hi 2 "$T/honest.tsv")" 'BEGIN { print (1001000 / 1101000 > hi), (1004000 / 1104000 > hi) }')" "1 1" \
	"... the t interval excludes the nominal delay's ratio"
is "$(grep -c '^# pb-sense.warning' "$T/honest.tsv") $(grep '^# pb-sense.coverage: ' "$T/honest.tsv")" \
	"0 # pb-sense.coverage: the run-block interval held the realized delay at 3 of 3 delays, the t interval at 3 of 3; 0.15 misses of 3 are expected by chance at level 0.95" \
	"an honest harness: coverage 3 of 3 for each analysis, no warning"
# A harness whose spin_ns says 5 us more than B's time holds: neither
# interval covers it, at every delay above 0, and that is a warning.
STUB_OVER=5000 STUB_HONEST=0 stub --delays 0,50us,100us,200us,500us
cp "$T/out" "$T/liar.tsv"
is "$rc $(rows "$T/liar.tsv" | cut -f1,9,10,17 | tr '\t\n' ' |')" \
	"0 0 0 1 1|50000 55000 0 0|100000 105000 0 0|200000 205000 0 0|500000 505000 0 0|" \
	"spin_ns 5us above what B's time holds: covered and t_covered 0 at every delay above 0"
# Rscript -e 'sprintf("%.2g", pbinom(3, 5, 0.05, lower.tail = FALSE))': "3e-05"
# (P(X >= 4) = 3.0e-05 for 4 misses in 5)
is "$(grep '^# pb-sense.warning' "$T/liar.tsv")" \
	"# pb-sense.warning: the run-block interval missed the realized delay at 4 of 5 delays, where 0.25 misses are expected by chance at level 0.95 (binomial p = 3e-05): something besides the delay moves d (pb-check on the pairs says what)
# pb-sense.warning: the t interval missed the realized delay at 4 of 5 delays, where 0.25 misses are expected by chance at level 0.95 (binomial p = 3e-05): something besides the delay moves the per-run ratios (pb-check on the pairs says what)" \
	"4 misses of 5: one warning line per analysis, with the binomial p"
# A pb-run without spin_ns (t/gold/stub-pb-run's stream, its spin_ns cut)
mkdir "$T/old"
ln -s "$(command -v pb-sense)" "$T/old/pb-sense"
cat >"$T/old/pb-run" <<EOF
#!/bin/sh
case \$1 in --list-options) exec '$(command -v pb-run)' --list-options ;; esac
grep -v '^# pb-run:' '$D/raw-small.tsv'
EOF
chmod +x "$T/old/pb-run"
run env PB_SHARE="$SHARE" "$T/old/pb-sense" --resamples 20 --delays 0 -- x
is "$rc $(rows "$T/out" | cut -f9,10,16,17 | tr '\t' '|')" "0 |||" \
	"a raw stream without spin_ns: the realized columns are empty"
like "$(grep '^# pb-sense.spin_ns: ' "$T/out")" 'recorded no spin_ns' "... and the metadata says why"

# --- A/A false positives as a rate ------------------------------------------
# Rscript -e 'sprintf("%.2g", pbinom(2:3, 10, 0.05, lower.tail = FALSE))':
# "0.012" "0.001": 3 of 10 runs is no warning at 0.01, 4 of 10 is one
PB_SHARE=$SHARE STUB_AA_RUNS=3 run "$T/stub/pb-sense" --runs 10 --pairs 20 --warmup 2 --resamples 200 --delays 0,100us -- stub
is "$rc $(col seen 1 "$T/out") $(grep -c '^# pb-sense.warning' "$T/out")" "0 3 0" "3 of 10 A/A runs see an effect: no warning"
is "$(grep '^# pb-sense.false_positives: ' "$T/out")" \
	"# pb-sense.false_positives: 3 of 10 runs saw an effect at delay 0; 0.5 expected by chance at level 0.95; binomial P(>= 3) = 0.012" \
	"... the count, what chance gives, and the binomial tail"
PB_SHARE=$SHARE STUB_AA_RUNS=4 run "$T/stub/pb-sense" --runs 10 --pairs 20 --warmup 2 --resamples 200 --delays 0,100us -- stub
cp "$T/out" "$T/aa4.tsv"
is "$rc $(col seen 1 "$T/aa4.tsv")" "0 4" "4 of 10 A/A runs see an effect"
is "$(grep '^# pb-sense.warning' "$T/aa4.tsv")" \
	"# pb-sense.warning: at delay 0, 4 of 10 runs saw an effect where 0.5 are expected by chance at level 0.95 (binomial p = 0.001): something besides the delay differs between the arms, such as the order or the position in a pair (pb-check on the pairs of delay 0 says which)" \
	"... a warning line, not a footnote"
like "$(grep '^# sense: ' "$T/aa4.tsv")" '; A/A: 4 of 10 runs saw an effect at delay 0, 0.5 expected by chance at level 0.95 \(binomial p = 0.001\)$' \
	"... and the summary says it"

# --- --delays auto, on a stub with a known threshold ------------------------
# Every run's interval is [D - 30us, D + 30us], the run-block interval
# [D, D], the t interval above parity from the smallest delay: both
# analyses resolve a delay above 30 us. The median is 1.0025 ms, so the
# search starts at 1 us (0.1%), goes up by 10 to 100 us, and tries the
# 1-2-5 steps between: 20 us (missed), 50 us (resolved). A budget no
# load can exhaust (the search takes seconds): what is checked is the
# search, not whether a loaded machine ran it within 300 s.
stub --delays auto --budget 100000s --raw "$T/auto"
cp "$T/out" "$T/auto.tsv"
is "$rc $(rows "$T/auto.tsv" | cut -f1 | tr '\n' ' ')" "0 0 1000 10000 100000 20000 50000 " \
	"--delays auto: A/A first, then 1us, 10us, 100us, 20us, 50us, rows in the order tried"
is "$(grep '^# pb-sense.grid: ' "$T/auto.tsv")" "# pb-sense.grid: 0,1us,10us,100us,20us,50us (in the order tried)" \
	"... the grid tried, in the metadata"
like "$(grep '^# pb-sense.search: ' "$T/auto.tsv")" \
	'^# pb-sense.search: from 1us \(0.1% of the A/A study.s median 1.0025ms\), by factors of 10, then the 1-2-5 steps between; both analyses resolve 50us, not 20us; done in [0-9.]+m?s of 100000s$' \
	"... where it started, the answer and that it ended by itself, within its budget"
is "$(grep -E '^# pb-sense\.(t_)?(resolves|missed): ' "$T/auto.tsv" | tr '\n' '|')" \
	"# pb-sense.resolves: 50000|# pb-sense.missed: 20000|# pb-sense.t_resolves: 1000|# pb-sense.t_missed: none|" \
	"... each analysis's answer, a delay in ns or none each: the bootstrap 50us (not 20us), the t analysis 1us, the smallest tried"
is "$(ls "$T/auto" | tr '\n' ' ')" "raw-0.tsv raw-1000.tsv raw-10000.tsv raw-100000.tsv raw-20000.tsv raw-50000.tsv " \
	"--raw keeps every study of the search (the probe is none of them)"
like "$(grep '^# pb-sense: ' "$T/auto.tsv")" ' pb-sense --delays auto --budget 100000s --raw ' "the provenance says --delays auto and the budget"
# No delay resolved (STUB_FLIP: half the runs see B faster): the search
# goes up to 10 times the median, 10 ms, and says so.
STUB_FLIP=1 stub --delays auto --budget 100000s
like "$rc $(grep '^# pb-sense.search: ' "$T/out")" '^0 .*; no delay tried was resolved by both analyses; no delay tried was resolved by both analyses, up to 10ms; ' \
	"a threshold beyond 10x the median: the search stops at 10ms, resolved by neither"

# The budget. The stub sleeps 0.3 s a study, which the probe counts as
# the cost of a run: 10 runs make a pilot of 3 s that 1 s cannot cover,
# refused after the probe alone, with no row written.
PB_SHARE=$SHARE STUB_SLEEP=0.3 run "$T/stub/pb-sense" --runs 10 --pairs 20 --warmup 2 --resamples 20 \
	--delays auto --budget 1s --raw "$T/refused" -- stub
is "$rc $(wc -l <"$T/err" | tr -d ' ') $(grep -c . "$T/out") $(ls "$T/refused" | wc -l | tr -d ' ')" "1 1 0 0" \
	"a budget that cannot cover the pilot: exit 1, one line, nothing written"
like "$(cat "$T/err")" "^pb-sense: --budget 1s cannot cover the pilot: the A/A study and a first delay would take about [0-9.]+s \(10 runs of 22 pairs, [0-9.]+ms an observation\); give --budget [0-9]+s or more, or fewer --runs or --pairs$" \
	"... the line says what the pilot would cost and what to give"
# An observation longer than a sixth of the budget stops the probe itself.
run pb-sense --runs 2 --pairs 2 --delays auto --budget 600ms -- 'sleep 1'
is "$rc $(wc -l <"$T/err" | tr -d ' ') $(grep -c . "$T/out")" "1 1 0" "an observation beyond the budget: exit 1, one line, nothing written"
like "$(cat "$T/err")" '^pb-sense: --budget 600ms cannot cover the pilot: an observation took longer than 100ms, a sixth of it \(give a larger --budget\)$' \
	"... which says so"
# A budget under 6 ns: the same message, not one about a --timeout never given.
run pb-sense --runs 2 --pairs 2 --delays auto --budget 5ns -- true
is "$rc $(wc -l <"$T/err" | tr -d ' ')" "1 1" "--budget 5ns: exit 1, one line"
like "$(cat "$T/err")" '^pb-sense: --budget 5ns cannot cover the pilot' "... about the budget, not --timeout"
# The default budget, 300 s: 10000 runs of 22 pairs of 1 ms (the times
# the stub writes, whatever the load) make a pilot of 880 s, refused
# after the probe alone.
PB_SHARE=$SHARE refuses 1 '^pb-sense: --budget 300s cannot cover the pilot: the A/A study and a first delay would take about ' \
	"the default budget is 300s: a pilot of 880s is refused, nothing written" \
	"$T/stub/pb-sense" --runs 10000 --pairs 20 --warmup 2 --delays auto -- stub
# A search that outgrows its budget, by the times the stub writes: a study
# of 2 runs of 2000 pairs costs 2 x 2 x 2000 x D more at delay D, and
# with STUB_FLIP nothing is resolved, so the search goes up to 10 ms,
# whose study would cost 80 s more than the A/A study's: more than the
# budget of 70 s, which covers the pilot (about 16 s of the stub's
# times) with room for a loaded machine's overhead. It stops before that
# study at the latest (before an earlier one if the machine is slow
# enough: which one is not checked).
PB_SHARE=$SHARE STUB_FLIP=1 run "$T/stub/pb-sense" --runs 2 --pairs 1998 --warmup 2 --resamples 20 \
	--delays auto --budget 70s -- stub
like "$rc $(grep '^# pb-sense.search: ' "$T/out")" '^0 .*; stopped by the budget: the next study \([0-9.]+[mun]?s, about [0-9.]+m?s\) would have ended after 70s; [0-9.]+m?s of 70s spent$' \
	"a budget the search outgrows: it stops, and says why"
is "$(col delay_ns 1 "$T/out") $(grep -c '^# sense: ' "$T/out")" "0 1" "... with the A/A study and the summary"

# --- Usage ------------------------------------------------------------------
fails 2 '^pb-sense: --budget goes with --delays auto' "--budget with a list: exit 2" pb-sense --delays 0 --budget 10s -- true
fails 2 "^pb-sense: --budget wants a duration such as 60s or 1500ms, not '1m'" "--budget 1m: exit 2" \
	pb-sense --delays auto --budget 1m -- true
fails 2 '^pb-sense: --budget must be more than 0' "--budget 0: exit 2" pb-sense --delays auto --budget 0 -- true
run pb-sense --delays 0 --stat mode -- "touch $T/ran"
refused 2 "^pb-sense: --stat is median, mean, min, lr-median, p90, p99 or qQ .*, not 'mode' \(see pb-sense --help\)$" \
	"--stat mode: pb-pair's reason, before any study, exit 2, nothing ran" "$(ls "$T" | grep -c '^ran$')" 0

# --- pb-tint --sense ------------------------------------------------------------
# The calibration of the worker study above, cited in a finding of a
# study of the same worker: the t analysis over per-run medians at 0.95.
# (its own warnings, which a loaded machine can cause, are left out here:
# the clauses they make are checked below with aa4.tsv)
sed -e '/^# pb-sense\.warning: /d' -e 's/^# pb-sense.t_resolves: .*/# pb-sense.t_resolves: 2000/' \
	-e 's/^# pb-sense.t_missed: .*/# pb-sense.t_missed: 500/' "$T/worker.tsv" >"$T/cal.tsv"
med=$(grep '^# pb-sense.median_ns: ' "$T/cal.tsv" | cut -d' ' -f3)
pct() { awk -v n="$1" -v m="$med" 'BEGIN { printf "%.3e", 100 * n / m }' | awk '{ split($1, a, "e"); print a[1] + 0 }'; }
run pb-run --runs 3 --pairs 10 --warmup 1 --no-shell --worker 'pb-workload --worker --us 100'
cp "$T/out" "$T/study.tsv"
run sh -c "pb-pair --by-run '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/cal.tsv'"
finding=$(grep '^# finding: ' "$T/out")
ran_ok "pb-tint --finding --sense: exit 0"
like "$finding" " Calibration: this harness resolves [0-9.]+% \(2.000 µs\) on this workload, but not [0-9.]+% \(500.0 ns\), with this analysis\.( Warning: .*)?$" \
	"the same analysis: what it resolves, in % and in time, on this workload, with this analysis"
# the percentage is of the calibration's median (4 digits)
p2=$(awk -v n=2000 -v m="$med" 'BEGIN { printf "%.4g", 100 * n / m }')
like "$finding" "resolves $(printf '%s' "$p2" | sed 's/\./\\./')[0-9]*% \(2\.000" "... the share of the calibration's median"
run sh -c "pb-pair '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/cal.tsv'"
like "$(grep '^# finding: ' "$T/out")" "with the t interval over per-run log ratios \(per-run median, level 0.95\), not with this analysis \(here pairs pooled, not runs\)\.( Warning: .*)?$" \
	"pooled pairs: not the analysis calibrated, and it says which was"
run sh -c "pb-pair --by-run --stat mean '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/cal.tsv'"
like "$(grep '^# finding: ' "$T/out")" "not with this analysis \(here the per-run statistic mean, there median\)\.( Warning: .*)?$" \
	"per-run means against a calibration of medians: said"
run sh -c "pb-pair --by-run '$T/study.tsv' | pb-logratio | pb-tint --level 0.9 --finding --sense '$T/cal.tsv'"
like "$(grep '^# finding: ' "$T/out")" "not with this analysis \(here level 0.9, there 0.95\)\.( Warning: .*)?$" "another level: said"
run sh -c "pb-pair --by-run '$T/study.tsv' | pb-tint --column d --finding --sense '$T/cal.tsv'"
like "$(grep '^# finding: ' "$T/out")" "not with this analysis \(here the mean of a column that is not a log ratio\)\.( Warning: .*)?$" "d, not a log ratio: said"
# another workload: the calibration's cmd_a or worker differs
sed 's/^# worker: .*/# worker: another-worker/' "$T/cal.tsv" >"$T/cal-other.tsv"
run sh -c "pb-pair --by-run '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/cal-other.tsv'"
like "$(grep '^# finding: ' "$T/out")" " on another workload or machine \(worker differs\), but not " "another workload: said"
# what it resolved, in the other forms pb-sense writes
for v in "2000 none|, the smallest delay tried, on this workload with this analysis" \
	"none 5000|resolves none of the delays tried, up to [0-9.]+% \(5.000 µs\), on this workload with" \
	"none none|resolves nothing it was shown \(no delay above 0 was tried\) on this workload"; do
	r=${v%% *} m=${v#* } m=${m%%|*}
	sed -e "s/^# pb-sense.t_resolves: .*/# pb-sense.t_resolves: $r/" \
		-e "s/^# pb-sense.t_missed: .*/# pb-sense.t_missed: $m/" "$T/cal.tsv" >"$T/cal-v.tsv"
	run sh -c "pb-pair --by-run '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/cal-v.tsv'"
	like "$(grep '^# finding: ' "$T/out")" "${v#*|}" "t_resolves $r, t_missed $m: the finding says so"
done
# the calibration's warnings become clauses, after the calibration's own
run sh -c "pb-pair --by-run '$T/study.tsv' | pb-logratio | pb-tint --finding --sense '$T/aa4.tsv'"
like "$(grep '^# finding: ' "$T/out")" "on another workload or machine \(mode differs\).* Warning: the calibration: at delay 0, 4 of 10 runs saw an effect where 0.5 are expected by chance at level 0.95 \(binomial p = 0.001\): .*says which\)\.$" \
	"the calibration's warning is a clause of the finding"
fails 2 '^pb-tint: --sense goes with --finding' "--sense without --finding: exit 2" pb-tint --sense "$T/cal.tsv" "$T/study.tsv"
pb-pair --by-run "$T/study.tsv" | pb-logratio >"$T/lr.tsv"
fails 1 "^pb-tint: --sense $T/lr.tsv: not the output of pb-sense with its t analysis" "--sense of another stream: exit 1, one line" \
	pb-tint --finding --sense "$T/lr.tsv" "$T/lr.tsv"
grep -v '^# pb-sense.median_ns' "$T/cal.tsv" >"$T/cut.tsv"
fails 1 "^pb-tint: --sense $T/cut.tsv: pb-sense's level, statistic, median or what it resolved is missing" \
	"--sense of a calibration without its median: exit 1" pb-tint --finding --sense "$T/cut.tsv" "$T/lr.tsv"
# an older pb-sense wrote "# pb-sense.t_resolves: D; missed E", a
# sentence, and no t_missed: refused, not parsed
sed -e '/^# pb-sense.t_missed: /d' -e 's/^# pb-sense.t_resolves: .*/# pb-sense.t_resolves: 2000; missed 500/' \
	"$T/cal.tsv" >"$T/old.tsv"
fails 1 "^pb-tint: --sense $T/old.tsv: pb-sense's level, statistic, median or what it resolved is missing \(a cut file, or one of an older pb-sense\?\)\$" \
	"--sense of an older pb-sense's calibration: exit 1, one line" pb-tint --finding --sense "$T/old.tsv" "$T/lr.tsv"

# Lines pb-sense would not write: refused before any output, never a
# share that overflows ("i.f%") or a negative delay read as none.
for v in "median_ns: 1e-320" "median_ns: 0.5" "t_resolves: -5" "t_missed: -1" "t_resolves: 2000; missed 500"; do
	sed "s/^# pb-sense.${v%%:*}: .*/# pb-sense.$v/" "$T/cal.tsv" >"$T/cal-bad.tsv"
	refuses 1 "^pb-tint: --sense: '# pb-sense.(median_ns|t_resolves): .*' .*is not as pb-sense writes" \
		"--sense with '# pb-sense.$v': exit 1, one line, nothing written" pb-tint --finding --sense "$T/cal-bad.tsv" "$T/lr.tsv"
done
done_testing

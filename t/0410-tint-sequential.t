#!/bin/sh
# pb-tint --sequential: the anytime-valid confidence sequence (lib/seq.c),
# its columns, its unbounded start, the default for a study pb-run --until
# made, and a small simulation: over many looks an A/A sequence rarely
# excludes 0, where peeking at the fixed-n t interval often does.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
G=$D/../../examples/bench/seq-gen.awk

# tstar at n = 10, g = 25, level 0.95, from bc at 40 digits (t/unit/seq.c):
# 4.4407672526262659529797771780448686226006
seq 1 10 | awk 'BEGIN { print "x" } { print $1 / 10 }' >ten.tsv
run pb-tint --column x --sequential ten.tsv
ran_ok "ten values: exit 0, a row"
near "$(col t 1 "$T/out")" 4.4407672526262659529797771780448686226006 1e-14 "t holds tstar (bc)"
is "$(col df 1 "$T/out")" 9 "df = n - 1"
# mean 0.55, sd = sqrt(var(1:10))/10 = 0.30276503540974914 (R: sd(1:10)/10)
want_lo=$(awk 'BEGIN { printf "%.17g", 0.55 - 4.4407672526262659 * 0.30276503540974914 / sqrt(10) }')
near "$(col lo 1 "$T/out")" "$want_lo" 1e-14 "lo = mean - tstar * sd / sqrt(n)"
is "$(meta pb-tint.method "$T/out")" sequence "the method in the metadata: sequence"
like "$(cat "$T/out")" '^# pb-tint.method.note: confidence sequence \(anytime-valid' "  and its note"
run pb-tint --column x ten.tsv
ran_ok "without it: exit 0, a row"
is "$(meta pb-tint.method "$T/out")" t "  the t interval, and the metadata says so: t"
like "$(cat "$T/out")" '^# pb-tint.method.note: t interval' "  and its note"
# mpmath at 30 digits: findroot(betainc(9/2, 1/2, 0, 9/(9+t^2), regularized=True)/2 - 0.025, 2.26)
near "$(col t 1 "$T/out")" 2.26215716279820554260776963794 1e-14 "  t = qt(0.975, 9)"

# Unbounded at n = 2 (g = 25): empty fields, never inf, a note, 'crosses'.
printf 'lr\n0.01\n0.02\n' >two.tsv
run pb-tint --sequential --threshold 1.1 --finding two.tsv
ran_ok "two values: exit 0, a row"
is "$(rows "$T/out" | cut -f 6-8,10,11,13 | tr '\t' '|')" "|||||crosses" "t, lo, hi, ratio_lo, ratio_hi empty; verdict crosses"
is "$(rows "$T/out" | cut -f 1,9 | tr '\t' '|')" "2|1.015113064615719" "  n and the ratio are still given"
like "$(cat "$T/out")" '^# pb-tint.unbounded: .* at least 3 values at g = 25$' "  a note says why they are empty"
like "$(grep '^# finding:' "$T/out")" 'the 95% confidence sequence is still unbounded .* at least 3 values' "  the finding says so"
lacks "$T/out" 'inf|nan' "no inf or nan anywhere"
run pb-tint --column x --sequential --seq-g 1 ten.tsv
ran_ok "--seq-g 1: exit 0, a row"
# bc: n=10, g=1: 3.8697867393713211901875981664426708869203
near "$(col t 1 "$T/out")" 3.8697867393713211901875981664426708869203 1e-14 "--seq-g 1: tstar (bc)"
printf 'lr\n0.01\n0.02\n0.03\n0.04\n' >four.tsv
run pb-tint --sequential --seq-g 1 four.tsv
is "$rc $(col lo 1 "$T/out")" "0 " "g = 1 is still unbounded at n = 4 (bc: K >= c)"

# A study made by pb-run --until: its head says so; the sequence is the
# default, with the head's g; --no-sequential warns.
{ echo '# until: parity'; echo '# seq_g: 1'; cat ten.tsv; } >study.tsv
run pb-tint --column x study.tsv
near "$(col t 1 "$T/out")" 3.8697867393713211901875981664426708869203 1e-14 "'# until:' in the head: the sequence, with the head's g"
run pb-tint --column x --no-sequential study.tsv
is "$rc $(col t 1 "$T/out")" "0 2.262157162798205" "--no-sequential: the t interval"
like "$(cat "$T/err")" '^pb-tint: this study stopped by a sequential rule \(--until parity\); a fixed-n t interval of it is too narrow' \
	"  with a warning"
fails 1 "^pb-tint: study.tsv: --seq-g auto takes the g fixed before the study ran, as pb-compare tunes it, and its head has no '# seq_g.note:' \\(why that g\\); a g chosen from the runs it tests would void the sequence: give --seq-g G\$" \
	"--seq-g auto, no tuned g in the head: exit 1, one line" pb-tint --column x --seq-g auto study.tsv
{ echo '# until: parity'; echo '# seq_g: 1'; echo '# seq_g.note: tuned to a 2 % effect'; cat ten.tsv; } >tuned.tsv
{ echo '# until: parity'; echo '# seq_g: 1'; echo '# seq_g.note:'; cat ten.tsv; } >empty-note.tsv
fails 1 "^pb-tint: empty-note.tsv: --seq-g auto takes the g fixed before the study ran, as pb-compare tunes it, and its head has no '# seq_g.note:'" \
	"--seq-g auto, an empty note: none" pb-tint --column x --seq-g auto empty-note.tsv
{ echo '# until: parity'; echo '# seq_kind: median'; cat ten.tsv; } >median-study.tsv
fails 2 "^pb-tint: --seq-g auto: this study was stopped by the median sequence, which has no g" \
	"--seq-g auto on a median study: usage, saying why" pb-tint --column x --seq-g auto median-study.tsv
run pb-tint --column x --seq-g auto tuned.tsv
near "$(col t 1 "$T/out")" 3.8697867393713211901875981664426708869203 1e-14 "--seq-g auto: the g the head was tuned to"
{ cat ten.tsv; echo '# until: parity'; } >late.tsv
run pb-tint --column x late.tsv
is "$(col t 1 "$T/out")" 2.262157162798205 "'# until:' among the rows is not the study's head: the t interval"
fails 2 '^pb-tint: --df-cap is for the t interval' "--df-cap with --sequential: usage" pb-tint --sequential --df-cap 5 --column x ten.tsv
fails 2 '^pb-tint: --seq-g goes with' "--seq-g with --no-sequential: usage" pb-tint --no-sequential --seq-g 2 --column x ten.tsv
fails 2 "^pb-tint: --seq-g wants a number above 0" "--seq-g 0: usage" pb-tint --seq-g 0 --column x ten.tsv

# A g so small that no number of values bounds the sequence: the finding
# says so, never "at least -1 values".
run pb-tint --column x --sequential --seq-g 1e-20 --finding ten.tsv
ran_ok "--seq-g 1e-20: exit 0, a row"
like "$(grep '^# finding:' "$T/out")" 'stays unbounded beyond a million values at this g and level' \
	"  --seq-g 1e-20: the finding says no number of runs bounds it"
like "$(grep '^# pb-tint.unbounded:' "$T/out")" 'stays unbounded beyond a million values at g = 1e-20$' \
	"  --seq-g 1e-20: and so does the note"
lacks "$T/out" '-1 values' "  --seq-g 1e-20: no '-1 values'"
# A head's g and level are held to what pb-run --seq-g and --level take.
for gl in "1e13 0.95" "1e308 0.95" "25 1e-300" "25 0.99999999999999999"; do
	set -- $gl
	{ echo '# until: parity'; echo "# seq_g: $1"; echo "# seq_level: $2"; cat ten.tsv; } >head-gl.tsv
	fails 1 "^pb-tint: head-gl.tsv: '# seq_(g|level): [0-9.e+-]+' is not" \
		"'# seq_g: $1', '# seq_level: $2' in the head: exit 1, one line" pb-tint --column x --finding head-gl.tsv
done

# Width shrinks with n for a fixed sequence: prefixes 3..20 of one.
awk -v seed=7 -v seqs=1 -v nmin=3 -v nmax=20 -v mu=0 -f "$G" >one.tsv
run pb-tint --column x --group seq,n --sequential one.tsv
rows "$T/out" | awk -F'\t' '{ w = $10 - $9; if (NR > 1 && !(w < prev * 1.5)) bad = 1; prev = w; n++ }
	END { exit !(n == 18 && !bad) }'
is "$?" 0 "18 prefixes, each interval no more than 1.5x the last (sd varies; tstar/sqrt(n) falls)"

# The simulation, small: 200 A/A sequences looked at after every run from
# 3 to 20. The sequence should exclude 0 at some look in at most about
# alpha of them (expect ~2.5 %); the fixed-n t interval, peeked at 18
# times, in far more (~25 %).
awk -v seed=11 -v seqs=200 -v nmin=3 -v nmax=20 -v mu=0 -f "$G" >aa.tsv
# ever FILE: "SEQS HITS": the sequences with a row, and those of them
# whose interval excludes 0 at some look
ever() { rows "$1" | awk -F'\t' '{ seen[$1] = 1 } $9 > 0 || $10 < 0 { hit[$1] = 1 }
	END { n = 0; for (s in seen) n++; h = 0; for (s in hit) h++; print n, h }'; }
pb-tint --column x --group seq,n --sequential aa.tsv >cs.tsv && pb-tint --column x --group seq,n aa.tsv >tt.tsv
is "$(rows cs.tsv | wc -l) $(rows tt.tsv | wc -l)" "3600 3600" "simulation: 200 sequences x 18 looks, both methods"
set -- $(ever cs.tsv) $(ever tt.tsv)
cs_n=$1 cs=$2 tt_n=$3 tt=$4
diag "A/A, $cs_n and $tt_n sequences x 18 looks: sequence ever excludes 0 in $cs, fixed-n t in $tt"
like "$cs_n $cs" '^200 [0-9]+$' "simulation: a count for the sequence, over its 200 sequences"
[ "$cs_n" -eq 200 ] && [ "$cs" -le 14 ] &&
	ok "simulation: the sequence excludes 0 in at most 7 % of A/A sequences ($cs of $cs_n)" ||
	not_ok "simulation: the sequence excludes 0 in at most 7 % of A/A sequences ($cs of $cs_n, want 200)"
[ "$tt_n" -eq 200 ] && [ "$tt" -ge 30 ] &&
	ok "simulation: peeking at the t interval does in at least 15 % ($tt of $tt_n)" ||
	not_ok "simulation: peeking at the t interval does in at least 15 % ($tt of $tt_n, want 200)"
# --adjust bonferroni with a sequence: p and p_adj stay empty, so the
# metadata says nothing of them (a t test's p would not be the sequence's).
printf 'g\tx\n' >fam.tsv
for i in 1 2 3 4 5 6 7 8; do printf '1\t0.1%s\n2\t0.2%s\n' $i $i; done >>fam.tsv
run pb-tint --column x --group g --sequential --adjust bonferroni fam.tsv
ran_ok "sequence, bonferroni: exit 0"
like "$(meta pb-tint.adjust "$T/out")" '^bonferroni: 2 sequences, each at level 1 - \(1 - 0.95\)/2 = 0.975' \
	"  the adjustment's line names the sequences' level"
lacks "$T/out" '^# pb-tint.adjust:.*(p_adj|two-sided)' "  and no word of p or p_adj, whose columns are empty"
is "$(rows "$T/out" | cut -f10,11 | sort -u)" "$(printf '\t')" "  the p and p_adj fields are empty"
done_testing

#!/bin/sh
# More than two arms (pb-run -- CMD_A CMD_B CMD_C ..., --worker --arms K):
# blocks of k rows, the orders (a permutation per block, the cyclic Latin
# square, blocked), the head, --delay-arm and --reference on any arm,
# pb-pair's rows per pair and candidate, a 3-arm worker study whose
# ratios against A are recovered (the one test here that depends on
# timing: 30 us in 1000), the positions check, a 4-arm study of commands
# with --no-shell, shards of k arms, the later tools grouped by arm,
# pb-tint --adjust against R, and the usage errors.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1

# blocks K FILE: "bad ROW" for every k adjacent rows that are not one
# block (same run, phase and pair; pos 1 to k in order; each arm of A..
# once), else "run phase pair" per block
blocks() { rows "$2" | awk -F'\t' -v k="$1" '{ i = (NR - 1) % k
	if (i == 0) { r = $1; p = $2; ph = $3; seen = "" }
	if ($1 != r || $2 != p || $3 != ph || $5 != i + 1 || index(seen, $4) || $4 !~ /^[A-Z]$/ ||
	    $4 > substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", k, 1)) bad = 1
	seen = seen $4
	if (i == k - 1) { print (bad ? "bad " NR : r " " ph " " p); bad = 0 } }'; }
# design FIRST RUNS WARMUP PAIRS: the "run phase pair" lines blocks() should give
design() { awk -v f="$1" -v n="$2" -v w="$3" -v p="$4" 'BEGIN { for (r = f; r < f + n; r++) {
	for (i = 1; i <= w; i++) print r, "warmup", i
	for (i = 1; i <= p; i++) print r, "measure", i } }'; }
# places FILE: per run, "run arm pos count" of every arm at every place
places() { rows "$1" | awk -F'\t' '{ n[$1 " " $4 " " $5]++ } END { for (k in n) print k, n[k] }' | sort; }

WK="$W --worker --us 0"

# --- the stream: 3 arms, worker mode ------------------------------------
run pb-run --arms 3 --runs 2 --warmup 2 --pairs 6 --seed 5 --quiet --worker "$WK"
saved w3
ran_ok "--arms 3 --worker: exit 0, nothing on stderr"
is "$(meta arms w3):$(meta reference w3):$(meta delay_arm w3)" "3:A:B" "head: arms 3, reference A, delay_arm B"
is "$(meta mode w3):$(grep -c '^# cmd_' w3)" "worker:0" "worker mode: no cmd_ lines"
blocks 3 w3 >got
design 1 2 2 6 >want
is_file got want "every pair is a block of 3 adjacent rows, pos 1 to 3, arms A, B and C once each"
is "$(rows w3 | awk -F'\t' '$5 == 1 { print $4 }' | sort -u | tr -d '\n')" ABC "random: each arm runs first somewhere"
run pb-run --arms 3 --runs 2 --warmup 2 --pairs 6 --seed 5 --quiet --worker "$WK"
saved w3b
rows w3 | cut -f1-5 >w3.order
rows w3b | cut -f1-5 >w3b.order
same_file w3b.order w3.order "random: the same seed gives the same order"
run pb-run --arms 3 --runs 2 --warmup 2 --pairs 6 --seed 6 --quiet --worker "$WK"
differ "$(rows "$T/out" | cut -f4 | tr -d '\n')" "$(rows w3 | cut -f4 | tr -d '\n')" "random: another seed, another order"
# the worker is asked with each arm's letter
printf '#!/bin/sh\nwhile IFS= read -r l; do printf "%%s\\n" "$l" >>asked; echo ok; done\n' >echo-worker
chmod +x echo-worker
run pb-run --arms 4 --runs 1 --warmup 0 --pairs 2 --order blocked --quiet --worker ./echo-worker
is "$(tr '\t\n' ' |' <asked)" "A 1 1|A 1 2|B 1 1|B 1 2|C 1 1|C 1 2|D 1 1|D 1 2|" \
	"--arms 4 --order blocked: the worker gets A, B, C, D in turn, all A first"

# --- the orders ----------------------------------------------------------
# alternate: the cyclic Latin square, counted across the phases of a run:
# block i (from 0) runs arms i, i+1, ... mod k; in every k blocks each arm
# is at each place once.
run pb-run --order alternate --arms 3 --runs 2 --warmup 1 --pairs 8 --quiet --worker "$WK"
saved alt3
is "$(rows alt3 | awk -F'\t' '$1 == 1 { printf "%s", $4 } $1 == 1 && $5 == 3 { printf " " }')" \
	"ABC BCA CAB ABC BCA CAB ABC BCA CAB " "alternate, 3 arms: ABC, BCA, CAB ... from the warm-up on"
run pb-run --order alternate --arms 4 --runs 3 --warmup 4 --pairs 8 --quiet --worker "$WK"
saved alt4
bad=$(rows alt4 | awk -F'\t' '{ b = int((NR - 1) / 4); run = $1
	g = run " " int((b % 12) / 4); n[g " " $4 " " $5]++ }
	END { for (k in n) if (n[k] != 1) print k, n[k] }')
is "$bad:$(row_count alt4)" ":144" "alternate, 4 arms: in every 4 blocks of a run each arm at each place once"
run pb-run --order blocked --runs 1 --warmup 2 --pairs 3 \
	--prepare 'echo "$PB_PHASE $PB_PAIR $PB_ARM" >>hook-order' -- true : 'exit 0'
printf '%s\n' "warmup 1 A" "warmup 2 A" "warmup 1 B" "warmup 2 B" "warmup 1 C" "warmup 2 C" \
	"measure 1 A" "measure 2 A" "measure 3 A" "measure 1 B" "measure 2 B" "measure 3 B" \
	"measure 1 C" "measure 2 C" "measure 3 C" >want
is_file hook-order want "blocked, 3 arms: in each phase all A, then all B, then all C (PB_ARM C)"
blocks 3 "$T/out" >got
design 1 1 2 3 >want
is_file got want "blocked: block i is A_i, B_i and C_i, written together"

# --- delay and reference on any arm --------------------------------------
run pb-run --arms 3 --runs 1 --warmup 0 --pairs 4 --delay 2ms --delay-arm C --quiet --worker "$WK"
is "$(meta delay_arm "$T/out"):$(rows "$T/out" | awk -F'\t' '{ print $4, $6 }' | sort -u | tr '\n' ' ')" \
	"C:A 0 B 0 C 2000000 " "--delay-arm C: the delay on C's rows, 0 on A's and B's"
is "$(rows "$T/out" | awk -F'\t' '$4 == "C" { n++ } $4 == "C" && !($9 >= 2000000 && $9 <= $7) { bad++ }
	END { print n + 0, bad + 0 }')" "4 0" "--delay-arm C: spin_ns >= delay_ns, within ns, on C's 4 rows"
pb-pair "$T/out" >delay.pairs 2>/dev/null
is "$(rows delay.pairs | awk -F'\t' '{ print $3, $8 }' | sort -u | tr '\n' ' ')" "B 0 C 2000000 " \
	"pb-pair: delay = delay_b - delay_a per candidate"
run pb-run --arms 3 --reference B --runs 1 --warmup 0 --pairs 3 --quiet --worker "$WK"
saved refb
is "$(meta reference refb)" B "--reference B: in the head"
run pb-pair refb
is "$rc:$(rows "$T/out" | cut -f3 | sort -u | tr '\n' ' ')" "0:A C " "--reference B: the candidates are A and C"
is "$(rows "$T/out" | awk -F'\t' '{ print ($4 == "B" || $4 == $3) }' | sort -u)" 1 \
	"--reference B: first is B or the candidate"
b=$(rows refb | awk -F'\t' '$2 == 2 && $4 == "B" { print $7 }')
is "$(rows "$T/out" | awk -F'\t' '$2 == 2 { print $5 }' | sort -u):$(rows "$T/out" | awk -F'\t' '$2 == 2' | wc -l | tr -d ' ')" \
	"${b:-none}:2" "--reference B: a is B's time, in both rows of a pair"
run pb-run --reference B --runs 1 --warmup 0 --pairs 2 --quiet --worker "$WK"
is "$rc:$(meta reference "$T/out"):$(grep -c '^# arms:' "$T/out")" "0:B:0" \
	"two arms, --reference B: a reference line, no arms line"
run pb-run --runs 1 --warmup 0 --pairs 2 --quiet --worker "$WK"
is "$rc:$(grep -c '^# \(arms\|reference\):' "$T/out"):$(row_count "$T/out")" "0:0:4" \
	"two arms, A the reference: neither line (as before)"

# --- pb-pair ---------------------------------------------------------------
run pb-pair w3
ran_ok "pb-pair of 3 arms: exit 0, nothing on stderr"
cp "$T/out" w3.pairs
is "$(grep -v '^#' w3.pairs | head -n 1)" "$(printf 'run\tpair\tarm\tfirst\ta\tb\td\tdelay\tspin\tpos_a\tpos_b')" \
	"the header: run pair arm first a b d delay spin pos_a pos_b"
is "$(row_count w3.pairs):$(rows w3.pairs | cut -f3 | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
	"24: 12 B, 12 C," "one row per measured pair and candidate: 2 runs x 6 pairs x 2"
# each row against the raw rows: a = A's ns, b = the candidate's, d, first, pos
rows w3 | awk -F'\t' '$3 == "measure" { print $1 "/" $2 "/" $4, $7, $5 }' | sort >raw.idx
bad=$(rows w3.pairs | while IFS='	' read -r r p arm first a b d delay spin pa pb; do
	ra=$(awk -v k="$r/$p/A" '$1 == k { print $2, $3 }' raw.idx)
	rb=$(awk -v k="$r/$p/$arm" '$1 == k { print $2, $3 }' raw.idx)
	f=A; [ "${rb#* }" -lt "${ra#* }" ] && f=$arm
	[ "$a $pa" = "$ra" ] && [ "$b $pb" = "$rb" ] && [ "$d" = $((b - a)) ] && [ "$first" = "$f" ] ||
		echo "$r/$p/$arm"
done)
is "$bad:$(row_count w3.pairs)" ":24" "each row: a and pos_a are A's, b and pos_b the candidate's, d = b - a, first the earlier of the two"
like "$(meta pair w3.pairs)" '^one row per pair and candidate arm \(arm\): a is the time of arm A, the reference' \
	"'# pair:' says what a and b are"
run pb-pair --by-run w3
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | cut -f1-4)" "$(printf '0:run\tarm\tn\ta')" "--by-run: run arm n a ..."
is "$(rows "$T/out" | cut -f1-3 | tr '\t\n' ' |')" "1 B 6|1 C 6|2 B 6|2 C 6|" "--by-run: one row per run and candidate"
run pb-pair --by-run --stat lr-median w3
like "$(meta log_ratio "$T/out")" 'the reference A is the baseline, the arm column.s the candidate' \
	"--stat lr-median: the log ratio's baseline is the reference"
# a pair is complete only with all its arms
awk -F'\t' '!(/^[0-9]/ && $1 == 2 && $2 == 6 && $3 == "measure" && $5 == 3)' w3 >cut.tsv
fails 1 "^pb-pair: cut\.tsv:[0-9]+: run 2 pair 6: arm [ABC] has no arm [ABC] \(2 of the 3 arms are there\)$" \
	"a pair without one of its 3 arms: refused, with the line" pb-pair cut.tsv
awk -F'\t' -v OFS='\t' '/^[0-9]/ && $1 == 1 && $2 == 3 && $3 == "measure" && $5 == 2 { $5 = 1 } 1' w3 >twice.tsv
fails 1 "^pb-pair: twice\.tsv:[0-9]+: run 1 pair 3: arms [ABC] and [ABC] both at pos 1$" \
	"two arms at one place: refused" pb-pair twice.tsv
awk -F'\t' -v OFS='\t' '/^[0-9]/ && NR > 40 && $5 == 3 && !d { $4 = "D"; d = 1 } 1' w3 >arm-d.tsv
fails 1 "^pb-pair: arm-d\.tsv:[0-9]+: column 'arm': unknown arm 'D' \(A to C\)$" \
	"an arm beyond the head's arms: refused" pb-pair arm-d.tsv
sed 's/^# arms: 3$/# arms: 1/' w3 >arms1.tsv
fails 1 "^pb-pair: arms1\.tsv: '# arms: 1' is not a number of arms \(2 to 26\)$" "'# arms: 1': refused" pb-pair arms1.tsv

# --- a 3-arm study of known work: 1000, 970 and 1030 us -----------------
# The ratios against A are those of the work plus the round trip's own
# cost o (a few us): (1000 + o) / (970 + o), from 1.0294 (o = 50 us) to
# 1.0309 (o = 0); for C from 0.9709 to 0.9722. Each candidate's interval
# (Bonferroni over the two, 99% together) meets its band. Per run the
# median of the paired log ratios, which a load that comes and goes on a
# shared machine moves far less than the arms' own medians.
# A machine loaded past its cores can take most of a run's observations
# away for milliseconds; so up to 3 studies, and each candidate's
# interval must meet its band in one of them (a wrong arm or ratio misses
# in all three). t/README, Timing.
meets() { awk -v lo="$1" -v hi="$2" -v a="$3" -v b="$4" 'BEGIN { exit !(lo <= b && hi >= a) }'; }
try=0 met=
while [ "$try" -lt 3 ] && [ "$met" != "B C " ]; do
	try=$((try + 1)) met=
	run pb-run --arms 3 --runs 10 --warmup 5 --pairs 40 --seed $((17 + try)) --quiet \
		--worker "$W --worker --us 1000 --arm-us B=970 --arm-us C=1030"
	saved known
	pb-pair --by-run --stat lr-median known 2>/dev/null | pb-tint --adjust bonferroni --level 0.99 --finding >known.tint
	for arm in B C; do
		lo=$(rows known.tint | awk -F'\t' -v a="$arm" '$1 == a { print $11 }')
		hi=$(rows known.tint | awk -F'\t' -v a="$arm" '$1 == a { print $12 }')
		band="1.0294 1.0309"
		[ "$arm" = C ] && band="0.9709 0.9722"
		# shellcheck disable=SC2086
		nums "$lo" "$hi" 2>/dev/null && meets "$lo" "$hi" $band && met="$met$arm "
		eval "iv_$arm=\"\$lo to \$hi\""
	done
done
ran_ok "the 3-arm study of 1000, 970 and 1030 us: exit 0"
is "$met" "B C " "B and C against A: each interval meets its band (B $iv_B, C $iv_C; study $try of at most 3)"
# (a study disturbed by load may resolve no direction; the band above
# is the check of the numbers, these of the words)
like "$(grep '^# finding' known.tint | head -n 1)" '^# finding: (B took [0-9.]+% less time than A|No difference resolved between B and A) \(the reference\): A/B time ratio ' \
	"the finding: B against A, the reference, named"
like "$(grep '^# finding' known.tint | tail -n 1)" '^# finding: (C took [0-9.]+% more time than A|No difference resolved between C and A) \(the reference\): A/C time ratio ' \
	"the finding: C against A"
like "$(grep '^# finding' known.tint | tail -n 1)" 'Bonferroni-adjusted for 2 comparisons: each at 99\.5%, so that both hold together at 99%' \
	"the finding: how many comparisons, and that the intervals are adjusted"
# the positions: random, so each arm at each place about 1/3 of the time
pb-pair known 2>/dev/null | pb-check >known.check
is "$(rows known.check | awk -F'\t' '$2 ~ /^positions/ { printf "%s:%s:%s ", $1, $2, $3 }')" \
	"A:positions:ok A:positions_run:ok B:positions:ok B:positions_run:ok C:positions:ok C:positions_run:ok " \
	"pb-check: positions balanced for every arm, overall and per run"
is "$(places known | awk '{ n[$2 " " $3] += $4 } END { for (k in n) { c++; if (n[k] < 100 || n[k] > 200) print k, n[k] }; print c + 0 }')" 9 \
	"each arm at each place in 100 to 200 of the 450 pairs (150 expected)"
like "$(rows known.check | awk -F'\t' '$1 == "C" && $2 == "effect" { print $8 }')" '^C - A, order-adjusted' \
	"pb-check: the other checks compare each candidate with the reference, named"
# the alternate order is balanced by construction: chi-square 0 for every arm
pb-pair alt4 2>/dev/null | pb-check >alt4.check
is "$(rows alt4.check | awk -F'\t' '$2 == "positions" { printf "%s:%s:%s ", $1, $3, $4 }')" "A:ok:0 B:ok:0 C:ok:0 D:ok:0 " \
	"pb-check of the cyclic order of 4 arms: each arm at each place exactly as often (chi-square 0)"
like "$(rows alt4.check | awk -F'\t' '$1 == "B" && $2 == "order" { print $3 ": " $8 }')" \
	'^ok: 75% of the 24 pairs ran A before B: what the cyclic order of 4 arms gives \(75%\)' \
	"pb-check: the order share the cyclic order gives A before B (3 of 4), not a warning"
pb-run --order blocked --arms 3 --runs 2 --warmup 0 --pairs 12 --quiet --worker "$WK" | pb-pair 2>/dev/null | pb-check >blk.check
is "$(rows blk.check | awk -F'\t' '$2 == "positions" { printf "%s:%s ", $1, $3 }')" "A:warn B:warn C:warn " \
	"pb-check of the blocked order: every arm at one place, positions warn"

# --- 4 arms, commands, --no-shell ----------------------------------------
run pb-run --no-shell --output noshell.out --runs 2 --warmup 1 --pairs 3 --seed 3 --quiet \
	-- "$W --us 0" "$W --us 10" "echo \$HOME a>b" "$W --us 30"
saved c4
ran_ok "4 commands, --no-shell: exit 0"
is "$(meta cmd_a c4)|$(meta cmd_c c4)|$(meta cmd_d c4)|$(meta arms c4)" "$W --us 0|echo \$HOME a>b|$W --us 30|4" \
	"head: cmd_a to cmd_d, arms 4"
like "$(meta shell c4)" '^none' "head: no shell"
blocks 4 c4 >got
design 1 2 1 3 >want
is_file got want "4 arms: blocks of 4 rows"
is "$(sort -u noshell.out):$([ -e b ] && echo made b)" '$HOME a>b:' "--no-shell: the words exec'd as they are, no redirection"
run pb-pair --by-run c4
is "$rc:$(rows "$T/out" | cut -f2 | sort -u | tr -d '\n')" "0:BCD" "pb-pair --by-run: candidates B, C and D"
run pb-run --runs 1 --warmup 0 --pairs 1 --quiet -- true true true true true true true true true true \
	true true true true true true true true true true true true true true true true
is "$rc:$(meta arms "$T/out"):$(row_count "$T/out"):$(rows "$T/out" | cut -f4 | sort | tr -d '\n')" \
	"0:26:26:ABCDEFGHIJKLMNOPQRSTUVWXYZ" "26 commands: arms A to Z, one block of 26 rows"

# --- shards of k arms ---------------------------------------------------
pb-run --first-run 1 --runs 2 --warmup 1 --pairs 3 --seed 8 --quiet -- true : 'exit 0' >s1.tsv
pb-run --first-run 3 --runs 2 --warmup 1 --pairs 3 --seed 8 --quiet -- true : 'exit 0' >s2.tsv
pb-run --first-run 3 --runs 2 --warmup 1 --pairs 3 --seed 8 --quiet -- true : 'exit 00' >s3.tsv
run pb-pair s1.tsv s2.tsv
is "$rc:$(rows "$T/out" | cut -f1 | uniq | tr '\n' ' '):$(row_count "$T/out")" "0:1 2 3 4 :24" \
	"two shards of 3 arms merge: runs 1 to 4, 2 rows a pair"
fails 1 "^pb-pair: s1\.tsv and s3\.tsv disagree on 'cmd_c' \(exit 0 vs exit 00\): shards of one study must share it$" \
	"shards whose third commands differ: refused on cmd_c" pb-pair s1.tsv s3.tsv
pb-run --first-run 3 --runs 2 --warmup 1 --pairs 3 --seed 8 --quiet -- true : >s4.tsv
fails 1 "^pb-pair: s1\.tsv and s4\.tsv disagree on 'arms' \(3 vs absent\): shards of one study must share it$" \
	"a shard of 2 arms with one of 3: refused" pb-pair s1.tsv s4.tsv

# --- the later tools, by arm ------------------------------------------------
run pb-boot --resamples 200 w3.pairs
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | cut -f1):$(rows "$T/out" | cut -f1 | tr -d '\n')" "0:arm:BC" \
	"pb-boot: one interval per candidate, arm first"
like "$(meta pb-boot.group "$T/out")" '^arm \(arm added: the input compares each candidate arm' "pb-boot: says arm was added"
run pb-boot --resamples 200 --group run w3.pairs
is "$rc:$(rows "$T/out" | cut -f1-2 | tr '\t\n' ' |')" "0:B 1|C 1|B 2|C 2|" "pb-boot --group run: arm in front of run"
run pb-boot --resamples 200 --group run,arm w3.pairs
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | cut -f1-2):$(grep -c '^# pb-boot.group:' "$T/out")" "$(printf '0:run\tarm:0')" \
	"pb-boot --group run,arm: as given, nothing added"
run pb-tint --column d w3.pairs
is "$rc:$(rows "$T/out" | cut -f1 | tr -d '\n')" "0:BC" "pb-tint: one interval per candidate"
run pb-cross --expect + w3.pairs   # A/A of --us 0: a pooled median of 0 has no sign
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | cut -f1-2):$(rows "$T/out" | cut -f1 | tr -d '\n')" "$(printf '0:arm\truns:BC')" \
	"pb-cross: one comparison per candidate"
run pb-cross --expect + --each w3.pairs
is "$rc:$(rows "$T/out" | cut -f1 | sort | uniq -c | tr -s ' ' | tr '\n' ,)" "0: 2 B, 2 C," \
	"pb-cross --each: each candidate's ordered pairs of runs"
pb-logratio w3.pairs >w3.lr
run pb-plan w3.lr
is "$rc:$(rows "$T/out" | cut -f1-2 | tr '\t\n' ' |')" "0:B current|C current|" "pb-plan: a plan per candidate"
like "$(meta pb-plan.pair_cost.note "$T/out")" "reference's time and every candidate's" "pb-plan: a pair's cost is that of all its arms"
like "$(meta log_ratio w3.lr)" '^lr = ln\(a/b\); the reference A is the baseline' "pb-logratio: the reference is the baseline"

# --- pb-tint --adjust, against R ---------------------------------------
# t/data/arms/lr3.tsv: three candidates, 6 runs each. In R, with d its rows:
#   for (a in c("B","C","D")) { x <- d$lr[d$arm == a]
#     t <- t.test(x, conf.level = 1 - 0.05/3); print(c(t$conf.int, t$p.value)) }
#   p.adjust(p, "holm"); p.adjust(p, "bonferroni")
# B: lo 0.024601556728099615 hi 0.035398443271900393 p 6.3190368055066337e-06
# C: lo 5.5380635931533888e-05 hi 0.0096112860307351316 p 0.015957769568558815
# D: lo -0.012127439194819681 hi 0.0011274391948196826 p 0.032523225266316839
# holm: 1.8957110416519903e-05 0.031915539137117629 0.032523225266316839
# bonferroni: 1.8957110416519903e-05 0.047873308705676444 0.097569675798950511
LR3=$D/arms/lr3.tsv
run pb-tint --adjust bonferroni "$LR3"
cp "$T/out" bonf
ran_ok "--adjust bonferroni: exit 0"
near "$(col lo 1 bonf)" 0.024601556728099615 1e-12 "bonferroni: B's lo, at level 1 - 0.05/3, as R"
near "$(col hi 1 bonf)" 0.035398443271900393 1e-12 "bonferroni: B's hi"
near "$(col lo 2 bonf)" 5.5380635931533888e-05 1e-9 "bonferroni: C's lo"
near "$(col hi 3 bonf)" 0.0011274391948196826 1e-11 "bonferroni: D's hi"
near "$(col p 1 bonf)" 6.3190368055066337e-06 1e-9 "p: B's t test, as R"
near "$(col p 3 bonf)" 0.032523225266316839 1e-12 "p: D's"
near "$(col p_adj 2 bonf)" 0.047873308705676444 1e-12 "bonferroni: C's p_adj = 3 p, as R's p.adjust"
near "$(col p_adj 3 bonf)" 0.097569675798950511 1e-12 "bonferroni: D's p_adj"
run pb-tint --adjust holm --finding "$LR3"
cp "$T/out" holm
near "$(col p_adj 1 holm)" 1.8957110416519903e-05 1e-9 "holm: B's p_adj, as R's p.adjust"
near "$(col p_adj 2 holm)" 0.031915539137117629 1e-12 "holm: C's p_adj"
near "$(col p_adj 3 holm)" 0.032523225266316839 1e-12 "holm: D's p_adj"
is "$(col lo 3 holm)" "$(col lo 3 bonf)" "holm: the intervals are Bonferroni's"
like "$(grep '^# finding' holm | tail -n 1)" '^# finding: D took 0\.5515% more time than A \(the reference\).*Holm.s step-down over the 3 tests: p = 0\.03252, adjusted 0\.03252, at most 0\.05: D is slower \(the Bonferroni interval, wider than this test needs, still includes 1\)\.$' \
	"holm: resolves D, which the Bonferroni interval does not, and says so"
# C's lower bound is 1.0000554: four digits would read "1.000" beside a
# finding that says the interval excludes 1; it gets the digits that tell.
like "$(grep '^# finding: C ' holm)" '95% CI 1\.0001 to 1\.010 .*C is faster' \
	"a bound near 1 is not written as 1.000 beside 'excludes 1'"
run pb-tint --adjust holm --threshold 1.005 "$LR3"
is "$rc:$(rows "$T/out" | awk -F'\t' '{ printf "%s ", $NF }')" "0:above crosses below " \
	"holm with a threshold: a verdict per candidate from the step-down"
run pb-tint --finding "$LR3"
like "$(grep '^# finding' "$T/out" | head -n 1)" 'one of 3 comparisons, not adjusted: this interval holds on its own, not together with the others' \
	"without --adjust: the finding says each interval holds on its own"
like "$(meta pb-tint.adjust "$T/out")" '^none: each of the 3 intervals holds on its own at 0\.95' \
	"without --adjust: so does the metadata"
pb-pair --by-run "$D/raw-small.tsv" 2>/dev/null | pb-logratio | pb-tint >two.tint
is "$(grep -c '^# pb-tint.adjust' two.tint):$(row_count two.tint)" 0:1 \
	"two arms, without --adjust: no adjust line (as before)"
# --check: each candidate's finding cites pb-check's warnings about its
# own comparison (and the reference's), not the others'
printf 'arm\tcheck\tstatus\tvalue\tlo\thi\tunit\tnote\n' >chk.tsv
printf 'A\tpositions\twarn\t\t\t\tchi2\tnote about A.\n' >>chk.tsv
printf 'B\tspread\twarn\t\t\t\tratio\tnote about B.\n' >>chk.tsv
printf 'C\tspread\twarn\t\t\t\tratio\tnote about C.\n' >>chk.tsv
run pb-tint --finding --check chk.tsv "$LR3"
is "$rc:$(grep '^# finding' "$T/out" | while IFS= read -r l; do
	printf '%s\n' "$l" | grep -o 'arm [A-Z]: note about [A-Z]' | tr '\n' ' '; echo '|'; done | tr -d '\n')" \
	"0:arm A: note about A arm B: note about B |arm A: note about A arm C: note about C |arm A: note about A |" \
	"--check: each finding cites its own arm's warnings and the reference's"
grep -v '^A' chk.tsv >chk2.tsv
run pb-tint --finding --check chk2.tsv "$LR3"
like "$(grep '^# finding' "$T/out" | tail -n 1)" 'pb-check warned of nothing about this comparison\.$' \
	"--check: a candidate pb-check did not warn about says so"
fails 2 "^pb-tint: --adjust holm steps down on p values" "--adjust holm --sequential: refused" \
	pb-tint --adjust holm --sequential "$LR3"
fails 2 "^pb-tint: --adjust is bonferroni or holm, not 'sidak'" "--adjust sidak: refused" \
	pb-tint --adjust sidak "$LR3"

# --- pb-plot: a panel per candidate -------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	png() { set -- $(od -An -tu1 -N24 "$1" 2>/dev/null)
		echo "$((${17} * 16777216 + ${18} * 65536 + ${19} * 256 + ${20}))x$((${21} * 16777216 + ${22} * 65536 + ${23} * 256 + ${24}))"; }
	run pb-plot runs -o runs3.png w3.pairs
	is "$rc:$(png runs3.png)" "0:960x900" "pb-plot runs of 2 candidates: two panels, 960x900"
	run pb-plot pairs -o pairs3.svg w3.pairs
	is "$rc:$(grep -c 'against A: Distribution of d over 12 pairs' pairs3.svg)" "0:2" \
		"pb-plot pairs: a panel per candidate, each titled with its arm"
	run pb-plot trend w3.pairs
	is "$rc:$(grep -c 'C went first' "$T/out")" "0:1" "pb-plot trend: the candidate's legend names it"
else
	skip "pb-plot: gnuplot not installed"; skip "pb-plot pairs"; skip "pb-plot trend"
fi

# --- usage errors ---------------------------------------------------------
usage() {
	pat=$1 name=$2
	shift 2
	fails 2 "^pb-run: .*$pat" "usage: $name" pb-run "$@"
}
usage "at most 26 commands" "27 commands" -- 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
usage "--arms goes with --worker" "--arms with commands" --arms 3 -- true :
usage "--arms is 2 to 26" "--arms 1" --arms 1 --worker "$WK"
usage "--arms .*'27'" "--arms 27" --arms 27 --worker "$WK"
usage "--arms is 2 to 26 \(arms A to Z\), not '0'" "--arms 0: the same range as --arms 1" --arms 0 --worker "$WK"
usage "--delay-arm 'D': there is no arm D; the study has arms A to C" "--delay-arm D of 3 arms" --delay-arm D -- a b c
usage "--reference 'C': there is no arm C; the study has arms A and B \(--arms K for more\)" \
	"--reference C of a 2-arm worker" --reference C --worker "$WK"
usage "--delay-arm is an arm's letter, A to Z, not 'c'" "--delay-arm c" --delay-arm c -- a b c
usage "--sql wants an arm's letter, '=' and the SQL" "--sql without X=" --sql 'select 1' --pg ''
usage "the SQL of arm C is given twice" "--sql C twice" --pg '' --sql-a x --sql-b y --sql C=x --sql C=y
usage "the SQL of arm A is given twice" "--sql A= and --sql-a" --pg '' --sql A=x --sql-a y
usage "--sql D=... but no SQL for arm C" "--sql D without C" --pg '' --sql-a x --sql-b y --sql D=z
usage "--sql-a, --sql-b, --sql, --rollback and --setup-sql need --pg" "--sql without --pg" --sql C=x -- a b c

done_testing

#!/bin/sh
# A duet study (pb-run --duet: the arms of a pair run at once, each on its
# own CPU, both rows at pos 0) as pb-pair and pb-check read it: first is
# '=', cpu_a and cpu_b end each pair row, pos 0 only in a duet, and
# pb-check's duet_cpu in place of order and position.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

# --- pb-pair ------------------------------------------------------------------
# Two measured pairs of one run, with rusage columns, so that cpu_a and
# cpu_b must come after them; start_ns, each observation's own, is not
# carried into the pair's row.
tsv >duet.tsv <<'EOF'
# order: duet
# duet_cpus: 0,1
# pairs: 2
run|pair|phase|arm|pos|delay_ns|ns|status|spin_ns|user_ns|sys_ns|maxrss_kib|cpu|start_ns
1|1|warmup|A|0|0|900|0|0|10|1|100|1|5
1|1|warmup|B|0|0|950|0|0|11|2|101|0|7
1|1|measure|A|0|0|1000|0|0|20|3|102|0|12
1|1|measure|B|0|0|1100|0|0|21|4|103|1|3
1|2|measure|B|0|0|990|0|0|22|5|104|0|9
1|2|measure|A|0|0|1020|0|0|23|6|105|1|0
EOF
run pb-pair duet.tsv
ran_ok "duet: exit 0, nothing on stderr"
# d = b - a: 1100 - 1000 = 100, 990 - 1020 = -30; a_cpu = user + sys
# (CPU time); cpu_a, cpu_b the CPUs each arm was pinned to, last
tsv >want <<'EOF'
run|pair|first|a|b|d|delay|spin|a_user|b_user|a_sys|b_sys|a_maxrss|b_maxrss|a_cpu|b_cpu|cpu_a|cpu_b
1|1|=|1000|1100|100|0|0|20|21|3|4|102|103|23|25|0|1
1|2|=|1020|990|-30|0|0|23|22|6|5|105|104|29|27|1|0
EOF
grep -v '^#' "$T/out" >got
is_file got want "duet: first is =, cpu_a and cpu_b last, the arms' values"
like "$(meta pair "$T/out")" "first = '=': the arms ran together.*cpu_a, cpu_b \(last\) = the CPU" \
	"duet: the # pair: note says what = and cpu_a, cpu_b are"
run pb-pair --by-run duet.tsv
# the median of two is their mean: a 1010, b 1045, d 35; no CPU columns
is "$(grep -v '^#' "$T/out" | cut -f 1-8 | tr '\t' ' ')" \
	"$(printf 'run n a b d delay spin a_user\n1 2 1010 1045 35 0 0 21.5')" \
	"duet --by-run: the run's medians, and no cpu_a or cpu_b"

# A duet of three arms (pb-run's is two; pos 0 must not trip the reader
# of k arms): each candidate against A, first '=', places 0.
tsv >duet3.tsv <<'EOF'
# order: duet
# arms: 3
run|pair|phase|arm|pos|delay_ns|ns|status|cpu
1|1|measure|A|0|0|1000|0|0
1|1|measure|B|0|0|1100|0|1
1|1|measure|C|0|0|1200|0|2
EOF
run pb-pair duet3.tsv
is "$(grep -v '^#' "$T/out" | tr '\t' ' ')" \
	"$(printf 'run pair arm first a b d delay pos_a pos_b cpu_a cpu_b\n1 1 B = 1000 1100 100 0 0 0 0 1\n1 1 C = 1000 1200 200 0 0 0 0 2')" \
	"three arms in a duet: one row per candidate, first =, places 0"

# What is not a duet's: pos 0 outside one, another pos in one, a CPU that
# is not a CPU number, and the two arms of a pair on one CPU.
sed 's/^# order: duet$/# order: random/' duet.tsv >notduet.tsv
fails 1 "notduet.tsv:5: column 'pos': pos 0 \(together\) belongs to a duet study" \
	"pos 0 where the head's order is not duet: refused in one line" pb-pair notduet.tsv
awk -F'\t' -v OFS='\t' '!/^#/ && $3 == "measure" && $4 == "B" && $2 == 2 { $5 = 1 } 1' \
	duet.tsv >pos1.tsv
fails 1 "pos1.tsv:9: column 'pos': in a duet study .* at pos 0, got '1'" \
	"pos 1 in a duet: refused in one line" pb-pair pos1.tsv
awk -F'\t' -v OFS='\t' '!/^#/ && $2 == 2 && $4 == "A" { $13 = "-1" } 1' duet.tsv >badcpu.tsv
fails 1 "badcpu.tsv:10: column 'cpu': cpu must be a CPU number, a whole number >= 0, got '-1'" \
	"cpu -1: refused in one line" pb-pair badcpu.tsv
awk -F'\t' -v OFS='\t' '!/^#/ && $2 == 2 && $4 == "A" { $13 = "0" } 1' duet.tsv >onecpu.tsv
fails 1 "onecpu.tsv:10: run 1 pair 2: arms B and A both on CPU 0" \
	"both arms of a duet pair on one CPU: refused in one line" pb-pair onecpu.tsv

# pb-plot's trend: no pair is said to have gone first.
if command -v gnuplot >/dev/null 2>&1; then
	pb-pair duet.tsv >duet-pairs.tsv
	COLUMNS=100 run pb-plot trend duet-pairs.tsv
	like "$rc $(grep -c 'the arms ran together  ' "$T/out") $(grep -c 'went first' "$T/out")" '^0 1 0$' \
		"pb-plot trend of a duet: its pairs ran together, none went first"
else
	skip "pb-plot trend of a duet: gnuplot not installed"
fi

# --- pb-check -----------------------------------------------------------------
# duet KIND: 4 runs of 12 pairs; A has CPU 0 in the odd pairs and CPU 1 in
# the even ones, B the other. a = 1000000 + 20000 run. KIND none: b = a +
# 10000 whatever the CPU. KIND cpu1: B is 5% slower whenever it has CPU 1,
# b = 1.05 a there and a on CPU 0.
duet() {
	awk -v kind="$1" 'BEGIN {
		OFS = "\t"
		print "# order: duet"; print "# duet_cpus: 0,1"; print "# pairs: 12"
		print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status", "spin_ns", "cpu", "start_ns"
		for (r = 1; r <= 4; r++)
			for (p = 1; p <= 12; p++) {
				a = 1000000 + 20000 * r
				ca = p % 2 ? 0 : 1
				b = kind == "none" ? a + 10000 : 1 - ca == 1 ? a * 105 / 100 : a
				print r, p, "measure", "A", 0, 0, a, 0, 0, ca, 0
				print r, p, "measure", "B", 0, 0, b, 0, 0, 1 - ca, 40
			}
	}'
}
# row CHECK FILE: "status value lo hi" of row CHECK
row() { awk -F'\t' -v c="$1" '!/^#/ && $1 == c { print $2, $3, $4, $5 }' "$2"; }
note() { awk -F'\t' -v c="$1" '!/^#/ && $1 == c { print $7 }' "$2"; }

duet none >none.tsv
pb-pair none.tsv >none-pairs.tsv
run pb-check none-pairs.tsv
ran_ok "pb-check, a duet with no CPU effect: exit 0, nothing on stderr"
cp "$T/out" none-check.tsv
is "$(rows none-check.tsv | cut -f 1 | tr '\n' ' ' | sed 's/ $//')" \
	"effect duet_cpu carry_a carry_b drift_d drift_lr drift_level warmup warmup_d outliers partial bimodal spread skew env" \
	"duet: duet_cpu in place of order, order_run and position"
# d = 10000 in every pair, on either CPU: m1 = m2 in every run
is "$(row duet_cpu none-check.tsv)" "ok 0 0 0" "no CPU effect: duet_cpu ok, 0"
is "$(row effect none-check.tsv)" "ok 10000 10000 10000" "no CPU effect: the CPU-adjusted effect is d"
like "$(row carry_a none-check.tsv) $(note carry_a none-check.tsv)" "^n/a .*ran at once \(# order: duet\)" \
	"duet: carry n/a, nothing starts or ends a pair"
like "$(grep -c '^# pb-check\.duet_cpu: ' none-check.tsv) $(grep -c '^# pb-check\.\(order\|position\): ' none-check.tsv)" \
	'^1 0$' "duet: the method of duet_cpu, none of order or position"

duet cpu1 >cpu1.tsv
pb-pair cpu1.tsv >cpu1-pairs.tsv
run pb-check cpu1-pairs.tsv
ran_ok "pb-check, B 5% slower on CPU 1: exit 0, nothing on stderr"
cp "$T/out" cpu1-check.tsv
# Per run r, m1 = the median d where A had the second CPU, 1 (B CPU 0) = 0,
# m2 (A on CPU 0, B on CPU 1) = 0.05 a_r; duet_cpu = (m2 - m1)/2 = 0.025
# a_r, how much longer an arm takes on CPU 1: 25500 26000 26500 27000 for
# a_r = 1020000 ... 1080000, mean 26250, sd 645.497 (sqrt(1250000/3)), se
# 322.749; qt(0.995, 3) = 5.8409093 so the 99% CI is 26250 -/+ 1885.145:
# 24364.855 to 28135.145.
set -- $(row duet_cpu cpu1-check.tsv)
is "${1-}" warn "B 5% slower on CPU 1: duet_cpu warns"
near "${2-}" 26250 1e-12 "duet_cpu value: 26250, the mean of 0.025 a_r"
within "${3-}" 24364.855 0.01 "duet_cpu lo, by hand"
within "${4-}" 28135.145 0.01 "duet_cpu hi, by hand"
# 26250 over the median a, (1040000 + 1060000)/2: 2.5%
like "$(note duet_cpu cpu1-check.tsv)" \
	'^An arm takes 26\.25 .s \(2\.5%\) more time on CPU 1 than on CPU 0 \(99% CI 24\.36 .s to 28\.14 .s\), more than 25% of the effect' \
	"duet_cpu's note names CPU 1, where an arm is slower"
like "$(grep '^# pb-check\.warning: ' cpu1-check.tsv)" 'An arm takes 26\.25 .s \(2\.5%\) more time on CPU 1' \
	"the warning is said ahead of the rows"
# effect = mean((m1 + m2)/2) = 0.025 x mean(a_r) = 0.025 x 1050000
near "$(row effect cpu1-check.tsv | cut -d' ' -f2)" 26250 1e-12 "the CPU-adjusted effect: 26250"

# pb-check refuses what is not a duet's pair row.
sed 's/^# duet_cpus: 0,1$/# duet_cpus: 0,2/' cpu1-pairs.tsv >othercpu.tsv
fails 1 "othercpu.tsv:[0-9]+: cpu_a 0 and cpu_b 1: a duet pins its arms to the head's # duet_cpus: 0 and 2" \
	"pb-check: a CPU not of # duet_cpus: refused in one line" pb-check othercpu.tsv
sed 's/^# order: duet$/# order: random/' cpu1-pairs.tsv >first-eq.tsv
fails 1 "first-eq.tsv:[0-9]+: column 'first': '=' \(together\) belongs to a duet study" \
	"pb-check: first = where the order is not duet, refused in one line" pb-check first-eq.tsv

# A duet of three arms, without cpu: its places are all 0, so pb-check
# neither counts them (no positions rows) nor reads the CPUs (n/a).
awk 'BEGIN { OFS = "\t"; print "# order: duet"; print "# arms: 3"
	print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
	for (r = 1; r <= 3; r++) for (p = 1; p <= 8; p++)
		for (k = 0; k < 3; k++) print r, p, "measure", substr("ABC", k + 1, 1), 0, 0, 1000 + 10 * k + p, 0 }' |
	pb-pair >duet3-pairs.tsv
run pb-check duet3-pairs.tsv
ran_ok "pb-check, a duet of three arms: exit 0, nothing on stderr"
is "$(rows "$T/out" | awk -F'\t' '$2 ~ /^(effect|duet_cpu|positions|order)$/ { printf "%s %s %s,", $1, $2, $3 }')" \
	"B effect n/a,B duet_cpu n/a,C effect n/a,C duet_cpu n/a," \
	"three arms in a duet: duet_cpu n/a without cpu, and no positions or order rows"

done_testing

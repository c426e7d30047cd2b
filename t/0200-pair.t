#!/bin/sh
# pb-pair: raw stream to pair stream, --by-run, --exclude, bad rows, shards.
. "$(dirname "$0")/lib.sh"
cd "$D" || exit 1
V=$(sed -n 's/^VERSION = //p' ../../config.mk)
PAIR='# pair: d = b - a in ns (b is arm B, the candidate); delay = delay_b - delay_a; first = the arm that ran first'
head -n 8 raw-small.tsv >"$T/head"   # the pb-run metadata, before "# run: 1"

# raw-small.tsv by hand (measure rows; pos 1 = first):
#   run 1  pair 1  B 1000 first, A 1100   d = 1000 - 1100 = -100
#          pair 2  A 1200 first, B 1150   d = -50
#          pair 3  A 1300 first, B 1210   d = -90
#   run 2  pair 1  A 2000 first, B 1900   d = -100
#          pair 2  B 2100 first, A 2300   d = -200
#          pair 3  A 2200 first, B 2000   d = -200
# The warm-up pair of each run (2 rows each) is dropped: 4 rows.
run pb-pair raw-small.tsv
{
	cat "$T/head"
	tsv <<EOF
# run: 1 start=2026-11-30T05:00:00.000Z pid=100
# pb-pair: $V pb-pair raw-small.tsv
$PAIR
run|pair|first|a|b|d|delay
1|1|B|1100|1000|-100|0
1|2|A|1200|1150|-50|0
1|3|A|1300|1210|-90|0
# run: 2 start=2026-11-30T05:00:01.000Z pid=101
2|1|A|2000|1900|-100|0
2|2|B|2300|2100|-200|0
2|3|A|2200|2000|-200|0
# pb-pair.warmup_rows: 4 dropped
EOF
} >"$T/want"
is_file "$T/out" "$T/want" "pair stream of raw-small.tsv"
ran_ok "exit 0, nothing on stderr"

# --by-run: one row per run, the statistic of each arm; d = b - a.
#   median  run 1: a {1100,1200,1300} -> 1200, b {1000,1150,1210} -> 1150
#           run 2: a {2000,2300,2200} -> 2200, b {1900,2100,2000} -> 2000
#   mean    run 1: a 3600/3 = 1200, b 3360/3 = 1120, d = -80
#           run 2: a 6500/3, b 6000/3 = 2000; R: sprintf("%.17g", mean(c(2000,2300,2200)))
#           = 2166.6666666666665, sprintf("%.17g", 2000 - mean(c(2000,2300,2200)))
#           = -166.66666666666652 (both shortest: 17 digits are needed)
#   min     run 1: a 1100, b 1000; run 2: a 2000, b 1900
for s in median:'1|3|1200|1150|-50|0 2|3|2200|2000|-200|0' \
         mean:'1|3|1200|1120|-80|0 2|3|2166.6666666666665|2000|-166.66666666666652|0' \
         min:'1|3|1100|1000|-100|0 2|3|2000|1900|-100|0'; do
	stat=${s%%:*} r=${s#*:}
	run pb-pair --by-run --stat $stat raw-small.tsv
	{
		cat "$T/head"
		tsv <<EOF
# run: 1 start=2026-11-30T05:00:00.000Z pid=100
# run: 2 start=2026-11-30T05:00:01.000Z pid=101
# pb-pair: $V pb-pair --by-run --stat $stat raw-small.tsv
$PAIR
# pb-pair.by_run: $stat
# pb-pair.stat: $stat
# pb-pair.by_run.note: $stat of each arm per run; n = pairs; d = b - a
run|n|a|b|d|delay
${r% *}
${r#* }
# pb-pair.warmup_rows: 4 dropped
EOF
	} >"$T/want"
	is_file "$T/out" "$T/want" "--by-run --stat $stat"
done
run pb-pair --by-run raw-small.tsv
is "$(rows "$T/out" | tr '\t' ' ')" "$(printf '1 3 1200 1150 -50 0\n2 3 2200 2000 -200 0')" \
	"--by-run: median by default"
fails 2 "^pb-pair: --stat goes with --by-run" "--stat without --by-run" \
	pb-pair --stat mean raw-small.tsv
fails 2 "^pb-pair: --stat is median, mean, min, lr-median, p90, p99 or qQ \(a quantile such as q0.95\), not 'mode'" \
	"--stat mode" pb-pair --by-run --stat mode raw-small.tsv

# Quantiles (R's type 7) and lr-median, against R:
#   a1 <- c(1100,1200,1300); b1 <- c(1000,1150,1210); a2 <- c(2000,2300,2200); b2 <- c(1900,2100,2000)
#   sprintf("%.17g", c(quantile(a1, p), quantile(b1, p), quantile(b1, p) - quantile(a1, p)))
#   p90: 1280 1198 -82 | 2280 2080 -200     p99: 1298 1208.8 -89.200000000000045 | 2298 2098 -200
#   q0.25: 1150 1075 -75 | 2100 1950 -150
#   lr-median: median(log(a1/b1)), median(log(a2/b2)) are ln(1300/1210) and ln(2300/2100);
#   bc -l, scale=30: l(13/12.1) .071743904858841331947, l(23/21) .090971778205726694306
#   (R's log of the rounded ratio, 0.071743904858841315 and 0.090971778205726786, is
#   off by 2e-16 and 1e-15: the log1p form is the accurate one)
for s in p90:'1280 1198 -82 2280 2080 -200' p99:'1298 1208.8 -89.200000000000045 2298 2098 -200' \
         q0.25:'1150 1075 -75 2100 1950 -150'; do
	stat=${s%%:*}
	set -- ${s#*:}
	run pb-pair --by-run --stat $stat raw-small.tsv
	ran_ok "--stat $stat: exit 0, nothing on stderr, rows"
	k=0
	for c in a b d; do
		k=$((k + 1))
		near "$(col $c 1 "$T/out")" "$(eval echo \${$k})" 1e-15 "--stat $stat: run 1 $c as R"
		near "$(col $c 2 "$T/out")" "$(eval echo \${$((k + 3))})" 1e-15 "--stat $stat: run 2 $c as R"
	done
	is "$(meta pb-pair.by_run "$T/out")|$(meta pb-pair.stat "$T/out")" "$stat|$stat" \
		"--stat $stat: the keys pb-pair.by_run and pb-pair.stat say $stat"
	like "$(cat "$T/out")" "^# pb-pair.by_run.note: $stat of each arm per run \(quantile [0-9.]+, R's type 7\); " \
		"--stat $stat: the note names it, with its quantile"
done
run pb-pair --by-run --stat lr-median raw-small.tsv
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "0:run n a b d delay lr" \
	"--stat lr-median: the by-run columns and lr"
near "$(col lr 1 "$T/out")" .071743904858841331947 1e-15 "--stat lr-median: run 1 lr = median of ln(a/b), as R"
near "$(col lr 2 "$T/out")" .090971778205726694306 1e-15 "--stat lr-median: run 2 lr, as R"
is "$(rows "$T/out" | cut -f 1-6 | tr '\t' ' ' | tr '\n' ,)" "1 3 1200 1150 -50 0,2 3 2200 2000 -200 0," \
	"--stat lr-median: a, b, d, delay as --stat median"
like "$(cat "$T/out")" '^# log_ratio: lr = median over the run.s pairs of ln\(a/b\); ' \
	"--stat lr-median: lr declared a log ratio"
is "$(meta pb-pair.by_run "$T/out")|$(meta pb-pair.stat "$T/out")" "median|lr-median" \
	"--stat lr-median: pb-pair.by_run says a and b are medians, pb-pair.stat lr-median"
cp "$T/out" "$T/lrmed"
fails 1 "^pb-logratio: .*: column 'lr' exists already: pb-pair --by-run --stat lr-median wrote it, .*without pb-logratio\$" \
	"pb-logratio on lr-median's stream: says to leave it out" pb-logratio "$T/lrmed"
run pb-tint --finding "$T/lrmed"
ran_ok "pb-tint on lr-median's stream: exit 0, no message, a row"
like "$(cat "$T/out")" "^# finding: .*\(t interval over per-run medians of the paired log ratios, n = 2 runs, df = 1\)" \
	"pb-tint on lr-median's stream: a log ratio, the statistic named"
for q in p99:'per-run 99th percentiles' q0.9:'per-run 90th percentiles' q0.125:'per-run 12.5th percentiles' \
         q0.02:'per-run 2nd percentiles' q0.21:'per-run 21st percentiles' mean:'per-run means' min:'per-run minima'; do
	pb-pair --by-run --stat ${q%%:*} raw-small.tsv | pb-logratio | pb-tint --finding >"$T/f"
	like "$(cat "$T/f")" "^# finding: .*\(t interval over ${q#*:}, n = 2 runs, df = 1\)" \
		"pb-pair --by-run --stat ${q%%:*} | pb-logratio | pb-tint --finding: ${q#*:}"
done
pb-pair --by-run raw-small.tsv | pb-logratio | pb-tint --finding >"$T/f"
like "$(cat "$T/f")" "^# finding: .*\(t interval, n = 2 runs, df = 1\)" \
	"--stat median (the default): the finding as it was"
for a in q q2 q-0.5 qx; do
	fails 2 "^pb-pair: --stat $a: a quantile is q and a number from 0 to 1" "--stat $a: exit 2" \
		pb-pair --by-run --stat $a raw-small.tsv
done

# --exclude drops whole runs and records why (argv quoted as the shell needs).
run pb-pair --exclude 2 --why 'noisy neighbour' raw-small.tsv
is "$(rows "$T/out" | cut -f 1 | sort -u)" 1 "--exclude 2: only run 1 left"
is "$(rows "$T/out" | wc -l | tr -d ' ')" 3 "--exclude 2: its 3 pairs"
like "$(cat "$T/out")" "^# pb-pair.excluded: runs 2; why: noisy neighbour\$" "--exclude: the reason in the metadata"
like "$(cat "$T/out")" "^# pb-pair: $V pb-pair --exclude 2 --why 'noisy neighbour' raw-small.tsv\$" \
	"--exclude: provenance, quoted"
run pb-pair --by-run --exclude 1 --why x raw-small.tsv
is "$(rows "$T/out" | tr '\t' ' ')" "2 3 2200 2000 -200 0" "--by-run --exclude 1"
fails 2 "^pb-pair: --exclude needs --why" "--exclude without --why" pb-pair --exclude 2 raw-small.tsv
fails 2 "^pb-pair: --exclude needs --why" "--exclude with an empty --why" \
	pb-pair --exclude 2 --why '' raw-small.tsv
fails 2 "^pb-pair: --why goes with --exclude" "--why without --exclude" pb-pair --why x raw-small.tsv
fails 2 "^pb-pair: --exclude wants run numbers" "--exclude 2,x" \
	pb-pair --exclude 2,x --why x raw-small.tsv
fails 1 "^pb-pair: --exclude: no run 5 in the input\$" "--exclude of a run not present" \
	pb-pair --exclude 5 --why x raw-small.tsv
fails 1 "^pb-pair: raw-small.tsv: no measured pairs left after --exclude\$" \
	"--exclude of every run" pb-pair --exclude 1-2 --why x raw-small.tsv

# Bad raw rows: "pb-pair: FILE:LINE: what", exit 1.
H='run|pair|phase|arm|pos|delay_ns|ns|status'
mk() { f=$T/$1.tsv; shift; printf '%s\n' "$H" "$@" | tsv >"$f"; }
A1='1|1|measure|A|1|0|1100|0' B1='1|1|measure|B|2|0|1000|0'
mk arm-missing "$A1" "$B1" '1|2|measure|A|1|0|1200|0'
fails 1 "^pb-pair: .*/arm-missing.tsv:4: run 1 pair 2: arm A has no arm B\$" \
	"arm B missing from the last pair" pb-pair "$T/arm-missing.tsv"
mk arm-missing2 '1|1|measure|B|1|0|1000|0' '1|2|measure|A|1|0|1200|0' '1|2|measure|B|2|0|1150|0'
fails 1 "^pb-pair: .*/arm-missing2.tsv:2: run 1 pair 1: arm B has no arm A\$" \
	"arm A missing, found at the end" pb-pair "$T/arm-missing2.tsv"
mk arm-twice "$A1" '1|1|measure|A|2|0|1000|0'
fails 1 "^pb-pair: .*/arm-twice.tsv:3: run 1 pair 1: arm A twice \(also line 2\)\$" \
	"arm twice in a pair" pb-pair "$T/arm-twice.tsv"
mk arm-c "$A1" '1|1|measure|C|2|0|1000|0'
fails 1 "^pb-pair: .*/arm-c.tsv:3: column 'arm': unknown arm 'C' \(A or B\)\$" \
	"unknown arm C" pb-pair "$T/arm-c.tsv"
for v in 1000.5 1e3 -1000 0 '' x; do
	mk ns "$A1" "1|1|measure|B|2|0|$v|0"
	fails 1 "^pb-pair: .*/ns.tsv:3: column 'ns': time must be a whole number of ns > 0, got '$v'\$" \
		"ns '$v' refused" pb-pair "$T/ns.tsv"
done
mk phase "$A1" '1|1|bench|B|2|0|1000|0'
fails 1 "^pb-pair: .*/phase.tsv:3: column 'phase': unknown phase 'bench' \(warmup or measure\)\$" \
	"unknown phase" pb-pair "$T/phase.tsv"
mk pos11 "$A1" '1|1|measure|B|1|0|1000|0'
fails 1 "^pb-pair: .*/pos11.tsv:3: run 1 pair 1: both arms at pos 1\$" \
	"both arms at pos 1" pb-pair "$T/pos11.tsv"
mk pos3 "$A1" '1|1|measure|B|3|0|1000|0'
fails 1 "^pb-pair: .*/pos3.tsv:3: column 'pos': pos must be 1 or 2" \
	"pos 3" pb-pair "$T/pos3.tsv"
mk dup-pair "$A1" "$B1" "$A1" "$B1"
fails 1 "^pb-pair: .*/dup-pair.tsv:4: run 1 pair 1: the pair appears twice\$" \
	"duplicate pair" pb-pair "$T/dup-pair.tsv"
mk run-x "$A1" 'x|1|measure|B|2|0|1000|0'
fails 1 "^pb-pair: .*/run-x.tsv:3: column 'run': run must be a whole number" \
	"run not a number" pb-pair "$T/run-x.tsv"
mk status-x "$A1" '1|1|measure|B|2|0|1000|ok'
fails 1 "^pb-pair: .*/status-x.tsv:3: column 'status': status must be a whole number" \
	"status not a number" pb-pair "$T/status-x.tsv"
mk warmup-only '1|1|warmup|A|1|0|1100|0' '1|1|warmup|B|2|0|1000|0'
fails 1 "^pb-pair: .*/warmup-only.tsv: no measured pairs left\$" \
	"warm-up rows only" pb-pair "$T/warmup-only.tsv"
printf 'run\tpair\tphase\tarm\tpos\tdelay_ns\tns\n1\t1\tmeasure\tA\t1\t0\t1\n' >"$T/nostatus.tsv"
fails 1 "^pb-pair: .*/nostatus.tsv: no column 'status' \(columns: run pair phase arm pos delay_ns ns\)\$" \
	"missing column named" pb-pair "$T/nostatus.tsv"

# Many open pairs at once: 3 runs of 300 pairs, all A halves first, then
# the B halves in reverse order. a = 100000 + 1000 run + pair,
# b = a - (pair % 7 + 1), so d = -(pair % 7 + 1).
awk 'BEGIN { OFS = "\t"; print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
	for (r = 1; r <= 3; r++) {
		for (p = 1; p <= 300; p++) print r, p, "measure", "A", 1, 0, 100000 + 1000 * r + p, 0
		for (p = 300; p >= 1; p--) print r, p, "measure", "B", 2, 0, 100000 + 1000 * r + p - (p % 7 + 1), 0
	} }' >"$T/many.tsv"
run pb-pair "$T/many.tsv"
is "$rc:$(rows "$T/out" | awk -F'\t' '$4 == 100000 + 1000 * $1 + $2 && $6 == -($2 % 7 + 1) &&
	$3 == "A" && !seen[$1 " " $2]++ { n++ } END { print n }')" "0:900" \
	"900 pairs open at once: each joined once, right a and d"
run pb-pair --by-run --stat min "$T/many.tsv"
is "$(rows "$T/out" | cut -f 1-3 | tr '\t\n' ': ')" "1:300:101001 2:300:102001 3:300:103001 " \
	"900 pairs --by-run: 300 per run"

# Pairs joined out of order are held until the gap below them closes; a
# pair that comes again is still caught, before and after.
mk order "1|3|measure|A|1|0|1300|0" "1|3|measure|B|2|0|1200|0" "$A1" "$B1" \
	'1|2|measure|A|1|0|1200|0' '1|2|measure|B|2|0|1100|0' '1|3|measure|A|1|0|1|0'
fails 1 "^pb-pair: .*/order.tsv:8: run 1 pair 3: the pair appears twice\$" \
	"pair 3, 1, 2, then 3 again: twice (the gap closed)" pb-pair "$T/order.tsv"
mk order2 "1|3|measure|A|1|0|1300|0" "1|3|measure|B|2|0|1200|0" '1|3|measure|B|2|0|1|0'
fails 1 "^pb-pair: .*/order2.tsv:4: run 1 pair 3: the pair appears twice\$" \
	"pair 3, then 3 again before 1 and 2: twice (held above the gap)" pb-pair "$T/order2.tsv"

# peak_kb CMD...: the peak resident memory of CMD in kB (GNU time), its
# output thrown away; empty without GNU time, or when CMD fails or
# writes no rows.
peak_kb() {
	/usr/bin/time -f '%x %M' -o "$T/rss" "$@" >"$T/peak.out" 2>&1
	[ -n "$(rows "$T/peak.out" | head -n 1)" ] && tail -n 1 "$T/rss" | awk '$1 == 0 { print $2 }'
}
# grew_less SMALL BIG NAME: both measured, BIG - SMALL under 16 MB
grew_less() {
	if nums "$1" "$2" && [ $(($2 - $1 < 16384)) = 1 ]; then ok "$3"; else not_ok "$3"; fi
}
rss_ok() { [ "${PB_VALGRIND:-0}" != 1 ] && /usr/bin/time -f %M -o "$T/rss" true 2>/dev/null; }
# Memory follows the pairs still open, not the pair numbers: 20 runs of one
# pair numbered 100000000 (a bitmap of pair numbers took 12.5 MB a run),
# against the same with pair 1.
awk -v p=100000000 'BEGIN { OFS = "\t"; print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
	for (r = 1; r <= 20; r++) { print r, p, "measure", "A", 1, 0, 1000, 0; print r, p, "measure", "B", 2, 0, 900, 0 } }' \
	>"$T/big-pair.tsv"
sed '2,$s/\t100000000\t/\t1\t/' "$T/big-pair.tsv" >"$T/pair-1.tsv"
run pb-pair "$T/big-pair.tsv"
is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:20" "20 runs of pair 100000000: 20 pairs"
if rss_ok; then
	small=$(peak_kb pb-pair "$T/pair-1.tsv") big=$(peak_kb pb-pair "$T/big-pair.tsv")
	grew_less "$small" "$big" "pair 100000000 in 20 runs: at most 16 MB more than pair 1 (got $small kB, $big kB)"
else
	skip "pair 100000000 in 20 runs: memory (needs GNU time, not under valgrind)"
fi

# An open pair holds the rows read of it, not one half per arm of the
# head: 30 000 pairs of 26 arms whose A rows all come first cost little
# more than the same pairs of 2 arms (each half per arm took 2 kB a pair).
if rss_ok; then
	open_pairs() {
		awk -v k="$1" 'BEGIN { OFS = "\t"; if (k > 2) print "# arms: " k
			print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
			for (p = 1; p <= 30000; p++) print 1, p, "measure", "A", 1, 0, 1000, 0
			for (p = 1; p <= 30000; p++) for (a = 1; a < k; a++)
				print 1, p, "measure", substr("ABCDEFGHIJKLMNOPQRSTUVWXYZ", a + 1, 1), a + 1, 0, 900, 0 }'
	}
	open_pairs 2 >"$T/open2.tsv"
	open_pairs 26 >"$T/open26.tsv"
	run pb-pair "$T/open26.tsv"
	is "$rc:$(rows "$T/out" | wc -l | tr -d ' ')" "0:750000" "30 000 pairs of 26 arms, A rows first: 25 rows each"
	# (under ASan without its quarantine, which keeps freed halves)
	small=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0 peak_kb pb-pair "$T/open2.tsv")
	big=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0 peak_kb pb-pair "$T/open26.tsv")
	grew_less "$small" "$big" "30 000 open pairs of 26 arms: at most 16 MB more than of 2 (got $small kB, $big kB)"
	rm -f "$T/open2.tsv" "$T/open26.tsv" "$T/out"
else
	skip "30 000 open pairs of 26 arms: rows (needs GNU time, not under valgrind)"
	skip "30 000 open pairs of 26 arms: memory (needs GNU time, not under valgrind)"
fi

# Comments among the rows pass through, and are not kept: 2 000 000 of
# them (60 MB) cost little more memory than none.
if rss_ok; then
	awk 'BEGIN { OFS = "\t"; print "run", "pair", "phase", "arm", "pos", "delay_ns", "ns", "status"
		print 1, 1, "measure", "A", 1, 0, 1000, 0
		for (i = 0; i < 2000000; i++) print "# note: a comment among the rows, number " i
		print 1, 1, "measure", "B", 2, 0, 900, 0 }' >"$T/comments.tsv"
	run pb-pair "$T/comments.tsv"
	is "$rc:$(grep -c '^# note: ' "$T/out")" "0:2000000" "2 000 000 comments among the rows: all passed through"
	small=$(peak_kb pb-pair "$T/pair-1.tsv") big=$(peak_kb pb-pair "$T/comments.tsv")
	grew_less "$small" "$big" "2 000 000 comments: at most 16 MB more than none (got $small kB, $big kB)"
	rm -f "$T/comments.tsv" "$T/out"
else
	skip "2 000 000 comments: passed through (needs GNU time, not under valgrind)"
	skip "2 000 000 comments: memory (needs GNU time, not under valgrind)"
fi

# A stream cut mid-row: its last line has no line feed. The row is still
# read, with one warning that names the line; a field cut into something
# that is not a number is an error, one line.
head -c -1 raw-small.tsv >"$T/cut-lf.tsv"
run pb-pair "$T/cut-lf.tsv"
is "$rc:$(cat "$T/err")" "0:pb-pair: $T/cut-lf.tsv:27: the last line has no line feed (a cut stream?)" \
	"no line feed at the end: exit 0, one warning with file:line"
is "$(rows "$T/out" | tail -n 1 | tr '\t' ' ')" "2 3 A 2200 2000 -200 0" "... the last row is used"
run pb-pair --by-run "$T/cut-lf.tsv"
is "$rc:$(cat "$T/err")" "0:pb-pair: $T/cut-lf.tsv:27: the last line has no line feed (a cut stream?)" \
	"--by-run: the same warning"
head -c -3 raw-small.tsv >"$T/cut-row.tsv"
fails 1 "^pb-pair: .*/cut-row.tsv:27: 7 fields, header has 8\$" \
	"a row cut inside its fields: one error, no warning" pb-pair "$T/cut-row.tsv"

# Streams glued with cat: a row equal to the header says so.
cat raw-small.tsv raw-shard2.tsv | run pb-pair
is "$rc:$(cat "$T/err")" "1:pb-pair: stdin:37: a second header: concatenate streams by giving pb-pair the files, not cat" \
	"cat of two streams: the second header named, with the fix"

# status != 0: the pair goes, with a warning and a count in the metadata.
run pb-pair raw-status.tsv
is "$rc:$(cat "$T/err")" "0:pb-pair: dropped 1 pair with a failed observation (status != 0)" \
	"failed observation: warning, exit 0"
is "$(rows "$T/out" | cut -f 2 | tr '\n' ' ')" "1 3 " "failed observation: pair 2 dropped"
like "$(cat "$T/out")" "^# pb-pair.failed_pairs: 1$" "failed observation: counted in the metadata, a number alone"
run pb-pair --by-run raw-status.tsv
# pairs 1 and 3: a median(1100, 1300) = 1200, b median(1000, 1210) = 1105
is "$(rows "$T/out" | tr '\t' ' ')" "1 2 1200 1105 -95 0" "failed observation: --by-run over the 2 left"

# Extra columns pass through, arm A's value; delay = delay_b - delay_a.
#   pair 1: B 1040 (delay 50) first, A 1000 -> d 40, delay 50, host ha, core c1
#   pair 2: A 1010 first, B 1070 (delay 50) -> d 60, delay 50
#   by run (median of two = mean): a 1005, b 1055, d 50, delay 50
run pb-pair raw-host.tsv
tsv >"$T/want" <<EOF
run|pair|first|a|b|d|delay|host|core
1|1|B|1000|1040|40|50|ha|c1
1|2|A|1010|1070|60|50|ha2|c2
EOF
grep -v '^#' "$T/out" >"$T/got"
is_file "$T/got" "$T/want" "extra columns pass through"
run pb-pair --by-run raw-host.tsv
is "$(grep -v '^#' "$T/out" | tr '\t' ' ')" "$(printf 'run n a b d delay host core\n1 2 1005 1055 50 50 ha c1')" \
	"extra columns pass through --by-run"

# Shards: other run numbers, same design: merged like cat.
#   run 3: a {1150,1250,1180} -> 1180, b {1100,1050,1120} -> 1100
#   run 4: a {1950,2050,2150} -> 2050, b {1800,1880,1990} -> 1880
run pb-pair raw-small.tsv raw-shard2.tsv
ran_ok "two shards: exit 0"
tsv >"$T/want" <<EOF
1|1|B|1100|1000|-100|0
1|2|A|1200|1150|-50|0
1|3|A|1300|1210|-90|0
2|1|A|2000|1900|-100|0
2|2|B|2300|2100|-200|0
2|3|A|2200|2000|-200|0
3|1|A|1150|1100|-50|0
3|2|B|1250|1050|-200|0
3|3|A|1180|1120|-60|0
4|1|B|1950|1800|-150|0
4|2|A|2050|1880|-170|0
4|3|B|2150|1990|-160|0
EOF
rows "$T/out" >"$T/got"
is_file "$T/got" "$T/want" "two shards: pairs of runs 1-4"
is "$(grep -c '^run' "$T/out"):$(grep '^# pb-pair.warmup' "$T/out")" "1:# pb-pair.warmup_rows: 8 dropped" \
	"two shards: one header, warm-up rows of both counted"
run pb-pair --by-run raw-small.tsv raw-shard2.tsv
is "$(rows "$T/out" | tr '\t' ' ')" "$(printf '1 3 1200 1150 -50 0\n2 3 2200 2000 -200 0\n3 3 1180 1100 -80 0\n4 3 2050 1880 -170 0')" \
	"two shards --by-run"

TAB=$(printf '\t')
sed "s/T06:/T07:/; s/^3$TAB/1$TAB/" raw-shard2.tsv >"$T/run1-again.tsv"
fails 1 "^pb-pair: .*/run1-again.tsv:13: run 1 is also in raw-small.tsv" \
	"same run number in two shards: both named" pb-pair raw-small.tsv "$T/run1-again.tsv"
sed 's|^# cmd_b: ./new$|# cmd_b: ./newer|' raw-shard2.tsv >"$T/cmd-b.tsv"
fails 1 "^pb-pair: raw-small.tsv and .*/cmd-b.tsv disagree on 'cmd_b' \(./new vs ./newer\)" \
	"different cmd_b: error names the key" pb-pair raw-small.tsv "$T/cmd-b.tsv"
grep -v '^# pairs:' raw-shard2.tsv >"$T/no-pairs.tsv"
fails 1 "^pb-pair: raw-small.tsv and .*/no-pairs.tsv disagree on 'pairs' \(3 vs absent\)" \
	"design key missing from a shard" pb-pair raw-small.tsv "$T/no-pairs.tsv"
sed 's/^# pb-run: 0.1.0 /# pb-run: 0.2.0 /' raw-shard2.tsv >"$T/version.tsv"
fails 1 "^pb-pair: raw-small.tsv and .*/version.tsv come from different pb versions \(0.1.0 vs 0.2.0\)" \
	"different pb version" pb-pair raw-small.tsv "$T/version.tsv"
# The same start, pid and host: a copy of run 1 (a start stamp alone may
# be shared by shards started together).
sed 's/^# run: 3 start=.*/# run: 3 start=2026-11-30T05:00:00.000Z pid=100/' \
	raw-shard2.tsv >"$T/stamp.tsv"
fails 1 "^pb-pair: raw-small.tsv and .*/stamp.tsv both hold a run with start=2026-11-30T05:00:00.000Z" \
	"the same run stamp in two shards" pb-pair raw-small.tsv "$T/stamp.tsv"
# Design keys are read from each file's head only: a line among the rows
# (what a worker printed could forge one) neither hides a disagreement nor
# makes one. Here the first file's rows end with forged lines, read before
# the second file is checked.
{ cat raw-small.tsv; echo '# cmd_b: ./newer'; } >"$T/forged1.tsv"
sed 's|^# cmd_b: ./new$|# cmd_b: ./newer|' raw-shard2.tsv >"$T/newer.tsv"
fails 1 "^pb-pair: .*/forged1.tsv and .*/newer.tsv disagree on 'cmd_b' \(./new vs ./newer\)" \
	"a forged design line among the rows does not hide a different cmd_b" \
	pb-pair "$T/forged1.tsv" "$T/newer.tsv"
{ cat raw-small.tsv; echo '# pairs: 4'; } >"$T/forged2.tsv"
run pb-pair "$T/forged2.tsv" raw-shard2.tsv
is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::12" \
	"a design line among the rows is not the design: merged"

# Every head key that changes what was measured is compared (pb-pair(1)):
# each one added to the second shard's head is a disagreement.
for kv in 'shell: none' 'setup: ./warm' 'prepare: sync' 'cleanup: ./stop' 'timeout_ns: 1000' \
          'ignore_failure: yes' "conninfo: host='db1' (password, if any, removed)" \
          'worker: ./w' 'sql_a: select 1' 'rollback: yes' 'setup_sql: create x' \
          'design: A/A' 'delay_arm: A' 'clock: CLOCK_MONOTONIC'; do
	k=${kv%%:*}
	sed "1a\\
# $kv" raw-shard2.tsv >"$T/key.tsv"
	fails 1 "^pb-pair: raw-small.tsv and .*/key.tsv disagree on '$k' \(absent vs " \
		"shards that differ in $k: refused" pb-pair raw-small.tsv "$T/key.tsv"
done
sed 's/^# mode: command$/# mode: pg/' raw-shard2.tsv >"$T/key.tsv"
fails 1 "^pb-pair: raw-small.tsv and .*/key.tsv disagree on 'mode' \\(command vs pg\\)" \
	"shards that differ in mode: refused" pb-pair raw-small.tsv "$T/key.tsv"
# ... and keys that differ between shards of one study are not.
for kv in 'host: h2' 'kernel: Linux 9' 'cpu: other' 'start: 2026-12-01T00:00:00.000Z' 'seed: 99' \
          'first_run: 3' 'runs: 9' 'study: 0123456789abcdef' 'output: /tmp/o' \
          'server_version: 17.0'; do
	sed "1a\\
# $kv" raw-shard2.tsv >"$T/key.tsv"
	run pb-pair raw-small.tsv "$T/key.tsv"
	is "$rc:$(cat "$T/err"):$(rows "$T/out" | wc -l | tr -d ' ')" "0::12" "shards that differ in ${kv%%:*}: merged"
done

# A long value is never cut silently: the part around the difference is
# shown, "..." where it is cut (a cut at 60 bytes showed "--us 15" for
# "--us 150").
long=/home/someone/work/a-rather-long-directory/benchmarks/bin/pb-workload
sed "s|^# cmd_b: ./new\$|# cmd_b: $long --us 150|" raw-small.tsv >"$T/long1.tsv"
sed "s|^# cmd_b: ./new\$|# cmd_b: $long --us 300|" raw-shard2.tsv >"$T/long2.tsv"
fails 1 "disagree on 'cmd_b' \(\.\.\.[a-z/-]+/pb-workload --us 150 vs \.\.\.[a-z/-]+/pb-workload --us 300\): shards" \
	"a long cmd_b: the differing end shown whole, the cut marked" pb-pair "$T/long1.tsv" "$T/long2.tsv"
sed "s|^# cmd_b: ./new\$|# cmd_b: $long --us 150 --and --many --more --words --after --it|" \
	raw-small.tsv >"$T/long1.tsv"
sed "s|^# cmd_b: ./new\$|# cmd_b: $long --us 300 --and --many --more --words --after --it|" \
	raw-shard2.tsv >"$T/long2.tsv"
fails 1 "\(\.\.\.[a-z/-]+/pb-workload --us 150 --and [a-z -]+\.\.\. vs \.\.\.[a-z/-]+/pb-workload --us 300 --and [a-z -]+\.\.\.\)" \
	"a difference in the middle: shown with context, both ends marked" pb-pair "$T/long1.tsv" "$T/long2.tsv"
like "$(cat "$T/err")" "^pb-pair: .{0,321}\$" "... in one line of at most 330 bytes"

# A half pair left in the first shard is reported with that shard's name.
head -n 17 raw-small.tsv >"$T/cut.tsv"   # ends with arm A of run 1 pair 3
fails 1 "^pb-pair: .*/cut.tsv:17: run 1 pair 3: arm A has no arm B\$" \
	"half pair in the first shard: named there" pb-pair "$T/cut.tsv" raw-shard2.tsv

# --- spin_ns, the realized delay: carried as spin = spin_b - spin_a
# (raw-small.tsv with a spin_ns column: B's = 1000 + pair, A's = pair)
awk -F'\t' -v OFS='\t' '/^#/ { print; next } !h++ { print $0, "spin_ns"; next }
	{ print $0, ($4 == "B" ? 1000 : 0) + $2 }' "$D/raw-small.tsv" >spin.tsv
run pb-pair spin.tsv
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "0:run pair first a b d delay spin" \
	"spin_ns in the raw stream: a spin column after delay"
rows "$T/out" | awk -F'\t' '$8 != 1000 { bad = 1 } END { exit bad || NR == 0 }'
is "$?" 0 "  spin = spin_b - spin_a = 1000 on every pair"
like "$(cat "$T/out")" '^# pair: .*; spin = spin_b - spin_a, the realized delay$' "  the # pair: line says what spin is"
run pb-pair --by-run spin.tsv
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "0:run n a b d delay spin" "--by-run: spin after delay"
is "$(rows "$T/out" | cut -f7 | sort -u)" 1000 "  the per-run median of spin"
run pb-pair "$D/raw-small.tsv"
is "$rc:$(grep -v '^#' "$T/out" | head -n 1 | tr '\t' ' ')" "0:run pair first a b d delay" \
	"a raw stream without spin_ns: no spin column"
awk -F'\t' -v OFS='\t' '/^#/ { print; next } !h++ { print $0, "spin_ns"; next } { print $0, -1 }' \
	"$D/raw-small.tsv" >spin-neg.tsv
fails 1 "column 'spin_ns': spin_ns must be a whole number of ns >= 0" "a negative spin_ns: refused" \
	pb-pair spin-neg.tsv

# --by-run holds every run: a run without its host is refused before any
# row, not after half of one
refuses 1 "^pb-pair: --host: run 1 has no .# run: 1 ... host=H. comment" \
	"--by-run --host, a run without its host: exit 1, one line, nothing on stdout" \
	pb-pair --by-run --host "$D/raw-small.tsv"
done_testing

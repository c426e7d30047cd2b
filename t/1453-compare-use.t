#!/bin/sh
# pb-compare: CPU time and peak memory beside the time, in the summary,
# report.md, the exports and the Makefile (issue 21); pb-run's floor of
# peak memory said where an arm is at it; worker mode without them; a
# failing step of theirs leaves the time's analysis whole.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
W=$top/examples/workload/pb-workload
cd "$T" || exit 1
# Under make valgrind pb-run is memcheck's process, whose resident set (the
# floor) lies above the children's peaks: what depends on the floor is
# not checked there, and the floor's note may follow any memory line.
vg=${PB_VALGRIND:-0} note=
[ "$vg" = 1 ] && note="( \\(.*\\))?"
# Each study has a budget of 600 s that only a defect misses, and its work
# is bounded by --runs and --pairs, not by what the clock affords.
B="-b 600s"

# --- 16 against 32 MiB, 2 against 150 ms of CPU: both resolved, B uses more.
# Touching a page costs CPU time too (4 ms a MiB on this VM, and several
# times that when the machine is loaded), so the 148 ms between the arms'
# own burns keep B's CPU time above A's by more than load can hide: 6 ms
# left the ratio at 0.53 whose interval, on a loaded CI, reached 1.48.
run pb-compare -v $B -r 8 -p 5 --dir mem --no-shell -- "$W --alloc-mib 16 --cpu-us 2000" \
	"$W --alloc-mib 32 --cpu-us 150000"
cp "$T/out" mem.out
exited_ok "16 vs 32 MiB: exit 0"
like "$(grep -Ec '^   CPU time median [0-9.]* (n|µ|m)s  peak memory median [0-9.]* MiB$' mem.out)" '^2$' \
	"  each arm's median CPU time and peak memory, in human units"
cpu=$(grep '^   CPU time: ' mem.out)
like "$cpu" '^   CPU time: A/B 0\.[0-9]+, 95% CS 0\.[0-9]+ to 0\.[0-9]+: B uses [0-9.]+% more$' \
	"  the CPU time ratio under the time's, its sequence, B uses more"
memline=$(grep '^   peak memory: ' mem.out)
like "$memline" "^   peak memory: A/B 0\\.[0-9]+, 95% CS 0\\.[0-9]+ to 0\\.[0-9]+: B uses [0-9.]+% more$note\$" \
	"  the peak memory ratio: about (16 + b)/(32 + b), no floor note above pb-run's own"
# the ratio of peak memory: (16 MiB + b)/(32 MiB + b) for the process's
# own baseline b, which lies between 0 and pb-run's floor: 0.5 to 0.56
# (b = 2 MiB gives 18/34 = 0.529).
mr=$(jq -r '.comparisons[0].peak_memory.ratio' mem/compare.json)
if [ -n "${ASAN_OPTIONS:-}" ]; then   # ASan's shadow memory is in every peak
	skip "  compare.json: memory.ratio $mr in (0.5, 0.56) (ASan build)"
else
	like "$(awk -v r="$mr" 'BEGIN { print (r >= 0.499 && r < 0.56) ? "in" : "out" }')" '^in$' \
		"  compare.json: memory.ratio $mr in [0.5, 0.56) (b is 0 for a static musl workload)"
fi
is "$(jq -r '[.comparisons[0].cpu_time.verdict, .comparisons[0].peak_memory.verdict] | join(" ")' mem/compare.json)" \
	"more more" "  compare.json: cpu_time and peak_memory verdicts"
is "$(jq -r --arg vg "$vg" '[.arms[] | (.cpu_median_ns > 0 and .memory_median_kib >= 16384 and (.memory_at_floor == false or $vg == "1"))] | join(" ")' mem/compare.json)" \
	"true true" "  compare.json: each arm's medians (memory above 16 MiB, not at pb-run's floor)"
like "$(jq -r '.design.maxrss_floor_kib' mem/compare.json)" '^[0-9]+$' "  compare.json: pb-run's floor"
for f in runs-cpu.tsv tint-cpu.tsv runs-memory.tsv tint-memory.tsv; do
	is "$(test -s "mem/$f" && echo there)" there "  $f is in the study directory"
done
like "$(meta log_ratio mem/runs-memory.tsv)" '^lr_memory = ln\(a_maxrss/b_maxrss\)' \
	"  runs-memory.tsv: pb-logratio --a a_maxrss --b b_maxrss --name lr_memory"
like "$(meta log_ratio mem/runs-cpu.tsv)" '^lr_cpu = ln\(a_cpu/b_cpu\)' "  runs-cpu.tsv: of a_cpu/b_cpu, lr_cpu"
same_value "$(meta pb-tint.method mem/tint-memory.tsv 2>/dev/null)" "$(meta pb-tint.method mem/tint.tsv 2>/dev/null)" \
	"  tint-memory.tsv: the same kind of interval as the time's (the study stopped by its rule)"

# the exports, and make redoing them from raw.tsv byte for byte
pb-compare --from mem --export-csv mem.csv --export-markdown mem.md >/dev/null 2>&1
is "$(head -n 1 mem.csv)" "arm,command,median_ns,q1_ns,q3_ns,ratio,ratio_lo,ratio_hi,reduction,verdict,cpu_median_ns,memory_median_kib,cpu_ratio,cpu_ratio_lo,cpu_ratio_hi,memory_ratio,memory_ratio_lo,memory_ratio_hi,memory_at_floor" \
	"CSV: the medians, ratios and intervals of CPU time and peak memory at the end"
is "$(awk -F, 'NR == 2 { print $13, $16 } NR == 3 { print ($13 > 0 && $13 < 1), $16 == '"$mr"' }' mem.csv | tr '\n' ' ')" \
	"1 1 1 1 " "  CSV: the reference's ratios 1, B's the JSON's"
like "$(sed -n 1p mem.md)" '\| CPU time \| Peak memory \|$' "markdown: the two columns"
like "$(sed -n 4p mem.md)" "\\| [0-9.]+ ms \\(A/B 0\\.[0-9]+, 0\\.[0-9]+ to 0\\.[0-9]+\\) \\| [0-9.]+ MiB$note \\(A/B 0\\.[0-9]+, 0\\.[0-9]+ to 0\\.[0-9]+\\) \\|\$" \
	"  B's row: medians and ratios with their intervals"
like "$(grep -A 3 '^## CPU time and peak memory' mem/report.md | sed -n 3p)" '^- B against A, CPU time: A/B ' \
	"report.md: a section of them"
cp -r mem redo
rm redo/runs-cpu.tsv redo/tint-cpu.tsv redo/runs-memory.tsv redo/tint-memory.tsv redo/report.md
make -s -C redo >/dev/null 2>&1
for f in tint-cpu.tsv tint-memory.tsv report.md; do
	same_remade "redo/$f" "mem/$f" "make remakes $f byte for byte"
done

# set_cols FILE NAME=VALUE...: FILE's data rows with those columns set
set_cols() {
	f=$1
	shift
	awk -F'\t' -v OFS='\t' -v sets="$*" 'BEGIN { n = split(sets, kv, " ") }
		/^#/ { print; next }
		!h { h = 1; for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		{ for (j = 1; j <= n; j++) { split(kv[j], p, "="); $c[p[1]] = p[2] } print }' "$f"
}

# a tint-memory.tsv no pb-tint writes is refused as tint.tsv is
cp -r mem badm
set_cols mem/tint-memory.tsv ratio_lo=2 ratio_hi=0.5 >badm/tint-memory.tsv
run pb-compare --from badm
like "$rc:$(cat "$T/err")" '^1:pb-compare: badm/tint-memory\.tsv:[0-9]+: the peak memory ratio lies outside its interval: this is not pb-tint.s output$' \
	"a tint-memory.tsv with its interval upside down: one line, exit 1"

# a maxrss_floor_kib that pb-run does not write, and a ratio of 0, are refused
cp -r mem badf
sed 's/^# maxrss_floor_kib: .*/# maxrss_floor_kib: abc/' mem/raw.tsv >badf/raw.tsv
run pb-compare --from badf
like "$rc:$(cat "$T/err")" "^1:pb-compare: badf/raw\.tsv:[0-9]+: maxrss_floor_kib is a whole number of KiB above 0, not 'abc'" \
	"maxrss_floor_kib abc: one line, exit 1"
cp -r mem badz
set_cols mem/tint-cpu.tsv ratio=0 >badz/tint-cpu.tsv
run pb-compare --from badz
like "$rc:$(cat "$T/err")" "^1:pb-compare: badz/tint-cpu\.tsv:[0-9]+: a CPU time ratio that is not a positive number" \
	"a CPU time ratio of 0: one line, exit 1"

# --- at pb-run's floor: what is below it is not measured, and the summary says so
# A no-op built as the tools are (static where the compiler can), whose
# own peak GNU time bounds: below the floor (what a forked child holds
# before its exec, about 0.8 MiB with glibc) its arm shows the floor;
# far above it (a static pb-run's floor is smaller) it is measured.
printf 'int main(void) { return 0; }\n' >noop.c
${CC:-cc} -O2 -static ${LDFLAGS:-} -o noop noop.c 2>/dev/null || ${CC:-cc} -O2 ${LDFLAGS:-} -o noop noop.c ||
	not_ok "a no-op builds with ${CC:-cc}"
own=$(/usr/bin/time -f %M ./noop 2>&1 >/dev/null | tail -n 1)
run pb-compare -v $B -r 6 -p 4 --dir floor --no-shell -- "$T/noop" "$W --alloc-mib 16"
exited_ok "a no-op vs 16 MiB: exit 0"
floor=$(sed -n 's/^# maxrss_floor_kib: //p' floor/raw.tsv | tail -n 1)
where=between
if nums "$own" "$floor"; then
	where=$(awk -v o="$own" -v f="$floor" 'BEGIN { print (o < f) ? "below" : ((o > 1.5 * f) ? "above" : "between") }')
fi
# GNU time is a dynamic glibc program with a floor of its own (about 450
# KiB): below 512 KiB (a static musl pb-run's 180) it cannot say where
# the no-op's own peak is against pb-run's floor
if nums "$floor" && [ "$floor" -lt 512 ]; then where=between; fi
diag "the no-op's own peak (GNU time): $own KiB; pb-run's floor: $floor KiB; it is $where"
case $where in
below)
	words=": B uses [0-9.]+% more \(A's [0-9.]+ (KiB|MiB) is at pb-run's floor: A uses at most that, so the ratio may understate the difference\)$"
	floors='[true,false]' md=" (KiB|MiB) \(at pb-run's floor\) \|$" csv='memory_at_floor 1 0 '
	how="A below the floor: shown at it, the ratio may understate, in words" ;;
*)	words=': B uses [0-9.]+% more$' floors='[false,false]' md=' [0-9.]+ (KiB|MiB) \|$' csv='memory_at_floor 0 0 '
	how="A above the floor: measured, the ratio without a note" ;;
esac
if [ "$vg" = 1 ]; then
	skip "the no-op at the floor: the words, markdown, CSV and JSON: not under valgrind"
elif [ "$where" = between ]; then
	skip "the no-op at the floor: its own peak ($own KiB, GNU time's) too near the floor ($floor KiB), or GNU time's own floor above it, to say"
else
	like "$(grep '^   peak memory: ' "$T/out")" "$words" "  $how"
	is "$(jq -c '[.arms[].memory_at_floor]' floor/compare.json)" "$floors" "  compare.json: memory_at_floor"
	pb-compare --from floor --export-markdown floor.md --export-csv floor.csv >/dev/null 2>&1
	like "$(sed -n 3p floor.md)" "$md" "  markdown: A's peak memory, marked at pb-run's floor only"
	is "$(cut -d, -f19 floor.csv | tr '\n' ' ')" "$csv" "  CSV: memory_at_floor"
fi
run pb-compare -v $B -r 3 -p 4 --dir floor2 --no-shell -- "$T/noop" "$T/noop"
if [ "$vg" = 1 ] || [ "$where" = between ]; then
	skip "A/A of the no-op: the memory line (not under valgrind, or near the floor)"
	skip "A/A of the no-op: report.md"
elif [ "$where" = above ]; then
	# (a sanitizer's no-op: its peak nearly the same in every observation,
	# so a difference of 0.2 % can be resolved; the ratio is near 1)
	like "$(grep '^   peak memory: ' "$T/out")" '^   peak memory: A/B (0\.99|1\.00)[0-9]*, 95% CS [0-9.]+ to [0-9.]+: (no difference resolved|B uses [0-9.]+% (more|less))$' \
		"  A/A above the floor: measured, a ratio within 1 % of 1, no note of it"
	skip "  report.md: nothing at the floor to say (the no-op is above it)"
else
	# a line that would say nothing is left out; report.md keeps it
	is "$(grep -c '^   peak memory: ' "$T/out"):$(grep -c '^   CPU time: ' "$T/out")" 0:1 \
		"  A/A at the floor: no peak memory line in the summary (-v), the CPU time's stays"
	like "$(grep 'peak memory: ' floor2/report.md)" " \(both at pb-run's floor: each uses at most that, and what is below it is not measured\)$" \
		"  report.md: both at the floor, not measured"
fi

# --- --stat lr-median: its runs.tsv has lr already; theirs are lr_cpu, lr_memory
run pb-compare -v $B -r 4 -p 4 --dir lrm --stat lr-median --no-shell -- "$W --us 100" "$W --us 100 --alloc-mib 16"
is "$rc:$(grep -c '^   CPU time: \|^   peak memory: ' "$T/out"):$(grep -c 'not compared' "$T/err")" "0:2:0" \
	"--stat lr-median: exit 0, both compared, no step of theirs failed"
like "$(grep '^B against A: ' "$T/out")" '^B against A: A/B time ratio ' \
	"  the time's too: runs.tsv is pb-pair's with its lr, without pb-logratio"

# --- worker mode: no CPU time or peak memory (pb-run says why), none shown
run pb-compare -v $B -r 3 -p 4 --dir wk --worker "$W --worker --us 100"
exited_ok "worker mode: exit 0"
lacks "$T/out" 'CPU time|peak memory' "  no line of CPU time or peak memory"
is "$(jq -c '[.comparisons[0].cpu_time, .comparisons[0].peak_memory, .arms[0].cpu_median_ns]' wk/compare.json)" \
	"[null,null,null]" "  compare.json: null where not measured"
is "$(ls wk 2>/dev/null | grep -cx 'tint\.tsv'):$(ls wk 2>/dev/null | grep -c -- '-cpu\|-memory')" 1:0 \
	"  tint.tsv, and no files of theirs"

# --- a step of theirs fails: one line says so, the time's analysis stands,
# and their files and Makefile rules are gone. The tools are found beside
# pb-compare: a copy of it beside a pb-logratio that refuses --a.
mkdir tools
bindir=$(dirname "$(command -v pb-compare)")
# under make valgrind PATH holds memcheck's wrappers, which work only
# beside their vg.conf: the copy and the links are of the real tools
[ -r "$bindir/vg.conf" ] && bindir=$(. "$bindir/vg.conf" && echo "$REAL")
for t in "$bindir"/pb-*; do
	case ${t##*/} in *.*|pb-compare|pb-logratio) ;; *) [ -x "$t" ] && ln -s "$t" tools/; esac
done
cp "$bindir/pb-compare" tools/pb-compare
real=$bindir/pb-logratio
cat >tools/pb-logratio <<EOF
#!/bin/sh
case "\$1" in --a) echo "pb-logratio: refused for the test" >&2; exit 1 ;; esac
exec "$real" "\$@"
EOF
chmod +x tools/pb-logratio
run tools/pb-compare -v $B -r 3 -p 4 --dir fail --no-shell -- "$W --us 100" "$W --us 100"
exited_ok "a failing step of CPU time: exit 0"
like "$(cat "$T/err")" "pb-compare: CPU time and peak memory are not compared \(runs-cpu\.tsv\): pb-logratio: refused for the test" \
	"  one line says which and why"
like "$(grep '^B against A: ' "$T/out")" 'A/B time ratio' "  the time's comparison stands"
lacks "$T/out" '^   CPU time: |^   peak memory: ' "  no ratio of CPU time or peak memory"
is "$(grep -c '^   CPU time median ' "$T/out")" 2 "  each arm's medians still (pairs.tsv has them)"
is "$(ls fail 2>/dev/null | grep -cx 'tint\.tsv'):$(ls fail 2>/dev/null | grep -c -- '-cpu\|-memory')" 1:0 \
	"  tint.tsv, and none of their files"
is "$(grep -c -- '-cpu\|-memory' fail/Makefile)" 0 "  none of their Makefile rules"

# --- a command is shown as it was given: pb-run's escaped backslash undone
run pb-compare -v $B -r 3 -p 4 --dir bs --no-pictures -- 'printf "a\tb|c" >/dev/null' 'true'
is "$(grep '^A  ' "$T/out")" 'A  printf "a\tb|c" >/dev/null' "a backslash in a command: shown once, as given"
is "$(jq -r '.arms[0].command' bs/compare.json)" 'printf "a\tb|c" >/dev/null' "  and in the JSON"

done_testing

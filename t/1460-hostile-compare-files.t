#!/bin/sh
# pb-compare under attack, its files and its end (issue 27: 1, 3, 11, 13,
# 17, 21): links planted in TMPDIR, FIFOs, signals while it blocks or
# before the study, a pb-run killed under it, stdout closed, full or
# read by no one, and two started in the same second. Signals go when an
# event says the moment has come (a file appears, the process blocks);
# each study is ended by a signal or bounded by -r and -p, never by the
# clock.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$T" || exit 1
ex=$top/examples/compare

# wait_for SECONDS PID TEST...: until TEST holds, PID ends, or SECONDS pass
wait_for() {
	_wl=$(($1 * 10)) _wp=$2 _wi=0
	shift 2
	while ! "$@" && [ "$_wi" -lt "$_wl" ] && kill -0 "$_wp" 2>/dev/null; do
		sleep 0.1; _wi=$((_wi + 1)); done
}
# reaped PID: the status of PID, once it ends; after 120 s (a hang,
# which only a defect makes) it is killed first
reaped() {
	wait_for 120 "$1" false
	kill -KILL "$1" 2>/dev/null
	wait "$1"
}
measured() { _mn=$(grep -c '	measure	' "$1" 2>/dev/null); [ "${_mn:-0}" -ge 1 ]; }
# blocked PID: PID sleeps in the kernel's open of a FIFO, waiting for a
# reader (Linux's wchan)
blocked() { [ "$(cat "/proc/$1/wchan" 2>/dev/null)" = wait_for_partner ]; }
# a study no load ends before the signal: 1000 runs at the least
long="-b 600s -r 1000 --min-runs 1000 -p 3 --no-pictures --quiet"

# --- 1. TMPDIR: a link planted where a temporary file could be named is
# never written through; a --from that must make its analysis again
# does it in a private directory it removes.
mkdir tmpd
echo precious >target
ln -s "$T/target" tmpd/pb-compare.XXXXXX.tmp
cp -r "$ex" half && rm half/tint.tsv half/pairs.tsv half/runs.tsv
TMPDIR=$T/tmpd pb-compare --version >/dev/null 2>&1
run env TMPDIR="$T/tmpd" pb-compare -v --from half
is "$rc:$(grep -c '^A  ' "$T/out"):$(cat target):$(ls tmpd | tr '\n' ' ')" \
	"0:1:precious:pb-compare.XXXXXX.tmp " \
	"--from a study to analyse again, TMPDIR with a link planted: summary, link untouched, nothing left"

# --- 3. a FIFO in --from's directory is not read; a signal ends
# pb-compare where it blocks on a FIFO of its own (an export).
cp -r "$ex" fifo && rm fifo/check.tsv && mkfifo fifo/check.tsv
run timeout 120 pb-compare -v --from fifo
is "$rc:$(grep -c '^A  ' "$T/out")" "0:1" "--from with check.tsv a FIFO: the summary, not a hang"
case $(cat /proc/$$/wchan 2>/dev/null) in ''|0) nowchan=1 ;; *) nowchan=0 ;; esac
if [ "$nowchan" = 1 ]; then
	skip "a signal while blocked on a FIFO: no /proc/PID/wchan here"
	skip "SIGINT idem"
	skip "SIGHUP idem"
else
	for sig in TERM:143 INT:130 HUP:129; do
		rm -f out.fifo && mkfifo out.fifo
		pb-compare --from "$ex" --export-json out.fifo >sig.out 2>sig.err &
		pid=$!
		wait_for 600 $pid blocked $pid
		kill -"${sig%:*}" $pid
		reaped $pid
		rc=$?
		like "$rc:$(cat sig.err)" "^${sig#*:}:pb-compare: out\\.fifo: " \
			"SIG${sig%:*} while it opens a FIFO to export into: it ends, exit ${sig#*:}, one line"
	done
fi

# --- 11. the exports say what pb-compare exits with, and a pb-run
# killed (the OOM killer's SIGKILL) makes the study partial.
pb-compare $long --dir term --export-json term.json -- 'sleep 0.01' 'sleep 0.01' >term.out 2>term.err &
pid=$!
wait_for 600 $pid measured term/raw.tsv.tmp
kill -TERM $pid
wait $pid
rc=$?
is "$rc:$(jq -r '.exit_status, .partial' term.json term/compare.json 2>&1 | tr '\n' ' ')" \
	"143:143 true 143 true " "SIGTERM in the study: exit 143, and compare.json and --export-json say 143"
if command -v pgrep >/dev/null; then
	pb-compare $long --dir killed --export-json killed.json -- 'sleep 0.01' 'sleep 0.01' >killed.out 2>killed.err &
	pid=$!
	wait_for 600 $pid measured killed/raw.tsv.tmp
	kill -KILL $(pgrep -P $pid) 2>/dev/null
	wait $pid
	rc=$?
	is "$rc:$(jq -r '.exit_status, .partial, .failed' killed.json killed/compare.json 2>&1 | tr '\n' '|')" \
		"1:1|true|pb-run ended (killed by signal 9, Killed)|1|true|pb-run ended (killed by signal 9, Killed)|" \
		"pb-run SIGKILLed: exit 1, the exports say 1, partial and how pb-run ended"
	like "$(sed -n 1p killed.out)" '^partial: failed: pb-run ended \(killed by signal 9, Killed\)' \
		"  and the summary is marked partial"
else
	skip "pb-run SIGKILLed: no pgrep (Debian package procps)"
	skip "  and the summary: idem"
fi

# --- 13. stdout: closed is refused before anything runs; read by no
# one (| head) or full, the exports are written and the gate's 3 stands.
pb-compare -b 2s --dir closed --no-pictures -- true true 2>"$T/err" >&-
rc=$?
is "$rc:$(cat "$T/err"):$(ls -d closed 2>/dev/null)" \
	"1:pb-compare: standard output is closed: the summary has nowhere to go (redirect it: >/dev/null, or > FILE):" \
	"stdout closed: refused before the study, one line, no directory"
# a pipe whose reader is gone before pb-compare writes: the shell opens
# the FIFO for pb-compare's stdout, the reader opens and closes it
rm -f gone.fifo && mkfifo gone.fifo
pb-compare --from "$ex" --fail-if-slower 1.01 --export-json gone.json >gone.fifo 2>gone.err &
pid=$!
exec 5<gone.fifo
exec 5<&-
wait $pid
rc=$?
is "$rc:$(jq -r .exit_status gone.json 2>&1):$(cat gone.err)" "3:3:" \
	"a reader gone (| head): no SIGPIPE, the export written, the gate's exit 3, no message"
if [ -c /dev/full ] && ! printf x 2>/dev/null >/dev/full; then
	pb-compare --from "$ex" --fail-if-slower 1.01 --export-json full.json >/dev/full 2>full.err
	rc=$?
	is "$rc:$(jq -r .exit_status full.json 2>&1):$(cat full.err)" \
		"3:3:pb-compare: write error on standard output: No space left on device" \
		"stdout full: one line, the export written, the gate's exit 3"
	pb-compare --from "$ex" >/dev/full 2>full.err
	is "$?:$(cat full.err)" "1:pb-compare: write error on standard output: No space left on device" \
		"  without a gate: exit 1"
else
	skip "stdout full: no /dev/full"
	skip "  without a gate: idem"
fi

# --- 17. a signal during the pilot removes the study directory, and the
# same --dir is then taken.
pb-compare -b 600s --dir pilot --no-pictures --quiet -- 'sleep 0.2' 'sleep 0.2' >pilot.out 2>pilot.err &
pid=$!
wait_for 600 $pid test -s pilot/pilot.tsv.tmp
kill -TERM $pid
wait $pid
rc=$?
is "$rc:$(cat pilot.err):$(ls -d pilot 2>/dev/null)" \
	"143:pb-compare: interrupted during the pilot, before the study began: nothing of the study was measured:" \
	"SIGTERM in the pilot: exit 143, one line, the directory removed"
run pb-compare -b 600s -r 3 -p 2 --dir pilot --no-pictures --quiet -- true true
is "$rc:$(grep -c '; study: pilot$' "$T/out"):$(test -s pilot/raw.tsv && echo raw)" "0:1:raw" \
	"  the same --dir again: a study, not 'pilot exists'"

# --- 21. a default name taken (another pb-compare in the same second):
# the next, -2, made by mkdir. The names of the next 10 minutes are taken.
if now=$(date +%s) && date -d "@$now" >/dev/null 2>&1; then
	mkdir same && cd same || exit 1
	i=0
	while [ "$i" -le 600 ]; do
		mkdir "pb-compare-$(TZ=UTC date -d "@$((now + i))" +%Y%m%d-%H%M%S)"
		i=$((i + 1))
	done
	TZ=UTC pb-compare -b 600s -r 3 -p 2 --no-pictures --quiet -- true true >"$T/out" 2>"$T/err"
	rc=$?
	d=$(sed -n 's/.*; study: //p' "$T/out")
	like "$rc:$d:$(test -s "$d/raw.tsv" && echo raw):$(cat "$T/err")" \
		'^0:pb-compare-[0-9]{8}-[0-9]{6}-2:raw:$' \
		"no --dir, its name taken: the study in NAME-2"
	cd "$T" || exit 1
else
	skip "no --dir, its name taken: no date -d @N here"
fi

done_testing

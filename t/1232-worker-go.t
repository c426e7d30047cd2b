#!/bin/sh
# The Go worker helper, share/pb/pbworker: its own go test (answers,
# errors, panics, protocol errors, split and joined requests, stdout kept
# off the answers), gofmt and go vet, all offline; a worker built with a
# go.mod that replaces pbworker with the helper's directory, under pb-run:
# arm B busy-waits ten times as long as arm A, seen by pb-pair --by-run |
# pb-logratio | pb-tint; an arm that prints on os.Stdout and one that
# starts a child that prints on it leave the answers alone; an arm's error
# is reported with its type; one write(2) per answer. Then
# examples/worker/itoa under pb-run, and make install of the module.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
M=$top/share/pb/pbworker
command -v go >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP go not installed (Debian package golang-go; make check installs it)"; exit 0; }
cd "$T" || exit 1
# everything Go writes in $T, and nothing from the network
GOPATH=$T/gopath GOCACHE=$T/gocache GOMODCACHE=$T/gopath/pkg/mod GOFLAGS=-mod=mod GOPROXY=off \
	GOTOOLCHAIN=local GOTELEMETRY=off GO111MODULE=on GOWORK=off
export GOPATH GOCACHE GOMODCACHE GOFLAGS GOPROXY GOTOOLCHAIN GOTELEMETRY GO111MODULE GOWORK

# feed INPUT CMD...: CMD with printf INPUT on stdin, at most 60 s; stdout
# in $T/out, stderr in $T/err, the status in $rc.
feed() { input=$1; shift; printf "$input" | timeout 60 "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# lines FILE: FILE on one line, lines joined by "|"
lines() { tr '\n' '|' <"$1" | sed 's/|$//'; }
# good FILE: the measured and warm-up rows of a raw stream with status 0
good() { rows "$1" | awk -F'\t' '$8 == 0' | wc -l | tr -d ' '; }

# --- the module's own tests, gofmt and go vet
(cd "$M" && timeout 300 go test -count=1 .) >gotest.out 2>&1
is "$?:$(tail -n 1 gotest.out | awk '{ print $1 }')" "0:ok" "go test in share/pb/pbworker: exit 0, ok"
[ "$(tail -n 1 gotest.out | awk '{ print $1 }')" = ok ] || diag "$(tail -n 20 gotest.out)"
fmt=$(cd "$M" && gofmt -l . 2>&1; cd "$top/examples/worker/itoa" && gofmt -l . 2>&1)
(cd "$M" && go vet . && GOOS=darwin go vet . && GOARCH=arm64 go vet .) >vet.out 2>&1
vet=$?
(cd "$top/examples/worker/itoa" && go vet .) >>vet.out 2>&1
is "$vet:$?:$fmt" "0:0:" "go vet (linux, darwin, linux/arm64) and gofmt -l: clean, the module and examples/worker/itoa"
[ -s vet.out ] && diag "$(head -n 10 vet.out)"

# --- a worker of the test's own: arm A busy-waits 200 us, arm B 2000 us;
# "print": A prints on os.Stdout, B starts a child that prints on it;
# "fail": B fails with a *fs.PathError
mkdir w && cd w || exit 1
printf 'module w\n\ngo 1.19\n\nrequire pbworker v0.0.0\n\nreplace pbworker => %s\n' "$M" >go.mod
cat >main.go <<'EOF'
package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"

	"pbworker"
)

func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

func main() {
	a := func() error { spin(200 * time.Microsecond); return nil }
	b := func() error { spin(2000 * time.Microsecond); return nil }
	switch mode := append(os.Args, "")[1]; mode {
	case "print":
		a = func() error { fmt.Println("printed by A"); return nil }
		b = func() error {
			cmd := exec.Command("sh", "-c", "echo child of B")
			cmd.Stdout = os.Stdout
			return cmd.Run()
		}
	case "fail":
		b = func() error { _, err := os.Open("/nonexistent/pb-t1232"); return err }
	}
	os.Exit(pbworker.Serve(a, b))
}
EOF
timeout 300 go build -o "$T/gw" . >"$T/build.out" 2>&1
built="$?:$(head -n 5 "$T/build.out")"
cd "$T" || exit 1

# --- a real study: 3 runs x (2 warm-up + 20) pairs
run pb-run --runs 3 --warmup 2 --pairs 20 --timeout 300s --no-shell --worker "$T/gw"
cp "$T/out" raw.tsv
is "$built|$rc:$(cat "$T/err"):$(good raw.tsv)" "0:|0::132" \
	"a worker built with 'replace pbworker => share/pb/pbworker', under pb-run: 3 runs x 22 pairs x 2 arms, every observation ok"
pb-pair raw.tsv >pairs.tsv 2>pair.err
is "$?:$(cat pair.err):$(row_count pairs.tsv)" "0::60" "pb-pair reads the raw stream: 3 runs x 20 measured pairs"
pb-pair --by-run raw.tsv | pb-logratio | pb-tint >tint.tsv 2>tint.err
is "$?:$(cat tint.err):$(row_count tint.tsv)" "0::1" "pb-pair --by-run | pb-logratio | pb-tint: exit 0, one interval"
ml=$(median_lr raw.tsv)
if [ "${PB_VALGRIND:-0}" = 1 ]; then skip "B took more time: not under valgrind"
elif nums "$ml" && awk -v m="$ml" 'BEGIN { exit !(m < 0) }'; then
	ok "B (2000 us) took more time than A (200 us): per-run median log ratio, mean over runs $ml"
else
	not_ok "B (2000 us) took more time than A (200 us)"
	diag "per-run median log ratio, mean over runs: '$ml'; mean log ratio $(col mean 1 tint.tsv)"
fi

# --- what the arms print, and a child they start, kept off the answers
run pb-run --runs 2 --warmup 1 --pairs 5 --timeout 300s --no-shell --output "$T/print-output.txt" \
	--worker "$T/gw print"
is "$rc:$(cat "$T/err"):$(good "$T/out"):$(grep -c '^printed by A$' print-output.txt):$(grep -c '^child of B$' print-output.txt)" \
	"0::24:12:12" \
	"fmt.Println in arm A and a child of arm B with Stdout = os.Stdout: every observation ok, what they printed in --output"
feed 'A\t1\t1\nB\t1\t1\nA\t2\t1\n' "$T/gw" print
is "$rc:$(lines "$T/out"):$(sort "$T/err" | lines /dev/stdin)" "0:ok|ok|ok:child of B|printed by A|printed by A" \
	"the worker by itself: the answers on stdout, what the arm and the child printed on stderr, exit 0 at end of input"
feed 'C\t1\t1\nhello\n' "$T/gw"
is "$rc:$(lines "$T/out"):$(lines "$T/err")" \
	"1:error no arm C: this worker serves arms A to B:pb-worker: request 2 is not ARM<TAB>RUN<TAB>PAIR: 'hello'" \
	"an arm not served is answered; a request that is not one: one line on stderr, exit 1"

# --- one write per answer, no buffering (strace, where it exists)
if command -v strace >/dev/null 2>&1; then
	printf 'A\t1\t%s\n' 1 2 3 4 5 6 7 8 9 10 >ten.req
	timeout 60 strace -f -qq -e trace=write -e signal=none -o trace.log "$T/gw" <ten.req >/dev/null 2>&1
	is "$?:$(grep -c 'write([0-9]*, "ok\\n", 3)' trace.log)" "0:10" "10 requests: 10 writes of ok and a newline (strace)"
else
	skip "strace not installed"
fi

# --- an arm that fails: pb-run's '# failed:' line names the error's type
run pb-run --runs 1 --warmup 0 --pairs 3 --timeout 300s --no-shell --worker "$T/gw fail"
like "$rc:$(grep '^# failed:' "$T/out")" \
	'^1:# failed: run 1 pair [0-9]+ \(measure\) arm B: worker answered: error \*fs\.PathError: open /nonexistent/pb-t1232: ' \
	"an arm's error: '# failed:' names it, *fs.PathError and its message, and the study stops"

# --- the example examples/worker/itoa: B, the faster way, is faster
(cd "$top/examples/worker/itoa" && timeout 300 go build -o "$T/itoa" .) >itoa-build.out 2>&1
itoa_built="$?:$(head -n 5 itoa-build.out)"
run pb-run --runs 3 --warmup 5 --pairs 30 --timeout 300s --no-shell --worker "$T/itoa"
cp "$T/out" ex-go.tsv
is "$itoa_built|$rc:$(cat "$T/err"):$(good ex-go.tsv)" "0:|0::210" \
	"examples/worker/itoa builds in its directory; under pb-run: 3 runs x 35 pairs, every observation ok"
ml=$(median_lr ex-go.tsv)
if [ "${PB_VALGRIND:-0}" = 1 ]; then skip "example go: B took less time: not under valgrind"
elif nums "$ml" && awk -v m="$ml" 'BEGIN { exit !(m > 0) }'; then
	ok "example go: B took less time (per-run median log ratio, mean over runs: $ml)"
else not_ok "example go: B took less time"; diag "per-run median log ratio, mean over runs: '$ml'"; fi

# --- make install: the module in PREFIX/share/pb/pbworker (not its
# test), the example beside the others with its go.mod pointing there;
# both build from the installed tree and serve. From a copy of the tree,
# as t/1230 does.
root=$T/root
R=$root/usr/local
nomk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"; }
nomk -C "$top" copy-to TO="$T/copy" >copy.log 2>&1 || diag "make copy-to: $(tail -n 3 copy.log)"
mk() { nomk -C "$T/copy" "$@" DESTDIR="$root" PREFIX=/usr/local; }
mk install >install.log 2>&1
installed=$?
[ "$installed" = 0 ] || diag "$(tail -n 5 install.log)"
missing=
for f in go.mod pbworker.go dup_linux.go dup_unix.go; do
	cmp -s "$R/share/pb/pbworker/$f" "$M/$f" || missing="$missing $f"
done
[ ! -e "$R/share/pb/pbworker/pbworker_test.go" ] || missing="$missing (the test installed)"
(cd "$R/share/pb/examples/worker/itoa" && timeout 300 go build -o "$T/itoa-installed" .) >itoa-inst.out 2>&1
ibuilt="$?:$(grep -c '^replace pbworker => \.\./\.\./\.\./pbworker$' "$R/share/pb/examples/worker/itoa/go.mod")"
feed 'A\t1\t1\nB\t1\t1\n' "$T/itoa-installed"
served="$rc:$(lines "$T/out")"
mk uninstall >uninstall.log 2>&1
is "$installed:$missing|$ibuilt|$served|$?:$(find "$root" ! -type d | sed "s|^$root||" | tr '\n' ' ')" \
	"0:|0:1|0:ok|ok|0:" \
	"make install: the module in PREFIX/share/pb/pbworker, the installed itoa builds against it and serves; make uninstall removes them all"
[ -s itoa-inst.out ] && diag "$(head -n 5 itoa-inst.out)"

done_testing

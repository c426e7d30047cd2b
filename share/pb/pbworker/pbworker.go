//go:build unix

// Package pbworker is pb-run's worker protocol in one call, for Go.
//
//	package main
//
//	import (
//		"os"
//
//		"pbworker"
//	)
//
//	func oldWay() error { ...; return nil }
//	func newWay() error { ...; return nil }
//
//	func main() { os.Exit(pbworker.Serve(oldWay, newWay)) }
//
// with, in the program's go.mod,
//
//	require pbworker v0.0.0
//	replace pbworker => /usr/local/share/pb/pbworker
//
// and then
//
//	go build -o bench . && pb-run --worker ./bench --no-shell > raw.tsv
//
// pb-run starts one worker per run and writes one request per observation
// on its standard input, "ARM<TAB>RUN<TAB>PAIR" (ARM a letter, A for the
// baseline); the worker does one unit of that arm's work and answers one
// line, "ok" or "error TEXT"; pb-run times the round trip. End of input
// ends the run.
//
// Serve(a, b) calls a() for each request of arm A and b() for arm B, and
// answers "ok" when the call returns nil. An error is answered on one line
// "error TYPE: MESSAGE", TYPE the error's dynamic type as %T prints it
// (*fs.PathError), or "error TYPE" when its message is empty; a panic is
// recovered and answered "error panic: VALUE". Either way the run goes
// on. ServeArms(a, b, c) serves arm C too, up to 26 arms, A to Z; a nil
// arm is one not served. A request for an arm not served is answered
// "error no arm C: ...".
//
// Both return 0 at the end of the input, and 1 after one line on the
// standard error for a request that is not ARM<TAB>RUN<TAB>PAIR, input
// that ends inside a request, a request longer than 4095 bytes, or a read
// or write that fails: make it the exit status. Fields after PAIR,
// TAB-separated, are ignored (room for the protocol to grow).
//
// While they serve, descriptor 1 is the standard error, and so is
// os.Stdout: what the arms print with fmt.Println, and what a process
// they start prints on the standard output it inherits (cmd.Stdout =
// os.Stdout), goes where pb-run sends the worker's standard error
// (--output), and cannot be taken for an answer. The answers go to the
// original standard output, on a descriptor of their own that is
// close-on-exec, so that no process an arm starts holds it; it comes back
// as descriptor 1, and os.Stdout as it was, on return.
//
// Each request is read with read(2) and each answer written with one
// write(2) on the raw descriptors: no buffering, nothing to flush. The
// standard library only; Go 1.19 or later, Linux and other Unix systems.
package pbworker

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"unicode/utf8"
)

// lineMax is the longest request or answer, newline included.
const lineMax = 4096

var ok = []byte("ok\n")

// Serve serves arm A with a and arm B with b until the end of the input:
// 0 then, 1 after a message on a protocol error.
func Serve(a, b func() error) int {
	return ServeArms(a, b)
}

// ServeArms serves arms[0] as arm A, arms[1] as B, and so on up to Z,
// until the end of the input: 0 then, 1 after a message on a protocol
// error. A nil arm is not served.
func ServeArms(arms ...func() error) int {
	last := -1
	for i, fn := range arms {
		if fn != nil {
			last = i
		}
	}
	if len(arms) > 26 {
		return fail(fmt.Sprintf("ServeArms: %d arms: give from 1 to 26, A to Z", len(arms)))
	}
	if last < 0 {
		return fail("ServeArms: no arm given: Serve(baseline, candidate)")
	}
	out := claimStdout()
	defer releaseStdout(out)
	return loop(0, out, arms[:last+1])
}

// loop reads the requests on descriptor in and answers each on out.
func loop(in, out int, arms []func() error) int {
	var buf [2 * lineMax]byte
	held, nreq := 0, 0
	for {
		start := 0
		for {
			nl := bytes.IndexByte(buf[start:held], '\n')
			if nl < 0 {
				break
			}
			line := buf[start : start+nl]
			start += nl + 1
			nreq++
			arm := armOf(line)
			if arm < 0 {
				return fail(fmt.Sprintf("request %d is not ARM<TAB>RUN<TAB>PAIR: '%s'", nreq, quote(line)))
			}
			if err := writeAll(out, answer(arm, arms)); err != nil {
				return fail(fmt.Sprintf("cannot write the answer to request %d: %s", nreq, strerror(err)))
			}
		}
		held = copy(buf[:], buf[start:held])
		if held >= lineMax {
			return fail(fmt.Sprintf("request %d is longer than %d bytes", nreq+1, lineMax-1))
		}
		n, err := syscall.Read(in, buf[held:held+lineMax])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return fail("cannot read the standard input: " + strerror(err))
		case n == 0 && held > 0:
			return fail(fmt.Sprintf("the input ended inside request %d: '%s'", nreq+1, quote(buf[:held])))
		case n == 0:
			return 0
		}
		held += n
	}
}

// armOf is 0 (A) to 25 (Z) for a request ARM<TAB>RUN<TAB>PAIR, else -1.
func armOf(line []byte) int {
	f := bytes.SplitN(line, []byte{'\t'}, 4)
	if len(f) < 3 || len(f[0]) != 1 || f[0][0] < 'A' || f[0][0] > 'Z' ||
		!digits(f[1]) || !digits(f[2]) {
		return -1
	}
	return int(f[0][0] - 'A')
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// answer calls the arm of a request and says how it went, as a line.
func answer(arm int, arms []func() error) []byte {
	letter := 'A' + rune(arm)
	if arm >= len(arms) {
		if len(arms) == 1 {
			return []byte(fmt.Sprintf("error no arm %c: this worker serves arm A only\n", letter))
		}
		return []byte(fmt.Sprintf("error no arm %c: this worker serves arms A to %c\n",
			letter, 'A'+rune(len(arms)-1)))
	}
	if arms[arm] == nil {
		return []byte(fmt.Sprintf("error no arm %c: this worker has no function for it\n", letter))
	}
	if what := call(arms[arm]); what != "" {
		return []byte("error " + oneLine(what, lineMax-8) + "\n")
	}
	return ok
}

// call runs fn: "" when it returned nil, else what went wrong, an error
// as "TYPE: MESSAGE" or a panic as "panic: VALUE".
func call(fn func() error) (what string) {
	returned := false
	defer func() {
		if !returned {
			what = "panic: " + fmt.Sprint(recover())
		}
	}()
	err := fn()
	returned = true
	if err == nil {
		return ""
	}
	return describe(err)
}

// describe is "TYPE: MESSAGE" of an arm's error, or TYPE alone when the
// message is empty or its Error method panics: that must not end the
// worker.
func describe(err error) (what string) {
	what = fmt.Sprintf("%T", err)
	defer func() { _ = recover() }()
	if msg := err.Error(); msg != "" {
		what += ": " + msg
	}
	return what
}

// oneLine is text on one line, control characters escaped as \n, \r, \t
// or \xNN (and bytes that are not UTF-8 as \xNN), at most limit bytes.
func oneLine(text string, limit int) string {
	var b []byte
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20 || r == 0x7f || (r == utf8.RuneError && size == 1):
			b = append(b, fmt.Sprintf(`\x%02x`, text[i])...)
		default:
			b = append(b, text[i:i+size]...)
		}
		i += size
	}
	if len(b) <= limit {
		return string(b)
	}
	cut := limit - 3
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "..."
}

// quote is up to 60 bytes of a bad request, for a message, escaped.
func quote(line []byte) string {
	var b []byte
	for i, c := range line {
		if i == 60 {
			return string(b) + "..."
		}
		switch {
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20 || c >= 0x7f:
			b = append(b, fmt.Sprintf(`\x%02x`, c)...)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// strerror is err's text as C's strerror gives it (and the other
// helpers): "Broken pipe", where Go says "broken pipe".
func strerror(err error) string {
	s := err.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func fail(what string) int {
	_ = writeAll(2, []byte(oneLine("pb-worker: "+what, lineMax-1)+"\n"))
	return 1
}

func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// savedStdout is os.Stdout while Serve has made it os.Stderr.
var savedStdout *os.File

// claimStdout is a close-on-exec copy of descriptor 1 for the answers;
// descriptor 1 and os.Stdout become the standard error. When that
// cannot be done, the answers go to descriptor 1.
func claimStdout() int {
	// as os/exec does: no fork between the dup and the close-on-exec
	syscall.ForkLock.RLock()
	out, err := syscall.Dup(1)
	if err == nil {
		syscall.CloseOnExec(out)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return 1
	}
	if dupOnto(2, 1) != nil {
		syscall.Close(out)
		return 1
	}
	savedStdout, os.Stdout = os.Stdout, os.Stderr
	return out
}

func releaseStdout(out int) {
	if out == 1 {
		return
	}
	os.Stdout = savedStdout
	_ = dupOnto(out, 1)
	syscall.Close(out)
}

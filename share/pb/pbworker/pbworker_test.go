package pbworker

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The tests run the test binary itself as a worker: with
// PBWORKER_TEST_WORKER set, TestMain serves instead of testing.
const workerEnv = "PBWORKER_TEST_WORKER"

func TestMain(m *testing.M) {
	switch os.Getenv(workerEnv) {
	case "":
		os.Exit(m.Run())
	case "two":
		os.Exit(Serve(func() error { return nil }, func() error { return nil }))
	case "arms":
		os.Exit(ServeArms(testArms()...))
	case "none":
		os.Exit(ServeArms(nil, nil))
	case "27":
		os.Exit(ServeArms(make([]func() error, 27)...))
	case "claim":
		os.Exit(claimAndTell())
	}
	fmt.Fprintln(os.Stderr, "pbworker_test: no worker", os.Getenv(workerEnv))
	os.Exit(2)
}

// errorOfError is an error whose Error method panics.
type errorOfError struct{}

func (*errorOfError) Error() string { panic("no text") }

// testArms: A prints, B fails with a *fs.PathError, C panics, D is not
// served, E starts a child that prints on os.Stdout, F one that prints
// on descriptor 1, G fails with no message, H with a long one, I with an
// error whose Error panics.
func testArms() []func() error {
	return []func() error{
		func() error { fmt.Println("printed by A"); return nil },
		func() error { _, err := os.Open("/nonexistent/pbworker"); return err },
		func() error { panic("boom\tat C") },
		nil,
		func() error {
			cmd := exec.Command("sh", "-c", "echo child of E")
			cmd.Stdout = os.Stdout
			return cmd.Run()
		},
		func() error {
			cmd := exec.Command("sh", "-c", "echo child of F")
			cmd.Stdout = os.NewFile(1, "descriptor 1")
			return cmd.Run()
		},
		func() error { return errors.New("") },
		func() error { return errors.New(strings.Repeat("x", 9000)) },
		func() error { return (*errorOfError)(nil) },
	}
}

// claimAndTell: what claimStdout made of the descriptors, on stderr.
func claimAndTell() int {
	before := os.Stdout
	out := claimStdout()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(out), syscall.F_GETFD, 0)
	fmt.Fprintf(os.Stderr, "out=%v cloexec=%v stdout-is-stderr=%v\n",
		out != 1, errno == 0 && flags&syscall.FD_CLOEXEC != 0, os.Stdout == os.Stderr)
	fmt.Println("to stderr")
	releaseStdout(out)
	fmt.Printf("restored=%v\n", os.Stdout == before)
	return 0
}

// worker runs the test binary as worker kind with input on its stdin.
func worker(t *testing.T, kind, input string) (stdout, stderr string, status int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), workerEnv+"="+kind)
	cmd.Stdin = strings.NewReader(input)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("worker %s: %v", kind, err)
	}
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

func check(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestAnswers(t *testing.T) {
	out, errs, st := worker(t, "arms",
		"A\t1\t1\nB\t1\t1\nC\t1\t1\nA\t1\t2\nD\t1\t2\nE\t1\t2\nF\t1\t2\nG\t1\t3\nI\t1\t3\nJ\t2\t3\nZ\t1\t1\n")
	want := "ok\n" +
		"error *fs.PathError: open /nonexistent/pbworker: no such file or directory\n" +
		"error panic: boom\\tat C\n" +
		"ok\n" +
		"error no arm D: this worker has no function for it\n" +
		"ok\nok\n" +
		"error *errors.errorString\n" +
		"error *pbworker.errorOfError\n" +
		"error no arm J: this worker serves arms A to I\n" +
		"error no arm Z: this worker serves arms A to I\n"
	check(t, "answers", out, want)
	check(t, "status", fmt.Sprint(st), "0")
	check(t, "what the arms and their children printed, on stderr", errs,
		"printed by A\nprinted by A\nchild of E\nchild of F\n")
}

func TestLongError(t *testing.T) {
	out, _, st := worker(t, "arms", "H\t1\t1\n")
	if len(out) != 4095 || !strings.HasPrefix(out, "error *errors.errorString: xxx") ||
		!strings.HasSuffix(out, "x...\n") || st != 0 {
		t.Errorf("a long message: %d bytes %.40q...%q, status %d; want 4095 bytes ending in ...",
			len(out), out, out[len(out)-10:], st)
	}
}

func TestEndOfInput(t *testing.T) {
	out, errs, st := worker(t, "two", "")
	check(t, "no request", fmt.Sprintf("%d:%q:%q", st, out, errs), `0:"":""`)
	out, errs, st = worker(t, "two", "B\t7\t9\tphase=measure\tmore\nA\t1\t1\n")
	check(t, "fields after PAIR ignored", fmt.Sprintf("%d:%q:%q", st, out, errs), `0:"ok\nok\n":""`)
	out, _, _ = worker(t, "two", "C\t1\t1\n")
	check(t, "Serve: arm C", out, "error no arm C: this worker serves arms A to B\n")
}

func TestProtocolErrors(t *testing.T) {
	for _, c := range []struct{ input, out, err string }{
		{"hello\n", "", "request 1 is not ARM<TAB>RUN<TAB>PAIR: 'hello'"},
		{"A\t1\t1\na\t1\t2\n", "ok\n", `request 2 is not ARM<TAB>RUN<TAB>PAIR: 'a\t1\t2'`},
		{"A\t1\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'A\t1'`},
		{"A\t\t1\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'A\t\t1'`},
		{"A\t1\t-1\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'A\t1\t-1'`},
		{"AB\t1\t1\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'AB\t1\t1'`},
		{"A 1 1\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'A 1 1'`},
		{"A\t1\t1\r\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: 'A\t1\t1\r'`},
		{"\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: ''`},
		{"\x01\x1b[2J\xff\n", "", `request 1 is not ARM<TAB>RUN<TAB>PAIR: '\x01\x1b[2J\xff'`},
		{strings.Repeat("y", 70) + "\n", "", "request 1 is not ARM<TAB>RUN<TAB>PAIR: '" + strings.Repeat("y", 60) + "...'"},
		{"A\t1\t1", "", `the input ended inside request 1: 'A\t1\t1'`},
		{strings.Repeat("A", 5000), "", "request 1 is longer than 4095 bytes"},
	} {
		out, errs, st := worker(t, "two", c.input)
		check(t, fmt.Sprintf("input %.20q", c.input), fmt.Sprintf("%d:%s:%s", st, out, errs),
			fmt.Sprintf("1:%s:pb-worker: %s\n", c.out, c.err))
	}
	// a request of 4095 bytes, newline included, is one
	long := "A\t1\t" + strings.Repeat("1", 4090) + "\n"
	out, _, st := worker(t, "two", long)
	check(t, "a request of 4095 bytes", fmt.Sprintf("%d:%s", st, out), "0:ok\n")
}

func TestNoArms(t *testing.T) {
	_, errs, st := worker(t, "none", "A\t1\t1\n")
	check(t, "no arm", fmt.Sprintf("%d:%s", st, errs),
		"1:pb-worker: ServeArms: no arm given: Serve(baseline, candidate)\n")
	_, errs, st = worker(t, "27", "A\t1\t1\n")
	check(t, "27 arms", fmt.Sprintf("%d:%s", st, errs),
		"1:pb-worker: ServeArms: 27 arms: give from 1 to 26, A to Z\n")
}

func TestClaimStdout(t *testing.T) {
	out, errs, st := worker(t, "claim", "")
	check(t, "claimStdout", fmt.Sprintf("%d:%s:%s", st, out, errs),
		"0:restored=true\n:out=true cloexec=true stdout-is-stderr=true\nto stderr\n")
}

// loopOnPipes runs loop in this process on two pipes: requests written
// to the first come back answered on the second.
type pipes struct {
	req    *os.File
	answer *os.File
	status chan int
}

func loopOnPipes(t *testing.T, arms ...func() error) *pipes {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &pipes{req: inW, answer: outR, status: make(chan int, 1)}
	go func() {
		p.status <- loop(int(inR.Fd()), int(outW.Fd()), arms)
		inR.Close()
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return p
}

func (p *pipes) send(t *testing.T, s string) {
	t.Helper()
	if _, err := p.req.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// expect waits for the answer bytes want (reads block: no timing)
func (p *pipes) expect(t *testing.T, what, want string) {
	t.Helper()
	got := make([]byte, len(want))
	if _, err := io.ReadFull(p.answer, got); err != nil {
		t.Fatalf("%s: %v after %q", what, err, got)
	}
	check(t, what, string(got), want)
}

func TestSplitAndJoined(t *testing.T) {
	calls := 0
	count := func() error { calls++; return nil }
	p := loopOnPipes(t, count, count)
	// one write, which the loop reads at once: a request and the start
	// of the next; the answer to the first shows the read was made
	p.send(t, "A\t1\t1\nB\t1")
	p.expect(t, "the first request, with the start of the second", "ok\n")
	p.send(t, "\t2\n")
	p.expect(t, "the second, ended by a later read", "ok\n")
	p.send(t, "A\t1\t3\nB\t1\t3\nA\t1\t4\n")
	p.expect(t, "three requests in one read", "ok\nok\nok\n")
	p.req.Close()
	st := <-p.status
	var rest bytes.Buffer
	_, _ = rest.ReadFrom(p.answer)
	check(t, "end of input", fmt.Sprintf("%d:%d:%q", st, calls, rest.String()), `0:5:""`)
}

func TestOneLine(t *testing.T) {
	check(t, "controls", oneLine("a\nb\rc\td\x00e\x7ff\xffg é", 100), `a\nb\rc\td\x00e\x7ff\xffg é`)
	check(t, "cut before a character it would split", oneLine(strings.Repeat("é", 10), 10), "ééé...")
}

func TestReadAndWriteFail(t *testing.T) {
	// the answers' pipe has no reader: EPIPE, not a death by SIGPIPE
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), workerEnv+"=two")
	cmd.Stdin = strings.NewReader("A\t1\t1\n")
	var e bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &e
	_ = cmd.Run()
	w.Close()
	check(t, "a write that fails", fmt.Sprintf("%d:%s", cmd.ProcessState.ExitCode(), e.String()),
		"1:pb-worker: cannot write the answer to request 1: Broken pipe\n")
	// the input is a directory: read(2) fails with EISDIR
	dir, err := os.Open(".")
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	cmd = exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), workerEnv+"=two")
	e.Reset()
	cmd.Stdin, cmd.Stderr = dir, &e
	_ = cmd.Run()
	check(t, "a read that fails", fmt.Sprintf("%d:%s", cmd.ProcessState.ExitCode(), e.String()),
		"1:pb-worker: cannot read the standard input: Is a directory\n")
}

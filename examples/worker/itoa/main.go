// itoa: a pb-run worker in Go with share/pb/pbworker, comparing two ways
// to write 300 numbers as text: fmt.Fprintf into a strings.Builder (A)
// and strconv.AppendInt into a byte slice kept from call to call (B).
//
//	cd examples/worker/itoa && go build -o ../../../itoa . && cd -
//	pb-run --worker ./itoa --no-shell --runs 10 --pairs 200 --warmup 20 > raw.tsv
//	pb-pair --by-run raw.tsv | pb-logratio | pb-tint --finding
//
// Each arm does one unit of work and returns nil, or an error that fails
// the observation (pb-run status -2, the error's type and text in its
// message). One worker process per run: what is set up in main is part of
// the run, not of an observation.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"pbworker"
)

const count = 300

// want is the length of the text, which both ways must give.
var want = func() int {
	n := 0
	for i := 0; i < count; i++ {
		n += len(strconv.Itoa(i*7919)) + 1
	}
	return n
}()

func withFprintf() error {
	var b strings.Builder
	for i := 0; i < count; i++ {
		fmt.Fprintf(&b, "%d,", i*7919)
	}
	return checkLength(b.Len())
}

var buf []byte

func withAppendInt() error {
	buf = buf[:0]
	for i := 0; i < count; i++ {
		buf = strconv.AppendInt(buf, int64(i*7919), 10)
		buf = append(buf, ',')
	}
	return checkLength(len(buf))
}

func checkLength(n int) error {
	if n != want {
		return fmt.Errorf("wrote %d bytes, not %d", n, want)
	}
	return nil
}

func main() {
	os.Exit(pbworker.Serve(withFprintf, withAppendInt))
}

package convprog

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// endless is a reader of n bytes of 'x' and no newline, made as read, that
// counts what was read.
type endless struct{ n, read int }

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.n {
		return 0, io.EOF
	}
	k := min(len(p), e.n-e.read)
	for i := range p[:k] {
		p[i] = 'x'
	}
	e.read += k
	return k, nil
}

// TestReadLineBound: a line of 400 MiB without a newline is refused after
// the limit, read no further than the limit and a buffer beyond it; a line
// within the limit is read whole, and the last line without a newline too.
func TestReadLineBound(t *testing.T) {
	src := &endless{n: 400 << 20}
	r := bufio.NewReaderSize(src, 64<<10)
	_, err := readLine(r, minLineLimit)
	var tl *lineTooLongError
	if !errors.As(err, &tl) || tl.limit != minLineLimit || string(tl.start) != strings.Repeat("x", 60) {
		t.Fatalf("readLine of 400 MiB: %v", err)
	}
	if src.read > minLineLimit+64<<10 {
		t.Errorf("read %d bytes for a limit of %d", src.read, minLineLimit)
	}
	r = bufio.NewReaderSize(strings.NewReader(strings.Repeat("y", 100<<10)+"\nlast"), 64<<10)
	if line, err := readLine(r, 200<<10); err != nil || len(line) != 100<<10+1 {
		t.Errorf("a line of 100 KiB: %d bytes, %v", len(line), err)
	}
	if line, err := readLine(r, 200<<10); !errors.Is(err, io.EOF) || string(line) != "last" {
		t.Errorf("the last line: %q, %v", line, err)
	}
}

// TestTailBufferFatal: the line a fatal error of the Go runtime starts
// with, and the line that says memory ran out, are kept, with where they
// were written, though the traceback after them pushes them out of the
// tail; since is what came after a point.
func TestTailBufferFatal(t *testing.T) {
	tb := &tailBuffer{max: 64}
	write := func(s string) {
		t.Helper()
		if _, err := tb.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	write("noise before\nfatal error: runtime: out")
	mark := int64(5)
	write(" of memory\n" + strings.Repeat("goroutine 1 [running]:\n", 10))
	if got := tb.fatalSince(mark); got != "fatal error: runtime: out of memory" {
		t.Errorf("fatalSince = %q", got)
	}
	if got := tb.fatalSince(tb.written()); got != "" {
		t.Errorf("fatalSince(after it) = %q", got)
	}
	write("end")
	if got := tb.since(tb.written() - 3); got != "end" {
		t.Errorf("since = %q", got)
	}
	// a cgo binary's thread that cannot map its stack under RLIMIT_DATA
	mark = tb.written()
	write("\nruntime/cgo: pthread_create failed: Resource temporarily unavailable\nSIGABRT: abort\n")
	if got := tb.memorySince(mark); got != "runtime/cgo: pthread_create failed: Resource temporarily unavailable" {
		t.Errorf("memorySince = %q", got)
	}
}

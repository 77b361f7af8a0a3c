package gitfs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// gitEvent is a trace2 event of a git process: its start (the argv it
// was run with), the start of a child (git fetch for a lazy fetch), or
// its exit.
type gitEvent struct {
	Event string   `json:"event"`
	SID   string   `json:"sid"`
	Argv  []string `json:"argv"`
}

// traceGit makes the git processes the test runs write their trace2
// events to a file, and returns a function that reads them.
func traceGit(t *testing.T) func() []gitEvent {
	t.Helper()
	file := filepath.Join(t.TempDir(), "trace2.json")
	t.Setenv("GIT_TRACE2_EVENT", file)
	return func() []gitEvent {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var events []gitEvent
		for line := range bytes.Lines(data) {
			var e gitEvent
			if err := json.Unmarshal(line, &e); err != nil {
				t.Fatalf("trace2: %v: %s", err, line)
			}
			events = append(events, e)
		}
		return events
	}
}

// runs counts the git processes started (event start) and exited (event
// exit) whose argv holds all of args.
func runs(events []gitEvent, args ...string) (started, exited int) {
	sids := map[string]bool{}
	for _, e := range events {
		if e.Event == "start" && !slices.ContainsFunc(args, func(a string) bool { return !slices.Contains(e.Argv, a) }) {
			started++
			sids[e.SID] = true
		}
		if e.Event == "exit" && sids[e.SID] {
			exited++
		}
	}
	return started, exited
}

// totalAlloc is the bytes the program has allocated so far.
func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// bigFile is 34 MiB of lines, and its digest.
func bigFile() (string, [32]byte) {
	big := strings.Repeat("0123456789abcdef\n", 2<<20)
	return big, sha256.Sum256([]byte(big))
}

// digest reads r to its end in parts, into a digest.
func digest(t *testing.T, r io.Reader) [32]byte {
	t.Helper()
	h := sha256.New()
	if _, err := io.Copy(h, bufio.NewReaderSize(r, 4096)); err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}

// TestOneGit: every file is read through one git cat-file --batch,
// started at the first read (not by New, Stat or ReadDir) and ended by
// Close; the content is right whatever the order of reads. Serial:
// traceGit sets GIT_TRACE2_EVENT.
func TestOneGit(t *testing.T) {
	r := gitfstest.New(t)
	files := map[string]string{"a.yaml": "kind: A\n", "d/b.yaml": "kind: B\n", "d/c.json": "{}\n", "d/e/f.yml": "kind: F\n", "empty": "\n"}
	r.Commit(files)
	events := traceGit(t)
	f, err := New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(f, "a.yaml"); err != nil {
		t.Fatal(err)
	}
	if n, _ := runs(events(), "cat-file", "--batch"); n != 0 {
		t.Errorf("git cat-file --batch started before a read: %d", n)
	}
	if err := fstest.TestFS(f, "a.yaml", "d/b.yaml", "d/c.json", "d/e/f.yml", "empty"); err != nil {
		t.Error(err)
	}
	for p, want := range files {
		if got, err := fs.ReadFile(f, p); string(got) != want || err != nil {
			t.Errorf("%s = %q, %v; want %q", p, got, err, want)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if n, _ := runs(events(), "cat-file"); n != 1 {
		t.Errorf("%d git cat-file processes, want 1 for the FS", n)
	}
	if n, exited := runs(events(), "cat-file", "--batch"); exited != n {
		t.Errorf("git cat-file --batch started %d times, exited %d after Close", n, exited)
	}
	if _, err := fs.ReadFile(f, "a.yaml"); err == nil {
		t.Error("a file read after Close")
	}
}

// TestStreams: a large file is streamed, never held: reading 34 MiB
// whole, closing it after a part, and reading another file while it is
// half read each allocate a small part of it, and each reads what the
// file holds. Serial: the allocations counted are the process's
// (runtime.MemStats).
func TestStreams(t *testing.T) {
	r := gitfstest.New(t)
	big, sum := bigFile()
	r.Commit(map[string]string{"big.yaml": big, "a.yaml": "kind: A\n"})
	f, err := New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const most = 2 << 20 // buffers, not the 34 MiB
	before := totalAlloc()
	fl, err := f.Open("big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := digest(t, fl); got != sum {
		t.Error("big.yaml read whole: wrong content")
	}
	fl.Close()
	if n := totalAlloc() - before; n > most {
		t.Errorf("reading big.yaml whole allocated %d bytes, want at most %d", n, most)
	}
	// half read, then another file, then the rest
	before = totalAlloc()
	fl, _ = f.Open("big.yaml")
	head := make([]byte, 1<<20)
	if _, err := io.ReadFull(fl, head); err != nil {
		t.Fatal(err)
	}
	if got, err := fs.ReadFile(f, "a.yaml"); string(got) != "kind: A\n" || err != nil {
		t.Errorf("a.yaml while big.yaml is half read: %q, %v", got, err)
	}
	if got := digest(t, io.MultiReader(bytes.NewReader(head), fl)); got != sum {
		t.Error("big.yaml read around a.yaml: wrong content")
	}
	fl.Close()
	// closed after a part: the rest is not read
	fl, _ = f.Open("big.yaml")
	if _, err := fl.Read(head[:100]); err != nil {
		t.Fatal(err)
	}
	fl.Close()
	if _, err := fl.Read(head); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
	if got, err := fs.ReadFile(f, "a.yaml"); string(got) != "kind: A\n" || err != nil {
		t.Errorf("a.yaml after big.yaml closed half read: %q, %v", got, err)
	}
	if n := totalAlloc() - before; n > most+1<<20 { // and head
		t.Errorf("reading big.yaml in parts allocated %d bytes, want at most %d", n, most+1<<20)
	}
}

// TestContext: the context's end stops git; a read then says so.
func TestContext(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	big, _ := bigFile()
	r.Commit(map[string]string{"big.yaml": big})
	ctx, cancel := context.WithCancel(context.Background())
	f, err := New(ctx, r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fl, _ := f.Open("big.yaml")
	if _, err := fl.Read(make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = io.Copy(io.Discard, fl)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "big.yaml") {
		t.Errorf("read after the context ended: %v, want context.Canceled naming the file", err)
	}
}

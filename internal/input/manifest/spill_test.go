package manifest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lowSpill is a spill of threshold n whose files go to an empty directory
// of the test, which it returns.
func lowSpill(t *testing.T, n int) (*spill, string) {
	t.Helper()
	dir := t.TempDir()
	return &spill{opts: &spillOptions{threshold: n, createTemp: tempIn(dir)}}, dir
}

// tempIn creates the temporary files of a spill in dir instead of TMPDIR.
func tempIn(dir string) func() (tempFile, error) {
	return func() (tempFile, error) { return os.CreateTemp(dir, "spill-*") }
}

// readBack is what the spill's reader and bytes give back, which must be
// the same.
func readBack(t *testing.T, s *spill) string {
	t.Helper()
	b, err := s.bytes()
	if err != nil {
		t.Fatalf("bytes: %v", err)
	}
	r, err := s.reader()
	if err != nil {
		t.Fatalf("reader: %v", err)
	}
	b2, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("reader gives %q (%v), bytes %q", b2, err, b)
	}
	return string(b)
}

// TestSpillThreshold: up to the threshold, counting what is held and what
// is written, the bytes stay in memory; beyond it they all go, in order,
// to a temporary file, unlinked at once (the spill holds no name); Len
// counts every byte; close releases the file and empties the spill.
func TestSpillThreshold(t *testing.T) {
	t.Parallel()
	s, dir := lowSpill(t, 8)
	for _, p := range []string{"abcd", "efgh"} { // 8: at the threshold
		if n, err := s.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if s.inFile() || readBack(t, s) != "abcdefgh" || s.Len() != 8 {
		t.Fatalf("at the threshold: in a file %v, %q, Len %d; want in memory, abcdefgh, 8", s.inFile(), readBack(t, s), s.Len())
	}
	if n, err := s.Write([]byte("i")); n != 1 || err != nil {
		t.Fatalf("Write(i) = %d, %v", n, err)
	}
	if !s.inFile() || s.Len() != 9 {
		t.Fatalf("beyond the threshold: in a file %v, Len %d; want a file, 9", s.inFile(), s.Len())
	}
	if s.name != "" {
		t.Errorf("the file is still linked as %s", s.name)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the spill's file is in its directory: %v", entries)
	}
	if _, err := s.Write([]byte("jk")); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, s); got != "abcdefghijk" {
		t.Errorf("read back %q, want abcdefghijk", got)
	}
	f := s.f.(*os.File)
	s.close()
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the file is not closed: %v", err)
	}
	if s.inFile() || s.Len() != 0 || s.mem.Len() != 0 || s.opts == nil || s.opts.threshold != 8 {
		t.Errorf("close left %+v, want it empty with its options", s)
	}

	// the sum of what is held and what comes decides, not each write
	sum, _ := lowSpill(t, 8)
	defer sum.close()
	sum.Write([]byte("abcd"))
	sum.Write([]byte("efghi"))
	if !sum.inFile() {
		t.Error("4 bytes held and 5 written stay in memory beyond a threshold of 8")
	}
}

// TestSpillCloseRemoves: a file that the system did not let the spill
// unlink when it made it (s.name) is removed on close.
func TestSpillCloseRemoves(t *testing.T) {
	t.Parallel()
	s, dir := lowSpill(t, 1)
	s.Write([]byte("ab"))
	if !s.inFile() {
		t.Fatal("not in a file")
	}
	linked := filepath.Join(dir, "still-linked")
	if err := os.WriteFile(linked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.name = linked // as where os.Remove of an open file fails
	s.close()
	if _, err := os.Stat(linked); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("close left the file: %v", err)
	}
}

// TestSpillDefaults: a reader's spills, and a spill of no reader, hold
// defaultSpillThreshold bytes in memory unless a test sets the reader's
// options, which every spill of that reader then follows.
func TestSpillDefaults(t *testing.T) {
	t.Parallel()
	var s spill
	if got := s.opts.limit(); got != defaultSpillThreshold {
		t.Errorf("a spill of no reader holds %d bytes, want %d", got, defaultSpillThreshold)
	}
	for _, in := range []string{"kind: A\n", `{"kind":"A"}`, `[{"kind":"A"}]`} {
		r := NewReader("f", strings.NewReader(in))
		if r.raw.opts != &r.spillOpts || r.seen.opts != &r.spillOpts || r.spillOpts.limit() != defaultSpillThreshold {
			t.Errorf("%s: the reader's spills do not share its options, or they are not the defaults", in)
		}
		r.spillOpts.threshold = 3
		r.raw.close()
		if r.raw.opts.limit() != 3 {
			t.Errorf("%s: the reader's spill holds %d bytes after close, want 3 as set on the reader", in, r.raw.opts.limit())
		}
	}
}

// inFile tells whether the bytes went to a file.
func (s *spill) inFile() bool { return s.f != nil }

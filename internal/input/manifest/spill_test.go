package manifest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// lowSpill sets the threshold to n and TMPDIR to an empty directory for
// the test, and returns that directory.
func lowSpill(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	old := spillThreshold
	spillThreshold = n
	t.Cleanup(func() { spillThreshold = old })
	return dir
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
	dir := lowSpill(t, 8)
	var s spill
	for _, p := range []string{"abcd", "efgh"} { // 8: at the threshold
		if n, err := s.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if s.inFile() || readBack(t, &s) != "abcdefgh" || s.Len() != 8 {
		t.Fatalf("at the threshold: in a file %v, %q, Len %d; want in memory, abcdefgh, 8", s.inFile(), readBack(t, &s), s.Len())
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
		t.Errorf("the spill's file is in TMPDIR: %v", entries)
	}
	if _, err := s.Write([]byte("jk")); err != nil {
		t.Fatal(err)
	}
	if got := readBack(t, &s); got != "abcdefghijk" {
		t.Errorf("read back %q, want abcdefghijk", got)
	}
	f := s.f.(*os.File)
	s.close()
	if _, err := f.Stat(); !errors.Is(err, os.ErrClosed) {
		t.Errorf("the file is not closed: %v", err)
	}
	if s.inFile() || s.Len() != 0 || s.mem.Len() != 0 {
		t.Errorf("close left %+v", s)
	}

	// the sum of what is held and what comes decides, not each write
	var sum spill
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
	dir := lowSpill(t, 1)
	var s spill
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

// inFile tells whether the bytes went to a file.
func (s *spill) inFile() bool { return s.f != nil }

package atomicout

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// TestReport: the first failed write is kept, returned by every later
// write and by Close, and names the destination; a report to a regular
// file is whole once Close returns nil.
func TestReport(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	r := NewReport(full, "standard output")
	if _, err := r.Write([]byte("a\n")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write to /dev/full: %v, want ENOSPC", err)
	}
	if _, err := r.Write(nil); err == nil {
		t.Error("a write after a failed one succeeded")
	}
	want := "writing the report to standard output: write /dev/full: no space left on device; the report is incomplete"
	if err := r.Close(); err == nil || err.Error() != want {
		t.Errorf("Close: %v, want %q", err, want)
	}

	f, err := os.Create(t.TempDir() + "/report")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r = NewReport(f, "standard output")
	if _, err := r.Write([]byte("whole\n")); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close of a regular file: %v", err)
	}
}

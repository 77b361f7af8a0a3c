package atomicout

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Report is a command's report stream, its standard output: writes go
// through to w until one fails, and Close says whether the whole report
// reached it. A command whose report is cut short (a full disk, /dev/full,
// a closed pipe) must say so and exit non-zero, never exit as if the
// report were whole.
type Report struct {
	w    io.Writer
	name string
	err  error
}

// NewReport returns the report stream over w, named name in errors
// ("standard output").
func NewReport(w io.Writer, name string) *Report { return &Report{w: w, name: name} }

// Write writes p, or returns the first error again once a write has
// failed: the report is already incomplete.
func (r *Report) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		r.err = &ReportError{Name: r.name, Err: err}
		return n, r.err
	}
	return n, nil
}

// Err is the first write error, a *ReportError, or nil.
func (r *Report) Err() error { return r.err }

// Close ends the report, and returns the first error that kept it from
// reaching its destination: a write error, or, when the report goes to a
// regular file, the error its fsync reports (a file system that reports
// a full disk or quota only when the data is written back, as NFS does).
// Close does not close w.
func (r *Report) Close() error {
	if r.err != nil {
		return r.err
	}
	if err := syncRegular(r.w); err != nil {
		r.err = &ReportError{Name: r.name, Err: err}
	}
	return r.err
}

// ReportError is a report that did not reach its destination in full.
type ReportError struct {
	Name string // the destination: "standard output"
	Err  error
}

func (e *ReportError) Error() string {
	return fmt.Sprintf("writing the report to %s: %v; the report is incomplete", e.Name, e.Err)
}

func (e *ReportError) Unwrap() error { return e.Err }

// syncRegular fsyncs w when it is a regular file; pipes, terminals and
// character devices are not synced (they cannot be, or need not be).
func syncRegular(w io.Writer) error {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

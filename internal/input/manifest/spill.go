package manifest

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// defaultSpillThreshold is how many bytes a spill holds in memory before
// it moves them to a temporary file.
const defaultSpillThreshold = 4 << 20

// tempFile is the temporary file of a spill.
type tempFile interface {
	io.ReadWriteSeeker
	io.Closer
	Name() string
}

// spillOptions are how a Reader's spills hold their bytes. The zero value
// (and a nil *spillOptions) is what NewReader uses: defaultSpillThreshold
// bytes in memory, then a file of os.CreateTemp in TMPDIR. A test sets them
// on its own Reader (Reader.spillOpts) or spill, never for the package.
type spillOptions struct {
	// threshold is how many bytes a spill holds in memory before it moves
	// them to a file; 0 is defaultSpillThreshold.
	threshold int
	// createTemp creates a spill's temporary file; nil is os.CreateTemp in
	// TMPDIR. Tests give files that fail, or that live in their own
	// directory.
	createTemp func() (tempFile, error)
}

func (o *spillOptions) limit() int {
	if o == nil || o.threshold == 0 {
		return defaultSpillThreshold
	}
	return o.threshold
}

func (o *spillOptions) create() (tempFile, error) {
	if o == nil || o.createTemp == nil {
		return os.CreateTemp("", "controller-gen-default-manifest-*")
	}
	return o.createTemp()
}

// spillBuffer is how many bytes a spill gathers before it writes them to
// its file.
const spillBuffer = 64 << 10

// spill holds bytes written once and read back once, in order: in memory up
// to its threshold (spillOptions), then in a temporary file (os.CreateTemp in TMPDIR).
// The file is unlinked as soon as it is created where the system allows it
// (it then disappears with the process, whatever happens), else when the
// spill is closed. When no file can be created, or writing it fails (a
// full TMPDIR), the bytes stay in memory (fallBack): a valid input is read
// as kubectl reads it, whole, at the cost of the memory the file saved.
type spill struct {
	// opts are its Reader's (nil: the defaults); close keeps them
	opts *spillOptions
	mem  bytes.Buffer
	f    tempFile
	buf  []byte // bytes not yet written to f
	name string // the file's name while it is still linked
	// inFileN is how many bytes f holds
	inFileN int64
	// noFile: no temporary file could be created or written; the bytes
	// stay in memory
	noFile bool
	n      int64
	// lost: the file failed and could not be read back
	lost error
}

func (s *spill) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if s.f == nil && (s.noFile || s.mem.Len()+len(p) <= s.opts.limit()) {
		return s.mem.Write(p)
	}
	if s.f == nil {
		f, err := s.opts.create()
		if err != nil {
			// no temporary file: memory, as the whole decode would take
			s.noFile = true
			return s.mem.Write(p)
		}
		s.f = f
		if os.Remove(f.Name()) != nil {
			s.name = f.Name()
		}
		s.buf = append(make([]byte, 0, spillBuffer), s.mem.Bytes()...)
		s.mem = bytes.Buffer{}
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= spillBuffer {
		s.flush()
	}
	return len(p), nil
}

// flush writes the buffered bytes to the file, or falls back to memory.
func (s *spill) flush() {
	if s.f == nil || len(s.buf) == 0 {
		return
	}
	n, err := s.f.Write(s.buf)
	s.inFileN += int64(n)
	if err != nil {
		s.fallBack(s.buf[n:])
		return
	}
	s.buf = s.buf[:0]
}

// fallBack moves what the file holds, then rest, back into memory, and
// drops the file: the rule for a temporary file that cannot be written
// (ENOSPC, a quota) is to go on in memory, not to fail a valid input.
func (s *spill) fallBack(rest []byte) {
	var mem bytes.Buffer
	mem.Grow(int(s.inFileN) + len(rest))
	_, err := s.f.Seek(0, io.SeekStart)
	if err == nil {
		_, err = io.CopyN(&mem, s.f, s.inFileN)
	}
	_ = s.f.Close() // dropped: what it held is read back, or reported lost below
	if s.name != "" {
		os.Remove(s.name)
	}
	if err != nil {
		// what the file holds cannot be read back: the bytes are lost
		s.f, s.buf = nil, nil
		s.mem, s.noFile = bytes.Buffer{}, true
		s.lost = fmt.Errorf("the temporary file in %s cannot be read back: %w", os.TempDir(), err)
		return
	}
	mem.Write(rest)
	s.f, s.buf, s.name, s.inFileN = nil, nil, "", 0
	s.mem, s.noFile = mem, true
}

// Len is the number of bytes written.
func (s *spill) Len() int64 { return s.n }

// reader returns the bytes written, from the first.
func (s *spill) reader() (io.Reader, error) {
	s.flush()
	if s.lost != nil {
		return nil, s.lost
	}
	if s.f == nil {
		return bytes.NewReader(s.mem.Bytes()), nil
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.LimitReader(s.f, s.inFileN), nil
}

// bytes returns the bytes written, read back into memory.
func (s *spill) bytes() ([]byte, error) {
	r, err := s.reader()
	if err != nil || s.f == nil {
		return s.mem.Bytes(), err
	}
	// room for ReadFrom's last read, which finds the end
	buf := bytes.NewBuffer(make([]byte, 0, s.n+bytes.MinRead))
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

// close releases the file, if any, and empties the spill; it keeps its
// options.
func (s *spill) close() {
	if s.f != nil {
		_ = s.f.Close() // a temporary file, dropped with what it holds
		if s.name != "" {
			os.Remove(s.name)
		}
	}
	*s = spill{opts: s.opts}
}

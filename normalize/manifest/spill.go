package manifest

import (
	"bufio"
	"bytes"
	"io"
	"os"
)

// spillThreshold is how many bytes a spill holds in memory before it moves
// them to a temporary file. Tests lower it to exercise the file.
var spillThreshold = 4 << 20

// spill holds bytes written once and read back once, in order: in memory up
// to spillThreshold, then in a temporary file (os.CreateTemp in TMPDIR).
// The file is unlinked as soon as it is created where the system allows it
// (it then disappears with the process, whatever happens), else when the
// spill is closed. When no file can be created, the bytes stay in memory.
type spill struct {
	mem  bytes.Buffer
	f    *os.File
	w    *bufio.Writer
	name string // the file's name while it is still linked
	err  error  // the first error writing the file
	// noFile: no temporary file could be created; the bytes stay in memory
	noFile bool
	n      int64
}

func (s *spill) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.n += int64(len(p))
	if s.f == nil && (s.noFile || s.mem.Len()+len(p) <= spillThreshold) {
		return s.mem.Write(p)
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "controller-gen-default-manifest-*")
		if err != nil {
			// no temporary file: memory, as the whole decode would take
			s.noFile = true
			return s.mem.Write(p)
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
		if os.Remove(f.Name()) != nil {
			s.name = f.Name()
		}
		if _, err := s.w.Write(s.mem.Bytes()); err != nil {
			s.err = err
			return 0, err
		}
		s.mem = bytes.Buffer{}
	}
	if _, err := s.w.Write(p); err != nil {
		s.err = err
		return 0, err
	}
	return len(p), nil
}

// Len is the number of bytes written.
func (s *spill) Len() int64 { return s.n }

// inFile tells whether the bytes went to a file.
func (s *spill) inFile() bool { return s.f != nil }

// reader returns the bytes written, from the first.
func (s *spill) reader() (io.Reader, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.f == nil {
		return bytes.NewReader(s.mem.Bytes()), nil
	}
	if err := s.w.Flush(); err != nil {
		return nil, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return s.f, nil
}

// bytes returns the bytes written, read back into memory.
func (s *spill) bytes() ([]byte, error) {
	if s.f == nil {
		return s.mem.Bytes(), s.err
	}
	r, err := s.reader()
	if err != nil {
		return nil, err
	}
	// room for ReadFrom's last read, which finds the end
	buf := bytes.NewBuffer(make([]byte, 0, s.n+bytes.MinRead))
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

// close releases the file, if any, and empties the spill.
func (s *spill) close() {
	if s.f != nil {
		s.f.Close()
		if s.name != "" {
			os.Remove(s.name)
		}
	}
	*s = spill{}
}

package gitfs

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// maxDiscard is the most of a blob that is read away, when another blob
// is asked for before its end, to keep git running: beyond it, git is
// stopped instead (and started again for the next blob), so that the
// rest of a large blob is never decompressed for nothing.
const maxDiscard = 64 << 10

// blobs streams the content of blobs from one `git cat-file --batch`,
// started at the first read (again only after it was stopped mid-blob:
// release) and ended by FS.Close, or killed when the context ends. A blob is asked for when its file is first read and streams
// from git's output to the reader: nothing holds it whole.
//
// One blob streams at a time. A file read while another one's blob
// streams ends that stream (release) and asks for its own again, skipping
// what it had read; a file read to its end, or closed, frees git for the
// next.
type blobs struct {
	ctx context.Context
	dir string
	env []string // as FS.env

	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	cur    *file // whose blob streams, nil when none
	left   int64 // the bytes of cur's blob not yet read
	closed bool  // by FS.Close
}

// read reads the next bytes of fl's blob into p.
func (b *blobs) read(fl *file, p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if fl.closed {
		return 0, fs.ErrClosed
	}
	if b.closed {
		return 0, errors.New("read after the git tree was closed")
	}
	if err := b.ctx.Err(); err != nil { // git is killed, or about to be
		b.stop(true)
		return 0, err
	}
	if fl.off >= fl.info.entry.size {
		return 0, io.EOF
	}
	if b.cur != fl {
		if err := b.ask(fl); err != nil {
			return 0, err
		}
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.out.Read(p)
	b.left -= int64(n)
	fl.off += int64(n)
	if err != nil {
		return n, b.fail(err)
	}
	if b.left == 0 {
		return n, b.end()
	}
	return n, nil
}

// close ends fl: its blob, if it streams, is released.
func (b *blobs) close(fl *file) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cur == fl {
		b.release()
	}
	fl.closed = true
}

// ask makes fl's blob the one that streams, at fl's offset: git is asked
// for it, and its header must say a blob of the size the tree gave.
func (b *blobs) ask(fl *file) error {
	b.release()
	if b.cmd == nil {
		if err := b.start(); err != nil {
			return err
		}
	}
	object, size := fl.info.entry.object, fl.info.entry.size
	if _, err := io.WriteString(b.in, object+"\n"); err != nil {
		return b.fail(err)
	}
	line, err := b.out.ReadSlice('\n')
	if err != nil {
		return b.fail(err)
	}
	if got := strings.Fields(string(line)); len(got) != 3 || got[0] != object || got[1] != "blob" || got[2] != strconv.FormatInt(size, 10) {
		b.stop(true) // what follows the header is unknown
		return fmt.Errorf("git cat-file --batch answered %q for blob %s of %d bytes", bytes.TrimSpace(line), object, size)
	}
	b.cur, b.left = fl, size
	if _, err := io.CopyN(io.Discard, b.out, fl.off); err != nil {
		return b.fail(err)
	}
	b.left -= fl.off
	return nil
}

// end reads the newline that follows a blob's content in git's output.
func (b *blobs) end() error {
	b.cur = nil
	c, err := b.out.ReadByte()
	if err != nil {
		return b.fail(fmt.Errorf("git cat-file --batch: no newline after a blob: %w", err))
	}
	if c != '\n' {
		return b.fail(fmt.Errorf("git cat-file --batch: no newline after a blob (%q)", c))
	}
	return nil
}

// release ends the stream of the current blob: its rest is read away
// when short, else git is stopped.
func (b *blobs) release() {
	if b.cur == nil {
		return
	}
	b.cur = nil
	if b.left+1 > maxDiscard {
		b.stop(true)
		return
	}
	if _, err := io.CopyN(io.Discard, b.out, b.left+1); err != nil { // and its newline
		b.stop(true)
	}
	b.left = 0
}

// start starts git cat-file --batch (ended by stop).
func (b *blobs) start() error {
	cmd := command(b.ctx, b.dir, b.env, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	b.stderr = &tail{}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file --batch: %w", err)
	}
	b.cmd, b.in, b.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	return nil
}

// stop ends git: at the end of its input, or killed when it may be
// blocked writing a blob no one reads.
func (b *blobs) stop(kill bool) {
	if b.cmd == nil {
		return
	}
	_ = b.in.Close() // git's input: that it ends is all that matters
	if kill {
		_ = b.cmd.Process.Kill() // fails only when git has exited already
	}
	_ = b.cmd.Wait() // reaps git; what it wrote was checked as it was read
	b.cmd, b.in, b.out, b.cur, b.left = nil, nil, nil, nil, 0
}

// closeAll ends git for good (FS.Close): later reads fail.
func (b *blobs) closeAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stop(b.cur != nil)
	b.closed = true
}

// fail stops git after its output or input broke, and says why: the
// context's end, or what git wrote to its standard error.
func (b *blobs) fail(err error) error {
	b.stop(true)
	if b.ctx.Err() != nil {
		return b.ctx.Err()
	}
	if msg := strings.TrimSpace(b.stderr.String()); msg != "" {
		return fmt.Errorf("git cat-file --batch: %s", msg)
	}
	return fmt.Errorf("git cat-file --batch: %w", err)
}

// tail keeps the last 4 KiB written to it: git's standard error, for
// messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4<<10 {
		t.buf = t.buf[len(t.buf)-4<<10:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

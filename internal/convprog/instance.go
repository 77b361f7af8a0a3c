package convprog

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// instance is one run of the program: the requests in flight on it, by
// id, and how its output ended.
type instance struct {
	cmd    *exec.Cmd // nil in tests that fake the program
	stdin  io.WriteCloser
	stderr *tailBuffer
	// limit is the memory limit it runs with (0: none), for messages.
	limit int64

	wmu sync.Mutex // one request line at a time on stdin

	mu        sync.Mutex
	pending   map[uint64]chan []byte // requests waiting for their answer
	abandoned int                    // requests given up (Timeout)
	// atEnd are the requests in flight when its output ended: one
	// alone made it end
	atEnd map[uint64]bool
	// tooLong is the answer line over the limit that ended its output
	tooLong *lineTooLongError
	done    chan struct{} // closed when its output ends

	waitOnce sync.Once
	waitErr  error
}

// maxAbandoned is how many requests that got no answer within Timeout
// (their conversions may still run in the program: a busy loop takes a
// CPU) an instance carries before it is stopped and started again.
const maxAbandoned = 8

func newInstance(stdin io.WriteCloser, stderr *tailBuffer) *instance {
	return &instance{stdin: stdin, stderr: stderr, pending: map[uint64]chan []byte{}, done: make(chan struct{})}
}

// launch starts the program with its memory limit; its standard output is
// read by in.read, with answers of at most lineLimit() bytes.
func launch(path string, memLimit int64, lineLimit func() int) (*instance, error) {
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	token := []byte("\x1econvprog-" + hex.EncodeToString(nonce[:]) + ":")
	cmd := exec.Command(path)
	cmd.Env = append(os.Environ(), TokenEnv+"="+string(token))
	if memLimit > 0 {
		cmd.Env = append(cmd.Env, "GOMEMLIMIT="+strconv.FormatInt(memLimit/4*3, 10))
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in := newInstance(stdin, &tailBuffer{max: 8 << 10})
	in.cmd = cmd
	cmd.Stderr = in.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the conversion program %s: %w", path, err)
	}
	if memLimit > 0 && limitMemory(cmd.Process.Pid, memLimit) == nil {
		in.limit = memLimit
	}
	go in.read(stdout, token, lineLimit)
	return in, nil
}

// expect registers request id, whose answer comes on the channel.
func (in *instance) expect(id uint64) chan []byte {
	ch := make(chan []byte, 1)
	in.mu.Lock()
	in.pending[id] = ch
	in.mu.Unlock()
	return ch
}

// write sends request id: its id, a space and body, on one line.
func (in *instance) write(id uint64, body []byte) error {
	line := make([]byte, 0, len(body)+24)
	line = strconv.AppendUint(line, id, 10)
	line = append(append(append(line, ' '), body...), '\n')
	in.wmu.Lock()
	defer in.wmu.Unlock()
	_, err := in.stdin.Write(line)
	return err
}

// abandon gives up request id (no answer in time; a late one is dropped),
// and kills the instance when it carries maxAbandoned of them.
func (in *instance) abandon(id uint64) {
	in.mu.Lock()
	delete(in.pending, id)
	in.abandoned++
	kill := in.abandoned >= maxAbandoned
	in.mu.Unlock()
	if kill {
		in.kill()
	}
}

// alone says whether request id was the only one in flight when the
// instance's output ended: then it made it end.
func (in *instance) alone(id uint64) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.atEnd) == 1 && in.atEnd[id]
}

// ended says whether the instance's output has ended.
func (in *instance) ended() bool {
	select {
	case <-in.done:
		return true
	default:
		return false
	}
}

// read reads the program's standard output until it ends: each answer (a
// line after the token: its request's id, a space, the answer) goes to the
// request that waits for it; what the API's code printed goes to
// in.stderr. A line longer than lineLimit() ends it (the program is
// killed): an answer is never longer, and the rest is not read.
func (in *instance) read(stdout io.Reader, token []byte, lineLimit func() int) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := readLine(r, lineLimit())
		if tl, ok := errors.AsType[*lineTooLongError](err); ok {
			in.end(tl)
			return
		}
		if before, answer, ok := splitAnswer(line, token); ok {
			_, _ = in.stderr.Write(before) // a tailBuffer's Write never fails
			in.deliver(answer)
		} else {
			_, _ = in.stderr.Write(line) // a tailBuffer's Write never fails
		}
		if err != nil {
			in.end(nil)
			return
		}
	}
}

// deliver gives an answer to its request; one that nobody waits for (a
// request given up) is dropped.
func (in *instance) deliver(answer []byte) {
	id, body, ok := bytes.Cut(answer, []byte(" "))
	n, err := strconv.ParseUint(string(id), 10, 64)
	if !ok || err != nil {
		return
	}
	in.mu.Lock()
	ch := in.pending[n]
	delete(in.pending, n)
	in.mu.Unlock()
	if ch != nil {
		ch <- bytes.Clone(body)
	}
}

// end notes that the output ended (tooLong: at a line over the limit),
// and which requests were in flight; the program is killed, since it
// cannot answer any more.
func (in *instance) end(tooLong *lineTooLongError) {
	in.mu.Lock()
	in.tooLong = tooLong
	in.atEnd = map[uint64]bool{}
	for id := range in.pending {
		in.atEnd[id] = true
	}
	in.mu.Unlock()
	in.kill()
	close(in.done)
}

// kill kills the program, if it runs.
func (in *instance) kill() {
	if in.cmd != nil && in.cmd.Process != nil {
		_ = in.cmd.Process.Kill() // fails only when the program has exited already
	}
}

// stop ends the instance: its standard input is closed (the program
// exits at its end), and it is killed if it has not exited within a few
// seconds (a conversion that does not return). It returns how it exited.
func (in *instance) stop() error {
	// a pipe holds nothing back: each request was written, and checked,
	// whole; should Close fail, the program is killed below
	_ = in.stdin.Close()
	select {
	case <-in.done:
	case <-time.After(5 * time.Second):
		in.kill()
	}
	return in.wait()
}

// wait waits for the program to exit, once, and returns how it did. Its
// output has ended, or will (it is killed).
func (in *instance) wait() error {
	in.waitOnce.Do(func() {
		<-in.done
		if in.cmd != nil {
			in.waitErr = in.cmd.Wait()
		}
	})
	return in.waitErr
}

// lineTooLongError is a line of the program's standard output longer than
// an answer may be.
type lineTooLongError struct {
	limit int
	start []byte // its first bytes
}

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("a line of more than %d bytes", e.limit)
}

// readLine reads a line (with its newline, or what is left at the end of
// r) of at most limit bytes; a longer one is a *lineTooLongError, after
// limit bytes or a little more are read.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > limit {
			start := append(line, frag...)
			return nil, &lineTooLongError{limit: limit, start: bytes.Clone(start[:min(len(start), 60)])}
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// splitAnswer cuts a line of the program's standard output at the token:
// what the API's code printed before it (without a newline), and the
// answer after it. ok is false for a line without the token, all printed.
func splitAnswer(line, token []byte) (printed, answer []byte, ok bool) {
	i := bytes.Index(line, token)
	if i < 0 {
		return line, nil, false
	}
	return line[:i], bytes.TrimSuffix(line[i+len(token):], []byte("\n")), true
}

// tailBuffer keeps the last max bytes written to it, and counts them all.
// It also keeps the last line that starts "fatal error: ", which the Go
// runtime writes for its own fatal errors (out of memory, concurrent map
// writes) before the traceback of every goroutine, which pushes it out of
// the tail; and the last line that says memory ran out (memoryLine).
type tailBuffer struct {
	mu            sync.Mutex
	max           int
	b             []byte
	total         int64
	line          []byte // the start of the line being written
	fatal, memory keptLine
}

// keptLine is a line and how many bytes were written before it.
type keptLine struct {
	line string
	at   int64
}

// memoryLine is how the Go runtime says that memory ran out: an
// allocation that fails, or a thread whose stack cannot be mapped (a cgo
// binary's pthread_create fails with EAGAIN under RLIMIT_DATA).
var memoryLine = regexp.MustCompile(`out of memory|cannot allocate memory|pthread_create failed|failed to create new OS thread`)

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.scan(p)
	n := len(p)
	t.total += int64(n)
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return n, nil
}

// scan follows the lines of p, written after t.total bytes, keeping the
// first 200 bytes of each, and notes a fatal error's line.
func (t *tailBuffer) scan(p []byte) {
	at := t.total
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if room := 200 - len(t.line); room > 0 {
			t.line = append(t.line, part[:min(room, len(part))]...)
		}
		if i < 0 {
			return
		}
		if bytes.HasPrefix(t.line, []byte("fatal error: ")) {
			t.fatal = keptLine{string(t.line), at}
		}
		if memoryLine.Match(t.line) {
			t.memory = keptLine{string(t.line), at}
		}
		t.line, at, p = t.line[:0], at+int64(i+1), p[i+1:]
	}
}

// fatalSince is the last fatal error's line written after the first n
// bytes, or "".
func (t *tailBuffer) fatalSince(n int64) string { return t.since1(&t.fatal, n) }

// memorySince is the last line that says memory ran out written after the
// first n bytes, or "".
func (t *tailBuffer) memorySince(n int64) string { return t.since1(&t.memory, n) }

func (t *tailBuffer) since1(l *keptLine, n int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l.at < n {
		return ""
	}
	return l.line
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// written is how many bytes were written so far.
func (t *tailBuffer) written() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total
}

// since is what was written after the first n bytes, as far as it is kept.
func (t *tailBuffer) since(n int64) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := min(t.total-n, int64(len(t.b)))
	return string(t.b[int64(len(t.b))-k:])
}

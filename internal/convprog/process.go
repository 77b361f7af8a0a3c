package convprog

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/uuid"
)

// Kind is a group/kind the program serves: the versions its scheme holds
// of it, by what their Go types implement.
type Kind struct {
	Group string `json:"group"`
	Kind  string `json:"kind"`
	// Hub is the version whose type implements conversion.Hub.
	Hub string `json:"hub,omitempty"`
	// Spokes are the versions whose types implement
	// conversion.Convertible, sorted.
	Spokes []string `json:"spokes,omitempty"`
	// Others are the versions that implement neither.
	Others []string `json:"others,omitempty"`
	// Convertible is controller-runtime's verdict
	// (webhook/conversion.IsConvertible): one hub, and every other version
	// a spoke. The webhook converts only such kinds.
	Convertible bool `json:"convertible"`
	// Problem is why not, when IsConvertible says (two hubs, a version
	// that is neither), or the error of a registered Converter's
	// constructor.
	Problem string `json:"problem,omitempty"`
	// Versions are all the versions the scheme holds of the kind, sorted.
	Versions []string `json:"versions,omitempty"`
	// Via is how a registered controller-runtime Converter converts the
	// kind ("WithConverter", "RegisterConverter"), and Where where the
	// user's code registers it (file:line:col relative to the module's
	// root); both empty for Hub/Convertible methods. A Converter converts
	// between all Versions; Hub is its hub when the program can tell (a
	// conversion.NewHubSpokeConverter's hub object), else empty (the CRD's
	// storage version plays the hub) and Spokes are all Versions.
	Via   string `json:"via,omitempty"`
	Where string `json:"where,omitempty"`
}

// GroupKind is the kind's group and kind.
func (k Kind) GroupKind() schema.GroupKind { return schema.GroupKind{Group: k.Group, Kind: k.Kind} }

// Process is a running conversion program. It is safe for concurrent use;
// requests are answered one at a time.
//
// A program that exits in the middle of a request (os.Exit, log.Fatal or
// a panic in the API's code, on one object) or does not answer within
// Timeout (the request is abandoned: its answer would be taken for the
// next one's) fails that request only, with the reason (its exit status
// and the end of its standard error, or the timeout); it is killed if it
// still runs, and the next request starts it again, as a webhook server's
// Deployment restarts its Pod (restartOnFailure). After MaxRestarts
// restarts, or a restart that fails (the program dies before answering
// its Kinds), every later request fails with that error.
type Process struct {
	prog  *Program // started again after a failure; nil: never restarted
	kinds []Kind
	// Timeout is how long one request may take: DefaultTimeout, the
	// apiserver's webhook client's, unless set before the first request.
	Timeout time.Duration

	mu       sync.Mutex
	cur      *instance // nil after a failure, until the next request
	restarts int
	broken   error // set when the program is not restarted again
	closed   bool
}

// instance is one run of the program.
type instance struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan []byte // stdout, line by line; closed at EOF
	stderr  *tailBuffer
	waited  bool
	waitErr error
}

// DefaultTimeout is how long a request to the program may take: the
// timeout of the apiserver's webhook client (k8s.io/apiserver
// pkg/util/webhook: defaultRequestTimeout, 30 s), after which the
// apiserver answers the conversion's request with an error.
const DefaultTimeout = 30 * time.Second

// MaxRestarts is how many times a Process starts its program again.
const MaxRestarts = 20

// TokenEnv is the environment variable that gives the program the token
// its answers start with: a line of its standard output without it is
// something the API's code printed, kept with its standard error.
const TokenEnv = "CONTROLLER_GEN_DEFAULT_CONVPROG_TOKEN"

// Start runs the program and asks it for its kinds.
func (p *Program) Start(ctx context.Context) (*Process, error) {
	proc := &Process{prog: p, Timeout: DefaultTimeout}
	kinds, err := proc.start(ctx)
	if err != nil {
		return nil, err
	}
	proc.kinds = kinds
	return proc, nil
}

// start runs the program as proc.cur and returns the kinds it answers.
func (proc *Process) start(ctx context.Context) ([]Kind, error) {
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	token := []byte("\x1econvprog-" + hex.EncodeToString(nonce[:]) + ":")
	cmd := exec.Command(proc.prog.Path)
	cmd.Env = append(os.Environ(), TokenEnv+"="+string(token))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	in := &instance{cmd: cmd, stdin: stdin, lines: make(chan []byte, 1), stderr: &tailBuffer{max: 8 << 10}}
	cmd.Stderr = in.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the conversion program %s: %w", proc.prog.Path, err)
	}
	go readAnswers(stdout, token, in.lines, in.stderr)
	proc.cur = in
	var resp struct {
		Kind  string `json:"kind"`
		Kinds []Kind `json:"kinds"`
	}
	if err := proc.requestLocked(ctx, []byte(`{"kind":"Kinds"}`), &resp); err != nil {
		proc.stop()
		return nil, err
	}
	if resp.Kind != "Kinds" {
		proc.stop()
		return nil, fmt.Errorf("the conversion program answered the Kinds request with kind %q", resp.Kind)
	}
	return resp.Kinds, nil
}

// readAnswers reads the program's standard output line by line until it
// ends, then closes lines: each answer (after the token) goes to lines,
// what the API's code printed to printed.
func readAnswers(stdout io.Reader, token []byte, lines chan<- []byte, printed io.Writer) {
	defer close(lines)
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if before, answer, ok := splitAnswer(line, token); ok {
			printed.Write(before)
			lines <- answer
		} else {
			printed.Write(line)
		}
		if err != nil {
			return
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
	return line[:i], line[i+len(token):], true
}

// Kinds are the group/kinds the program serves, sorted by group and kind.
func (p *Process) Kinds() []Kind { return p.kinds }

// Kind is the kind of gk, if the program serves it.
func (p *Process) Kind(gk schema.GroupKind) (Kind, bool) {
	for _, k := range p.kinds {
		if k.GroupKind() == gk {
			return k, true
		}
	}
	return Kind{}, false
}

// ConversionError is a conversion the webhook handler refused: the
// response's result (a failure), as the apiserver gets it.
type ConversionError struct {
	Result metav1.Status
}

func (e *ConversionError) Error() string { return e.Result.Message }

// Convert converts objs to toAPIVersion (group/version) in one
// ConversionReview, as the apiserver's webhook converter sends it, and
// returns the converted objects in order. A refusal of the handler (a
// ConvertTo or ConvertFrom error, a version it does not know, an object
// already at toAPIVersion) is a *ConversionError.
func (p *Process) Convert(ctx context.Context, objs []map[string]any, toAPIVersion string) ([]map[string]any, error) {
	review := &apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: apiextensionsv1.SchemeGroupVersion.String(), Kind: "ConversionReview"},
		Request:  &apiextensionsv1.ConversionRequest{UID: uuid.NewUUID(), DesiredAPIVersion: toAPIVersion},
	}
	for _, o := range objs {
		raw, err := json.Marshal(o)
		if err != nil {
			return nil, err
		}
		review.Request.Objects = append(review.Request.Objects, runtime.RawExtension{Raw: raw})
	}
	resp, err := p.Review(ctx, review)
	if err != nil {
		return nil, err
	}
	if resp.Response.Result.Status != metav1.StatusSuccess {
		return nil, &ConversionError{Result: resp.Response.Result}
	}
	if n := len(resp.Response.ConvertedObjects); n != len(objs) {
		return nil, fmt.Errorf("the conversion webhook returned %d objects for %d", n, len(objs))
	}
	out := make([]map[string]any, len(objs))
	for i, c := range resp.Response.ConvertedObjects {
		// numbers as the apiserver decodes them: int64 or float64
		if err := utiljson.Unmarshal(c.Raw, &out[i]); err != nil {
			return nil, fmt.Errorf("converted object %d: %w", i, err)
		}
	}
	return out, nil
}

// Review sends a ConversionReview (with a request) and returns the
// handler's answer, which has a response with the request's UID.
func (p *Process) Review(ctx context.Context, review *apiextensionsv1.ConversionReview) (*apiextensionsv1.ConversionReview, error) {
	if review.Request == nil {
		return nil, errors.New("ConversionReview without a request")
	}
	if review.Kind == "" {
		review = review.DeepCopy()
		review.APIVersion, review.Kind = apiextensionsv1.SchemeGroupVersion.String(), "ConversionReview"
	}
	line, err := json.Marshal(review)
	if err != nil {
		return nil, err
	}
	out := &apiextensionsv1.ConversionReview{}
	if err := p.request(ctx, line, out); err != nil {
		return nil, err
	}
	if out.Response == nil {
		return nil, errors.New("the conversion webhook answered without a response")
	}
	if out.Response.UID != review.Request.UID {
		return nil, fmt.Errorf("the conversion webhook answered request %s with response %s", review.Request.UID, out.Response.UID)
	}
	return out, nil
}

// Handler serves ConversionReviews (POST, application/json) through the
// process, as a webhook server does: for a client that calls webhooks
// itself.
func (p *Process) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var raw json.RawMessage
		if err := p.request(r.Context(), compact.Bytes(), &raw); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(raw)
	})
}

// request sends one line and decodes the answer into out; an answer of
// kind Error is an error. A program that has failed is started again
// first (see Process).
func (p *Process) request(ctx context.Context, line []byte, out any) error {
	if bytes.IndexByte(line, '\n') >= 0 {
		return errors.New("a request must be one line of JSON")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errors.New("the conversion program is closed")
	}
	if p.broken != nil {
		return p.broken
	}
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, p.Timeout, fmt.Errorf("no answer within %v", p.Timeout))
		defer cancel()
	}
	if p.cur == nil {
		// within the request's time: a program that hangs as it starts
		// again fails it
		if err := p.restart(ctx); err != nil {
			return err
		}
	}
	return p.requestLocked(ctx, line, out)
}

// restart starts the program again after a failure, unless it has been
// restarted MaxRestarts times already or cannot be: p.broken then says
// why, for this request and every later one.
func (p *Process) restart(ctx context.Context) error {
	if p.prog == nil {
		p.broken = errors.New("the conversion program stopped")
		return p.broken
	}
	if p.restarts >= MaxRestarts {
		p.broken = fmt.Errorf("the conversion program failed %d times; it is not started again", p.restarts+1)
		return p.broken
	}
	p.restarts++
	if _, err := p.start(ctx); err != nil {
		p.broken = fmt.Errorf("the conversion program failed, and could not be started again: %w", err)
		return p.broken
	}
	return nil
}

// requestLocked is request on the running program, with p.mu held.
// When the program exits before it answers, or ctx ends first, the
// program is stopped (killed if need be) and the error says why; the
// next request starts it again.
func (p *Process) requestLocked(ctx context.Context, line []byte, out any) error {
	in := p.cur
	if _, err := in.stdin.Write(append(line, '\n')); err != nil {
		return p.died(err)
	}
	var answer []byte
	select {
	case a, ok := <-in.lines:
		if !ok {
			return p.died(io.ErrUnexpectedEOF)
		}
		answer = a
	case <-ctx.Done():
		// the answer would be read by the next request: stop here
		if in.cmd != nil {
			in.cmd.Process.Kill()
		}
		p.stop()
		cause := context.Cause(ctx)
		if cause == nil || cause == ctx.Err() {
			return &ProgramError{fmt.Errorf("the conversion program was abandoned mid-request and killed: %w", ctx.Err())}
		}
		return &ProgramError{fmt.Errorf("the conversion program was killed: %w (%w)", cause, ctx.Err())}
	}
	var head struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(answer, &head); err != nil {
		return fmt.Errorf("the conversion program's answer: %w", err)
	}
	if head.Kind == "Error" {
		return fmt.Errorf("the conversion program: %s", head.Message)
	}
	return json.Unmarshal(answer, out)
}

// died is the error of a program that stopped answering: its exit and
// the end of its standard error. The program is done with.
func (p *Process) died(err error) error {
	in := p.cur
	if werr := p.stop(); werr != nil {
		err = werr
	}
	if msg := strings.TrimSpace(in.stderr.String()); msg != "" {
		return &ProgramError{fmt.Errorf("the conversion program stopped (%v):\n%s", err, msg)}
	}
	return &ProgramError{fmt.Errorf("the conversion program stopped: %v", err)}
}

// ProgramError is a request that the program failed by exiting, or by not
// answering in time (it was killed): that request alone fails, as the
// apiserver's request whose webhook call fails; the next request starts
// the program again.
type ProgramError struct{ Err error }

func (e *ProgramError) Error() string { return e.Err.Error() }
func (e *ProgramError) Unwrap() error { return e.Err }

// stop ends the running program, if any: its standard input is closed,
// what is left of its output read (so that its pipe is done with, as
// exec.Cmd.Wait needs), and it is waited for. It returns how it exited.
func (p *Process) stop() error {
	in := p.cur
	if in == nil {
		return nil
	}
	p.cur = nil
	return in.wait()
}

// wait closes the instance's standard input, reads what is left of its
// output and waits for it to exit, once.
func (in *instance) wait() error {
	if in.waited {
		return in.waitErr
	}
	in.waited = true
	in.stdin.Close()
	for range in.lines {
	}
	if in.cmd != nil {
		in.waitErr = in.cmd.Wait()
	}
	return in.waitErr
}

// Close ends the program: its standard input is closed and it exits. An
// exit that was already reported (a request failed with it) is not
// returned again.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	return p.stop()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

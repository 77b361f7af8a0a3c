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
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // stdout, line by line; closed at EOF
	stderr *tailBuffer
	kinds  []Kind

	mu      sync.Mutex
	broken  error // set when a request was abandoned or the program died
	closed  bool
	waited  bool
	waitErr error
}

// TokenEnv is the environment variable that gives the program the token
// its answers start with: a line of its standard output without it is
// something the API's code printed, kept with its standard error.
const TokenEnv = "CONTROLLER_GEN_DEFAULT_CONVPROG_TOKEN"

// Start runs the program and asks it for its kinds.
func (p *Program) Start(ctx context.Context) (*Process, error) {
	var nonce [16]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	token := []byte("\x1econvprog-" + hex.EncodeToString(nonce[:]) + ":")
	cmd := exec.Command(p.Path)
	cmd.Env = append(os.Environ(), TokenEnv+"="+string(token))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	proc := &Process{cmd: cmd, stdin: stdin, lines: make(chan []byte, 1), stderr: &tailBuffer{max: 8 << 10}}
	cmd.Stderr = proc.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the conversion program %s: %w", p.Path, err)
	}
	go readAnswers(stdout, token, proc.lines, proc.stderr)
	var resp struct {
		Kind  string `json:"kind"`
		Kinds []Kind `json:"kinds"`
	}
	if err := proc.request(ctx, []byte(`{"kind":"Kinds"}`), &resp); err != nil {
		proc.Close()
		return nil, err
	}
	if resp.Kind != "Kinds" {
		proc.Close()
		return nil, fmt.Errorf("the conversion program answered the Kinds request with kind %q", resp.Kind)
	}
	proc.kinds = resp.Kinds
	return proc, nil
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
// kind Error is an error.
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
	if _, err := p.stdin.Write(append(line, '\n')); err != nil {
		p.broken = p.died(err)
		return p.broken
	}
	var answer []byte
	select {
	case a, ok := <-p.lines:
		if !ok {
			p.broken = p.died(io.ErrUnexpectedEOF)
			return p.broken
		}
		answer = a
	case <-ctx.Done():
		// the answer would be read by the next request: stop here
		p.broken = fmt.Errorf("the conversion program was abandoned mid-request: %w", ctx.Err())
		p.cmd.Process.Kill()
		return ctx.Err()
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
// the end of its standard error.
func (p *Process) died(err error) error {
	if werr := p.wait(); werr != nil {
		err = werr
	}
	if msg := strings.TrimSpace(p.stderr.String()); msg != "" {
		return fmt.Errorf("the conversion program stopped (%v):\n%s", err, msg)
	}
	return fmt.Errorf("the conversion program stopped: %v", err)
}

// wait closes the program's standard input, reads what is left of its
// output (so that its pipe is done with, as exec.Cmd.Wait needs) and waits
// for it to exit, once.
func (p *Process) wait() error {
	if p.waited {
		return p.waitErr
	}
	p.waited = true
	p.stdin.Close()
	for range p.lines {
	}
	p.waitErr = p.cmd.Wait()
	return p.waitErr
}

// Close ends the program: its standard input is closed and it exits.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.closed = true
	err := p.wait()
	if p.broken != nil {
		return nil // reported already
	}
	return err
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

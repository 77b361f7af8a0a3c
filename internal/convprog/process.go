package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
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

// Process is a running conversion program. It is safe for concurrent use,
// and the program serves its requests concurrently, each in its own
// goroutine, as a webhook server serves the apiserver's: a slow or hung
// conversion holds up no other.
//
// A request the API's code fails fails alone, whatever else is in flight,
// so that what a caller reports of each object does not depend on how
// many it converts at once:
//
//   - no answer within Timeout (a conversion that does not return): the
//     request fails with the timeout, as the apiserver's does; the program
//     goes on (after maxAbandoned such requests it is started again);
//   - the program exits (os.Exit, log.Fatal or a panic in the API's code,
//     out of memory: MemoryLimit; an answer line longer than an answer may
//     be, which stops it): every request in flight on it is cut. One that
//     was alone fails, with the reason (its exit status and what it wrote
//     to standard error since the request was sent). The others are run
//     again, each alone in a program started for it (quarantine), so that
//     only the request that makes the program exit fails.
//
// The next request starts the program again, as a webhook server's
// Deployment restarts its Pod (restartOnFailure). After MaxRestarts
// requests made it exit, or a start that fails (the program dies before
// answering its Kinds), every later request fails with that error.
type Process struct {
	prog  *Program // started again after a failure; nil: never restarted
	kinds []Kind
	// Timeout is how long one request may take: DefaultTimeout, the
	// apiserver's webhook client's, unless set before the first request.
	Timeout time.Duration

	ids     atomic.Uint64
	longest atomic.Int64 // the longest request sent, in bytes

	mu       sync.Mutex
	cur      *instance
	restarts int   // how many times cur was started again
	failures int   // requests that made the program exit
	broken   error // set when the program is not started again
	closed   bool
}

// DefaultTimeout is how long a request to the program may take: the
// timeout of the apiserver's webhook client (k8s.io/apiserver
// pkg/util/webhook: defaultRequestTimeout, 30 s), after which the
// apiserver answers the conversion's request with an error.
const DefaultTimeout = 30 * time.Second

// MaxRestarts is how many requests may make the program exit before it is
// not started again.
const MaxRestarts = 20

// TokenEnv is the environment variable that gives the program the token
// its answers start with: a line of its standard output without it is
// something the API's code printed, kept with its standard error.
const TokenEnv = "CONTROLLER_GEN_DEFAULT_CONVPROG_TOKEN"

// Start runs the program and asks it for its kinds. Two Converters
// registered for one group/kind are a *DuplicateError: the manager
// refuses them.
func (p *Program) Start(ctx context.Context) (*Process, error) {
	proc := &Process{prog: p, Timeout: DefaultTimeout}
	in, answer, err := proc.launch(ctx)
	if err != nil {
		return nil, err
	}
	if err := p.duplicates(answer.Duplicates); err != nil {
		_ = in.stop() // the duplicates are the error to report
		return nil, err
	}
	proc.cur, proc.kinds = in, answer.Kinds
	return proc, nil
}

// kindsAnswer is the program's answer to {"kind":"Kinds"}.
type kindsAnswer struct {
	Kind       string      `json:"kind"`
	Kinds      []Kind      `json:"kinds"`
	Duplicates []duplicate `json:"duplicates,omitempty"`
}

// launch starts an instance of the program and asks it for its kinds.
func (p *Process) launch(ctx context.Context) (*instance, *kindsAnswer, error) {
	in, err := launch(p.prog.Path, p.prog.memoryLimit(), p.lineLimit)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	raw, err := p.send(ctx, in, []byte(`{"kind":"Kinds"}`))
	var resp kindsAnswer
	if err == nil {
		err = decodeAnswer(raw, &resp)
	}
	if err == nil && resp.Kind != "Kinds" {
		err = fmt.Errorf("the conversion program answered the Kinds request with kind %q", resp.Kind)
	}
	if err != nil {
		in.kill()
		_ = in.stop() // killed: err says why the Kinds request failed
		return nil, nil, unwrapCut(err)
	}
	return in, &resp, nil
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
		_, _ = w.Write(raw) // the client went away: there is nobody to tell
	})
}

// request sends one request and decodes the answer into out; an answer
// of kind Error is an error. A request cut by the program's exit along
// with others is run again alone (see Process).
func (p *Process) request(ctx context.Context, body []byte, out any) error {
	if bytes.IndexByte(body, '\n') >= 0 {
		return errors.New("a request must be one line of JSON")
	}
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	in, err := p.running(ctx)
	if err != nil {
		return err
	}
	answer, err := p.send(ctx, in, body)
	if c, ok := errors.AsType[*cutError](err); ok && !c.alone {
		answer, err = p.quarantine(ctx, body)
	}
	if c, ok := errors.AsType[*cutError](err); ok {
		p.mu.Lock()
		p.failures++
		p.mu.Unlock()
		return c.err
	}
	if err != nil {
		return err
	}
	return decodeAnswer(answer, out)
}

// withTimeout is ctx ending after Timeout, if set.
func (p *Process) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if p.Timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, p.Timeout, fmt.Errorf("no answer within %v", p.Timeout))
}

// running is the running instance, started again if it has ended, unless
// the process is closed or broken.
func (p *Process) running(ctx context.Context) (*instance, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errors.New("the conversion program is closed")
	}
	if p.broken != nil {
		return nil, p.broken
	}
	if p.cur != nil && !p.cur.ended() {
		return p.cur, nil
	}
	if p.cur != nil {
		_ = p.cur.stop() // it ended: the requests it cut or gave up had their errors
		p.cur = nil
	}
	if err := p.usable(); err != nil {
		return nil, err
	}
	in, _, err := p.launch(ctx)
	if err != nil {
		p.broken = fmt.Errorf("the conversion program failed, and could not be started again: %w", err)
		return nil, p.broken
	}
	p.cur = in
	p.restarts++
	return in, nil
}

// usable says, with p.mu held, whether the program may be started again:
// it may not without a Program, or after MaxRestarts failures (p.broken
// then says why, for this request and every later one).
func (p *Process) usable() error {
	switch {
	case p.broken != nil:
	case p.prog == nil:
		p.broken = errors.New("the conversion program stopped")
	case p.failures > MaxRestarts:
		p.broken = fmt.Errorf("the conversion program failed %d times; it is not started again", p.failures)
	}
	return p.broken
}

// quarantine runs a request alone, in an instance of the program started
// for it and stopped after: a cut is then the request's own.
func (p *Process) quarantine(ctx context.Context, body []byte) ([]byte, error) {
	p.mu.Lock()
	err := p.usable()
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	in, _, err := p.launch(ctx)
	if err != nil {
		return nil, fmt.Errorf("the conversion program failed, and could not be started again: %w", err)
	}
	defer func() { _ = in.stop() }() // a cut is send's error; an exit after the answer changes nothing
	return p.send(ctx, in, body)
}

// send sends one request to in and waits for its answer. The error is a
// *cutError when in's output ends first, a *ProgramError when ctx ends
// first.
func (p *Process) send(ctx context.Context, in *instance, body []byte) ([]byte, error) {
	id := p.ids.Add(1)
	for n := int64(len(body)); ; {
		old := p.longest.Load()
		if n <= old || p.longest.CompareAndSwap(old, n) {
			break
		}
	}
	since := in.stderr.written()
	ch := in.expect(id)
	if err := in.write(id, body); err != nil {
		in.kill() // a line cut short: the program cannot read on
	}
	select {
	case a := <-ch:
		return a, nil
	case <-in.done:
		select {
		case a := <-ch: // answered before its output ended
			return a, nil
		default:
		}
		return nil, &cutError{err: exitError(in, since), alone: in.alone(id)}
	case <-ctx.Done():
		in.abandon(id)
		cause := context.Cause(ctx)
		if cause == nil || cause == ctx.Err() { //nolint:errorlint // Cause is ctx.Err() itself when no cause was given
			return nil, &ProgramError{Err: fmt.Errorf("the request to the conversion program was abandoned: %w", ctx.Err())}
		}
		return nil, &ProgramError{Err: fmt.Errorf("the conversion program did not answer: %w (%w)", cause, ctx.Err())}
	}
}

// decodeAnswer decodes an answer into out; an answer of kind Error is an
// error.
func decodeAnswer(answer []byte, out any) error {
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

// cutError is a request whose instance's output ended before it was
// answered; alone: it was the only one in flight, and made it end.
type cutError struct {
	err   *ProgramError
	alone bool
}

func (e *cutError) Error() string { return e.err.Error() }

// unwrapCut is err, a cut as the ProgramError it is.
func unwrapCut(err error) error {
	if c, ok := errors.AsType[*cutError](err); ok {
		return c.err
	}
	return err
}

// ProgramError is a request that the program failed by exiting, or by not
// answering in time: that request alone fails, as the apiserver's request
// whose webhook call fails; the next request starts the program again if
// it exited. OutOfMemory: it exited at its memory limit.
type ProgramError struct {
	Err         error
	OutOfMemory bool
}

func (e *ProgramError) Error() string { return e.Err.Error() }
func (e *ProgramError) Unwrap() error { return e.Err }

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
	in := p.cur
	if in == nil {
		return nil
	}
	p.cur = nil
	reported := in.ended()
	if err := in.stop(); err != nil && !reported {
		return err
	}
	return nil
}

package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/ordered"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/yamlout"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

// Exit codes of Run.
const (
	ExitOK       = 0 // every document is valid
	ExitInvalid  = 1 // some document is invalid (or, with --strict, has unknown or duplicate fields)
	ExitUnusable = 2 // bad usage, an invalid CRD, unparsable input, or no CRD for a document
)

// Options are what Run does: the flags of `controller-gen-default
// normalize`, which its command (cmd/internal/objects/normalizecmd)
// reads and checks.
type Options struct {
	// CRDs are the CRD files or directories (--crd).
	CRDs []string
	// Files are the files of the objects, - for stdin, read as kubectl
	// create -f reads them (manifest.Files: a directory is its
	// manifests); none: stdin.
	Files []string
	// Recursive: a directory of Files is read with its subdirectories, as
	// kubectl's -R, --recursive reads it (-R).
	Recursive bool
	// Output is "yaml" (or "") for a YAML stream, "json" for one JSON
	// object per line (-o).
	Output string
	// Strict: unknown and duplicate fields refuse the object, as
	// fieldValidation=Strict does (--strict).
	Strict bool
	// SkipOtherGroups: objects whose API group no CRD has are skipped,
	// with a note, instead of unusable (--skip-other-groups).
	SkipOtherGroups bool
	// Namespace is the namespace of namespaced objects that have none (-n;
	// "" is default); with ExplicitNamespace (-n given), objects in
	// another namespace are refused, as kubectl refuses them.
	Namespace         string
	ExplicitNamespace bool
	// Workers is how many objects are created at once; 0 is GOMAXPROCS.
	Workers int
}

// Run is what `controller-gen-default normalize` does with its options.
// Objects are created on o.Workers workers and printed in input order as
// soon as each and those before it are done, each after its messages on
// stderr: stdout and stderr are the same for any number of workers.
// Refused objects (exit 1) are printed too, as they would have been stored
// had validation passed, so that the errors can be read against them. The
// first unusable object or document (exit 2) ends the run: the objects
// before it are printed, it and those after it are not. It returns the
// exit status.
func Run(ctx context.Context, o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	files, err := manifest.Files(o.Files, o.Recursive)
	if err != nil {
		fmt.Fprintf(stderr, "normalize: %v\n", err)
		return ExitUnusable
	}
	o.Files = files
	if len(o.Files) == 0 {
		o.Files = []string{"-"}
	}
	if o.Namespace == "" {
		o.Namespace = metav1.NamespaceDefault
	}
	n := o.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	pipelines, groups, code := loadPipelines(ctx, o.CRDs, stderr)
	if code != ExitOK {
		return code
	}
	return runObjects(ctx, pipelines, groups, &o, stdin, stdout, stderr, n)
}

// runObjects creates the objects of o.Files on n workers and prints them
// in input order (internal/encoding/ordered). With o.SkipOtherGroups, an object
// whose API group is not among groups, the CRDs' groups, is skipped with a
// note.
func runObjects(ctx context.Context, pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, groups map[string]bool, o *Options, stdin io.Reader, stdout, stderr io.Writer, n int) int {
	report := atomicout.NewReport(stdout, "standard output")
	p := &printer{stdout: report, stderr: stderr, yaml: o.Output != "json"}
	err := ordered.Run(ctx, n, objects(o.Files, stdin),
		func(ctx context.Context, d manifest.Object) (outcome, error) {
			if o.SkipOtherGroups && !groups[objectpath.APIGroup(d.Object)] {
				return outcome{stderr: skipNote(d)}, nil
			}
			return normalizeOutcome(ctx, pipelines, d, o), nil
		}, p.print)
	if ferr := p.flush(); err == nil {
		err = ferr
	}
	if rerr := report.Close(); rerr != nil {
		err = rerr // the first write error, or the file's fsync
	}
	switch {
	case err == nil:
		return p.code
	case errors.Is(err, errUnusable): // its messages are printed
	case errors.As(err, new(*atomicout.ReportError)): // stdout failing
		fmt.Fprintf(stderr, "normalize: %v\n", err)
	default: // an unreadable file or document
		fmt.Fprintln(stderr, err)
	}
	return ExitUnusable
}

// objects ranges over the objects of files, in order (- is stdin); it ends
// with the first file that cannot be opened or document that cannot be
// read. Each file is closed once read.
func objects(files []string, stdin io.Reader) iter.Seq2[manifest.Object, error] {
	return func(yield func(manifest.Object, error) bool) {
		for _, in := range files {
			if !eachObject(in, stdin, yield) {
				return
			}
		}
	}
}

// eachObject yields the objects of the file in, and says whether to go on
// to the next file.
func eachObject(in string, stdin io.Reader, yield func(manifest.Object, error) bool) bool {
	r, name, closeFn, err := openInput(in, stdin)
	if err != nil {
		yield(manifest.Object{}, fmt.Errorf("%s: %w", name, err))
		return false
	}
	defer closeFn()
	for d, err := range manifest.All(name, r) {
		if !yield(d, err) || err != nil {
			return false
		}
	}
	return true
}

// errUnusable ends the run at an unusable object, whose messages are
// printed.
var errUnusable = errors.New("unusable object")

// outcome is what normalize prints of one object: its messages, and the
// object as stored unless the object is unusable or skipped.
type outcome struct {
	stderr []byte
	// object is the object as a YAML document after its separator, or as
	// one JSON line; nil for an object not printed (skipped: its note
	// alone).
	object []byte
	code   int
}

// separator starts each YAML document of a stream of several.
const separator = "---\n"

// normalizeOutcome creates d (normalizeOne) and encodes the result in the
// output format: called on the workers, so that encoding runs in parallel
// too.
func normalizeOutcome(ctx context.Context, pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, d manifest.Object, o *Options) outcome {
	if d.TooLarge != nil {
		return tooLargeOutcome(d)
	}
	var msgs bytes.Buffer
	res, code := normalizeOne(ctx, pipelines, d, o, &msgs)
	oc := outcome{code: code}
	if code != ExitUnusable {
		var err error
		if oc.object, err = encode(res.Object, o.Output); err != nil {
			fmt.Fprintf(&msgs, "%s: encoding the object as %s: %v\n", d.Source(), o.Output, err)
			oc.code, oc.object = ExitUnusable, nil
		}
	}
	oc.stderr = msgs.Bytes()
	return oc
}

// tooLargeOutcome is the rule for a document refused unread
// (manifest.TooLargeError): the apiserver refuses its request (413)
// before it decodes anything, so it is an object refused (exit 1), named
// as far as its top lines name it, and not printed: there is nothing
// stored to show, and its bytes were not kept.
func tooLargeOutcome(d manifest.Object) outcome {
	what := ""
	if name := d.TooLarge.Object(); name != "" {
		what = name + ": "
	}
	return outcome{stderr: fmt.Appendf(nil, "%s: %s%v\n", d.Source(), what, d.TooLarge), code: ExitInvalid}
}

// encode writes obj as a YAML document after its separator, or as one line
// of compact JSON.
func encode(obj map[string]any, format string) ([]byte, error) {
	if format == "json" {
		b, err := json.Marshal(obj)
		return append(b, '\n'), err
	}
	b, err := yamlout.Marshal(obj)
	return append([]byte(separator), b...), err
}

// printer prints the outcomes in input order: each object's messages on
// stderr, then the object on stdout, a YAML stream (one object as itself,
// several each after ---) or JSON lines (one object per line).
type printer struct {
	stdout, stderr io.Writer
	yaml           bool
	// code is the highest exit status so far.
	code int
	// started: an object was printed or held back. first is the first
	// object, which YAML holds back until a second object or the end says
	// whether the stream has separators; held are the notes of the objects
	// skipped after it, held back with it so that stderr stays in input
	// order.
	started bool
	first   *outcome
	held    []byte
}

// print prints oc, or returns errUnusable after its messages if the object
// is unusable. A skipped object has its note printed, or held back after
// the first object if that is held back.
func (p *printer) print(oc outcome) error {
	switch {
	case oc.code == ExitUnusable:
		if err := p.flush(); err != nil {
			return err
		}
		p.diag(oc.stderr)
		return errUnusable
	case oc.object == nil && p.first != nil:
		p.code = max(p.code, oc.code)
		p.held = append(p.held, oc.stderr...)
		return nil
	case oc.object == nil:
		p.code = max(p.code, oc.code)
		p.diag(oc.stderr)
		return nil
	}
	p.code = max(p.code, oc.code)
	if p.yaml && !p.started {
		p.started, p.first = true, &oc
		return nil
	}
	p.started = true
	if err := p.writeFirst(true); err != nil {
		return err
	}
	return p.write(oc, true)
}

// flush prints the object held back, if any: the only one printed.
func (p *printer) flush() error { return p.writeFirst(false) }

// writeFirst prints the object held back, if any, in YAML after its
// separator if sep, then the notes held back after it.
func (p *printer) writeFirst(sep bool) error {
	first := p.first
	if first == nil {
		return nil
	}
	p.first = nil
	if err := p.write(*first, sep); err != nil {
		return err
	}
	p.diag(p.held)
	p.held = nil
	return nil
}

// diag writes messages to stderr, where a failed write has nowhere to be
// reported (the report on stdout is checked: atomicout.Report).
func (p *printer) diag(b []byte) { _, _ = p.stderr.Write(b) }

// write prints oc's messages, then oc's object, in YAML after its
// separator if sep.
func (p *printer) write(oc outcome, sep bool) error {
	p.diag(oc.stderr)
	b := oc.object
	if p.yaml && !sep {
		b = b[len(separator):]
	}
	if _, err := p.stdout.Write(b); err != nil {
		return err
	}
	return nil
}

// normalizeOne creates one object as kubectl sends it and reports what the
// apiserver answers on stderr: the version's deprecation warning first, as
// the apiserver sends it with every request, refused or not, then the
// other warnings and errors. The code is ExitInvalid if the apiserver
// refuses it, ExitUnusable if kubectl would not send it or no CRD serves
// it.
func normalizeOne(ctx context.Context, pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, d manifest.Object, o *Options, stderr io.Writer) (objectpath.Result, int) {
	src := d.Source()
	apiVersion, kind, err := manifest.TypeMeta(d.Object)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", src, err)
		return objectpath.Result{}, ExitUnusable
	}
	gvk := schema.FromAPIVersionAndKind(apiVersion, kind)
	p, ok := pipelines[gvk]
	if !ok {
		// the apiVersion as written: one that is not group/version
		// ("a/b/c") parses as no group and no version
		fmt.Fprintf(stderr, "%s: no served CRD version for apiVersion %q, kind %q\n", src, apiVersion, gvk.Kind)
		return objectpath.Result{}, ExitUnusable
	}
	// The version is built on its first object: a CRD whose version cannot
	// be built is unusable input, as an invalid CRD is, not a refused object.
	if err := p.Build(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", src, err)
		return objectpath.Result{}, ExitUnusable
	}
	sent, req, err := p.KubectlRequest(d.Object, o.Namespace, o.ExplicitNamespace)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", src, err)
		return objectpath.Result{}, ExitUnusable
	}
	req.Strict = o.Strict
	req.DuplicateFields = d.Duplicates
	if w := p.DeprecationWarning(); w != "" {
		fmt.Fprintf(stderr, "%s: warning: %s\n", src, w)
	}
	res := p.Create(ctx, sent, req)
	code := ExitOK
	sev := "warning"
	if o.Strict {
		sev = "error"
	}
	// the strict decoding errors (Strict) or warnings (Warn), in the
	// apiserver's order: duplicate fields, then unknown ones
	for _, path := range res.Duplicates {
		fmt.Fprintf(stderr, "%s: %s: duplicate field %q\n", src, sev, path)
	}
	for _, path := range res.Pruned {
		fmt.Fprintf(stderr, "%s: %s: unknown field %q\n", src, sev, path)
	}
	strictRefused := o.Strict && (len(res.Pruned) > 0 || len(res.Duplicates) > 0)
	if strictRefused {
		code = ExitInvalid
	}
	if res.Refused != nil && !strictRefused {
		fmt.Fprintf(stderr, "%s: %s\n", src, refusal.CapValues(res.Refused.Error()))
		code = ExitInvalid
	}
	var lists refusal.ValueLists // an enum's values once per object
	for _, e := range objectpath.SortErrors(res.Errors) {
		fmt.Fprintf(stderr, "%s: %s\n", src, lists.Shorten(e.Field, e.Error()))
		code = ExitInvalid
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", src, w)
	}
	return res, code
}

// openInput opens a file, or stdin for -.
func openInput(in string, stdin io.Reader) (io.Reader, string, func(), error) {
	if in == "-" {
		return stdin, "-", func() {}, nil
	}
	f, err := os.Open(in)
	if err != nil {
		return nil, in, nil, err
	}
	return f, in, func() { _ = f.Close() }, nil // read only: Close loses nothing
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// skipNote is normalize's line on stderr for an object that
// --skip-other-groups skips: `FILE:DOC: skipped (no CRD has the group):
// apiVersion "v1", kind "Namespace"`.
func skipNote(d manifest.Object) []byte {
	return fmt.Appendf(nil, "%s: %s: apiVersion %q, kind %q\n", d.Source(), objectpath.SkippedOtherGroup, str(d.Object["apiVersion"]), str(d.Object["kind"]))
}

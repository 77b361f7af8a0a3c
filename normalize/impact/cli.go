package impact

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/interspersed"
	"github.com/controller-gen-default/controller-gen-default/internal/ordered"
	"github.com/controller-gen-default/controller-gen-default/normalize"
	"github.com/controller-gen-default/controller-gen-default/normalize/manifest"
	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

// Exit statuses of RunCLI, as normalize's.
const (
	ExitOK       = 0 // no object loses data or has a request refused
	ExitImpact   = 1 // some object does (or, without FILE, a CRD is removed, refused, or stops serving a version)
	ExitUnusable = 2 // bad usage, an invalid CRD, unparsable input, or an object with no CRD
)

const usage = `usage: controller-gen-default impact --old OLD --new NEW [-o text|json] [--skip-other-groups] [-n NAMESPACE] [--convert PACKAGES [--setup IMPORTPATH.Func]] [FILE|-]...

Shows what objects stored under the CRDs OLD become when the CRDs are
replaced by NEW, as the apiserver handles them: each object as stored under
OLD (its create; flagged if OLD refuses it), as read back under NEW (a
unified diff: new defaults appear, pruned fields disappear), whether an
unchanged (no-op) update is accepted, which values NEW refuses but only
ratcheting keeps (an update that changes one of them is sent), and what
NEW changes in versions. Conversion webhooks are not called: versions are
converted as with the None strategy, unless --convert gives the API's Go
packages (patterns such as ./api/..., of the module in the current
directory; ./... at its root finds every conversion): a program built from
them converts the CRDs of the kinds it serves with the API's own
ConvertTo/ConvertFrom or registered controller-runtime Converters, as its
conversion webhook does, and each object is also shown as read at NEW's
storage version. --setup names a function the program calls first, to set
the state that main sets and the conversions read.

OLD and NEW are CRD files or directories (repeatable), each with at least one
CRD. FILEs hold objects, read as kubectl create -f reads them: manifests, or
a List such as kubectl get -A -o yaml writes (- is stdin).
Without FILE, lists each default added, changed or removed from OLD to NEW.

Exit status: 0 no object loses data or has a request refused, 1 some does,
2 unusable input (bad flags, an invalid CRD, unparsable input, an object with
no CRD).
`

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// options are the command's flags.
type options struct {
	old, new        stringList
	output          string
	skipOtherGroups bool
	namespace       string
	// explicitNamespace: -n was given (kubectl then refuses objects of
	// another namespace).
	explicitNamespace bool
	files             []string
	// convert are the package patterns of --convert.
	convert stringList
	// setup is --setup (convprog.Options.Setup).
	setup string
}

func parseFlags(args []string, stderr io.Writer) (*options, int) {
	fs := flag.NewFlagSet("impact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	o := &options{}
	fs.Var(&o.old, "old", "CRD file or directory before the change (repeatable)")
	fs.Var(&o.new, "new", "CRD file or directory after the change (repeatable)")
	fs.StringVar(&o.output, "o", "text", "output format: text or json (one JSON record per line)")
	fs.BoolVar(&o.skipOtherGroups, "skip-other-groups", false, "skip objects whose API group no CRD of OLD or NEW has (Services, Deployments...) instead of exiting 2")
	fs.StringVar(&o.namespace, "namespace", metav1.NamespaceDefault, "the namespace of namespaced objects that have none, as kubectl's -n; with it, an object in another namespace is refused as kubectl refuses it")
	fs.StringVar(&o.namespace, "n", metav1.NamespaceDefault, "shorthand for --namespace")
	fs.Var(&o.convert, "convert", "Go package patterns of the API (./... or ./api/...; repeatable or comma-separated): convert versions with its conversion code (conversion.Hub/Convertible methods, Converters registered with WithConverter or RegisterConverter), as its conversion webhook does")
	fs.StringVar(&o.setup, "setup", "", "with --convert: IMPORTPATH.Func, an exported func(), func() error or func(context.Context) error the conversion program calls once before serving, to set the state main sets (docs/impact.md)")
	positional, err := interspersed.Parse(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, ExitOK
		}
		return nil, ExitUnusable
	}
	fs.Visit(func(f *flag.Flag) {
		o.explicitNamespace = o.explicitNamespace || f.Name == "n" || f.Name == "namespace"
	})
	var problem string
	switch {
	case len(o.old) == 0:
		problem = "--old is required"
	case len(o.new) == 0:
		problem = "--new is required"
	case o.output != "text" && o.output != "json":
		problem = fmt.Sprintf("-o %q: must be text or json", o.output)
	case o.namespace == "":
		problem = "--namespace must not be empty"
	case o.setup != "" && len(o.convert) == 0:
		problem = "--setup needs --convert"
	}
	if problem != "" {
		fmt.Fprintf(stderr, "impact: %s\n", problem)
		fs.Usage()
		return nil, ExitUnusable
	}
	files, err := manifest.Files(positional)
	if err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return nil, ExitUnusable
	}
	o.files = files
	var patterns stringList
	for _, v := range o.convert {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				patterns = append(patterns, p)
			}
		}
	}
	o.convert = patterns
	return o, -1
}

// RunCLI is `controller-gen-default impact`. stdout gets the report; stderr
// gets why the input is unusable and, with -o json, the summary table.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, code := parseFlags(args, stderr)
	if o == nil {
		return code
	}
	ctx := context.Background()
	oldCRDs, newCRDs, err := loadBoth(o)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return ExitUnusable
	}
	a, err := New(ctx, oldCRDs, newCRDs)
	if err != nil {
		printInvalidCRD(stderr, err)
		return ExitUnusable
	}
	a.Namespace, a.ExplicitNamespace = o.namespace, o.explicitNamespace
	report := atomicout.NewReport(stdout, "standard output")
	code = runReport(ctx, a, o, oldCRDs, newCRDs, stdin, report, stderr)
	if err := report.Close(); err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return ExitUnusable
	}
	return code
}

// runReport writes the report to report: the CRD changes without FILE,
// else each object's record, then the table.
func runReport(ctx context.Context, a *Analyzer, o *options, oldCRDs, newCRDs []*apiextensionsv1.CustomResourceDefinition,
	stdin io.Reader, report *atomicout.Report, stderr io.Writer) int {
	out := newPrinter(o.output, report, stderr)
	if len(o.convert) > 0 {
		conv, converted, err := startConversion(ctx, a, o.convert, o.setup, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "impact: --convert %s: %v\n", strings.Join(o.convert, ","), err)
			return ExitUnusable
		}
		if conv != nil {
			defer conv.Close()
			out.converted = converted
		}
	}
	if len(o.files) == 0 {
		return out.crdReport(a.Findings(), a.DefaultChanges(oldCRDs, newCRDs))
	}
	return streamReport(ctx, a, o.files, stdin, o.skipOtherGroups, out, workers)
}

// workers is how many objects are analyzed at once: GOMAXPROCS.
var workers = runtime.GOMAXPROCS(0)

// analyzed is one object as analyzed: its record, or why it is unusable,
// or skipped (no CRD has its group).
type analyzed struct {
	in      Input
	skipped bool
	rec     *Record
	err     error
}

// errUnusable ends the run once the object that is unusable is reported.
var errUnusable = errors.New("unusable object")

// streamReport reads the objects of files one at a time, analyzes up to n
// at once, and reports each as soon as it and those before it are done, in
// input order (package internal/ordered), so that the output is the same
// for any n and memory holds only the objects in flight, not the input.
// Only the table waits for the end. The first unusable object (or
// unreadable document) ends the run with exit status 2, after the objects
// before it.
func streamReport(ctx context.Context, a *Analyzer, files []string, stdin io.Reader, skipOtherGroups bool, out *printer, n int) int {
	inputs := func(yield func(Input, error) bool) {
		for _, f := range files {
			stopped := false
			err := eachInput(f, stdin, func(in Input) error {
				if !yield(in, nil) {
					stopped = true
					return errUnusable
				}
				return nil
			})
			if stopped {
				return
			}
			if err != nil {
				yield(Input{}, err)
				return
			}
		}
	}
	analyze := func(ctx context.Context, in Input) (analyzed, error) {
		if skipOtherGroups && !a.KnowsGroup(pipeline.APIGroup(in.Object)) {
			return analyzed{in: in, skipped: true}, nil
		}
		if in.TooLarge != nil {
			return analyzed{in: in, rec: tooLargeRecord(in)}, nil
		}
		rec, err := a.Object(ctx, in.Object)
		return analyzed{in: in, rec: rec, err: err}, nil
	}
	rep := out.startObjects(a.Findings())
	report := func(r analyzed) error {
		if err := out.writeErr(); err != nil {
			return err // the report is cut short: no use going on
		}
		if r.skipped {
			rep.skipped++
			return nil
		}
		// the apiserver's warnings under fieldValidation=Warn, the default
		for _, path := range r.in.Duplicates {
			fmt.Fprintf(out.stderr, "%s: warning: duplicate field %q\n", r.in.Source, path)
		}
		if r.err != nil {
			fmt.Fprintf(out.stderr, "%s: %v\n", r.in.Source, r.err)
			return errUnusable
		}
		r.rec.Source = r.in.Source
		rep.record(r.rec)
		return nil
	}
	if err := ordered.Run(ctx, n, inputs, analyze, report); err != nil {
		if out.writeErr() != nil {
			return ExitUnusable // RunCLI says why
		}
		if !errors.Is(err, errUnusable) {
			fmt.Fprintln(out.stderr, err)
		}
		return ExitUnusable
	}
	return rep.end()
}

// startConversion is --convert: the conversion program of patterns,
// built in the current directory's module (or taken from the cache) and
// started, used for the CRDs of the kinds it converts. It returns them,
// and warns when there is none.
func startConversion(ctx context.Context, a *Analyzer, patterns []string, setup string, stderr io.Writer) (*Conversion, []string, error) {
	conv, err := StartConversion(ctx, convprog.Options{Patterns: patterns, Setup: setup, Log: stderr})
	if errors.Is(err, convprog.ErrNothingToConvert) {
		fmt.Fprintf(stderr, "impact: note: --convert %s: %v; versions are converted as with the None strategy\n", strings.Join(patterns, ","), err)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	converted, err := a.UseConversion(conv)
	if err != nil {
		conv.Close()
		return nil, nil, err
	}
	if len(converted) == 0 {
		var kinds []string
		for _, k := range conv.Kinds {
			kinds = append(kinds, k.GroupKind().String())
		}
		fmt.Fprintf(stderr, "impact: warning: --convert %s: no CRD of OLD or NEW has a kind the API's code converts (%s)\n",
			strings.Join(patterns, ","), strings.Join(kinds, ", "))
	}
	for _, k := range conv.Others {
		if k.Problem != "" {
			fmt.Fprintf(stderr, "impact: warning: --convert: %s is not converted by the API's code: %s\n", k.GroupKind(), k.Problem)
		}
	}
	return conv, converted, nil
}

// loadBoth loads the CRDs of OLD and NEW (normalize.LoadCRDs).
func loadBoth(o *options) (old, new []*apiextensionsv1.CustomResourceDefinition, err error) {
	if old, err = normalize.LoadCRDs(o.old...); err != nil {
		return nil, nil, onSide("--old", err)
	}
	if new, err = normalize.LoadCRDs(o.new...); err != nil {
		return nil, nil, onSide("--new", err)
	}
	if len(old) == 0 {
		return nil, nil, fmt.Errorf("--old: no CustomResourceDefinition in %s", strings.Join(o.old, ", "))
	}
	if len(new) == 0 {
		// removing every CRD is no upgrade: a wrong path, not a report of
		// every object deleted
		return nil, nil, fmt.Errorf("--new: no CustomResourceDefinition in %s", strings.Join(o.new, ", "))
	}
	return old, new, nil
}

// onSide prefixes each line of err (one per conflict of a
// normalize.CRDConflictError) with the flag of the side.
func onSide(flag string, err error) error {
	return fmt.Errorf("%s: %w", flag, lineError{err, strings.ReplaceAll(err.Error(), "\n", "\n"+flag+": ")})
}

// lineError is err with its text rewritten.
type lineError struct {
	err  error
	text string
}

func (e lineError) Error() string { return e.text }
func (e lineError) Unwrap() error { return e.err }

// printInvalidCRD writes an InvalidCRDError as normalize writes CRD
// errors: one line per error.
func printInvalidCRD(stderr io.Writer, err error) {
	var invalid *InvalidCRDError
	if !errors.As(err, &invalid) {
		fmt.Fprintln(stderr, err)
		return
	}
	for _, p := range fromErrorList(invalid.Errors) {
		fmt.Fprintf(stderr, "%s: CRD %s: %s\n", invalid.Side, invalid.CRD, p)
	}
}

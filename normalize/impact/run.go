package impact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/ordered"
	"github.com/controller-gen-default/controller-gen-default/normalize"
	"github.com/controller-gen-default/controller-gen-default/normalize/manifest"
	"github.com/controller-gen-default/controller-gen-default/normalize/pipeline"
)

// Exit statuses of Run, as normalize's.
const (
	ExitOK       = 0 // no object loses data or has a request refused
	ExitImpact   = 1 // some object does (or, without FILE, a CRD is removed, refused, or stops serving a version)
	ExitUnusable = 2 // bad usage, an invalid CRD, unparsable input, or an object with no CRD
)

// Options are what Run reports on: the flags of `controller-gen-default
// impact`, which its command (cmd/controller-gen-default-normalize/impactcmd)
// reads and checks.
type Options struct {
	// Old and New are the CRD files or directories before and after the
	// change (--old, --new).
	Old, New []string
	// Output is the format of the report: "text", or "json" for one JSON
	// record per line, the table on stderr (-o).
	Output string
	// SkipOtherGroups: objects whose API group no CRD of OLD or NEW has
	// are skipped, counted in the table, instead of unusable
	// (--skip-other-groups).
	SkipOtherGroups bool
	// Namespace is the namespace of namespaced objects that have none (-n;
	// "" is default); with ExplicitNamespace (-n given), kubectl refuses
	// objects of another namespace.
	Namespace         string
	ExplicitNamespace bool
	// Files are the files of the objects, - for stdin, read as kubectl
	// create -f reads them (manifest.Files: a directory is its manifests);
	// none: the report of the CRD changes.
	Files []string
	// Convert are the package patterns of --convert, one per element.
	Convert []string
	// Setup is --setup (convprog.Options.Setup).
	Setup string
}

// Run is what `controller-gen-default impact` does with its options:
// stdout gets the report; stderr gets why the input is unusable and, with
// -o json, the summary table. It returns the exit status.
func Run(ctx context.Context, o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	files, err := manifest.Files(o.Files)
	if err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return ExitUnusable
	}
	o.Files = files
	if o.Namespace == "" {
		o.Namespace = metav1.NamespaceDefault
	}
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
	a.Namespace, a.ExplicitNamespace = o.Namespace, o.ExplicitNamespace
	report := atomicout.NewReport(stdout, "standard output")
	code := runReport(ctx, a, o, oldCRDs, newCRDs, stdin, report, stderr)
	if err := report.Close(); err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return ExitUnusable
	}
	return code
}

// runReport writes the report to report: the CRD changes without FILE,
// else each object's record, then the table.
func runReport(ctx context.Context, a *Analyzer, o Options, oldCRDs, newCRDs []*apiextensionsv1.CustomResourceDefinition,
	stdin io.Reader, report *atomicout.Report, stderr io.Writer) int {
	out := newPrinter(o.Output, report, stderr)
	if len(o.Convert) > 0 {
		conv, converted, err := startConversion(ctx, a, o.Convert, o.Setup, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "impact: --convert %s: %v\n", strings.Join(o.Convert, ","), err)
			return ExitUnusable
		}
		if conv != nil {
			defer conv.Close()
			out.converted = converted
		}
	}
	if len(o.Files) == 0 {
		return out.crdReport(a.Findings(), a.DefaultChanges(oldCRDs, newCRDs))
	}
	return streamReport(ctx, a, o.Files, stdin, o.SkipOtherGroups, out, workers)
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
			return ExitUnusable // Run says why
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
func loadBoth(o Options) (old, new []*apiextensionsv1.CustomResourceDefinition, err error) {
	if old, err = normalize.LoadCRDs(o.Old...); err != nil {
		return nil, nil, onSide("--old", err)
	}
	if new, err = normalize.LoadCRDs(o.New...); err != nil {
		return nil, nil, onSide("--new", err)
	}
	if len(old) == 0 {
		return nil, nil, fmt.Errorf("--old: no CustomResourceDefinition in %s", strings.Join(o.Old, ", "))
	}
	if len(new) == 0 {
		// removing every CRD is no upgrade: a wrong path, not a report of
		// every object deleted
		return nil, nil, fmt.Errorf("--new: no CustomResourceDefinition in %s", strings.Join(o.New, ", "))
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

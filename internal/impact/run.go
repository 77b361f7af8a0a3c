package impact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"runtime"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/ordered"
	"github.com/controller-gen-default/controller-gen-default/internal/goapi"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/input/source"
)

// Exit statuses of Run, as normalize's.
const (
	ExitOK       = 0 // no object loses data or has a request refused
	ExitImpact   = 1 // some object does (or, without FILE, a CRD is removed, refused, or stops serving a version)
	ExitUnusable = 2 // bad usage, an invalid CRD, unparsable input, or an object with no CRD
)

// Options are what Run reports on: the flags of `controller-gen-default
// impact`, which its command (cmd/internal/objects/impactcmd)
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
	// Recursive: a directory of Files is read with its subdirectories, as
	// kubectl's -R, --recursive reads it (-R). The CRD directories of Old
	// and New are read at their top level whatever it says.
	Recursive bool
	// Verbose: the text report writes each object's details as it comes
	// (-v), not the defaults grouped across objects.
	Verbose bool
	// Types are the package patterns of --types: the API's Go types, which
	// tell the defaults a Go client already sends (GoClient).
	Types []string
	// Convert are the package patterns of --convert, one per element.
	Convert []string
	// Setup is --setup (convprog.Options.Setup).
	Setup string
	// ClusterObjects: the objects are also those the cluster stores
	// under OLD's CRDs (--objects kube://), read page by page.
	ClusterObjects bool
	// Kubeconfig and Context say which cluster kube:// sources read, as
	// kubectl's --kubeconfig and --context.
	Kubeconfig, Context string
	// RequestTimeout is how long one request to the cluster may take, as
	// kubectl's --request-timeout; 0 is no limit.
	RequestTimeout time.Duration
	// Progress, when not nil, gets a progress line while the cluster's
	// objects are read (the command's stderr on a terminal).
	Progress io.Writer
}

// Run is what `controller-gen-default impact` does with its options:
// stdout gets the report; stderr gets why the input is unusable and, with
// -o json, the summary table. It returns the exit status.
func Run(ctx context.Context, o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	files, err := manifest.Files(o.Files, o.Recursive)
	if err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return ExitUnusable
	}
	o.Files = files
	if o.Namespace == "" {
		o.Namespace = metav1.NamespaceDefault
	}
	var cluster *source.Cluster
	if o.ClusterObjects || usesCluster(o.Old) || usesCluster(o.New) {
		if cluster, err = source.NewCluster(o.Kubeconfig, o.Context, o.RequestTimeout); err != nil {
			fmt.Fprintf(stderr, "impact: kube://: %v\n", err)
			return ExitUnusable
		}
	}
	oldCRDs, newCRDs, err := loadBoth(ctx, o, cluster)
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
	code := runReport(ctx, a, o, cluster, oldCRDs, newCRDs, stdin, report, stderr)
	if err := report.Close(); err != nil {
		fmt.Fprintf(stderr, "impact: %v\n", err)
		return ExitUnusable
	}
	return code
}

// runReport writes the report to report: the CRD changes without FILE,
// else each object's record, then the table.
func runReport(ctx context.Context, a *Analyzer, o Options, cluster *source.Cluster, oldCRDs, newCRDs []*apiextensionsv1.CustomResourceDefinition,
	stdin io.Reader, report *atomicout.Report, stderr io.Writer) int {
	out := newPrinter(o.Output, report, stderr)
	out.verbose = o.Verbose
	if len(o.Types) > 0 && len(o.Files)+btoi(o.ClusterObjects) > 0 {
		api, err := goapi.LoadTypes(".", o.Types, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "impact: --types %s: %v\n", strings.Join(o.Types, ","), err)
			return ExitUnusable
		}
		out.useGoClient(api)
	}
	if len(o.Convert) > 0 {
		conv, converted, err := startConversion(ctx, a, o.Convert, o.Setup, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "impact: --convert %s: %v\n", strings.Join(o.Convert, ","), err)
			return ExitUnusable
		}
		if conv != nil {
			// the program's answers are all in by then: an exit error after
			// them changes no result (a failed conversion is reported with
			// its object)
			defer func() { _ = conv.Close() }()
			out.converted = converted
		}
	}
	if len(o.Files) == 0 && !o.ClusterObjects {
		return out.crdReport(a.Findings(), a.DefaultChanges(oldCRDs, newCRDs))
	}
	inputs := filesInputs(o.Files, stdin)
	if o.ClusterObjects {
		inputs = concatInputs(inputs, clusterInputs(ctx, cluster, oldCRDs, o.Progress))
	}
	return streamReport(ctx, a, inputs, o.SkipOtherGroups, out, runtime.GOMAXPROCS(0)) // objects analyzed at once
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

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
// input order (package internal/encoding/ordered), so that the output is the same
// for any n and memory holds only the objects in flight, not the input.
// Only the table waits for the end. The first unusable object (or
// unreadable document) ends the run with exit status 2, after the objects
// before it.
func streamReport(ctx context.Context, a *Analyzer, inputs iter.Seq2[Input, error], skipOtherGroups bool, out *printer, n int) int {
	analyze := func(ctx context.Context, in Input) (analyzed, error) {
		if in.Unreadable != nil {
			return analyzed{in: in}, nil
		}
		if skipOtherGroups && !a.KnowsGroup(objectpath.APIGroup(in.Object)) {
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
		if r.in.Unreadable != nil {
			fmt.Fprintf(out.stderr, "impact: %s: %s\n", r.in.Source, r.in.Unreadable.Msg)
			rep.unreadable(*r.in.Unreadable)
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
		rep.writeGrouped() // what the objects before it do, as -v writes it
		return ExitUnusable
	}
	return rep.end()
}

// startConversion is --convert: the conversion program of patterns,
// built in the current directory's module (or taken from the cache) and
// started, used for the CRDs of the kinds it converts. It returns them,
// and warns when there is none.
func startConversion(ctx context.Context, a *Analyzer, patterns []string, setup string, stderr io.Writer) (*convProgram, []string, error) {
	conv, err := startProgram(ctx, convprog.Options{Patterns: patterns, Setup: setup, Log: stderr})
	if errors.Is(err, convprog.ErrNothingToConvert) {
		fmt.Fprintf(stderr, "impact: note: --convert %s: %v; versions are converted as with the None strategy\n", strings.Join(patterns, ","), err)
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	converted, err := a.useConversion(conv)
	if err != nil {
		_ = conv.Close() // useConversion's error is the one to report
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

// usesCluster says whether a source is kube://.
func usesCluster(specs []string) bool {
	for _, s := range specs {
		if strings.HasPrefix(s, "kube://") {
			return true
		}
	}
	return false
}

// loadBoth loads the CRDs of OLD and NEW from their sources (package
// source: files, git://, kube://): NEW first, whose API groups are those
// kube:// reads for OLD.
func loadBoth(ctx context.Context, o Options, cluster *source.Cluster) (old, new []*apiextensionsv1.CustomResourceDefinition, err error) {
	r := source.Reader{Cluster: cluster}
	oldSpecs, err := parseSources(o.Old)
	if err != nil {
		return nil, nil, onSide("--old", err)
	}
	newSpecs, err := parseSources(o.New)
	if err != nil {
		return nil, nil, onSide("--new", err)
	}
	if new, err = r.CRDs(ctx, newSpecs, nil); err != nil {
		return nil, nil, onSide("--new", err)
	}
	var groups map[string]bool
	if !usesCluster(o.New) {
		groups = map[string]bool{}
		for _, c := range new {
			groups[c.Spec.Group] = true
		}
	}
	if old, err = r.CRDs(ctx, oldSpecs, groups); err != nil {
		return nil, nil, onSide("--old", err)
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

func parseSources(raw []string) ([]source.Spec, error) {
	specs := make([]source.Spec, len(raw))
	for i, r := range raw {
		s, err := source.Parse(r)
		if err != nil {
			return nil, err
		}
		specs[i] = s
	}
	return specs, nil
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

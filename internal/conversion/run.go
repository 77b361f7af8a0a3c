package conversion

import (
	"context"
	"fmt"
	"go/token"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/atomicout"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Exit statuses of Report.
const (
	ExitClean    = 0 // no finding
	ExitFindings = 1 // findings
	ExitUsage    = 2 // bad arguments, packages that do not load or build, CRDs that are missing or invalid
)

// Options are what Run and Report do: the flags of `controller-gen-default
// conversion`, which its command (cmd/internal/objects/conversioncmd)
// reads and checks.
type Options struct {
	// Dir is the directory the patterns are resolved in ("" is the
	// current directory).
	Dir      string
	Patterns []string
	// CRDs are files or directories of CRDs; none: they are generated in
	// memory from the packages by the crd generator.
	CRDs []string
	// Rounds is the number of random objects per kind and version.
	Rounds int
	// Seed seeds the random objects.
	Seed uint64
	// Setup is --setup: "importpath.Func", called once by the conversion
	// program before it serves (convprog.Options.Setup).
	Setup string
	// Accept is Report's --accept: a YAML file of accepted findings, each
	// with its reason ("": none).
	Accept string
	// Output is the format Report writes: "text" (or "") or "json".
	Output string
}

// Report is what `controller-gen-default conversion` does with its
// options: it reads o.Accept, runs Run, drops the findings o.Accept
// accepts, writes the others to stdout in o.Output (Write) and anything
// else to stderr, and returns the exit status.
func Report(ctx context.Context, o Options, stdout, stderr io.Writer) int {
	var acc *acceptFile
	if o.Accept != "" {
		a, err := readAccept(o.Accept)
		if err != nil {
			fmt.Fprintf(stderr, "controller-gen-default conversion: --accept: %v\n", err)
			return ExitUsage
		}
		acc = a
	}
	findings, err := Run(ctx, o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "controller-gen-default conversion: %v\n", err)
		return ExitUsage
	}
	if acc != nil {
		findings = acc.filter(findings, stderr)
	}
	report := atomicout.NewReport(stdout, "standard output")
	err = Write(report, findings, o.Output)
	if err == nil {
		err = report.Close()
	}
	if err != nil {
		fmt.Fprintf(stderr, "controller-gen-default conversion: %v\n", err)
		return ExitUsage
	}
	if len(findings) > 0 {
		return ExitFindings
	}
	return ExitClean
}

// Finding is one finding: the one finding type (findings.Finding: its
// position, Type.Field, JSON path, rule, message and severity, always an
// error; String writes it as every command of this module writes a
// finding) with the kind, the versions and the values it is about, which
// -o json writes too.
type Finding struct {
	findings.Finding
	// Kind is group/kind.
	Kind string
	// Versions are, for conversion-lost-field, the version of the object
	// and the one it goes through; for conversion-default-mismatch, the
	// version of the field and the other one; for conversion-failed, the
	// versions converted from and to.
	Versions []string
	// Values are, for conversion-lost-field, the value sent and the value
	// back (null: absent); for conversion-default-mismatch, the value each
	// version's object is read back with at the storage version, then what
	// each version's defaulting gives the field; for conversion-failed,
	// the object and the error.
	Values []any
	// Seed is the --seed the objects were made with; with the same
	// --rounds it makes the same objects again.
	Seed uint64
	// Witness is the whole object, at Versions[0], that showed the
	// finding: as sent on the round trip (conversion-lost-field), created
	// without the field (conversion-default-mismatch), refused
	// (conversion-failed).
	Witness map[string]any
	// RoundTrips are, for each version of Kind, how many round trips
	// (stats.go) were checked.
	RoundTrips map[string]int

	// objects is, for conversion-failed, how many objects fail so.
	objects int
}

// Run finds the conversions of o.Patterns (convprog.Discover), builds
// their conversion program (package convprog), and runs the rules on each
// kind that converts. When nothing converts it says so on log and returns
// no finding, without building anything or generating CRDs. Progress and
// warnings go to log; the error is for what stops the run (packages that
// do not load or build, a kind without its CRD).
func Run(ctx context.Context, o Options, log io.Writer) ([]Finding, error) {
	d, err := convprog.Discover(ctx, convprog.Options{Dir: o.Dir, Patterns: o.Patterns})
	if err != nil {
		return nil, err
	}
	if d.Empty() {
		fmt.Fprintf(log, "note: nothing in %s converts between versions (no conversion.Hub or conversion.Convertible methods, no controller-runtime Converter registered with WithConverter or RegisterConverter); nothing to check\n", strings.Join(o.Patterns, " "))
		return nil, nil
	}
	if o.Setup == "" {
		for _, c := range d.SetupCalls {
			fmt.Fprintf(log, "%s: note: %s\n", relFile(c.Pos), c.Note())
		}
	}
	l, err := load(o.Dir, d.APIPackages, o.CRDs, log)
	if err != nil {
		return nil, err
	}
	prog, err := convprog.Build(ctx, convprog.Options{Dir: o.Dir, Patterns: o.Patterns, Discovery: d, Setup: o.Setup, Log: log})
	if err != nil {
		return nil, err
	}
	// removes an uncached binary: failing leaves a stray file, loses nothing
	defer func() { _ = prog.Close() }()
	proc, err := prog.Start(ctx)
	if err != nil {
		return nil, err
	}
	// the program's answers are all in by then: an exit error after them
	// changes no finding (a failed conversion is one, with its object)
	defer func() { _ = proc.Close() }()
	conv := processConverter{proc}
	kinds := proc.Kinds()
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].GroupKind().String() < kinds[j].GroupKind().String() })
	var out []Finding
	checked := 0
	for _, pk := range kinds {
		if len(pk.Spokes) == 0 {
			continue
		}
		if !pk.Convertible {
			fmt.Fprintf(log, "warning: %s does not convert: %s\n", pk.GroupKind(), pk.Problem)
			continue
		}
		crd, ok := l.CRDs[pk.GroupKind()]
		if !ok {
			return nil, fmt.Errorf("no CRD for %s: generate it, or give its file with --crd", pk.GroupKind())
		}
		hub, spokes := pk.Hub, pk.Spokes
		if pk.Via != "" && hub == "" {
			// a Converter whose hub the program cannot tell: the storage
			// version plays the hub
			hub, spokes = storageVersion(crd), nil
			for _, v := range pk.Versions {
				if v != hub {
					spokes = append(spokes, v)
				}
			}
		}
		k, err := NewKind(crd, hub, spokes)
		if err != nil {
			return nil, err
		}
		fs, err := Check(ctx, conv, k, l, o.Rounds, o.Seed, log)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
		checked++
	}
	if checked == 0 {
		fmt.Fprintf(log, "note: no kind of %s converts between versions (a conversion.Hub with conversion.Convertible spokes, or a registered Converter, over two versions or more); nothing to check\n", strings.Join(o.Patterns, " "))
	} else {
		fmt.Fprintf(log, "conversion: seed %d: --seed %d --rounds %d makes the same objects, and the same findings, again\n", o.Seed, o.Seed, o.Rounds)
	}
	if prog.FailuresUnknown() {
		out = needsSetup(out, prog.MissingSetup)
	}
	sortFindings(out)
	return out, nil
}

// positions are where findings go: the Go field of a path, the root type
// of a version.
type positions interface {
	field(gvk schema.GroupVersionKind, p Path) (*model.Field, bool)
	typePos(gvk schema.GroupVersionKind) (token.Position, bool)
	goEncoding(gk schema.GroupKind) GoEncoding
}

// Check runs the rules on one kind: Objects, roundTrip and Defaults, each
// seeded by seed and the kind's name, and places their findings with pos.
func Check(ctx context.Context, c Converter, k *Kind, pos positions, rounds int, seed uint64, log io.Writer) ([]Finding, error) {
	gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}
	h := fnv.New64a()
	h.Write([]byte(gk.String()))
	objs, refused := Objects(ctx, k, rounds, rand.New(rand.NewPCG(seed, h.Sum64())))
	for _, v := range k.Names() {
		if errs, ok := refused[v]; ok {
			fmt.Fprintf(log, "warning: %s %s: no random object is valid (%v); its round trips are not checked\n", k.Kind, v, errs.ToAggregate())
		}
	}
	losses, fails, trips, err := roundTrip(ctx, c, k, objs, pos.goEncoding(gk))
	if err != nil {
		return nil, err
	}
	logRoundTrips(log, k, rounds, objs, trips)
	mismatches, f2, err := Defaults(ctx, c, k, rand.New(rand.NewPCG(seed, h.Sum64()+1)))
	if err != nil {
		return nil, err
	}
	fails = append(fails, f2...)
	var out []Finding
	for _, l := range losses {
		out = append(out, lossFinding(k, l, pos))
	}
	for _, m := range mismatches {
		out = append(out, mismatchFinding(k, m, pos))
	}
	out = append(out, failureFindings(k, fails, pos)...)
	for i := range out {
		out[i].Seed, out[i].RoundTrips = seed, trips
	}
	return out, nil
}

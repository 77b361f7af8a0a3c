package randapitest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/equivtest"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

var (
	seedFlag    = flag.Uint64("randapi.seed", 0, "seed of the random API and objects (0: a new seed, logged)")
	kindsFlag   = flag.Int("randapi.kinds", 80, "number of random kinds")
	objectsFlag = flag.Int("randapi.objects", 40, "random objects per kind")
	shrinkFlag  = flag.Int("randapi.shrink", 40, "attempts at removing a field when shrinking a failing kind's types")
	shrinkKinds = flag.Int("randapi.shrinkkinds", 1, "failing kinds whose types are shrunk")
	reportKinds = flag.Int("randapi.reportkinds", 8, "failing kinds reported in full (the others in one line each)")
	zeroFlag    = flag.Float64("randapi.zerodefaults", 0, "how often a value in a default is a zero value that encoding/json omits; the crd generator refuses such defaults where Go's encoding of them is invalid (see Config.ZeroDefaults)")
	isZeroFlag  = flag.Float64("randapi.iszero", 0.2, "how often a struct type has an IsZero method of its own (see Config.IsZero)")
	focusFlag   = flag.String("randapi.focus", "", "comma-separated kinds (Kind, or group/version/Kind) to report and shrink, of those that fail (default: all)")
	dirFlag     = flag.String("randapi.dir", "", "write the random module into this directory, and keep it (default: a temporary directory)")
	shapesFlag  = flag.Bool("randapi.shapes", false, "TestRuleOfThumb: with the shapes of real APIs that TestDropIn generates (see Shapes)")

	dropKindsFlag      = flag.Int("randapi.dropkinds", 24, "TestDropIn: number of random kinds (each in one to three versions)")
	dropPerPackageFlag = flag.Int("randapi.dropkindsperpackage", 6, "TestDropIn: kinds per group")
	setFlag            = flag.String("randapi.set", "", "Config fields set after the others, as Field=value,... (Encoded=0,Defined=0.5): to turn a shape off or up")
)

// setConfig applies -randapi.set to cfg, and adds it to the replay command.
func setConfig(t *testing.T, cfg *Config, replay *string) {
	if *setFlag == "" {
		return
	}
	v := reflect.ValueOf(cfg).Elem()
	for _, kv := range strings.Split(*setFlag, ",") {
		k, val, _ := strings.Cut(kv, "=")
		f := v.FieldByName(strings.TrimSpace(k))
		if !f.IsValid() || f.Kind() != reflect.Float64 {
			t.Fatalf("-randapi.set=%s: Config has no probability %q", *setFlag, k)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			t.Fatalf("-randapi.set=%s: %v", *setFlag, err)
		}
		f.SetFloat(x)
	}
	*replay += " -randapi.set=" + *setFlag
}

const repoModule = "github.com/controller-gen-default/controller-gen-default"

// TestRuleOfThumb generates a random API, runs controller-gen-default on
// it, and checks the invariants of the package documentation on random
// objects of every kind.
func TestRuleOfThumb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs controller-gen-default on a random API")
	}
	seed := *seedFlag
	if seed == 0 {
		seed = rand.Uint64()
	}
	replay := fmt.Sprintf("go test ./internal/testsupport/randapitest -run TestRuleOfThumb -randapi.seed=%d -randapi.kinds=%d", seed, *kindsFlag)
	if *zeroFlag != 0 {
		replay += fmt.Sprintf(" -randapi.zerodefaults=%g", *zeroFlag)
	}
	cfg := Config{Seed: seed, Kinds: *kindsFlag, ZeroDefaults: *zeroFlag, IsZero: *isZeroFlag}
	if *shapesFlag {
		cfg = Shapes(cfg)
		replay += " -randapi.shapes"
	}
	setConfig(t, &cfg, &replay)
	checkRandomAPI(t, cfg, replay, "")
}

// TestDropIn is TestRuleOfThumb's checks on a random API with the shapes
// of real APIs (Shapes: versions sharing types through aliases, types with
// their own encoding, embedded resources, floats, unexported fields, doc
// comments, package markers, selectable fields, crd options), plus the
// drop-in invariant against controller-gen v0.23.0 run with the same
// options: it exits 0 (the generator writes only what it accepts), and
// then controller-gen-default exits 0 too, its output with
// crd:implicitDefaults=false (CRDs and deepcopy files) is controller-gen's
// byte for byte, versions that controller-gen writes with the same schema
// have the same schema in ours, every default of controller-gen's CRDs is
// in ours as written, and ours accept and refuse the same objects as
// controller-gen's (check 4 against controller-gen's CRDs).
func TestDropIn(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs controller-gen v0.23.0 and controller-gen-default on a random API")
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ref := realapistest.ReferenceBinary(t, root)
	seeds := []uint64{*seedFlag}
	if *seedFlag == 0 {
		// Not a new seed each run, as TestRuleOfThumb: random seeds still
		// meet the open failure classes of docs/testing.md ("The drop-in
		// invariant over random APIs"), which a make test must not meet at
		// random. These seeds hold every check today; -randapi.seed=0 is
		// not a seed, so explore with -randapi.seed=N.
		seeds = dropInSeeds
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			replay := fmt.Sprintf("go test ./internal/testsupport/randapitest -run TestDropIn -randapi.seed=%d -randapi.dropkinds=%d", seed, *dropKindsFlag)
			if *zeroFlag != 0 {
				replay += fmt.Sprintf(" -randapi.zerodefaults=%g", *zeroFlag)
			}
			cfg := Shapes(Config{Seed: seed, Kinds: *dropKindsFlag, KindsPerPackage: *dropPerPackageFlag, ZeroDefaults: *zeroFlag, IsZero: *isZeroFlag})
			setConfig(t, &cfg, &replay)
			checkRandomAPI(t, cfg, replay, ref)
		})
	}
}

// dropInSeeds are TestDropIn's seeds in make test.
var dropInSeeds = []uint64{2, 3}

// checkRandomAPI generates the API of cfg and checks the package
// documentation's invariants on it; with ref, controller-gen v0.23.0, the
// drop-in invariant too (TestDropIn).
func checkRandomAPI(t *testing.T, cfg Config, replay, ref string) {
	seed := cfg.Seed
	t.Logf("seed %d (replay: %s)", seed, replay)

	api := Generate(cfg)
	kinds := api.Kinds()
	t.Logf("%d kinds (in %d group versions) and %d named types in %d packages; crd options %q",
		len(kinds), len(servedVersions(kinds)), api.Types(), len(api.Packages), api.Options)

	w := newWorkspace(t)
	dir := t.TempDir()
	if *dirFlag != "" {
		var err error
		if dir, err = filepath.Abs(*dirFlag); err != nil {
			t.Fatal(err)
		}
		t.Logf("module in %s", dir)
	}
	start := time.Now()
	// The drop-in runs: controller-gen and ours with
	// crd:implicitDefaults=false, each in a copy of the module, beside
	// ours with the defaults.
	var drop *dropInRuns
	dropDone := make(chan struct{})
	if ref != "" {
		go func() {
			defer close(dropDone)
			drop = w.dropIn(t.Context(), dir, api, ref)
		}()
	} else {
		close(dropDone)
	}
	t.Cleanup(func() { <-dropDone })
	// Check 3: the generator runs, and its code compiles.
	gen, err := w.generate(t.Context(), dir, api.Packages, kinds, api.Options)
	if err != nil {
		if ref != "" {
			// what the drop-in runs make of the same module
			<-dropDone
			switch {
			case drop.refErr != nil:
				t.Errorf("seed %d: controller-gen %s fails too (randapi must write only what it accepts): %v", seed, realapis.ReferenceVersion, drop.refErr)
			case drop.oursErr != nil:
				t.Errorf("seed %d: drop-in: controller-gen %s exits 0, and controller-gen-default fails with crd:implicitDefaults=false too: %v",
					seed, realapis.ReferenceVersion, drop.oursErr)
			case drop.err != nil:
				t.Errorf("seed %d: %v", seed, drop.err)
			default:
				t.Logf("seed %d: controller-gen %s exits 0, and controller-gen-default with crd:implicitDefaults=false too; their files:",
					seed, realapis.ReferenceVersion)
				drop.check(t, seed, replay, nil, kinds)
			}
		}
		t.Fatalf("seed %d: %v (replay: %s)", seed, err, replay)
	}
	t.Logf("generated and compiled in %s", time.Since(start).Round(time.Millisecond))
	// Check 4's reference CRDs: ours with crd:implicitDefaults=false (with
	// ref, those of the drop-in run, held to controller-gen's), generated
	// while checks 1 and 2 run.
	noImplicitStart := time.Now()
	var noImplicit map[string]*apiextensionsv1.CustomResourceDefinition
	var noImplicitErr error
	var noImplicitTook time.Duration
	noImplicitDone := make(chan struct{})
	go func() {
		defer close(noImplicitDone)
		if ref != "" {
			// ours with crd:implicitDefaults=false: controller-gen's CRDs
			// but for the defaults of +default on types, which
			// controller-gen drops (dropInRuns.check holds it to that),
			// which would make required properties differ
			<-dropDone
			noImplicitTook = drop.took
			if noImplicitErr = drop.err; noImplicitErr == nil {
				noImplicit = drop.oursCRDs
			}
			return
		}
		noImplicit, noImplicitErr = w.generateNoImplicit(t.Context(), dir, api.Options)
		noImplicitTook = time.Since(noImplicitStart)
	}()
	t.Cleanup(func() { <-noImplicitDone }) // before dir is removed

	// Check 1: the apiserver accepts every CRD.
	for _, c := range gen.crdList {
		if errs := crdcheck.ValidateCRD(t.Context(), c); len(errs) > 0 {
			t.Errorf("seed %d, CRD %s: the apiserver rejects it: %v", seed, c.Name, errs.ToAggregate())
		}
	}
	if t.Failed() {
		<-dropDone
		if drop != nil && drop.err == nil {
			drop.check(t, seed, replay, gen, kinds)
		}
		t.FailNow()
	}

	// Check 2: the rule of thumb on random objects.
	start = time.Now()
	checkers := map[string]*checker{}
	skip := skippedFields(gen.stderr)
	for _, k := range kinds {
		p, err := objectpath.New(gen.crds[k.CRD()], k.Pkg.Version)
		if err != nil {
			t.Fatalf("kind %s: %v", k.Key(), err)
		}
		checkers[k.Key()] = &checker{kind: k.Key(), root: k.Type, p: p, split: skip}
	}
	failures, objects, err := w.ruleOfThumb(t.Context(), dir, gen.harness, seed, checkers)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	t.Logf("compared %d objects in %s", objects, time.Since(start).Round(time.Millisecond))

	// Check 4: implicit defaults change what is stored, never which
	// objects are accepted.
	<-noImplicitDone
	if noImplicitErr != nil {
		t.Fatalf("seed %d: %v", seed, noImplicitErr)
	}
	refName := "crd:implicitDefaults=false"
	if ref != "" {
		drop.check(t, seed, replay, gen, kinds)
		refName += " (controller-gen " + realapis.ReferenceVersion + "'s CRDs, +default on types aside)"
	}
	start = time.Now()
	var jobs []verdictKind
	for _, k := range kinds {
		rc := noImplicit[k.CRD()]
		if rc == nil {
			t.Fatalf("seed %d: %s wrote no CRD for kind %s", seed, refName, k.Key())
		}
		jobs = append(jobs, verdictKind{kind: k.Key(), version: k.Pkg.Version, ref: rc, ours: gen.crds[k.CRD()], ins: checkers[k.Key()].ins})
	}
	verdictDiffs, counts, err := sameVerdicts(t.Context(), seed, jobs)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	t.Logf("check 4: %s generated in %s (beside checks 1 and 2); %d objects each created under both CRDs in %s "+
		"(%d random, %d with properties deleted, %d with a key misspelt; %d required properties deleted and misspelt alone), %d accepted by both",
		refName, noImplicitTook.Round(time.Millisecond), counts.total(), time.Since(start).Round(time.Millisecond),
		counts.random, counts.deleted, counts.misspelt, counts.requiredSites, counts.accepted)
	reportVerdicts(t, seed, replay, refName, kinds, verdictDiffs)

	if len(failures) == 0 {
		return
	}

	var failing []*Kind
	for _, k := range kinds {
		if len(failures[k.Key()]) > 0 {
			failing = append(failing, k)
		}
	}
	t.Errorf("seed %d: %d of %d kinds break the rule of thumb (replay: %s)", seed, len(failing), len(kinds), replay)
	if *focusFlag != "" {
		focus := strings.Split(*focusFlag, ",")
		failing = slices.DeleteFunc(failing, func(k *Kind) bool {
			return !slices.Contains(focus, k.Name) && !slices.Contains(focus, k.Key())
		})
	}
	srv, err := w.serve(t.Context(), dir, gen.harness)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	for i, k := range failing {
		fs := failures[k.Key()]
		if i >= *reportKinds {
			t.Errorf("seed %d, kind %s: %d of %d objects differ, first: %s", seed, k.Key(), len(fs), *objectsFlag, fs[0].summary())
			continue
		}
		small := checkers[k.Key()].shrink(srv, fs[0])
		t.Errorf("seed %d, kind %s: %d of %d objects differ\n%s\nshrunk object:\n%s", seed, k.Key(), len(fs), *objectsFlag, fs[0], small)
		if i < *shrinkKinds {
			w.shrinkType(t, k, small, api.Options)
		}
	}
}

// servedVersions are the group versions of kinds.
func servedVersions(kinds []*Kind) map[string]bool {
	out := map[string]bool{}
	for _, k := range kinds {
		out[k.Pkg.Group+"/"+k.Pkg.Version] = true
	}
	return out
}

// ruleOfThumb runs the harness's random objects through checkers, and
// returns the failures by kind, and how many objects it compared.
func (w *workspace) ruleOfThumb(ctx context.Context, dir, harness string, seed uint64, checkers map[string]*checker) (map[string][]failure, int, error) {
	out, err := w.command(ctx, dir, harness, "-fill", "-seed", fmt.Sprint(seed), "-n", fmt.Sprint(*objectsFlag))
	if err != nil {
		return nil, 0, err
	}
	failures := map[string][]failure{}
	objects := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line struct {
			Kind  string
			In, A json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, 0, fmt.Errorf("harness output: %w\n%s", err, sc.Bytes())
		}
		c, ok := checkers[line.Kind]
		if !ok {
			return nil, 0, fmt.Errorf("harness output: no kind %q", line.Kind)
		}
		objects++
		c.ins = append(c.ins, line.In)
		if f := c.check(line.In, line.A); f != nil {
			failures[line.Kind] = append(failures[line.Kind], *f)
		}
	}
	return failures, objects, sc.Err()
}

// failure is one object on which (a) and (b) differ, or that the
// apiserver would not decode.
type failure struct {
	in, a []byte
	b     map[string]any
	// err is set when the object cannot be compared: the apiserver would
	// not decode it, or (a) is not JSON.
	err string
	// diffs are the differences of (a) and (b), one per path.
	diffs []string
}

func (f failure) String() string {
	var s strings.Builder
	fmt.Fprintf(&s, "input: %s\n", f.in)
	if f.err != "" {
		fmt.Fprintf(&s, "%s\n", f.err)
		return s.String()
	}
	b, _ := json.Marshal(f.b)
	fmt.Fprintf(&s, "(a) Go:  %s\n(b) CRD: %s\n", stripMetadata(f.a), stripMetadata(b))
	for _, d := range f.diffs {
		fmt.Fprintf(&s, "  %s\n", d)
	}
	return s.String()
}

func (f failure) summary() string {
	if f.err != "" {
		return f.err
	}
	return strings.Join(f.diffs, "; ")
}

// checker compares (a) and (b) for the objects of one kind.
type checker struct {
	kind string
	// root is the kind's Go type (omitzeroEmptyDefault reads it)
	root *Named
	// split are the fields the generator warned default-differs-by-use
	// about, as Type.Field
	split map[string]bool
	p     *objectpath.Pipeline
	// ins are the harness's random objects, as a Go client sends them
	ins [][]byte
}

// check returns the failure of one object: in as a Go client sends it, a
// as the generated defaulting functions leave it.
func (c *checker) check(in, a []byte) *failure {
	obj, err := jsonnum.DecodeObject(in)
	if err != nil {
		return &failure{in: in, a: a, err: "the apiserver would not decode it: " + err.Error()}
	}
	res := c.p.Decode(obj)
	if len(res.Errors) > 0 {
		return &failure{in: in, a: a, err: "the apiserver would not decode it: " + res.Errors.ToAggregate().Error()}
	}
	diffs, err := compare(c.root, c.split, a, res.Object)
	if err != nil {
		return &failure{in: in, a: a, err: "cannot compare: " + err.Error()}
	}
	if len(diffs) == 0 {
		return nil
	}
	return &failure{in: in, a: a, b: res.Object, diffs: diffs}
}

// shrink removes fields of f's input while the failure stays of the same
// sort (a difference, or an error), and returns the smallest one.
// Each smaller input is taken as a Go client sends it after reading it
// (a removed non-omitempty field comes back as its zero value): the rule
// of thumb is about what Go clients send.
func (c *checker) shrink(srv *server, f failure) failure {
	try := func(in []byte) *failure {
		sent, a, err := srv.defaulted(c.kind, in)
		if err != nil {
			return nil
		}
		return c.check(sent, a)
	}
	small := equivtest.Shrink(f.in, func(in []byte) bool {
		g := try(in)
		return g != nil && (g.err != "") == (f.err != "")
	}, 200)
	if g := try(small); g != nil {
		return *g
	}
	return f
}

// compare returns the differences of (a) and (b) as JSON values, metadata
// aside, one line per path.
func compare(root *Named, split map[string]bool, a []byte, b map[string]any) ([]string, error) {
	av, err := decodeJSON(a)
	if err != nil {
		return nil, fmt.Errorf("(a): %w", err)
	}
	bb, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("(b): %w", err)
	}
	bv, err := decodeJSON(bb)
	if err != nil {
		return nil, fmt.Errorf("(b): %w", err)
	}
	for _, m := range []any{av, bv} {
		if m, ok := m.(map[string]any); ok {
			delete(m, "metadata")
		}
	}
	if root != nil {
		dropUnwritable(root, split, av, bv)
	}
	var out []string
	diff("", av, bv, &out)
	return out, nil
}

// decodeJSON decodes b with numbers as written, so that integers of any
// size compare exactly.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// diff appends the differences of a and b below path to out: keys of one
// object only, lists of different lengths, different scalars.
func diff(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			p := strings.TrimPrefix(path+"."+k, ".")
			av, ina := am[k]
			bv, inb := bm[k]
			switch {
			case !inb:
				*out = append(*out, fmt.Sprintf("%s: only in (a): %s", p, marshalSorted(av)))
			case !ina:
				*out = append(*out, fmt.Sprintf("%s: only in (b): %s", p, marshalSorted(bv)))
			default:
				diff(p, av, bv, out)
			}
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			diff(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, fmt.Sprintf("%s: (a) %s, (b) %s", path, marshalSorted(a), marshalSorted(b)))
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// marshalSorted is v as JSON, object keys in order.
func marshalSorted(v any) string {
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(b)
}

// stripMetadata is an object's JSON without metadata, for reports.
func stripMetadata(b []byte) string {
	v, err := decodeJSON(b)
	if m, ok := v.(map[string]any); err == nil && ok {
		delete(m, "metadata")
		return marshalSorted(m)
	}
	return string(b)
}

// workspace builds controller-gen-default once, and writes throwaway
// modules that use this repository through a replace directive, with its
// requirements and checksums, so that nothing is downloaded.
type workspace struct {
	bin   string // controller-gen-default
	gomod []byte
	gosum []byte
	env   []string
}

func newWorkspace(t *testing.T) *workspace {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	w := &workspace{bin: testkit.GeneratorOrEnv(t), env: realapis.GoEnv("-mod=mod")}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if w.gosum, err = os.ReadFile(filepath.Join(root, "go.sum")); err != nil {
		t.Fatal(err)
	}
	moduleLine := regexp.MustCompile(`(?m)^module .*$`)
	w.gomod = moduleLine.ReplaceAll(mod, []byte("module "+Module))
	w.gomod = fmt.Appendf(w.gomod, "\nrequire %s v0.0.0-00010101000000-000000000000\n\nreplace %[1]s => %s\n", repoModule, root)
	return w
}

// repoRoot is the nearest directory above the working directory whose
// go.mod declares this repository's module.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(b, []byte("module "+repoModule+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + repoModule + " above the working directory")
		}
		dir = parent
	}
}

// generated is the output of controller-gen-default for a module.
type generated struct {
	crds    map[string]*apiextensionsv1.CustomResourceDefinition // by CRDKey
	crdList []*apiextensionsv1.CustomResourceDefinition          // as loaded
	harness string                                               // the harness binary
	stderr  string                                               // the generator's warnings
}

// generate writes pkgs into dir as a fresh module, runs
// `controller-gen-default object crd defaults` on them (with the crd
// options opts), loads the CRDs and builds the harness for kinds. Any
// error is a failure of check 3.
func (w *workspace) generate(ctx context.Context, dir string, pkgs []*Package, kinds []*Kind, opts []string) (*generated, error) {
	for _, sub := range []string{"api", "crds", "harness"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			return nil, err
		}
	}
	if err := w.writeModule(dir, pkgs); err != nil {
		return nil, err
	}

	crdDir := filepath.Join(dir, "crds")
	args := []string{"object", crdArg(opts), "defaults", "paths=./api/...", "output:crd:dir=" + crdDir}
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Dir, cmd.Env = dir, w.env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	if err != nil || bytes.Contains(stderr.Bytes(), []byte("panic")) {
		return nil, fmt.Errorf("controller-gen-default %s: %w\n%s", strings.Join(args[:4], " "), err, errorLines(stderr.String()))
	}
	g := &generated{crds: map[string]*apiextensionsv1.CustomResourceDefinition{}, stderr: stderr.String()}
	crds, err := crdcheck.LoadCRDs(crdDir)
	if err != nil {
		return nil, err
	}
	g.crdList = crds
	for _, c := range crds {
		g.crds[CRDKey(c)] = c
	}
	for _, k := range kinds {
		c := g.crds[k.CRD()]
		if c == nil || version(c, k.Pkg.Version) == nil {
			return nil, fmt.Errorf("no CRD version for kind %s", k.Key())
		}
	}

	src, err := HarnessSource(kinds)
	if err != nil {
		return nil, err
	}
	if err := writeFiles(dir, map[string][]byte{"harness/main.go": src}); err != nil {
		return nil, err
	}
	g.harness = filepath.Join(dir, "harness", "harness")
	// Without symbols and DWARF: linking is most of the build, which
	// shrinking repeats.
	if _, err := w.command(ctx, dir, "go", "build", "-ldflags=-s -w", "-o", g.harness, "./harness"); err != nil {
		return nil, fmt.Errorf("the generated code does not compile: %w", err)
	}
	return g, nil
}

// errorLines keeps a generator's output short: its errors and whatever is
// not a warning.
func errorLines(s string) string {
	var out []string
	warnings := 0
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.Contains(l, ": warning: ") {
			warnings++
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n") + fmt.Sprintf("\n(%d warnings not shown)", warnings)
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// command runs a program in dir and returns its standard output.
func (w *workspace) command(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, w.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// server is a harness in -serve mode: the Go side of the rule of thumb for
// any input, which shrinking needs.
type server struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func (w *workspace) serve(ctx context.Context, dir, harness string) (*server, error) {
	cmd := exec.CommandContext(ctx, harness, "-serve")
	cmd.Dir, cmd.Env, cmd.Stderr = dir, w.env, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	return &server{cmd: cmd, in: in, out: sc}, nil
}

// defaulted returns the object as a Go client sends it (sent), and (a) for
// it.
func (s *server) defaulted(kind string, in []byte) (sent, a []byte, err error) {
	req, _ := json.Marshal(map[string]any{"kind": kind, "in": json.RawMessage(in)})
	if _, err := s.in.Write(append(req, '\n')); err != nil {
		return nil, nil, err
	}
	if !s.out.Scan() {
		if err := s.out.Err(); err != nil {
			return nil, nil, fmt.Errorf("harness -serve stopped: %w", err)
		}
		return nil, nil, errors.New("harness -serve stopped")
	}
	var resp struct {
		Sent, A json.RawMessage
		Error   string
	}
	if err := json.Unmarshal(s.out.Bytes(), &resp); err != nil {
		return nil, nil, err
	}
	if resp.Error != "" {
		return nil, nil, errors.New(resp.Error)
	}
	return resp.Sent, resp.A, nil
}

func (s *server) close() {
	s.in.Close()
	_ = s.cmd.Wait()
}

// shrinkType looks for a smaller API that still fails on f's input: the
// kind alone in its package, then with one field after another removed
// (anywhere in its types), then markers, as long as the failure stays. It
// reports the Go source of the smallest API found, what
// controller-gen-default says about it, its CRD schema and its failure.
func (w *workspace) shrinkType(t *testing.T, k *Kind, f failure, opts []string) {
	t.Helper()
	start := time.Now()
	dir := t.TempDir()
	nk := k.Only()
	in := f.in
	var gen *generated
	// fails runs the whole pipeline for nk and reports its failure on in.
	fails := func() *failure {
		var err error
		gen, err = w.generate(t.Context(), dir, nk.API().Packages, []*Kind{nk}, opts)
		if err != nil {
			return nil
		}
		crd := gen.crds[nk.CRD()]
		if len(crdcheck.ValidateCRD(t.Context(), crd)) > 0 {
			return nil
		}
		p, err := objectpath.New(crd, nk.Pkg.Version)
		if err != nil {
			return nil
		}
		srv, err := w.serve(t.Context(), dir, gen.harness)
		if err != nil {
			return nil
		}
		defer srv.close()
		c := &checker{kind: nk.Key(), root: nk.Type, p: p, split: skippedFields(gen.stderr)}
		sent, a, err := srv.defaulted(nk.Key(), in)
		if err != nil {
			return nil
		}
		g := c.check(sent, a)
		if g == nil || (g.err != "") != (f.err != "") {
			return nil
		}
		small := c.shrink(srv, *g)
		return &small
	}
	last, lastGen := fails(), gen
	if last == nil {
		t.Errorf("kind %s: the failure does not reproduce with the kind alone in its package "+
			"(the CRD or Go code of a kind depends on the other kinds of its package?)", k.Key())
		return
	}
	// Passes over the steps, while one makes progress: a step that loses
	// the failure in one pass may not in the next, once others are taken.
	attempts, taken := 0, 0
	for progress := true; progress && attempts < *shrinkFlag; {
		progress = false
		for _, s := range nk.Steps() {
			if attempts >= *shrinkFlag {
				break
			}
			if !nk.Uses(s.Owner) {
				continue // an earlier step of this pass removed it
			}
			attempts++
			undo := s.Apply()
			if g := fails(); g != nil {
				last, lastGen, in, progress = g, gen, g.in, true
				taken++
				continue
			}
			undo()
		}
	}
	var src []byte
	for _, p := range nk.API().Packages {
		b, err := p.TypesSource()
		if err != nil {
			t.Error(err)
			return
		}
		src = fmt.Appendf(src, "// %s/types.go\n%s", p.Dir, b)
	}
	// The schema of spec and status only: apiVersion, kind and metadata are
	// always the same.
	schema := lastGen.crds[nk.CRD()].Spec.Versions[0].Schema.OpenAPIV3Schema.DeepCopy()
	for _, p := range []string{"apiVersion", "kind", "metadata"} {
		delete(schema.Properties, p)
	}
	schemaYAML, _ := yaml.Marshal(schema)
	said := lastGen.stderr
	if said == "" {
		said = "(nothing)\n"
	}
	t.Errorf("kind %s: smallest API found (%d simplifications in %d attempts, %s):\n%s\ncontroller-gen-default says:\n%s\nCRD schema:\n%s\n%s",
		k.Key(), taken, attempts, time.Since(start).Round(time.Second), src, said, schemaYAML, last)
}

// dropUnwritable removes from b, an object of struct n as the apiserver
// stores it, each property that (a), the Go defaulter's output, lacks and
// that a Go client cannot write: an omitzero field whose value encoding/json
// omits once read (the struct's zero value, or a value the struct's own
// IsZero calls zero). The apiserver stores the default there, Go reads it
// and leaves it out of all it writes: the two agree on what Go reads
// (defaultgen's TestShapesAgreeWithAPIServer compares the Go values), and
// no defaulter can make Go write it. Properties both hold are compared
// below, through lists and maps of structs. The fields of split, whose
// uses the generator said one Go defaulter cannot all follow
// (default-differs-by-use), are dropped from both.
func dropUnwritable(n *Named, split map[string]bool, a, b any) {
	am, _ := a.(map[string]any)
	bm, ok := b.(map[string]any)
	if !ok {
		return
	}
	for _, f := range n.Fields {
		if split[n.Name+"."+f.Name] || split["type:"+typeName(f.Type)] {
			delete(am, f.JSON)
			delete(bm, f.JSON)
		}
	}
	if n.EmbeddedResource {
		// An embedded resource's metadata, as the root's, is not
		// defaulting's: encoding/json always writes the ObjectMeta field
		// ({} when empty), and the apiserver drops an empty one.
		if m, ok := am["metadata"].(map[string]any); ok && len(m) == 0 {
			if _, inB := bm["metadata"]; !inB {
				delete(am, "metadata")
			}
		}
	}
	for k, bv := range bm {
		f := fieldByJSON(n, k)
		if f == nil {
			continue
		}
		av, inA := am[k]
		if !inA {
			if f.Omit == "omitzero" && omittedByGo(f.Type, bv, split) {
				delete(bm, k)
			}
			continue
		}
		dropUnwritableIn(f.Type, split, av, bv)
	}
}

// dropUnwritableIn is dropUnwritable on values of type t.
func dropUnwritableIn(t *Type, split map[string]bool, a, b any) {
	switch t.Kind {
	case PointerType:
		dropUnwritableIn(t.Elem, split, a, b)
	case SliceType:
		al, _ := a.([]any)
		bl, _ := b.([]any)
		if len(al) == len(bl) {
			for i := range bl {
				dropUnwritableIn(t.Elem, split, al[i], bl[i])
			}
		}
	case MapType:
		am, _ := a.(map[string]any)
		bm, _ := b.(map[string]any)
		for k, bv := range bm {
			if av, ok := am[k]; ok {
				dropUnwritableIn(t.Elem, split, av, bv)
			}
		}
	case NamedType:
		if s := t.structType(); s != nil {
			dropUnwritable(s, split, a, b)
		}
	}
}

// skippedFields reads, from a generator's output, the fields the Go
// defaulter does not follow the CRD on, and says so, so that the rule of
// thumb is not asked of them ("FILE:LINE:COL: warning: Type.Field (path):
// ..." or "FILE:LINE:COL: warning: Type.Field: ..."):
//   - default-differs-by-use: the Go defaulter follows one of the field's
//     uses;
//   - default-own-encoding: the field's default goes into a type with its
//     own encoding, which the defaults generator leaves unset (a default of
//     a type, for list items and map values, is named by the type, and
//     keyed "type:Name").
func skippedFields(said string) map[string]bool {
	split := map[string]bool{}
	for _, l := range strings.Split(said, "\n") {
		if !strings.HasSuffix(l, "[default-differs-by-use]") && !strings.HasSuffix(l, "[default-own-encoding]") {
			continue
		}
		_, rest, ok := strings.Cut(l, ": warning: ")
		if !ok {
			continue
		}
		goPath := rest
		if i := strings.IndexAny(rest, " :"); i >= 0 {
			goPath = rest[:i]
		}
		goPath = strings.TrimLeft(goPath, "*[]")
		if i := strings.LastIndex(goPath, "/"); i >= 0 || !strings.Contains(goPath, ".") {
			// a type: path/to/pkg.Name, or Name
			goPath = goPath[i+1:]
			if j := strings.LastIndex(goPath, "."); i >= 0 && j >= 0 {
				goPath = goPath[j+1:]
			}
			goPath = "type:" + goPath
		}
		split[goPath] = true
	}
	return split
}

// typeName is the name of the named type t is, through pointers, or "".
func typeName(t *Type) string {
	for t.Kind == PointerType {
		t = t.Elem
	}
	if t.Kind == NamedType {
		return t.Named.Name
	}
	return ""
}

// omittedByGo says whether encoding/json's omitzero leaves out v, read
// into a field of type t: a nil pointer, the zero value, or a struct whose
// own IsZero calls it zero (its IsZeroField zero or absent). The fields of
// split, whose defaults the Go defaulter does not follow, count as absent:
// the apiserver stores an omitzero struct that only their defaults fill.
func omittedByGo(t *Type, v any, split map[string]bool) bool {
	if v == nil {
		return true
	}
	if t.Kind == PointerType {
		return false
	}
	if s := t.structType(); s != nil && s.IsZeroField != nil {
		if m, ok := v.(map[string]any); ok {
			return zeroJSON(s.IsZeroField.Type, m[s.IsZeroField.JSON], split)
		}
	}
	return zeroJSON(t, v, split)
}

// zeroJSON says whether v reads into a value of type t as its zero value,
// the fields of split aside.
func zeroJSON(t *Type, v any, split map[string]bool) bool {
	if t.Kind == IntOrStringType {
		n, ok := v.(json.Number)
		return v == nil || ok && n == "0"
	}
	if v != nil && t.Kind != BasicType && t.Kind != NamedType {
		return false // a pointer, slice, map or external value that is not null
	}
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	case map[string]any:
		s := t.structType()
		if s == nil {
			return false
		}
		for k, fv := range x {
			f := fieldByJSON(s, k)
			if f != nil && (split[s.Name+"."+f.Name] || split["type:"+typeName(f.Type)]) {
				continue
			}
			if f == nil || !zeroJSON(f.Type, fv, split) {
				return false
			}
		}
		return true
	}
	return false
}

// fieldByJSON is the field of n, promoted ones included, with the JSON
// name, or nil.
func fieldByJSON(n *Named, name string) *Field {
	for _, f := range n.Fields {
		if f.Embedded {
			if g := fieldByJSON(f.Type.Elem.Named, name); g != nil {
				return g
			}
			continue
		}
		if f.JSON == name {
			return f
		}
	}
	return nil
}

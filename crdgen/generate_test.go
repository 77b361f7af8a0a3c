package crdgen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/checkcache"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
	"github.com/controller-gen-default/controller-gen-default/internal/genrun"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

func ptr[T any](v T) *T { return &v }

// TestGenerateAPI generates every CRD of testdata/api: the KEP-1929
// examples and a tour of the generator. Diagnostics must match the
// `// want` comments, and the CRDs their goldens.
func TestGenerateAPI(t *testing.T) {
	res := generate(t, crdgen.Generator{}, true, "../testdata/api/...")
	if res.failed {
		t.Fatalf("generation failed:\n%s", res.diags)
	}
	checkDiagnostics(t, "../testdata/api", res.diags)
	checkGolden(t, "../testdata/golden", res.files)
}

// TestForbidden: KEP-1929's forbidden examples and every marker error fail
// with a position, and nothing is written.
func TestForbidden(t *testing.T) {
	res := generate(t, crdgen.Generator{}, true, "../testdata/forbidden/...")
	if !res.failed {
		t.Fatalf("generation succeeded, want errors:\n%s", res.diags)
	}
	if len(res.files) != 0 {
		t.Errorf("wrote %d files despite errors", len(res.files))
	}
	checkDiagnostics(t, "../testdata/forbidden", res.diags)
}

// TestImplicitOffIsControllerGen: with implicitDefaults=false and no
// type-level defaults, the output is controller-tools' crd generator's,
// byte for byte. (Struct pointers is left out on purpose: controller-tools
// writes a CRD there that the apiserver rejects; see TestStructPointersAccepted.) (test/compat/ checks the same on real API modules against the
// released controller-gen binary.)
func TestImplicitOffIsControllerGen(t *testing.T) {
	if testing.Short() {
		// a cross-check: the rules' own tests below stay in the unit tier
		t.Skip("-short: generates five packages with controller-tools and with crdgen (about 4 s): run without -short (make test-integration)")
	}
	pkgs := []string{
		"../testdata/api/nonpointerstructs/...",
		"../testdata/api/scalars/...",
		"../testdata/api/listsnodefault/...",
		"../testdata/api/stringmapsnodefault/...",
		"../testdata/api/optout/...",
	}
	theirs := generate(t, crd.Generator{OmitToolVersion: ptr(true)}, false, pkgs...)
	ours := generate(t, crdgen.Generator{OmitToolVersion: ptr(true), ImplicitDefaults: ptr(false)}, true, pkgs...)
	if theirs.failed || ours.failed {
		t.Fatalf("generation failed:\ncontroller-tools: %s\nours: %s", theirs.diags, ours.diags)
	}
	if len(theirs.files) != len(pkgs) || len(ours.files) != len(theirs.files) {
		t.Fatalf("controller-tools wrote %d files, ours %d, want %d", len(theirs.files), len(ours.files), len(pkgs))
	}
	for name, b := range theirs.files {
		if !bytes.Equal(b, ours.files[name]) {
			t.Errorf("%s differs from controller-tools':\n%s", name, firstDiff(b, ours.files[name]))
		}
	}
}

// TestControllerToolsVersion keeps the annotation's fallback in step with go.mod.
func TestControllerToolsVersion(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	want := "sigs.k8s.io/controller-tools " + crdgen.ControllerToolsVersion
	if !strings.Contains(string(b), want) {
		t.Errorf("go.mod does not require %q; update crdgen.ControllerToolsVersion", want)
	}
}

// TestForeignFindings: findings in types from other modules (here
// k8s.io/api's PodTemplateSpec) are one summary line, listed with
// allFindings, and with verbose.
func TestForeignFindings(t *testing.T) {
	quiet := generate(t, crdgen.Generator{}, true, "../testdata/api/workload/...")
	summary := regexp.MustCompile(`(?m)^warning: (\d+) findings in types from other modules \(.*omitempty-struct: \d+.*\); run with crd:allFindings=true to list them$`)
	m := summary.FindStringSubmatch(quiet.diags)
	if m == nil {
		t.Fatalf("no summary line in:\n%s", quiet.diags)
	}
	if strings.Contains(quiet.diags, "k8s.io/api@") {
		t.Errorf("quiet run lists findings in k8s.io/api:\n%s", quiet.diags)
	}
	for _, g := range []crdgen.Generator{{AllFindings: ptr(true)}, {Verbose: ptr(true)}} {
		loud := generate(t, g, true, "../testdata/api/workload/...")
		n := strings.Count(loud.diags, "k8s.io/api@")
		if want, _ := strconv.Atoi(m[1]); n < want {
			t.Errorf("%+v: the run lists %d findings in k8s.io/api, the summary counted %d:\n%s", g, n, want, loud.diags)
		}
		if !bytes.Equal(quiet.files["workload.example.com_workloads.yaml"], loud.files["workload.example.com_workloads.yaml"]) {
			t.Error("listing findings changed the CRD")
		}
	}
}

// TestSummarisedFindings: the omitempty-struct warnings of one CRD are one
// line, with their number, the CRD and the first of them, and the run
// names the option that lists them; crd:allFindings=true lists each.
// Errors are listed one by one. With crd:implicitDefaults=false there is
// no omitempty-struct warning at all (rule 2 exists for rule 1's implicit
// {}), but the explicit default's error stays.
func TestSummarisedFindings(t *testing.T) {
	const pkgs = "../testdata/lintscope/..."
	res := generate(t, crdgen.Generator{}, true, pkgs)
	// five: Widget.Spec, Widget.Status, WidgetSpec.Box, Embedded.Size, and
	// Box.Lid in package shared, the first by position
	want := regexp.MustCompile(`(?m)^\S*testdata/lintscope/shared/types.go:8:2: warning: 5 omitempty-struct warnings in CRD widgets.scope.example.com, ` +
		`the first here: Box.Lid \(spec.box.lid\): omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, which keeps the field optional; ` +
		`run with crd:allFindings=true to list them \[omitempty-struct\]$`)
	if !want.MatchString(res.diags) {
		t.Errorf("no summary line:\n%s", res.diags)
	}
	if n := strings.Count(res.diags, "\n"); n != 3 || !strings.Contains(res.diags, "error: Part (spec.parts[*])") {
		t.Errorf("want the summary line, the error, and the generator's error line:\n%s", res.diags)
	}
	all := generate(t, crdgen.Generator{AllFindings: ptr(true)}, true, pkgs)
	if n := strings.Count(all.diags, "[omitempty-struct]"); n != 5 || strings.Contains(all.diags, "the first here") {
		t.Errorf("allFindings: %d omitempty-struct lines, want 5:\n%s", n, all.diags)
	}
	off := generate(t, crdgen.Generator{ImplicitDefaults: ptr(false)}, true, pkgs)
	if strings.Contains(off.diags, "omitempty-struct") || !strings.Contains(off.diags, "[default-type-mismatch]") {
		t.Errorf("implicitDefaults=false:\n%s", off.diags)
	}
}

// TestGoldensPassAPIServerValidation: every CRD generated for testdata
// passes the apiserver's own CRD validation, run offline.
func TestGoldensPassAPIServerValidation(t *testing.T) {
	crds, err := crdcheck.LoadCRDs("../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	if len(crds) < 10 {
		t.Fatalf("loaded %d golden CRDs", len(crds))
	}
	for _, c := range crds {
		if errs := crdcheck.ValidateCRD(context.Background(), c); len(errs) > 0 {
			t.Errorf("%s: %v", c.Name, errs.ToAggregate())
		}
		if _, errs := crdcheck.Check(context.Background(), c); len(errs) > 0 {
			t.Errorf("%s: %v", c.Name, errs.ToAggregate())
		}
	}
}

// TestStructPointersAccepted: for KEP-1929's "Struct pointers" example,
// whose SubLevel.Number has a default and no +optional (so the schema
// requires it), controller-tools writes a CRD the apiserver rejects (the
// entry default leaves number out); ours is accepted and defaults objects
// the same way (dropRequiredCoveredByDefaults).
func TestStructPointersAccepted(t *testing.T) {
	const pkg = "../testdata/api/structpointers/..."
	theirs := generate(t, crd.Generator{}, false, pkg)
	crds := decodeCRDs(t, theirs.files)
	errs := crdcheck.ValidateCRD(context.Background(), crds[0])
	if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), "default.number: Required value") {
		t.Fatalf("controller-tools' CRD: want the apiserver's default.number: Required value, got %v", errs)
	}
	for _, c := range decodeCRDs(t, generate(t, crdgen.Generator{ImplicitDefaults: ptr(false)}, true, pkg).files) {
		if errs := crdcheck.ValidateCRD(context.Background(), c); len(errs) > 0 {
			t.Errorf("ours with implicitDefaults=false: %v", errs.ToAggregate())
		}
	}
}

func decodeCRDs(t *testing.T, files map[string][]byte) []*apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var out []*apiextensionsv1.CustomResourceDefinition
	for name, b := range files {
		c := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.Unmarshal(b, c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatal("no CRD generated")
	}
	return out
}

// TestCheckCache: the first run records the CRDs that passed the checks
// (internal/apiserver/checkcache), and a second run on the same CRDs reports exactly
// what the first run reported.
func TestCheckCache(t *testing.T) {
	if testing.Short() {
		// internal/apiserver/checkcache and normalize's checkcache tests keep the cache in the unit tier
		t.Skip("-short: generates testdata/forbidden three times (about 5 s): run without -short (make test-integration)")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	first := generate(t, crdgen.Generator{}, true, "../testdata/forbidden/...")
	entries, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "controller-gen-default", "checks", "*", "*"))
	if len(entries) == 0 {
		t.Fatal("the first run stored nothing in the cache")
	}
	second := generate(t, crdgen.Generator{}, true, "../testdata/forbidden/...")
	if first.diags != second.diags || !second.failed {
		t.Errorf("the cached run differs:\nfirst:\n%s\nsecond:\n%s", first.diags, second.diags)
	}
	if !strings.Contains(second.diags, "[nested-defaults]") || !strings.Contains(second.diags, "[apiserver]") {
		t.Errorf("the cached run lost the checks' errors:\n%s", second.diags)
	}
	t.Setenv(checkcache.Env, "off")
	if third := generate(t, crdgen.Generator{}, true, "../testdata/forbidden/..."); third.diags != first.diags {
		t.Errorf("the uncached run differs:\n%s", third.diags)
	}
}

// TestDefaultsAloneDecidesAsCRD: the defaults generator, run alone
// (`controller-gen-default object defaults`), takes the crd generator's
// decisions: on testdata/forbidden it reports every error crd reports
// about a marker, at the same position with the same text, exits with an
// error and writes nothing. (The apiserver's checks run in crd only.)
func TestDefaultsAloneDecidesAsCRD(t *testing.T) {
	errorLines := func(diags string) []string {
		var out []string
		for _, l := range strings.Split(diags, "\n") {
			// the apiserver's messages start with "CRD <name>:" and may span
			// lines; recursive-type, which replaces the apiserver's message
			// about a recursive type, is the CRD's too (the Go defaulter
			// handles recursive types)
			if strings.Contains(l, ": error: ") && !strings.Contains(l, ": CRD ") && !strings.HasSuffix(l, "[recursive-type]") {
				out = append(out, l)
			}
		}
		sort.Strings(out)
		return out
	}
	crdRes := generate(t, crdgen.Generator{}, true, "../testdata/forbidden/...")
	defRes := generate(t, defaultgen.Generator{}, true, "../testdata/forbidden/...")
	if !defRes.failed {
		t.Fatalf("defaults succeeded, want errors:\n%s", defRes.diags)
	}
	if len(defRes.files) != 0 {
		t.Errorf("defaults wrote %d files despite errors", len(defRes.files))
	}
	want, got := errorLines(crdRes.diags), errorLines(defRes.diags)
	if len(want) < 8 {
		t.Fatalf("crd reported %d marker errors, want every error of testdata/forbidden:\n%s", len(want), crdRes.diags)
	}
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("defaults alone reported\n%s\nwant crd's\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(defRes.diags, ": warning: ") {
		t.Errorf("defaults printed warnings, which are about the CRD and crd's to print:\n%s", defRes.diags)
	}
}

// TestDefaultsAllFindings: defaults:allFindings=true lists the warnings of
// its decisions too, one by one; without it defaults prints the errors.
func TestDefaultsAllFindings(t *testing.T) {
	const pkgs = "../testdata/lintscope/..."
	quiet := generate(t, defaultgen.Generator{}, true, pkgs)
	all := generate(t, defaultgen.Generator{AllFindings: ptr(true)}, true, pkgs)
	if strings.Contains(quiet.diags, "warning:") || !strings.Contains(quiet.diags, "[default-type-mismatch]") {
		t.Errorf("defaults:\n%s", quiet.diags)
	}
	if n := strings.Count(all.diags, ": warning: "); n != 5 || !strings.Contains(all.diags, "[default-type-mismatch]") || strings.Contains(all.diags, "the first here") {
		t.Errorf("defaults:allFindings=true: %d warnings, want the 5 omitempty-struct ones and the error:\n%s", n, all.diags)
	}
}

// TestExplain: crd:explain=true says, at each field, what its property got
// and why; the omitzero cases of testdata/api/conventions each have their
// reason.
func TestExplain(t *testing.T) {
	res := generate(t, crdgen.Generator{Explain: ptr(true)}, true, "../testdata/api/conventions/...")
	if res.failed {
		t.Fatalf("generation failed:\n%s", res.diags)
	}
	for _, want := range []string{
		`FrigateSpec.Deck (spec.deck): no default: omitzero, and the apiserver would refuse the zero struct: the default's name "" is 0 characters long; the schema requires at least 1 (minLength) [explain]`,
		`FrigateSpec.Engine (spec.engine): default {"fuel":"diesel"} from implicit-struct-default: a non-pointer struct tagged omitzero: what the apiserver stores for Go's zero struct [explain]`,
		`FrigateSpec.Hull (spec.hull): no default: omitzero: Go clients leave the zero struct out, and no default below it would change it [explain]`,
		`FrigateSpec.Rigging (spec.rigging): default {"knots":12} from implicit-struct-default: a non-pointer struct: {} is refused, so {} with the defaults below it applied [explain]`,
		`Deck.Colour (spec.deck.colour): default "blue" from +default [explain]`,
		`Frigate.Spec (spec): no default: no marker, and the schema requires the field (the field is +required): the apiserver defaults before it validates, ` +
			`so a default would let a manifest that leaves the field out, or misspells it, through. Mark it +optional to give it an implicit default [explain]`,
	} {
		if !strings.Contains(res.diags, want) {
			t.Errorf("explain lacks %q:\n%s", want, res.diags)
		}
	}
	if strings.Contains(res.diags, "warning:") {
		t.Errorf("testdata/api/conventions follows today's conventions and must not warn:\n%s", res.diags)
	}
	if n := strings.Count(res.diags, "[explain]"); n != 16 {
		t.Errorf("%d explain lines, want one per field of testdata/api/conventions (16)", n)
	}
}

// TestLintIsTheGenerators: model.LintRoots, which tools that see only Go
// code run (no schema), reports exactly the crd generator's findings of
// the rules that need no schema in the roots' files, word for word, on
// the forbidden examples, the example API and testdata/lintscope (what
// the generator does not read: a List type, a type no kind reaches).
func TestLintIsTheGenerators(t *testing.T) {
	if testing.Short() {
		// a cross-check: lint's analyzers and the generator's rules have their own tests
		t.Skip("-short: loads and generates three package trees (about 5 s): run without -short (make test-integration)")
	}
	// the rules the registry says lint emits: a rule missing there, or
	// listed there and not emitted by lint, fails below
	lintRules := map[string]bool{}
	for _, r := range findings.Rules {
		if r.Emits(findings.CmdLint) {
			lintRules[r.Name] = true
		}
	}
	line := regexp.MustCompile(`^(\S+?):(\d+):(\d+): (\w+): (\S+)(?: \([^)]*\))?: (.*) \[([\w-]+)\]$`)
	key := func(file, l, c, sev, goPath, msg, rule string) string {
		abs, _ := filepath.Abs(file)
		return strings.Join([]string{abs, l, c, sev, goPath, msg, rule}, "|")
	}
	for _, dir := range []string{"../testdata/forbidden/...", "../testdata/api/...", "../testdata/lintscope/..."} {
		t.Run(dir, func(t *testing.T) {
			res := generate(t, crdgen.Generator{AllFindings: ptr(true)}, true, dir)
			under, _ := filepath.Abs(strings.TrimSuffix(dir, "..."))
			var want []string
			for _, l := range strings.Split(res.diags, "\n") {
				if m := line.FindStringSubmatch(l); m != nil && lintRules[m[7]] {
					if abs, _ := filepath.Abs(m[1]); !strings.HasPrefix(abs, under) {
						continue // another module's type: the lint stays in the roots' modules
					}
					want = append(want, key(m[1], m[2], m[3], m[4], m[5], m[6], m[7]))
				}
			}
			var gen genall.Generator = crdgen.Generator{}
			rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := genrun.Wire(rt, nil); err != nil { // the registry as the command wires it
				t.Fatal(err)
			}
			var got []string
			for _, f := range model.LintRoots(rt.Roots, rt.Collector, rt.Checker, model.Options{Implicit: true}) {
				if f.Sev == model.Note {
					continue
				}
				got = append(got, key(f.Pos.Filename, fmt.Sprint(f.Pos.Line), fmt.Sprint(f.Pos.Column), f.Sev.String(), f.GoPath, f.Msg, f.Rule))
			}
			sort.Strings(want)
			sort.Strings(got)
			if len(want) == 0 {
				t.Fatalf("crd reported %d findings of the lint rules:\n%s", len(want), res.diags)
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Errorf("lint found\n%s\nthe crd generator\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestReplacedFileNotes: when the crd generator replaces a CRD file, it
// says which defaults differ from the file's, one note each at the Go
// field, and points to impact for the changed and removed ones; a run that
// changes nothing says nothing.
func TestReplacedFileNotes(t *testing.T) {
	out := t.TempDir()
	first := generateIn(t, crdgen.Generator{}, true, out, "../testdata/api/conventions/...")
	if first.failed || strings.Contains(first.diags, "note:") {
		t.Fatalf("first run: failed=%v\n%s", first.failed, first.diags)
	}
	file := filepath.Join(out, "conventions.example.com_frigates.yaml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The file as an older API wrote it: another engine default, no
	// rigging default, and a default on hull that the types no longer have.
	old := strings.Replace(string(b), "fuel: diesel\n", "fuel: petrol\n", 1)
	old = strings.Replace(old, "                default:\n                  knots: 12\n", "", 1)
	old = strings.Replace(old, "              hull:\n", "              hull:\n                default:\n                  material: oak\n", 1)
	if old == string(b) || strings.Count(old, "petrol") != 1 || strings.Contains(old, "knots: 12\n                  refused") {
		t.Fatalf("the fixture edits did not apply; update them to the golden file")
	}
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	res := generateIn(t, crdgen.Generator{}, true, out, "../testdata/api/conventions/...")
	for _, want := range []string{
		`types.go:41:2: note: FrigateSpec.Engine (spec.engine): default changed: {"fuel":"diesel"}, was {"fuel":"petrol"} in frigates.conventions.example.com v1 [default-changed]`,
		`types.go:46:2: note: FrigateSpec.Hull (spec.hull): default removed: was {"material":"oak"} in frigates.conventions.example.com v1 [default-removed]`,
		`types.go:52:2: note: FrigateSpec.Rigging (spec.rigging): default added: {"knots":12} in frigates.conventions.example.com v1 [default-added]`,
		"controller-gen-default impact --old old.yaml (the file as it was) --new ",
	} {
		if !strings.Contains(res.diags, want) {
			t.Errorf("second run lacks %q:\n%s", want, res.diags)
		}
	}
	if again := generateIn(t, crdgen.Generator{}, true, out, "../testdata/api/conventions/..."); strings.Contains(again.diags, "note:") {
		t.Errorf("an unchanged run printed notes:\n%s", again.diags)
	}
}

// TestReplacedFileNotesSummarised: the first run over CRDs that
// controller-gen wrote (here crd:implicitDefaults=false) adds a default
// to many properties; the notes are one line per CRD, with their number
// and the first of them, and crd:allFindings=true lists each.
func TestReplacedFileNotesSummarised(t *testing.T) {
	const pkgs = "../testdata/api/multi/..."
	out := t.TempDir()
	if res := generateIn(t, crdgen.Generator{ImplicitDefaults: ptr(false)}, true, out, pkgs); res.failed {
		t.Fatal(res.diags)
	}
	old, err := os.ReadFile(filepath.Join(out, "multi.example.com_multis.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res := generateIn(t, crdgen.Generator{}, true, out, pkgs)
	want := "testdata/api/multi/v1/types.go:24:2: note: 2 default-added notes in CRD multis.multi.example.com, " +
		"the first here: MultiSpec.Enabled (spec.enabled): default added: false in multis.multi.example.com v1; run with crd:allFindings=true to list them [default-added]\n"
	if !strings.HasSuffix(res.diags, want) || strings.Count(res.diags, "\n") != 1 {
		t.Errorf("got\n%s\nwant\n%s", res.diags, want)
	}
	if err := os.WriteFile(filepath.Join(out, "multi.example.com_multis.yaml"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	all := generateIn(t, crdgen.Generator{AllFindings: ptr(true)}, true, out, pkgs)
	if n := strings.Count(all.diags, "[default-added]\n"); n != 2 || strings.Count(all.diags, "\n") != 2 {
		t.Errorf("allFindings: %d default-added notes, want 2 and nothing else:\n%s", n, all.diags)
	}
}

// tempPackage writes src as the package of a test into testdata, in the
// module, removed after the test, and returns its pattern.
func tempPackage(t *testing.T, src string) string {
	t.Helper()
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "tmp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		os.RemoveAll(dir)
		os.Remove("testdata") // if the test made it
	})
	if err := os.WriteFile(filepath.Join(dir, "types.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return "./" + filepath.ToSlash(dir)
}

// TestLongEnum: the findings about a 20,000-value enum (an explicit
// default it refuses, an implicit zero value it would refuse) quote its
// values capped (refusal.ValueLists), where the apiserver's error lists
// them all (189 KB a line).
func TestLongEnum(t *testing.T) {
	vals := make([]string, 20000)
	for i := range vals {
		vals[i] = fmt.Sprint("v", i)
	}
	src := "// +groupName=example.com\n// +kubebuilder:object:generate=false\npackage v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"// +kubebuilder:validation:Enum=" + strings.Join(vals, ";") + "\ntype Big string\n\n" +
		"type EnumSpec struct {\n\t// +default=\"nope\"\n\t// +optional\n\tA Big `json:\"a,omitempty\"`\n\t// +optional\n\tB Big `json:\"b\"`\n}\n\n" +
		"// +kubebuilder:object:root=true\ntype Enum struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec EnumSpec `json:\"spec,omitzero\"`\n}\n"
	res := generate(t, crdgen.Generator{}, true, tempPackage(t, src))
	if !res.failed || strings.Count(res.diags, `"v9", ... and 19990 more (20000 in all) (enum)`) != 2 {
		t.Errorf("failed %v:\n%.3000s", res.failed, res.diags)
	}
	for line := range strings.Lines(res.diags) {
		if len(line) > 2048 {
			t.Errorf("a line of %d bytes: %.300s", len(line), line)
		}
	}
}

// TestOneMessagePerDefault: a default out of its field's range is
// reported once, at the field: a uint32 above 2^31-1 (format int32, which
// the apiserver refuses, and which the struct default above it, stored
// with it applied, repeated), a uint16, int32 and int64 out of range (the
// generator's own check). A ref() is quoted as written, with its value,
// and a ref() to a variable, function or type says so in words.
func TestOneMessagePerDefault(t *testing.T) {
	src := "// +groupName=example.com\n// +kubebuilder:object:generate=false\npackage v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"// +kubebuilder:validation:Enum=TCP;UDP\ntype Protocol string\n\nconst Bad Protocol = \"SCTP\"\nconst Big = 3000000000\n\nvar AVar = \"x\"\n\nfunc AFunc() string { return \"x\" }\n\ntype AType string\n\n" +
		"type RangeSpec struct {\n" +
		"\t// +default=3000000000\n\t// +optional\n\tU32 uint32 `json:\"u32,omitempty\"`\n" + // line 20
		"\t// +default=ref(Big)\n\t// +optional\n\tU32r uint32 `json:\"u32r,omitempty\"`\n" +
		"\t// +default=70000\n\t// +optional\n\tU16 uint16 `json:\"u16,omitempty\"`\n" +
		"\t// +default=3000000000\n\t// +optional\n\tI32 int32 `json:\"i32,omitempty\"`\n" +
		"\t// +default=9223372036854775808\n\t// +optional\n\tI64 int64 `json:\"i64,omitempty\"`\n" +
		"\t// +default=ref(Bad)\n\t// +optional\n\tP Protocol `json:\"p,omitempty\"`\n" +
		"\t// +default=ref(AVar)\n\t// +optional\n\tV string `json:\"v,omitempty\"`\n" +
		"\t// +default=ref(AFunc)\n\t// +optional\n\tF string `json:\"f,omitempty\"`\n" +
		"\t// +default=ref(AType)\n\t// +optional\n\tT string `json:\"t,omitempty\"`\n" +
		"}\n\n// +kubebuilder:object:root=true\ntype Range struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec RangeSpec `json:\"spec,omitzero\"`\n}\n"
	res := generate(t, crdgen.Generator{}, true, tempPackage(t, src))
	want := map[int]string{
		22: `the default 3000000000 is outside format int32, -2147483648 to 2147483647 (format) (+default) [apiserver]`,
		25: `the default 3000000000 is outside format int32, -2147483648 to 2147483647 (format) (+default=ref(Big)) [apiserver]`,
		28: `+default=70000: 70000 does not fit in a uint16`,
		31: `+default=3000000000: 3000000000 does not fit in an int32`,
		34: `+default=9223372036854775808: 9223372036854775808 does not fit in an int64`,
		37: `the default "SCTP" is not one of the values the schema allows, "TCP", "UDP" (enum) (+default=ref(Bad)) [apiserver]`,
		40: `+default=ref(AVar): AVar in package ` + "\x00" + ` is a variable, not a constant; ref() takes a constant [unresolved-ref]`,
		43: `+default=ref(AFunc): AFunc in package ` + "\x00" + ` is a function, not a constant; ref() takes a constant [unresolved-ref]`,
		46: `+default=ref(AType): AType in package ` + "\x00" + ` is a type, not a constant; ref() takes a constant [unresolved-ref]`,
	}
	got := map[int][]string{}
	for line := range strings.Lines(res.diags) {
		if m := diagLine.FindStringSubmatch(strings.TrimSuffix(line, "\n")); m != nil {
			n, _ := strconv.Atoi(m[2])
			got[n] = append(got[n], m[5])
		}
	}
	for n, w := range want {
		before, after, _ := strings.Cut(w, "\x00")
		if len(got[n]) != 1 || !strings.Contains(got[n][0], before) || !strings.Contains(got[n][0], after) {
			t.Errorf("line %d: %q, want one message with %q", n, got[n], w)
		}
	}
	for n, msgs := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("line %d: unexpected %q", n, msgs)
		}
	}
}

// TestTypeErrorOnce: a field of an undefined type is reported once, by
// controller-tools' "unknown type" (which controller-gen's runtime prints
// with the packages' errors), not a second time as the apiserver's error
// about the property without a type that the CRD then has
// (packagesFailed); nothing is written.
func TestTypeErrorOnce(t *testing.T) {
	src := "// +groupName=example.com\n// +kubebuilder:object:generate=false\npackage v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"type BrokenSpec struct {\n\t// +optional\n\tP Undefined `json:\"p,omitempty\"`\n}\n\n" +
		"// +kubebuilder:object:root=true\ntype Broken struct {\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec BrokenSpec `json:\"spec,omitzero\"`\n}\n"
	res := generate(t, crdgen.Generator{}, true, tempPackage(t, src))
	if !res.failed || len(res.files) != 0 || strings.Contains(res.diags, "[apiserver]") || !strings.Contains(res.diags, "crd: the packages do not load") {
		t.Errorf("failed %v, %d files:\n%s", res.failed, len(res.files), res.diags)
	}
}

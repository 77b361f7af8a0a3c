package lint_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// golangciLint is golangci-lint v2.15.0 with the kepdefaults and
// kube-api-linter module plugins, built by `make golangci-lint-kepdefaults`
// (hack/golangci-lint/build.sh): $GOLANGCI_KEPDEFAULTS, else
// bin/golangci-lint-kepdefaults. When it is missing, or was built from
// other sources than this checkout, the test fails in CI (CI=true) or when
// GOLANGCI_KEPDEFAULTS names it, and is skipped otherwise.
func golangciLint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the golangci-lint tests")
	}
	bin, fromEnv := os.LookupEnv("GOLANGCI_KEPDEFAULTS")
	if !fromEnv || bin == "" {
		bin, fromEnv = filepath.Join(repoRoot, "bin", "golangci-lint-kepdefaults"), false
	}
	bin, _ = filepath.Abs(bin)
	fail := t.Skipf
	if fromEnv || os.Getenv("CI") == "true" {
		fail = t.Fatalf
	}
	if _, err := os.Stat(bin); err != nil {
		fail("%v: build it with `make golangci-lint-kepdefaults`", err)
	}
	check := exec.Command("bash", filepath.Join(repoRoot, "hack/golangci-lint/build.sh"), "--check", bin)
	if out, err := check.CombinedOutput(); err != nil {
		fail("%s: rebuild it with `make golangci-lint-kepdefaults` (%v)", out, err)
	}
	return bin
}

type gclIssue struct {
	FromLinter string
	Text       string
	Severity   string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// runGolangci runs golangci-lint in the repository's root with config and
// args, and returns its issues, "file:line:col: text (linter)", sorted.
func runGolangci(t *testing.T, bin, config string, args ...string) []string {
	t.Helper()
	var out []string
	for _, i := range runGolangciIssues(t, bin, config, args...) {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s (%s)", i.Pos.Filename, i.Pos.Line, i.Pos.Column, i.Text, i.FromLinter))
	}
	sort.Strings(out)
	return out
}

// runGolangciIssues runs golangci-lint as runGolangci does and returns its
// issues as it reports them.
func runGolangciIssues(t *testing.T, bin, config string, args ...string) []gclIssue {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run", "--config", config, "--output.json.path=stdout", "--show-stats=false"}, args...)...)
	cmd.Dir = repoRoot
	// A cache of its own: results are never those of another run.
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("golangci-lint %s: %v\n%s%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	var res struct{ Issues []gclIssue }
	if err := json.NewDecoder(&stdout).Decode(&res); err != nil {
		t.Fatalf("golangci-lint output: %v\n%s", err, stdout.String())
	}
	return res.Issues
}

var testPackages = []string{
	"structdefaultnotempty", "defaultneedsomitempty", "omitemptystruct", "invaliddefault", "unresolvedref",
	"defaulttypemismatch", "conflictingdefaults", "unknownmarker", "misplacedmarker", "clean", "fixall", "ownfiles/a", "ownfiles/b", "kal",
}

// TestGolangciKepdefaults: golangci-lint with the plugin reports what
// `controller-gen-default lint` reports, line for line (golangci-lint puts
// the analyzer's name before the message and the linter's after it), and
// --fix writes the .golden files.
func TestGolangciKepdefaults(t *testing.T) {
	bin := golangciLint(t)
	config := filepath.Join(repoRoot, "lint/testdata/golangci-kal.yml")
	var patterns []string
	for _, p := range testPackages {
		patterns = append(patterns, "./lint/testdata/src/"+p)
	}
	got := runGolangci(t, bin, config, append([]string{"--enable-only", "kepdefaults"}, patterns...)...)

	var relPatterns []string
	for _, p := range testPackages {
		relPatterns = append(relPatterns, "./testdata/src/"+p)
	}
	stderr := runLint(t, relPatterns...)
	vet := regexp.MustCompile(`^(\S+?:\d+:\d+): (.*) \[([\w-]+)\]$`)
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		m := vet.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("lint printed %q", l)
		}
		want = append(want, fmt.Sprintf("lint/%s: %s: %s [%s] (kepdefaults)", m[1], lint.AnalyzerName(m[3]), m[2], m[3]))
	}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint reports\n%s\nlint\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	t.Run("--fix", func(t *testing.T) {
		tmp, err := os.MkdirTemp("testdata", "tmp-golangci-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(tmp) })
		fixable := []string{"structdefaultnotempty", "omitemptystruct", "defaultneedsomitempty", "fixall"}
		var args []string
		for _, p := range fixable {
			orig, err := os.ReadFile(filepath.Join("testdata/src", p, "types.go"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(tmp, p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(tmp, p, "types.go"), orig, 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "./lint/"+filepath.ToSlash(filepath.Join(tmp, p)))
		}
		left := runGolangci(t, bin, config, append([]string{"--enable-only", "kepdefaults", "--fix"}, args...)...)
		for _, p := range fixable {
			fixed, _ := os.ReadFile(filepath.Join(tmp, p, "types.go"))
			golden, _ := os.ReadFile(filepath.Join("testdata/src", p, "types.go.golden"))
			if !bytes.Equal(fixed, golden) {
				t.Errorf("%s: --fix wrote\n%s\nwant\n%s", p, fixed, golden)
			}
		}
		// What has no fix is left: the interpreted-string tag, the invalid JSON.
		if len(left) != 2 || !strings.Contains(left[0], "Spec.Quoted") || !strings.Contains(left[1], "Root.Unquoted") {
			t.Errorf("--fix left\n%s", strings.Join(left, "\n"))
		}
	})
}

// fieldFindings maps each Type.Field of the issues to the sorted, distinct
// "linter/analyzer" that report it.
func fieldFindings(issues []string) map[string][]string {
	re := regexp.MustCompile(`^\S+: (\w+): .*?\b([A-Z]\w*\.[A-Z]\w*)\b.* \((\w+)\)$`)
	out := map[string][]string{}
	for _, i := range issues {
		m := re.FindStringSubmatch(i)
		if m == nil {
			continue
		}
		who := m[3] + "/" + m[1]
		if !slices.Contains(out[m[2]], who) {
			out[m[2]] = append(out[m[2]], who)
			sort.Strings(out[m[2]])
		}
	}
	return out
}

// TestGolangciKAL pins what README.md says about kube-api-linter (KAL) next
// to kepdefaults, field by field of lint/testdata/src/kal: where they agree,
// where they conflict, and that the resolution (Fueled) satisfies both,
// with KAL's default settings and with optionalfields' WhenRequired.
func TestGolangciKAL(t *testing.T) {
	bin := golangciLint(t)
	const (
		sdne = "kepdefaults/structdefaultnotempty"
		oes  = "kepdefaults/omitemptystruct"
		dno  = "kepdefaults/defaultneedsomitempty"
		kof  = "kubeapilinter/optionalfields"
		kd   = "kubeapilinter/defaults"
		knps = "kubeapilinter/nonpointerstructs"
	)
	common := map[string][]string{
		"Spec.ZeroStruct":   {sdne, kof},                                                                                              // both: a pointer
		"Spec.Empty":        {oes, kof},                                                                                               // ours: omitzero; KAL: a pointer
		"Spec.EmptyDefault": {kd, kof},                                                                                                // KEP-1929's own shape; KAL only
		"Spec.Name":         {dno, kd, kof},                                                                                           // both: omitempty
		"Spec.Count":        {kof},                                                                                                    // KEP-1929 rule 4: implicit default 0
		"Spec.Mode":         {"kepdefaults/defaultonrequired", "kubeapilinter/defaultorrequired", kd, "kubeapilinter/requiredfields"}, // both: a default on a required field
	}
	for _, c := range []struct {
		config string
		want   map[string][]string
	}{
		{"golangci-kal.yml", map[string][]string{
			"Spec.Engine": {sdne, knps, kof}, // both: a pointer
			"Spec.Fueled": {knps, kof},
		}},
		{"golangci-kal-whenrequired.yml", map[string][]string{
			"Spec.Engine":        {sdne, knps},
			"Spec.EnginePointer": {kof}, // KAL: not a pointer, omitzero; then ours: Engine's error
			"Spec.Fueled":        {knps},
		}},
	} {
		t.Run(c.config, func(t *testing.T) {
			got := fieldFindings(runGolangci(t, bin, filepath.Join(repoRoot, "lint/testdata", c.config), "./lint/testdata/src/kal"))
			want := map[string][]string{}
			for k, v := range common {
				want[k] = v
			}
			for k, v := range c.want {
				want[k] = v
			}
			for k := range got {
				if !strings.HasPrefix(k, "Spec.") {
					delete(got, k)
				}
			}
			for _, k := range slices.Sorted(mapKeys(want, got)) {
				if !slices.Equal(got[k], want[k]) {
					t.Errorf("%s: %v, want %v", k, got[k], want[k])
				}
			}
		})
	}
}

func mapKeys(ms ...map[string][]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range ms {
			for k := range m {
				if !seen[k] {
					seen[k] = true
					if !yield(k) {
						return
					}
				}
			}
		}
	}
}

// exampleAPIFinding keys an issue on testdata/api by package and field:
// "features/v1 TourSpec.Mode", and names its analyzer ("optionalfields";
// "kepdefaults/omitemptystruct" for ours).
func exampleAPIFinding(i gclIssue) (field, analyzer string, ok bool) {
	pkg := regexp.MustCompile(`^testdata/api/(.+)/[^/]+\.go$`).FindStringSubmatch(filepath.ToSlash(i.Pos.Filename))
	an, _, _ := strings.Cut(i.Text, ":")
	if pkg == nil || an == "" {
		return "", "", false
	}
	if i.FromLinter == "kepdefaults" {
		an = "kepdefaults/" + an
	}
	if m := regexp.MustCompile(`\b([A-Z]\w*)\.(?:metav1\.)?([A-Z]\w*)\b`).FindStringSubmatch(i.Text); m != nil {
		return pkg[1] + " " + m[1] + "." + m[2], an, true
	}
	if m := regexp.MustCompile(`^conditions: Conditions field in (\w+) `).FindStringSubmatch(i.Text); m != nil {
		return pkg[1] + " " + m[1] + ".Conditions", an, true
	}
	// a finding at a type: "unknownmarker: warning: Sails: ..."
	if m := regexp.MustCompile(`^\w+: (?:warning|error): ([A-Z]\w*): `).FindStringSubmatch(i.Text); m != nil && i.FromLinter == "kepdefaults" {
		return pkg[1] + " " + m[1], an, true
	}
	return "", "", false
}

// exampleAPIDifferences is each finding of KAL's default linters on
// testdata/api that is left on purpose, field by field, as README.md lists
// them ("Next to kube-api-linter (KAL)"); the rest of KAL's conventions
// (godoc, +optional/+required) the fixtures follow.
func exampleAPIDifferences() map[string][]string {
	const (
		oor  = "optionalorrequired"
		nps  = "nonpointerstructs"
		of   = "optionalfields"
		rf   = "requiredfields"
		ints = "integers"
		defs = "defaults"
	)
	want := map[string][]string{}
	add := func(analyzers []string, fields ...string) {
		for _, f := range fields {
			want[f] = append(want[f], analyzers...)
		}
	}
	// 1. No omitempty, so controller-gen lists the field in `required`, and
	// KEP-1929 gives it an implicit default (or shows why it gets none):
	// +optional would drop it from `required`, +required would switch its
	// implicit default off. Structs among them also get nonpointerstructs.
	add([]string{oor, nps},
		"features/v1 Gadget.Spec", "multi/v1 Multi.Spec", "multi/v2 Multi.Spec", "optout/v1 OptOut.Spec", "workload/v1 Workload.Spec",
		"features/v1 GadgetSpec.Strict", "features/v1 GadgetSpec.Claim", "features/v1 GadgetSpec.Blob",
		"optout/v1 OptOutSpec.Inner", "optout/v1 OptOutSpec.Loud")
	add([]string{oor},
		"features/v1 Strict.Protocol", "features/v1 EmbeddedClaim.Metadata",
		"features/v1 EmbeddedClaim.Replicas", "optout/v1 OptOutSpec.Count", "optout/v1 Inner.Enabled")
	// +optional without omitempty: the fields that take KEP-1929's implicit
	// default (a property the schema requires gets none, docs/crd.md
	// "Required fields"), KEP-1929's optional fields among them. KAL's
	// optionalfields asks for omitempty and a pointer.
	add([]string{of, of},
		"lists/v1 ListExample.Spec", "listsnodefault/v1 ListNoDefault.Spec", "nonpointerstructs/v1 NonPointerStruct.Spec",
		"scalars/v1 Scalar.Spec", "stringmaps/v1 StringMap.Spec", "stringmapsnodefault/v1 StringMapNoDefault.Spec",
		"structpointers/v1 StructPointer.Spec", "nonpointerstructs/v1 Root.Entry",
		"features/v1 TourSpec.Strict", "features/v1 TourSpec.Quiet", "features/v1 TourSpec.Loud", "features/v1 TourSpec.Silent",
		"features/v1 TourSpec.Mode", "features/v1 TourSpec.Quantity", "features/v1 TourSpec.Timeout", "features/v1 TourSpec.Port",
		"features/v1 TourSpec.Started", "features/v1 Strict.Count", "features/v1 Settings.Enabled",
		"features/v1 Settings.Level", "features/v1 Settings.Name", "features/v1 Silent.Enabled")
	add([]string{nps, of, of}, "features/v1 TourSpec.Sails")
	// KEP-1929's scalars without omitempty whose default is the zero value
	// (rule 3 needs no omitempty there), int included: +optional where the
	// KEP's tables leave them out; "Struct pointers" keeps the KEP's
	// required Number, whose default both linters report.
	add([]string{defs, ints, of, of}, "nonpointerstructs/v1 SubLevel.Number", "scalars/v1 Object.Defaulted")
	add([]string{oor, defs, defs, ints, "kepdefaults/defaultonrequired"}, "structpointers/v1 SubLevel.Number")
	// 2. optionalfields' default preference (Always): every optional field a
	// pointer with omitempty. KEP-1929 defaults value fields; a pointer would
	// change the Go types and the Go defaulter. conventions follows
	// WhenRequired instead (see README.md).
	add([]string{of},
		"nonpointerstructs/v1 SubLevel.Name", "structpointers/v1 SubLevel.Name", "scalars/v1 Object.Name",
		"multi/v1 MultiSpec.Size", "multi/v2 MultiSpec.Size", "optout/v1 OptOutSpec.Name",
		"features/v1 TourSpec.Protocol", "features/v1 TourSpec.PeerProtocol", "features/v1 TourSpec.Tier", "features/v1 TourSpec.Retries",
		"features/v1 TourSpec.MaxBytes",
		"features/v1 Backoff.Limit", "features/v1 Backoff.Strategy", "features/v1 Endpoint.Port", "features/v1 TourStatus.ObservedGeneration",
		"conventions/v1 Deck.Colour", "conventions/v1 Engine.Fuel", "conventions/v1 Hull.Material", "conventions/v1 Rigging.Knots")
	// ... and omitempty: non-pointer fields without it that get an implicit default, omitzero structs.
	add([]string{of, of},
		"multi/v1 MultiSpec.Enabled", "multi/v2 MultiSpec.Replicas", "workload/v1 WorkloadSpec.Template",
		"features/v1 TourSpec.Weight", "features/v1 Tour.Status", "conventions/v1 Frigate.Status")
	// ... and nonpointerstructs, which KAL's documentation says is not meant
	// for CRDs: omitzero structs, optional, whose zero value is invalid.
	add([]string{nps, of, of},
		"features/v1 TourSpec.Spare", "conventions/v1 FrigateSpec.Deck", "conventions/v1 FrigateSpec.Engine",
		"conventions/v1 FrigateSpec.Hull", "conventions/v1 FrigateSpec.Rigging")
	// The omitempty-struct warning, on purpose.
	add([]string{"kepdefaults/omitemptystruct", nps, of}, "features/v1 Tour.Spec")
	// The unknown-marker and misplaced-marker warnings, on purpose: a typo,
	// a forked controller-gen's marker and a field marker on a type, which
	// KAL's default linters do not report.
	add([]string{"kepdefaults/unknownmarker"}, "features/v1 Endpoint.Port", "features/v1 Sails")
	add([]string{"kepdefaults/misplacedmarker"}, "features/v1 Region")
	// 3. +required fields without omitempty: what features shows (no implicit
	// default; Endpoint's default written with "name":""); Frigate.Spec and
	// Deck.Name: omitzero/omitempty would change the Go defaulter and the
	// reason {} is refused.
	add([]string{rf, rf}, "features/v1 TourSpec.Replicas", "features/v1 Endpoint.Name")
	add([]string{rf}, "conventions/v1 Frigate.Spec", "conventions/v1 Deck.Name")
	// 4. What the fixture is about: +kubebuilder:default kept, metav1.Duration
	// (a known zero value).
	add([]string{defs}, "features/v1 TourSpec.Retries")
	add([]string{"nodurations"}, "features/v1 TourSpec.Timeout")
	// 5. Schema changes: int32/int64 add `format:`; listType (and the
	// conditions' listType=map, listMapKey=type) adds x-kubernetes-list-*.
	add([]string{ints}, "features/v1 TourSpec.Weight", "features/v1 Strict.Count", "features/v1 Settings.Level", "optout/v1 OptOutSpec.Count")
	add([]string{"ssatags"}, "lists/v1 Object.List", "listsnodefault/v1 Object.List", "features/v1 TourSpec.Tiers")
	add([]string{"conditions", "ssatags"}, "features/v1 TourStatus.Conditions")
	for _, v := range want {
		sort.Strings(v)
	}
	return want
}

// TestGolangciExampleAPI runs kepdefaults and KAL's default linters on
// testdata/api, KEP-1929's examples: kepdefaults reports what
// `controller-gen-default lint` does, and KAL exactly the deliberate
// differences of exampleAPIDifferences, field by field.
func TestGolangciExampleAPI(t *testing.T) {
	bin := golangciLint(t)
	issues := runGolangciIssues(t, bin, filepath.Join(repoRoot, "lint/testdata/golangci-kal.yml"), "./testdata/api/...")
	ours := runLint(t, "../testdata/api/...")
	var gotOurs []string
	got := map[string][]string{}
	for _, i := range issues {
		field, an, ok := exampleAPIFinding(i)
		if !ok {
			t.Errorf("unexpected issue %s:%d: %s (%s)", i.Pos.Filename, i.Pos.Line, i.Text, i.FromLinter)
			continue
		}
		if i.FromLinter == "kepdefaults" {
			gotOurs = append(gotOurs, i.Text)
		}
		got[field] = append(got[field], an)
	}
	want := exampleAPIDifferences()
	for _, v := range got {
		sort.Strings(v)
	}
	for _, k := range slices.Sorted(mapKeys(want, got)) {
		if !slices.Equal(got[k], want[k]) {
			t.Errorf("%s: KAL reports %v, README.md lists %v", k, got[k], want[k])
		}
	}
	// KAL's omitempty on a default is KEP-1929 rule 3 only where the default
	// is not the zero value: there, kepdefaults says the same.
	n := strings.Count(strings.TrimSpace(ours), "\n") + 1
	if strings.TrimSpace(ours) == "" {
		n = 0
	}
	if len(gotOurs) != n || strings.Contains(ours, "default-needs-omitempty") {
		t.Errorf("kepdefaults on testdata/api:\n%s\nlint:\n%s", strings.Join(gotOurs, "\n"), ours)
	}
}

// TestGolangciSeverity: golangci-lint's severity rules give kepdefaults'
// issues the generator's severity by their text, as docs/lint.md shows:
// the analyzer's name, then "error:" or "warning:".
func TestGolangciSeverity(t *testing.T) {
	bin := golangciLint(t)
	base, err := os.ReadFile(filepath.Join(repoRoot, "lint/testdata/golangci-kal.yml"))
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(t.TempDir(), "golangci.yml")
	rules := "severity:\n  default: error\n  rules:\n    - linters: [kepdefaults]\n      text: '^\\w+: warning: '\n      severity: warning\n"
	if err := os.WriteFile(config, append(base, rules...), 0o644); err != nil {
		t.Fatal(err)
	}
	bySeverity := map[string]int{}
	for _, i := range runGolangciIssues(t, bin, config, "--enable-only", "kepdefaults", "./lint/testdata/src/conflictingdefaults", "./lint/testdata/src/omitemptystruct") {
		want := "error"
		if strings.Contains(i.Text, ": warning: ") {
			want = "warning"
		}
		if i.Severity != want {
			t.Errorf("%s:%d: severity %q, want %q: %s", i.Pos.Filename, i.Pos.Line, i.Severity, want, i.Text)
		}
		bySeverity[i.Severity]++
	}
	if bySeverity["error"] == 0 || bySeverity["warning"] == 0 {
		t.Errorf("issues by severity %v: want both", bySeverity)
	}
}

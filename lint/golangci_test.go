package lint_test

import (
	"bytes"
	"encoding/json"
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
	Pos        struct {
		Filename     string
		Line, Column int
	}
}

// runGolangci runs golangci-lint in the repository's root with config and
// args, and returns its issues, "file:line:col: text (linter)", sorted.
func runGolangci(t *testing.T, bin, config string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"run", "--config", config, "--output.json.path=stdout", "--show-stats=false"}, args...)...)
	cmd.Dir = repoRoot
	// A cache of its own: results are never those of another run.
	cmd.Env = append(os.Environ(), "GOLANGCI_LINT_CACHE="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("golangci-lint %s: %v\n%s%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	var res struct{ Issues []gclIssue }
	if err := json.NewDecoder(&stdout).Decode(&res); err != nil {
		t.Fatalf("golangci-lint output: %v\n%s", err, stdout.String())
	}
	var out []string
	for _, i := range res.Issues {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s (%s)", i.Pos.Filename, i.Pos.Line, i.Pos.Column, i.Text, i.FromLinter))
	}
	sort.Strings(out)
	return out
}

var testPackages = []string{
	"structdefaultnotempty", "defaultneedsomitempty", "omitemptystruct", "invaliddefault", "unresolvedref",
	"defaulttypemismatch", "conflictingdefaults", "clean", "fixall", "ownfiles/a", "ownfiles/b", "kal",
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
	_, stderr, _ := runMain(t, relPatterns...)
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
		"Spec.ZeroStruct":   {sdne, kof},                                                             // both: a pointer
		"Spec.Empty":        {oes, kof},                                                              // ours: omitzero; KAL: a pointer
		"Spec.EmptyDefault": {kd, kof},                                                               // KEP-1929's own shape; KAL only
		"Spec.Name":         {dno, kd, kof},                                                          // both: omitempty
		"Spec.Count":        {kof},                                                                   // KEP-1929 rule 4: implicit default 0
		"Spec.Mode":         {"kubeapilinter/defaultorrequired", kd, "kubeapilinter/requiredfields"}, // KAL only
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

// TestGolangciExampleAPI runs kepdefaults and KAL's default linters on
// testdata/api, KEP-1929's examples: kepdefaults reports what
// `controller-gen-default lint` does, and KAL only what README.md lists as
// the fixtures' style and KEP-1929's deliberate differences.
func TestGolangciExampleAPI(t *testing.T) {
	bin := golangciLint(t)
	issues := runGolangci(t, bin, filepath.Join(repoRoot, "lint/testdata/golangci-kal.yml"), "./testdata/api/...")
	_, ours, _ := runMain(t, "../testdata/api/...")
	var gotOurs []string
	documented := []string{
		"commentstart", "optionalorrequired", // style of the fixtures (the KEP's types have neither)
		"nonpointerstructs", "optionalfields", "requiredfields", "defaults", // KEP-1929's non-pointer structs and omitempty-less scalars
		"integers", "nodurations", "ssatags", "conditions", // style of the fixtures, not about defaults
	}
	defaultsMsgs := regexp.MustCompile(`has a default value but is not marked as optional|should use \+default marker instead of \+kubebuilder:default|has a default value but does not have omitempty in its json tag`)
	analyzer := regexp.MustCompile(`^\S+: (\w+): (.*) \((\w+)\)$`)
	for _, i := range issues {
		m := analyzer.FindStringSubmatch(i)
		if m == nil {
			t.Errorf("unexpected issue %q", i)
			continue
		}
		switch {
		case m[3] == "kepdefaults":
			gotOurs = append(gotOurs, i)
		case !slices.Contains(documented, m[1]):
			t.Errorf("KAL's %s is not among the differences README.md lists: %s", m[1], i)
		case m[1] == "defaults" && !defaultsMsgs.MatchString(m[2]):
			t.Errorf("KAL's defaults reports what README.md does not list: %s", i)
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

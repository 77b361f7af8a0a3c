package lint_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// repoRoot is the module's root. analysistest treats a directory with a
// go.mod as the root of the module to load from: the test packages under
// lint/testdata/src are packages of this module, so they import
// k8s.io/apimachinery at the version of its go.mod.
var repoRoot, _ = filepath.Abs("..")

func analyzer(t *testing.T, rule string) *analysis.Analyzer {
	t.Helper()
	for i, a := range lint.Analyzers {
		if lint.Rules[i] == rule {
			return a
		}
	}
	t.Fatalf("no analyzer for %s", rule)
	return nil
}

// TestAnalyzers checks each rule's analyzer against the `// want` comments
// of its package in testdata/src, and, for the rules with a mechanical
// fix, the fixed files against their .golden files; the others offer no
// fix. Each diagnostic's Category is its rule, and its message ends with
// the rule in brackets, as the generator prints it.
func TestAnalyzers(t *testing.T) {
	fixable := map[string]bool{"struct-default-not-empty": true, "default-needs-omitempty": true, "omitempty-struct": true}
	for _, rule := range lint.Rules {
		t.Run(rule, func(t *testing.T) {
			a := analyzer(t, rule)
			if a.Name != lint.AnalyzerName(rule) {
				t.Errorf("analyzer %s for rule %s", a.Name, rule)
			}
			pattern := "./lint/testdata/src/" + a.Name
			run := analysistest.Run
			if fixable[rule] {
				run = analysistest.RunWithSuggestedFixes
			}
			n := 0
			for _, r := range run(t, repoRoot, a, pattern) {
				for _, d := range r.Diagnostics {
					n++
					if d.Category != rule || !strings.HasSuffix(d.Message, " ["+rule+"]") {
						t.Errorf("category %q, message %q", d.Category, d.Message)
					}
					if !fixable[rule] && len(d.SuggestedFixes) > 0 {
						t.Errorf("%s: %s offers a fix", r.Pass.Fset.Position(d.Pos), rule)
					}
				}
			}
			if n == 0 {
				t.Error("no diagnostics")
			}
		})
	}
}

// TestClean: no diagnostics where the rules hold.
func TestClean(t *testing.T) {
	for _, a := range lint.Analyzers {
		analysistest.Run(t, repoRoot, a, "./lint/testdata/src/clean")
	}
}

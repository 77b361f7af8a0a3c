package lint_test

import (
	"errors"
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// runLint is what `controller-gen-default lint PATTERNS` prints (its tests
// are in cmd/controller-gen-default): lint.Run's diagnostics, one a line,
// in go vet style.
func runLint(t *testing.T, patterns ...string) string {
	t.Helper()
	diags, err := lint.Run(patterns, lint.Options{Config: lint.DefaultConfig})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintln(&b, d)
	}
	return b.String()
}

// TestRun: lint.Run's values: a diagnostic with its rule as Category and
// its position relative to Dir; the errors of a package that does not
// load (parse) as a *LoadError, each at its position, and none for a type
// error, which the crd generator reads past; a pattern that matches
// nothing as an error; with Fix, only what the fixes leave (the files are
// not touched here: none has a fix).
func TestRun(t *testing.T) {
	diags, err := lint.Run([]string{"./src/conflictingdefaults"}, lint.Options{Config: lint.DefaultConfig, Dir: "testdata"})
	want := lint.Diagnostic{
		Pos:      token.Position{Filename: "src/conflictingdefaults/types.go", Line: 11, Column: 2},
		Category: "conflicting-defaults",
		Message:  "error: Spec.Twice: two different defaults: +default=1 and +kubebuilder:default=2; keep one [conflicting-defaults]",
	}
	if err != nil || len(diags) != 1 || diags[0].Pos.Offset == 0 {
		t.Fatalf("got %v, %v", diags, err)
	}
	diags[0].Pos.Offset = 0
	if diags[0] != want {
		t.Errorf("got %+v\nwant %+v", diags[0], want)
	}
	_, err = lint.Run([]string{"./testdata/src/syntax"}, lint.Options{})
	var load *lint.LoadError
	if !errors.As(err, &load) || len(load.Errors) == 0 || !strings.HasPrefix(load.Errors[0].Pos, "testdata/src/syntax/types.go:6:13") {
		t.Errorf("a package that does not parse: %#v", err)
	}
	// a type error is no load error, as for the crd generator
	if diags, err := lint.Run([]string{"./testdata/src/broken"}, lint.Options{}); err != nil || len(diags) != 0 {
		t.Errorf("a package that does not compile: %v, %v", diags, err)
	}
	if _, err := lint.Run([]string{"./testdata/src/clean/nope/..."}, lint.Options{}); err == nil {
		t.Errorf("a pattern that matches nothing: no error")
	}
	diags, err = lint.Run([]string{"./testdata/src/conflictingdefaults"}, lint.Options{Config: lint.DefaultConfig, Fix: true})
	if err != nil || len(diags) != 1 {
		t.Errorf("with Fix, what has no fix stays: %v, %v", diags, err)
	}
}

// TestPackageAlone: analysed one package at a time, as go vet and
// golangci-lint run the analyzers, a package with kinds reports what its
// kinds reach in its own files (not WidgetList's ListMeta, nor the
// helper type Helper), and a package of shared types with no kind of its
// own every struct type but List types (Unused too: no kind of the
// package says it is unused). controller-gen-default lint, which loads its
// packages together, reports exactly the crd generator's findings
// (TestLintIsTheGenerator in cmd/controller-gen-default).
func TestPackageAlone(t *testing.T) {
	for _, c := range []struct {
		pkg  string
		want []string
	}{
		{"./testdata/lintscope/v1", []string{
			"v1/types.go:15 omitempty-struct", "v1/types.go:16 omitempty-struct", "v1/types.go:29 omitempty-struct",
			"v1/types.go:44 default-type-mismatch", "v1/types.go:52 omitempty-struct",
		}},
		{"./testdata/lintscope/shared", []string{"shared/types.go:19 omitempty-struct", "shared/types.go:8 omitempty-struct"}},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			got := analyze(t, &packages.Config{Mode: packages.LoadSyntax, Dir: repoRoot}, c.pkg, func(p token.Position, d analysis.Diagnostic) string {
				return fmt.Sprintf("%s/%s:%d %s", filepath.Base(filepath.Dir(p.Filename)), filepath.Base(p.Filename), p.Line, d.Category)
			})
			slices.Sort(got)
			got = slices.Compact(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

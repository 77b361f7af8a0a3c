package lint_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// TestBuildTags: the analyzers report what the files of the driver's build
// hold, and nothing of the files on disk outside it. testdata/src/buildtags
// has a forbidden default in a file only -tags kepdefaults_tagged builds,
// and another in a file only the build without it has; analysistest checks
// the `// want` of the files in the build (and that nothing else is
// reported), under each build. The go command reads the tags from GOFLAGS,
// as `go vet -tags` passes them on.
func TestBuildTags(t *testing.T) {
	a := analyzer(t, "struct-default-not-empty")
	for _, c := range []struct {
		name, tags string
		want       string
	}{
		{"without the tag", "", "Untagged.Entry"},
		{"with the tag", "-tags=kepdefaults_tagged", "Tagged.Entry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOFLAGS", strings.TrimSpace(os.Getenv("GOFLAGS")+" "+c.tags))
			var got []string
			for _, r := range analysistest.Run(t, repoRoot, a, "./lint/testdata/src/buildtags") {
				for _, d := range r.Diagnostics {
					got = append(got, strings.SplitN(d.Message, ": ", 3)[1])
				}
			}
			if !slices.Equal(got, []string{c.want}) {
				t.Errorf("reported %v, want %s alone", got, c.want)
			}
		})
	}
}

// TestOverlay: the analyzers read the files as the driver has them, an
// editor's unsaved buffer (go/packages' Overlay) included, not as they are
// on disk. testdata/src/clean has no finding on disk; its types.go with a
// forbidden default in the overlay has one, at the overlay's position, and
// that default's type, SubLevel, is declared in the overlay alone.
func TestOverlay(t *testing.T) {
	file, err := filepath.Abs("testdata/src/clean/types.go")
	if err != nil {
		t.Fatal(err)
	}
	disk, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	buffer := append(disk[:len(disk):len(disk)], []byte(`
// Unsaved is in the editor's buffer only.
type Unsaved struct {
	// +default={"name": "unsaved"}
	Entry Buffered `+"`"+`json:"entry"`+"`"+`
}

type Buffered struct {
	Name string `+"`"+`json:"name,omitempty"`+"`"+`
}
`)...)
	line := strings.Count(string(disk), "\n") + 5
	for _, c := range []struct {
		name    string
		overlay map[string][]byte
		want    []string
	}{
		{"on disk", nil, nil},
		{"in the overlay", map[string][]byte{file: buffer}, []string{
			fmt.Sprintf("types.go:%d:2: error: Unsaved.Entry: +default={\"name\":\"unsaved\"} on a non-pointer struct", line)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: repoRoot, Overlay: c.overlay}
			got := analyze(t, cfg, "./lint/testdata/src/clean", func(p token.Position, d analysis.Diagnostic) string {
				msg, _, _ := strings.Cut(d.Message, ": only {}")
				return fmt.Sprintf("%s:%d:%d: %s", filepath.Base(p.Filename), p.Line, p.Column, msg)
			})
			if !slices.Equal(got, c.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// analyze runs lint.Analyzers on the packages of pattern, loaded with cfg,
// as `controller-gen-default lint` runs them, and returns their
// diagnostics, each as line prints it.
func analyze(t *testing.T, cfg *packages.Config, pattern string, line func(token.Position, analysis.Diagnostic) string) []string {
	t.Helper()
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(lint.Analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatal(act.Err)
		}
		for _, d := range act.Diagnostics {
			got = append(got, line(act.Package.Fset.Position(d.Pos), d))
		}
	}
	return got
}

// TestTestFiles: the types of a package's _test.go files are in no CRD and
// are not reported, though go vet and golangci-lint analyse the package
// with its tests (analysistest does too).
func TestTestFiles(t *testing.T) {
	for _, rule := range []string{"omitempty-struct", "struct-default-not-empty"} {
		analysistest.Run(t, repoRoot, analyzer(t, rule), "./lint/testdata/src/testfiles")
	}
}

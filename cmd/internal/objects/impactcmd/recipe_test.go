package impactcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// recipeCommand is the impact command line of docs/impact.md's CI recipe,
// with its arguments as the shell splits them.
func recipeCommand(t *testing.T) []string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/impact.md") // the tests run in internal/impact (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "### A CI recipe: every pull request")
	if !ok {
		t.Fatal(`docs/impact.md has no "A CI recipe" section`)
	}
	m := regexp.MustCompile(`(?s)controller-gen-default impact (.*?) > impact\.md`).FindStringSubmatch(after)
	if m == nil {
		t.Fatal("the CI recipe has no `controller-gen-default impact … > impact.md` line")
	}
	line := strings.ReplaceAll(m[1], "\\\n", " ")
	line = strings.ReplaceAll(line, "${{ github.base_ref }}", "main")
	var args []string
	for _, f := range regexp.MustCompile(`"[^"]*"|\S+`).FindAllString(line, -1) {
		args = append(args, strings.Trim(f, `"`))
	}
	return args
}

// TestCIRecipeAddsVersion runs docs/impact.md's CI recipe, as documented,
// on a pull request that adds a version (v2, served, with a sample of
// it), beside a pull request that only adds a sample: the samples of the
// new version are checked as creates under NEW, and the job passes. A
// version that OLD does not serve was an unusable input (exit 2) on every
// such pull request before.
func TestCIRecipeAddsVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go list for --convert ./... (make test-integration)")
	}
	args := recipeCommand(t)
	if !strings.Contains(strings.Join(args, " "), "--old git://origin/main?path=config/crd/bases --new config/crd/bases") {
		t.Fatalf("the recipe's arguments changed (%q): update this test", args)
	}
	crds, err := os.ReadFile("testdata/old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	grown, err := os.ReadFile("testdata/new-grown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := gitfstest.New(t)
	r.Commit(map[string]string{
		"go.mod":                        "module example.com/widgets\n\ngo 1.24\n",
		"api/v1/widget_types.go":        "// Package v1 converts nothing: --convert ./... finds no conversion.\npackage v1\n\ntype Widget struct{}\n",
		"config/crd/bases/widgets.yaml": string(crds),
		"config/samples/widget_v1.yaml": "apiVersion: impact.example.com/v1\nkind: Widget\nmetadata: {name: one}\nspec: {size: S}\n",
	})
	r.Git("branch", "-M", "main")
	r.Git("update-ref", "refs/remotes/origin/main", "main") // as actions/checkout with fetch-depth: 0 leaves it
	t.Chdir(r.Dir)
	t.Run("a pull request that adds a version and its sample", func(t *testing.T) {
		r.Write("config/crd/bases/widgets.yaml", string(grown))
		r.Write("config/samples/widget_v2.yaml", "apiVersion: impact.example.com/v2\nkind: Widget\nmetadata: {name: two}\nspec: {size: XL}\n")
		var stdout, stderr bytes.Buffer
		code := Run(args, nil, &stdout, &stderr)
		if code != 0 || !strings.Contains(stdout.String(), "created under NEW only") {
			t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 0, the v2 sample created under NEW", code, stderr.String(), stdout.String())
		}
		if !strings.Contains(stderr.String(), "--convert ./...") {
			t.Errorf("stderr %q: want the note that nothing converts", stderr.String())
		}
	})
	t.Run("a pull request whose new-version sample NEW refuses", func(t *testing.T) {
		r.Write("config/samples/widget_v2.yaml", "apiVersion: impact.example.com/v2\nkind: Widget\nmetadata: {name: two}\nspec: {mode: C}\n")
		var stdout, stderr bytes.Buffer
		if code := Run(args, nil, &stdout, &stderr); code != 1 || !strings.Contains(stdout.String(), "spec.mode") {
			t.Errorf("exit %d, stdout:\n%s\nwant exit 1 naming spec.mode", code, stdout.String())
		}
	})
	if _, err := os.Stat(filepath.Join(r.Dir, ".git")); err != nil {
		t.Fatal(err)
	}
}

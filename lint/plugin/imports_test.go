package plugin

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbidden are the import paths (a trailing "/" matches the tree below
// it) that the plugin must not reach: the apiserver's validation, CEL and
// storage code, google.golang.org/genproto, and this module's packages
// built on them. golangci-lint v2.15.0's own module graph holds the
// monolithic google.golang.org/genproto (through spf13/viper v1.12.0), which
// collides with cel-go's google.golang.org/genproto/googleapis/api in
// `golangci-lint custom`'s `go mod tidy` ("ambiguous import"); and none of
// it is needed to lint Go code. controller-tools' pkg/crd is itself clean,
// but its tests import the apiserver's validation.
var forbidden = []string{
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation",
	"k8s.io/apiextensions-apiserver/pkg/apiserver/",
	"k8s.io/apiserver/",
	"github.com/google/cel-go/",
	"cel.dev/expr",
	"google.golang.org/genproto",
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck",
	"github.com/controller-gen-default/controller-gen-default/internal/decision",
	"github.com/controller-gen-default/controller-gen-default/internal/engine",
	"github.com/controller-gen-default/controller-gen-default/crdgen",
}

func isForbidden(path string) bool {
	path, _, _ = strings.Cut(path, " ") // "p [q.test]": p, built for q's test
	for _, f := range forbidden {
		f = strings.TrimSuffix(f, "/")
		if path == f || strings.HasPrefix(path, f+"/") {
			return true
		}
	}
	return false
}

const root = "github.com/controller-gen-default/controller-gen-default/lint/plugin"

// TestImportGraph pins what the golangci-lint plugin reaches, with
// `go list -deps`: none of forbidden. "linked" is what the plugin's code
// imports. "go mod tidy" adds what `go mod tidy` in golangci-lint's module
// loads for it, which `golangci-lint custom` runs: the tests of every
// package the plugin imports too (the Go modules reference: tidy loads
// "packages imported by tests (including tests in other modules)"). A
// failure names the chain of imports that reaches each forbidden package.
func TestImportGraph(t *testing.T) {
	linked := goList(t, ".")
	for _, p := range []string{root, "github.com/controller-gen-default/controller-gen-default/lint",
		"github.com/controller-gen-default/controller-gen-default/internal/model"} {
		if _, ok := linked[p]; !ok {
			t.Fatalf("go list -deps lists no %s (%d packages)", p, len(linked))
		}
	}
	t.Run("linked", func(t *testing.T) { checkGraph(t, linked) })
	t.Run("go mod tidy", func(t *testing.T) {
		var pkgs []string
		for p := range linked {
			if strings.Contains(p, ".") { // not the standard library's
				pkgs = append(pkgs, p)
			}
		}
		slices.Sort(pkgs)
		tidy := goList(t, append([]string{"-test"}, pkgs...)...)
		// a package's tests are reached through the package
		// ("x [x.test]" is x with its test files, "x_test [x.test]" its
		// external tests)
		for p := range tidy {
			base, variant, ok := strings.Cut(p, " ")
			x, isTest := strings.CutSuffix(strings.TrimPrefix(variant, "["), ".test]")
			if ok && isTest && (base == x || base == x+"_test") {
				tidy[x] = append(tidy[x], p)
			}
		}
		if len(tidy) <= len(linked) {
			t.Fatalf("go list -deps -test lists %d packages, no more than the %d linked", len(tidy), len(linked))
		}
		checkGraph(t, tidy)
	})
}

// goList is `go list -e -deps [args]` run here, as package -> imports.
func goList(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-e", "-deps", "-f", "{{.ImportPath}}{{range .Imports}}\t{{.}}{{end}}"}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		graph[f[0]] = f[1:]
	}
	return graph
}

// checkGraph reports each forbidden package reached from the plugin, with
// the shortest chain of imports to it.
func checkGraph(t *testing.T, imports map[string][]string) {
	t.Helper()
	from := map[string]string{root: ""}
	queue := []string{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range imports[p] {
			if _, seen := from[q]; !seen {
				from[q] = p
				queue = append(queue, q)
			}
		}
	}
	var bad []string
	for p := range from {
		if isForbidden(p) {
			bad = append(bad, p)
		}
	}
	slices.Sort(bad)
	reported := map[string]bool{}
	for _, p := range bad {
		chain := []string{p}
		for q := from[p]; q != ""; q = from[q] {
			chain = append(chain, q)
		}
		slices.Reverse(chain)
		// Each entry into the forbidden set once, at its first forbidden
		// package: the rest of that subtree follows from it.
		first := slices.IndexFunc(chain, isForbidden)
		if reported[chain[first]] {
			continue
		}
		reported[chain[first]] = true
		t.Errorf("the plugin reaches %s:\n\t%s", chain[first], strings.Join(chain[:first+1], "\n\t→ "))
	}
	if len(bad) > 0 {
		t.Logf("%d forbidden packages of %d", len(bad), len(from))
	}
}

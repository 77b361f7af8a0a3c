package plugin

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// forbidden are the import paths (a trailing "/" matches the tree below
// it) that the analyzers must not link: the apiserver's validation, CEL
// and storage code, and this module's packages built on them. golangci-lint
// v2.15.0's own module graph holds the monolithic google.golang.org/genproto
// (through spf13/viper v1.12.0), which collides with cel-go's
// google.golang.org/genproto/googleapis/api in `golangci-lint custom`'s
// `go mod tidy` ("ambiguous import"); and none of it is needed to lint Go
// code.
var forbidden = []string{
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation",
	"k8s.io/apiextensions-apiserver/pkg/apiserver/",
	"k8s.io/apiserver/",
	"github.com/google/cel-go/",
	"cel.dev/expr",
	"google.golang.org/genproto",
	"github.com/controller-gen-default/controller-gen-default/normalize",
	"github.com/controller-gen-default/controller-gen-default/internal/decision",
	"github.com/controller-gen-default/controller-gen-default/crdgen",
}

func isForbidden(path string) bool {
	for _, f := range forbidden {
		if path == strings.TrimSuffix(f, "/") || strings.HasPrefix(path, strings.TrimSuffix(f, "/")+"/") {
			return true
		}
	}
	return false
}

// TestImportGraph pins what the golangci-lint plugin links (go list -deps,
// without tests): the schema-free model and nothing of forbidden. A
// failure names the chain of imports that reaches each forbidden package.
func TestImportGraph(t *testing.T) {
	const root = "github.com/controller-gen-default/controller-gen-default/lint/plugin"
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", ".")
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[f[0]] = f[1:]
	}
	// The graph is the one meant: the plugin reaches the model through lint.
	for _, p := range []string{root, "github.com/controller-gen-default/controller-gen-default/lint",
		"github.com/controller-gen-default/controller-gen-default/internal/model"} {
		if _, ok := imports[p]; !ok {
			t.Fatalf("go list -deps lists no %s (%d packages)", p, len(imports))
		}
	}
	// Breadth first from the plugin: the shortest chain to each package.
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
		// Report each entry into the forbidden set once, at its first
		// forbidden package: the rest of that subtree follows from it.
		first := slices.IndexFunc(chain, isForbidden)
		if reported[chain[first]] {
			continue
		}
		reported[chain[first]] = true
		t.Errorf("the plugin links %s:\n\t%s", chain[first], strings.Join(chain[:first+1], "\n\t→ "))
	}
	if len(bad) > 0 {
		t.Logf("%d forbidden packages of %d linked", len(bad), len(imports))
	}
}

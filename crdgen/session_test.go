package crdgen_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/internal/genrun"
)

// readDir is every file of dir, by name.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// TestSessionsShareNothing: two crd generators with a session each (the
// run wired twice, genrun.Wire), run one after the other on the same
// loaded packages (one marker collector), each build and write every CRD
// and print every finding: the second takes nothing of the first, neither
// its build nor what it printed.
func TestSessionsShareNothing(t *testing.T) {
	var gen genall.Generator = crdgen.Generator{}
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, "../testdata/forbidden/...")
	if err != nil {
		t.Fatal(err)
	}
	var diags [2]bytes.Buffer
	var files [2]map[string][]byte
	for i := range 2 {
		if _, err := genrun.Wire(rt, &diags[i]); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		rt.OutputRules = genall.OutputRules{Default: genall.OutputToDirectory(out)}
		rt.ErrorWriter = &diags[i]
		rt.Run()
		files[i] = readDir(t, out)
	}
	if !strings.Contains(diags[0].String(), ": error: ") {
		t.Fatalf("the first session reported no error:\n%s", diags[0].String())
	}
	if diags[1].String() != diags[0].String() {
		t.Errorf("the second session printed\n%s\nthe first\n%s", diags[1].String(), diags[0].String())
	}
	if !maps.EqualFunc(files[0], files[1], bytes.Equal) {
		t.Errorf("the second session wrote %d files, the first %d", len(files[1]), len(files[0]))
	}
}

// TestForeignDefaultRefused: when controller-tools' +default is
// registered after this tool's (as a generator registered after crd would
// register it), crd refuses to run and says why, rather than reading
// controller-tools' definition.
func TestForeignDefaultRefused(t *testing.T) {
	var diags bytes.Buffer
	var gen genall.Generator = crdgen.Generator{}.WithSession(&crdgen.Session{Diagnostics: &diags})
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, "../testdata/api/workload/...")
	if err != nil {
		t.Fatal(err)
	}
	if err := crdmarkers.Register(rt.Collector.Registry); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	rt.OutputRules = genall.OutputRules{Default: genall.OutputToDirectory(out)}
	rt.ErrorWriter = &diags
	if !rt.Run() {
		t.Fatalf("crd ran with controller-tools' +default:\n%s", diags.String())
	}
	if !strings.Contains(diags.String(), "registered its markers after markers.Register") || !strings.HasPrefix(diags.String(), "crd: the marker registry") {
		t.Errorf("the error does not say why:\n%s", diags.String())
	}
	if n := len(readDir(t, out)); n != 0 {
		t.Errorf("%d files written", n)
	}
}

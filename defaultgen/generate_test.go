package defaultgen_test

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/defaultgen"
)

var update = flag.Bool("update", false, "rewrite testdata/api/*/v1/zz_generated.defaults.go")

// capture keeps what a generator writes, by package directory.
type capture map[string]*bytes.Buffer

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func (c capture) Open(pkg *loader.Package, name string) (io.WriteCloser, error) {
	b := &bytes.Buffer{}
	c[filepath.Join(filepath.Dir(pkg.CompiledGoFiles[0]), name)] = b
	return nopCloser{b}, nil
}

// TestGeneratedFilesUpToDate regenerates zz_generated.defaults.go for
// testdata/api and compares it with the committed files, which the
// rule-of-thumb harness compiles against. -update rewrites them.
func TestGeneratedFilesUpToDate(t *testing.T) {
	var gen genall.Generator = defaultgen.Generator{}
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, "../testdata/api/...")
	if err != nil {
		t.Fatal(err)
	}
	out := capture{}
	rt.OutputRules = genall.OutputRules{Default: out}
	var errs bytes.Buffer
	rt.ErrorWriter = &errs
	if rt.Run() {
		t.Fatalf("generation failed:\n%s", errs.String())
	}
	if len(out) < 10 {
		t.Fatalf("generated %d files, want one per testdata package", len(out))
	}
	for path, b := range out {
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (go test ./defaultgen -update)", err)
			continue
		}
		if !bytes.Equal(have, b.Bytes()) {
			t.Errorf("%s is out of date (go test ./defaultgen -update, then review the diff)", path)
		}
		if !strings.Contains(string(have), "func RegisterDefaults(scheme *runtime.Scheme) error") {
			t.Errorf("%s has no RegisterDefaults", path)
		}
	}
}

package defaultgen_test

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/randapitest"
)

var (
	randPackages = flag.Int("defaultgen.packages", 4, "random API packages TestRandomPackagesCompile generates and builds")
	randKinds    = flag.Int("defaultgen.kinds", 6, "kinds per random package of TestRandomPackagesCompile")
	randSeed     = flag.Uint64("defaultgen.seed", 0, "seed of TestRandomPackagesCompile's packages (0: a new seed, logged)")
)

// TestRandomPackagesCompile is the defaults generator's own compile check
// over the type space: internal/testsupport/randapitest writes random API packages
// (embedded pointer structs, RawExtension and apiextensions JSON, pointer
// and not, omitzero structs with their own IsZero, package-level
// identifiers named like the generated file's imports, string defaults
// with code points from the whole Unicode range, besides its usual
// shapes), the object and defaults generators run on them in process, and
// `go build` then `go vet` the result, all packages in one build. The
// generator must exit without error (the packages are valid input) and
// its code must compile and pass vet. -defaultgen.packages and
// -defaultgen.kinds scale it up; -defaultgen.seed replays.
func TestRandomPackagesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages; skipped with -short")
	}
	seed := *randSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	t.Logf("seed %d (replay: go test ./defaultgen -run TestRandomPackagesCompile -defaultgen.seed=%d -defaultgen.packages=%d -defaultgen.kinds=%d)",
		seed, seed, *randPackages, *randKinds)
	api := randapitest.Generate(randapitest.Config{Seed: seed, Kinds: *randPackages * *randKinds, KindsPerPackage: *randKinds, IsZero: 0.2})
	// inside this module, whose requirements the packages use
	dir, err := os.MkdirTemp("testdata", "tmp-randpkgs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, p := range api.Packages {
		files, err := p.Files()
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			path := filepath.Join(dir, p.Dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := time.Now()
	var obj genall.Generator = deepcopy.Generator{}
	var def genall.Generator = defaultgen.Generator{}
	rt, err := genall.Generators{&obj, &def}.ForRootsWithConfig(&packages.Config{}, "./"+dir+"/...")
	if err != nil {
		t.Fatal(err)
	}
	rt.OutputRules = genall.OutputRules{Default: genall.OutputArtifacts{Config: genall.OutputToDirectory(t.TempDir())}}
	var errs bytes.Buffer
	rt.ErrorWriter = &errs
	if rt.Run() {
		t.Fatalf("seed %d: generation failed:\n%s", seed, errs.String())
	}
	generated := time.Since(start)
	start = time.Now()
	for _, args := range [][]string{{"build", "./" + dir + "/..."}, {"vet", "./" + dir + "/..."}} {
		cmd := exec.Command("go", args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("seed %d: go %s: %v\n%s", seed, args[0], err, out.String())
		}
	}
	t.Logf("%d packages, %d kinds, %d named types: generated in %s, built and vetted in %s",
		len(api.Packages), len(api.Kinds()), api.Types(), generated.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

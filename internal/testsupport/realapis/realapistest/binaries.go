package realapistest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// ReferenceBinary finds controller-gen realapis.ReferenceVersion for a test:
// $CONTROLLER_GEN_REF (set by the Makefile), else
// <repoRoot>/bin/controller-gen-v0.23.0/controller-gen. When it is missing
// the test fails in CI (CI=true) or when the Makefile named it, and is
// skipped otherwise.
func ReferenceBinary(t testing.TB, repoRoot string) string {
	t.Helper()
	bin, fromEnv := os.LookupEnv("CONTROLLER_GEN_REF")
	if !fromEnv || bin == "" {
		bin = filepath.Join(repoRoot, "bin", "controller-gen-"+realapis.ReferenceVersion, "controller-gen")
		fromEnv = false
	}
	bin, err := filepath.Abs(bin) // generators run in other directories
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("controller-gen %s not found at %s (%v); install it with `make controller-gen-ref`, or run `make test`", realapis.ReferenceVersion, bin, err)
		if fromEnv || os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
	if v := strings.TrimSpace(string(out)); v != "Version: "+realapis.ReferenceVersion {
		t.Fatalf("%s is not controller-gen %s: --version says %q; remove it and run `make controller-gen-ref`", bin, realapis.ReferenceVersion, v)
	}
	return bin
}

// OursBinary is controller-gen-default of this checkout, built once for
// the go test run (internal/testsupport/testkit), or $CGD_BIN (to run a test against
// another build).
func OursBinary(t testing.TB) string {
	t.Helper()
	return testkit.GeneratorOrEnv(t)
}

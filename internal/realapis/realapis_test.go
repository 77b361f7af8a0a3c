package realapis

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestErrFetch: a module the proxy cannot give is ErrFetch (tests skip on
// it); other failures of Prepare are not.
func TestErrFetch(t *testing.T) {
	t.Run("downloads off, empty cache", func(t *testing.T) {
		t.Setenv("GOPROXY", "off")
		t.Setenv("GOMODCACHE", t.TempDir())
		_, err := Prepare(t.Context(), t.TempDir(), ClusterAPI)
		if !errors.Is(err, ErrFetch) {
			t.Fatalf("Prepare = %v, want an ErrFetch", err)
		}
	})
	t.Run("go list cannot download a dependency", func(t *testing.T) {
		// What go list -deps -e prints per package (go1.26).
		for _, msg := range []string{
			"x.go:26:2: module lookup disabled by GOPROXY=off",
			"x.go:26:2: k8s.io/api@v0.36.3: reading file:///proxy/k8s.io/api/@v/v0.36.3.zip: no such file or directory",
			`k8s.io/api@v0.36.3: Get "https://127.0.0.1:9/k8s.io/api/@v/v0.36.3.info": dial tcp 127.0.0.1:9: connect: connection refused`,
		} {
			if err := fetchErrorIf(fmt.Errorf("realapis: the API packages of m do not load:\n\t%s", msg)); !errors.Is(err, ErrFetch) {
				t.Errorf("%q is not an ErrFetch", msg)
			}
		}
		if err := fetchErrorIf(errors.New(`x.go:3:8: package example.com/nope is not in std`)); errors.Is(err, ErrFetch) {
			t.Errorf("a package that does not exist is an ErrFetch")
		}
	})
	t.Run("patterns that match nothing", func(t *testing.T) {
		if testing.Short() {
			t.Skip("needs cluster-api/api in the module cache or the proxy")
		}
		m := ClusterAPI
		m.Packages = []string{"nonexistent/..."}
		_, err := Prepare(t.Context(), t.TempDir(), m)
		switch {
		case err == nil:
			t.Fatal("Prepare succeeded on patterns that match no package")
		case errors.Is(err, ErrFetch):
			t.Skipf("module not available: %v", err)
		}
		t.Logf("as expected: %v", err)
	})
}

// TestCheckout: cluster-api v1.14.2's zip leaves out ./api, which its
// go.mod replaces sigs.k8s.io/cluster-api/api with; Checkout puts the api
// module there, so that the module's packages load from its root.
func TestCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("needs cluster-api in the module cache or the proxy")
	}
	dir := filepath.Join(t.TempDir(), "cluster-api")
	err := Checkout(t.Context(), dir, "sigs.k8s.io/cluster-api", "v1.14.2")
	if errors.Is(err, ErrFetch) {
		t.Skipf("module not available: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api", "go.mod")); err != nil {
		t.Fatalf("the nested module is not in place: %v", err)
	}
	// writable: a test adds its own package
	if err := os.WriteFile(filepath.Join(dir, "api", "x.txt"), nil, 0o644); err != nil {
		t.Fatalf("the copy is not writable: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), "go", "list", "-e", "-f", "{{.ImportPath}} {{.Module.Dir}} {{with .Error}}{{.}}{{end}}", "./core/webhooks/conversion")
	cmd.Dir, cmd.Env = dir, GoEnv("-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 2 || got[1] != dir {
		t.Fatalf("go list ./core/webhooks/conversion in the checkout = %q, want it in module %s without error", out, dir)
	}
	cmd = exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{if .Module}}{{.Module.Path}} {{.Module.Dir}}{{end}}", "./core/webhooks/conversion")
	cmd.Dir, cmd.Env = dir, GoEnv("-mod=readonly")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "sigs.k8s.io/cluster-api/api "+filepath.Join(dir, "api")+"\n") {
		t.Fatalf("sigs.k8s.io/cluster-api/api does not resolve to %s/api:\n%s", dir, out)
	}
}

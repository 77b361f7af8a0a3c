package realapis

import (
	"errors"
	"fmt"
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

package realapistest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// TestCheckout: cluster-api v1.14.2's zip leaves out ./api, which its
// go.mod replaces sigs.k8s.io/cluster-api/api with; Checkout puts the api
// module there, so that the module's packages load from its root.
func TestCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("needs cluster-api in the module cache or the proxy")
	}
	dir := filepath.Join(t.TempDir(), "cluster-api")
	err := Checkout(t.Context(), dir, "sigs.k8s.io/cluster-api", "v1.14.2")
	if errors.Is(err, realapis.ErrFetch) {
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
	cmd.Dir, cmd.Env = dir, realapis.GoEnv("-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 2 || got[1] != dir {
		t.Fatalf("go list ./core/webhooks/conversion in the checkout = %q, want it in module %s without error", out, dir)
	}
	cmd = exec.CommandContext(t.Context(), "go", "list", "-deps", "-f", "{{if .Module}}{{.Module.Path}} {{.Module.Dir}}{{end}}", "./core/webhooks/conversion")
	cmd.Dir, cmd.Env = dir, realapis.GoEnv("-mod=readonly")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "sigs.k8s.io/cluster-api/api "+filepath.Join(dir, "api")+"\n") {
		t.Fatalf("sigs.k8s.io/cluster-api/api does not resolve to %s/api:\n%s", dir, out)
	}
}

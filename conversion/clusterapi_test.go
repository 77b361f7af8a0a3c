package conversion

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/realapis"
)

// TestClusterAPIRun runs conversion ./... on cluster-api v1.14.2 (from the
// module proxy, with its api module copied to ./api) with --setup: a
// package calling both SetAPIVersionGetter. It builds the program of the
// whole module (minutes the first time), so it runs only with
// CONTROLLER_GEN_DEFAULT_CLUSTERAPI_RUN=1.
func TestClusterAPIRun(t *testing.T) {
	if os.Getenv("CONTROLLER_GEN_DEFAULT_CLUSTERAPI_RUN") != "1" {
		t.Skip("set CONTROLLER_GEN_DEFAULT_CLUSTERAPI_RUN=1: builds cluster-api's conversion program")
	}
	ctx := context.Background()
	fetch := func(module, version string) string {
		dir, err := realapis.ModuleDir(ctx, module, version)
		if errors.Is(err, realapis.ErrFetch) {
			t.Skipf("the module proxy refused %s@%s: %v", module, version, err)
		}
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dst := filepath.Join(t.TempDir(), "cluster-api")
	copyDir(t, fetch("sigs.k8s.io/cluster-api", "v1.14.2"), dst)
	copyDir(t, fetch("sigs.k8s.io/cluster-api/api", "v1.14.2"), filepath.Join(dst, "api"))
	setup := `package convsetup

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	kcpconversion "sigs.k8s.io/cluster-api/controlplane/kubeadm/webhooks/conversion"
	"sigs.k8s.io/cluster-api/core/webhooks/conversion"
)

// Setup sets the APIVersionGetters, as main does.
func Setup() {
	get := func(_ context.Context, gk schema.GroupKind) (string, error) { return gk.Group + "/v1beta2", nil }
	conversion.SetAPIVersionGetter(get)
	kcpconversion.SetAPIVersionGetter(get)
}
`
	if err := os.MkdirAll(filepath.Join(dst, "hack", "convsetup"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "hack", "convsetup", "setup.go"), []byte(setup), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dst)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	var log bytes.Buffer
	fs, err := Run(ctx, Options{Patterns: []string{"./..."}, Rounds: 5, Seed: 1, Setup: "sigs.k8s.io/cluster-api/hack/convsetup.Setup"}, &log)
	t.Logf("stderr:\n%s", log.String())
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]int{}
	for _, f := range fs {
		rules[f.Rule]++
	}
	t.Logf("%d findings: %v", len(fs), rules)
	if rules[RuleNeedsSetup] > 0 {
		t.Errorf("conversion-needs-setup with --setup")
	}
	for _, f := range fs {
		if f.Rule == RuleFailed {
			msg := f.Msg
			if len(msg) > 300 {
				msg = msg[:300] + "..."
			}
			t.Logf("%s: %s", f.Pos, msg)
		}
		if f.Rule == RuleFailed && strings.Contains(f.Msg, "apiVersionGetter not set") {
			t.Errorf("a failure for want of the getter, with --setup: %s", f.Msg)
		}
	}
}

// copyDir copies a directory of the module cache (read-only) to dst,
// writable.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

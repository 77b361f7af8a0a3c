package convprog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// clusterAPIDir writes sigs.k8s.io/cluster-api@version from the module
// proxy to a temporary directory as a clone holds it (realapistest.Checkout:
// v1.14's api module at ./api, which its go.mod replaces it with and its
// module zip lacks), with extra files (path → content). It skips the test
// when the proxy refuses a module.
func clusterAPIDir(t *testing.T, version string, extra map[string]string) string {
	t.Helper()
	needGo(t)
	if testing.Short() {
		t.Skip("-short: cluster-api is large")
	}
	dst := filepath.Join(t.TempDir(), "cluster-api")
	err := realapistest.Checkout(context.Background(), dst, "sigs.k8s.io/cluster-api", version)
	if errors.Is(err, realapis.ErrFetch) {
		t.Skipf("the module proxy refused cluster-api %s: %v", version, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range extra {
		path := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// capiSetup is a --setup package for cluster-api v1.14: main's
// SetAPIVersionGetter calls, with a getter that answers the group's
// v1beta2.
const capiSetup = `// Package convsetup is what core/main.go and controlplane/kubeadm/main.go
// set before the conversions run.
package convsetup

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	kcpconversion "sigs.k8s.io/cluster-api/controlplane/kubeadm/webhooks/conversion"
	"sigs.k8s.io/cluster-api/core/webhooks/conversion"
)

// Setup sets the APIVersionGetters.
func Setup() {
	get := func(_ context.Context, gk schema.GroupKind) (string, error) { return gk.Group + "/v1beta2", nil }
	conversion.SetAPIVersionGetter(get)
	kcpconversion.SetAPIVersionGetter(get)
}
`

// TestDiscoverClusterAPI114: cluster-api v1.14.2 converts with
// controller-runtime Converters registered with WithConverter; ./... at
// its root finds the 17 kinds of core/, bootstrap/kubeadm and
// controlplane/kubeadm, their API packages in the nested module
// sigs.k8s.io/cluster-api/api (replaced by ./api), and main's
// SetAPIVersionGetter calls.
func TestDiscoverClusterAPI114(t *testing.T) {
	dir := clusterAPIDir(t, "v1.14.2", map[string]string{"hack/convsetup/setup.go": capiSetup})
	d, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range d.Registrations {
		if r.Via != "WithConverter" || r.Hub == "" || len(r.Spokes) == 0 {
			t.Errorf("%s: %+v: want WithConverter with a NewHubSpokeConverter's hub and spokes", r.Pos, r)
		}
		if r.Hub != r.Type {
			t.Errorf("%s: hub %s, builder's type %s", r.Pos, r.Hub, r.Type)
		}
		types = append(types, r.Type)
	}
	slices.Sort(types)
	t.Logf("%d registrations: %s", len(types), strings.Join(types, " "))
	if len(types) != 17 {
		t.Errorf("%d kinds registered with WithConverter, want 17", len(types))
	}
	for _, want := range []string{
		"sigs.k8s.io/cluster-api/api/core/v1beta2.Cluster",
		"sigs.k8s.io/cluster-api/api/bootstrap/kubeadm/v1beta2.KubeadmConfigTemplate",
		"sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta2.KubeadmControlPlane",
		"sigs.k8s.io/cluster-api/api/ipam/v1beta2.IPAddressClaim",
	} {
		if !slices.Contains(types, want) {
			t.Errorf("no registration of %s", want)
		}
	}
	for _, want := range []string{"sigs.k8s.io/cluster-api/api/core/v1beta1", "sigs.k8s.io/cluster-api/api/core/v1beta2"} {
		if !slices.Contains(d.APIPackages, want) {
			t.Errorf("APIPackages = %v: no %s", d.APIPackages, want)
		}
	}
	calls := map[string]string{}
	for _, c := range d.SetupCalls {
		rel, _ := filepath.Rel(dir, c.Pos.Filename)
		calls[filepath.ToSlash(rel)+":"+strconv.Itoa(c.Pos.Line)] = c.Name + " " + c.Var
	}
	t.Logf("setup calls: %v", calls)
	for at, want := range map[string]string{
		"core/main.go:744":                 "conversion.SetAPIVersionGetter apiVersionGetter",
		"controlplane/kubeadm/main.go:449": "conversion.SetAPIVersionGetter apiVersionGetter",
	} {
		if calls[at] != want {
			t.Errorf("setup call at %s = %q, want %q", at, calls[at], want)
		}
	}
	if err := importable(programModule(d.Module), "sigs.k8s.io/cluster-api/hack/convsetup"); err != nil {
		t.Error(err)
	}
}

// TestDiscoverClusterAPI113: cluster-api v1.13.5 (its API in the root
// module) converts with Hub/Convertible methods; main.go:730 calls
// clusterv1beta1.SetAPIVersionGetter.
func TestDiscoverClusterAPI113(t *testing.T) {
	dir := clusterAPIDir(t, "v1.13.5", nil)
	d, err := Discover(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Registrations) != 0 {
		t.Errorf("Registrations = %+v, want none", d.Registrations)
	}
	for _, want := range []string{"sigs.k8s.io/cluster-api/api/core/v1beta1", "sigs.k8s.io/cluster-api/api/core/v1beta2"} {
		if !slices.Contains(d.HubPackages, want) {
			t.Errorf("HubPackages = %v: no %s", d.HubPackages, want)
		}
	}
	found := false
	for _, c := range d.SetupCalls {
		rel, _ := filepath.Rel(dir, c.Pos.Filename)
		t.Logf("setup call %s:%d: %s (%s)", rel, c.Pos.Line, c.Name, c.Var)
		if filepath.ToSlash(rel) == "main.go" && c.Pos.Line == 730 && c.Name == "clusterv1beta1.SetAPIVersionGetter" {
			found = true
		}
	}
	if !found {
		t.Errorf("no setup call at main.go:730 (clusterv1beta1.SetAPIVersionGetter) in %+v", d.SetupCalls)
	}
}

package conversion

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// clusterAPIRelease is one release of cluster-api the suite runs
// `conversion ./...` and `impact --convert ./...` on, from its module's
// root, as its maintainers would: the setup package a maintainer adds for
// --setup (main sets the APIVersionGetter), and the accept file of the
// losses its code makes on purpose (testdata/clusterapi).
type clusterAPIRelease struct {
	version string
	setup   string // hack/cgdsetup/setup.go
	// crds are the directories of its CRDs in the module (NEW of impact)
	crds []string
}

var clusterAPIReleases = []clusterAPIRelease{
	{
		// since v1.14.0, controller-runtime Converters registered with
		// WithConverter in core/webhooks/admission; the API in the nested
		// module ./api
		version: "v1.14.2",
		setup: `package cgdsetup

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"

	kcpconversion "sigs.k8s.io/cluster-api/controlplane/kubeadm/webhooks/conversion"
	"sigs.k8s.io/cluster-api/core/webhooks/conversion"
)

// Setup sets the APIVersionGetters core/main.go and
// controlplane/kubeadm/main.go set (there from the referenced kind's CRD).
func Setup() {
	get := func(_ context.Context, gk schema.GroupKind) (string, error) { return gk.Group + "/v1beta2", nil }
	conversion.SetAPIVersionGetter(get)
	kcpconversion.SetAPIVersionGetter(get)
}
`,
		crds: []string{"core/config/crd/bases", "bootstrap/kubeadm/config/crd/bases", "controlplane/kubeadm/config/crd/bases"},
	},
	{
		// the last release with Hub/Convertible methods in its API packages
		version: "v1.13.5",
		setup: `package cgdsetup

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	controlplanev1beta1 "sigs.k8s.io/cluster-api/api/controlplane/kubeadm/v1beta1"
	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
)

// Setup sets the APIVersionGetters main.go and
// controlplane/kubeadm/main.go set (there from the referenced kind's CRD).
func Setup() {
	get := func(gk schema.GroupKind) (string, error) { return gk.Group + "/v1beta2", nil }
	clusterv1beta1.SetAPIVersionGetter(get)
	controlplanev1beta1.SetAPIVersionGetter(get)
}
`,
		crds: []string{"config/crd/bases", "bootstrap/kubeadm/config/crd/bases", "controlplane/kubeadm/config/crd/bases"},
	},
}

// TestClusterAPI runs `conversion ./... --setup --accept` on each release
// of clusterAPIReleases and checks that every finding is one to defend in
// a review of cluster-api:
//
//   - the run needs nothing of main but --setup: no conversion-needs-setup,
//     no failure for want of the APIVersionGetter;
//   - every kind and version goes round trip (no UNCHECKED on stderr);
//   - every finding is at a field of cluster-api's own files (a shared
//     type's field, such as ObjectReference.UID, at the cluster-api field
//     that holds it), never in the module cache;
//   - no finding is an empty object or list against absence but where
//     the schema tells them apart (a default), and every conversion-failed
//     names the value it fails for;
//   - the accept file's entries each accept findings (no stale entry).
//
// Then `impact --convert ./... --setup` predicts the upgrade from
// v1.10.10's CRDs, for the objects of the live e2e
// (test/e2e/testdata/capi/objects.yaml): a MachineDeployment whose v1beta1
// readers lose revisionHistoryLimit after the next write, and a Machine
// whose nodeDrainTimeout breaks every LIST and WATCH at v1beta2.
func TestClusterAPI(t *testing.T) {
	skipBuilds(t, "builds cluster-api's conversion program")
	oldDir, err := realapis.ModuleDir(t.Context(), "sigs.k8s.io/cluster-api", "v1.10.10")
	if errors.Is(err, realapis.ErrFetch) {
		t.Skipf("the module proxy refused cluster-api v1.10.10: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	objects, err := filepath.Abs(filepath.Join("..", "..", "test", "e2e", "testdata", "capi", "objects.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range clusterAPIReleases {
		t.Run(rel.version, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cluster-api")
			err := realapistest.Checkout(t.Context(), dir, "sigs.k8s.io/cluster-api", rel.version)
			if errors.Is(err, realapis.ErrFetch) {
				t.Skipf("the module proxy refused cluster-api %s: %v", rel.version, err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, "hack", "cgdsetup"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "hack", "cgdsetup", "setup.go"), []byte(rel.setup), 0o644); err != nil {
				t.Fatal(err)
			}
			accept, err := filepath.Abs(filepath.Join("testdata", "clusterapi", "accept-"+rel.version+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			t.Setenv("GOFLAGS", "-mod=mod")
			t.Setenv("GOWORK", "off")
			const setup = "sigs.k8s.io/cluster-api/hack/cgdsetup.Setup"

			var stdout, stderr bytes.Buffer
			code := Report(t.Context(), Options{Output: "json", Seed: 1, Rounds: 20, Setup: setup, Accept: accept, Patterns: []string{"./..."}}, &stdout, &stderr)
			t.Logf("conversion ./... exit %d; stderr:\n%s", code, stderr.String())
			if code != ExitClean && code != ExitFindings {
				t.Fatalf("conversion ./... exit %d", code)
			}
			var fs []apiFinding
			if err := json.Unmarshal(stdout.Bytes(), &fs); err != nil {
				t.Fatalf("conversion -o json: %v\n%s", err, stdout.String())
			}
			checkClusterAPIFindings(t, stderr.String(), fs)

			var crds []string
			for _, d := range rel.crds {
				crds = append(crds, filepath.Join(dir, filepath.FromSlash(d)))
			}
			stdout.Reset()
			stderr.Reset()
			o := impact.Options{Old: []string{filepath.Join(oldDir, "config", "crd", "bases"),
				filepath.Join(oldDir, "bootstrap", "kubeadm", "config", "crd", "bases"),
				filepath.Join(oldDir, "controlplane", "kubeadm", "config", "crd", "bases")}, New: crds,
				Output: "json", SkipOtherGroups: true, Convert: []string{"./..."}, Setup: setup, Files: []string{objects}}
			code = impact.Run(t.Context(), o, strings.NewReader(""), &stdout, &stderr)
			t.Logf("impact --convert ./... exit %d; stderr:\n%s", code, stderr.String())
			if code != 1 {
				t.Fatalf("impact --convert ./... exit %d, want 1 (objects that lose data)", code)
			}
			out := stdout.String()
			for _, want := range []string{impact.LosesAfterWrite, impact.BreaksList, "capi-quickstart-md-0"} {
				if !strings.Contains(out, want) {
					t.Errorf("impact -o json has no %q", want)
				}
			}
			if strings.Contains(stderr.String()+out, "for want of setup") || strings.Contains(out, "apiVersionGetter not set") {
				t.Errorf("impact failed for want of setup, with --setup")
			}
		})
	}
}

// apiFinding is what TestClusterAPI reads of a finding of -o json.
type apiFinding struct {
	File, Rule, Field, Path, Message string
	Values                           []any
}

// checkClusterAPIFindings checks the invariants TestClusterAPI states on
// the findings and stderr of a conversion run.
func checkClusterAPIFindings(t *testing.T, stderr string, fs []apiFinding) {
	t.Helper()
	if strings.Contains(stderr, "UNCHECKED") {
		t.Errorf("a kind's version went through no round trip (UNCHECKED on stderr)")
	}
	if !strings.Contains(stderr, "round trips") {
		t.Errorf("no round trip reported on stderr")
	}
	if !strings.Contains(stderr, "accepted by") {
		t.Errorf("the accept file accepted nothing")
	}
	if strings.Contains(stderr, "accepts no finding") {
		t.Errorf("a stale entry in the accept file")
	}
	empty := func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			return len(v) == 0
		case []any:
			return len(v) == 0
		}
		return false
	}
	// the fields whose schema tells {} from absence (compare.go,
	// emptyDistinct), checked in the CRDs: KubeadmControlPlane v1beta1's
	// rolloutStrategy has a default, which an absent one gets and {} does
	// not
	emptyTold := map[string]bool{"KubeadmControlPlaneSpec.RolloutStrategy": true}
	rules := map[string]int{}
	for _, f := range fs {
		rules[f.Rule]++
		switch {
		case filepath.IsAbs(f.File) || strings.HasPrefix(f.File, ".."):
			t.Errorf("%s: %s (%s): not in cluster-api's files", f.File, f.Field, f.Path)
		case f.Rule == RuleNeedsSetup || strings.Contains(f.Message, "apiVersionGetter not set"):
			t.Errorf("%s: %s: a failure for want of setup, with --setup: %s", f.File, f.Field, f.Message)
		case f.Rule == RuleFailed && f.Path == "":
			t.Errorf("%s: %s: a conversion-failed without the value it fails for: %s", f.File, f.Field, f.Message)
		case f.Rule == RuleLostField && len(f.Values) >= 2 && (empty(f.Values[0]) && f.Values[1] == nil || f.Values[0] == nil && empty(f.Values[1])) &&
			!emptyTold[f.Field]:
			t.Errorf("%s: %s (%s): an empty value against absence: %s", f.File, f.Field, f.Path, f.Message)
		}
	}
	t.Logf("%d findings not accepted: %v", len(fs), rules)
}

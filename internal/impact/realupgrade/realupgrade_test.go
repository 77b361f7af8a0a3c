package realupgrade

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// The upgrade: the previous and the current release of gateway-api that
// the module proxy serves and Go 1.26 builds (realapis.GatewayAPI).
const (
	oldVersion = "v1.5.1"
	newVersion = "v1.6.3"
)

// wantSummary is the table `impact` printed for the upgrade when this test
// was written (see README.md, "impact"); a change in it is a change in
// either CRD generation or the apiserver's code, to be looked at.
const wantSummary = `objects                           392
  unchanged                       391
  gaining defaults                  0
  losing fields                     0
  refused on update                 0
  held by ratcheting                1
  invalid under OLD                 1
  version no longer served          0
  storage version changed           4
  CRD removed                       0
  CRD update refused                0
skipped (no CRD has the group)     84
Conversion webhooks are not called: objects are converted between versions as with the None strategy (only apiVersion changes).
`

// wantDefaults ends the report of impact without objects: how many
// defaults the upgrade adds, changes or removes.
const wantDefaults = `19 defaults added, changed or removed.
Conversion webhooks are not called: objects are converted between versions as with the None strategy (only apiVersion changes).
`

// TestGatewayAPIUpgrade generates gateway-api's CRDs at oldVersion and at
// newVersion with controller-gen-default (crd with its defaults: implicit
// defaults on), as test/compat/ does, then runs impact with the example
// manifests of the gateway-api module and the conformance manifests of the
// gateway-api/conformance module at oldVersion as the stored objects
// (objects of other groups, such as Services, are skipped), and checks the
// summary.
func TestGatewayAPIUpgrade(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches gateway-api twice and generates its CRDs; skipped with -short")
	}
	ctx := t.Context()
	bin := testkit.GeneratorOrEnv(t)
	oldCRDs := generate(t, ctx, bin, oldVersion)
	newCRDs := generate(t, ctx, bin, newVersion)
	files := objectFiles(t, ctx)

	var defaults, defaultsErr bytes.Buffer
	code := impact.Run(ctx, impact.Options{Old: []string{oldCRDs}, New: []string{newCRDs}}, nil, &defaults, &defaultsErr)
	t.Logf("impact without objects: exit %d\n%s%s", code, defaults.String(), defaultsErr.String())
	if os.Getenv("IMPACT_REPORT") != "" {
		if err := os.WriteFile(os.Getenv("IMPACT_REPORT")+".defaults", defaults.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code != impact.ExitOK || !strings.HasSuffix(defaults.String(), wantDefaults) {
		t.Errorf("impact without objects (exit %d) ends:\n%s\nwant:\n%s", code, lastLines(defaults.String(), 2), wantDefaults)
	}

	start := time.Now()
	var stdout, stderr bytes.Buffer
	code = impact.Run(ctx, impact.Options{Old: []string{oldCRDs}, New: []string{newCRDs}, SkipOtherGroups: true, Files: files}, nil, &stdout, &stderr)
	t.Logf("impact on %d files: exit %d in %s", len(files), code, time.Since(start).Round(time.Millisecond))
	if stderr.Len() > 0 {
		t.Fatalf("impact wrote to stderr (exit %d):\n%s", code, stderr.String())
	}
	out := stdout.String()
	summary := out[strings.LastIndex(out, "\nobjects ")+1:]
	t.Logf("summary:\n%s", summary)
	if os.Getenv("IMPACT_REPORT") != "" {
		if err := os.WriteFile(os.Getenv("IMPACT_REPORT"), stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// exit 1: a conformance GatewayClass has a template placeholder for its
	// controllerName, which OLD refuses.
	if code != impact.ExitImpact || summary != wantSummary {
		t.Errorf("summary changed (exit %d):\n%s\nwant:\n%s", code, summary, wantSummary)
	}
}

func lastLines(s string, n int) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "") + "\n"
}

// gatewayAPI is realapis.GatewayAPI at version.
func gatewayAPI(version string) realapis.Module {
	m := realapis.GatewayAPI
	m.Version = version
	return m
}

// generate writes gateway-api's CRDs at version with controller-gen-default
// and returns their directory.
func generate(t *testing.T, ctx context.Context, bin, version string) string {
	t.Helper()
	m := gatewayAPI(version)
	ws, err := realapis.Prepare(ctx, t.TempDir(), m)
	if err != nil {
		skipIfFetch(t, err)
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "crd")
	start := time.Now()
	cmd := ws.Command(ctx, bin, m.Args(out)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("controller-gen-default %s on %s: %v\n%s", strings.Join(m.Args(out), " "), m, err, b)
	}
	t.Logf("generated the CRDs of %s in %s", m, time.Since(start).Round(time.Millisecond))
	return approve(t, out, version)
}

// approve writes the CRDs of dir, with the api-approved.kubernetes.io
// annotation that the apiserver requires of CRDs in *.k8s.io groups, into a
// new directory. gateway-api's own generator (pkg/generator) adds it to its
// release CRDs; the crd generator, as controller-gen's, writes none.
func approve(t *testing.T, dir, version string) string {
	t.Helper()
	crds, err := crdcheck.LoadCRDs(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "approved")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range crds {
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations["api-approved.kubernetes.io"] = "https://github.com/kubernetes-sigs/gateway-api/releases/tag/" + version
		b, err := yaml.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, c.Name+".yaml"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// skipIfFetch skips the test when err says a module could not be
// downloaded (offline, with a cold module cache), but fails it in CI.
func skipIfFetch(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, realapis.ErrFetch) {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and a module download was refused: %v", err)
	}
	t.Skipf("a module download was refused, and the module cache does not have it (run once with the Go module proxy reachable): %v", err)
}

// objectFiles are the YAML files of gateway-api's examples (module
// sigs.k8s.io/gateway-api) and of its conformance tests (module
// sigs.k8s.io/gateway-api/conformance: base, mesh and tests; not the
// conformance reports) at oldVersion, from the module cache.
func objectFiles(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var files []string
	for _, src := range []struct {
		module string
		dirs   []string
	}{
		{"sigs.k8s.io/gateway-api", []string{"examples"}},
		{"sigs.k8s.io/gateway-api/conformance", []string{"base", "mesh", "tests"}},
	} {
		root := moduleDir(t, ctx, src.module, oldVersion)
		for _, d := range src.dirs {
			err := filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
					files = append(files, p)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no manifests found")
	}
	return files
}

// moduleDir downloads module@version (a no-op with a warm module cache)
// and returns its directory in the module cache.
func moduleDir(t *testing.T, ctx context.Context, module, version string) string {
	t.Helper()
	dir, err := realapis.ModuleDir(ctx, module, version)
	if err != nil {
		skipIfFetch(t, err)
		t.Fatal(err)
	}
	return dir
}

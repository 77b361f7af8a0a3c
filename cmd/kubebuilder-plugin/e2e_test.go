package main

import (
	"bytes"
	"context"
	"errors"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// TestKubebuilderE2E drives the real kubebuilder CLI, v4.15.0 built from
// hack/kubebuilder, with the plugin installed from this checkout by the
// repository's own `make install-plugin`, as a contributor does. Such a
// plugin records the checkout, and the Makefiles it scaffolds build
// controller-gen-default and controller-gen-default-normalize from it (go
// -C <checkout> build): nothing of controller-gen-default comes from the
// module proxy, which has never seen this commit.
//
//  1. Online, which warms the module cache: a project scaffolded by go/v4
//     alone (init, create api, create webhook --defaulting), then edit
//     --plugins KEY: the Makefile is exactly what the plugin writes for the
//     checkout, the webhook gets only the call, a second edit changes
//     nothing, an unrecognisable Makefile fails with instructions and
//     nothing changes; then make generate (which builds both tools from the
//     checkout) and go build ./... succeed.
//  2. Offline: init --plugins go/v4,KEY, create api (whose make generate
//     builds the tools from the checkout and runs controller-gen-default
//     object and defaults), types with +default, omitzero and non-pointer
//     structs, create webhook --defaulting (the plugin makes the scaffolded
//     Default call SetObjectDefaults_Frigate), make generate manifests (the
//     CRDs carry the KEP-1929 defaults), and bin/controller-gen-default
//     normalize in the scaffold, which runs bin/controller-gen-default-normalize
//     on a Frigate and prints the defaults the apiserver would store.
//     "Offline" means, for every command of this step, kubebuilder and what
//     it runs (go mod tidy, go get, make, go build): GOPROXY=off (no module
//     download, no VCS), GOFLAGS=-mod=mod (go may update go.mod and go.sum,
//     but only from the module cache), GOTOOLCHAIN=local (no toolchain
//     download), and HTTP_PROXY/HTTPS_PROXY set to a closed local port, so
//     any HTTP request, to the checksum database included, fails. The
//     scaffold's own dependencies (controller-runtime, …) and the
//     checkout's come from the module cache that step 1 filled.
//  3. Online again (setup-envtest comes from the module proxy): edit --plugins
//     KEY --offline-envtest, then the scaffold's `make test`: envtest runs
//     from binaries built by e2e/assets/build.sh, not downloaded; a test
//     added to the controller suite reads the defaults back from the
//     apiserver, and one added to the webhook suite creates Frigates as
//     JSON through the apiserver and the defaulting webhook and reads them
//     back as stored (needs the envtest binaries: $KUBEBUILDER_ASSETS or
//     bin/k8s/<version>-<os>-<arch> of this repository, see `make
//     envtest-assets`).
//
// Without a buildable controller-gen-default in this checkout the CRD part
// is skipped (it fails when $CI is set). It needs make, bash and the Go
// module proxy for steps 1 and 3; -short skips it. It takes about 5 minutes
// with warm caches on 2 cores, 20 with a cold build cache (README.md).
func TestKubebuilderE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the kubebuilder e2e test")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("kubebuilder runs external plugins on linux and darwin only")
	}
	for _, tool := range []string{"make", "bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s in PATH", tool)
		}
	}
	e := newE2E(t)
	// Each step needs the ones before.
	for _, step := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"online: edit a project scaffolded without the plugin", e.editPlain},
		{"offline: init with the plugin", e.initWithPlugin},
		{"offline: create api", e.createAPI},
		{"offline: create webhook", e.createWebhook},
		{"offline: make generate manifests", e.generateManifests},
	} {
		t.Run(step.name, step.run)
		if t.Failed() {
			return
		}
	}
	t.Run("offline: normalize in the scaffold", e.normalizeInScaffold)
	t.Logf("offline steps done at %s", time.Since(e.start).Round(time.Second))

	t.Run("online: offline envtest", e.offlineEnvtest)

	t.Run("offline: conversion webhook", e.conversionWebhook)
	t.Logf("e2e took %s", time.Since(e.start).Round(time.Second))
}

// e2e is what the steps of TestKubebuilderE2E share: the checkout, the
// work directory, the binaries built, the environments online (env) and
// offline, whether controller-gen-default built, and the project that the
// offline steps make (fleet).
type e2e struct {
	repo, work, bin, plugins, kb string
	env, offline                 []string
	cgdErr                       error
	start                        time.Time
	fleet                        string
}

// newE2E builds kubebuilder, installs the plugin and builds
// controller-gen-default.
func newE2E(t *testing.T) *e2e {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if repo, err = filepath.EvalSymlinks(repo); err != nil {
		t.Fatal(err)
	}
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(work, "bin")
	plugins := filepath.Join(work, "plugins")
	start := time.Now()

	// kubebuilder v4.15.0, pinned by hack/kubebuilder/go.mod.
	kb := filepath.Join(bin, "kubebuilder")
	mustRun(t, filepath.Join(repo, "hack/kubebuilder"), []string{"GOFLAGS=-mod=readonly"},
		"go", "build", "-o", kb, "sigs.k8s.io/kubebuilder/v4")
	if out := mustRun(t, work, nil, kb, "version"); !strings.Contains(out, "v4.15.0") {
		t.Fatalf("kubebuilder version:\n%s", out)
	}

	// The plugin, installed from this checkout by the repository's Makefile.
	out := mustRun(t, repo, []string{"EXTERNAL_PLUGINS_PATH=" + plugins}, "make", "--no-print-directory", "install-plugin", "LOCALBIN="+bin)
	if want := filepath.Join(plugins, pluginName, pluginVersion, pluginName); !strings.Contains(out, "\n"+want+"\n") {
		t.Fatalf("make install-plugin did not install the plugin at %q:\n%s", want, out)
	}
	if want := "scaffolds build controller-gen-default and controller-gen-default-normalize from the checkout " + repo; !strings.Contains(out, want) {
		t.Fatalf("make install-plugin: %q not in\n%s", want, out)
	}

	// controller-gen-default of this checkout must build for the CRD part
	// (the scaffold builds its own from the checkout; this build, shared
	// with the other packages of the go test run, only tells whether it can).
	_, cgdErr := testkit.Build(testkit.Generator)
	if cgdErr != nil {
		t.Logf("controller-gen-default does not build, so the CRD checks are skipped: %v", cgdErr)
		if os.Getenv("CI") != "" {
			t.Errorf("controller-gen-default does not build (CI is set)")
		}
	}
	t.Logf("kubebuilder, the plugin and controller-gen-default built in %s", time.Since(start).Round(time.Second))

	env := []string{"EXTERNAL_PLUGINS_PATH=" + plugins, "XDG_CONFIG_HOME=" + filepath.Join(work, "config")}
	// offline is env for step 2 (see above).
	offline := append(slices.Clone(env), "GOPROXY=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOTOOLCHAIN=local",
		"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "NO_PROXY=", "no_proxy=")

	return &e2e{repo: repo, work: work, bin: bin, plugins: plugins, kb: kb, env: env, offline: offline, cgdErr: cgdErr, start: start,
		fleet: filepath.Join(work, "fleet")}
}

// kubebuilder runs kubebuilder in dir with env.
func (e *e2e) kubebuilder(t *testing.T, env []string, dir string, args ...string) string {
	t.Helper()
	return mustRun(t, dir, env, e.kb, args...)
}

// webhookFile is the Frigate webhook that kubebuilder scaffolds.
const webhookFile = "internal/webhook/v1/frigate_webhook.go"

// editPlain: kubebuilder edit adopts a project scaffolded without the plugin, online.
func (e *e2e) editPlain(t *testing.T) {
	repo, work, env := e.repo, e.work, e.env
	kubebuilder := e.kubebuilder
	dir := filepath.Join(work, "plain")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The same kinds of files as the offline project below, so that the
	// module cache holds what that one needs.
	kubebuilder(t, env, dir, "init", "--domain", "example.com", "--repo", "example.com/plain")
	kubebuilder(t, env, dir, "create", "api", "--group", "ship", "--version", "v1", "--kind", "Frigate", "--resource", "--controller", "--make=false")
	kubebuilder(t, env, dir, "create", "webhook", "--group", "ship", "--version", "v1", "--kind", "Frigate", "--defaulting", "--make=false")
	webhookBefore := readFile(t, dir, webhookFile)
	before := readFile(t, dir, "Makefile")
	// A user edit that must survive.
	before = strings.Replace(before, "IMG ?= controller:latest\n", "IMG ?= registry.example.com/plain:dev\n", 1)
	writeFile(t, dir, "Makefile", before)

	out := kubebuilder(t, env, dir, "edit", "--plugins", pluginKey)
	after := readFile(t, dir, "Makefile")
	// Exactly what the plugin writes for this checkout (the protocol
	// tests check that text line by line).
	want, _, err := editMakefile(before, makefileOptions{source: toolSource{checkout: repo}})
	if err != nil {
		t.Fatal(err)
	}
	if after != want {
		t.Errorf("edit wrote another Makefile than the plugin's for the checkout %s:\n%s", repo, lineDiff(want, after))
	}
	for _, want := range []string{"\n" + toolCheckoutVar + " ?= " + repo + "\n", "\n\t" + buildCall + "\n\t" + buildNormalizeCall + "\n", generateLine, manifestsLine,
		"IMG ?= registry.example.com/plain:dev\n"} {
		if !strings.Contains(after, want) {
			t.Errorf("edited Makefile lacks %q", want)
		}
	}
	if !strings.Contains(out, "make builds controller-gen-default and controller-gen-default-normalize into $(LOCALBIN) from the checkout "+repo) {
		t.Errorf("edit does not say where the tools come from:\n%s", out)
	}
	// The webhook that was there calls the generated defaulter.
	webhookAfter := readFile(t, dir, webhookFile)
	if got, want := addedOnly(t, webhookBefore, webhookAfter), wantCall("\t", "shipv1.SetObjectDefaults_Frigate(obj)"); !slices.Equal(got, want) ||
		!strings.Contains(out, webhookFile+":53: (*FrigateCustomDefaulter).Default now calls shipv1.SetObjectDefaults_Frigate(obj)") {
		t.Errorf("edit added to %s:\n%q\nwant:\n%q\noutput:\n%s", webhookFile, got, want, out)
	}

	out = kubebuilder(t, env, dir, "edit", "--plugins", pluginKey)
	if readFile(t, dir, "Makefile") != after || readFile(t, dir, webhookFile) != webhookAfter || !strings.Contains(out, "nothing to change") {
		t.Errorf("second edit changed the Makefile or did not say so:\n%s", out)
	}
	dry := mustRun(t, dir, env, "make", "-n", "controller-gen")
	for _, want := range []string{"go -C \"" + repo + "\" build -mod=readonly -o \"" + filepath.Join(dir, "bin", toolBinary) + "-checkout\" \"./cmd/" + toolBinary + "\"",
		"go -C \"" + repo + "\" build -mod=readonly -o \"" + filepath.Join(dir, "bin", normalizeBinary) + "-checkout\" \"./cmd/" + normalizeBinary + "\""} {
		if !strings.Contains(dry, want) {
			t.Errorf("make -n controller-gen lacks %s:\n%s", want, dry)
		}
	}

	e.refusesUnrecognised(t, dir, before, webhookBefore)
	e.generatesAndBuilds(t, dir, after, webhookAfter)
}

// refusesUnrecognised: an unrecognisable Makefile (the plain project's
// before, with a go install of controller-gen) makes edit fail, and
// nothing changes.
func (e *e2e) refusesUnrecognised(t *testing.T, dir, before, webhookBefore string) {
	kb, env := e.kb, e.env
	// An unrecognisable Makefile: kubebuilder fails with the plugin's
	// instructions, and the Makefile stays as it was.
	broken := strings.Replace(before, installCallStock, "GOBIN=$(LOCALBIN) go install "+stockToolPackage+"@$(CONTROLLER_TOOLS_VERSION)", 1)
	writeFile(t, dir, "Makefile", broken)
	writeFile(t, dir, webhookFile, webhookBefore)
	out, err := run1(dir, env, kb, "edit", "--plugins", pluginKey)
	if err == nil || !strings.Contains(out, "changed nothing") || !strings.Contains(out, installCall) {
		t.Errorf("edit of an unrecognisable Makefile: %v\n%s", err, out)
	}
	if readFile(t, dir, "Makefile") != broken || readFile(t, dir, webhookFile) != webhookBefore {
		t.Errorf("the unrecognisable Makefile or the webhook was changed")
	}
}

// generatesAndBuilds: the plain project, edited (Makefile after, webhook
// webhookAfter), runs make generate and go build.
func (e *e2e) generatesAndBuilds(t *testing.T, dir, after, webhookAfter string) {
	repo, env, cgdErr := e.repo, e.env, e.cgdErr
	// The edited project generates and builds: make generate builds the
	// tools from the checkout and writes SetObjectDefaults_Frigate, which
	// the edited webhook calls before it exists (type errors do not stop
	// controller-gen's generators).
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	writeFile(t, dir, "Makefile", after)
	writeFile(t, dir, webhookFile, webhookAfter)
	if out := mustRun(t, dir, env, "make", "generate"); !strings.Contains(out, "Building ./cmd/"+toolBinary+" from "+repo) {
		t.Errorf("make generate did not build controller-gen-default from the checkout:\n%s", out)
	}
	if !strings.Contains(readFile(t, dir, "api/v1/zz_generated.defaults.go"), "\nfunc SetObjectDefaults_Frigate(in *Frigate) {\n") {
		t.Errorf("make generate wrote no SetObjectDefaults_Frigate")
	}
	mustRun(t, dir, env, "go", "build", "./...")
}

// initWithPlugin: kubebuilder init with the plugin, offline.
func (e *e2e) initWithPlugin(t *testing.T) {
	repo, offline, fleet := e.repo, e.offline, e.fleet
	kubebuilder := e.kubebuilder
	if err := os.Mkdir(fleet, 0o755); err != nil {
		t.Fatal(err)
	}
	// The offline environment does cut go off: a module that is not in
	// the module cache cannot be had.
	if out, err := run1(fleet, offline, "go", "mod", "download", "-json", "golang.org/x/example@v0.0.0-20170904185048-46695d81d1fa"); err == nil ||
		!strings.Contains(out, "GOPROXY=off") {
		t.Fatalf("go mod download of an uncached module offline: %v\n%s", err, out)
	}
	out := kubebuilder(t, offline, fleet, "init", "--plugins", "go/v4,"+pluginKey, "--domain", "example.com", "--repo", "example.com/fleet")
	if !strings.Contains(out, pluginKey+": the Makefile now runs controller-gen-default") ||
		!strings.Contains(out, "from the checkout "+repo) {
		t.Errorf("init output lacks the plugin's log:\n%s", out)
	}
	mk := readFile(t, fleet, "Makefile")
	for _, want := range []string{
		"\nCONTROLLER_GEN ?= $(LOCALBIN)/controller-gen-default\n",
		"\n" + toolCheckoutVar + " ?= " + repo + "\n",
		"\n\t" + buildCall + "\n\t" + buildNormalizeCall + "\n",
		manifestsLine,
		generateLine,
	} {
		if !strings.Contains(mk, want) {
			t.Errorf("Makefile lacks %q", want)
		}
	}
	if strings.Contains(mk, stockToolPackage) || strings.Contains(mk, toolVersionVar+" ?=") {
		t.Errorf("Makefile installs %s or a version of controller-gen-default", stockToolPackage)
	}
	if project := readFile(t, fleet, "PROJECT"); !strings.Contains(project, "\n- "+pluginKey+"\n") {
		t.Errorf("PROJECT layout lacks the plugin:\n%s", project)
	}
}

// createAPI: create api runs make generate with both generators, offline; the test's types go in.
func (e *e2e) createAPI(t *testing.T) {
	repo, offline, cgdErr, fleet := e.repo, e.offline, e.cgdErr, e.fleet
	kubebuilder := e.kubebuilder
	args := []string{"create", "api", "--group", "ship", "--version", "v1", "--kind", "Frigate", "--resource", "--controller"}
	if cgdErr != nil {
		args = append(args, "--make=false")
	}
	out := kubebuilder(t, offline, fleet, args...)
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build: CRD checks skipped")
	}
	for _, want := range []string{"Building ./cmd/" + toolBinary + " from " + repo, "Building ./cmd/" + normalizeBinary + " from " + repo,
		"/bin/controller-gen-default\" object:headerFile=\"hack/boilerplate.go.txt\",year=", " defaults:headerFile=\"hack/boilerplate.go.txt\",year="} {
		if !strings.Contains(out, want) {
			t.Errorf("create api's make generate lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(readFile(t, fleet, "api/v1/zz_generated.defaults.go"), "\nfunc SetObjectDefaults_Frigate(in *Frigate) {\n") {
		t.Errorf("create api's make generate wrote no SetObjectDefaults_Frigate")
	}
	// The types of the test, in the scaffolded files.
	types := readFile(t, fleet, "api/v1/frigate_types.go")
	i := strings.Index(types, "// FrigateSpec defines")
	j := strings.Index(types, "// FrigateStatus defines")
	if i < 0 || j < i {
		t.Fatalf("the scaffolded frigate_types.go has no FrigateSpec:\n%s", types)
	}
	writeFile(t, fleet, "api/v1/frigate_types.go", types[:i]+frigateSpec+"\n"+types[j:])
	writeFile(t, fleet, "api/v1/sloop_types.go", sloopTypes)
	// The scaffold's controller test creates a Frigate: mode is required.
	ct := readFile(t, fleet, "internal/controller/frigate_controller_test.go")
	const todo = "// TODO(user): Specify other spec details if needed.\n"
	if !strings.Contains(ct, todo) {
		t.Fatalf("the scaffolded controller test has no %q", todo)
	}
	writeFile(t, fleet, "internal/controller/frigate_controller_test.go", strings.Replace(ct, todo, "Spec: shipv1.FrigateSpec{Mode: \"Cruise\"},\n", 1))
}

// createWebhook: create webhook wires the scaffolded Default, offline.
func (e *e2e) createWebhook(t *testing.T) {
	offline, cgdErr, fleet := e.offline, e.cgdErr, e.fleet
	kubebuilder := e.kubebuilder
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	// kubebuilder runs go/v4 first (layout order), then the plugin, which
	// finds the scaffolded webhook in the universe; then go/v4's make
	// generate runs.
	out := kubebuilder(t, offline, fleet, "create", "webhook", "--group", "ship", "--version", "v1", "--kind", "Frigate", "--defaulting")
	if !strings.Contains(out, pluginKey+": "+webhookFile+":53: (*FrigateCustomDefaulter).Default now calls shipv1.SetObjectDefaults_Frigate(obj)") {
		t.Errorf("create webhook output lacks the plugin's log:\n%s", out)
	}
	if strings.Contains(out, "warning") {
		t.Errorf("create webhook warned:\n%s", out)
	}
	got := readFile(t, fleet, webhookFile)
	if b, err := format.Source([]byte(got)); err != nil || string(b) != got {
		t.Errorf("%s is not gofmt'd: %v\n%s", webhookFile, err, lineDiff(got, string(b)))
	}
	// The Default method is the one of the protocol test's golden file.
	want, err := os.ReadFile("testdata/frigate_webhook.go.golden")
	if err != nil {
		t.Fatal(err)
	}
	const from = "// Default implements webhook.CustomDefaulter"
	if i, j := strings.Index(got, from), strings.Index(string(want), from); i < 0 || j < 0 || got[i:] != string(want[j:]) {
		t.Errorf("%s differs from testdata/frigate_webhook.go.golden:\n%s", webhookFile, lineDiff(string(want), got))
	}
}

// generateManifests: make generate manifests writes the defaults into the CRDs, offline.
func (e *e2e) generateManifests(t *testing.T) {
	offline, cgdErr, fleet := e.offline, e.cgdErr, e.fleet
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	out := mustRun(t, fleet, offline, "make", "generate", "manifests")
	if strings.Contains(out, "Downloading") || strings.Contains(out, "Building") {
		t.Errorf("make installed or rebuilt a tool:\n%s", out)
	}
	if d := readFile(t, fleet, "api/v1/zz_generated.defaults.go"); !strings.Contains(d, "\nfunc SetObjectDefaults_Frigate(in *Frigate) {\n") ||
		!strings.Contains(d, "\nfunc SetObjectDefaults_Sloop(in *Sloop) {\n") {
		t.Errorf("zz_generated.defaults.go lacks SetObjectDefaults_Frigate or _Sloop:\n%s", d)
	}
	check := func(file string, cases []struct{ path, want string }) {
		crd := readFile(t, fleet, "config/crd/bases/"+file)
		spec := yamlChild(t, yamlChild(t, crd, "openAPIV3Schema", "properties"), "spec", "properties")
		for _, c := range cases {
			parts := strings.Split(c.path, "/")
			b := spec
			for _, p := range parts[:len(parts)-1] {
				b = yamlChild(t, b, p)
			}
			if got := yamlScalar(b, parts[len(parts)-1]); got != c.want {
				t.Errorf("%s: spec.%s = %q, want %q", file, strings.ReplaceAll(c.path, "/", "."), got, c.want)
			}
		}
		if t.Failed() {
			t.Logf("%s:\n%s", file, crd)
		}
	}
	check("ship.example.com_frigates.yaml", []struct{ path, want string }{
		{"engine/default/fuel", "diesel"}, // {} is not valid (minProperties: 1): the default is {fuel: diesel}
		{"engine/properties/fuel/default", "diesel"},
		{"deck/default", ""}, // an omitzero struct with a required field: no default
		{"deck/properties/colour/default", "blue"},
		{"mode/default", ""},
	})
	check("ship.example.com_sloops.yaml", []struct{ path, want string }{
		{"color/default", "blue"},
		{"crew/default", "0"},    // KEP-1929: a scalar without omitempty
		{"engine/default", "{}"}, // KEP-1929: a non-pointer struct
		{"engine/properties/cylinders/default", "4"},
		{"engine/properties/fuel/default", "diesel"},
		{"hull/default/material", "steel"}, // +default on the type
	})
}

// normalizeInScaffold: the normalize binary next to controller-gen-default, offline.
func (e *e2e) normalizeInScaffold(t *testing.T) {
	offline, cgdErr, fleet := e.offline, e.cgdErr, e.fleet
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	// Both binaries side by side, linked to their -checkout builds.
	for _, name := range []string{toolBinary, normalizeBinary} {
		p := filepath.Join(fleet, "bin", name)
		if target, err := os.Readlink(p); err != nil || target != p+"-checkout" {
			t.Errorf("bin/%s -> %q, %v", name, target, err)
		}
	}
	cgd := filepath.Join(fleet, "bin", toolBinary)
	if out := mustRun(t, fleet, offline, cgd, "normalize", "--help"); !strings.Contains(out, "usage: controller-gen-default normalize --crd PATH") {
		t.Errorf("normalize --help:\n%s", out)
	}
	// A Frigate as the apiserver would store it: the CRD's defaults.
	writeFile(t, fleet, "frigate.yaml", "apiVersion: ship.example.com/v1\nkind: Frigate\nmetadata:\n  name: cruise\n  namespace: default\nspec:\n  mode: Cruise\n")
	out := mustRun(t, fleet, offline, cgd, "normalize", "--crd", "config/crd/bases", "frigate.yaml")
	if spec := yamlChild(t, out, "spec"); yamlScalar(spec, "mode") != "Cruise" || yamlScalar(yamlChild(t, spec, "engine"), "fuel") != "diesel" || strings.Contains(spec, "deck") {
		t.Errorf("normalize:\n%s", out)
	}
	// impact, the other command of the normalize binary.
	if out, err := run1(fleet, offline, cgd, "impact", "--help"); !strings.Contains(out, "impact") {
		t.Errorf("impact --help: %v\n%s", err, out)
	}
}

// offlineEnvtest: edit --offline-envtest, then make test with envtest binaries of build.sh.
func (e *e2e) offlineEnvtest(t *testing.T) {
	repo, env, cgdErr, fleet := e.repo, e.env, e.cgdErr, e.fleet
	kubebuilder := e.kubebuilder
	webhook := ""
	if cgdErr == nil {
		webhook = readFile(t, fleet, webhookFile)
	}
	out := kubebuilder(t, env, fleet, "edit", "--plugins", pluginKey, "--"+flagOfflineEnvtest)
	if !strings.Contains(out, "make envtest-assets") {
		t.Errorf("edit --offline-envtest output:\n%s", out)
	}
	if cgdErr == nil && readFile(t, fleet, webhookFile) != webhook || strings.Contains(out, "Default now calls") {
		t.Errorf("edit changed the webhook that create webhook had edited:\n%s", out)
	}
	if mk := readFile(t, fleet, "Makefile"); !strings.Contains(mk, "\nsetup-envtest: envtest-assets\ntest: envtest-assets\n") {
		t.Errorf("Makefile lacks the offline-envtest block:\n%s", mk)
	}
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	assets := envtestAssets(repo)
	if assets == "" {
		t.Skip("no envtest binaries: set KUBEBUILDER_ASSETS or run `make envtest-assets` in the repository")
	}
	// The project's bin/k8s gets the binaries that build.sh would build:
	// build.sh then finds them and builds nothing.
	dst := filepath.Join(fleet, "bin", "k8s", envtestK8sVersion+"-"+runtime.GOOS+"-"+runtime.GOARCH)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if err := os.Symlink(filepath.Join(assets, name), filepath.Join(dst, name)); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, fleet, "internal/controller/defaults_test.go", defaultsTest)
	writeFile(t, fleet, "internal/webhook/v1/defaults_test.go", webhookDefaultsTest)
	// The builder is the checkout's e2e/assets: the Makefile's default
	// when the tools come from a checkout.
	out = mustRun(t, fleet, append(env, "KUBEBUILDER_ASSETS="), "make", "test")
	for _, want := range []string{"envtest binaries for Kubernetes " + envtestK8sVersion + " in " + dst,
		"ok  \texample.com/fleet/internal/controller", "ok  \texample.com/fleet/internal/webhook/v1"} {
		if !strings.Contains(out, want) {
			t.Errorf("make test output lacks %q:\n%s", want, out)
		}
	}
}

// conversionWebhook: create webhook --conversion adds make test-conversion, which finds the scaffold's lost fields, offline.
func (e *e2e) conversionWebhook(t *testing.T) {
	offline, cgdErr, fleet := e.offline, e.cgdErr, e.fleet
	kubebuilder := e.kubebuilder
	if cgdErr != nil {
		t.Skip("controller-gen-default does not build")
	}
	// Frigate at v2 too, and a conversion webhook with v1 the hub:
	// go/v4 scaffolds ConvertTo/ConvertFrom that copy only ObjectMeta,
	// so every spec field is lost in a round trip, and make
	// test-conversion, which the plugin adds, says so at the fields.
	kubebuilder(t, offline, fleet, "create", "api", "--group", "ship", "--version", "v2", "--kind", "Frigate", "--resource", "--controller=false", "--make=false")
	out := kubebuilder(t, offline, fleet, "create", "webhook", "--group", "ship", "--version", "v1", "--kind", "Frigate", "--conversion", "--spoke", "v2")
	if !strings.Contains(out, pluginKey+": make "+conversionTarget+" checks the conversion code") {
		t.Errorf("create webhook --conversion output lacks the plugin's log:\n%s", out)
	}
	if mk := readFile(t, fleet, "Makefile"); strings.Count(mk, "\n"+conversionRule("./api/...")) != 1 {
		t.Errorf("Makefile lacks the %s rule:\n%s", conversionTarget, mk)
	}
	out, err := run1(fleet, offline, "make", "--no-print-directory", conversionTarget)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("make %s: %v, want make's exit status 2 (the command's 1: findings)\n%s", conversionTarget, err, out)
	}
	for _, want := range []string{
		"\"$(pwd)/bin/controller-gen-default\" conversion ./api/...",
		"api/v2/frigate_types.go:",
		": error: FrigateSpec.Foo (spec.foo): lost in a round trip v2 → v1 → v2",
		"[conversion-lost-field]",
	} {
		want = strings.ReplaceAll(want, "$(pwd)", fleet)
		if !strings.Contains(out, want) {
			t.Errorf("make %s output lacks %q:\n%s", conversionTarget, want, out)
		}
	}
}

// generateLine is the generate recipe of a v4.15.0 Makefile, edited.
const generateLine = "\n\t\"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) defaults:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\"\n"

const installCallStock = "$(call go-install-tool,$(CONTROLLER_GEN)," + stockToolPackage + ",$(CONTROLLER_TOOLS_VERSION))"

// envtestAssets is a directory with kube-apiserver and etcd: $KUBEBUILDER_ASSETS
// (which the repository's `make test` sets) or the repository's bin/k8s.
func envtestAssets(repo string) string {
	for _, dir := range []string{
		os.Getenv("KUBEBUILDER_ASSETS"),
		filepath.Join(repo, "bin", "k8s", envtestK8sVersion+"-"+runtime.GOOS+"-"+runtime.GOARCH),
	} {
		if dir == "" {
			continue
		}
		ok := true
		for _, name := range []string{"kube-apiserver", "etcd"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode()&0o111 == 0 {
				ok = false
			}
		}
		if ok {
			abs, _ := filepath.Abs(dir)
			return abs
		}
	}
	return ""
}

func run1(dir string, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	start := time.Now()
	out, err := run1(dir, env, name, args...)
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	t.Logf("%s %s: %s", filepath.Base(name), strings.Join(args, " "), time.Since(start).Round(100*time.Millisecond))
	return out
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// yamlChild returns the lines under key (the first line "key:" found at any
// depth of block, then each key of path below it), enough to walk
// controller-gen's CRD output without a YAML parser.
func yamlChild(t *testing.T, block string, path ...string) string {
	t.Helper()
	for _, key := range path {
		lines := strings.Split(block, "\n")
		found := false
		for i, l := range lines {
			if strings.TrimSpace(l) != key+":" {
				continue
			}
			indent := len(l) - len(strings.TrimLeft(l, " "))
			j := i + 1
			for j < len(lines) && (strings.TrimSpace(lines[j]) == "" || len(lines[j])-len(strings.TrimLeft(lines[j], " ")) > indent) {
				j++
			}
			block, found = strings.Join(lines[i+1:j], "\n"), true
			break
		}
		if !found {
			t.Fatalf("no %q in\n%s", key, block)
		}
	}
	return block
}

// yamlScalar is the value of key at the top level of block.
func yamlScalar(block, key string) string {
	lines := strings.Split(block, "\n")
	top := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if top < 0 {
			top = indent
		}
		if indent == top {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), key+":"); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// frigateSpec replaces FrigateSpec in the scaffolded api/v1/frigate_types.go.
// The CRD defaults engine to {fuel: diesel} ({} would break minProperties)
// and gives deck, an omitzero struct with a required name, no default; the
// Go defaulter leaves a zero deck alone.
const frigateSpec = `// FrigateSpec defines the desired state of Frigate.
type FrigateSpec struct {
	// +required
	Mode Mode ` + "`json:\"mode\"`" + `
	// +optional
	Deck Deck ` + "`json:\"deck,omitzero\"`" + `
	// +optional
	Engine Engine ` + "`json:\"engine,omitzero\"`" + `
}

// +kubebuilder:validation:Enum=Cruise;Anchor
type Mode string

type Deck struct {
	// +required
	// +kubebuilder:validation:MinLength=1
	Name string ` + "`json:\"name\"`" + `
	// +optional
	// +default="blue"
	Colour string ` + "`json:\"colour,omitempty\"`" + `
}

// +kubebuilder:validation:MinProperties=1
type Engine struct {
	// +optional
	Power *int32 ` + "`json:\"power,omitempty\"`" + `
	// +optional
	// +default="diesel"
	Fuel string ` + "`json:\"fuel,omitempty\"`" + `
}
`

// sloopTypes is api/v1/sloop_types.go, a second kind added by hand (no
// controller, no webhook): +default on fields and on a type, a non-pointer
// struct and a scalar without omitempty.
const sloopTypes = `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// SloopEngine is a non-pointer struct field of SloopSpec: KEP-1929 defaults it to {}.
type SloopEngine struct {
	// +default=4
	// +optional
	Cylinders int32 ` + "`json:\"cylinders,omitempty\"`" + `

	// +default="diesel"
	// +optional
	Fuel string ` + "`json:\"fuel,omitempty\"`" + `
}

// Hull has a default on the type.
// +default={"material": "steel"}
type Hull struct {
	// +optional
	Material string ` + "`json:\"material,omitempty\"`" + `
}

// SloopSpec defines the desired state of Sloop.
type SloopSpec struct {
	// +default="blue"
	// +optional
	Color string ` + "`json:\"color,omitempty\"`" + `

	// +optional
	Engine SloopEngine ` + "`json:\"engine,omitzero\"`" + `

	// +optional
	Hull *Hull ` + "`json:\"hull,omitempty\"`" + `

	// Crew has no omitempty: Go clients always send it, so it defaults to 0.
	// +optional
	Crew int32 ` + "`json:\"crew\"`" + `
}

// +kubebuilder:object:root=true

// Sloop is the Schema for the sloops API.
type Sloop struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `

	// +optional
	metav1.ObjectMeta ` + "`json:\"metadata,omitzero\"`" + `

	// +required
	Spec SloopSpec ` + "`json:\"spec\"`" + `
}

// +kubebuilder:object:root=true

// SloopList contains a list of Sloop.
type SloopList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitzero\"`" + `
	Items           []Sloop ` + "`json:\"items\"`" + `
}

func init() {
	SchemeBuilder.Register(func(s *runtime.Scheme) error {
		s.AddKnownTypes(SchemeGroupVersion, &Sloop{}, &SloopList{})
		return nil
	})
}
`

// defaultsTest is added to the scaffolded controller suite: the apiserver
// (envtest) applies the CRD's defaults to an object a Go client creates.
const defaultsTest = `package controller

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	shipv1 "example.com/fleet/api/v1"
)

var _ = Describe("KEP-1929 defaults", func() {
	It("are applied by the apiserver", func() {
		s := &shipv1.Sloop{ObjectMeta: metav1.ObjectMeta{Name: "defaults", Namespace: "default"}}
		Expect(k8sClient.Create(ctx, s)).To(Succeed())
		got := &shipv1.Sloop{}
		Expect(k8sClient.Get(ctx, types.NamespacedName{Name: "defaults", Namespace: "default"}, got)).To(Succeed())
		Expect(got.Spec.Color).To(Equal("blue"))
		Expect(got.Spec.Engine).To(Equal(shipv1.SloopEngine{Cylinders: 4, Fuel: "diesel"}))
		Expect(got.Spec.Hull).To(Equal(&shipv1.Hull{Material: "steel"}))
		Expect(k8sClient.Delete(ctx, got)).To(Succeed())
	})
})
`

// webhookDefaultsTest is added to the scaffolded webhook suite, whose envtest
// apiserver calls the scaffolded defaulting webhook (its Default calls
// SetObjectDefaults_Frigate, as the plugin edited it). Objects are sent as
// JSON (unstructured), not through Go types, and read back as stored.
const webhookDefaultsTest = `package v1

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	shipv1 "example.com/fleet/api/v1"
)

var _ = Describe("Frigate defaults through the webhook and the apiserver", func() {
	// create sends spec as JSON and returns the stored spec.
	create := func(name string, spec map[string]any) map[string]any {
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "ship.example.com/v1",
			"kind":       "Frigate",
			"metadata":   map[string]any{"name": name, "namespace": "default"},
			"spec":       spec,
		}}
		Expect(k8sClient.Create(ctx, obj)).To(Succeed())
		got := &unstructured.Unstructured{}
		got.SetGroupVersionKind(obj.GroupVersionKind())
		Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), got)).To(Succeed())
		GinkgoWriter.Printf("stored %s: %v\n", name, got.Object["spec"])
		return got.Object["spec"].(map[string]any)
	}

	It("stores {mode: Cruise} as the CRD alone does: engine defaulted, no deck", func() {
		Expect(create("cruise", map[string]any{"mode": "Cruise"})).To(Equal(map[string]any{
			"mode":   "Cruise",
			"engine": map[string]any{"fuel": "diesel"},
		}))
	})

	It("runs the generated Go defaulter", func() {
		// fuel: "" is present, so the CRD keeps it; only the Go defaulter,
		// for which "" is unset, makes it diesel: the webhook ran it.
		Expect(create("empty-fuel", map[string]any{"mode": "Anchor", "engine": map[string]any{"fuel": ""}})).To(Equal(map[string]any{
			"mode":   "Anchor",
			"engine": map[string]any{"fuel": "diesel"},
		}))
	})

	It("defaults a Go object as the CRD does", func() {
		obj := &shipv1.Frigate{Spec: shipv1.FrigateSpec{Mode: "Cruise"}}
		Expect((&FrigateCustomDefaulter{}).Default(ctx, obj)).To(Succeed())
		Expect(obj.Spec).To(Equal(shipv1.FrigateSpec{Mode: "Cruise", Engine: shipv1.Engine{Fuel: "diesel"}}))
	})
})
`

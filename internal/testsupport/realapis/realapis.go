// Package realapis fetches real-world Kubernetes API modules through the Go
// module proxy and runs CRD generators on them. It is shared by the
// byte-identity test in test/compat/ and the benchmarks in test/bench/.
//
// Modules are not vendored and the root go.mod is not touched: Prepare writes
// a throwaway module that requires the API modules, downloads them (into the
// ordinary module cache, so later runs are offline), and fills its go.sum.
// Generators then run inside that module with import-path patterns such as
// paths=sigs.k8s.io/gateway-api/apis/..., so the package loader resolves every
// dependency exactly as the API module's own go.mod says. What only tests
// use (a checkout of a module at a release, the controller-gen binaries a
// test compares) is in package realapistest.
package realapis

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Module is one API module and the crd generator options its project uses.
type Module struct {
	// Name is a short name for reports and output directories.
	Name string
	// Path and Version name the module in the Go module proxy.
	Path    string
	Version string
	// Packages are the package patterns to generate for, relative to Path
	// ("apis/..."; "..." for the whole module).
	Packages []string
	// Imports are package patterns of other modules that the project's
	// command line names too, as full import paths (scheduler-plugins
	// generates the CRDs of API modules its go.mod requires).
	Imports []string
	// CRDOptions are the crd generator's options as the project passes them
	// ("crdVersions=v1"), without the "crd:" prefix.
	CRDOptions []string
	// Source says where the invocation was copied from.
	Source string
}

// The modules both pieces run on. Versions are the newest releases the
// module proxy serves whose go directive this repository's toolchain
// (Go 1.26) satisfies: gateway-api v1.7.0 needs go 1.27.0.
var (
	// GatewayAPI generates its release CRDs with its own controller-tools
	// based generator (pkg/generator), which adds channel annotations.
	// hack/update-clientset.sh runs plain controller-gen to validate the
	// CRD markers of the same packages, with the default crd options; that
	// is the invocation used here.
	GatewayAPI = Module{
		Name:     "gateway-api",
		Path:     "sigs.k8s.io/gateway-api",
		Version:  "v1.6.3",
		Packages: []string{"apis/...", "apisx/..."},
		Source:   `hack/update-clientset.sh: controller-gen crd paths="./apis/..." paths="./apisx/..." output:none`,
	}
	// PrometheusOperator is the monitoring API module of
	// prometheus-operator; its CRDs embed PodSpec and are among the largest
	// in use. Its Makefile (generate-crds) runs, for the "full" CRD set,
	// cd pkg/apis/monitoring && controller-gen crd:crdVersions=v1 paths=./...
	PrometheusOperator = Module{
		Name:       "prometheus-operator",
		Path:       "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring",
		Version:    "v0.95.1",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `Makefile generate-crds: cd pkg/apis/monitoring && controller-gen crd:crdVersions=v1 paths=./... output:crd:dir=...`,
	}
	// ClusterAPI is cluster-api's API module. Its v1beta2 types follow the
	// current API conventions: optional structs are
	// `json:"x,omitempty,omitzero"` with +optional and
	// +kubebuilder:validation:MinProperties=1. The module holds no Makefile;
	// cluster-api's (sigs.k8s.io/cluster-api v1.14.2, the repository root)
	// generates this module's CRDs in three targets, all with
	// crd:crdVersions=v1 and otherwise default options:
	// generate-manifests-core (paths=./api/addons/... ./api/core/...
	// ./api/ipam/... ./api/runtime/...), generate-manifests-kubeadm-bootstrap
	// (paths=./api/bootstrap/kubeadm/...) and
	// generate-manifests-kubeadm-control-plane
	// (paths=./api/controlplane/kubeadm/...). Their other paths= are packages
	// of the root module (controllers, webhooks), not of this one. The groups
	// differ, so one run over the six patterns writes the same files as the
	// three. api/deprecated/... is in none of them.
	ClusterAPI = Module{
		Name:    "cluster-api",
		Path:    "sigs.k8s.io/cluster-api/api",
		Version: "v1.14.2",
		Packages: []string{
			"addons/...", "core/...", "ipam/...", "runtime/...",
			"bootstrap/kubeadm/...", "controlplane/kubeadm/...",
		},
		CRDOptions: []string{"crdVersions=v1"},
		Source: `sigs.k8s.io/cluster-api@v1.14.2 Makefile generate-manifests-core, -kubeadm-bootstrap, -kubeadm-control-plane: ` +
			`controller-gen paths=./api/{addons,core,ipam,runtime}/... | paths=./api/bootstrap/kubeadm/... | paths=./api/controlplane/kubeadm/... crd:crdVersions=v1 output:crd:dir=...`,
	}
)

// The modules of the acceptance test (test/acceptance/): APIs that others wrote,
// with the crd options of their own Makefiles. They are not in Default, whose
// time budget test/compat/ and test/bench/ keep.
var (
	// Kueue is the whole sigs.k8s.io/kueue module; its API packages are
	// apis/... (config, kueue, visibility). Its Makefile's manifests target
	// generates them with crd:generateEmbeddedObjectMeta=true.
	Kueue = Module{
		Name:       "kueue",
		Path:       "sigs.k8s.io/kueue",
		Version:    "v0.17.0",
		Packages:   []string{"apis/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true"},
		Source:     `Makefile manifests: controller-gen crd:generateEmbeddedObjectMeta=true output:crd:artifacts:config=config/components/crd/bases paths="./apis/..."`,
	}

	// The flux API modules. Their newest releases (source-controller/api
	// and kustomize-controller/api v1.10.1, helm-controller/api v1.7.1,
	// notification-controller/api v1.10.0) say go 1.27.0 in their go.mod,
	// which Go 1.26 refuses (GOTOOLCHAIN=local); each version below is the
	// newest the module proxy lists whose go directive is go 1.26.0. The
	// four repositories' Makefiles have the same manifests target:
	// CRD_OPTIONS ?= crd:crdVersions=v1, then
	// cd api; $(CONTROLLER_GEN) $(CRD_OPTIONS) rbac:roleName=manager-role paths="./..." output:crd:artifacts:config="../config/crd/bases".
	// The Makefiles of source-controller v1.9.6 and kustomize-controller
	// v1.9.6 were read in the module cache; the proxy refuses the root
	// modules of helm-controller and notification-controller (403, "not
	// available"), whose Makefiles were read in a copy of their GitHub
	// repositories (of another commit, not of the tag).
	FluxSource = Module{
		Name:       "flux-source",
		Path:       "github.com/fluxcd/source-controller/api",
		Version:    "v1.9.6",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/source-controller@v1.9.6 Makefile manifests: cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}
	FluxKustomize = Module{
		Name:       "flux-kustomize",
		Path:       "github.com/fluxcd/kustomize-controller/api",
		Version:    "v1.9.6",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/kustomize-controller@v1.9.6 Makefile manifests: cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}
	FluxHelm = Module{
		Name:       "flux-helm",
		Path:       "github.com/fluxcd/helm-controller/api",
		Version:    "v1.6.5",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/helm-controller Makefile manifests (the GitHub repository's; the proxy refuses the root module at v1.6.5): cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}
	FluxNotification = Module{
		Name:       "flux-notification",
		Path:       "github.com/fluxcd/notification-controller/api",
		Version:    "v1.9.4",
		Packages:   []string{"..."},
		CRDOptions: []string{"crdVersions=v1"},
		Source:     `github.com/fluxcd/notification-controller Makefile manifests (the GitHub repository's; the proxy refuses the root module at v1.9.4): cd api; controller-gen crd:crdVersions=v1 rbac:roleName=manager-role paths="./..." output:crd:artifacts:config=...`,
	}

	// KubeflowTrainer is the trainer module (v2). Its Makefile's manifests
	// target runs one controller-gen for CRDs, RBAC and webhooks over
	// ./pkg/apis/trainer/v1alpha1/... and the controller, runtime, webhook
	// and cert packages; only the first holds CRD types (the others give
	// RBAC and webhook markers), so the crd generator runs on it alone.
	KubeflowTrainer = Module{
		Name:       "kubeflow-trainer",
		Path:       "github.com/kubeflow/trainer/v2",
		Version:    "v2.0.0",
		Packages:   []string{"pkg/apis/trainer/v1alpha1/..."},
		CRDOptions: []string{"generateEmbeddedObjectMeta=true"},
		Source: `Makefile manifests: controller-gen "crd:generateEmbeddedObjectMeta=true" rbac:roleName=kubeflow-trainer-controller-manager webhook ` +
			`paths="./pkg/apis/trainer/v1alpha1/...;./pkg/controller/...;./pkg/runtime/...;./pkg/webhooks/...;./pkg/util/cert/..." output:crd:artifacts:config=manifests/base/crds ...`,
	}

	// ExternalSecrets is the whole external-secrets module; its API
	// packages are apis/.... Its Makefile's generate target runs
	// hack/crd.generate.sh, which runs controller-gen crd with the default
	// options. The module's go.mod replaces Masterminds/sprig, which a
	// dependent module ignores; apis/... does not import it.
	ExternalSecrets = Module{
		Name:     "external-secrets",
		Path:     "github.com/external-secrets/external-secrets",
		Version:  "v0.16.2",
		Packages: []string{"apis/..."},
		Source:   `Makefile generate: hack/crd.generate.sh: go run sigs.k8s.io/controller-tools/cmd/controller-gen crd paths="./apis/..." output:crd:artifacts:config=config/crds/bases`,
	}
	// CertManager is the whole cert-manager module (v1.21.2 says go 1.26.0);
	// its API packages are pkg/apis/.... Its make/_shared_new/helm/crds.mk
	// generate-crds runs controller-gen crd with the default options over
	// every top-level directory; only pkg/apis holds CRD kinds.
	CertManager = Module{
		Name:     "cert-manager",
		Path:     "github.com/cert-manager/cert-manager",
		Version:  "v1.21.2",
		Packages: []string{"pkg/apis/..."},
		Source:   `make/_shared_new/helm/crds.mk generate-crds: controller-gen crd paths=./<each directory>/... output:crd:artifacts:config=...`,
	}
)

// Others returns the modules of other projects above: kueue, the four flux
// API modules, kubeflow trainer, external-secrets and cert-manager. Each is
// prepared on its own (its dependencies at the versions of its own go.mod).
func Others() []Module {
	return []Module{Kueue, FluxSource, FluxKustomize, FluxHelm, FluxNotification, KubeflowTrainer, ExternalSecrets, CertManager}
}

// Acceptance returns the modules the acceptance test runs on: Default's,
// Others, then Wider.
func Acceptance() []Module {
	return append(append(Default(), Others()...), Wider()...)
}

// Default returns the modules test/compat/ and test/bench/ run on. When they are
// prepared together, the throwaway module's build list is the union of
// theirs: cluster-api/api (k8s.io/api v0.36.3 in its go.mod) then builds
// against the newer k8s.io/api the others require; the other two resolve
// as they do without it.
func Default() []Module {
	return []Module{GatewayAPI, PrometheusOperator, ClusterAPI}
}

// Select returns the modules of Acceptance (Default, Others and Wider) whose
// names are listed (comma-separated); an empty list selects Default.
func Select(names string) ([]Module, error) {
	if strings.TrimSpace(names) == "" {
		return Default(), nil
	}
	var out []Module
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		found := false
		for _, m := range Acceptance() {
			if m.Name == n {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var known []string
			for _, m := range Acceptance() {
				known = append(known, m.Name)
			}
			return nil, fmt.Errorf("unknown module %q (known: %s)", n, strings.Join(known, ", "))
		}
	}
	return out, nil
}

// String is module@version.
func (m Module) String() string { return m.Path + "@" + m.Version }

// Patterns are the import-path patterns of the module's API packages,
// then Imports.
func (m Module) Patterns() []string {
	var out []string
	for _, p := range m.Packages {
		out = append(out, m.Path+"/"+p)
	}
	return append(out, m.Imports...)
}

// CRDArg is the crd generator argument: the project's own options followed
// by extra (for example "implicitDefaults=false"), as one marker; "crd" when
// there are none. Options must go in one argument: every crd argument on the
// command line runs the generator once more.
func (m Module) CRDArg(extra ...string) string {
	opts := append(append([]string(nil), m.CRDOptions...), extra...)
	if len(opts) == 0 {
		return "crd"
	}
	return "crd:" + strings.Join(opts, ",")
}

// Args is the full generator command line: the crd argument (with extra
// options), one paths= per pattern, and output:crd:dir=outDir.
func (m Module) Args(outDir string, extra ...string) []string {
	args := []string{m.CRDArg(extra...)}
	for _, p := range m.Patterns() {
		args = append(args, "paths="+p)
	}
	return append(args, "output:crd:dir="+outDir)
}

var goVersionRx = regexp.MustCompile(`^go(\d+\.\d+(?:\.\d+|rc\d+)?)`)

// Workspace is a prepared throwaway module.
type Workspace struct {
	Dir     string
	Modules []Module
	// Env is the environment to run generators with: the caller's, with the
	// toolchain pinned to the local one, no workspace file, and -mod=readonly
	// so that a run can neither download nor edit go.mod/go.sum.
	Env []string
	// Dirs are the modules' directories in the module cache (read-only),
	// by Module.Name.
	Dirs map[string]string
}

// FetchTimeout bounds the whole of Prepare when ctx has no deadline.
var FetchTimeout = 10 * time.Minute

// Prepare creates a throwaway module in dir (which must exist and should be
// empty) requiring mods, downloads them through the Go module proxy, and
// loads their API packages once to fill go.sum. A module version the proxy
// refuses fails at once, with an error naming module@version.
func Prepare(ctx context.Context, dir string, mods ...Module) (*Workspace, error) {
	if len(mods) == 0 {
		return nil, errors.New("realapis: no modules")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, FetchTimeout)
		defer cancel()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	w := &Workspace{Dir: dir, Modules: mods, Env: GoEnv("-mod=readonly"), Dirs: map[string]string{}}
	prepEnv := GoEnv("-mod=mod")

	goEnv, err := goCmdOutput(ctx, dir, prepEnv, "env", "GOVERSION", "GOPROXY")
	if err != nil {
		return nil, err
	}
	goVersion, proxy, _ := strings.Cut(strings.TrimSpace(goEnv), "\n")
	var gomod bytes.Buffer
	// The go directive is the local toolchain's, so that any module it can
	// build is accepted without editing go.mod.
	goLine := goVersionRx.FindStringSubmatch(strings.TrimSpace(goVersion))
	if goLine == nil {
		return nil, fmt.Errorf("realapis: cannot parse go env GOVERSION %q", goVersion)
	}
	fmt.Fprintf(&gomod, "// Throwaway module written by internal/testsupport/realapis. Do not edit.\nmodule realapis.local/workspace\n\ngo %s\n\nrequire (\n", goLine[1])
	for _, m := range mods {
		fmt.Fprintf(&gomod, "\t%s %s\n", m.Path, m.Version)
	}
	gomod.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), gomod.Bytes(), 0o644); err != nil {
		return nil, err
	}

	// Fetch each module on its own, so that a refusal names it.
	for _, m := range mods {
		d, err := download(ctx, dir, prepEnv, proxy, m)
		if err != nil {
			return nil, err
		}
		w.Dirs[m.Name] = d
	}

	// Load every API package with its dependencies: this downloads the
	// dependency modules, records their checksums in go.sum, and checks that
	// each pattern matches packages that load.
	var patterns []string
	for _, m := range mods {
		patterns = append(patterns, m.Patterns()...)
	}
	args := append([]string{"list", "-deps", "-e", "-f",
		"{{if not .DepOnly}}ROOT {{.ImportPath}}\n{{end}}{{with .Error}}ERROR {{.}}\n{{end}}"}, patterns...)
	out, err := goCmdOutput(ctx, dir, prepEnv, args...)
	if err != nil {
		return nil, fetchErrorIf(fmt.Errorf("realapis: loading the API packages of %s: %w", moduleList(mods), err))
	}
	roots := map[string]int{}
	var loadErrs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "ROOT "):
			pkg := strings.TrimPrefix(line, "ROOT ")
			for _, m := range mods {
				if pkg == m.Path || strings.HasPrefix(pkg, m.Path+"/") {
					roots[m.Name]++
				}
			}
		case strings.HasPrefix(line, "ERROR "):
			loadErrs = append(loadErrs, strings.TrimPrefix(line, "ERROR "))
		}
	}
	if len(loadErrs) > 0 {
		return nil, fetchErrorIf(fmt.Errorf("realapis: the API packages of %s do not load:\n\t%s", moduleList(mods), strings.Join(loadErrs, "\n\t")))
	}
	for _, m := range mods {
		if roots[m.Name] == 0 {
			return nil, fmt.Errorf("realapis: %s: the patterns %s match no packages", m, strings.Join(m.Patterns(), " "))
		}
	}
	return w, nil
}

// Command returns a command that runs bin with args inside the workspace.
func (w *Workspace) Command(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = w.Dir
	cmd.Env = w.Env
	return cmd
}

// ErrFetch is wrapped by the errors of Prepare that come from the module
// proxy refusing a module, or from a module missing from the cache when
// offline (GOPROXY=off), so that a test can tell "no network" from a
// module that does not build: errors.Is(err, realapis.ErrFetch).
var ErrFetch = errors.New("realapis: module download refused")

// fetchError is an error of Prepare that is also ErrFetch.
type fetchError struct{ error }

func (e fetchError) Unwrap() []error { return []error{e.error, ErrFetch} }

// fetchFailureRx matches what the go command prints when it cannot
// download a module: the proxy refused it or could not be reached, or
// downloads are off.
var fetchFailureRx = regexp.MustCompile(`module lookup disabled|reading (?:https?|file)://|Get "https?://|dial tcp|no such host|connection refused|i/o timeout|TLS handshake timeout|proxyconnect`)

// fetchErrorIf marks err as ErrFetch when its text says that a module could
// not be downloaded (go list downloads the API modules' dependencies).
func fetchErrorIf(err error) error {
	if fetchFailureRx.MatchString(err.Error()) {
		return fetchError{err}
	}
	return err
}

// ModuleDir downloads module@version through the Go module proxy (a no-op
// with a warm module cache) and returns its directory in the module cache.
// A refusal is an ErrFetch naming module@version.
func ModuleDir(ctx context.Context, module, version string) (string, error) {
	tmp, err := os.MkdirTemp("", "realapis-download-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module realapis.local/download\n"), 0o644); err != nil {
		return "", err
	}
	env := GoEnv("-mod=mod")
	proxy, err := goCmdOutput(ctx, tmp, env, "env", "GOPROXY")
	if err != nil {
		return "", err
	}
	return download(ctx, tmp, env, strings.TrimSpace(proxy), Module{Path: module, Version: version})
}

// download runs go mod download for one module, returns its directory and
// turns a refusal into an error that names module@version.
func download(ctx context.Context, dir string, env []string, proxy string, m Module) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", m.String())
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct {
		Path, Version, Dir, Error string
	}
	_ = json.Unmarshal(stdout.Bytes(), &info)
	switch {
	case info.Error != "":
		return "", fetchError{fmt.Errorf("realapis: cannot fetch %s (GOPROXY=%s): %s\n"+
			"pick another version of %s in internal/testsupport/realapis", m, proxy, info.Error, m.Path)}
	case ctx.Err() != nil:
		return "", fmt.Errorf("realapis: fetching %s (GOPROXY=%s): %w", m, proxy, ctx.Err())
	case runErr != nil:
		return "", fetchError{fmt.Errorf("realapis: cannot fetch %s (GOPROXY=%s): %w\n%s", m, proxy, runErr, strings.TrimSpace(stderr.String()))}
	case info.Dir == "":
		return "", fmt.Errorf("realapis: go mod download %s reported no directory", m)
	}
	return info.Dir, nil
}

func goCmdOutput(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// GoEnv is the caller's environment with the settings a reproducible run
// in a throwaway module needs, and GOFLAGS=modFlag. GOTOOLCHAIN=local: a module whose go
// directive is newer than the local toolchain fails instead of downloading
// a toolchain. GOWORK=off: no go.work of an enclosing directory applies.
func GoEnv(modFlag string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "GOTOOLCHAIN", "GOWORK", "GOFLAGS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS="+modFlag)
}

func moduleList(mods []Module) string {
	var s []string
	for _, m := range mods {
		s = append(s, m.String())
	}
	return strings.Join(s, ", ")
}

// ReferenceVersion is the controller-gen release controller-gen-default
// replaces, the reference of test/compat/, test/bench/ and the schemapatch test.
const ReferenceVersion = "v0.23.0"

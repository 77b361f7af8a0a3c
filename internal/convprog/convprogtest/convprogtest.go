// Package convprogtest writes, for the tests of the conversion program
// (internal/convprog) and of the commands that build it (conversion,
// impact --convert), a module that requires a given release of
// sigs.k8s.io/controller-runtime: the API of
// internal/convprog/testdata/crversions (see its README.md), with the
// k8s.io/* versions that release requires.
package convprogtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// Release is a controller-runtime release of the matrix.
type Release struct {
	// Version is the release, as the module proxy serves it.
	Version string
	// Converters: the release has controller-runtime Converters
	// (pkg/webhook/conversion Converter, Registry, NewHubSpokeConverter;
	// pkg/builder WithConverter), which v0.23.0 introduced. Written here
	// from the releases' sources, independently of convprog's own
	// detection, which the tests check against it.
	Converters bool
	// Recovers: the release's conversion webhook handler recovers a
	// panic of the conversion code and answers "internal error occurred
	// during conversion" (v0.22.4 has it, v0.21.0 has not); before, the
	// panic stops the program.
	Recovers bool
	// Default: the release is in the default test run (the oldest
	// supported, the one a user hit, the newest); the others run when
	// MatrixEnv asks for them.
	Default bool
}

// Releases are the latest patch, as the module proxy serves them, of
// each minor release from v0.15 (the oldest the conversion program
// supports) to the newest; each one's go directive is at most go 1.26.0.
var Releases = []Release{
	{Version: "v0.15.3", Default: true},
	{Version: "v0.16.1"},
	{Version: "v0.17.2"},
	{Version: "v0.18.5"},
	{Version: "v0.19.4"},
	// the release a user ran `conversion` with, when the generated
	// program referred to webhookconversion.Converter unconditionally
	{Version: "v0.20.4", Default: true},
	{Version: "v0.21.0"},
	{Version: "v0.22.5", Recovers: true},
	{Version: "v0.23.3", Converters: true, Recovers: true},
	{Version: "v0.24.1", Converters: true, Recovers: true},
	{Version: "v0.25.2", Converters: true, Recovers: true, Default: true},
}

// TooOld is a release older than the oldest supported: the conversion
// program refuses it before building anything.
const TooOld = "v0.14.6"

// MatrixEnv selects the releases beyond the default ones: "all", or a
// comma-separated list of versions.
const MatrixEnv = "CONVPROG_CR_VERSIONS"

// Selected says whether r runs in this test run, and if not, why.
func Selected(r Release) (bool, string) {
	env := strings.TrimSpace(os.Getenv(MatrixEnv))
	if env == "all" || r.Default {
		return true, ""
	}
	for _, v := range strings.Split(env, ",") {
		if strings.TrimSpace(v) == r.Version {
			return true, ""
		}
	}
	return false, fmt.Sprintf("controller-runtime %s is not in the default subset: set %s=all (or %s=%s) to build against it", r.Version, MatrixEnv, MatrixEnv, r.Version)
}

// ErrUnavailable is Module's error when the go command cannot get the
// release: the module proxy refused a module, the network is off, or the
// release's dependencies need a newer Go than this one (GOTOOLCHAIN=local).
var ErrUnavailable = errors.New("controller-runtime release unavailable")

// unavailable are go mod tidy's messages of a module it could not get.
var unavailable = []string{
	"dial tcp", "proxyconnect", "i/o timeout", "no such host", "GOPROXY=off", "module lookup disabled",
	"connection refused", "404 Not Found", "410 Gone", "unknown revision", "invalid version",
	"requires go >=", "TLS handshake timeout",
}

// Source is the directory of the test API (testdata/crversions).
func Source() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "crversions")
}

// Write writes the test module against controller-runtime version into
// dir: base/ and, with converters, converters/ over it; a go.mod that
// requires version; go.sum and the rest of go.mod by go mod tidy
// (GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOWORK=off). A release the go
// command cannot get is an error wrapping ErrUnavailable.
func Write(ctx context.Context, dir, version string, converters bool) error {
	src := Source()
	if err := realapistest.CopyTree(filepath.Join(src, "base"), dir); err != nil {
		return err
	}
	if converters {
		if err := realapistest.CopyTree(filepath.Join(src, "converters"), dir); err != nil {
			return err
		}
	}
	// go 1.20: tidy raises it to what the release's dependencies need, as
	// a user's module has it
	mod := fmt.Sprintf("module example.com/crversions\n\ngo 1.20\n\nrequire sigs.k8s.io/controller-runtime %s\n", version)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		for _, s := range unavailable {
			if strings.Contains(out.String(), s) {
				return fmt.Errorf("%w: go mod tidy with sigs.k8s.io/controller-runtime %s: %s", ErrUnavailable, version, lastLines(out.String()))
			}
		}
		return fmt.Errorf("go mod tidy with sigs.k8s.io/controller-runtime %s: %w\n%s", version, err, out.String())
	}
	return nil
}

// Module writes the test module against controller-runtime version into
// a temporary directory of t and returns it. When the go command cannot
// get the release, the test is skipped, with a line that says so; unless
// required (a release of the default subset) under CI=true, where it
// fails.
func Module(t testing.TB, version string, converters, required bool) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	start := time.Now()
	err := Write(context.Background(), dir, version, converters)
	if errors.Is(err, ErrUnavailable) {
		if required && os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: %v", err)
		}
		t.Skipf("skipped: the go command could not get controller-runtime %s: %v", version, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the test module against controller-runtime %s: go mod tidy in %s", version, time.Since(start).Round(time.Millisecond))
	return dir
}

// lastLines is the end of the go command's output, on one line.
func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, "; ")
}

// secondConverter registers testdata/convreg's Gadget Converter a second
// time, for v1beta1's Go type: the same group/kind, which
// controller-runtime's Registry refuses ("converter already registered").
const secondConverter = `package webhooks

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/convreg/api/v1beta1"
	"example.com/convreg/internal/conversion"
)

// SetupGadgetAgain registers the Gadget Converter again.
func SetupGadgetAgain(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &v1beta1.Gadget{}).
		WithConverter(conversion.Gadget).
		Complete()
}
`

// AddSecondConverter writes, into dir (a copy of testdata/convreg),
// internal/webhooks/again.go: a second WithConverter for Gadget, whose
// call is at line 13, column 3.
func AddSecondConverter(t testing.TB, dir string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "internal", "webhooks", "again.go"), []byte(secondConverter), 0o644); err != nil {
		t.Fatal(err)
	}
}

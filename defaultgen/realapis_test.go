package defaultgen_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
)

// TestRealAPIs runs the defaults generator on the real API modules of the
// test corpus (internal/testsupport/realapis: gateway-api, prometheus-operator,
// cluster-api) with the options their projects use, and checks the code
// it writes: it has no run-time failure path (no json.Unmarshal, no panic;
// resource.MustParse only of strings the generator parsed), and it
// compiles with each package (go build -overlay, the module cache being
// read-only).
func TestRealAPIs(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches real API modules; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
	defer cancel()
	ws, err := realapis.Prepare(ctx, t.TempDir(), realapis.Default()...)
	if err != nil {
		if errors.Is(err, realapis.ErrFetch) && os.Getenv("CI") != "true" {
			t.Skipf("the Go module proxy refused a module and the cache does not hold it (under CI=true this fails):\n%v", err)
		}
		t.Fatal(err)
	}
	for _, m := range ws.Modules {
		t.Run(m.Name, func(t *testing.T) {
			start := time.Now()
			out, errs, failed := runDefaults(t, &packages.Config{Dir: ws.Dir, Env: ws.Env}, m.Patterns()...)
			if failed {
				t.Fatalf("defaults failed on %s:\n%s", m, errs)
			}
			t.Logf("%s: %d files in %s", m, len(out), time.Since(start).Round(time.Millisecond))
			if len(out) == 0 {
				t.Fatalf("no file generated for %s", m)
			}
			mustParse := regexp.MustCompile(`resource\.MustParse\("[^"]*"\)`)
			for path, b := range out {
				src := b.String()
				for _, bad := range []string{"panic(", "json.Unmarshal", "encoding/json"} {
					if strings.Contains(src, bad) {
						t.Errorf("%s: the generated code has %s", path, bad)
					}
				}
				if n := strings.Count(src, "MustParse("); n != len(mustParse.FindAllString(src, -1)) {
					t.Errorf("%s: a MustParse of something else than a string constant", path)
				}
			}
			compileIn(ctx, t, ws, m, out)
		})
	}
}

// compileIn builds m's API packages with the generated files added: in a
// writable copy of the module (the module cache is read-only, and go build
// -overlay refuses files under it), which a copy of the workspace's go.mod
// replaces m with.
func compileIn(ctx context.Context, t *testing.T, ws *realapis.Workspace, m realapis.Module, files capture) {
	t.Helper()
	list := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}", m.Path)
	list.Dir, list.Env = ws.Dir, ws.Env
	b, err := list.Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", m.Path, err)
	}
	modDir := strings.TrimSpace(string(b))
	tmp := t.TempDir()
	copyDir := filepath.Join(tmp, "module")
	if out, err := exec.CommandContext(ctx, "cp", "-R", modDir, copyDir).CombinedOutput(); err != nil {
		t.Fatalf("copying %s: %v\n%s", modDir, err, out)
	}
	if out, err := exec.CommandContext(ctx, "chmod", "-R", "u+w", copyDir).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}
	for path, b := range files {
		rel, err := filepath.Rel(modDir, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("%s is not in %s", path, modDir)
		}
		if err := os.WriteFile(filepath.Join(copyDir, rel), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wsCopy := filepath.Join(tmp, "workspace")
	if err := os.MkdirAll(wsCopy, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(ws.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wsCopy, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := realapis.GoEnv("-mod=mod")
	for _, args := range [][]string{
		{"mod", "edit", "-replace", m.Path + "=" + copyDir},
		append([]string{"build"}, m.Patterns()...),
	} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = wsCopy, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// binary builds the command once per test run.
func binary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "controller-gen-default")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func run(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.." // the module root, as users run it
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestCLI(t *testing.T) {
	bin := binary(t)

	t.Run("generates the example API", func(t *testing.T) {
		out := t.TempDir()
		_, stderr, code := run(t, bin, "crd", "paths=./testdata/api/...", "output:crd:dir="+out)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		files, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
		golden, _ := filepath.Glob("../../testdata/golden/*.yaml")
		if len(files) == 0 || len(files) != len(golden) {
			t.Fatalf("wrote %d CRDs, want %d (the goldens)", len(files), len(golden))
		}
		for _, g := range golden {
			want, _ := os.ReadFile(g)
			got, _ := os.ReadFile(filepath.Join(out, filepath.Base(g)))
			if !bytes.Equal(want, got) {
				t.Errorf("%s: the command's output differs from the golden file", filepath.Base(g))
			}
		}
	})

	t.Run("errors write nothing and keep existing files", func(t *testing.T) {
		out := t.TempDir()
		existing := filepath.Join(out, "forbidden.example.com_invalids.yaml")
		if err := os.WriteFile(existing, []byte("old content\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := run(t, bin, "rbac:roleName=manager-role", "crd", "paths=./testdata/forbidden/...", "output:crd:dir="+out, "output:rbac:dir="+out)
		if code == 0 {
			t.Fatalf("exit 0, want an error:\n%s", stderr)
		}
		if !regexp.MustCompile(`(?m)^testdata/forbidden/v1/types\.go:\d+:\d+: error: `).MatchString(stderr) {
			t.Errorf("stderr has no file:line:col error:\n%s", stderr)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 {
			t.Errorf("output dir has %d entries, want only the existing file", len(entries))
		}
		if b, _ := os.ReadFile(existing); string(b) != "old content\n" {
			t.Errorf("existing file changed: %q", b)
		}
	})

	t.Run("marker help lists +default", func(t *testing.T) {
		_, stderr, code := run(t, bin, "crd", "-w")
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
		for _, m := range []string{"+default=<string>", "+implicitDefaults=<bool>", "+kubebuilder:default=<any>"} {
			if !strings.Contains(stderr, m) {
				t.Errorf("crd -w does not list %s", m)
			}
		}
	})
}

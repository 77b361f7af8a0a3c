package main_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/testkit"
)

// binary is the command, with controller-gen-default-objects next to
// it as go install and make build put them, built once for the go test
// run (internal/testsupport/testkit). Under -short it skips the test: building the two
// takes about 15 s on 2 cores, and the generators' own tests
// (crdgen, defaultgen) and this package's in-process tests stay in the
// unit tier.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: builds controller-gen-default and controller-gen-default-objects: run without -short (make test-integration)")
	}
	return testkit.Binary(t, testkit.Generator)
}

func run(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = "../.." // the module root, as users run it
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
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

	t.Run("defaults alone refuses bad markers at file:line and writes nothing", func(t *testing.T) {
		out := t.TempDir()
		_, stderr, code := run(t, bin, "object", "defaults", "paths=./testdata/forbidden/...", "output:dir="+out)
		if code == 0 {
			t.Fatalf("exit 0, want an error:\n%s", stderr)
		}
		for _, re := range []string{
			`(?m)^testdata/forbidden/v1/types\.go:\d+:\d+: error: BadMarkerSpec\.Twice \(spec\.twice\): two different defaults: .*\[conflicting-defaults\]$`,
			`(?m)^testdata/forbidden/v1/types\.go:\d+:\d+: error: BadMarkerSpec\.Count \(spec\.count\): \+default="three": .*\[default-type-mismatch\]$`,
			`(?m)^testdata/forbidden/v1/types\.go:\d+:\d+: error: BadMarkerSpec\.Small \(spec\.small\): \+default=128: 128 does not fit in an int8 \(-128 to 127\) \[default-type-mismatch\]$`,
		} {
			if !regexp.MustCompile(re).MatchString(stderr) {
				t.Errorf("stderr lacks %s:\n%s", re, stderr)
			}
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("wrote %d files despite errors", len(entries))
		}
		if _, err := os.Stat("../../testdata/forbidden/v1/zz_generated.defaults.go"); err == nil {
			t.Error("wrote testdata/forbidden/v1/zz_generated.defaults.go despite errors")
		}
		// crd and defaults in one run: each error once
		_, stderr, _ = run(t, bin, "crd", "defaults", "paths=./testdata/forbidden/...", "output:dir="+out)
		if n := strings.Count(stderr, "BadMarkerSpec.Twice (spec.twice): two different defaults"); n != 1 {
			t.Errorf("crd defaults printed the conflict %d times, want once:\n%s", n, stderr)
		}
		seen := map[string]int{}
		for _, line := range strings.Split(stderr, "\n") {
			if strings.Contains(line, ": error: ") || strings.Contains(line, ": warning: ") {
				if seen[line]++; seen[line] == 2 {
					t.Errorf("crd defaults printed twice: %s", line)
				}
			}
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

	t.Run("normalize runs controller-gen-default-objects", func(t *testing.T) {
		crd := "testdata/golden/features.example.com_gadgets.yaml"
		stdout, stderr, code := run(t, bin, "normalize", "--crd", crd, "internal/apiserver/objectpath/testdata/broken.yaml")
		if code != 2 || !strings.Contains(stderr, "internal/apiserver/objectpath/testdata/broken.yaml") || stdout != "" {
			t.Errorf("unparsable input: exit %d, stdout %q, stderr %q; want exit 2 naming the file", code, stdout, stderr)
		}
		// An invalid object: its exit status (1), stdout and stderr come through.
		obj := `{"apiVersion":"features.example.com/v1","kind":"Gadget","metadata":{"name":"g"}}`
		cmd := exec.Command(bin, "normalize", "--crd", crd, "-o", "json", "-")
		var o, e bytes.Buffer
		cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = "../..", strings.NewReader(obj), &o, &e
		err := cmd.Run()
		if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 1 ||
			!strings.Contains(o.String(), `"namespace":"default"`) || e.String() != "-:1: spec: Required value\n" {
			t.Errorf("normalize from stdin: %v\nstdout %s\nstderr %q", err, o.String(), e.String())
		}
	})

	t.Run("impact runs controller-gen-default-objects impact", func(t *testing.T) {
		old, new := "internal/impact/testdata/old.yaml", "internal/impact/testdata/new.yaml"
		stdout, stderr, code := run(t, bin, "impact", "--old", old, "--new", new, "internal/impact/testdata/objects.yaml")
		if code != 1 || stderr != "" || !strings.Contains(stdout, "internal/impact/testdata/objects.yaml:3: Widget default/legacy (impact.example.com/v1): loses fields: loses spec.legacy\n") {
			t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1 and a line for the object that loses spec.legacy", code, stderr, stdout)
		}
		_, stderr, code = run(t, bin, "impact", "--old", old, "--new", new, "internal/impact/testdata/nocrd.yaml")
		if code != 2 || !strings.Contains(stderr, "no served CRD version") {
			t.Errorf("an object without a CRD: exit %d, stderr %q; want exit 2", code, stderr)
		}
	})

	t.Run("normalize and impact without controller-gen-default-objects say how to install it", func(t *testing.T) {
		alone := filepath.Join(t.TempDir(), "controller-gen-default")
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(alone, b, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, sub := range []string{"normalize", "impact"} {
			cmd := exec.Command(alone, sub, "--crd", "x")
			cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
			var e bytes.Buffer
			cmd.Stderr = &e
			err = cmd.Run()
			if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 2 || !strings.HasPrefix(e.String(), "controller-gen-default "+sub+": ") ||
				!strings.Contains(e.String(), "go install github.com/controller-gen-default/controller-gen-default/cmd/controller-gen-default-objects@") {
				t.Errorf("%s: err %v, stderr %q; want exit 2 and the go install line", sub, err, e.String())
			}
		}
	})
}

// module is this module's path.
const module = "github.com/controller-gen-default/controller-gen-default"

// TestNoStorageLayer keeps the apiserver's storage layer, which only
// controller-gen-default-objects needs, out of the generator: linking it
// costs every run 13 MiB of resident memory. The generator links the CRD
// checks (internal/apiserver/crdcheck), never the object path nor the
// object commands (docs/architecture.md).
func TestNoStorageLayer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list -deps listed %d packages", len(deps))
	}
	for _, d := range deps {
		for _, bad := range []string{"k8s.io/apiserver/pkg/storage", "k8s.io/apiserver/pkg/registry", "go.etcd.io/etcd/", "k8s.io/client-go/informers",
			module + "/internal/apiserver/objectpath", module + "/internal/normalize", module + "/internal/impact", module + "/internal/conversion", module + "/internal/convprog"} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("controller-gen-default links %s", d)
			}
		}
	}
}

// TestDangerousTypesFix: on a package with a float field, controller-tools'
// parser fails the run and says which option to re-run with: an option of
// a generator of the run. Each run here does what the message says (the
// option added to the generator's argument), and must then succeed and
// write its files. `defaults
// crd:allowDangerousTypes=true`, what the message said to a defaults run
// before, works too: defaults takes crd's option.
func TestDangerousTypesFix(t *testing.T) {
	bin := binary(t)
	const paths = "paths=./cmd/controller-gen-default/testdata/floats/..."
	fix := regexp.MustCompile(`re-run with (\w+):(\w+=\w+)`)
	for _, gens := range [][]string{{"defaults"}, {"crd", "defaults"}, {"defaults", "crd"}, {"crd"}, {"object", "defaults"}} {
		t.Run(strings.Join(gens, " "), func(t *testing.T) {
			out := t.TempDir()
			_, stderr, code := run(t, bin, append(slices.Clone(gens), paths, "output:dir="+out)...)
			m := fix.FindStringSubmatch(stderr)
			if code != 1 || m == nil {
				t.Fatalf("exit %d, want 1 and the fix:\n%s", code, stderr)
			}
			if !slices.Contains(gens, m[1]) {
				// following it would add a generator, and its files, to the run
				t.Errorf("the fix names %s:%s, a generator the run does not have", m[1], m[2])
			}
			args := slices.Clone(gens)
			if i := slices.Index(args, m[1]); i >= 0 {
				args[i] += ":" + m[2]
			} else {
				args = append(args, m[1]+":"+m[2])
			}
			_, stderr, code = run(t, bin, append(args, paths, "output:dir="+out)...)
			if code != 0 {
				t.Fatalf("%s: exit %d:\n%s", strings.Join(args, " "), code, stderr)
			}
			for _, g := range gens {
				file := map[string]string{"crd": "floats.example.com_gauges.yaml", "defaults": "zz_generated.defaults.go", "object": "zz_generated.deepcopy.go"}[g]
				if _, err := os.Stat(filepath.Join(out, file)); err != nil {
					t.Errorf("%s: %v", strings.Join(args, " "), err)
				}
			}
		})
	}
	out := t.TempDir()
	if _, stderr, code := run(t, bin, "defaults", "crd:allowDangerousTypes=true", paths, "output:dir="+out); code != 0 {
		t.Errorf("defaults crd:allowDangerousTypes=true: exit %d\n%s", code, stderr)
	}
}

// TestSubcommandArguments: every subcommand is given the arguments after
// its name, whatever they are: `normalize impact` reads a file named
// impact (it ran impact before: normalize's arguments were passed on
// without its name, and impact's with it).
func TestSubcommandArguments(t *testing.T) {
	bin := binary(t)
	_, stderr, code := run(t, bin, "normalize", "impact", "--crd", "testdata/golden")
	if code == 0 || !strings.Contains(stderr, "impact") || strings.Contains(stderr, "--old") {
		t.Errorf("normalize impact: exit %d, want normalize's error about the file impact:\n%s", code, stderr)
	}
	_, stderr, code = run(t, bin, "impact", "--new", "testdata/golden")
	if code == 0 || !strings.Contains(stderr, "--old") {
		t.Errorf("impact without --old: exit %d, want impact's error:\n%s", code, stderr)
	}
}

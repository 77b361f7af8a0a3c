package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoVet runs `go vet -vettool` with this command built.
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the vet tool")
	}
	tool := filepath.Join(t.TempDir(), "controller-gen-default-vet")
	if out, err := exec.Command("go", "build", "-o", tool, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	vet := func(args ...string) (string, int) {
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + tool}, args...)...)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if ee, ok := errors.AsType[*exec.ExitError](err); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	out, code := vet("./lint/testdata/src/conflictingdefaults")
	want := "lint/testdata/src/conflictingdefaults/types.go:11:2: error: Spec.Twice: two different defaults: +default=1 and +kubebuilder:default=2; keep one [conflicting-defaults]"
	if code == 0 || !strings.Contains(out, want) {
		t.Errorf("go vet: exit %d\n%s\nwant a line\n%s", code, out, want)
	}
	if out, code := vet("./lint/testdata/src/clean"); code != 0 {
		t.Errorf("go vet on a clean package: exit %d\n%s", code, out)
	}
	// go vet analyses the package with its tests; a test's types are in no CRD.
	if out, code := vet("./lint/testdata/src/testfiles"); code != 0 {
		t.Errorf("go vet on a package whose tests break the rules: exit %d\n%s", code, out)
	}
	// The files of the build go vet analyses, and none outside it.
	tagged := "lint/testdata/src/buildtags/tagged.go:7:2: error: Tagged.Entry: "
	untagged := "lint/testdata/src/buildtags/untagged.go:7:2: error: Untagged.Entry: "
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"./lint/testdata/src/buildtags"}, untagged, tagged},
		{[]string{"-tags", "kepdefaults_tagged", "./lint/testdata/src/buildtags"}, tagged, untagged},
	} {
		out, code := vet(c.args...)
		if code == 0 || !strings.Contains(out, c.want) || strings.Contains(out, c.not) {
			t.Errorf("go vet %s: exit %d\n%s\nwant a line starting\n%s\nand none starting\n%s", strings.Join(c.args, " "), code, out, c.want, c.not)
		}
	}
}

package main_test

import (
	"strings"
	"testing"
)

// TestLintSubcommand: `controller-gen-default lint` is lint.Main (tested in
// package lint): exit status and go vet style lines through the binary.
func TestLintSubcommand(t *testing.T) {
	bin := binary(t)
	stdout, stderr, code := run(t, bin, "lint", "./lint/testdata/src/conflictingdefaults")
	want := "lint/testdata/src/conflictingdefaults/types.go:8:2: error: Spec.Twice: two different defaults: +default=1 and +kubebuilder:default=2; keep one [conflicting-defaults]\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, stdout, stderr, want)
	}
	if _, stderr, code := run(t, bin, "lint", "./lint/testdata/src/clean"); code != 0 || stderr != "" {
		t.Errorf("clean: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, bin, "lint"); code != 2 || !strings.Contains(stderr, "usage: controller-gen-default lint") {
		t.Errorf("no packages: exit %d\n%s", code, stderr)
	}
}

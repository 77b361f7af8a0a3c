package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoKlogOnStderr runs the binary on an update whose errors the
// apiserver's code logs through klog (rest.BeforeUpdate logs each error
// reported twice: an invalid label is, by the strategy and by
// rest.ValidateUpdate): stderr holds nothing but what the command reports.
func TestNoKlogOnStderr(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "controller-gen-default-normalize")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	testdata := "../../normalize/impact/testdata/"
	cmd := exec.Command(bin, "impact", "--old", testdata+"old.yaml", "--new", testdata+"new.yaml", "-")
	cmd.Stdin = strings.NewReader("apiVersion: impact.example.com/v1\nkind: Widget\nmetadata: {name: a, labels: {k: has space}}\nspec: {color: red}\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, stderr %q; want exit 1", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), `metadata.labels: Invalid value: "has space"`) {
		t.Errorf("stdout lacks the label error:\n%s", stdout.String())
	}
}

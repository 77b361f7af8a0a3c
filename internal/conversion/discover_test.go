package conversion

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog/convprogtest"
)

// copyConvreg copies testdata/convreg (reg.example.com Gadget, converted by
// a Converter registered with WithConverter; cmd/main.go calls
// conversion.SetUnit, which the hub → v1beta1 conversion needs) to a
// temporary directory and makes it the working directory.
func copyConvreg(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convreg"))
	if err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	copyTree(t, src, dst)
	t.Chdir(dst)
	return dst
}

// TestConvregSetup: conversion ./... at the module's root finds the
// Converter registered with WithConverter; with --setup it finds the
// color that v1beta1 loses; without it, the hub → v1beta1 conversions fail
// for want of main's conversion.SetUnit, reported as
// conversion-needs-setup at main's call.
func TestConvregSetup(t *testing.T) {
	skipBuilds(t, "builds the conversion program of testdata/convreg")
	copyConvreg(t)
	color := fieldPos(t, "api/v1/gadget_types.go", "Color string")
	setUnit := fieldPos(t, "cmd/main.go", "conversion.SetUnit")

	o := options("./...")
	o.Rounds, o.Setup = 20, "example.com/convreg/convsetup.Setup"
	code, stdout, stderr := run(t, o)
	if code != ExitFindings {
		t.Fatalf("--setup: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFindings, stdout, stderr)
	}
	if !strings.Contains(stdout, color+": error: GadgetSpec.Color (spec.color): lost in a round trip v1 → v1beta1 → v1") {
		t.Errorf("--setup: no loss of color at %s:\n%s", color, stdout)
	}
	for _, bad := range []string{RuleNeedsSetup, RuleFailed} {
		if strings.Contains(stdout, bad) {
			t.Errorf("--setup: a %s finding:\n%s", bad, stdout)
		}
	}
	if strings.Contains(stderr, "main calls") {
		t.Errorf("--setup: the setup note is shown:\n%s", stderr)
	}
	if !strings.Contains(stderr, "convprog: building the conversion program for example.com/convreg:") && !strings.Contains(stderr, "note:") {
		t.Logf("stderr:\n%s", stderr)
	}

	o.Setup = ""
	code, stdout, stderr = run(t, o)
	if code != ExitFindings {
		t.Fatalf("without --setup: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFindings, stdout, stderr)
	}
	note := setUnit + ": note: main calls conversion.SetUnit, which sets state the conversions read (unit); the conversion program does not run main: name a function that makes this call with --setup (docs/conversion.md#setup)"
	if !strings.Contains(stderr, note) {
		t.Errorf("without --setup: stderr lacks\n%s\n:\n%s", note, stderr)
	}
	// one finding for main's one setup call, naming the kind, versions
	// and count, without the objects
	found := 0
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if strings.HasSuffix(l, "["+RuleFailed+"]") {
			t.Errorf("without --setup: a plain failure: %s", l)
		}
		if !strings.HasSuffix(l, "["+RuleNeedsSetup+"]") {
			continue
		}
		found++
		if !strings.HasPrefix(l, setUnit+": error: conversion.SetUnit: the conversions of ") ||
			!strings.Contains(l, "fail in this run, which lacks main's setup, so whether they fail with it is unknown: Gadget.reg.example.com (") ||
			!strings.Contains(l, "objects from v1 to v1beta1); errors: unit not set (") || !strings.Contains(l, "main calls conversion.SetUnit") || !strings.Contains(l, "--setup") {
			t.Errorf("without --setup: %s", l)
		}
		if strings.Contains(l, `"apiVersion"`) || len(l) > 1000 {
			t.Errorf("without --setup: an object in the text (%d bytes): %s", len(l), l)
		}
	}
	if found != 1 {
		t.Errorf("without --setup: %d %s findings, want 1 at %s:\n%s", found, RuleNeedsSetup, setUnit, stdout)
	}
	o.Output = "json"
	_, stdout, _ = run(t, o)
	var fs []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Rule == RuleNeedsSetup && (f.Witness == nil || len(f.Values) != 1) {
			t.Errorf("-o json: %s without its example object: witness %v, values %v", f.Rule, f.Witness, f.Values)
		}
	}
}

// TestNothingConverts: on a module whose API converts nothing, conversion
// ./... says so and exits 0 without building the program or generating
// CRDs.
func TestNothingConverts(t *testing.T) {
	dir := copyConvreg(t)
	for _, rm := range []string{"internal", "cmd", "convsetup"} {
		if err := os.RemoveAll(filepath.Join(dir, rm)); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := run(t, options("./..."))
	if code != ExitClean || stdout != "" {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "note: nothing in ./... converts between versions") {
		t.Errorf("stderr lacks the note:\n%s", stderr)
	}
	if strings.Contains(stderr, "convprog:") {
		t.Errorf("the program was built:\n%s", stderr)
	}
	if strings.Contains(stderr, "seed") {
		t.Errorf("a seed line for objects that were not made:\n%s", stderr)
	}
}

// TestDuplicateConverter: two WithConverter calls for one group/kind stop
// the run with exit 2, naming both registrations, as the manager refuses
// to start; no finding is made from the half that registered.
func TestDuplicateConverter(t *testing.T) {
	skipBuilds(t, "builds the conversion program of testdata/convreg")
	dir := copyConvreg(t)
	convprogtest.AddSecondConverter(t, dir)
	o := options("./...")
	o.Setup = "example.com/convreg/convsetup.Setup"
	code, stdout, stderr := run(t, o)
	want := "controller-gen-default conversion: " + filepath.Join("internal", "webhooks", "again.go") + ":13:3: WithConverter registers a Converter for Gadget.reg.example.com, " +
		"which WithConverter at " + filepath.Join("internal", "webhooks", "gadget.go") + ":15:3 registers too"
	if code != ExitUsage || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s\nwant it to contain:\n%s", code, ExitUsage, stdout, stderr, want)
	}
}

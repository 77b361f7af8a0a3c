package conversion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// copyConvapi copies testdata/convapi's module (its API packages, CRDs,
// go.mod and go.sum) to a temporary directory, and makes it the working
// directory, as a user runs the command from their module.
func copyConvapi(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "convapi")
	dst := t.TempDir()
	for _, rel := range []string{"go.mod", "go.sum", "api", "config"} {
		copyTree(t, filepath.Join(src, rel), filepath.Join(dst, rel))
	}
	t.Chdir(dst)
	return dst
}

// fieldPos is where the line of file that contains decl starts its
// declaration: FILE:LINE:COL, as findings write it.
func fieldPos(t *testing.T, file, decl string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if j := strings.Index(line, decl); j >= 0 {
			return fmt.Sprintf("%s:%d:%d", file, i+1, j+1)
		}
	}
	t.Fatalf("%s: no line with %q", file, decl)
	return ""
}

// edit replaces old with new in file, once.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s: no %q", file, old)
	}
	if err := os.WriteFile(file, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// run runs Report with o, and returns the exit status, stdout and stderr.
func run(t *testing.T, o Options) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Report(t.Context(), o, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// options are the command's defaults (--seed 1, --rounds 100, -o text) on
// patterns.
func options(patterns ...string) Options {
	return Options{Patterns: patterns, Seed: 1, Rounds: 100, Output: "text"}
}

// TestConvapi runs the command on testdata/convapi: the color that v1beta1
// cannot hold is lost, mode's defaults disagree, and the rename of length
// to size round-trips; once the conversions keep color in an annotation
// and the defaults agree, it finds nothing.
func TestConvapi(t *testing.T) {
	skipBuilds(t, "builds the conversion program of testdata/convapi")
	copyConvapi(t)
	color := fieldPos(t, "api/v1/widget_types.go", "Color string")
	modeV1 := fieldPos(t, "api/v1/widget_types.go", "Mode string")
	modeBeta := fieldPos(t, "api/v1beta1/widget_types.go", "Mode string")

	o := options("./api/...")
	o.Rounds = 30
	code, stdout, stderr := run(t, o)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFindings, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	// by position: v1's mode (line 17), v1's color (21), v1beta1's mode
	want := []string{
		modeV1 + `: error: WidgetSpec.Mode (spec.mode): defaults disagree across versions: v1 defaults "slow", v1beta1 defaults "fast" (` + modeBeta + `); an object created at v1 without it stores spec.mode "slow", at v1beta1 "fast" [conversion-default-mismatch]`,
		color + `: error: WidgetSpec.Color (spec.color): lost in a round trip v1 → v1beta1 → v1: `,
		modeBeta + `: error: WidgetSpec.Mode (spec.mode): defaults disagree across versions: v1beta1 defaults "fast", v1 defaults "slow" (` + modeV1 + `); an object created at v1beta1 without it stores spec.mode "fast", at v1 "slow" (read at the storage version, v1) [conversion-default-mismatch]`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d findings, want %d:\n%s\nstderr:\n%s", len(lines), len(want), stdout, stderr)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("finding %d:\n%s\nwant\n%s", i, lines[i], w)
		}
	}
	if !strings.HasSuffix(lines[1], "[conversion-lost-field]") {
		t.Errorf("finding 1 has another rule: %s", lines[1])
	}
	for _, l := range lines {
		if strings.Contains(l, "spec.size") || strings.Contains(l, "spec.length") {
			t.Errorf("the rename of length to size is reported: %s", l)
		}
	}

	// -o json: the same findings, with their versions and values
	o.Output = "json"
	code, stdout, _ = run(t, o)
	var js []jsonFinding
	if err := json.Unmarshal([]byte(stdout), &js); err != nil || code != ExitFindings || len(js) != len(want) {
		t.Fatalf("-o json: exit %d, %v, %d findings:\n%s", code, err, len(js), stdout)
	}
	if f := js[1]; f.Rule != RuleLostField || f.Path != "spec.color" || fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column) != color ||
		strings.Join(f.Versions, ",") != "v1,v1beta1" || len(f.Values) != 2 || f.Values[1] != nil {
		t.Errorf("-o json: %+v", f)
	}
	if f := js[2]; f.Rule != RuleDefaultMismatch || fmt.Sprint(f.Values) != "[fast slow fast slow]" {
		t.Errorf("-o json: %+v", f)
	}

	// the same seed, the same findings
	_, again, _ := run(t, o)
	if again != stdout {
		t.Errorf("two runs with the same seed differ:\n%s\n%s", stdout, again)
	}

	// the fixes: color kept in an annotation, as cluster-api keeps what a
	// spoke cannot hold; mode's defaults agree
	edit(t, "api/v1beta1/widget_conversion.go", `	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	return nil
}

// ConvertFrom`, `	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	if c, ok := src.Annotations[colorAnnotation]; ok {
		dst.Spec.Color = c
		dst.Annotations = maps.Clone(src.Annotations)
		delete(dst.Annotations, colorAnnotation)
		if len(dst.Annotations) == 0 {
			dst.Annotations = nil
		}
	}
	return nil
}

const colorAnnotation = "conv.example.com/color"

// ConvertFrom`)
	edit(t, "api/v1beta1/widget_conversion.go", `	dst.Spec.Length = src.Spec.Size
	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	return nil`, `	dst.Spec.Length = src.Spec.Size
	dst.Spec.Mode = src.Spec.Mode
	dst.Status.Ready = src.Status.Ready
	if src.Spec.Color != "" {
		dst.Annotations = maps.Clone(src.Annotations)
		if dst.Annotations == nil {
			dst.Annotations = map[string]string{}
		}
		dst.Annotations[colorAnnotation] = src.Spec.Color
	}
	return nil`)
	edit(t, "api/v1beta1/widget_conversion.go", `import (`, "import (\n\t\"maps\"\n")
	edit(t, "api/v1beta1/widget_types.go", `+default="fast"`, `+default="slow"`)
	edit(t, "config/crd/conv.example.com_widgets.yaml", "default: fast", "default: slow")

	onDisk, seven := options("./api/..."), options("./api/...")
	onDisk.CRDs = []string{"config/crd"}
	seven.Seed, seven.Output = 7, "json"
	for _, o := range []Options{
		options("./api/..."), // CRDs generated in memory
		onDisk,               // the CRDs on disk
		seven,                // another seed
	} {
		o.Rounds = 30
		code, stdout, stderr = run(t, o)
		if code != ExitClean {
			t.Errorf("%+v after the fixes: exit %d\nstdout:\n%s\nstderr:\n%s", o, code, stdout, stderr)
		}
		seed := fmt.Sprint(o.Seed)
		if want := "conversion: seed " + seed + ": --seed " + seed + " --rounds 30 makes the same objects"; !strings.Contains(stderr, want) {
			t.Errorf("%+v: stderr does not say %q:\n%s", o, want, stderr)
		}
	}
}

// TestBuildError: conversion code that does not compile is exit 2, with
// the compiler's file:line:col in the user's module and nothing on stdout.
func TestBuildError(t *testing.T) {
	skipBuilds(t, "builds the conversion program of testdata/convapi")
	copyConvapi(t)
	//nolint:misspell // misspelt on purpose: a field the API lacks, to break the build
	edit(t, "api/v1beta1/widget_conversion.go", "dst.Spec.Size = src.Spec.Length", "dst.Spec.Size = src.Spec.Lenght")
	//nolint:misspell // misspelt on purpose: a field the API lacks, to break the build
	pos := fieldPos(t, "api/v1beta1/widget_conversion.go", "src.Spec.Lenght")
	pos = pos[:strings.LastIndexByte(pos, ':')] // the compiler's column is the selector's
	code, stdout, stderr := run(t, options("./api/..."))
	//nolint:misspell // misspelt on purpose: a field the API lacks, to break the build
	if code != ExitUsage || stdout != "" || !strings.Contains(stderr, pos+":") || !strings.Contains(stderr, "Lenght undefined") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant %s: ... Lenght undefined", code, stdout, stderr, pos)
	}
}

// copyTree copies the file or directory src to dst, writable
// (realapistest.CopyTree).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := realapistest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
}

// skipBuilds skips a test that builds a conversion program under -short
// and under build tag mutation (buildsLeftOut).
func skipBuilds(t *testing.T, why string) {
	t.Helper()
	if testing.Short() || buildsLeftOut {
		t.Skip(why)
	}
}

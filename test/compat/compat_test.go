package compat

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// refVersion is the controller-gen release controller-gen-default replaces.
const refVersion = realapis.ReferenceVersion

// TestByteIdentityWithControllerGen is the compatibility promise: on
// real API modules, controller-gen v0.23.0 `crd ... output:crd:dir=A` and
// controller-gen-default `crd:implicitDefaults=false ... output:crd:dir=B`
// write the same files with the same bytes. The modules of realapis.Default
// are prepared together, then those of realapis.Others each on its own.
func TestByteIdentityWithControllerGen(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches real API modules and runs two generators on them; skipped with -short")
	}
	ref := realapistest.ReferenceBinary(t, repoRoot(t))
	ours := realapistest.OursBinary(t)

	ctx := t.Context()
	start := time.Now()
	ws, err := realapis.Prepare(ctx, t.TempDir(), realapis.Default()...)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fetched and loaded %d API modules in %s", len(ws.Modules), time.Since(start).Round(time.Millisecond))

	for _, m := range ws.Modules {
		t.Run(m.Name, func(t *testing.T) { byteIdentity(t, ws, m, ref, ours) })
	}
	for _, m := range realapis.Others() {
		t.Run(m.Name, func(t *testing.T) {
			start := time.Now()
			ws, err := realapis.Prepare(t.Context(), t.TempDir(), m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("fetched and loaded %s in %s", m, time.Since(start).Round(time.Millisecond))
			byteIdentity(t, ws, m, ref, ours)
		})
	}
}

// byteIdentity generates m's CRDs with controller-gen ref and with ours
// (implicitDefaults=false) and compares the files.
func byteIdentity(t *testing.T, ws *realapis.Workspace, m realapis.Module, ref, ours string) {
	out := t.TempDir()
	dirA := filepath.Join(out, "controller-gen-"+refVersion)
	dirB := filepath.Join(out, "controller-gen-default")
	runGenerator(t, ws, ref, m.Args(dirA))
	runGenerator(t, ws, ours, m.Args(dirB, "implicitDefaults=false"))
	compareDirs(t, m, dirA, dirB, refDefaults(t, ws, m.Patterns()))
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root %s has no go.mod: %v", root, err)
	}
	return root
}

func runGenerator(t *testing.T, ws *realapis.Workspace, bin string, args []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := ws.Command(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	if err != nil {
		t.Fatalf("%s %s: %v after %s\n%s", filepath.Base(bin), strings.Join(args, " "), err, took, head(stderr.String(), 40))
	}
	t.Logf("%s %s: %s", filepath.Base(bin), strings.Join(args[:len(args)-1], " "), took)
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Logf("its stderr (%d lines):\n%s", strings.Count(s, "\n")+1, head(s, 10))
	}
}

// compareDirs requires a and b to hold the same files with the same bytes,
// and prints a diff of the first file that differs.
// Defaults evaluated from +default=ref(...) markers, which controller-gen
// drops, are the one accepted difference; they are listed in the log.
func compareDirs(t *testing.T, m realapis.Module, a, b string, refs map[string]bool) {
	t.Helper()
	filesA, filesB := realapistest.ListFiles(t, a), realapistest.ListFiles(t, b)
	if len(filesA) == 0 {
		t.Fatalf("controller-gen %s wrote no file for %s: the patterns %v match no CRD", refVersion, m, m.Patterns())
	}
	var onlyA, onlyB, common []string
	for _, f := range filesA {
		if slices.Contains(filesB, f) {
			common = append(common, f)
		} else {
			onlyA = append(onlyA, f)
		}
	}
	for _, f := range filesB {
		if !slices.Contains(filesA, f) {
			onlyB = append(onlyB, f)
		}
	}
	if len(onlyA) > 0 {
		t.Errorf("%s: written by controller-gen %s only: %s", m, refVersion, strings.Join(onlyA, ", "))
	}
	if len(onlyB) > 0 {
		t.Errorf("%s: written by controller-gen-default only: %s", m, strings.Join(onlyB, ", "))
	}
	var differ []string
	refOnly := 0
	for _, f := range common {
		ca, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		cb, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(ca, cb) {
			continue
		}
		if added, ok := onlyRefDefaults(ca, cb, refs); ok {
			t.Logf("%s: %s differs only by %d defaults from +default=ref(...) markers, which controller-gen drops: %s",
				m, f, len(added), strings.Join(added, "; "))
			refOnly++
			continue
		}
		if len(differ) == 0 {
			t.Errorf("%s: %s differs (controller-gen %s → controller-gen-default crd:implicitDefaults=false):\n%s",
				m, f, refVersion, unifiedDiff("controller-gen-"+refVersion+"/"+f, "controller-gen-default/"+f, ca, cb, 3, 120))
		}
		differ = append(differ, f)
	}
	if len(differ) > 0 {
		t.Errorf("%s: %d of %d files differ: %s", m, len(differ), len(common), strings.Join(differ, ", "))
	}
	if !t.Failed() {
		t.Logf("%s: %d files byte-identical, %d more identical but for ref() defaults", m, len(common)-refOnly, refOnly)
	}
}

func head(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n... (%d more lines)", len(lines)-n)
}

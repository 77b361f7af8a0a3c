package atomicout

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/genall"
)

func write(t *testing.T, r genall.OutputRule, path, content string) {
	t.Helper()
	w, err := r.Open(nil, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestNestedStaging stages into a Staging whose rule stages into another,
// as crdgen does inside the command: committing the inner one writes
// nothing yet, committing the outer one writes every file in order.
func TestNestedStaging(t *testing.T) {
	dir := t.TempDir()
	var outer, inner Staging
	outerRule := outer.Rule(genall.OutputToDirectory(dir))
	write(t, outerRule, "a.yaml", "a\n")
	write(t, inner.Rule(outerRule), "b.yaml", "b\n")
	if err := inner.Commit(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the inner commit wrote %d files; only the outer one may write", len(entries))
	}
	if err := outer.Commit(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.yaml": "a\n", "b.yaml": "b\n"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
}

// TestUncommittedWritesNothing: a run that fails never commits.
func TestUncommittedWritesNothing(t *testing.T) {
	dir := t.TempDir()
	var s Staging
	write(t, s.Rule(genall.OutputToDirectory(dir)), "a.yaml", "a\n")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("staging wrote %d files before Commit", len(entries))
	}
}

package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFiles: a directory is its .json, .yaml and .yml files, sorted, not
// its subdirectories; files and - stand for themselves, in order.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.yaml", "a.json", "c.YML", "notes.txt", "sub/d.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.yaml")
	got, err := Files([]string{"-", dir, missing})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.YML"), missing}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if _, err := Files([]string{filepath.Join(dir, "sub", "..", "sub")}); err != nil {
		t.Errorf("a directory with a .yaml file: %v", err)
	}
	empty := t.TempDir()
	if _, err := Files([]string{empty}); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("an empty directory: %v, want an error naming it", err)
	}
}

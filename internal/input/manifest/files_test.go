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
	got, err := Files([]string{"-", dir, missing}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"-", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.YML"), missing}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if _, err := Files([]string{filepath.Join(dir, "sub", "..", "sub")}, false); err != nil {
		t.Errorf("a directory with a .yaml file: %v", err)
	}
	empty := t.TempDir()
	if _, err := Files([]string{empty}, false); err == nil || !strings.Contains(err.Error(), empty) {
		t.Errorf("an empty directory: %v, want an error naming it", err)
	}
}

// TestFilesRecursive: kubectl's -R. Without it, a directory whose
// manifests are all in subdirectories is an error that says to use -R;
// with it, the subdirectories are read in kubectl's filepath.Walk order:
// each directory's entries by name, so dir/b/y.yaml comes before
// dir/b.yaml ("b" sorts before "b.yaml"), which a sort of whole paths
// would put first.
func TestFilesRecursive(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.yaml", "b/y.yaml", "a/x.json", "a/deep/z.yml", "a/notes.txt", "c/skip.txt"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files([]string{dir}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a", "deep", "z.yml"), filepath.Join(dir, "a", "x.json"),
		filepath.Join(dir, "b", "y.yaml"), filepath.Join(dir, "b.yaml")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Files(-R) = %q, want %q", got, want)
	}
	// without -R, the top level only, as today
	if got, err := Files([]string{dir}, false); err != nil || !reflect.DeepEqual(got, []string{filepath.Join(dir, "b.yaml")}) {
		t.Errorf("Files = %q, %v", got, err)
	}

	// only subfolders: refused without -R, with a hint; read with it
	nested := t.TempDir()
	for _, name := range []string{"team-a/w.yaml", "team-b/v.yaml"} {
		p := filepath.Join(nested, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Files([]string{nested}, false)
	if err == nil || !strings.Contains(err.Error(), "use -R (--recursive)") || !strings.Contains(err.Error(), "its subdirectories hold 2 ("+filepath.Join(nested, "team-a", "w.yaml")+", and 1 more)") {
		t.Errorf("subfolders only, without -R: %v, want the hint to use -R", err)
	}
	if got, err := Files([]string{nested}, true); err != nil || len(got) != 2 {
		t.Errorf("subfolders only, with -R: %q, %v", got, err)
	}
	// no manifest anywhere: the error says so, without the hint
	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Files([]string{bare}, false); err == nil || strings.Contains(err.Error(), "-R") {
		t.Errorf("no manifest, without -R: %v", err)
	}
	if _, err := Files([]string{bare}, true); err == nil || !strings.Contains(err.Error(), "in it or in its subdirectories") {
		t.Errorf("no manifest, with -R: %v", err)
	}
	// a symbolic link to a directory, given as the directory, is read
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(nested, link); err != nil {
		t.Skip(err)
	}
	if got, err := Files([]string{link}, true); err != nil || !reflect.DeepEqual(got, []string{filepath.Join(link, "team-a", "w.yaml"), filepath.Join(link, "team-b", "v.yaml")}) {
		t.Errorf("a link to a directory: %q, %v", got, err)
	}
}

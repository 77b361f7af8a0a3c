package gitfs

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// TestFS: each commit's tree, as io/fs's own conformance test
// (testing/fstest.TestFS) checks a file system: every file and directory
// listed, opened, read and statted consistently; the files of another
// commit, and of the working tree, are not there.
func TestFS(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	dir, commit := r.Dir, r.Commit
	first := commit(map[string]string{
		"config/crd/bases/a.yaml": "kind: A\n",
		"config/crd/bases/b.yml":  "kind: B\n",
		"go.mod":                  "module x\n",
	})
	second := commit(map[string]string{
		"config/crd/bases/b.yml":     "",
		"config/crd/bases/c.json":    "{}\n",
		"config/samples/s with.yaml": "kind: S\n",
	})
	// a file only in the working tree
	if err := os.WriteFile(filepath.Join(dir, "config/crd/bases/wip.yaml"), []byte("kind: W\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		ref     string
		files   []string
		content map[string]string
		absent  []string
	}{
		{first, []string{"config/crd/bases/a.yaml", "config/crd/bases/b.yml", "go.mod"},
			map[string]string{"config/crd/bases/b.yml": "kind: B\n"}, []string{"config/crd/bases/c.json", "config/samples"}},
		{"HEAD~1", []string{"config/crd/bases/b.yml"}, nil, []string{"config/crd/bases/c.json"}},
		{"main", []string{"config/crd/bases/a.yaml", "config/crd/bases/c.json", "config/samples/s with.yaml", "go.mod"},
			map[string]string{"config/samples/s with.yaml": "kind: S\n"}, []string{"config/crd/bases/b.yml", "config/crd/bases/wip.yaml"}},
		{second[:10], []string{"config/crd/bases/c.json"}, nil, nil},
	} {
		f, err := New(ctx, dir, c.ref)
		if err != nil {
			t.Fatalf("%s: %v", c.ref, err)
		}
		if err := fstest.TestFS(f, c.files...); err != nil {
			t.Errorf("%s: %v", c.ref, err)
		}
		for p, want := range c.content {
			got, err := fs.ReadFile(f, p)
			if err != nil || string(got) != want {
				t.Errorf("%s: %s = %q, %v; want %q", c.ref, p, got, err, want)
			}
		}
		for _, p := range c.absent {
			if _, err := fs.Stat(f, p); !os.IsNotExist(err) {
				t.Errorf("%s: %s: %v, want it absent", c.ref, p, err)
			}
		}
	}
	f, err := New(ctx, filepath.Join(dir, "config"), "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(f, "config/crd/bases/a.yaml"); err != nil {
		t.Errorf("run in a subdirectory, paths are from the top of the repository: %v", err)
	}
	if f.Commit() != second {
		t.Errorf("Commit() = %s, want %s", f.Commit(), second)
	}
}

// TestModes: executables are files, symbolic links are links to Lstat
// and ReadLink, and followed to Open and Stat (as the checked-out tree
// has them), and a directory cannot be read.
func TestModes(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	dir, commit := r.Dir, r.Commit
	// the executable and the link are made in the working tree first
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	r.Git("add", "run.sh", "link.yaml")
	commit(map[string]string{"a.yaml": "kind: A\n"})
	f, err := New(context.Background(), dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for p, want := range map[string]fs.FileMode{"a.yaml": 0o444, "run.sh": 0o555, "link.yaml": 0o444, ".": fs.ModeDir | 0o555} {
		st, err := fs.Stat(f, p)
		if err != nil || st.Mode() != want {
			t.Errorf("%s: mode %v, %v; want %v", p, st.Mode(), err, want)
		}
	}
	if st, err := fs.Lstat(f, "link.yaml"); err != nil || st.Mode() != fs.ModeSymlink|0o777 {
		t.Errorf("Lstat(link.yaml): %v, %v; want a link", st, err)
	}
	if target, err := fs.ReadLink(f, "link.yaml"); target != "a.yaml" || err != nil {
		t.Errorf("ReadLink(link.yaml) = %q, %v; want a.yaml", target, err)
	}
	if b, err := fs.ReadFile(f, "link.yaml"); string(b) != "kind: A\n" {
		t.Errorf("link.yaml reads %q, %v; want its target's content", b, err)
	}
	d, err := f.Open(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(make([]byte, 1)); err == nil {
		t.Error("a directory was read")
	}
}

// TestRefused: what is not a commit is refused with what git said, and a
// ref that git would read as an option never reaches it as one.
func TestRefused(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	dir := r.Dir
	r.Commit(map[string]string{"a.yaml": "kind: A\n"})
	blob := r.Git("rev-parse", "HEAD:a.yaml")
	for _, ref := range []string{"", "nosuchbranch", "--output=/tmp/x", "-h", blob} {
		_, err := New(context.Background(), dir, ref)
		if err == nil {
			t.Errorf("%q: no error", ref)
			continue
		}
		if !strings.Contains(err.Error(), "not a") {
			t.Errorf("%q: %v", ref, err)
		}
	}
	if _, err := New(context.Background(), t.TempDir(), "HEAD"); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
	f, err := New(context.Background(), dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/a.yaml", "../a.yaml", "a.yaml/", "nosuch"} {
		if _, err := f.Open(p); err == nil {
			t.Errorf("Open(%q): no error", p)
		}
	}
}

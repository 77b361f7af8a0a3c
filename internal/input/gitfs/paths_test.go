package gitfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// links makes symbolic links (name → target) in the working tree and
// adds them.
func links(t *testing.T, r *gitfstest.Repo, links map[string]string) {
	t.Helper()
	for name, target := range links {
		p := filepath.Join(r.Dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		r.Git("add", name)
	}
}

// TestSymlinks: symbolic links are followed as the checked-out tree
// follows them (to files, to directories, through links, with .. taken
// after the link as the kernel takes it): each path reads what the
// working tree reads. Links out of the repository (absolute, or climbing
// out) are refused naming the link and its target, and a loop is
// refused.
func TestSymlinks(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	links(t, r, map[string]string{
		"config/crd":        "../crds",                     // a directory
		"config/w.yaml":     "crd/widgets.yaml",            // through a link to a directory
		"config/chain.yaml": "w.yaml",                      // to a link
		"same.yaml":         "./crds/../crds/widgets.yaml", // with .. that stays in
		"config/up":         "crd/..",                      // .. after the link: crds/.. is the top
	})
	r.Commit(map[string]string{"crds/widgets.yaml": "kind: Widget\n"})
	f, err := New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range []string{"config/crd/widgets.yaml", "config/w.yaml", "config/chain.yaml", "same.yaml", "config/up/crds/widgets.yaml"} {
		want, err := os.ReadFile(filepath.Join(r.Dir, p))
		if err != nil {
			t.Fatalf("the working tree: %v", err)
		}
		if got, err := fs.ReadFile(f, p); string(got) != string(want) || err != nil {
			t.Errorf("%s = %q, %v; the working tree reads %q", p, got, err, want)
		}
	}
	if entries, err := fs.ReadDir(f, "config/crd"); err != nil || len(entries) != 1 || entries[0].Name() != "widgets.yaml" {
		t.Errorf("ReadDir(config/crd) = %v, %v; want widgets.yaml", entries, err)
	}
	if err := fstest.TestFS(f, "crds/widgets.yaml", "same.yaml", "config/chain.yaml"); err != nil {
		t.Error(err)
	}

	links(t, r, map[string]string{
		"bad/abs.yaml":   "/etc/passwd",
		"bad/out.yaml":   "../../outside.yaml",
		"bad/deep.yaml":  "../config/../../x.yaml",
		"bad/loop1.yaml": "loop2.yaml",
		"bad/loop2.yaml": "loop1.yaml",
		"bad/none.yaml":  "nosuch.yaml",
	})
	r.Commit(nil)
	f, err = New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for p, msg := range map[string]string{
		"bad/abs.yaml":   "symbolic link bad/abs.yaml at HEAD points to /etc/passwd, out of the repository",
		"bad/out.yaml":   "symbolic link bad/out.yaml at HEAD points to ../../outside.yaml, out of the repository",
		"bad/deep.yaml":  "symbolic link bad/deep.yaml at HEAD points to ../config/../../x.yaml, out of the repository",
		"bad/loop1.yaml": "more than 40 symbolic links on the way at HEAD (a loop?",
		"bad/none.yaml":  "file does not exist",
	} {
		_, err := fs.ReadFile(f, p)
		if err == nil || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "open "+p+": ") {
			t.Errorf("%s: %v; want it named, and %q", p, err, msg)
		}
		if p != "bad/loop1.yaml" && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v is not fs.ErrNotExist", p, err)
		}
	}
	if st, err := fs.Lstat(f, "bad/abs.yaml"); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a link out of the repository: %v, %v", st, err)
	}
}

// TestSubmodule: a path in a submodule (a gitlink: a commit of another
// repository) is refused naming the submodule, its commit and how to read
// it; the directory that holds it is there.
func TestSubmodule(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	sub := r.Commit(map[string]string{"a.yaml": "kind: A\n"}) // any commit will do
	r.Git("update-index", "--add", "--cacheinfo", "160000,"+sub+",vendor/crds")
	links(t, r, map[string]string{"crd": "vendor/crds/config"})
	r.Commit(nil)
	f, err := New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for p, inside := range map[string]string{
		"vendor/crds/config/crd.yaml": "config/crd.yaml",
		"vendor/crds":                 ".",
		"crd/crd.yaml":                "config/crd.yaml",
	} {
		_, err := f.Open(p)
		msg := "at HEAD is in submodule vendor/crds (commit " + sub + "), a repository of its own, which git:// does not read: " +
			"read it from the submodule's repository (there, as git://" + sub + "?path=" + inside + ")"
		if err == nil || !strings.Contains(err.Error(), msg) || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: %v; want %q", p, err, msg)
		}
	}
	if st, err := fs.Stat(f, "vendor"); err != nil || !st.IsDir() {
		t.Errorf("vendor: %v, %v; want a directory", st, err)
	}
}

// TestInvalidPaths: a path that is not one of the tree's (absolute,
// climbing out with ..) is refused saying that paths are relative to the
// top of the repository.
func TestInvalidPaths(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	r.Commit(map[string]string{"a.yaml": "kind: A\n"})
	f, err := New(context.Background(), r.Dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for p, why := range map[string]string{
		"/etc/passwd":    "/etc/passwd at HEAD: an absolute path, not in the tree",
		"../x.yaml":      "../x.yaml at HEAD: out of the repository",
		"a/../../x.yaml": "a/../../x.yaml at HEAD: out of the repository",
		"a/../a.yaml":    "a/../a.yaml at HEAD: a path with .., which the tree's paths do not have",
		"config/crd/":    "config/crd/ at HEAD: not a path of the tree",
	} {
		_, err := f.Open(p)
		const rule = "; paths are relative to the top of the repository, as in git show REF:PATH (config/crd/bases)"
		if err == nil || !strings.Contains(err.Error(), why+rule) || !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%s: %v; want %q", p, err, why+rule)
		}
	}
}

// TestMessageRef: :/TEXT names the youngest commit whose message matches
// TEXT, as git says; one that matches none is not a commit.
func TestMessageRef(t *testing.T) {
	t.Parallel()
	r := gitfstest.New(t)
	r.Commit(map[string]string{"a.yaml": "v1\n"})
	r.Write("a.yaml", "v2\n")
	r.Git("commit", "-q", "-am", "bump widgets to v2")
	r.Commit(map[string]string{"a.yaml": "v3\n"})
	for ref, want := range map[string]string{":/bump widgets": "v2\n", ":/^commit": "v3\n", ":/widgets to v[0-9]": "v2\n"} {
		f, err := New(context.Background(), r.Dir, ref)
		if err != nil {
			t.Errorf("%s: %v", ref, err)
			continue
		}
		if got, err := fs.ReadFile(f, "a.yaml"); string(got) != want || err != nil {
			t.Errorf("%s: a.yaml = %q, %v; want %q", ref, got, err, want)
		}
		f.Close()
	}
	if _, err := New(context.Background(), r.Dir, ":/no such message"); err == nil || !strings.Contains(err.Error(), `":/no such message" is not a commit`) {
		t.Errorf(":/ matching no commit: %v", err)
	}
}

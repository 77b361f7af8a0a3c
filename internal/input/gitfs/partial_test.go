package gitfs

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// partialClone clones src with --filter (blob:none, as CI checkouts
// often are, or tree:0) over file://, its HEAD checked out: what only
// other commits have is not there.
func partialClone(t *testing.T, src *gitfstest.Repo, filter string) string {
	t.Helper()
	src.Git("config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(t.TempDir(), "clone")
	src.Git("clone", "-q", "--filter="+filter, "file://"+src.Dir, dst)
	return dst
}

// objects lists the files of a repository's object store: a fetch adds
// some.
func objects(t *testing.T, repo string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(repo, ".git", "objects"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fetches are the git fetch processes started (lazy fetches).
func fetches(events []gitEvent) int {
	n := 0
	for _, e := range events {
		if (e.Event == "start" || e.Event == "child_start") && slices.Contains(e.Argv, "fetch") {
			n++
		}
	}
	return n
}

// TestPartialClone: in a clone with --filter=blob:none, reading a file
// whose blob the clone lacks fetches nothing (no git fetch started,
// nothing written to .git/objects), whether git knows GIT_NO_LAZY_FETCH
// or not (an FS whose env is empty, as for gits before it), and says
// which file is missing, why and how to get it; what the clone has reads.
// The advice given works. Serial: traceGit sets GIT_TRACE2_EVENT.
func TestPartialClone(t *testing.T) {
	src := gitfstest.New(t)
	src.Commit(map[string]string{"crd/a.yaml": "kind: A1\n", "crd/b.yaml": "kind: B\n", "crd/c.yaml": "kind: C1\n"})
	src.Commit(map[string]string{"crd/a.yaml": "kind: A2\n", "crd/c.yaml": "kind: C2\n"})
	clone := partialClone(t, src, "blob:none")
	before := objects(t, clone)
	events := traceGit(t)
	var commit string
	for _, e := range [][]string{nil, {}} { // lazy fetching off; nothing
		func() {
			f := &FS{ctx: context.Background(), dir: clone, ref: "HEAD~1", env: e}
			if err := f.read(); err != nil {
				t.Fatalf("env %q: %v", e, err)
			}
			defer f.Close()
			if got, err := fs.ReadFile(f, "crd/b.yaml"); string(got) != "kind: B\n" || err != nil {
				t.Errorf("env %q: crd/b.yaml (in the clone) = %q, %v", e, got, err)
			}
			_, err := fs.ReadFile(f, "crd/a.yaml")
			msg := "open crd/a.yaml: crd/a.yaml at HEAD~1 is not in this repository: it is a partial clone (git clone --filter), which fetches files when something needs them, and git:// fetches nothing; " +
				"fetch them first without touching the working tree (git archive " + f.Commit() + " crd >/dev/null fetches the directory's files), or clone without --filter"
			if err == nil || err.Error() != msg || !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("env %q: crd/a.yaml (not in the clone): %v\nwant %s", e, err, msg)
			}
			commit = f.Commit()
		}()
	}
	if n := fetches(events()); n != 0 {
		t.Errorf("%d git fetch started", n)
	}
	if after := objects(t, clone); !slices.Equal(before, after) {
		t.Errorf("objects written: %v", after[len(before):])
	}

	// the advice fetches what is missing
	if out, err := exec.Command("sh", "-c", "cd "+clone+" && git archive "+commit+" crd >/dev/null").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	f, err := New(context.Background(), clone, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, err := fs.ReadFile(f, "crd/c.yaml"); string(got) != "kind: C1\n" || err != nil {
		t.Errorf("crd/c.yaml after git archive: %q, %v", got, err)
	}
}

// TestLazyFetchOff: were a read of a missing blob to reach git
// cat-file (a git without GIT_NO_LAZY_FETCH, had the blob not been found
// missing first), the lazy fetch git starts fails before it connects
// (GIT_ALLOW_PROTOCOL empty), writing nothing; without that, it fetches,
// as the test sees. Serial: traceGit sets GIT_TRACE2_EVENT.
func TestLazyFetchOff(t *testing.T) {
	src := gitfstest.New(t)
	src.Commit(map[string]string{"crd/a.yaml": "kind: A1\n"})
	src.Commit(map[string]string{"crd/a.yaml": "kind: A2\n"})
	clone := partialClone(t, src, "blob:none")
	before := objects(t, clone)
	events := traceGit(t)
	old, err := New(context.Background(), clone, "HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	missing := old.entries["crd/a.yaml"]
	missing.missing, missing.size = false, int64(len("kind: A1\n"))
	read := func(env []string) error {
		f := *old
		f.env, f.blobs = env, &blobs{ctx: context.Background(), dir: clone, env: env}
		defer f.Close()
		_, err := io.ReadAll(&file{info: fileInfo{entry: missing}, fs: &f, path: "crd/a.yaml"})
		return err
	}
	if err := read([]string{noProtocol}); err == nil || !strings.Contains(err.Error(), "could not fetch") {
		t.Errorf("read of a missing blob, GIT_ALLOW_PROTOCOL empty: %v", err)
	}
	if after := objects(t, clone); !slices.Equal(before, after) {
		t.Errorf("objects written, GIT_ALLOW_PROTOCOL empty: %v", after[len(before):])
	}
	// without it, git fetches: the checks above would see it
	if err := read([]string{}); err != nil {
		t.Fatal(err)
	}
	if after := objects(t, clone); slices.Equal(before, after) || fetches(events()) == 0 {
		t.Error("a lazy fetch went unseen")
	}
}

// TestTreelessClone: in a clone with --filter=tree:0, a commit whose
// trees are not there is refused, fetching nothing, with how to get them;
// the advice works. Serial: traceGit sets GIT_TRACE2_EVENT.
func TestTreelessClone(t *testing.T) {
	src := gitfstest.New(t)
	src.Commit(map[string]string{"crd/a.yaml": "kind: A1\n"})
	src.Commit(map[string]string{"crd/a.yaml": "kind: A2\n"})
	clone := partialClone(t, src, "tree:0")
	before := objects(t, clone)
	events := traceGit(t)
	commit := strings.TrimSpace(string(must(exec.Command("git", "-C", clone, "rev-parse", "HEAD~1").Output())))
	_, err := New(context.Background(), clone, "HEAD~1")
	msg := "the tree of HEAD~1 (commit " + commit + ") is not all in this repository: it is a partial clone (git clone --filter), which fetches what it lacks when needed, and git:// fetches nothing; " +
		"fetch the tree first (git ls-tree -r " + commit + " >/dev/null), or clone without --filter"
	if err == nil || err.Error() != msg {
		t.Errorf("%v\nwant %s", err, msg)
	}
	if n := fetches(events()); n != 0 {
		t.Errorf("%d git fetch started", n)
	}
	if after := objects(t, clone); !slices.Equal(before, after) {
		t.Errorf("objects written: %v", after[len(before):])
	}
	if out, err := exec.Command("sh", "-c", "cd "+clone+" && git ls-tree -r "+commit+" >/dev/null").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	f, err := New(context.Background(), clone, "HEAD~1")
	if err != nil {
		t.Fatalf("after git ls-tree: %v", err)
	}
	defer f.Close()
	if _, err := fs.ReadFile(f, "crd/a.yaml"); err == nil || !strings.Contains(err.Error(), "crd/a.yaml at HEAD~1 is not in this repository") {
		t.Errorf("crd/a.yaml, its blob not fetched: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

package atomicout

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/genall"
)

// commitFiles commits name → content into dir through OutputToDirectory,
// as the command does, in the order given.
func commitFiles(t *testing.T, dir string, files ...string) error {
	t.Helper()
	return commitWith(t, dir, hooks{}, files...)
}

// commitWith is commitFiles with h watching the write.
func commitWith(t *testing.T, dir string, h hooks, files ...string) error {
	t.Helper()
	s := Staging{hooks: h}
	r := s.Rule(genall.OutputToDirectory(dir))
	for i := 0; i < len(files); i += 2 {
		write(t, r, files[i], files[i+1])
	}
	err := s.Commit()
	if len(reg.live) != 0 || reg.stop != nil {
		t.Errorf("after Commit: %d staged files registered, watcher running: %v", len(reg.live), reg.stop != nil)
	}
	return err
}

func mustWrite(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // whatever the umask
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// isLink fails unless path is still a symbolic link to target.
func isLink(t *testing.T, path, target string) {
	t.Helper()
	got, err := os.Readlink(path)
	if err != nil || got != target {
		t.Errorf("%s: link to %q, %v; want it kept, to %q", path, got, err, target)
	}
}

// names lists the entries of dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// noStaged fails if any directory under root holds a staged file.
func noStaged(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), stagedSuffix) {
			t.Errorf("staged file left: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSymlink: a CRD file that links elsewhere (a chart's copy) is written
// through, as controller-gen's os.Create does: the link stays, its target
// gets the content.
func TestSymlink(t *testing.T) {
	root := t.TempDir()
	bases, chart := filepath.Join(root, "bases"), filepath.Join(root, "chart")
	mustWrite(t, filepath.Join(chart, "a.yaml"), "stale\n", 0o644)
	mustLink(t, "../chart/a.yaml", filepath.Join(bases, "a.yaml"))
	if err := commitFiles(t, bases, "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	isLink(t, filepath.Join(bases, "a.yaml"), "../chart/a.yaml")
	if got := content(t, filepath.Join(chart, "a.yaml")); got != "new\n" {
		t.Errorf("the link's target has %q, want the new content", got)
	}
	if n := names(t, chart); !slices.Equal(n, []string{"a.yaml"}) {
		t.Errorf("chart holds %v, want only a.yaml", n)
	}
}

// TestSymlinkChain: a link to a link to a file, relative then absolute; the
// final target is written and both links stay.
func TestSymlinkChain(t *testing.T) {
	root := t.TempDir()
	final := filepath.Join(root, "chart", "templates", "crd.yaml")
	mustWrite(t, final, "stale\n", 0o644)
	mustLink(t, final, filepath.Join(root, "mid", "a.yaml"))
	mustLink(t, "../mid/a.yaml", filepath.Join(root, "bases", "a.yaml"))
	if err := commitFiles(t, filepath.Join(root, "bases"), "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	isLink(t, filepath.Join(root, "bases", "a.yaml"), "../mid/a.yaml")
	isLink(t, filepath.Join(root, "mid", "a.yaml"), final)
	if got := content(t, final); got != "new\n" {
		t.Errorf("the chain's final target has %q, want the new content", got)
	}
	noStaged(t, root)
}

// TestSymlinkInLinkedDirectory: a relative link is resolved as the kernel
// does, from the directory it really is in: "../chart" from a directory
// reached through a link is next to that directory's target, not next to
// the link.
func TestSymlinkInLinkedDirectory(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "real", "chart", "a.yaml"), "stale\n", 0o644)
	mustWrite(t, filepath.Join(root, "chart", "a.yaml"), "decoy\n", 0o644)
	mustLink(t, "../chart/a.yaml", filepath.Join(root, "real", "crds", "a.yaml"))
	mustLink(t, "real/crds", filepath.Join(root, "bases"))
	if err := commitFiles(t, filepath.Join(root, "bases"), "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	if got := content(t, filepath.Join(root, "real", "chart", "a.yaml")); got != "new\n" {
		t.Errorf("real/chart/a.yaml has %q, want the new content", got)
	}
	if got := content(t, filepath.Join(root, "chart", "a.yaml")); got != "decoy\n" {
		t.Errorf("chart/a.yaml (the lexical, wrong, target) has %q", got)
	}
}

// TestDanglingSymlink: a link to a file that does not exist creates it, as
// os.Create does; a link into a directory that does not exist is an error
// that names both, and nothing is written.
func TestDanglingSymlink(t *testing.T) {
	root := t.TempDir()
	bases := filepath.Join(root, "bases")
	if err := os.MkdirAll(filepath.Join(root, "chart"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustLink(t, "../chart/a.yaml", filepath.Join(bases, "a.yaml"))
	if err := commitFiles(t, bases, "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	isLink(t, filepath.Join(bases, "a.yaml"), "../chart/a.yaml")
	if got := content(t, filepath.Join(root, "chart", "a.yaml")); got != "new\n" {
		t.Errorf("the link's target has %q", got)
	}

	mustLink(t, "../nodir/b.yaml", filepath.Join(bases, "b.yaml"))
	err := commitFiles(t, bases, "c.yaml", "c\n", "b.yaml", "b\n")
	var werr *Error
	if !errors.As(err, &werr) {
		t.Fatalf("err = %v, want an *Error", err)
	}
	for _, want := range []string{filepath.Join(bases, "b.yaml"), filepath.Join(root, "nodir"), "no file was written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if !strings.Contains(werr.Fix, "create the directory "+filepath.Join(root, "nodir")) {
		t.Errorf("fix %q does not say to create the directory", werr.Fix)
	}
	if _, err := os.Stat(filepath.Join(bases, "c.yaml")); err == nil {
		t.Error("c.yaml was written although the commit failed")
	}
	noStaged(t, root)
}

// TestMode: a replaced file keeps its mode; a new file gets the mode
// os.Create gives (0666 before umask), as with controller-gen.
func TestMode(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "secret.yaml"), "old\n", 0o600)
	mustWrite(t, filepath.Join(dir, "group.yaml"), "old\n", 0o640)
	ref, err := os.Create(filepath.Join(dir, "reference"))
	if err != nil {
		t.Fatal(err)
	}
	ref.Close()
	refInfo, _ := os.Stat(ref.Name())
	if err := commitFiles(t, dir, "secret.yaml", "new\n", "group.yaml", "new\n", "new.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{"secret.yaml": 0o600, "group.yaml": 0o640, "new.yaml": refInfo.Mode().Perm()} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode().Perm(), want)
		}
	}
	if got := content(t, filepath.Join(dir, "secret.yaml")); got != "new\n" {
		t.Errorf("secret.yaml has %q", got)
	}
}

// TestErrorRemovesStaged: an I/O error on the last file leaves the others
// unwritten, no staged file, and no directory the commit created (new/ for
// one file, new/deep/ inside it for the next).
func TestErrorRemovesStaged(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "out", "kept.yaml"), "old\n", 0o644)
	mustWrite(t, filepath.Join(root, "file"), "in the way\n", 0o644)
	var s Staging
	write(t, s.Rule(genall.OutputToDirectory(filepath.Join(root, "out"))), "kept.yaml", "new\n")
	write(t, s.Rule(genall.OutputToDirectory(filepath.Join(root, "new"))), "a.yaml", "a\n")
	write(t, s.Rule(genall.OutputToDirectory(filepath.Join(root, "new", "deep"))), "a.yaml", "a\n")
	write(t, s.Rule(genall.OutputToDirectory(filepath.Join(root, "file", "sub"))), "b.yaml", "b\n")
	err := s.Commit()
	var werr *Error
	if !errors.As(err, &werr) || !strings.Contains(err.Error(), filepath.Join(root, "file", "sub", "b.yaml")) ||
		!strings.Contains(err.Error(), "no file was written") || werr.Fix == "" {
		t.Fatalf("err = %v, want an *Error naming b.yaml, with a fix", err)
	}
	if got := content(t, filepath.Join(root, "out", "kept.yaml")); got != "old\n" {
		t.Errorf("kept.yaml has %q, want it as it was", got)
	}
	if _, err := os.Stat(filepath.Join(root, "new")); err == nil {
		t.Error("the directory the failed commit created is still there")
	}
	noStaged(t, root)
	if len(reg.live) != 0 || reg.stop != nil {
		t.Errorf("%d staged files still registered", len(reg.live))
	}
}

// TestRenameErrorRemovesStaged: a rename that fails (its target became a
// directory after staging) names the files already replaced and removes the
// other staged files.
func TestRenameErrorRemovesStaged(t *testing.T) {
	dir := t.TempDir()
	staged := func() {
		if err := os.Mkdir(filepath.Join(dir, "b.yaml"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "b.yaml", "x"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := commitWith(t, dir, hooks{staged: staged}, "a.yaml", "a\n", "b.yaml", "b\n", "c.yaml", "c\n")
	var werr *Error
	if !errors.As(err, &werr) || !slices.Equal(werr.Written, []string{filepath.Join(dir, "a.yaml")}) {
		t.Fatalf("err = %v, want an *Error that names a.yaml as written", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.yaml")); err == nil {
		t.Error("c.yaml was written after the failed rename")
	}
	noStaged(t, dir)
}

// TestWriteFile: the single-file form writes through links too.
func TestWriteFile(t *testing.T) {
	root := t.TempDir()
	mustWrite(t, filepath.Join(root, "real"), "old\n", 0o600)
	mustLink(t, "real", filepath.Join(root, "link"))
	if err := WriteFile(filepath.Join(root, "link"), []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	isLink(t, filepath.Join(root, "link"), "real")
	if got := content(t, filepath.Join(root, "real")); got != "new\n" {
		t.Errorf("real has %q", got)
	}
	if fi, _ := os.Stat(filepath.Join(root, "real")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
}

func TestStagedName(t *testing.T) {
	long := "x" + strings.Repeat("é", 200) + ".yaml" // 406 bytes, cut inside a rune
	for _, base := range []string{"a.yaml", long} {
		n := stagedName(base, hostID(), 4194304, 0xdeadbeef)
		if !stagedPattern.MatchString(n) || len(n) > 255 || strings.HasSuffix(n, ".yaml") || !strings.HasPrefix(n, ".") {
			t.Errorf("stagedName(%.20q…) = %q (%d bytes): want hidden, ≤ 255 bytes, no .yaml suffix, and matching the pattern", base, n, len(n))
		}
	}
}

// TestSynced: every staged file is synced before it is renamed, and each
// target directory once after the renames, so that a crash leaves either
// the old file or the new one, never an empty one.
func TestSynced(t *testing.T) {
	dir := t.TempDir()
	var synced []string
	h := hooks{synced: func(p string) {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("synced %s, which is not there: %v", p, err)
		}
		synced = append(synced, p)
	}}
	if err := writeFiles([]file{{path: filepath.Join(dir, "a.yaml"), data: []byte("a\n")}, {path: filepath.Join(dir, "b.yaml"), data: []byte("b\n")}}, h); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 3 || !stagedPattern.MatchString(filepath.Base(synced[0])) || !stagedPattern.MatchString(filepath.Base(synced[1])) || synced[2] != dir {
		t.Errorf("synced %q; want the two staged files, then %s", synced, dir)
	}
}

// WriteFile, which only the tests call, replaces path with data atomically, as a commit of one file
// does: through symbolic links, keeping the file's mode.
func WriteFile(path string, data []byte) error {
	return writeFiles([]file{{path: path, data: data}}, hooks{})
}

// TestNotARegularFile: an output path that is a directory, or a link to a
// device, is an error whose fix is about the path the author chose: a
// link to /dev/null is removed, not /dev/null moved.
func TestNotARegularFile(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "a.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustLink(t, os.DevNull, filepath.Join(root, "b.yaml"))
	for name, want := range map[string][2]string{
		"a.yaml": {filepath.Join(root, "a.yaml") + " is a directory", "move " + filepath.Join(root, "a.yaml") + " out of the way"},
		"b.yaml": {"it is a symbolic link to " + os.DevNull + ", which is a device", "remove the link " + filepath.Join(root, "b.yaml") + ","},
	} {
		err := commitFiles(t, root, name, "x\n")
		var werr *Error
		if !errors.As(err, &werr) {
			t.Fatalf("%s: err = %v, want an *Error", name, err)
		}
		if !strings.Contains(err.Error(), want[0]) || !strings.HasPrefix(werr.Fix, want[1]) {
			t.Errorf("%s: %v (fix %q), want %q and the fix %q", name, err, werr.Fix, want[0], want[1])
		}
	}
	noStaged(t, root)
}

package source

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// totalAlloc is the bytes the program has allocated so far.
func totalAlloc() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// TestGitLargeFile: a directory with a document too large for the
// apiserver beside a CRD (24 MiB, a ConfigMap) is refused at
// git://REF?path=DIR as the same directory read as files is, with the
// same message, and reading it allocates no more than reading the files
// (at most 1.5 times as much, plus 1 MiB for running git): the content
// streams from git through the same per-document size check
// (internal/input/manifest: MaxRequestBodyBytes) as a file's from disk.
func TestGitLargeFile(t *testing.T) {
	repo := gitfstest.New(t)
	big := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  blob: |\n" +
		strings.Repeat("    "+strings.Repeat("0123456789", 10)+"\n", 24<<20/105)
	repo.Commit(map[string]string{"config/crd/bases/widgets.yaml": crd("v1"), "config/crd/bases/big.yaml": big})
	r := Reader{Dir: repo.Dir}
	read := func(spec string) (string, uint64) {
		s, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		before := totalAlloc()
		_, err = r.CRDs(context.Background(), []Spec{s}, nil)
		n := totalAlloc() - before
		if err == nil {
			t.Fatalf("%s: no error", spec)
		}
		return err.Error(), n
	}
	gitErr, gitAlloc := read("git://HEAD?path=config/crd/bases")
	dir := filepath.Join(repo.Dir, "config/crd/bases")
	fileErr, fileAlloc := read(dir)
	t.Logf("allocated: git:// %d bytes, files %d bytes (the document: %d bytes)", gitAlloc, fileAlloc, len(big))
	tooLarge := fmt.Sprintf(":1: Request entity too large: limit is 3145728 (the document has %d bytes,", len(big))
	if !strings.Contains(gitErr, "git://HEAD?path=config/crd/bases/big.yaml"+tooLarge) {
		t.Errorf("git://: %s", gitErr)
	}
	if strings.TrimPrefix(fileErr, dir+"/big.yaml") != strings.TrimPrefix(gitErr, "git://HEAD?path=config/crd/bases: git://HEAD?path=config/crd/bases/big.yaml") {
		t.Errorf("the messages differ:\n%s\n%s", gitErr, fileErr)
	}
	if gitAlloc > fileAlloc*3/2+1<<20 {
		t.Errorf("git:// allocated %d bytes, files %d", gitAlloc, fileAlloc)
	}
}

// TestGitPaths: what the checked-out tree holds reads at git://REF as
// from the working tree (a symbolic link to the CRD directory), and what
// git:// cannot read says why and what to do: a submodule, a link out of
// the repository, a path from /.
func TestGitPaths(t *testing.T) {
	repo := gitfstest.New(t)
	sub := repo.Commit(map[string]string{"crds/widgets.yaml": crd("v1")})
	repo.Git("update-index", "--add", "--cacheinfo", "160000,"+sub+",vendor/api")
	for name, target := range map[string]string{"config/crd": "../crds", "passwd.yaml": "/etc/passwd"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo.Dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(repo.Dir, name)); err != nil {
			t.Fatal(err)
		}
		repo.Git("add", name)
	}
	repo.Commit(nil)
	r := Reader{Dir: repo.Dir}
	s, _ := Parse("git://HEAD?path=config/crd")
	if crds, err := r.CRDs(context.Background(), []Spec{s}, nil); err != nil || len(crds) != 1 {
		t.Errorf("%s: %v, %v; want the CRD through the link", s.Raw, versions(crds), err)
	}
	for spec, msg := range map[string]string{
		"git://HEAD?path=vendor/api/crds": "git://HEAD?path=vendor/api/crds: open vendor/api/crds: vendor/api/crds at HEAD is in submodule vendor/api (commit " + sub +
			"), a repository of its own, which git:// does not read: read it from the submodule's repository (there, as git://" + sub + "?path=crds)",
		"git://HEAD?path=passwd.yaml": "git://HEAD?path=passwd.yaml: open passwd.yaml: symbolic link passwd.yaml at HEAD points to /etc/passwd, out of the repository: git:// follows links that stay in it; " +
			"read the target from where it is, or commit the file in place of the link",
		"git://HEAD?path=/etc/passwd": "git://HEAD?path=/etc/passwd: /etc/passwd is an absolute path: PATH is relative to the top of the repository, as in git show REF:PATH (git://main?path=config/crd/bases)",
	} {
		s, err := Parse(spec)
		if err == nil {
			_, err = r.CRDs(context.Background(), []Spec{s}, nil)
		}
		if err == nil || err.Error() != msg {
			t.Errorf("%s: %v\nwant %s", spec, err, msg)
		}
	}
}

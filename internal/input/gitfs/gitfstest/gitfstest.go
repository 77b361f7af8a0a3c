// Package gitfstest makes git repositories for tests: a directory, git
// run in it with an identity of its own (no user configuration needed),
// files written and committed.
package gitfstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a git repository in a test's temporary directory.
type Repo struct {
	t   testing.TB
	Dir string
}

// New makes an empty repository whose first branch is main; the test is
// skipped when git is not on PATH.
func New(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	r := &Repo{t: t, Dir: t.TempDir()}
	r.Git("init", "-q", "--initial-branch=main")
	return r
}

// Git runs git in the repository and returns its output, trimmed.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.Dir, "-c", "user.name=test", "-c", "user.email=test@example.com",
		"-c", "commit.gpgsign=false"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Write writes content to the file name of the working tree (its
// directories made), without adding it.
func (r *Repo) Write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.Dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// Commit writes files (name → content; "" removes the file), adds them
// and commits, and returns the commit.
func (r *Repo) Commit(files map[string]string) string {
	r.t.Helper()
	for name, content := range files {
		if content == "" {
			r.Git("rm", "-q", name)
			continue
		}
		r.Write(name, content)
		r.Git("add", name)
	}
	r.Git("commit", "-q", "--allow-empty", "-m", "commit")
	return r.Git("rev-parse", "HEAD")
}

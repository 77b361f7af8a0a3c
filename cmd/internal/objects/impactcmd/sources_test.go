package impactcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/controller-gen-default/controller-gen-default/internal/impact"
	"github.com/controller-gen-default/controller-gen-default/internal/input/gitfs/gitfstest"
)

// TestGitSource: --old and --new from two commits of a repository made
// here (git://REF?path=PATH, run in a subdirectory of it) give the report
// that the same CRDs as files give, byte for byte, in each format; what
// the working tree holds uncommitted is not read.
func TestGitSource(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	crd := func(from string) map[string]string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(testdata, from))
		if err != nil {
			t.Fatal(err)
		}
		return map[string]string{"config/crd/bases/crds.yaml": string(b)}
	}
	r := gitfstest.New(t)
	repo := r.Dir
	r.Commit(crd("old.yaml"))
	r.Commit(crd("new.yaml"))
	for name, content := range crd("conflicts.yaml") {
		r.Write(name, content) // not committed
	}
	t.Chdir(filepath.Join(repo, "config"))

	objects := filepath.Join(testdata, "objects.yaml")
	for _, format := range []string{"text", "json", "markdown"} {
		wantOut, wantErr, wantCode := runCLI(t, "", "--old", filepath.Join(testdata, "old.yaml"), "--new", filepath.Join(testdata, "new.yaml"), "-o", format, objects)
		for _, side := range [][]string{
			{"--old", "git://HEAD~1?path=config/crd/bases", "--new", "git://main?path=config/crd/bases/crds.yaml"},
			{"--old", "git://HEAD^?path=config/crd/bases/", "--new", "file://" + filepath.Join(testdata, "new.yaml")},
		} {
			out, stderr, code := runCLI(t, "", append(side, "-o", format, objects)...)
			if out != wantOut || stderr != wantErr || code != wantCode {
				t.Errorf("%v -o %s: exit %d, stderr %q, stdout\n%s\nwant the files' exit %d, stderr %q, stdout\n%s", side, format, code, stderr, out, wantCode, wantErr, wantOut)
			}
		}
		if wantCode != impact.ExitImpact {
			t.Errorf("-o %s: exit %d: the fixed upgrade has objects that fail", format, wantCode)
		}
	}
	_, stderr, code := runCLI(t, "", "--old", "git://nosuch?path=config/crd/bases", "--new", "git://HEAD?path=config/crd/bases")
	if code != impact.ExitUnusable || !strings.HasPrefix(stderr, `--old: git://nosuch?path=config/crd/bases: "nosuch" is not a commit of the git repository`) {
		t.Errorf("a ref that is not there: exit %d, %q", code, stderr)
	}
}

// TestMarkdownScale: -o markdown on a large dump (the fixed upgrade's
// objects, 4,000 of them, through the command) stays under GitHub's
// comment limit, counts every object, and says how many it left out.
func TestMarkdownScale(t *testing.T) {
	if testing.Short() {
		// internal/impact's TestMarkdownLimit keeps the limit in the unit tier
		t.Skip("-short: analyzes 4,000 objects through the command (about 7 s): run without -short (make test-integration)")
	}
	b, err := os.ReadFile("testdata/objects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	n := 0
	for i := 0; n < 4000; i++ {
		for doc := range strings.SplitSeq(string(b), "\n---\n") {
			in.WriteString(strings.ReplaceAll(doc, "\n  name: ", "\n  name: c"+strconvItoa(i)+"-"))
			in.WriteString("\n---\n")
			n++
		}
	}
	out, _, code := runCLI(t, in.String(), append(oldNew, "-o", "markdown", "-")...)
	if code != impact.ExitImpact {
		t.Fatalf("exit %d", code)
	}
	if c := utf8.RuneCountInString(out); c > impact.CommentLimit {
		t.Errorf("%d characters, over %d", c, impact.CommentLimit)
	}
	if !strings.Contains(out, "| **all** | ") || !strings.Contains(out, "are left out to stay under GitHub's comment limit") {
		t.Errorf("no table of all objects, or nothing said of what was left out:\n%s", out[:min(len(out), 2000)])
	}
}

func strconvItoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return strconvItoa(i/10) + digits[i%10:i%10+1]
}

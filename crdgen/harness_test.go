package crdgen_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/internal/genrun"
)

var update = flag.Bool("update", false, "rewrite the golden CRDs under testdata/golden")

// result is one in-process run of a crd generator.
type result struct {
	files  map[string][]byte // output file name -> contents
	diags  string            // what the generator printed
	failed bool
}

// generate runs gen on the package patterns, as controller-gen-default's
// command does (genrun.Wire, when gen is one of this tool's generators:
// ours), with the output in a fresh directory.
func generate(t *testing.T, gen genall.Generator, ours bool, patterns ...string) result {
	t.Helper()
	return generateIn(t, gen, ours, t.TempDir(), patterns...)
}

// generateIn is generate with the output in the directory out, which may
// hold files from an earlier run.
func generateIn(t *testing.T, gen genall.Generator, ours bool, out string, patterns ...string) result {
	t.Helper()
	var diags bytes.Buffer
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if ours {
		if _, err := genrun.Wire(rt, &diags); err != nil {
			t.Fatal(err)
		}
	}
	rt.OutputRules = genall.OutputRules{Default: genall.OutputToDirectory(out)}
	rt.ErrorWriter = &diags
	failed := rt.Run()

	res := result{files: map[string][]byte{}, diags: diags.String(), failed: failed}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		res.files[e.Name()] = b
	}
	return res
}

// want is an expected diagnostic: a regexp for the message on one line.
type want struct {
	file string
	line int
	re   *regexp.Regexp
	hit  bool
}

var wantComment = regexp.MustCompile("// want (.*)$")
var wantPattern = regexp.MustCompile("`[^`]*`|\"(?:[^\"\\\\]|\\\\.)*\"")

// readWants collects `// want "re"` comments from the Go files below dir,
// as golang.org/x/tools/go/analysis/analysistest does.
func readWants(t *testing.T, dir string) []*want {
	t.Helper()
	var wants []*want
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		abs, _ := filepath.Abs(path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			m := wantComment.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			for _, lit := range wantPattern.FindAllString(m[1], -1) {
				pat := lit[1 : len(lit)-1]
				if lit[0] == '"' {
					pat, err = strconv.Unquote(lit)
					if err != nil {
						t.Fatalf("%s:%d: bad want %s: %v", path, n, lit, err)
					}
				}
				wants = append(wants, &want{file: abs, line: n, re: regexp.MustCompile(pat)})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return wants
}

var diagLine = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (warning|error|note): (.*)$`)

// checkDiagnostics matches every diagnostic about a file below dir with a
// want on its line, and every want with a diagnostic.
func checkDiagnostics(t *testing.T, dir, printed string) {
	t.Helper()
	wants := readWants(t, dir)
	absDir, _ := filepath.Abs(dir)
	seen := map[string]bool{}
	for _, line := range strings.Split(printed, "\n") {
		m := diagLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if seen[line] {
			t.Errorf("diagnostic printed twice: %s", line)
		}
		seen[line] = true
		file, _ := filepath.Abs(m[1])
		if !strings.HasPrefix(file, absDir) {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		matched := false
		for _, w := range wants {
			if w.file == file && w.line == n && w.re.MatchString(m[4]+": "+m[5]) {
				w.hit, matched = true, true
			}
		}
		if !matched {
			t.Errorf("unexpected diagnostic: %s", line)
		}
	}
	for _, w := range wants {
		if !w.hit {
			t.Errorf("%s:%d: no diagnostic matched %q", w.file, w.line, w.re)
		}
	}
}

// checkGolden compares each generated file with testdata/golden/<name>, or
// rewrites the goldens with -update.
func checkGolden(t *testing.T, goldenDir string, files map[string][]byte) {
	t.Helper()
	if *update {
		if err := os.RemoveAll(goldenDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(goldenDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatalf("%v (run go test ./crdgen -update to create the goldens)", err)
	}
	var want []string
	for _, e := range entries {
		want = append(want, e.Name())
	}
	var got []string
	for name := range files {
		got = append(got, name)
	}
	sort.Strings(got)
	if strings.Join(want, " ") != strings.Join(got, " ") {
		t.Fatalf("generated files %v, golden files %v", got, want)
	}
	for _, name := range want {
		golden, _ := os.ReadFile(filepath.Join(goldenDir, name))
		if !bytes.Equal(golden, files[name]) {
			t.Errorf("%s differs from its golden file (go test ./crdgen -update, then review the diff):\n%s", name, firstDiff(golden, files[name]))
		}
	}
}

func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}

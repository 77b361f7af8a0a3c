package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The tests of lintCommand, `controller-gen-default lint`: its exit
// statuses, its lines, -fix. They run in package lint's directory, on its
// testdata/src.

// runLint runs lintCommand with args in the directory of package lint,
// whose testdata the tests lint.
func runLint(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = lintCommand(args, &o, &e)
	return o.String(), e.String(), code
}

// inLintDir makes the test's working directory that of package lint, as
// the tests were written in it: paths and the lines' file names are
// relative to it.
func inLintDir(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", "lint"))
}

// TestLintExitCodes: 0 when clean, 1 with findings, 2 for usage and load
// errors.
func TestLintExitCodes(t *testing.T) {
	inLintDir(t)
	for _, c := range []struct {
		name string
		args []string
		code int
		out  string // a regexp the diagnostics must match
	}{
		{"clean", []string{"./testdata/src/clean"}, lintClean, `^$`},
		{"findings", []string{"./testdata/src/conflictingdefaults"}, lintFindings,
			`^testdata/src/conflictingdefaults/types.go:11:2: error: Spec.Twice: two different defaults: \+default=1 and \+kubebuilder:default=2; keep one \[conflicting-defaults\]\n$`},
		{"warnings count", []string{"./testdata/src/omitemptystruct"}, lintFindings, `warning: Kind.Spec: `},
		{"implicitDefaults=false makes rule violations warnings", []string{"-implicit-defaults=false", "./testdata/src/defaultneedsomitempty"}, lintFindings,
			`^(testdata/src/defaultneedsomitempty/types.go:\d+:2: warning: [^\n]*\n){6}$`},
		{"no packages", nil, lintUsage, `^controller-gen-default lint: no packages: give go list patterns, e.g. ./api/...\nusage: controller-gen-default lint`},
		{"unknown flag", []string{"-nope", "./testdata/src/clean"}, lintUsage, `^controller-gen-default lint: flag provided but not defined: -nope\nusage: controller-gen-default lint`},
		{"a flag after the packages", []string{"./testdata/src/defaultneedsomitempty", "-implicit-defaults=false"}, lintFindings,
			`^(testdata/src/defaultneedsomitempty/types.go:\d+:2: warning: [^\n]*\n){6}$`},
		{"missing package", []string{"./testdata/src/nope"}, lintUsage, `nope`},
		{"-rules off", []string{"-rules=conflicting-defaults=off", "./testdata/src/conflictingdefaults"}, lintClean, `^$`},
		{"-rules severity", []string{"-rules", "conflicting-defaults=warning", "./testdata/src/conflictingdefaults"}, lintFindings,
			`^testdata/src/conflictingdefaults/types.go:11:2: warning: Spec.Twice: two different defaults: `},
		{"-rules unknown rule", []string{"-rules=nope=off", "./testdata/src/clean"}, lintUsage, `^controller-gen-default lint: invalid value "nope=off" for flag -rules: unknown rule "nope"`},
		{"-rules unknown setting", []string{"-rules=conflicting-defaults=loud", "./testdata/src/clean"}, lintUsage, `unknown setting "loud"`},
		{"syntax error", []string{"./testdata/src/syntax"}, lintUsage, `^testdata/src/syntax/types.go:6:13: expected ';', found json\n`},
		// as crd: the types load, and the type checker's error is no finding
		{"type error", []string{"./testdata/src/broken"}, lintClean, `^$`},
		// as crd's "unknown type": the types cannot be read
		{"undefined field type", []string{"./testdata/src/undefinedtype"}, lintUsage, `^testdata/src/undefinedtype/types.go:7:7: undefined: Undefined\n$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr, code := runLint(t, c.args...)
			if code != c.code || !regexp.MustCompile(c.out).MatchString(stderr) || stdout != "" {
				t.Errorf("exit %d (want %d), stdout %q, stderr (want %s):\n%s", code, c.code, stdout, c.out, stderr)
			}
		})
	}
}

// TestLintHelp: -h and --help print the usage on stdout, exit 0, as the
// other subcommands' (cmd/internal/subcommand).
func TestLintHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		stdout, stderr, code := runLint(t, arg)
		if code != lintClean || !strings.HasPrefix(stdout, "usage: controller-gen-default lint") || !strings.Contains(stdout, "-fix") || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, stdout, stderr)
		}
	}
}

// TestLintLoadErrors: a package that does not load for the crd generator
// (here, one that does not parse) gets exit 2 and each error of go/packages
// once, at its file, line and column relative to the working directory.
func TestLintLoadErrors(t *testing.T) {
	inLintDir(t)
	const dir = "./testdata/src/syntax"
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			want = append(want, strings.TrimPrefix(e.Pos, mustGetwd(t)+string(filepath.Separator))+": "+e.Msg)
		}
	})
	want = slices.Compact(slices.Sorted(slices.Values(want)))
	if len(want) < 2 {
		t.Fatalf("testdata/src/syntax: %d errors; want several:\n%s", len(want), strings.Join(want, "\n"))
	}
	stdout, stderr, code := runLint(t, dir)
	if code != lintUsage || stdout != "" {
		t.Errorf("exit %d (want %d), stdout %q", code, lintUsage, stdout)
	}
	got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	for _, l := range got {
		if !regexp.MustCompile(`^testdata/src/syntax/types\.go:\d+:\d+: `).MatchString(l) {
			t.Errorf("a line without its file:line:col: %q", l)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("lint printed\n%s\ngo/packages' errors are\n%s", stderr, strings.Join(want, "\n"))
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// TestLintOwnFiles: a finding is reported with the package whose file it is
// in, once, however many packages use the type.
func TestLintOwnFiles(t *testing.T) {
	inLintDir(t)
	bLevel := "testdata/src/ownfiles/b/types.go:5:6: error: Level: +default=high is not valid JSON (invalid character 'h' looking for beginning of value). The value is one-line JSON: strings need double quotes, e.g. +default=\"TCP\"; or use ref(Name) for a Go constant [invalid-default]\n"
	aWindow := "testdata/src/ownfiles/a/types.go:9:2: error: ASpec.Window: +default on type Window={\"size\":3} on a non-pointer struct: only {} is allowed, because Go clients always send the struct. Make the field a pointer to give it a default, or put defaults on the struct's own fields [struct-default-not-empty]\n"
	_, stderr, code := runLint(t, "./testdata/src/ownfiles/...")
	if code != lintFindings || strings.Count(stderr, bLevel) != 1 {
		t.Errorf("exit %d, want b's finding once:\n%s", code, stderr)
	}
	_, stderr, _ = runLint(t, "./testdata/src/ownfiles/a")
	if strings.Contains(stderr, "ownfiles/b/") {
		t.Errorf("a reports b's finding:\n%s", stderr)
	}
	// The +default on b's type Window, used by a's non-pointer field, is
	// reported in a, as the crd generator reports it.
	if stderr != aWindow {
		t.Errorf("package a: got\n%s\nwant\n%s", stderr, aWindow)
	}
}

// TestLintFix: -fix on a copy of each package with fixes gives its .golden
// file (the files RunWithSuggestedFixes checks, and fixall's, where two
// fixes touch one field and gofmt realigns the struct); what has no fix is
// still reported, and is all that a second run reports.
func TestLintFix(t *testing.T) {
	inLintDir(t)
	for _, c := range []struct {
		pkg    string
		remain []string // rules of the findings -fix leaves
	}{
		{"structdefaultnotempty", nil},
		{"omitemptystruct", nil},
		{"defaultneedsomitempty", []string{"default-needs-omitempty"}}, // the interpreted-string tag
		{"fixall", []string{"invalid-default"}},
	} {
		t.Run(c.pkg, func(t *testing.T) {
			// A copy inside this module, so that it loads as the original does.
			tmp, err := os.MkdirTemp("testdata", "tmp-fix-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(tmp) })
			src := filepath.Join("testdata/src", c.pkg, "types.go")
			orig, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(tmp, "types.go")
			if err := os.WriteFile(dst, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := runLint(t, "-fix", "./"+tmp)
			if want := map[bool]int{true: lintClean, false: lintFindings}[len(c.remain) == 0]; code != want {
				t.Errorf("-fix: exit %d, want %d:\n%s", code, want, stderr)
			}
			if got := rulesOf(stderr); !slices.Equal(got, c.remain) {
				t.Errorf("-fix left %v, want %v:\n%s", got, c.remain, stderr)
			}
			fixed, _ := os.ReadFile(dst)
			golden, err := os.ReadFile(src + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fixed, golden) {
				t.Errorf("-fix wrote\n%s\nwant (%s.golden)\n%s", fixed, src, golden)
			}
			_, again, _ := runLint(t, "./"+tmp)
			if again != stderr {
				t.Errorf("after -fix, lint reports\n%s\nwhile -fix left\n%s", again, stderr)
			}
		})
	}
}

func rulesOf(out string) []string {
	var rules []string
	for _, m := range regexp.MustCompile(`\[([\w-]+)\]\n`).FindAllStringSubmatch(out, -1) {
		rules = append(rules, m[1])
	}
	return rules
}

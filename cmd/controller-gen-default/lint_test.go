package main_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// TestLintSubcommand: `controller-gen-default lint` is lintCommand (tested in
// lintcmd_test.go): exit status and go vet style lines through the binary.
func TestLintSubcommand(t *testing.T) {
	bin := binary(t)
	stdout, stderr, code := run(t, bin, "lint", "./lint/testdata/src/conflictingdefaults")
	want := "lint/testdata/src/conflictingdefaults/types.go:11:2: error: Spec.Twice: two different defaults: +default=1 and +kubebuilder:default=2; keep one [conflicting-defaults]\n"
	if code != 1 || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, stdout, stderr, want)
	}
	if _, stderr, code := run(t, bin, "lint", "./lint/testdata/src/clean"); code != 0 || stderr != "" {
		t.Errorf("clean: exit %d\n%s", code, stderr)
	}
	if _, stderr, code := run(t, bin, "lint"); code != 2 || !strings.Contains(stderr, "usage: controller-gen-default lint") {
		t.Errorf("no packages: exit %d\n%s", code, stderr)
	}
}

// TestLintAfterFailedGenerate: on a package that does not compile because
// its generated code is stale, lint exits 2 and prints each type error
// once, at file:line:col (TestLintLoadErrors compares them with the
// type checker's), none of them as the go command's "-: # importpath"
// copy.
func TestLintAfterFailedGenerate(t *testing.T) {
	_, stderr, code := run(t, binary(t), "lint", "./lint/testdata/src/stale")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	pos := regexp.MustCompile(`^lint/testdata/src/stale/zz_generated\.deepcopy\.go:\d+:\d+: \S`)
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if strings.HasPrefix(l, "\t") {
			continue // a message's further lines
		}
		if !pos.MatchString(l) {
			t.Errorf("not file:line:col: %q", l)
		}
		lines = append(lines, l)
	}
	if len(lines) < 2 || len(slices.Compact(slices.Sorted(slices.Values(lines)))) != len(lines) {
		t.Errorf("each error once:\n%s", stderr)
	}
}

// TestLintIsTheGenerator: on the forbidden examples, the example API and
// testdata/lintscope (a List type, a helper type no kind reaches, an
// embedded resource's metadata, the inside of a schema-less field, a type
// of another package that a kind reaches), lint prints exactly the crd
// generator's lines of the lint rules, the JSON path left out, in the same
// order: both commands, from the module root. On lintscope the set of
// findings (file:line:rule) is also pinned, so that both cannot lose the
// same finding.
func TestLintIsTheGenerator(t *testing.T) {
	bin := binary(t)
	line := regexp.MustCompile(`^(\S+?:\d+:\d+: \w+: \S+)(?: \([^)]*\))?(: .* \[([\w-]+)\])$`)
	fileLineRule := regexp.MustCompile(`^(\S+?:\d+):\d+: .* \[([\w-]+)\]$`)
	pinned := map[string][]string{
		"./testdata/lintscope/...": {
			"testdata/lintscope/shared/types.go:8 omitempty-struct",   // Box.Lid: a kind of v1 reaches it
			"testdata/lintscope/v1/types.go:15 omitempty-struct",      // Widget.Spec
			"testdata/lintscope/v1/types.go:16 omitempty-struct",      // Widget.Status
			"testdata/lintscope/v1/types.go:29 omitempty-struct",      // WidgetSpec.Box
			"testdata/lintscope/v1/types.go:44 default-type-mismatch", // Part, a list item's type
			"testdata/lintscope/v1/types.go:52 omitempty-struct",      // Embedded.Size
			// not WidgetList's ListMeta (23), Embedded.Metadata (50),
			// Opaque.Inner (68), Helper (79, 82), shared.Unused (19)
		},
	}
	for _, dir := range []string{"./testdata/forbidden/...", "./testdata/api/...", "./testdata/lintscope/..."} {
		t.Run(dir, func(t *testing.T) {
			_, diags, _ := run(t, bin, "crd:allFindings=true", "paths="+dir, "output:crd:dir="+t.TempDir())
			var want, wantSet []string
			for _, l := range strings.Split(diags, "\n") {
				if !strings.HasPrefix(l, strings.TrimSuffix(strings.TrimPrefix(dir, "./"), "...")) {
					continue // another module's file (k8s.io/api): not the linted packages'
				}
				if m := line.FindStringSubmatch(l); m != nil && slices.Contains(lint.Rules, m[3]) {
					want = append(want, m[1]+m[2])
					if m := fileLineRule.FindStringSubmatch(l); m != nil {
						wantSet = append(wantSet, m[1]+" "+m[2])
					}
				}
			}
			if len(want) == 0 {
				t.Fatalf("the generator reported nothing of the lint rules:\n%s", diags)
			}
			if p, ok := pinned[dir]; ok && !slices.Equal(wantSet, p) {
				t.Errorf("the generator's findings\n%s\nwant\n%s", strings.Join(wantSet, "\n"), strings.Join(p, "\n"))
			}
			_, stderr, code := run(t, bin, "lint", dir)
			if code != 1 {
				t.Errorf("exit %d", code)
			}
			if got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n"); !slices.Equal(got, want) {
				t.Errorf("lint printed\n%s\nthe generator\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

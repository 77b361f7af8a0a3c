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
// its generated code is stale, lint reads the types as the crd generator
// reads them, and says what crd says: nothing here, exit 0.
func TestLintAfterFailedGenerate(t *testing.T) {
	const dir = "./lint/testdata/src/stale"
	_, crdOut, crdCode := run(t, binary(t), "crd", "paths="+dir, "output:crd:dir="+t.TempDir())
	_, stderr, code := run(t, binary(t), "lint", dir)
	if crdCode != 0 || code != 0 || stderr != "" || crdOut != "" {
		t.Errorf("crd: exit %d\n%s\nlint: exit %d, want 0\n%s", crdCode, crdOut, code, stderr)
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

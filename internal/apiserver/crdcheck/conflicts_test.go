package crdcheck

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// conflictCRD is a valid CRD named PLURAL.example.com serving KIND, with
// the extra YAML lines of spec.names.
func conflictCRD(plural, kind, names, desc string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ` + plural + `.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: ` + plural + `
    kind: ` + kind + names + `
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: ` + desc + `
`
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLoadCRDsConflicts: CRDs the apiserver would not all serve are an
// error naming both, where each is (FILE:DOC, DOC counted as
// internal/input/manifest counts it), which one the apiserver keeps and how to
// fix it; an identical duplicate is kept once.
func TestLoadCRDsConflicts(t *testing.T) {
	widgets := conflictCRD("widgets", "Widget", "", "a")
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string // the error's lines, "" for none
		n     int      // CRDs loaded without error
	}{
		{"same name, different content", map[string]string{"a.yaml": widgets, "b.yaml": "null\n---\n" + conflictCRD("widgets", "Widget", "", "b")},
			[]string{"b.yaml:1: CRD widgets.example.com is also at DIR/a.yaml:1, with different content; the apiserver keeps the first: " +
				"kubectl create refuses the second (AlreadyExists), kubectl apply would replace the first with it; remove one of them"}, 0},
		{"identical: kept once", map[string]string{"a.yaml": widgets, "b.yaml": widgets + "---\n" + conflictCRD("gadgets", "Gadget", "", "g")}, nil, 2},
		{"two names, one kind", map[string]string{"a.yaml": widgets, "b.yaml": conflictCRD("gadgets", "Widget", "", "b")},
			[]string{`b.yaml:1: CRD gadgets.example.com claims spec.names.singular "widget", spec.names.kind "Widget", spec.names.listKind "WidgetList", which CRD widgets.example.com at DIR/a.yaml:1 has; ` +
				`the apiserver keeps the first: the second is not served (condition NamesAccepted False, reason ListKindConflict: "WidgetList" is already in use); remove one of them, or rename`}, 0},
		{"a short name that is another's plural", map[string]string{"a.yaml": widgets, "b.yaml": conflictCRD("gadgets", "Gadget", "\n    shortNames: [widgets]", "b")},
			[]string{`b.yaml:1: CRD gadgets.example.com claims spec.names.shortNames "widgets", which CRD widgets.example.com at DIR/a.yaml:1 has; ` +
				`the apiserver keeps the first: the second is not served (condition NamesAccepted False, reason ShortNamesConflict: "widgets" is already in use); remove one of them, or rename`}, 0},
		{"the same kind in another group", map[string]string{"a.yaml": widgets, "b.yaml": strings.ReplaceAll(widgets, "example.com", "other.example.com")}, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			crds, err := LoadCRDs(dir)
			if tc.want == nil {
				if err != nil || len(crds) != tc.n {
					t.Fatalf("%d CRDs, %v; want %d", len(crds), err, tc.n)
				}
				return
			}
			var conflict *CRDConflictError
			if !errors.As(err, &conflict) {
				t.Fatalf("%v, want a *CRDConflictError", err)
			}
			got := strings.Split(strings.ReplaceAll(err.Error(), dir+"/", "DIR/"), "\n")
			for i := range got {
				got[i] = strings.TrimPrefix(got[i], "DIR/")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestServedCRDs: LoadCRDs's rule on CRDs in memory, each named by its
// place: an identical copy kept once, a conflict refused.
func TestServedCRDs(t *testing.T) {
	decode := func(text string) *apiextensionsv1.CustomResourceDefinition {
		crds, err := ReadCRDs("test", strings.NewReader(text))
		if err != nil || len(crds) != 1 {
			t.Fatalf("decode: %d CRDs, %v", len(crds), err)
		}
		return crds[0]
	}
	a, b := decode(conflictCRD("widgets", "Widget", "", "a")), decode(conflictCRD("gadgets", "Widget", "", "b"))
	crds, err := ServedCRDs([]*apiextensionsv1.CustomResourceDefinition{a, a.DeepCopy()})
	if err != nil || len(crds) != 1 {
		t.Errorf("an identical copy: %d CRDs, %v; want 1", len(crds), err)
	}
	_, err = ServedCRDs([]*apiextensionsv1.CustomResourceDefinition{a, b})
	var conflict *CRDConflictError
	if !errors.As(err, &conflict) || !strings.HasPrefix(err.Error(), "#2: CRD gadgets.example.com claims") || !strings.Contains(err.Error(), "widgets.example.com at #1") {
		t.Errorf("error %v, want #2's conflict with #1", err)
	}
}

package conversion

import (
	"context"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// gadgetTypes is a kind with nested structs, a list of structs, a map of
// structs, an inline struct, and values random.Filler must satisfy: an
// enum, bounds, a pattern, a list-map.
const gadgetTypes = `// +kubebuilder:object:generate=true
// +groupName=nested.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type GadgetSpec struct {
	// +optional
	Parts []Part ` + "`json:\"parts,omitempty\"`" + `
	// +optional
	Slots map[string]Slot ` + "`json:\"slots,omitempty\"`" + `
	Common ` + "`json:\",inline\"`" + `
	// +kubebuilder:validation:Enum=a;b
	// +optional
	Kind string ` + "`json:\"kind,omitempty\"`" + `
	// +kubebuilder:validation:Pattern=` + "`^x[0-9]+$`" + `
	// +optional
	Code string ` + "`json:\"code,omitempty\"`" + `
}

type Common struct {
	// +kubebuilder:validation:Minimum=3
	// +kubebuilder:validation:Maximum=5
	// +optional
	Level int32 ` + "`json:\"level,omitempty\"`" + `
}

type Part struct {
	Name string ` + "`json:\"name\"`" + `
	// +optional
	Inner Inner ` + "`json:\"inner,omitzero\"`" + `
}

type Inner struct {
	// +default="deep"
	// +optional
	Depth string ` + "`json:\"depth,omitempty\"`" + `
}

type Slot struct {
	// +optional
	Size int64 ` + "`json:\"size,omitempty\"`" + `
}

// +kubebuilder:object:root=true

type Gadget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	Spec GadgetSpec ` + "`json:\"spec\"`" + `
}
`

// TestLoad: the CRDs generated in memory, and each JSON path at its Go
// field, through lists, maps, inline structs and nested structs; random
// objects of a schema with an enum, bounds, a pattern and a list of
// structs are valid.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages")
	}
	dir := copyConvapi(t)
	pkg := filepath.Join(dir, "api", "nested", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "types.go"), []byte(gadgetTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := load("", []string{"./api/..."}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	gvk := schema.GroupVersionKind{Group: "nested.example.com", Version: "v1", Kind: "Gadget"}
	file := filepath.Join("api", "nested", "v1", "types.go")
	for _, tc := range []struct {
		path   Path
		decl   string // the line of the field's declaration
		goPath string
	}{
		{Path{{Name: "spec"}}, "Spec GadgetSpec", "Gadget.Spec"},
		{Path{{Name: "spec"}, {Name: "parts"}, {Item: true}, {Name: "name"}}, "Name string", "Part.Name"},
		{Path{{Name: "spec"}, {Name: "parts"}, {Item: true}, {Name: "inner"}, {Name: "depth"}}, "Depth string", "Inner.Depth"},
		{Path{{Name: "spec"}, {Name: "slots"}, {Name: "k", Key: true}, {Name: "size"}}, "Size int64", "Slot.Size"},
		{Path{{Name: "spec"}, {Name: "slots"}, {Name: "k", Key: true}}, "Slots map", "GadgetSpec.Slots"},
		{Path{{Name: "spec"}, {Name: "level"}}, "Level int32", "Common.Level"},
		{Path{{Name: "metadata"}, {Name: "labels"}, {Name: "app", Key: true}}, "metav1.ObjectMeta", "Gadget.metav1.ObjectMeta"},
		{Path{{Name: "spec"}, {Name: "nothing"}}, "Spec GadgetSpec", "Gadget.Spec"},
	} {
		f, ok := l.field(gvk, tc.path)
		if !ok {
			t.Errorf("%s: no field", tc.path)
			continue
		}
		want := fieldPos(t, file, tc.decl)
		if got := relFile(f.Pos()).String(); got != want || f.GoPath() != tc.goPath {
			t.Errorf("%s: %s %s, want %s %s", tc.path, got, f.GoPath(), want, tc.goPath)
		}
	}
	if _, ok := l.field(gvk.GroupKind().WithVersion("v9"), Path{{Name: "spec"}}); ok {
		t.Error("a version without a Go type has fields")
	}

	crd := l.CRDs[gvk.GroupKind()]
	if crd == nil {
		t.Fatalf("no CRD for %s among %v", gvk.GroupKind(), l.CRDs)
	}
	k, err := NewKind(crd, "v1", nil)
	if err != nil {
		t.Fatal(err)
	}
	objs, refused := Objects(context.Background(), k, 50, rand.New(rand.NewPCG(3, 0)))
	if len(refused) > 0 || len(objs["v1"]) < 45 {
		t.Fatalf("%d valid objects of 50; refused: %v", len(objs["v1"]), refused)
	}
	seen := map[string]bool{}
	for _, o := range objs["v1"] {
		if _, errs := k.Versions["v1"].Create(context.Background(), o); len(errs) > 0 {
			t.Errorf("an object of Objects is invalid: %v", errs)
		}
		for _, p := range []string{"parts", "slots", "kind", "level", "code"} {
			if get(o, Path{{Name: "spec"}, {Name: p}}) != absent {
				seen[p] = true
			}
		}
		if parts, ok := get(o, Path{{Name: "spec"}, {Name: "parts"}}).([]any); ok && len(parts) > 0 {
			if d := get(parts[0], Path{{Name: "inner"}, {Name: "depth"}}); d == absent && get(parts[0], Path{{Name: "inner"}}) != absent {
				t.Errorf("an item's inner is not defaulted: %s", Show(parts[0]))
			}
		}
	}
	// every field appears, the pattern's too (patternString)
	for _, p := range []string{"parts", "slots", "kind", "level", "code"} {
		if !seen[p] {
			t.Errorf("no object has spec.%s", p)
		}
	}
}

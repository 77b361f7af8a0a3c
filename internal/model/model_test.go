package model

import (
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestFields: a struct's JSON fields, inline structs expanded in place,
// each with its Go selector from the outer struct.
func TestFields(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		typ  string
		want map[string]string // JSON name → Sel
	}{
		{"Meta", map[string]string{"kind": "TypeMeta.Kind", "apiVersion": "TypeMeta.APIVersion", "name": "Name"}},
		{"Zero", map[string]string{"x": "ZeroInline.X", "s": "S"}},
		{"Inlines", map[string]string{"inner": "InlineDefault.Inner", "inner2": "InlineKubebuilder.Inner2", "notInline": "NotInline"}},
	} {
		got := map[string]string{}
		for _, f := range m.Fields(typeID(t, m, tc.typ)) {
			got[f.Tag.Name] = f.Sel
		}
		for json, sel := range tc.want {
			if got[json] != sel {
				t.Errorf("%s.%s: Sel %q, want %q", tc.typ, json, got[json], sel)
			}
		}
	}
	if f := field(t, m, "Meta.kind"); f.GoPath() != "TypeMeta.Kind" || f.Owner != "TypeMeta" {
		t.Errorf("an inline field of another package: GoPath %q", f.GoPath())
	}
}

// TestLookup finds a type's parsed ident by its types.Named, in the right
// package when two have a type of that name.
func TestLookup(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, name := range []string{"Plain", "off.Plain", "Node"} {
		want := typeID(t, m, name)
		n := want.Package.Types.Scope().Lookup(want.Name).Type()
		for range 2 { // the second answer is remembered
			got, ok := m.Lookup(n.(*types.Named))
			if !ok || got != want {
				t.Errorf("Lookup(%s) = %v, %v; want %v", name, got.Package.PkgPath, ok, want.Package.PkgPath)
			}
		}
	}
	errType := types.Universe.Lookup("error").Type().(*types.Named)
	if _, ok := m.Lookup(errType); ok {
		t.Error("Lookup(error) found a type")
	}
}

// TestLoadImports: the generators load the packages of the types they
// use; LintRoots sees the roots only, and the model loads a package the
// moment a root's type refers to it.
func TestLoadImports(t *testing.T) {
	loadFixture(t)
	for _, load := range []bool{false, true} {
		idx := NewIndex(fixture.col, fixture.check)
		for _, r := range fixture.roots {
			idx.NeedPackage(r) // the roots only, as LintRoots
		}
		m := New(idx, fixture.col, fixture.roots, Options{Implicit: true})
		m.loadImports = load
		var root *loader.Package
		for _, r := range fixture.roots {
			if r.PkgPath == rulesPath {
				root = r
			}
		}
		meta := root.Imports()["k8s.io/apimachinery/pkg/apis/meta/v1"]
		if meta == nil || meta.Types == nil {
			t.Fatal("testdata/rules does not import metav1")
		}
		// first, before anything else loads metav1
		typeMeta := meta.Types.Scope().Lookup("TypeMeta").Type()
		if _, ok := m.identOf(typeMeta.(*types.Named), root); ok != load {
			t.Errorf("loadImports %v: metav1.TypeMeta found %v", load, ok)
		}
		if !field(t, m, "Rules.windowValue").Shape.HasIdent {
			t.Errorf("loadImports %v: a type of the roots has no ident", load)
		}
		if sh := m.ShapeOf(field(t, m, "Meta.name").Type, root); sh.HasIdent {
			t.Errorf("a string has an ident")
		}
	}
}

// TestOwnership: findings in the modules being generated are the user's;
// the module of a root is read from the go.mod above its files, its
// import path when there is none.
func TestOwnership(t *testing.T) {
	loadFixture(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/own\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "api", "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	noMod := t.TempDir()
	pkg := func(path string, files ...string) *loader.Package {
		return &loader.Package{Package: &packages.Package{PkgPath: path, GoFiles: files}}
	}
	compiledOnly := &loader.Package{Package: &packages.Package{PkgPath: "example.com/own/compiled", CompiledGoFiles: []string{filepath.Join(dir, "c.go")}}}
	for _, tc := range []struct {
		name   string
		roots  []*loader.Package
		pkg    *loader.Package
		module string
		own    bool
	}{
		{"the module", []*loader.Package{pkg("example.com/own/api/v1", filepath.Join(dir, "api", "v1", "types.go"))}, pkg("example.com/own/other"), "example.com/own", true},
		{"the module itself", []*loader.Package{pkg("example.com/own/api/v1", filepath.Join(dir, "api", "v1", "types.go"))}, pkg("example.com/own"), "example.com/own", true},
		{"a longer name", []*loader.Package{pkg("example.com/own/api/v1", filepath.Join(dir, "api", "v1", "types.go"))}, pkg("example.com/owner/api"), "example.com/own", false},
		{"another module", []*loader.Package{pkg("example.com/own/api/v1", filepath.Join(dir, "api", "v1", "types.go"))}, pkg("k8s.io/api/core/v1"), "example.com/own", false},
		{"compiled files", []*loader.Package{compiledOnly}, pkg("example.com/own/x"), "example.com/own", true},
		{"no go.mod", []*loader.Package{pkg("example.com/nomod/api", filepath.Join(noMod, "types.go"))}, pkg("example.com/nomod/api/sub"), "", true},
		{"no go.mod, elsewhere", []*loader.Package{pkg("example.com/nomod/api", filepath.Join(noMod, "types.go"))}, pkg("example.com/nomod"), "", false},
		{"no files", []*loader.Package{pkg("example.com/nofiles")}, pkg("example.com/nofiles"), "", true},
	} {
		if got := modulePath(tc.roots[0]); got != tc.module {
			t.Errorf("%s: modulePath = %q, want %q", tc.name, got, tc.module)
		}
		if got := newOwnership(tc.roots).is(tc.pkg); got != tc.own {
			t.Errorf("%s: is(%s) = %v, want %v", tc.name, tc.pkg.PkgPath, got, tc.own)
		}
	}
}

// TestAliasReachesDeclaration: a field whose type is an alias of another
// package (aliased.Deep = declared.Deep), declared in a package its own
// does not import, has the declaring package's type, with its fields: one
// Go type, one model, whatever path reached it.
func TestAliasReachesDeclaration(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	f := field(t, m, "ViaAlias.deep")
	if f.Pkg.Imports()[rulesPath+"/declared"] != nil {
		t.Fatal("testdata/rules imports declared: the case is lost")
	}
	want := typeID(t, m, "declared.Deep")
	if !f.Shape.HasIdent || f.Shape.Ident != want {
		t.Fatalf("ViaAlias.deep: ident %v (%v), want declared.Deep", f.Shape.Ident, f.Shape.HasIdent)
	}
	if fs := m.Fields(f.Shape.Ident); len(fs) != 1 || fs[0].Tag.Name != "count" {
		t.Errorf("declared.Deep's fields: %v", fs)
	}
}

// TestSkippedVersion: the lint reads no kind marked
// +kubebuilder:skipversion (controller-tools drops its version from the
// CRD), so nothing only it reaches is reported; a package whose only kind
// is skipped reports nothing either, rather than every struct type.
func TestSkippedVersion(t *testing.T) {
	col, checker := CRDMarkers()
	for _, pattern := range []string{"../../testdata/lintscope/...", "../../testdata/lintscope/v0"} {
		roots, err := loader.LoadRootsWithConfig(&packages.Config{}, pattern)
		if err != nil {
			t.Fatal(err)
		}
		var v0 []string
		for _, f := range LintRoots(roots, col, checker, Options{Implicit: true}) {
			if strings.Contains(f.Pos.Filename, "lintscope/v0/") {
				v0 = append(v0, f.String())
			}
		}
		if len(v0) > 0 {
			t.Errorf("%s: findings in the skipped version:\n%s", pattern, strings.Join(v0, "\n"))
		}
	}
}

// TestDefinedFrom: a type defined from another struct type (not an alias)
// has that type's fields, through aliases and chains of definitions.
func TestDefinedFrom(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	want := m.Fields(typeID(t, m, "declared.Deep"))
	for _, name := range []string{"DefinedDeep", "DefinedAgain"} {
		got := m.Fields(typeID(t, m, name))
		if len(got) != 1 || len(want) != 1 || got[0] != want[0] {
			t.Errorf("%s: fields %v, want declared.Deep's %v", name, got, want)
		}
	}
	if fs := m.Fields(typeID(t, m, "Typed")); len(fs) != 0 {
		t.Errorf("a type defined from a string has fields: %v", fs)
	}
}

// TestDefinedFromMarker: a type defined from another struct type takes
// its +implicitDefaults marker with its fields, unless it has its own.
func TestDefinedFromMarker(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, name := range []string{"Quiet", "DefinedQuiet"} {
		if v := m.ImplicitMarker(typeID(t, m, name)); v == nil || *v {
			t.Errorf("%s: +implicitDefaults %v, want false", name, v)
		}
	}
	if v := m.ImplicitMarker(typeID(t, m, "DefinedDeep")); v != nil {
		t.Errorf("DefinedDeep: +implicitDefaults %v, want none", *v)
	}
}

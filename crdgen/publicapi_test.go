package crdgen_test

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestPublicAPINamesNoInternalType: no exported signature of a public
// package of the module (every package outside internal/ that is not a
// command) names a type of an internal package: a caller outside the
// module could get a value it cannot name, and the internal package's
// changes would be API changes of the public one. The public packages are
// exactly publicAPI (docs/architecture.md, "Public API"): a new package
// outside internal/ is a decision, made there.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	cfg := &packages.Config{Dir: "..", Mode: packages.NeedName | packages.NeedTypes | packages.NeedFiles}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var found, public []string
	for _, p := range pkgs {
		if isInternal(p.PkgPath) || p.Name == "main" || p.Types == nil || len(p.GoFiles) == 0 ||
			strings.HasPrefix(p.PkgPath, module+"test/") { // the module's own tests, not a library
			continue
		}
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		public = append(public, strings.TrimPrefix(p.PkgPath, module))
		found = append(found, internalTypesInAPI(p.Types)...)
	}
	sort.Strings(public)
	if strings.Join(public, " ") != strings.Join(publicAPI, " ") {
		t.Errorf("public packages: %v, want %v", public, publicAPI)
	}
	sort.Strings(found)
	for _, f := range found {
		t.Error(f)
	}
}

// publicAPI are the packages a caller outside the module may import,
// sorted: the markers, the two generators and the analyzer with its
// golangci-lint plugin. Every other library package is under internal/.
var publicAPI = []string{"crdgen", "defaultgen", "lint", "lint/plugin", "markers"}

// module is the module's path, with a slash.
const module = "github.com/controller-gen-default/controller-gen-default/"

// isInternal is whether path is an internal package (cmd/go's rule: an
// element named internal).
func isInternal(path string) bool {
	return strings.HasSuffix(path, "/internal") || strings.Contains(path, "/internal/")
}

// internalTypesInAPI lists each exported object of pkg, field or method of
// an exported type whose type names a type of an internal package, as
// "pkg.Name: internal/pkg.Type", paths inside the module.
func internalTypesInAPI(pkg *types.Package) []string {
	var out []string
	report := func(where string, t types.Type) {
		for _, n := range internalNames(t, map[types.Type]bool{}) {
			out = append(out, fmt.Sprintf("%s.%s: %s", strings.TrimPrefix(pkg.Path(), module), where, strings.TrimPrefix(n, module)))
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok {
			report(name, obj.Type()) // func, var, const
			continue
		}
		t := obj.Type()
		if tn.IsAlias() {
			// An exported alias of an internal type makes it public
			// (markers.Number): its members are checked, not its name.
			t = types.Unalias(t)
			if _, ok := t.(*types.Named); !ok {
				report(name, t)
				continue
			}
		}
		if st, ok := t.Underlying().(*types.Struct); ok {
			for _, f := range exportedFields(st, map[*types.Struct]bool{}) {
				report(name+"."+f.Name(), f.Type())
			}
		} else {
			report(name, t.Underlying())
		}
		ms := types.NewMethodSet(types.NewPointer(t))
		for i := 0; i < ms.Len(); i++ {
			if m := ms.At(i).Obj(); m.Exported() {
				report(name+"."+m.Name(), m.Type())
			}
		}
	}
	return out
}

// exportedFields are the fields of st a caller outside its package
// reaches: its exported fields, and those promoted from embedded fields,
// exported or not.
func exportedFields(st *types.Struct, seen map[*types.Struct]bool) []*types.Var {
	if seen[st] {
		return nil
	}
	seen[st] = true
	var out []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if f.Exported() {
			out = append(out, f)
		}
		if !f.Embedded() {
			continue
		}
		t := f.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if inner, ok := t.Underlying().(*types.Struct); ok && !f.Exported() {
			out = append(out, exportedFields(inner, seen)...)
		}
	}
	return out
}

// internalNames are the types of internal packages t names, written
// path.Name: named types of other packages are not entered (they are
// checked as their own package's API), their type arguments are.
func internalNames(t types.Type, seen map[types.Type]bool) []string {
	if seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	walk := func(u types.Type) { out = append(out, internalNames(u, seen)...) }
	switch t := t.(type) {
	case *types.Alias:
		if o := t.Obj(); o.Pkg() != nil && isInternal(o.Pkg().Path()) {
			return []string{o.Pkg().Path() + "." + o.Name()}
		}
		if o := t.Obj(); o.Exported() && o.Pkg() != nil && strings.HasPrefix(o.Pkg().Path(), module) && t.TypeArgs().Len() == 0 {
			// an exported alias of a public package of the module
			// (crdgen.Session) is a public name: its members are
			// checked where it is declared
			return nil
		}
		walk(types.Unalias(t))
	case *types.Named:
		if o := t.Obj(); o.Pkg() != nil && isInternal(o.Pkg().Path()) {
			return []string{o.Pkg().Path() + "." + o.Name()}
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			walk(t.TypeArgs().At(i))
		}
	case *types.Pointer:
		walk(t.Elem())
	case *types.Slice:
		walk(t.Elem())
	case *types.Array:
		walk(t.Elem())
	case *types.Chan:
		walk(t.Elem())
	case *types.Map:
		walk(t.Key())
		walk(t.Elem())
	case *types.Signature:
		walk(t.Params())
		walk(t.Results())
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			walk(t.At(i).Type())
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			walk(t.Field(i).Type())
		}
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			walk(t.Method(i).Type())
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			walk(t.EmbeddedType(i))
		}
	}
	return out
}

// TestImportDirection pins the layers of docs/architecture.md: no package
// under internal/ imports a command (cmd/) or a test package (test/); the
// leaves under internal/encoding import no other package of the module but
// each other, and internal/random (a leaf beside them, which the object
// commands and the tests draw from) imports none; and the core (markers,
// internal/model, internal/decision, internal/engine) imports none of the
// layers above it: the generators, the wiring, the object path, the
// inputs and the object commands.
func TestImportDirection(t *testing.T) {
	cfg := &packages.Config{Dir: "..", Mode: packages.NeedName | packages.NeedImports}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	core := []string{"markers", "internal/model", "internal/decision", "internal/engine"}
	above := []string{"crdgen", "defaultgen", "lint", "internal/genrun", "internal/apiserver/objectpath", "internal/input/source",
		"internal/normalize", "internal/impact", "internal/conversion", "internal/convprog", "cmd/", "test/"}
	under := func(p string, dirs ...string) bool {
		for _, d := range dirs {
			if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
				return true
			}
		}
		return false
	}
	checked := 0
	for _, p := range pkgs {
		from, ok := strings.CutPrefix(p.PkgPath, module)
		if !ok || !under(from, "internal", "markers") {
			continue
		}
		checked++
		for imp := range p.Imports {
			to, ok := strings.CutPrefix(imp, module)
			switch {
			case !ok:
			case under(to, "cmd", "test"):
				t.Errorf("%s imports %s: nothing under internal/ imports a command or a test package", from, to)
			case under(from, "internal/encoding") && !under(to, "internal/encoding"):
				t.Errorf("%s imports %s: internal/encoding's leaves import only each other", from, to)
			case under(from, "internal/random"):
				t.Errorf("%s imports %s: internal/random is a leaf, it imports no package of the module", from, to)
			case under(from, core...) && under(to, above...):
				t.Errorf("%s imports %s: the core imports no layer above it", from, to)
			}
		}
	}
	if checked < 30 {
		t.Fatalf("checked %d packages under internal/ and markers, want every one (at least 30)", checked)
	}
}

package model

import (
	"go/types"
	"maps"
	"slices"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Kind is what KEP-1929's rules see in a field's Go type.
type Kind int

const (
	KindOther  Kind = iota // interfaces, funcs: no rule applies
	KindStruct             // a struct encoded field by field
	KindScalar             // string, bool, integer, number, or a known type encoded as one
	KindList               // a slice or array
	KindMap                // a map
	KindOpaque             // a type with its own encoding whose zero JSON we do not know
)

// Shape describes a Go type for the defaulting rules.
type Shape struct {
	Pointer bool
	Kind    Kind
	// Named is the type's name, if it has one (after one pointer).
	Named *types.Named
	// Ident is Named's TypeIdent in the index, valid when HasIdent.
	Ident    TypeIdent
	HasIdent bool
	// Zero is the JSON that encoding/json writes for the Go zero value of a
	// scalar, or nil when that is null or unknown.
	Zero []byte
	// Note says why a type is opaque.
	Note string
	// Elem is the element type of lists and maps.
	Elem types.Type
}

// NonPointerStruct reports a struct that encoding/json writes field by
// field whenever its parent is written: KEP-1929's "non-pointer struct".
func (s Shape) NonPointerStruct() bool { return !s.Pointer && s.Kind == KindStruct }

// knownZero is the JSON that encoding/json writes for the zero value of
// types with their own MarshalJSON. "null" means there is no zero default to
// write. Types with a MarshalJSON that are not here are skipped with a note:
// we never guess.
var knownZero = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":       "null",
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":  "null",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":   `"0s"`,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":   `"0"`,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString": "0",
}

// overridden are types whose schema controller-gen replaces with a plain
// one; implicit defaults never apply inside them.
var overridden = map[string]bool{
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta":                    true,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Fields":                        true,
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured":     true,
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSON": true,
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":      true,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                       true,
}

// ShapeOf classifies t, as written in pkg.
func (m *Model) ShapeOf(t types.Type, pkg *loader.Package) Shape {
	var sh Shape
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		sh.Pointer = true
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		sh.Named = n
		sh.Ident, sh.HasIdent = m.identOf(n, pkg)
		if obj := n.Obj(); obj.Pkg() != nil {
			key := loader.NonVendorPath(obj.Pkg().Path()) + "." + obj.Name()
			if z, ok := knownZero[key]; ok {
				sh.Kind = KindScalar
				if z != "null" {
					sh.Zero = []byte(z)
				}
				return sh
			}
			if overridden[key] {
				sh.Kind = KindOpaque
				sh.Note = "controller-gen gives " + obj.Name() + " a fixed schema"
				return sh
			}
		}
		if m.hasOwnEncoding(n) {
			sh.Kind = KindOpaque
			sh.Note = n.Obj().Name() + " has its own MarshalJSON or MarshalText and is not in the table of known zero values"
			return sh
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		sh.Kind = KindStruct
	case *types.Basic:
		sh.Kind = KindScalar
		sh.Zero = basicZero(u)
	case *types.Slice:
		sh.Kind, sh.Elem = KindList, u.Elem()
	case *types.Array:
		sh.Kind, sh.Elem = KindList, u.Elem()
	case *types.Map:
		sh.Kind, sh.Elem = KindMap, u.Elem()
	default:
		sh.Kind = KindOther
	}
	return sh
}

// basicZero is encoding/json's output for the zero value of a basic type.
func basicZero(b *types.Basic) []byte {
	switch {
	case b.Info()&types.IsString != 0:
		return []byte(`""`)
	case b.Info()&types.IsBoolean != 0:
		return []byte(`false`)
	case b.Info()&(types.IsInteger|types.IsFloat) != 0:
		return []byte(`0`)
	}
	return nil
}

// hasOwnEncoding reports whether encoding/json would call a method of n
// (MarshalJSON or MarshalText, on the value or the pointer) instead of
// encoding it by kind, field by field. Method sets
// are costly to build and every use of a type asks again, so the answer is
// kept.
func (m *Model) hasOwnEncoding(n *types.Named) bool {
	if v, ok := m.ownEncoding[n]; ok {
		return v
	}
	v := false
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		ms := types.NewMethodSet(t)
		v = v || ms.Lookup(nil, "MarshalJSON") != nil || ms.Lookup(nil, "MarshalText") != nil
	}
	m.ownEncoding[n] = v
	return v
}

// identOf finds the index's TypeIdent for n: in the package that refers
// to it, in one it imports, or, for a type reached through an alias of
// another package (v1.Status = v1beta1.Status = v1alpha1.Status), in the
// package that declares it, wherever that is among from's dependencies. A
// type is one TypeIdent whatever path reached it, as controller-tools,
// which follows each alias through the imports of its own package, ends
// at the same declaration.
func (m *Model) identOf(n *types.Named, from *loader.Package) (TypeIdent, bool) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return TypeIdent{}, false
	}
	pkg := from
	if path := loader.NonVendorPath(obj.Pkg().Path()); path != from.PkgPath {
		pkg = m.imported(from, path)
	}
	if pkg == nil {
		return TypeIdent{}, false
	}
	id := TypeIdent{Package: pkg, Name: obj.Name()}
	ok := m.idx.TypeInfo(id) != nil
	if !ok && m.loadImports {
		// Lint sees the roots only: load the package of a type they use.
		m.idx.NeedPackage(pkg)
		ok = m.idx.TypeInfo(id) != nil
	}
	return id, ok
}

// imported is the package of path among from's dependencies: one it
// imports, else one that those import, at any depth (an alias's target);
// nil when it is not loaded.
func (m *Model) imported(from *loader.Package, path string) *loader.Package {
	if p := m.directImport(from, path); p != nil {
		return p
	}
	key := depKey{from, path}
	if p, ok := m.deps[key]; ok {
		return p
	}
	var found *loader.Package
	seen := map[*loader.Package]bool{from: true}
	queue := m.directImports(from)
	for len(queue) > 0 && found == nil {
		p := queue[0]
		queue = queue[1:]
		if p == nil || seen[p] {
			continue
		}
		seen[p] = true
		if loader.NonVendorPath(p.PkgPath) == path {
			found = p
			break
		}
		queue = append(queue, m.directImports(p)...)
	}
	m.deps[key] = found
	return found
}

// depKey is a package path looked up among the dependencies of a package.
type depKey struct {
	from *loader.Package
	path string
}

// directImport is the package of path that from imports, nil when it does
// not import it or it is not loaded.
func (m *Model) directImport(from *loader.Package, path string) *loader.Package {
	if m.importOf != nil {
		return m.importOf(from, path)
	}
	return from.Imports()[path]
}

// directImports are the loaded packages that from imports, in import path
// order.
func (m *Model) directImports(from *loader.Package) []*loader.Package {
	if m.importsOf != nil {
		return m.importsOf(from)
	}
	return sortedImports(from.Imports())
}

func sortedImports(imports map[string]*loader.Package) []*loader.Package {
	out := make([]*loader.Package, 0, len(imports))
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		out = append(out, imports[path])
	}
	return out
}

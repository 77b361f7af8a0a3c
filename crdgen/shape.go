package crdgen

import (
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/gotypes"
)

// kind is what KEP-1929's rules see in a field's Go type.
type kind int

const (
	kindOther  kind = iota // interfaces, funcs: no rule applies
	kindStruct             // a struct encoded field by field
	kindScalar             // string, bool, integer, number, or a known type encoded as one
	kindList               // a slice or array
	kindMap                // a map
	kindOpaque             // a type with its own encoding whose zero JSON we do not know
)

// shape describes a field's Go type for the defaulting rules.
type shape struct {
	pointer bool
	kind    kind
	// named is the type's name, if it has one (after one pointer).
	named *types.Named
	// ident is named's TypeIdent, valid when hasIdent.
	ident    crd.TypeIdent
	hasIdent bool
	// zero is the JSON that encoding/json writes for the Go zero value of a
	// scalar, or nil when that is null or unknown.
	zero []byte
	// note says why a type is opaque.
	note string
	// elem is the element type of lists and maps.
	elem types.Type
}

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

// shapeOf classifies t, declared in pkg.
func (d *defaulter) shapeOf(t types.Type, pkg *loader.Package) shape {
	var sh shape
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		sh.pointer = true
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		sh.named = n
		sh.ident, sh.hasIdent = d.identOf(n, pkg)
		if obj := n.Obj(); obj.Pkg() != nil {
			key := loader.NonVendorPath(obj.Pkg().Path()) + "." + obj.Name()
			if z, ok := knownZero[key]; ok {
				sh.kind = kindScalar
				if z != "null" {
					sh.zero = []byte(z)
				}
				return sh
			}
			if overridden[key] {
				sh.kind = kindOpaque
				sh.note = "controller-gen gives " + obj.Name() + " a fixed schema"
				return sh
			}
		}
		if d.hasOwnEncoding(n) {
			sh.kind = kindOpaque
			sh.note = n.Obj().Name() + " has its own MarshalJSON or MarshalText and is not in the table of known zero values"
			return sh
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		sh.kind = kindStruct
	case *types.Basic:
		sh.kind = kindScalar
		sh.zero = basicZero(u)
	case *types.Slice:
		sh.kind, sh.elem = kindList, u.Elem()
	case *types.Array:
		sh.kind, sh.elem = kindList, u.Elem()
	case *types.Map:
		sh.kind, sh.elem = kindMap, u.Elem()
	default:
		sh.kind = kindOther
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
// (MarshalJSON or MarshalText) instead of encoding it by kind. Method sets
// are costly to build and every use of a type asks again, so the answer is
// kept.
func (d *defaulter) hasOwnEncoding(n *types.Named) bool {
	if v, ok := d.ownEncoding[n]; ok {
		return v
	}
	v := gotypes.HasOwnEncoding(n)
	d.ownEncoding[n] = v
	return v
}

// identOf finds the parser's TypeIdent for n, as controller-tools does:
// through the imports of the package that refers to it.
func (d *defaulter) identOf(n *types.Named, from *loader.Package) (crd.TypeIdent, bool) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return crd.TypeIdent{}, false
	}
	pkg := from
	if path := loader.NonVendorPath(obj.Pkg().Path()); path != from.PkgPath {
		pkg = from.Imports()[path]
	}
	if pkg == nil {
		return crd.TypeIdent{}, false
	}
	id := crd.TypeIdent{Package: pkg, Name: obj.Name()}
	_, ok := d.parser.Types[id]
	return id, ok
}

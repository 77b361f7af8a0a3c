package conversion

import (
	"go/token"
	"io"
	"path/filepath"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/goapi"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// loaded are the user's API packages as the crd generator loads them
// (goapi.API: the CRDs, the field model, the Go root type of each version
// of each kind), with what conversion asks of them.
type loaded struct{ *goapi.API }

// load loads patterns in dir as the crd generator does (goapi.Load):
// without crdPaths the CRDs are generated in memory, whose diagnostics go
// to log; with them they are read.
func load(dir string, patterns, crdPaths []string, log io.Writer) (*loaded, error) {
	a, err := goapi.Load(dir, patterns, crdPaths, log)
	if err != nil {
		return nil, err
	}
	return &loaded{a}, nil
}

// field is the Go field that holds the value at p of an object of gvk:
// the deepest struct field on the way (a map's or list's field for its
// keys and items), with its JSON path as the crd generator's diagnostics
// write it. ok is false when gvk has no Go root type or p names no field.
func (l *loaded) field(gvk schema.GroupVersionKind, p Path) (f *model.Field, ok bool) {
	id, ok := l.Roots[gvk]
	if !ok {
		return nil, false
	}
	m := l.Model
	var sh model.Shape
	inStruct := true
	for _, seg := range p {
		switch {
		case seg.Item || seg.Key:
			if f == nil || (sh.Kind != model.KindList && sh.Kind != model.KindMap) {
				return f, f != nil
			}
			sh = m.ShapeOf(sh.Elem, f.Pkg)
			inStruct = sh.Kind == model.KindStruct && sh.HasIdent
			if inStruct {
				id = sh.Ident
			}
		default:
			if !inStruct {
				return f, f != nil
			}
			var next *model.Field
			for _, c := range m.Fields(id) {
				if c.Tag.Name == seg.Name {
					next = c
					break
				}
			}
			if next == nil {
				return f, f != nil
			}
			f, sh = next, next.Shape
			inStruct = sh.Kind == model.KindStruct && sh.HasIdent
			if inStruct {
				id = sh.Ident
			}
		}
	}
	return f, f != nil
}

// typePos is where the root type of gvk is declared.
func (l *loaded) typePos(gvk schema.GroupVersionKind) (token.Position, bool) { return l.TypePos(gvk) }

// goEncoding is GoEncoding for the kind gk: each version's object as its
// Go root type writes it (goapi.API.Encode); an object of a version
// without a Go root type, or that does not encode, as it is.
func (l *loaded) goEncoding(gk schema.GroupKind) GoEncoding {
	return func(version string, obj map[string]any) map[string]any {
		if out, ok := l.Encode(gk.WithVersion(version), obj); ok {
			return out
		}
		return obj
	}
}

// relFile is a position as go vet writes it: relative to the working
// directory when below it, with slashes.
func relFile(pos token.Position) token.Position {
	pos = model.RelPos(pos)
	pos.Filename = filepath.ToSlash(pos.Filename)
	return pos
}

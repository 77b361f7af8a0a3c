package model

import (
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/golit"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// ZeroJSON is what encoding/json writes for the zero value of the struct
// type id, decoded; ok is false where that is not known (a field whose type
// has its own encoding and is not in the table of known zero values).
func (m *Model) ZeroJSON(id TypeIdent) (map[string]any, bool) {
	if z, ok := m.zeros[id]; ok {
		return copyJSON(z), z != nil
	}
	m.zeros[id] = nil // a struct cannot contain itself by value
	out := map[string]any{}
	for _, f := range m.Fields(id) {
		if f.Tag.Omits(f.Shape.NonPointerStruct()) {
			continue
		}
		v, ok := m.zeroValue(f.Shape)
		if !ok {
			return nil, false
		}
		out[f.Tag.Name] = v
	}
	m.zeros[id] = out
	return copyJSON(out), true
}

// copyJSON copies a decoded object, whose numbers are jsonnum.Numbers
// (runtime.DeepCopyJSON knows only the apiserver's int64 and float64).
func copyJSON(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	out := make(map[string]any, len(v))
	for k, e := range v {
		if o, ok := e.(map[string]any); ok {
			e = copyJSON(o)
		}
		out[k] = e // zero JSON holds no lists: a nil slice is null
	}
	return out
}

// zeroValue is the zero JSON of a field of shape sh that is always written.
func (m *Model) zeroValue(sh Shape) (any, bool) {
	switch {
	case sh.Pointer, sh.Kind == KindList, sh.Kind == KindMap, sh.Kind == KindOther:
		return nil, true // nil pointers, slices, maps and interfaces are null
	case sh.Kind == KindScalar:
		if sh.Zero == nil {
			return nil, true // metav1.Time
		}
		v, err := jsonnum.Decode(sh.Zero)
		return v, err == nil
	case sh.Kind == KindStruct && sh.HasIdent:
		return m.ZeroJSON(sh.Ident)
	}
	return nil, false
}

// GoEncoding is value as a Go client encodes it once it has decoded it
// into a Go value of type t (encoding/json both ways): fields without
// omitempty that value leaves out appear with their zero value, fields
// that omitempty or omitzero leave out when zero disappear, and nulls
// (nil pointers, slices and maps) are left out, as the apiserver prunes
// them. Keys that are no field of t stay, for the apiserver's check to
// report. The Go defaulter and the apiserver then store the same object
// for the default; written as the author wrote it, they may not.
func (m *Model) GoEncoding(value any, t types.Type, pkg *loader.Package) any {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		if enc, ok := golit.Encoding(value, n); ok {
			return enc // a quantity, duration or time as Go writes it
		}
		if m.hasOwnEncoding(n) || n.Obj().Pkg() == nil {
			return value
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		obj, ok := value.(map[string]any)
		sh := m.ShapeOf(t, pkg)
		if !ok || !sh.HasIdent {
			return value
		}
		return m.structEncoding(obj, sh.Ident)
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return value
		}
		return m.listEncoding(value, u.Elem(), pkg)
	case *types.Array:
		return m.listEncoding(value, u.Elem(), pkg)
	case *types.Map:
		obj, ok := value.(map[string]any)
		if !ok {
			return value
		}
		out := make(map[string]any, len(obj))
		for k, v := range obj {
			if v != nil {
				out[k] = m.GoEncoding(v, u.Elem(), pkg)
			}
		}
		return out
	}
	return value
}

func (m *Model) listEncoding(value any, elem types.Type, pkg *loader.Package) any {
	list, ok := value.([]any)
	if !ok {
		return value
	}
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = m.GoEncoding(v, elem, pkg)
	}
	return out
}

// structEncoding is GoEncoding for an object of the struct type id.
func (m *Model) structEncoding(obj map[string]any, id TypeIdent) map[string]any {
	out := map[string]any{}
	fields := m.Fields(id)
	known := map[string]bool{}
	for _, f := range fields {
		v, present := lookupFold(obj, f.Tag.Name)
		for k := range obj {
			if strings.EqualFold(k, f.Tag.Name) {
				known[k] = true
			}
		}
		var enc any
		switch {
		case present && v != nil:
			enc = m.GoEncoding(v, f.Type, f.Pkg)
		case f.Tag.Omits(f.Shape.NonPointerStruct()):
			continue
		default:
			z, ok := m.zeroValue(f.Shape)
			if !ok {
				continue // unknown zero: leave it to the apiserver
			}
			enc = z
		}
		if enc == nil || m.omitted(f, enc) {
			continue
		}
		out[f.Tag.Name] = DropNulls(enc)
	}
	for k, v := range obj {
		if !known[k] {
			out[k] = v
		}
	}
	return out
}

// omitted reports whether encoding/json leaves out a field, not null,
// whose encoding is enc: omitempty leaves out false, 0, "", and empty lists
// and maps (not structs, not pointers); omitzero leaves out the zero value.
func (m *Model) omitted(f *Field, enc any) bool {
	if f.Shape.Pointer {
		return false // a non-nil pointer is written, whatever it points to
	}
	empty := false
	switch v := enc.(type) {
	case string:
		empty = v == ""
	case bool:
		empty = !v
	case jsonnum.Number:
		d, err := jsonnum.Parse(string(v))
		empty = err == nil && d.IsZero()
	case float64:
		empty = v == 0
	case []any:
		empty = len(v) == 0
	case map[string]any:
		empty = len(v) == 0
	}
	switch {
	case f.Tag.OmitEmpty && !f.Shape.NonPointerStruct() && empty:
		return true
	case f.Tag.OmitZero && f.Shape.NonPointerStruct() && f.Shape.HasIdent:
		z, ok := m.ZeroJSON(f.Shape.Ident)
		return ok && jsonnum.Equal(DropNulls(z), enc)
	case f.Tag.OmitZero && !f.Shape.NonPointerStruct():
		_, isList := enc.([]any)
		_, isMap := enc.(map[string]any)
		return empty && !isList && !isMap // an empty, non-nil slice or map is not zero
	}
	return false
}

// DropNulls leaves out the null values of objects, at every depth: what
// the apiserver prunes from a non-nullable field without a default.
func DropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = DropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DropNulls(e)
		}
		return out
	}
	return v
}

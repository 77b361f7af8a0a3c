package model

import (
	"encoding/json"
	"go/types"
	"reflect"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// zeroJSON is what encoding/json writes for the zero value of the struct
// type id, decoded; ok is false where that is not known (a field whose type
// has its own encoding and is not in the table of known zero values).
func (m *Model) zeroJSON(id crd.TypeIdent) (map[string]any, bool) {
	if z, ok := m.zeros[id]; ok {
		return runtime.DeepCopyJSON(z), z != nil
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
	return runtime.DeepCopyJSON(out), true
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
		var v any
		err := json.Unmarshal(sh.Zero, &v)
		return v, err == nil
	case sh.Kind == KindStruct && sh.HasIdent:
		return m.zeroJSON(sh.Ident)
	}
	return nil, false
}

// dropRequiredCoveredByDefaults removes from `required` each property that
// a default value leaves out but that has a default of its own. The
// apiserver validates every default in isolation, before nested defaults
// apply (defaulting.ValidateDefaults), and would reject such a default with
// "Required value"; yet after top-down defaulting the property can never be
// missing, so dropping it from `required` changes no object. This is what
// makes KEP-1929's "Non-pointer structs" and "Struct pointers" examples
// acceptable to the apiserver.
func dropRequiredCoveredByDefaults(s *apiextensionsv1.JSONSchemaProps, v any) {
	switch v := v.(type) {
	case map[string]any:
		kept := s.Required[:0:0]
		for _, r := range s.Required {
			p, has := s.Properties[r]
			if _, present := v[r]; !present && has && p.Default != nil && string(p.Default.Raw) != "null" {
				continue
			}
			kept = append(kept, r)
		}
		if len(kept) == 0 {
			kept = nil
		}
		s.Required = kept
		for k, cv := range v {
			if p, ok := s.Properties[k]; ok {
				dropRequiredCoveredByDefaults(&p, cv)
				s.Properties[k] = p
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for _, e := range v {
				dropRequiredCoveredByDefaults(s.Items.Schema, e)
			}
		}
	}
}

// slim returns the part of s that a default of raw is validated against:
// s itself with its own constraints, but children only as far as CEL rules,
// or a value that sets children (full), need them, and no nested defaults.
// That keeps the check proportional to the node, not to its subtree.
func slim(s *apiextensionsv1.JSONSchemaProps, raw []byte, full bool) *apiextensionsv1.JSONSchemaProps {
	out := *s
	out.Description = ""
	out.Default = &apiextensionsv1.JSON{Raw: raw}
	if len(s.XValidations) == 0 && !full {
		out.Properties = nil
		out.Items = nil
		out.AdditionalProperties = nil
		return &out
	}
	out.Properties = make(map[string]apiextensionsv1.JSONSchemaProps, len(s.Properties))
	for k, p := range s.Properties {
		c := p.DeepCopy()
		stripDefaults(c)
		out.Properties[k] = *c
	}
	if full {
		if s.Items != nil {
			out.Items = s.Items.DeepCopy()
			if out.Items.Schema != nil {
				stripDefaults(out.Items.Schema)
			}
		}
		if s.AdditionalProperties != nil {
			out.AdditionalProperties = s.AdditionalProperties.DeepCopy()
			if out.AdditionalProperties.Schema != nil {
				stripDefaults(out.AdditionalProperties.Schema)
			}
		}
	}
	return &out
}

func stripDefaults(s *apiextensionsv1.JSONSchemaProps) {
	s.Default = nil
	s.Description = ""
	for k, p := range s.Properties {
		stripDefaults(&p)
		s.Properties[k] = p
	}
	if s.Items != nil && s.Items.Schema != nil {
		stripDefaults(s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		stripDefaults(s.AdditionalProperties.Schema)
	}
}

// goEncoding is value as a Go client encodes it once it has decoded it
// into a Go value of type t (encoding/json both ways): fields without
// omitempty that value leaves out appear with their zero value, fields
// that omitempty or omitzero leave out when zero disappear, and nulls
// (nil pointers, slices and maps) are left out, as the apiserver prunes
// them. Keys that are no field of t stay, for the apiserver's check to
// report. The Go defaulter and the apiserver then store the same object
// for the default; written as the author wrote it, they may not.
func (m *Model) goEncoding(value any, t types.Type, pkg *loader.Package) any {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok && (m.hasOwnEncoding(n) || n.Obj().Pkg() == nil) {
		return value
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
				out[k] = m.goEncoding(v, u.Elem(), pkg)
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
		out[i] = m.goEncoding(v, elem, pkg)
	}
	return out
}

// structEncoding is goEncoding for an object of the struct type id.
func (m *Model) structEncoding(obj map[string]any, id crd.TypeIdent) map[string]any {
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
			enc = m.goEncoding(v, f.Type, f.Pkg)
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
		z, ok := m.zeroJSON(f.Shape.Ident)
		return ok && reflect.DeepEqual(DropNulls(z), enc)
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

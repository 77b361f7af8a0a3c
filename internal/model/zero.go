package model

import (
	"encoding/json"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-tools/pkg/crd"
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

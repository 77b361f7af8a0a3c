package e2e

import (
	"fmt"
	"math/rand/v2"
	"sort"

	. "github.com/onsi/gomega"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// objGen derives random values from a CRD schema: at every level a field
// may be absent, null, empty or zero, valid, or invalid (a wrong type, a
// value outside an enum, an unknown field), so that pruning, null removal,
// defaulting and validation are all exercised.
type objGen struct {
	r *rand.Rand
}

const maxDepth = 7

func (g objGen) pick(n int) int { return g.r.IntN(n) }

// value returns a value for s, or ok=false for "leave the field out".
func (g objGen) value(s *apiextensionsv1.JSONSchemaProps, depth int) (v any, ok bool) {
	switch g.pick(12) {
	case 0:
		return nil, false // absent
	case 1:
		return nil, true // null
	case 2:
		return g.invalid(s), true
	case 3:
		return g.zero(s), true
	}
	return g.valid(s, depth), true
}

func (g objGen) zero(s *apiextensionsv1.JSONSchemaProps) any {
	switch {
	case s.XIntOrString:
		return int64(0)
	case s.Type == "object":
		return map[string]any{}
	case s.Type == "array":
		return []any{}
	case s.Type == "string":
		return ""
	case s.Type == "integer", s.Type == "number":
		return int64(0)
	case s.Type == "boolean":
		return false
	}
	return map[string]any{}
}

func (g objGen) invalid(s *apiextensionsv1.JSONSchemaProps) any {
	switch {
	case len(s.Enum) > 0:
		return "not-in-the-enum"
	case s.Type == "string":
		return int64(7)
	case s.Type == "integer":
		return []any{"x"}
	case s.Type == "boolean":
		return "yes"
	case s.Type == "object":
		return "not-an-object"
	case s.Type == "array":
		return map[string]any{"not": "a list"}
	}
	return true
}

// valid is a valid value of s: an object or a list built here, so that
// each of its values may be absent, null, zero or invalid in turn, and a
// scalar drawn by internal/random (random.Value: enums, formats, patterns,
// bounds and lengths kept) from s as the apiserver reads it (structural).
func (g objGen) valid(s *apiextensionsv1.JSONSchemaProps, depth int) any {
	switch {
	case len(s.Enum) > 0, s.XIntOrString, s.Type == "string", s.Type == "integer", s.Type == "number", s.Type == "boolean":
		return random.Value(g.r, structural(s))
	case s.Type == "array":
		if depth >= maxDepth || s.Items == nil || s.Items.Schema == nil {
			return []any{}
		}
		var out []any
		for i := g.pick(3); i > 0; i-- {
			if v, ok := g.value(s.Items.Schema, depth+1); ok {
				out = append(out, v)
			}
		}
		if out == nil {
			out = []any{}
		}
		return out
	case s.Type == "object" || s.XPreserveUnknownFields != nil:
		return g.object(s, depth)
	}
	return "any"
}

func (g objGen) object(s *apiextensionsv1.JSONSchemaProps, depth int) map[string]any {
	out := map[string]any{}
	if depth >= maxDepth {
		return out
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names) // a seed must give the same object every run
	for _, k := range names {
		if s.XEmbeddedResource && (k == "apiVersion" || k == "kind") {
			out[k] = map[string]string{"apiVersion": "v1", "kind": "Thing"}[k]
			continue
		}
		p := s.Properties[k]
		if v, ok := g.value(&p, depth+1); ok {
			out[k] = v
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		for i := g.pick(3); i > 0; i-- {
			if v, ok := g.value(s.AdditionalProperties.Schema, depth+1); ok {
				out[fmt.Sprintf("key%d", i)] = v
			}
		}
	}
	if g.pick(8) == 0 {
		out["unknownField"] = "pruned unless preserved"
	}
	return out
}

// structural is s as the apiserver reads it (structuralschema.NewStructural
// of the internal type, as internal/apiserver/crdcheck converts it).
func structural(s *apiextensionsv1.JSONSchemaProps) *structuralschema.Structural {
	internal := &apiextensions.JSONSchemaProps{}
	Expect(apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, internal, nil)).To(Succeed())
	ss, err := structuralschema.NewStructural(internal)
	Expect(err).NotTo(HaveOccurred())
	return ss
}

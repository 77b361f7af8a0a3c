package e2e

import (
	"fmt"
	"math/rand/v2"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
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

func (g objGen) valid(s *apiextensionsv1.JSONSchemaProps, depth int) any {
	if len(s.Enum) > 0 {
		var v any
		_ = jsonUnmarshal(s.Enum[g.pick(len(s.Enum))].Raw, &v)
		return v
	}
	switch {
	case s.XIntOrString:
		if g.pick(2) == 0 {
			return int64(g.pick(100))
		}
		return []string{"1", "10%", "http", "500m"}[g.pick(4)]
	case s.Type == "string":
		if s.Format == "date-time" {
			return "2026-11-22T10:00:00Z"
		}
		return []string{"a", "abc", "web", "x-1", "Hello World"}[g.pick(5)]
	case s.Type == "integer":
		return int64(g.pick(200) - 50)
	case s.Type == "number":
		return float64(g.pick(100)) / 4
	case s.Type == "boolean":
		return g.pick(2) == 0
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

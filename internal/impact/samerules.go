package impact

import (
	"bytes"
	"reflect"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// ruleTree pairs two schemas of the same values node by node (OLD's and
// NEW's schema of one CRD version), so that judgesAlike can tell, value by
// value, whether the two judge a value alike. A nil *ruleTree stands for
// two absent schemas (a field that x-kubernetes-preserve-unknown-fields
// keeps): nothing validates it, nor anything beneath it, on either side.
type ruleTree struct {
	// differ: the nodes' own keywords differ, or only one side has a
	// schema. Nothing beneath is paired.
	differ bool
	// needs are the fields NEW requires and OLD does not: a value that
	// lacks one is refused by NEW, whatever OLD said.
	needs []string
	// fields pairs the schemas of the fields either side lists in its
	// properties; other pairs those of any other field (the additional
	// properties' schemas); items those of an array's items.
	fields map[string]*ruleTree
	other  *ruleTree
	items  *ruleTree
}

// pairSchemas pairs old and new, node by node, down to the nodes whose own
// keywords differ.
func pairSchemas(old, new *apiextensionsv1.JSONSchemaProps) *ruleTree {
	if old == nil && new == nil {
		return nil
	}
	if old == nil || new == nil {
		return &ruleTree{differ: true}
	}
	needs, ok := noStricterOwnKeywords(old, new)
	if !ok {
		return &ruleTree{differ: true}
	}
	t := &ruleTree{fields: map[string]*ruleTree{}, needs: needs}
	for _, props := range []map[string]apiextensionsv1.JSONSchemaProps{old.Properties, new.Properties} {
		for k := range props {
			if _, done := t.fields[k]; !done {
				t.fields[k] = pairSchemas(fieldSchema(old, k), fieldSchema(new, k))
			}
		}
	}
	t.other = pairSchemas(additionalSchema(old), additionalSchema(new))
	t.items = pairSchemas(itemSchema(old), itemSchema(new))
	return t
}

// judgesAlike says that NEW's schema accepts the value v wherever OLD's
// does, by the same CEL rules: at each node of v, the two schemas' own
// keywords are equal, but for bounds and lists of values that NEW widens
// (noStricterOwnKeywords). A keyword of a field or item that v does not
// have is not compared.
//
// The rule: a value's OpenAPI errors at a node come from that node's own
// keywords (type, format, bounds, enum, required, list and map types,
// allOf/anyOf/oneOf/not, x-kubernetes-* flags) and the value there; its
// CEL errors from the node's own x-kubernetes-validations, evaluated on
// the value as converted to CEL by the schemas of the nodes the value has
// (their types and formats, not their bounds, which only the CRD's cost
// estimate reads), at a runtime cost that depends on the program and the
// value alone. A rule that names a field the value lacks evaluates it as
// absent (has() is false, a selection is "no such key") whatever that
// field's schema, so a schema of an absent field changes no error.
// Descriptions change none either and are not compared.
func (t *ruleTree) judgesAlike(v any) bool {
	if t == nil {
		return true
	}
	if t.differ {
		return false
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range t.needs {
			if _, ok := v[k]; !ok {
				return false
			}
		}
		for k, x := range v {
			c, listed := t.fields[k]
			if !listed {
				c = t.other
			}
			if !c.judgesAlike(x) {
				return false
			}
		}
	case []any:
		for _, x := range v {
			if !t.items.judgesAlike(x) {
				return false
			}
		}
	}
	return true
}

// noStricterOwnKeywords compares the keywords of two nodes that apply to
// the node's own value (ownKeywords): NEW's accept every value OLD's
// accept when they are equal, but that NEW may raise or drop a maximum
// length, number of items or properties, lower or drop a minimum one, add
// values to an enum or drop it, and require fewer fields. needs are the
// fields NEW requires and OLD does not, which the value must have.
// Numeric bounds, formats, patterns and CEL rules must be equal.
func noStricterOwnKeywords(old, new *apiextensionsv1.JSONSchemaProps) (needs []string, ok bool) {
	o, n := ownKeywords(old), ownKeywords(new)
	for _, bound := range []struct {
		o, n  **int64
		upper bool
	}{
		{&o.MaxLength, &n.MaxLength, true}, {&o.MaxItems, &n.MaxItems, true}, {&o.MaxProperties, &n.MaxProperties, true},
		{&o.MinLength, &n.MinLength, false}, {&o.MinItems, &n.MinItems, false}, {&o.MinProperties, &n.MinProperties, false},
	} {
		if widens(*bound.o, *bound.n, bound.upper) {
			*bound.o, *bound.n = nil, nil
		}
	}
	if n.Enum == nil || o.Enum != nil && containsAll(n.Enum, o.Enum) {
		o.Enum, n.Enum = nil, nil
	}
	for _, f := range n.Required {
		if !slices.Contains(o.Required, f) {
			needs = append(needs, f)
		}
	}
	o.Required, n.Required = nil, nil
	return needs, reflect.DeepEqual(o, n)
}

// widens says that NEW's bound n accepts every length or count that OLD's
// bound o accepts: n is absent, or o is present and n no tighter.
func widens(o, n *int64, upper bool) bool {
	switch {
	case n == nil:
		return true
	case o == nil:
		return false
	case upper:
		return *n >= *o
	}
	return *n <= *o
}

// containsAll says whether every value of sub is in set (as JSON text).
func containsAll(set, sub []apiextensionsv1.JSON) bool {
	for _, v := range sub {
		if !slices.ContainsFunc(set, func(w apiextensionsv1.JSON) bool { return bytes.Equal(v.Raw, w.Raw) }) {
			return false
		}
	}
	return true
}

// ownKeywords is s without its description and the schemas of its
// children; whether it has properties (CEL sees an object with properties
// as an object, one without as a map), items and additional properties,
// and allows the latter, stays.
func ownKeywords(s *apiextensionsv1.JSONSchemaProps) apiextensionsv1.JSONSchemaProps {
	own := *s
	own.Description = ""
	own.Properties = nil
	if s.Properties != nil {
		own.Properties = map[string]apiextensionsv1.JSONSchemaProps{}
	}
	if s.Items != nil && s.Items.JSONSchemas == nil {
		own.Items = &apiextensionsv1.JSONSchemaPropsOrArray{}
	}
	if s.AdditionalProperties != nil {
		own.AdditionalProperties = &apiextensionsv1.JSONSchemaPropsOrBool{Allows: s.AdditionalProperties.Allows}
	}
	return own
}

// fieldSchema is the schema of field k of an object of schema s: its
// property, else its additional properties' schema, else nil.
func fieldSchema(s *apiextensionsv1.JSONSchemaProps, k string) *apiextensionsv1.JSONSchemaProps {
	if p, ok := s.Properties[k]; ok {
		return &p
	}
	return additionalSchema(s)
}

// additionalSchema is the schema of s's additional properties, or nil.
func additionalSchema(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSONSchemaProps {
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Schema
	}
	return nil
}

// itemSchema is the schema of the items of an array of schema s, or nil.
func itemSchema(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSONSchemaProps {
	if s.Items != nil {
		return s.Items.Schema
	}
	return nil
}

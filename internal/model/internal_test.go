package model

import (
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestDropRequiredCoveredByDefaults(t *testing.T) {
	def := func(raw string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(raw)} }
	s := apiextensionsv1.JSONSchemaProps{
		Type:     "object",
		Required: []string{"name", "number", "inner", "plain"},
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"name":   {Type: "string", Default: def(`"x"`)},
			"number": {Type: "integer", Default: def(`0`)},
			"plain":  {Type: "string"},
			"inner": {Type: "object", Required: []string{"a", "b"}, Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"a": {Type: "string", Default: def(`"a"`)},
				"b": {Type: "string"},
			}},
		},
	}
	// name is present in the default, number is left out but has a default,
	// plain has no default, inner is present and leaves out a defaulted a.
	dropRequiredCoveredByDefaults(&s, map[string]any{"name": "y", "inner": map[string]any{"b": "b"}})
	if want := []string{"name", "inner", "plain"}; !reflect.DeepEqual(s.Required, want) {
		t.Errorf("required = %v, want %v", s.Required, want)
	}
	if want := []string{"b"}; !reflect.DeepEqual(s.Properties["inner"].Required, want) {
		t.Errorf("inner.required = %v, want %v", s.Properties["inner"].Required, want)
	}
}

func TestFitsSchema(t *testing.T) {
	for _, tc := range []struct {
		value any
		s     apiextensionsv1.JSONSchemaProps
		ok    bool
	}{
		{"x", apiextensionsv1.JSONSchemaProps{Type: "string"}, true},
		{float64(3), apiextensionsv1.JSONSchemaProps{Type: "integer"}, true},
		{3.5, apiextensionsv1.JSONSchemaProps{Type: "integer"}, false},
		{float64(3), apiextensionsv1.JSONSchemaProps{Type: "number"}, true},
		{"3", apiextensionsv1.JSONSchemaProps{XIntOrString: true}, true},
		{true, apiextensionsv1.JSONSchemaProps{XIntOrString: true}, false},
		{map[string]any{}, apiextensionsv1.JSONSchemaProps{Type: "array"}, false},
		{nil, apiextensionsv1.JSONSchemaProps{Type: "string", Nullable: true}, false},
		{[]any{}, apiextensionsv1.JSONSchemaProps{}, true},
	} {
		if got := fitsSchema(tc.value, &tc.s) == ""; got != tc.ok {
			t.Errorf("fitsSchema(%#v, %+v) ok = %v, want %v", tc.value, tc.s, got, tc.ok)
		}
	}
}

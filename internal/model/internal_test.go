package model

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

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

package decision

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

// TestCELNames: a rule names a property when it reads self.<name> or self
// as a whole; other fields, and names that only start alike, do not count.
func TestCELNames(t *testing.T) {
	for rule, want := range map[string]bool{
		"has(self.oar)":       true,
		"self.oar.size() > 0": true,
		"[has(self.a), has(self.oar)].filter(x, x).size() == 1": true,
		"size(self) > 1":                 true,
		"self == oldSelf":                true,
		"self.oars > 0":                  false,
		"self.boat.oar > 0":              false,
		"has(self.a)":                    false,
		"myself.oar > 0 && self.a == 1":  false,
		"oldSelf.oar == 1 && self.a > 0": false,
	} {
		if got := celNames(rule, "oar"); got != want {
			t.Errorf("celNames(%q, oar) = %v, want %v", rule, got, want)
		}
	}
}

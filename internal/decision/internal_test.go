package decision

import (
	"reflect"
	"regexp"
	"strings"
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

// celNamesRx is celNames' rule as a regular expression: self not inside
// another identifier, then either no selector or .name ending there.
func celNamesRx(name string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_])self($|[^A-Za-z0-9_.]|\.` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_]))`)
}

// FuzzCELNames checks celNames against celNamesRx on any rule text and
// property name: the scanner and the regular expression must agree.
//
// go test ./internal/decision -run '^$' -fuzz '^FuzzCELNames$'
func FuzzCELNames(f *testing.F) {
	for _, seed := range []string{"has(self.oar)", "self.oars > 0", "size(self) > 1", "myself.oar", "self", "self.", "self.oar",
		"[has(self.a), has(self.oar)].filter(x, x).size() == 1", "oldSelf.oar == self.a", "self.oar_x", "self.é", "selfself.oar"} {
		f.Add(seed, "oar")
	}
	f.Fuzz(func(t *testing.T, rule, name string) {
		if name == "" || strings.IndexFunc(name, func(r rune) bool { return r > 127 || !isIdent(byte(r)) }) >= 0 {
			t.Skip("a property name celNames is asked about is a CEL identifier")
		}
		if got, want := celNames(rule, name), celNamesRx(name).MatchString(rule); got != want {
			t.Fatalf("celNames(%q, %q) = %v, the regular expression says %v", rule, name, got, want)
		}
	})
}

package decision

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// TestDefaultDiffersByUse: an omitzero struct field whose property gets
// `{}` at one use of its type and nothing at another (the enclosing
// object counts its properties there) is reported once, at the second
// kind of use, naming both places; fields that Go always sends, and uses
// that agree, are not.
func TestDefaultDiffersByUse(t *testing.T) {
	counted := &apiextensionsv1.JSONSchemaProps{Type: "object", MinProperties: ptr(int64(1))}
	type use struct {
		crd    string
		parent *apiextensionsv1.JSONSchemaProps
	}
	for _, tc := range []struct {
		name  string
		field string
		uses  []use
		// want is the index of the use reported (-1: none), and parts of
		// its message
		want  int
		parts []string
	}{
		{name: "with, then without", field: "omitzero", uses: []use{{"a", nil}, {"b", counted}, {"c", counted}}, want: 1,
			parts: []string{"default {} at spec.omitzero of a/v1 but none at spec.omitzero of b/v1", "minProperties", "+default={}", "pointer (*Rigging)"}},
		{name: "without, then with", field: "omitzero", uses: []use{{"a", counted}, {"b", nil}, {"c", nil}}, want: 1,
			parts: []string{"default {} at spec.omitzero of b/v1 but none at spec.omitzero of a/v1"}},
		{name: "uses agree", field: "omitzero", uses: []use{{"a", nil}, {"b", nil}}, want: -1},
		{name: "uses agree on none", field: "omitzero", uses: []use{{"a", counted}, {"b", counted}}, want: -1},
		{name: "Go always sends it", field: "struct", uses: []use{{"a", nil}, {"b", counted}}, want: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, true)
			f := goField(t, m, tc.field)
			for i, u := range tc.uses {
				m.InVersion(u.crd, "v1")
				prop := rigging("12")
				if tc.field == "struct" {
					prop = obj(map[string]apiextensionsv1.JSONSchemaProps{"name": withDefault(str(), `"x"`)})
				}
				d := m.Decide(prop, f, nil, "spec."+tc.field, u.parent)
				var got []model.Finding
				for _, fnd := range d.Findings {
					if fnd.Rule == model.RuleDefaultDiffersByUse {
						got = append(got, fnd)
					}
				}
				if i != tc.want {
					if len(got) > 0 {
						t.Errorf("use %d: %s", i, got[0].Msg)
					}
					continue
				}
				if len(got) != 1 || got[0].Sev != model.Warning {
					t.Fatalf("use %d: findings %v, want one warning %s", i, findingStrings(d.Findings), model.RuleDefaultDiffersByUse)
				}
				for _, p := range tc.parts {
					if !strings.Contains(got[0].Msg, p) {
						t.Errorf("message %q, want it to contain %q", got[0].Msg, p)
					}
				}
			}
		})
	}
}

package conversion

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

func ptr[T any](v T) *T { return &v }

// listsSchema is spec with a list map (keyed by name), a list set, an
// atomic list, and objects and lists that may come back empty.
func listsSchema(edit func(spec *structuralschema.Structural)) *structuralschema.Structural {
	str := structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}
	item := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{"name": str, "zone": str}}
	obj := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{"a": str, "list": {Generic: structuralschema.Generic{Type: "array"}, Items: &str}}}
	spec := structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"}, Properties: map[string]structuralschema.Structural{
		"domains": {Generic: structuralschema.Generic{Type: "array"}, Items: &item,
			Extensions: structuralschema.Extensions{XListType: ptr("map"), XListMapKeys: []string{"name"}}},
		"tags": {Generic: structuralschema.Generic{Type: "array"}, Items: &str,
			Extensions: structuralschema.Extensions{XListType: ptr("set")}},
		"order": {Generic: structuralschema.Generic{Type: "array"}, Items: &str},
		"obj":   obj,
		"names": {Generic: structuralschema.Generic{Type: "array"}, Items: &str},
	}}
	if edit != nil {
		edit(&spec)
	}
	return &structuralschema.Structural{Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{"spec": spec}}
}

func diffs(s *structuralschema.Structural, a, b map[string]any) string {
	var ds []Diff
	compare(a, b, s, nil, &ds)
	var out []string
	for _, d := range ds {
		out = append(out, d.Path.String()+": "+Show(d.Before)+" → "+Show(d.After))
	}
	return strings.Join(out, "; ")
}

func spec(m map[string]any) map[string]any { return map[string]any{"spec": m} }

// TestCompareLists: list maps compare by keys, list sets as sets, other
// lists in order.
func TestCompareLists(t *testing.T) {
	s := listsSchema(nil)
	dom := func(name, zone string) map[string]any { return map[string]any{"name": name, "zone": zone} }
	for _, tc := range []struct {
		name string
		a, b map[string]any
		want string
	}{
		{"list map reordered",
			spec(map[string]any{"domains": []any{dom("a", "1"), dom("b", "2")}}),
			spec(map[string]any{"domains": []any{dom("b", "2"), dom("a", "1")}}), ""},
		{"list map item changed",
			spec(map[string]any{"domains": []any{dom("a", "1"), dom("b", "2")}}),
			spec(map[string]any{"domains": []any{dom("b", "3"), dom("a", "1")}}), `spec.domains[].zone: "2" → "3"`},
		{"list map item lost",
			spec(map[string]any{"domains": []any{dom("a", "1"), dom("b", "2")}}),
			spec(map[string]any{"domains": []any{dom("a", "1")}}), `spec.domains[]: {"name":"b","zone":"2"} → absent`},
		{"list set reordered",
			spec(map[string]any{"tags": []any{"x", "y"}}),
			spec(map[string]any{"tags": []any{"y", "x"}}), ""},
		{"list set item lost",
			spec(map[string]any{"tags": []any{"x", "y"}}),
			spec(map[string]any{"tags": []any{"y"}}), `spec.tags[]: "x" → absent`},
		{"atomic list reordered",
			spec(map[string]any{"order": []any{"x", "y"}}),
			spec(map[string]any{"order": []any{"y", "x"}}), `spec.order[]: "x" → "y"; spec.order[]: "y" → "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := diffs(s, tc.a, tc.b); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestCompareEmpty: {} and [] are absent unless the schema tells them
// apart.
func TestCompareEmpty(t *testing.T) {
	sent := spec(map[string]any{"obj": map[string]any{}, "names": []any{}})
	nested := spec(map[string]any{"obj": map[string]any{"list": []any{}}})
	back := spec(map[string]any{})
	lost := `spec.names: [] → absent; spec.obj: {} → absent`
	for _, tc := range []struct {
		name string
		edit func(*structuralschema.Structural)
		a    map[string]any
		want string
	}{
		{"plain", nil, sent, ""},
		{"nested empties", nil, nested, ""},
		{"nested value", nil, spec(map[string]any{"obj": map[string]any{"a": ""}}), `spec.obj: {"a":""} → absent`},
		{"nullable", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) { p.Nullable = true })
			setProp(s, "names", func(p *structuralschema.Structural) { p.Nullable = true })
		}, sent, lost},
		{"minProperties, minItems", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) {
				p.ValueValidation = &structuralschema.ValueValidation{MinProperties: ptr(int64(1))}
			})
			setProp(s, "names", func(p *structuralschema.Structural) {
				p.ValueValidation = &structuralschema.ValueValidation{MinItems: ptr(int64(1))}
			})
		}, sent, lost},
		{"minProperties 0, minItems 0", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) {
				p.ValueValidation = &structuralschema.ValueValidation{MinProperties: ptr(int64(0))}
			})
			setProp(s, "names", func(p *structuralschema.Structural) {
				p.ValueValidation = &structuralschema.ValueValidation{MinItems: ptr(int64(0))}
			})
		}, sent, ""},
		{"minProperties, not empty", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) {
				p.ValueValidation = &structuralschema.ValueValidation{MinProperties: ptr(int64(1))}
			})
		}, nested, ""},
		{"a default", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) { p.Default.Object = map[string]any{"a": "x"} })
			setProp(s, "names", func(p *structuralschema.Structural) { p.Default.Object = []any{"x"} })
		}, sent, lost},
		{"a default inside", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) {
				a := p.Properties["a"]
				a.Default.Object = "x"
				p.Properties = map[string]structuralschema.Structural{"a": a, "list": p.Properties["list"]}
			})
		}, sent, `spec.obj: {} → absent`},
		{"a CEL rule naming it", func(s *structuralschema.Structural) {
			s.XValidations = apiextensionsv1.ValidationRules{{Rule: "has(self.obj) == has(self.names)"}}
		}, sent, lost},
		{"a CEL rule's message naming it", func(s *structuralschema.Structural) {
			s.XValidations = apiextensionsv1.ValidationRules{{Rule: "true", MessageExpression: "has(self.obj) ? 'a' : 'b'"}}
		}, sent, `spec.obj: {} → absent`},
		{"a CEL rule naming something else", func(s *structuralschema.Structural) {
			s.XValidations = apiextensionsv1.ValidationRules{{Rule: "has(self.objects) || self.namesake == 1"}}
		}, sent, ""},
		{"a CEL rule above naming it", func(s *structuralschema.Structural) {
			setProp(s, "obj", func(p *structuralschema.Structural) {
				p.XValidations = apiextensionsv1.ValidationRules{{Rule: "!has(self.list) || size(self.list) > 0"}}
			})
		}, nested, `spec.obj: {"list":[]} → absent`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := diffs(listsSchema(tc.edit), tc.a, back); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func setProp(s *structuralschema.Structural, name string, edit func(*structuralschema.Structural)) {
	p := s.Properties[name]
	edit(&p)
	s.Properties[name] = p
}

// TestCompareAppears: a value that comes back where none was sent (the
// second object has more keys than the first) is a difference at its
// path.
func TestCompareAppears(t *testing.T) {
	s := listsSchema(nil)
	got := diffs(s, spec(map[string]any{}), spec(map[string]any{"obj": map[string]any{"a": "x"}, "tags": []any{"y"}}))
	if want := `spec.obj: absent → {"a":"x"}; spec.tags: absent → ["y"]`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

package impact

import (
	"strconv"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// schemaOf parses a JSONSchemaProps written as YAML.
func schemaOf(t *testing.T, y string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	s := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.UnmarshalStrict([]byte(y), s); err != nil {
		t.Fatalf("%s: %v", y, err)
	}
	return s
}

// valueOf parses a JSON value written as YAML.
func valueOf(t *testing.T, y string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(y), &v); err != nil {
		t.Fatalf("%s: %v", y, err)
	}
	return v
}

// TestJudgesAlike: NEW's schema accepts a value wherever OLD's does when
// their own keywords are equal at each of its nodes, but for bounds, enums
// and required fields that NEW widens; a change elsewhere (a field the
// value does not have, a description) does not count. Each case is run
// both ways, so that each rule is seen to widen in one direction only.
func TestJudgesAlike(t *testing.T) {
	t.Parallel()
	const base = `
type: object
properties:
  name: {type: string, maxLength: 10}
  port: {type: integer, minimum: 1}
  labels: {type: object, additionalProperties: {type: string, maxLength: 5}}
  tags: {type: array, items: {type: string, maxLength: 3}, x-kubernetes-list-type: atomic}
  extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
`
	// want is OLD → NEW, back is NEW → OLD (the schemas swapped)
	cases := []struct {
		name, new, value string
		want, back       bool
	}{
		{"same schema", base, `{name: a, port: 2, labels: {k: v}, tags: [x], extra: {any: [1]}}`, true, true},
		{"descriptions only", `
type: object
description: changed
properties:
  name: {type: string, maxLength: 10, description: the name}
  port: {type: integer, minimum: 1, description: the port}
  labels: {type: object, additionalProperties: {type: string, maxLength: 5, description: x}}
  tags: {type: array, items: {type: string, maxLength: 3, description: x}, x-kubernetes-list-type: atomic}
  extra: {type: object, x-kubernetes-preserve-unknown-fields: true, description: x}
`, `{name: a, port: 2, labels: {k: v}, tags: [x], extra: {any: 1}}`, true, true},
		{"numeric bound changed on a present field", replace(base, "minimum: 1", "minimum: 1024"), `{port: 2}`, false, false},
		{"numeric bound changed on an absent field", replace(base, "minimum: 1", "minimum: 1024"), `{name: a}`, true, true},
		{"CEL rule added on a present field", replace(base, "maxLength: 10}", "maxLength: 10, x-kubernetes-validations: [{rule: self != 'a'}]}"), `{name: a}`, false, false},
		{"CEL rule added on an absent field", replace(base, "maxLength: 10}", "maxLength: 10, x-kubernetes-validations: [{rule: self != 'a'}]}"), `{port: 2}`, true, true},
		{"CEL rule added at the root", replace(base, "type: object\nproperties:", "type: object\nx-kubernetes-validations: [{rule: '!has(self.name)'}]\nproperties:"), `{port: 2}`, false, false},
		{"required added at the root, value has the field", replace(base, "type: object\nproperties:", "type: object\nrequired: [port]\nproperties:"), `{port: 2}`, true, true},
		{"required added at the root, value lacks the field", replace(base, "type: object\nproperties:", "type: object\nrequired: [port]\nproperties:"), `{name: a}`, false, true},
		{"maximum length raised on a present field", replace(base, "maxLength: 10", "maxLength: 20"), `{name: a}`, true, false},
		{"maximum length dropped on a present field", replace(base, "maxLength: 10", "minLength: 0"), `{name: a}`, false, false},
		{"maximum length dropped, nothing added", replace(base, "{type: string, maxLength: 10}", "{type: string}"), `{name: a}`, true, false},
		{"minimum items lowered", replace(base, "x-kubernetes-list-type: atomic}", "x-kubernetes-list-type: atomic, minItems: 0}"), `{tags: [x]}`, false, true},
		{"enum widened", replace(base, "{type: string, maxLength: 10}", "{type: string, maxLength: 10, enum: [a, b]}"), `{name: a}`, false, true},
		{"pattern changed", replace(base, "{type: string, maxLength: 10}", "{type: string, maxLength: 10, pattern: '^a'}"), `{name: a}`, false, false},
		{"additional properties tightened, map has a key", replace(base, "maxLength: 5", "maxLength: 4"), `{labels: {k: v}}`, false, true},
		{"additional properties changed, map empty", replace(base, "maxLength: 5", "pattern: x"), `{labels: {}}`, true, true},
		{"additional properties dropped, map empty (a map becomes an object to CEL)", replace(base, "labels: {type: object, additionalProperties: {type: string, maxLength: 5}}", "labels: {type: object}"), `{labels: {}}`, false, false},
		{"items tightened, list has an item", replace(base, "maxLength: 3", "maxLength: 2"), `{tags: [x]}`, false, true},
		{"items changed, list empty", replace(base, "maxLength: 3", "pattern: x"), `{tags: []}`, true, true},
		{"list type changed on a present list", replace(base, "list-type: atomic", "list-type: set"), `{tags: []}`, false, false},
		{"field added, value has it", replace(base, "  extra:", "  mode: {type: string}\n  extra:"), `{mode: a}`, false, false},
		{"field added, value lacks it", replace(base, "  extra:", "  mode: {type: string}\n  extra:"), `{name: a}`, true, true},
		{"field removed, value has it", replace(base, "  port: {type: integer, minimum: 1}\n", ""), `{port: 2}`, false, false},
		{"field removed, value lacks it", replace(base, "  port: {type: integer, minimum: 1}\n", ""), `{name: a}`, true, true},
		{"nothing beneath preserved fields on either side", base, `{extra: {a: {b: [1, {c: d}]}}}`, true, true},
		{"properties given to a preserved object, value empty (CEL sees an object, not a map)", replace(base, "x-kubernetes-preserve-unknown-fields: true}", "x-kubernetes-preserve-unknown-fields: true, properties: {a: {type: string}}}"), `{extra: {}}`, false, false},
		{"a schema beneath a preserved field on one side", replace(base, "x-kubernetes-preserve-unknown-fields: true}", "x-kubernetes-preserve-unknown-fields: true, properties: {a: {type: string}}}"), `{extra: {a: x}}`, false, false},
		{"nullable added on a present field", replace(base, "maxLength: 10}", "maxLength: 10, nullable: true}"), `{name: a}`, false, false},
		{"default added on a present field", replace(base, "maxLength: 10}", "maxLength: 10, default: b}"), `{name: a}`, false, false},
	}
	old := schemaOf(t, base)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := pairSchemas(old, schemaOf(t, c.new)).judgesAlike(valueOf(t, c.value)); got != c.want {
				t.Errorf("judgesAlike(%s) = %v, want %v", c.value, got, c.want)
			}
			if got := pairSchemas(schemaOf(t, c.new), old).judgesAlike(valueOf(t, c.value)); got != c.back {
				t.Errorf("swapped: judgesAlike(%s) = %v, want %v", c.value, got, c.back)
			}
		})
	}
}

// replace replaces the one occurrence of old in s, which must be there.
func replace(s, old, new string) string {
	if strings.Count(s, old) != 1 {
		panic("replace: " + old + " is not once in the schema")
	}
	return strings.Replace(s, old, new, 1)
}

// TestValidatesAlike: the CRD-level conditions of validatesAlike, each
// broken alone, refuse an object that the same CRDs otherwise pass; so
// does a transition rule at the root of a schema both CRDs share.
func TestValidatesAlike(t *testing.T) {
	t.Parallel()
	crds := loadCRDs(t, "testdata/old.yaml")
	var widget *apiextensionsv1.CustomResourceDefinition
	for _, c := range crds {
		if c.Spec.Names.Kind == "Widget" {
			widget = c
		}
	}
	obj := map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": map[string]any{"size": "M"}}
	if !validatesAlike(widget, widget.DeepCopy(), "v1").judges(obj) {
		t.Fatal("a CRD does not validate alike with itself")
	}
	for name, change := range map[string]func(c *apiextensionsv1.CustomResourceDefinition){
		"group":        func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Group = "other.example.com" },
		"scope":        func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Scope = apiextensionsv1.ClusterScoped },
		"names":        func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Names.ShortNames = []string{"wd"} },
		"subresources": func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions[0].Subresources = nil },
		"selectable": func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].SelectableFields = []apiextensionsv1.SelectableField{{JSONPath: ".spec.size"}}
		},
		"no version":    func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions[0].Name = "v2" },
		"schema absent": func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions[0].Schema = nil },
	} {
		t.Run(name, func(t *testing.T) {
			changed := widget.DeepCopy()
			change(changed)
			if validatesAlike(widget, changed, "v1").judges(obj) || validatesAlike(changed, widget, "v1").judges(obj) {
				t.Errorf("%s changed, yet validatesAlike", name)
			}
		})
	}
	// a transition rule at the root: the skeleton would be its oldSelf
	for _, rule := range []apiextensionsv1.ValidationRule{{Rule: "self == oldSelf"}, {Rule: "true", OptionalOldSelf: ptr.To(true)}} {
		root := widget.DeepCopy()
		root.Spec.Versions[0].Schema.OpenAPIV3Schema.XValidations = apiextensionsv1.ValidationRules{rule}
		if validatesAlike(root, root.DeepCopy(), "v1").judges(obj) {
			t.Errorf("root rule %+v, yet validatesAlike", rule)
		}
	}
}

// TestStatusWriteOnly: each premise of statusWriteOnly, broken alone,
// refuses the shortcut that the same object otherwise takes.
func TestStatusWriteOnly(t *testing.T) {
	t.Parallel()
	const root = `
type: object
required: [spec]
properties:
  spec:
    type: object
    properties:
      a: {type: string}
      b: {type: string, x-kubernetes-validations: [{rule: "self != 'x'", optionalOldSelf: true}]}
  status: {type: object, properties: {phase: {type: string}}}
`
	obj := map[string]any{"spec": map[string]any{"a": "y"}, "status": map[string]any{"phase": "Ready"}}
	rules := func(y string) alikeRules {
		s := schemaOf(t, y)
		return alikeRules{ok: true, tree: pairSchemas(s, s), root: s}
	}
	if !statusWriteOnly(rules(root), obj, &Update{}) {
		t.Fatal("the premises hold, yet no shortcut")
	}
	if statusWriteOnly(rules(root), obj, &Update{Refused: true, Problems: []Problem{{Field: "spec.a", Message: "m"}}}) {
		t.Error("the no-op update has a problem, yet the shortcut")
	}
	if statusWriteOnly(rules(root), obj, nil) {
		t.Error("no no-op update, yet the shortcut")
	}
	withB := map[string]any{"spec": map[string]any{"b": "y"}, "status": map[string]any{"phase": "Ready"}}
	if statusWriteOnly(rules(root), withB, &Update{}) {
		t.Error("a rule with optionalOldSelf at spec.b, yet the shortcut")
	}
	for _, r := range []string{
		"required: [spec, status]",
		"maxProperties: 5\nrequired: [spec]",
		"minProperties: 1\nrequired: [spec]",
		"x-kubernetes-validations: [{rule: '!has(self.status)'}]\nrequired: [spec]",
		"not: {required: [status]}\nrequired: [spec]",
	} {
		if statusWriteOnly(rules(replace(root, "required: [spec]", r)), obj, &Update{}) {
			t.Errorf("root keywords %q see the status, yet the shortcut", r)
		}
	}
	if !statusBlindRoot(schemaOf(t, "type: object\ndescription: d")) || !statusBlindRoot(nil) {
		t.Error("a root of type and description only is not status-blind")
	}
}

// TestGenerationKeepsDigits: the main write's generation, one more than
// the object's, is as long as it, and the object has one.
func TestGenerationKeepsDigits(t *testing.T) {
	t.Parallel()
	for g, want := range map[any]bool{int64(1): true, int64(8): true, int64(9): false, int64(10): true, int64(99): false, int64(100): true, int64(0): false, int64(-1): false, "1": false, nil: false} {
		obj := map[string]any{"metadata": map[string]any{}}
		if g != nil {
			obj["metadata"].(map[string]any)["generation"] = g
		}
		if got := generationKeepsDigits(obj); got != want {
			t.Errorf("generation %v: %v, want %v", g, got, want)
		}
	}
}

// TestWidens: a maximum widens when raised or dropped, a minimum when
// lowered or dropped; neither when added.
func TestWidens(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		o, n  *int64
		upper bool
		want  bool
	}{
		{ptr.To[int64](5), ptr.To[int64](5), true, true}, {ptr.To[int64](5), ptr.To[int64](6), true, true}, {ptr.To[int64](5), ptr.To[int64](4), true, false},
		{ptr.To[int64](5), ptr.To[int64](5), false, true}, {ptr.To[int64](5), ptr.To[int64](4), false, true}, {ptr.To[int64](5), ptr.To[int64](6), false, false},
		{ptr.To[int64](5), nil, true, true}, {ptr.To[int64](5), nil, false, true}, {nil, nil, true, true},
		{nil, ptr.To[int64](5), true, false}, {nil, ptr.To[int64](0), false, false},
	} {
		if got := widens(c.o, c.n, c.upper); got != c.want {
			t.Errorf("widens(%v, %v, upper %v) = %v, want %v", ptr.Deref(c.o, -1), ptr.Deref(c.n, -1), c.upper, got, c.want)
		}
	}
}

// TestNoStricterBounds: each length and count bound, present on both
// sides, widens in its own direction only.
func TestNoStricterBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		keyword, schema, value string
		upper                  bool
	}{
		{"maxLength", "type: string", `abc`, true}, {"maxItems", "type: array\nitems: {type: string}", `[a]`, true}, {"maxProperties", "type: object\nadditionalProperties: {type: string}", `{a: b}`, true},
		{"minLength", "type: string", `abc`, false}, {"minItems", "type: array\nitems: {type: string}", `[a]`, false}, {"minProperties", "type: object\nadditionalProperties: {type: string}", `{a: b}`, false},
	} {
		old := schemaOf(t, c.schema+"\n"+c.keyword+": 5")
		for n, raised := range map[int]bool{4: false, 6: true} {
			got := pairSchemas(old, schemaOf(t, c.schema+"\n"+c.keyword+": "+strconv.Itoa(n))).judgesAlike(valueOf(t, c.value))
			if want := raised == c.upper; got != want {
				t.Errorf("%s 5 → %d: judgesAlike = %v, want %v", c.keyword, n, got, want)
			}
		}
	}
}

// TestStatusUpdateFollows: the no-op update's write of the status is
// left out only when asIfNew's got no error, and no rule at the root or at
// the status's values reads oldSelf; each premise broken alone keeps it.
func TestStatusUpdateFollows(t *testing.T) {
	t.Parallel()
	const schema = `
type: object
properties:
  spec: {type: object, properties: {a: {type: string, x-kubernetes-validations: [{rule: self == oldSelf}]}}}
  status:
    type: object
    properties:
      phase: {type: string}
      since: {type: string, x-kubernetes-validations: [{rule: "self >= oldSelf"}]}
      items: {type: array, maxItems: 4, items: {type: string, maxLength: 4, x-kubernetes-validations: [{rule: "true", optionalOldSelf: true}]}}
`
	crd := func(y string) *definition {
		return &definition{crd: &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1", Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: schemaOf(t, y)}},
		}}}}
	}
	obj := func(status string) map[string]any {
		return map[string]any{"spec": map[string]any{"a": "x"}, "status": valueOf(t, status)}
	}
	if !statusUpdateFollows(crd(schema), "v1", obj(`{phase: Ready}`), nil) {
		t.Fatal("the premises hold (a transition rule in the spec only), yet the write is sent")
	}
	for name, c := range map[string]struct {
		schema, status string
		asNew          []Problem
	}{
		"asIfNew's status write got an error": {schema, `{phase: Ready}`, []Problem{{Field: "status.phase"}}},
		"a transition rule at a status value": {schema, `{since: a}`, nil},
		"optionalOldSelf at a list item":      {schema, `{items: [a]}`, nil},
		"a transition rule at the root":       {replace(schema, "type: object\nproperties:", "type: object\nx-kubernetes-validations: [{rule: 'self.spec == oldSelf.spec'}]\nproperties:"), `{phase: Ready}`, nil},
		"no such version":                     {schema, `{phase: Ready}`, nil},
	} {
		version := "v1"
		if name == "no such version" {
			version = "v2"
		}
		if statusUpdateFollows(crd(c.schema), version, obj(c.status), c.asNew) {
			t.Errorf("%s, yet the write is left out", name)
		}
	}
	if !statusUpdateFollows(crd(schema), "v1", obj(`{items: []}`), nil) {
		t.Error("an empty list: no item's rule runs, yet the write is sent")
	}
}

package decision

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// sub is the schema of testdata/decide's Sub: count is required.
func sub() *apiextensionsv1.JSONSchemaProps {
	return obj(map[string]apiextensionsv1.JSONSchemaProps{"name": str(), "count": intg()}, "count")
}

// rigging is the schema of Rigging, with a default on knots.
func rigging(knots string) *apiextensionsv1.JSONSchemaProps {
	k := intg()
	if knots != "" {
		k = withDefault(k, knots)
	}
	return obj(map[string]apiextensionsv1.JSONSchemaProps{"knots": k, "sail": str()})
}

func endpoint() *apiextensionsv1.JSONSchemaProps {
	return obj(map[string]apiextensionsv1.JSONSchemaProps{"name": str(), "port": intg()}, "name")
}

// TestDecide: each way a field's decision goes (decide.go), one case each.
func TestDecide(t *testing.T) {
	off := false
	minProps := func(s *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.JSONSchemaProps {
		s.MinProperties = ptr(int64(1))
		return s
	}
	for _, tc := range []struct {
		name     string
		field    string
		prop     *apiextensionsv1.JSONSchemaProps
		implicit *bool // default true
		inherit  *bool
		def      string // the default written, "" for none
		source   string // part of Source
		rule     string
		why      string // part of Why, when there is no default
		// inRequired says the enclosing schema requires the property,
		// whatever the Go code says (the model predicts it otherwise)
		inRequired bool
		// parent is the enclosing object's schema (inRequired adds the
		// field to its required)
		parent   *apiextensionsv1.JSONSchemaProps
		findings []string
	}{
		{name: "explicit", field: "explicit", prop: ptr(str()), def: `"TCP"`, source: "+default"},
		{name: "explicit as Go clients encode it", field: "endpoint", prop: endpoint(), def: `{"name":"","port":80}`,
			source: `+default, written as Go clients encode it: {"name":"","port":80}`},
		{name: "author's literal kept: duration", field: "timeout", prop: ptr(str()), def: `"60s"`, source: "+kubebuilder:default"},
		{name: "author's literal kept: quantity", field: "weight", prop: &apiextensionsv1.JSONSchemaProps{XIntOrString: true}, def: `1`, source: "+kubebuilder:default"},
		{name: "explicit already as Go encodes it", field: "endpointAsGo", prop: endpoint(), def: `{"name":"","port":80}`, source: "+default"},
		{name: "explicit zero left out as Go does", field: "endpointZeroPort", prop: endpoint(), def: `{"name":""}`,
			source: `+default, written as Go clients encode it: {"name":""}`},
		{name: "explicit as written without implicit defaults", field: "endpoint", prop: endpoint(), implicit: &off, def: `{"port":80}`, source: "+default"},
		{name: "explicit list", field: "list", prop: &apiextensionsv1.JSONSchemaProps{Type: "array",
			Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: ptr(str())}}, def: `["a"]`, source: "+default"},
		{name: "refused type", field: "refused", prop: ptr(intg()), rule: model.RuleTypeMismatch, why: "the default does not have the field's type",
			findings: []string{`error default-type-mismatch: +default="three": the field's schema type is integer, the default is a JSON string`}},
		{name: "refused KEP rule", field: "notEmpty", prop: sub(), rule: model.RuleStructDefaultEmpty, why: "the default breaks a KEP-1929 rule",
			findings: []string{"error struct-default-not-empty"}},
		{name: "KEP rule warned without implicit defaults", field: "notEmpty", prop: sub(), implicit: &off, def: `{"name":"x"}`, source: "+default",
			findings: []string{"warning struct-default-not-empty"}},
		{name: "+default={} on omitzero struct is rule 1's", field: "emptyOmitzero", prop: rigging("12"), def: `{}`, rule: model.RuleImplicitStruct,
			source: "+default={} on an omitzero struct, as implicit-struct-default: a non-pointer struct tagged omitzero"},
		{name: "+default={} on omitzero struct without implicit defaults", field: "emptyOmitzero", prop: rigging("12"), implicit: &off, def: `{}`, source: "+default"},
		{name: "+default={} on omitzero struct, nothing below", field: "emptyOmitzero", prop: rigging(""), rule: model.RuleImplicitStruct,
			why: "+default={} on an omitzero struct, as implicit-struct-default: omitzero: Go clients leave the zero struct out"},
		{name: "+default={} on plain struct", field: "emptyPlain", prop: rigging(""), def: `{}`, source: "+default"},
		{name: "+default={} on a required omitzero struct, nothing below: the author's, as without implicit defaults",
			field: "emptyOmitzero", prop: rigging(""), inRequired: true, def: `{}`, source: "+default"},
		{name: "+default={} on an omitzero struct whose object counts properties: the author's",
			field: "emptyOmitzero", prop: rigging(""), parent: minProps(obj(nil)), def: `{}`, source: "+default"},

		{name: "field marker off", field: "off", prop: ptr(str()), why: "implicit defaults are off here"},
		{name: "inherited off", field: "scalar", prop: ptr(str()), inherit: &off, why: "implicit defaults are off here"},
		{name: "option off", field: "scalar", prop: ptr(str()), implicit: &off, why: "implicit defaults are off here"},
		{name: "required", field: "required", prop: ptr(str()), rule: model.RuleRequired, why: "the schema requires the field (the field is +required)"},
		{name: "required by the schema", field: "scalar", prop: ptr(str()), inRequired: true, rule: model.RuleRequired, why: "the schema requires the field"},
		{name: "minProperties counts presence", field: "scalar", prop: ptr(str()), parent: &apiextensionsv1.JSONSchemaProps{Type: "object", MinProperties: ptr(int64(1))},
			rule: model.RuleRequired, why: "the enclosing object's minProperties counts which properties are present"},
		{name: "maxProperties counts presence", field: "struct", prop: obj(map[string]apiextensionsv1.JSONSchemaProps{"name": str(), "count": withDefault(intg(), "0")}, "count"),
			parent: &apiextensionsv1.JSONSchemaProps{Type: "object", MaxProperties: ptr(int64(1))}, rule: model.RuleRequired, why: "maxProperties"},
		{name: "a CEL rule naming the field", field: "scalar", prop: ptr(str()),
			parent: &apiextensionsv1.JSONSchemaProps{Type: "object", XValidations: apiextensionsv1.ValidationRules{{Rule: "has(self.scalar) != has(self.int)"}}},
			rule:   model.RuleRequired, why: `CEL rule "has(self.scalar) != has(self.int)"`},
		{name: "a CEL rule about other fields", field: "scalar", prop: ptr(str()),
			parent: &apiextensionsv1.JSONSchemaProps{Type: "object", XValidations: apiextensionsv1.ValidationRules{{Rule: "self.scalarx == self.int"}}},
			def:    `""`, rule: model.RuleImplicitZero},
		{name: "required by controller-gen", field: "inferredRequired", prop: ptr(str()), rule: model.RuleRequired,
			why: "the schema requires the field (controller-gen requires a field without omitempty, omitzero or +optional): the apiserver defaults before it validates"},

		{name: "struct {}", field: "struct", prop: obj(map[string]apiextensionsv1.JSONSchemaProps{"name": str(), "count": withDefault(intg(), "0")}, "count"),
			def: `{}`, rule: model.RuleImplicitStruct, source: "implicit-struct-default: a non-pointer struct"},
		{name: "struct {} refused: required child, no warning", field: "struct", prop: sub(), rule: model.RuleImplicitStruct,
			why: "an empty Sub is not a valid value: the schema requires count, which no default fills"},
		{name: "struct {} refused: required child and more", field: "struct", prop: func() *apiextensionsv1.JSONSchemaProps {
			s := sub()
			s.MinProperties = ptr(int64(2))
			return s
		}(), rule: model.RuleImplicitStruct, why: "the apiserver would refuse {}",
			findings: []string{"warning implicit-struct-default: implicit default {} (non-pointer struct) skipped: the apiserver would reject it"}},
		{name: "struct {} refused: min properties", field: "struct", prop: minProps(obj(map[string]apiextensionsv1.JSONSchemaProps{"name": str(), "count": intg()})),
			rule: model.RuleImplicitStruct, why: "the apiserver would refuse {}",
			findings: []string{"warning implicit-struct-default: implicit default {} (non-pointer struct) skipped: the apiserver would reject it: the default {} has 0 properties; the schema requires at least 1 (minProperties). " +
				"Fix: the schema refuses an empty object, which Go clients send for this field: add omitzero"}},
		{name: "struct {} refused, defaults below", field: "struct",
			prop: minProps(obj(map[string]apiextensionsv1.JSONSchemaProps{"name": withDefault(str(), `"x"`), "count": intg()})),
			def:  `{"name":"x"}`, rule: model.RuleImplicitStruct, source: "a non-pointer struct: {} is refused, so {} with the defaults below it applied"},
		{name: "struct {} refused, omitempty warns once", field: "omitempty", prop: sub(), rule: model.RuleImplicitStruct,
			why:      "an empty Sub is not a valid value: the schema requires count",
			findings: []string{"warning omitempty-struct"}},
		{name: "omitzero, nothing below", field: "omitzero", prop: rigging(""), rule: model.RuleImplicitStruct,
			why: "omitzero: Go clients leave the zero struct out, and no default below it would change it"},
		{name: "omitzero, {} with defaults below", field: "omitzero", prop: rigging("12"), def: `{}`, rule: model.RuleImplicitStruct,
			source: "implicit-struct-default: a non-pointer struct tagged omitzero: what the apiserver stores for Go's zero struct"},
		{name: "omitzero, {} refused, stored value", field: "omitzero", prop: minProps(rigging("12")), def: `{"knots":12}`, rule: model.RuleImplicitStruct,
			source: "tagged omitzero"},
		{name: "omitzero, refused", field: "omitzero", prop: func() *apiextensionsv1.JSONSchemaProps {
			s := rigging("12")
			s.MinProperties = ptr(int64(2))
			return s
		}(), rule: model.RuleImplicitStruct, why: "omitzero, and the apiserver would refuse the zero struct: the default {} has 0 properties; the schema requires at least 2 (minProperties)"},
		{name: "omitzero, zero struct written with its fields", field: "omitzeroSub",
			prop: obj(map[string]apiextensionsv1.JSONSchemaProps{"name": withDefault(str(), `"x"`), "count": intg()}, "count"),
			def:  `{"count":0,"name":"x"}`, rule: model.RuleImplicitStruct, source: "tagged omitzero"},
		{name: "omitzero, zero JSON unknown", field: "opaque", prop: obj(map[string]apiextensionsv1.JSONSchemaProps{"own": withDefault(str(), `"x"`)}),
			rule: model.RuleImplicitStruct, why: "omitzero, and the JSON of the zero struct is not known"},
		{name: "struct pointer", field: "pointer", prop: sub(), why: "no marker, and no implicit default applies"},
		{name: "preserved struct", field: "struct", prop: &apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true)},
			why: "no marker, and no implicit default applies"},
		{name: "embedded resource", field: "struct", prop: &apiextensionsv1.JSONSchemaProps{Type: "object", XEmbeddedResource: true, Properties: sub().Properties},
			why: "no marker, and no implicit default applies"},

		{name: "zero string", field: "scalar", prop: ptr(str()), def: `""`, rule: model.RuleImplicitZero,
			source: "implicit-zero-default: the zero value of a field without omitempty"},
		{name: "zero int", field: "int", prop: ptr(intg()), def: `0`, rule: model.RuleImplicitZero},
		{name: "zero bool", field: "bool", prop: &apiextensionsv1.JSONSchemaProps{Type: "boolean"}, def: `false`, rule: model.RuleImplicitZero},
		{name: "zero float", field: "float", prop: &apiextensionsv1.JSONSchemaProps{Type: "number"}, def: `0`, rule: model.RuleImplicitZero},
		{name: "zero int-or-string", field: "scalar", prop: &apiextensionsv1.JSONSchemaProps{XIntOrString: true}, def: `""`, rule: model.RuleImplicitZero},
		{name: "zero refused", field: "scalar", prop: &apiextensionsv1.JSONSchemaProps{Type: "string", Enum: []apiextensionsv1.JSON{{Raw: []byte(`"TCP"`)}}},
			rule: model.RuleImplicitZero, why: `the apiserver would refuse the zero value: the default "" is not one of the values the schema allows, "TCP" (enum)`,
			findings: []string{`warning implicit-zero-default: implicit default "" (zero value: the field has no omitempty) skipped: the apiserver would reject it: the default "" is not one of the values the schema allows, "TCP" (enum). ` +
				"Fix: add omitempty (or omitzero), make the field a pointer, or set a valid +default"}},
		{name: "zero of an untyped schema", field: "scalar", prop: &apiextensionsv1.JSONSchemaProps{}, why: "no implicit default applies"},
		{name: "omitempty scalar", field: "scalarOmit", prop: ptr(str()), why: "no implicit default applies"},
		{name: "time zero is null", field: "time", prop: &apiextensionsv1.JSONSchemaProps{Type: "string", Format: "date-time"}, why: "no implicit default applies"},
		{name: "map", field: "map", prop: &apiextensionsv1.JSONSchemaProps{Type: "object"}, why: "no implicit default applies"},
		{name: "fixed schema", field: "raw", prop: &apiextensionsv1.JSONSchemaProps{Type: "object", XEmbeddedResource: true},
			why: "the zero value is unknown: controller-gen gives RawExtension a fixed schema", findings: []string{"note unknown-zero-value: no implicit default: controller-gen gives RawExtension a fixed schema"}},
		{name: "own encoding", field: "own", prop: ptr(str()), why: "the zero value is unknown: Own has its own MarshalJSON",
			findings: []string{"note unknown-zero-value: no implicit default: Own has its own MarshalJSON or MarshalText"}},
		{name: "own encoding, omitempty", field: "ownOmit", prop: ptr(str()), why: "no implicit default applies"},
		{name: "own encoding, pointer", field: "ownPointer", prop: ptr(str()), why: "no implicit default applies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, tc.implicit == nil || *tc.implicit)
			f := goField(t, m, tc.field)
			parent := tc.parent
			if tc.inRequired {
				parent = &apiextensionsv1.JSONSchemaProps{Type: "object", Required: []string{tc.field}}
			}
			d := m.Decide(tc.prop, f, tc.inherit, "spec."+tc.field, parent)
			matchFindings(t, tc.name, d.Findings, tc.findings...)
			for _, fnd := range d.Findings {
				if fnd.JPath != "spec."+tc.field {
					t.Errorf("finding at %q, want the decision's path", fnd.JPath)
				}
			}
			if got := string(d.Default); got != tc.def {
				t.Errorf("default %q, want %q (why: %s)", got, tc.def, d.Why)
			}
			if d.Rule != tc.rule {
				t.Errorf("rule %q, want %q", d.Rule, tc.rule)
			}
			if tc.def != "" {
				if !strings.Contains(d.Source, tc.source) {
					t.Errorf("source %q, want %q", d.Source, tc.source)
				}
				if !jsonnum.Equal(d.value, decode(d.Default)) {
					t.Errorf("value %#v, default %s", d.value, d.Default)
				}
				if got := d.String(); got != f.GoPath()+" (spec."+tc.field+"): default "+tc.def+" from "+d.Source {
					t.Errorf("String() = %q", got)
				}
				if ds := m.Decisions(f); len(ds) != 1 || ds[0] != d {
					t.Errorf("Decisions = %v, want the decision", ds)
				}
			} else {
				if !strings.Contains(d.Why, tc.why) || tc.why == "" {
					t.Errorf("why %q, want %q", d.Why, tc.why)
				}
				if got := d.String(); got != f.GoPath()+" (spec."+tc.field+"): no default: "+d.Why {
					t.Errorf("String() = %q", got)
				}
				if len(m.Decisions(f)) != 0 {
					t.Errorf("a decision without a default is kept for the generators")
				}
			}
			if len(m.all) != 1 || m.all[0] != d {
				t.Errorf("explain keeps %d decisions", len(m.all))
			}
			if ex := d.Explicit(); (ex != nil) != (strings.HasPrefix(tc.source, "+") || strings.Contains(tc.why, "+default") || tc.rule == model.RuleTypeMismatch || tc.rule == model.RuleStructDefaultEmpty) {
				t.Errorf("Explicit() = %v", ex)
			}
		})
	}
}

// TestDecideElement: a list item or map value takes only the +default on
// its type, checked, and written as Go clients encode it.
func TestDecideElement(t *testing.T) {
	off := false
	for _, tc := range []struct {
		name, field string
		s           *apiextensionsv1.JSONSchemaProps
		implicit    *bool
		def, why    string
		findings    []string
	}{
		{name: "type default", field: "items", s: ptr(str()), def: `"item"`},
		{name: "refused", field: "badItems", s: ptr(intg()), why: "the default does not have the schema's type",
			findings: []string{`error default-type-mismatch: +default on type Bad="large": the field's schema type is integer, the default is a JSON string`}},
		{name: "none", field: "plain", s: ptr(str()), why: "a list item or map value takes only a +default on its type"},
		{name: "as Go encodes it", field: "objects", s: endpoint(), def: `{"name":"","port":8080}`},
		{name: "as written", field: "objects", s: endpoint(), implicit: &off, def: `{"port":8080}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newModel(t, tc.implicit == nil)
			f := goField(t, m, tc.field)
			d := m.DecideElement(tc.s, m.Types.ShapeOf(f.Shape.Elem, f.Pkg), "spec."+tc.field+"[*]")
			matchFindings(t, tc.name, d.Findings, tc.findings...)
			if string(d.Default) != tc.def || (tc.def == "" && !strings.Contains(d.Why, tc.why)) {
				t.Errorf("default %s, why %q; want %s, %q", d.Default, d.Why, tc.def, tc.why)
			}
			if tc.def != "" && !strings.HasPrefix(d.Source, "+default on type ") {
				t.Errorf("source %q", d.Source)
			}
			if d.Field != nil || d.String() != "spec."+tc.field+"[*]"+map[bool]string{true: ": default " + tc.def + " from " + d.Source, false: ": no default: " + d.Why}[tc.def != ""] {
				t.Errorf("String() = %q", d.String())
			}
		})
	}
}

// TestApply: a decision writes its default, and drops from `required`
// what the default covers; no default writes nothing.
func TestApply(t *testing.T) {
	s := obj(map[string]apiextensionsv1.JSONSchemaProps{"name": withDefault(str(), `"x"`), "count": intg()}, "count", "name")
	(&Decision{}).Apply(s)
	if s.Default != nil || len(s.Required) != 2 {
		t.Fatalf("no decision wrote %v, required %v", s.Default, s.Required)
	}
	(&Decision{Default: []byte(`{"count":1}`), value: map[string]any{"count": float64(1)}}).Apply(s)
	if string(s.Default.Raw) != `{"count":1}` || !slices.Equal(s.Required, []string{"count"}) {
		t.Errorf("default %s, required %v; want {\"count\":1}, [count]", s.Default.Raw, s.Required)
	}
}

// TestStructFix: the fix is chosen by the errors' types and the schema,
// whatever their English text says: a required child the schema declares,
// or fewer properties than minProperties (an Invalid value at the default
// itself, whose value is its number of properties).
func TestStructFix(t *testing.T) {
	prop := obj(map[string]apiextensionsv1.JSONSchemaProps{"a": str(), "b": str()})
	min1 := obj(map[string]apiextensionsv1.JSONSchemaProps{"a": str(), "b": str()})
	min1.MinProperties = ptr(int64(1))
	const omit = "add omitzero to the json tag (Go clients then leave the empty struct out), or make the field a pointer"
	const minFix = "the schema refuses an empty object, which Go clients send for this field: " + omit
	const generic = omit + ", or mark the field +required"
	def := field.NewPath("default")
	for _, tc := range []struct {
		name string
		prop *apiextensionsv1.JSONSchemaProps
		errs field.ErrorList
		want string
	}{
		{"required children", prop, field.ErrorList{field.Required(def.Child("a"), ""), field.Required(def.Child("b"), ""), field.Required(def.Child("a"), "")},
			"give a, b a default, " + omit + ", or mark the field +required"},
		{"required, not a child of the schema", prop, field.ErrorList{field.Required(def.Child("other"), "")}, generic},
		{"minProperties, as the apiserver says it", min1, field.ErrorList{field.Invalid(def, int64(0), " in body should have at least 1 properties")}, minFix},
		{"minProperties, whatever the text", min1, field.ErrorList{field.Invalid(def, 0, "")}, minFix},
		{"minProperties, required child first", min1, field.ErrorList{field.Invalid(def, int64(0), ""), field.Required(def.Child("a"), "")},
			"give a a default, " + omit + ", or mark the field +required"},
		{"the text of minProperties, without minProperties", prop, field.ErrorList{field.Invalid(def, int64(0), " in body should have at least 1 properties")}, generic},
		{"as many properties as minProperties", min1, field.ErrorList{field.Invalid(def, int64(1), "")}, generic},
		{"a child's invalid value", min1, field.ErrorList{field.Invalid(def.Child("a"), int64(0), " in body should have at least 1 properties")}, generic},
		{"another type at the default", min1, field.ErrorList{field.NotSupported(def, int64(0), []string{"x"})}, generic},
		{"a value that is no count", min1, field.ErrorList{field.Invalid(def, "0", "")}, generic},
		{"minLength", prop, field.ErrorList{field.Invalid(def, 0, "at least 1 chars long")}, generic},
		{"no errors", prop, nil, generic},
	} {
		if got := structFix(tc.prop, tc.errs); got != tc.want {
			t.Errorf("%s: structFix(%v) = %q, want %q", tc.name, tc.errs, got, tc.want)
		}
	}
}

func TestPreservesUnknown(t *testing.T) {
	yes := ptr(true)
	for _, tc := range []struct {
		s    apiextensionsv1.JSONSchemaProps
		want bool
	}{
		{apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: yes}, true},
		{apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: ptr(false)}, false},
		{apiextensionsv1.JSONSchemaProps{}, false},
		{apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: yes, Properties: map[string]apiextensionsv1.JSONSchemaProps{"a": str()}}, false},
		{apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: yes, Items: &apiextensionsv1.JSONSchemaPropsOrArray{}}, false},
		{apiextensionsv1.JSONSchemaProps{XPreserveUnknownFields: yes, AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{}}, false},
	} {
		if got := PreservesUnknown(&tc.s); got != tc.want {
			t.Errorf("PreservesUnknown(%+v) = %v", tc.s, got)
		}
	}
}

func TestDefaultsBelow(t *testing.T) {
	d := withDefault(str(), `"x"`)
	deep := *obj(map[string]apiextensionsv1.JSONSchemaProps{"x": d})
	for _, tc := range []struct {
		name string
		s    *apiextensionsv1.JSONSchemaProps
		want bool
	}{
		{"none", obj(map[string]apiextensionsv1.JSONSchemaProps{"a": str()}), false},
		{"own default only", func() *apiextensionsv1.JSONSchemaProps { s := withDefault(*obj(nil), "{}"); return &s }(), false},
		{"property", obj(map[string]apiextensionsv1.JSONSchemaProps{"a": str(), "b": d}), true},
		{"deep property", obj(map[string]apiextensionsv1.JSONSchemaProps{"a": deep}), true},
		{"items", &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &d}}, true},
		{"below items", &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &deep}}, true},
		{"plain items", &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: ptr(str())}}, false},
		{"items without schema", &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{}}, false},
		{"values", &apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: &d}}, true},
		{"below values", &apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: &deep}}, true},
		{"plain values", &apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: ptr(str())}}, false},
		{"values without schema", &apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true}}, false},
	} {
		if got := defaultsBelow(tc.s); got != tc.want {
			t.Errorf("defaultsBelow(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestImplicitApplies(t *testing.T) {
	m := newModel(t, true)
	for _, tc := range []struct {
		field string
		prop  apiextensionsv1.JSONSchemaProps
		st    bool // implicitStructApplies
		zero  bool // implicitZeroApplies
	}{
		{"struct", *sub(), true, false},
		{"struct", apiextensionsv1.JSONSchemaProps{Type: "string"}, false, false},
		{"struct", apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true)}, false, false},
		{"struct", apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true), Properties: sub().Properties}, true, false},
		{"struct", apiextensionsv1.JSONSchemaProps{Type: "object", XEmbeddedResource: true}, false, false},
		{"pointer", *sub(), false, false},
		{"scalar", str(), false, true},
		{"int", intg(), false, true},
		{"bool", apiextensionsv1.JSONSchemaProps{Type: "boolean"}, false, true},
		{"float", apiextensionsv1.JSONSchemaProps{Type: "number"}, false, true},
		{"scalar", apiextensionsv1.JSONSchemaProps{XIntOrString: true}, false, true},
		{"scalar", apiextensionsv1.JSONSchemaProps{Type: "object"}, false, false},
		{"scalar", apiextensionsv1.JSONSchemaProps{Type: "array"}, false, false},
		{"scalarOmit", str(), false, false},
		{"ownPointer", str(), false, false},
		{"time", str(), false, false},
		{"map", apiextensionsv1.JSONSchemaProps{Type: "object"}, false, false},
		{"list", apiextensionsv1.JSONSchemaProps{Type: "array"}, false, false},
	} {
		f := goField(t, m, tc.field)
		if got := implicitStructApplies(&tc.prop, f.Shape); got != tc.st {
			t.Errorf("implicitStructApplies(%s, %+v) = %v", tc.field, tc.prop, got)
		}
		if got := implicitZeroApplies(&tc.prop, f); got != tc.zero {
			t.Errorf("implicitZeroApplies(%s, %+v) = %v", tc.field, tc.prop, got)
		}
	}
}

func TestSlim(t *testing.T) {
	child := withDefault(*obj(map[string]apiextensionsv1.JSONSchemaProps{"x": withDefault(str(), `"x"`)}), "{}")
	child.Description = "child"
	s := &apiextensionsv1.JSONSchemaProps{
		Type: "object", Description: "doc", MinProperties: ptr(int64(1)),
		Properties:           map[string]apiextensionsv1.JSONSchemaProps{"c": child},
		Items:                &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &child},
		AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: &child},
	}
	bare := slim(s, []byte(`{}`), false)
	if bare.Description != "" || string(bare.Default.Raw) != `{}` || bare.Properties != nil || bare.Items != nil || bare.AdditionalProperties != nil || *bare.MinProperties != 1 {
		t.Errorf("slim without children = %+v", bare)
	}
	full := slim(s, []byte(`{"c":{}}`), true)
	for name, c := range map[string]*apiextensionsv1.JSONSchemaProps{"properties": ptr(full.Properties["c"]), "items": full.Items.Schema, "additionalProperties": full.AdditionalProperties.Schema} {
		if c.Default != nil || c.Description != "" || c.Properties["x"].Default != nil || c.Properties["x"].Type != "string" {
			t.Errorf("full slim: %s = %+v, want the child without defaults and descriptions", name, c)
		}
	}
	if s.Properties["c"].Default == nil || s.Items.Schema.Default == nil || s.Description != "doc" || s.Default != nil {
		t.Error("slim changed the schema it was given")
	}
	cel := *s
	cel.XValidations = apiextensionsv1.ValidationRules{{Rule: "true"}}
	withRules := slim(&cel, []byte(`{}`), false)
	if c, ok := withRules.Properties["c"]; !ok || c.Default != nil || c.Properties["x"].Default != nil || c.Description != "" {
		t.Errorf("slim for CEL rules: properties %+v, want them without defaults", withRules.Properties)
	}
	s.Properties["c"] = apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{}, AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{}}
	s.Items, s.AdditionalProperties = &apiextensionsv1.JSONSchemaPropsOrArray{}, &apiextensionsv1.JSONSchemaPropsOrBool{}
	_ = slim(s, []byte(`{}`), true) // children without schemas
}

func TestStoredAlike(t *testing.T) {
	s := obj(map[string]apiextensionsv1.JSONSchemaProps{"a": withDefault(str(), `"x"`), "b": str()})
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{map[string]any{}, map[string]any{"a": "x"}, true},
		{map[string]any{"b": "y"}, map[string]any{"a": "x", "b": "y"}, true},
		{map[string]any{"a": "y"}, map[string]any{"a": "x"}, false},
		{map[string]any{}, map[string]any{"b": ""}, false},
	} {
		if got := storedAlike(s, tc.a, tc.b); got != tc.want {
			t.Errorf("storedAlike(%v, %v) = %v", tc.a, tc.b, got)
		}
	}
}

func TestFirstErr(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	//nolint:errorlint // the very error given, not one that wraps it
	if firstErr() != nil || firstErr(nil, nil) != nil || firstErr(nil, a, b) != a || firstErr(b, a) != b {
		t.Error("firstErr is not the first non-nil error")
	}
}

func TestDropRequiredListsAndNulls(t *testing.T) {
	item := obj(map[string]apiextensionsv1.JSONSchemaProps{"a": withDefault(str(), `"a"`), "n": withDefault(str(), "null"), "b": str()}, "a", "b", "n")
	s := &apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: item}}
	dropRequiredCoveredByDefaults(s, []any{map[string]any{"b": "x"}})
	if want := []string{"b", "n"}; !slices.Equal(item.Required, want) {
		t.Errorf("items' required = %v, want %v (a default null covers nothing)", item.Required, want)
	}
	all := obj(map[string]apiextensionsv1.JSONSchemaProps{"a": withDefault(str(), `"a"`)}, "a")
	dropRequiredCoveredByDefaults(all, map[string]any{})
	if all.Required != nil {
		t.Errorf("required = %#v, want nil when every entry is covered", all.Required)
	}
	dropRequiredCoveredByDefaults(&apiextensionsv1.JSONSchemaProps{Type: "array"}, []any{map[string]any{}}) // no items schema
	raw, _ := json.Marshal(decode([]byte(`{"a":[1,2.5,null]}`)))
	if string(raw) != `{"a":[1,2.5,null]}` {
		t.Errorf("decode/encode = %s", raw)
	}
}

// TestHasNulls: a null inside an object or list default, which the
// apiserver keeps (a default is applied after it prunes nulls) and Go
// clients never send.
func TestHasNulls(t *testing.T) {
	for in, want := range map[string]bool{
		`{"a":1,"b":"x"}`:            false,
		`{"a":null}`:                 true,
		`{"a":{"b":[1,{"c":2}]}}`:    false,
		`{"a":{"b":[1,{"c":null}]}}`: true,
		`[1,"x",{}]`:                 false,
		`[1,null]`:                   true,
		`[[null]]`:                   true,
		`null`:                       false, // the default itself, refused elsewhere
		`"x"`:                        false,
	} {
		if got := hasNulls(decode([]byte(in))); got != want {
			t.Errorf("hasNulls(%s) = %v, want %v", in, got, want)
		}
	}
}

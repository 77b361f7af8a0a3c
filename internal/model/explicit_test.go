package model

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
)

// TestExplicitPrecedence: the author's default of a field is its own
// +default, else its +kubebuilder:default (the two must agree), else the
// +default on its type, else none, and implicit defaults decide. A marker
// whose value cannot be read keeps every marker below it out: the field
// then has no explicit default, and the finding says why.
func TestExplicitPrecedence(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field  string
		source string // "" for no explicit default
		raw    string
		kb     bool
		atType bool     // the finding is at the type's marker, not the field
		want   []string // findings: "severity rule: part of the message"
	}{
		{field: "Precedence.fieldOverType", source: "+default", raw: `"field"`},
		{field: "Precedence.kubebuilderOverType", source: "+kubebuilder:default", raw: `"kb"`, kb: true},
		{field: "Precedence.bothAgree", source: "+default", raw: `"same"`},
		{field: "Precedence.bothAgreeObject", source: "+default", raw: `{"a":1,"b":[true]}`},
		{field: "Precedence.bothDiffer", want: []string{`error conflicting-defaults: two different defaults: +default="one" and +kubebuilder:default="two"; keep one`}},
		{field: "Precedence.bothInvalidField", want: []string{"error invalid-default: +default=TCP is not valid JSON"}},
		{field: "Precedence.typeOnly", source: "+default on type Typed", raw: `"typed"`},
		{field: "Precedence.typeOnlyPointer", source: "+default on type Typed", raw: `"typed"`},
		{field: "Precedence.typeOnlyStruct", source: "+default on type Window", raw: `{"size":3}`},
		{field: "Precedence.badType", atType: true, want: []string{`error invalid-default: +default="bad is not valid JSON`}},
		{field: "Precedence.badTypeFieldWins", source: "+default", raw: `"fixes it"`},
		{field: "Precedence.none"},
		{field: "Precedence.ref", source: "+default", raw: `"named"`},
		{field: "Precedence.badRef", want: []string{"error unresolved-ref: +default=ref(NoSuchConstant): no constant NoSuchConstant"}},
		{field: "Precedence.invalid", want: []string{"error invalid-default: +default=TCP is not valid JSON"}},
		{field: "Precedence.kubebuilderEmptyList", source: "+kubebuilder:default", raw: `[]`, kb: true},
		{field: "Precedence.kubebuilderEmptyObject", source: "+kubebuilder:default", raw: `{}`, kb: true},
		{field: "Precedence.fieldOverTwoTypeDefaults", source: "+default", raw: `3`},
		{field: "Precedence.twoDefaults", want: []string{"error conflicting-defaults: two different defaults: +default=1 and +default=2; keep one"}},
		{field: "Precedence.sameTwice", source: "+default", raw: `1`, want: []string{"warning duplicate-markers: +default=1 is written 2 times; keep one"}},
		{field: "Precedence.sameValueTwice", source: "+default", raw: `{"a":1,"b":[true]}`,
			want: []string{`warning duplicate-markers: +default={"a": 1, "b": [true]} and +default={"b": [true], "a": 1} are the same default; keep one`}},
		{field: "Precedence.secondInvalid", want: []string{"error invalid-default: +default=oops is not valid JSON"}},
		{field: "Precedence.twoKubebuilder", want: []string{"error conflicting-defaults: two different defaults: +kubebuilder:default=1 and +kubebuilder:default=2; keep one"}},
		{field: "Precedence.sameKubebuilderTwice", source: "+kubebuilder:default", raw: `3`, kb: true, want: []string{"warning duplicate-markers: +kubebuilder:default=3 is written 2 times; keep one"}},
		{field: "Precedence.twoTypeDefaults", atType: true, want: []string{"error conflicting-defaults: two different defaults: +default=1 and +default=2; keep one"}},
		{field: "Precedence.sameTypeDefaultTwice", source: "+default on type SameTypeDefaults", raw: `7`, atType: true,
			want: []string{"warning duplicate-markers: +default=7 is written 2 times; keep one"}},

		{field: "FieldNode.next", want: []string{"error recursive-default: +default={} lies on a cycle of types (FieldNode.next → FieldNode)"}},
		{field: "FieldNode.other", want: []string{"error recursive-default: +kubebuilder:default={} lies on a cycle of types (FieldNode.other → FieldNode)"}},
		{field: "FieldNode.leaf", source: "+default", raw: `{"name":"x"}`},
		{field: "UsesDefaultedNode.own", source: "+default", raw: `{"name":"b"}`},
		{field: "UsesDefaultedNode.type", atType: true,
			want: []string{`error recursive-default: +default={"name":"a"} on a recursive type (DefaultedNode.next → DefaultedNode)`}},
		{field: "Reaches.node"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			f := field(t, m, tc.field)
			ex, fs := m.Explicit(f)
			matchFindings(t, tc.field, fs, tc.want...)
			for _, fnd := range fs {
				if at := f.Pos(); tc.atType == (fnd.Pos == at) {
					t.Errorf("finding at %s, field at %s, want at the type: %v", fnd.Pos, at, tc.atType)
				}
				if tc.atType == (fnd.GoPath == f.GoPath()) {
					t.Errorf("finding about %s", fnd.GoPath)
				}
			}
			if tc.source == "" {
				if ex != nil {
					t.Fatalf("explicit default %s from %s, want none", ex.Raw, ex.Source)
				}
				return
			}
			if ex == nil {
				t.Fatalf("no explicit default, want %s from %s", tc.raw, tc.source)
			}
			if ex.Source != tc.source || string(ex.Raw) != tc.raw || ex.Kubebuilder != tc.kb {
				t.Errorf("explicit default %s from %s (kubebuilder %v), want %s from %s (%v)", ex.Raw, ex.Source, ex.Kubebuilder, tc.raw, tc.source, tc.kb)
			}
			if ex.Pos != f.Pos() {
				t.Errorf("explicit default at %s, want at the field %s", ex.Pos, f.Pos())
			}
			if v := marshal(t, ex.Value); !jsonnum.EqualJSON(v, ex.Raw) {
				t.Errorf("value %#v encodes as %s, raw %s", ex.Value, v, ex.Raw)
			}
		})
	}
}

// TestTypeDefault: a type's +default is read once, and says at the type
// why it cannot be used.
func TestTypeDefault(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		typ, raw string
		want     []string
	}{
		{typ: "Typed", raw: `"typed"`},
		{typ: "Window", raw: `{"size":3}`},
		{typ: "Leaf"},
		{typ: "BadTyped", want: []string{"error invalid-default: +default=\"bad is not valid JSON"}},
		{typ: "TwoTypeDefaults", want: []string{"error conflicting-defaults"}},
		{typ: "SameTypeDefaults", raw: `7`, want: []string{"warning duplicate-markers"}},
		{typ: "DefaultedNode", want: []string{"error recursive-default: +default={\"name\":\"a\"} on a recursive type (DefaultedNode.next → DefaultedNode)"}},
		{typ: "DefaultedTree", want: []string{"error recursive-default: +default={} on a recursive type (DefaultedTree.children[*] → DefaultedTree)"}},
	} {
		id := typeID(t, m, tc.typ)
		r := m.TypeDefault(id)
		matchFindings(t, tc.typ, r.findings, tc.want...)
		pos := id.Package.Fset.Position(m.TypeInfo(id).RawSpec.Pos())
		for _, f := range r.findings {
			if f.Pos != pos || f.GoPath != tc.typ || !f.Own {
				t.Errorf("%s: finding at %s about %s (own %v), want at %s about %s", tc.typ, f.Pos, f.GoPath, f.Own, pos, tc.typ)
			}
		}
		switch {
		case tc.raw == "" && r.ex != nil:
			t.Errorf("%s: default %s, want none", tc.typ, r.ex.Raw)
		case tc.raw != "" && (r.ex == nil || string(r.ex.Raw) != tc.raw || r.ex.Source != "+default on type "+tc.typ || r.ex.Pos != pos):
			t.Errorf("%s: default %+v, want %s from the type at %s", tc.typ, r.ex, tc.raw, pos)
		}
		if again := m.TypeDefault(id); again.ex != r.ex {
			t.Errorf("%s: read twice", tc.typ)
		}
	}
}

// TestElementDefault: a list item or map value takes only the +default on
// its type (KEP-1929 "Lists", "String Maps").
func TestElementDefault(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, raw string
		want       []string
	}{
		{field: "Rules.items", raw: `"typed"`},
		{field: "Rules.values", raw: `"typed"`},
		{field: "Rules.pointerItems", raw: `{"size":3}`},
		{field: "Rules.badItems", want: []string{"error invalid-default"}},
		{field: "Rules.plain"},
	} {
		f := field(t, m, tc.field)
		ex, fs := m.ElementDefault(m.ShapeOf(f.Shape.Elem, f.Pkg))
		matchFindings(t, tc.field, fs, tc.want...)
		got := ""
		if ex != nil {
			got = string(ex.Raw)
		}
		if got != tc.raw {
			t.Errorf("%s: item default %q, want %q", tc.field, got, tc.raw)
		}
	}
	if ex, fs := m.ElementDefault(Shape{Kind: KindScalar}); ex != nil || fs != nil {
		t.Errorf("an unnamed item type has default %v, %v", ex, fs)
	}
}

// TestImplicitFor: implicit defaults are on for a field by its own
// +implicitDefaults, then the one on its type, then an enclosing field's
// or type's (inherit), then its package's, then the generator option,
// which, when false, wins over every marker.
func TestImplicitFor(t *testing.T) {
	on, off := new(bool), new(bool)
	*on = true
	for _, tc := range []struct {
		field   string
		inherit *bool
		want    bool
	}{
		{"Implicit.fieldOnTypeOff", nil, true},
		{"Implicit.fieldOnTypeOff", off, true},
		{"Implicit.fieldOffTypeOn", on, false},
		{"Implicit.typeOff", nil, false},
		{"Implicit.typeOff", on, false},
		{"Implicit.typeOn", off, true},
		{"Implicit.plain", nil, true},
		{"Implicit.plain", off, false},
		{"Implicit.plain", on, true},
		{"Implicit.fieldOff", on, false},
		{"Implicit.fieldOn", off, true},
		{"Implicit.offPackage", nil, true}, // the field's package has no marker
		{"off.Plain.a", nil, false},        // its package says false
		{"off.Plain.a", on, true},          // an enclosing marker wins over the package's
	} {
		m := newModel(t, Options{Implicit: true})
		f := field(t, m, tc.field)
		if got := m.ImplicitFor(f, tc.inherit); got != tc.want {
			t.Errorf("ImplicitFor(%s, inherit %v) = %v, want %v", tc.field, ptrString(tc.inherit), got, tc.want)
		}
		m = newModel(t, Options{Implicit: false})
		if m.ImplicitFor(field(t, m, tc.field), tc.inherit) {
			t.Errorf("ImplicitFor(%s) with implicitDefaults=false = true", tc.field)
		}
	}
}

// TestBelow: what lies below a field inherits the field's own
// +implicitDefaults, else what the field inherited.
func TestBelow(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	on := new(bool)
	*on = true
	for _, tc := range []struct {
		field   string
		inherit *bool
		want    string
	}{
		{"Implicit.fieldOff", on, "false"},
		{"Implicit.fieldOn", nil, "true"},
		{"Implicit.plain", nil, "nil"},
		{"Implicit.plain", on, "true"},
		{"Implicit.typeOff", nil, "nil"}, // the type's marker is read at the type
	} {
		if got := ptrString(m.Below(field(t, m, tc.field), tc.inherit)); got != tc.want {
			t.Errorf("Below(%s, %s) = %s, want %s", tc.field, ptrString(tc.inherit), got, tc.want)
		}
	}
}

func ptrString(b *bool) string {
	if b == nil {
		return "nil"
	}
	if *b {
		return "true"
	}
	return "false"
}

// TestRequired: the author's requiredness markers, not a missing omitempty.
func TestRequired(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for name, want := range map[string]bool{"Sub.count": true, "Sub.name": false, "Rules.noOmitempty": false} {
		if got := field(t, m, name).Required(); got != want {
			t.Errorf("%s.Required() = %v, want %v", name, got, want)
		}
	}
}

// TestSchemaRequired: the fields controller-gen v0.23.0 lists in
// `required` (pkg/crd structToSchema), marker by marker, and under a
// package's +kubebuilder:validation:Optional.
func TestSchemaRequired(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for name, want := range map[string]bool{
		"Requiredness.plain": true, "Requiredness.omitempty": false, "Requiredness.omitzero": false,
		"Requiredness.optional": false, "Requiredness.k8sOptional": false, "Requiredness.kubebuilderOptional": false,
		"Requiredness.requiredOmitempty": true, "Requiredness.k8sRequired": true, "Requiredness.kubebuilderRequired": true,
		"Requiredness.kubebuilderOptionalFirst": false, "Requiredness.kubebuilderRequiredFirst": true,
		"Requiredness.embeddedPlain": true, "Requiredness.embeddedOptional": false, "Requiredness.optPkg": true,
		"optpkg.Fields.plain": false, "optpkg.Fields.required": true, "optpkg.Fields.kubebuilderRequired": true,
	} {
		if got := m.SchemaRequired(field(t, m, name)); got != want {
			t.Errorf("SchemaRequired(%s) = %v, want %v", name, got, want)
		}
	}
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWritten: messages quote a default's numbers as the author wrote
// them, Raw as the apiserver stores them.
func TestWritten(t *testing.T) {
	for _, tc := range []struct {
		ex   Explicit
		want string
	}{
		{Explicit{Raw: []byte(`1`), Value: jsonnum.Number("1.0")}, `1.0`},
		{Explicit{Raw: []byte(`{"a":9223372036854775807}`), Value: map[string]any{"a": jsonnum.Number("9223372036854775807")}}, `{"a":9223372036854775807}`},
		{Explicit{Raw: []byte(`"raw"`), Value: func() {}}, `"raw"`},
		// A long default is quoted capped (quote.Excerpt), a ref() whole.
		{Explicit{Raw: []byte(`"` + strings.Repeat("x", 300) + `"`), Value: strings.Repeat("x", 300)},
			`"` + strings.Repeat("x", quote.MaxQuoteBytes-1) + "… (302 bytes in all)"},
		{Explicit{Raw: []byte(`"` + strings.Repeat("x", 300) + `"`), Value: strings.Repeat("x", 300), Ref: "ref(Long)"},
			`ref(Long) (= "` + strings.Repeat("x", quote.MaxQuoteBytes-1) + "… (302 bytes in all))"},
	} {
		if got := tc.ex.Written(); got != tc.want {
			t.Errorf("Written(%#v) = %s, want %s", tc.ex.Value, got, tc.want)
		}
	}
}

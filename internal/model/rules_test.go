package model

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestCheckField: KEP-1929's rules on a field's tag and on its author's
// default (rules.go), with the type checks after them (check.go), as the
// lint and the generators see them: an error refuses the default, a
// warning (for +kubebuilder:default, and everything under
// crd:implicitDefaults=false) leaves it in.
func TestCheckField(t *testing.T) {
	for _, tc := range []struct {
		field    string
		implicit *bool // default true
		want     []string
		rule     string // the rule that refuses the default, if one does
	}{
		{field: "Rules.structEmpty"},
		{field: "Rules.structNotEmpty", rule: RuleStructDefaultEmpty,
			want: []string{`error struct-default-not-empty: +default={"name":"x"} on a non-pointer struct: only {} is allowed, because Go clients always send the struct. ` +
				"Make the field a pointer to give it a default, or put defaults on the struct's own fields"}},
		{field: "Rules.structNotEmpty", implicit: new(bool), want: []string{`warning struct-default-not-empty: +default={"name":"x"}`}},
		{field: "Rules.structNotEmptyKubebuilder", want: []string{`warning struct-default-not-empty: +kubebuilder:default={"name":"x"} on a non-pointer struct`}},
		{field: "Rules.windowValue", rule: RuleStructDefaultEmpty, want: []string{`error struct-default-not-empty: +default={"size":3} on a non-pointer struct`}},
		{field: "Rules.structPointer"},
		{field: "Rules.noOmitempty", rule: RuleNeedsOmitempty,
			want: []string{`error default-needs-omitempty: +default="x" is not the zero value "", and without omitempty Go clients always send "", so the default would never apply to them. ` +
				`Make the field a pointer: with omitempty, a Go client's "" would be left out and stored as "x", and "" is a valid value of the field`}},
		{field: "Rules.noOmitempty", implicit: new(bool), want: []string{`warning default-needs-omitempty: +default="x" is not the zero value ""`}},
		{field: "Rules.noOmitemptyZero"},
		{field: "Rules.noOmitemptyZeroInt"},
		{field: "Rules.noOmitemptyFalse"},
		{field: "Rules.noOmitemptyTrue", rule: RuleNeedsOmitempty, want: []string{"error default-needs-omitempty: +default=true is not the zero value false"}},
		{field: "Rules.omitempty"},
		{field: "Rules.omitzero"},
		{field: "Rules.pointer"},
		{field: "Rules.listNoOmitempty"},
		{field: "Rules.mapNoOmitempty"},
		{field: "Rules.duration", rule: RuleNeedsOmitempty, want: []string{`error default-needs-omitempty: +default="1s" is not the zero value "0s"`}},
		{field: "Rules.durationZero"},
		{field: "Rules.time"},
		{field: "Rules.quantity", rule: RuleNeedsOmitempty, want: []string{`error default-needs-omitempty: +default="1" is not the zero value "0"`}},
		{field: "Rules.intOrString", rule: RuleNeedsOmitempty, want: []string{"error default-needs-omitempty: +default=3 is not the zero value 0"}},
		{field: "Rules.badQuantity", rule: RuleTypeMismatch, want: []string{`error default-type-mismatch: +default="lots": "lots" is not a quantity`}},
		// a default Go clients would send as another value
		{field: "Rules.roundedQuantity", rule: RuleTypeMismatch, want: []string{`error default-type-mismatch: +default="0.5n": a resource.Quantity is rounded up to a whole nanounit, ` +
			`and capped at 2^63-1 when binary: Go clients would send "1n" where the apiserver stores "0.5n"; write "1n"`}},
		{field: "Rules.fractionTime", rule: RuleTypeMismatch, want: []string{`error default-type-mismatch: +default="2020-01-01T00:00:00.5Z": a metav1.Time is sent to the second: ` +
			`Go clients would send "2020-01-01T00:00:00Z" where the apiserver stores "2020-01-01T00:00:00.5Z"; write "2020-01-01T00:00:00Z"`}},
		{field: "Rules.fractionDuration", rule: RuleTypeMismatch, want: []string{`error default-type-mismatch: +default="1.5ns": a metav1.Duration counts whole nanoseconds: Go clients would send "1ns"`}},
		{field: "Rules.offsetTime"},    // the same instant
		{field: "Rules.milliQuantity"}, // 100u, exactly
		{field: "Rules.wrongType", rule: RuleTypeMismatch, want: []string{`error default-type-mismatch: +default="three": the field's schema type is integer, the default is a JSON string`}},
		{field: "Rules.overflow", rule: RuleTypeMismatch, want: []string{"error default-type-mismatch: +default=128: 128 does not fit in an int8"}},
		{field: "Rules.null", rule: RuleTypeMismatch, want: []string{"error default-type-mismatch: +default=null: default null is ignored by the apiserver; remove it, or omit the marker"}},
		{field: "Rules.float"},
		{field: "Rules.floatWhole"},
		{field: "Rules.list"},
		{field: "Rules.map"},
		{field: "Rules.requiredWithDefault", want: []string{`warning default-on-required: +default="x" on a field the schema requires (it is +required): ` +
			"the apiserver applies the default before it checks required, so the field is never missing and a manifest that leaves it out or misspells it is accepted. " +
			"If clients may leave the field out, mark it +optional; if they must send it, remove the default"}},
		{field: "Rules.inferredRequiredZero", want: []string{`warning default-on-required: +kubebuilder:default="" on a field the schema requires (it has no omitempty and no +optional)`}},
		{field: "Rules.kubebuilderOptionalZero"},
		// one warning, one fix: omitempty makes the field optional too
		{field: "Rules.requiredNoOmitempty", rule: RuleNeedsOmitempty, want: []string{`error default-needs-omitempty: +default="x"`}},
		{field: "Rules.requiredNoOmitempty", implicit: new(bool), want: []string{`warning default-needs-omitempty: +default="x"`}},
		{field: "Flux.status"},
		{field: "Repeats.same", want: []string{"warning omitempty-struct"}},
		{field: "Repeats.other", want: []string{"warning omitempty-struct", `warning struct-default-not-empty: +kubebuilder:default={"creationPolicy":"Orphan"}`}},
		{field: "Repeats.noDefault", want: []string{"warning omitempty-struct", `warning struct-default-not-empty: +kubebuilder:default={"name":"x"}`}},
		{field: "Repeats.sent", want: []string{"warning omitempty-struct", `warning struct-default-not-empty: +kubebuilder:default={"sent":3}`}},
		{field: "NoSubresource.status", rule: RuleStructDefaultEmpty, want: []string{`error struct-default-not-empty: +default={"observedGeneration":-1} on a non-pointer struct`}},
		{field: "Rules.omitemptyStruct", want: []string{"warning omitempty-struct: omitempty has no effect on a non-pointer struct"}},
		// rule 2 exists for rule 1's implicit {}: not with implicit defaults off
		{field: "Rules.omitemptyStruct", implicit: new(bool)},
		{field: "Rules.omitzeroStruct"},
		{field: "Rules.omitemptyPointer"},
		{field: "Rules.plainStruct"},
		{field: "Precedence.invalid", rule: "", want: []string{"error invalid-default"}},
		{field: "Precedence.twoDefaults", want: []string{"error conflicting-defaults"}},
		{field: "Precedence.sameTwice", want: []string{"warning duplicate-markers"}},
	} {
		implicit := tc.implicit == nil || *tc.implicit
		m := newModel(t, Options{Implicit: implicit})
		f := field(t, m, tc.field)
		c := m.CheckField(f, goSchema(f.Shape, f.Type))
		name := tc.field
		if !implicit {
			name += " (implicitDefaults=false)"
		}
		matchFindings(t, name, c.Findings, tc.want...)
		if got := m.Lint(f); len(findings(got)) != len(c.Findings) {
			t.Errorf("%s: Lint has %d findings, CheckField %d", name, len(got), len(c.Findings))
		}
		refused := false
		for _, fnd := range c.Findings {
			refused = refused || (fnd.Sev == Error)
			if fnd.GoPath != f.GoPath() || fnd.JPath != "" || !fnd.Own {
				t.Errorf("%s: finding about %s (%s, own %v)", name, fnd.GoPath, fnd.JPath, fnd.Own)
			}
		}
		if c.Refused != refused || c.Rule != tc.rule {
			t.Errorf("%s: refused %v by %q (%s), want %v by %q", name, c.Refused, c.Rule, c.Why, refused, tc.rule)
		}
		if c.Refused == (c.Why == "") {
			t.Errorf("%s: refused %v, why %q", name, c.Refused, c.Why)
		}
		if ex, _ := m.Explicit(f); (c.Explicit == nil) != (ex == nil) {
			t.Errorf("%s: explicit %v, Explicit says %v", name, c.Explicit, ex)
		}
	}
}

// TestCheckElement: a list item or map value's type default, against the
// item's schema type and Go type.
func TestCheckElement(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field string
		raw   string
		want  []string
	}{
		{field: "Rules.items", raw: `"typed"`},
		{field: "Rules.values", raw: `"typed"`},
		{field: "Rules.pointerItems", raw: `{"size":3}`},
		{field: "Rules.wrongItems", raw: `"large"`, want: []string{`error default-type-mismatch: +default on type WrongTyped="large": the field's schema type is integer, the default is a JSON string`}},
		{field: "Rules.badItems", want: []string{"error invalid-default"}},
		{field: "Rules.plain"},
		{field: "SmallItems.items", raw: `300`, want: []string{"error default-type-mismatch: +default on type SmallItem=300: 300 does not fit in a uint8 (0 to 255)"}},
	} {
		f := field(t, m, tc.field)
		elem := m.ShapeOf(f.Shape.Elem, f.Pkg)
		c := m.CheckElement(goSchema(elem, f.Shape.Elem), elem)
		matchFindings(t, tc.field, c.Findings, tc.want...)
		got := ""
		if c.Explicit != nil {
			got = string(c.Explicit.Raw)
		}
		if got != tc.raw {
			t.Errorf("%s: explicit %q, want %q", tc.field, got, tc.raw)
		}
		if mismatch := len(tc.want) > 0 && tc.raw != ""; c.Refused != mismatch || (mismatch && c.Rule != RuleTypeMismatch) {
			t.Errorf("%s: refused %v by %q", tc.field, c.Refused, c.Rule)
		}
		for _, fnd := range c.Findings {
			if fnd.GoPath == "" || fnd.GoPath == f.GoPath() {
				t.Errorf("%s: finding about %q, want the item's type", tc.field, fnd.GoPath)
			}
		}
	}
}

// TestGoSchema: the type part of the schema controller-gen generates for
// a Go type, as the lint checks defaults without one.
func TestGoSchema(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, typ  string
		intOrString bool
	}{
		{field: "Rules.noOmitempty", typ: "string"},
		{field: "Rules.pointer", typ: "string"},
		{field: "Rules.noOmitemptyZeroInt", typ: "integer"},
		{field: "Rules.overflow", typ: "integer"},
		{field: "Rules.noOmitemptyFalse", typ: "boolean"},
		{field: "Rules.float", typ: "number"},
		{field: "Rules.floatWhole", typ: "number"},
		{field: "Rules.bytes", typ: "string"},
		{field: "Rules.list", typ: "array"},
		{field: "Rules.map", typ: "object"},
		{field: "Rules.plainStruct", typ: "object"},
		{field: "Rules.structPointer", typ: "object"},
		{field: "Rules.duration", typ: "string"},
		{field: "Rules.time", typ: "string"},
		{field: "Rules.quantity", intOrString: true},
		{field: "Rules.badQuantity", intOrString: true},
		{field: "Rules.intOrString", intOrString: true},
		{field: "Rules.any", typ: ""},
		{field: "Precedence.typeOnly", typ: "string"},
	} {
		f := field(t, m, tc.field)
		s := goSchema(f.Shape, f.Type)
		if s.Type != tc.typ || s.XIntOrString != tc.intOrString {
			t.Errorf("goSchema(%s) = type %q, int-or-string %v; want %q, %v", tc.field, s.Type, s.XIntOrString, tc.typ, tc.intOrString)
		}
	}
}

func TestFitsSchemaMessages(t *testing.T) {
	for _, tc := range []struct {
		value any
		s     apiextensionsv1.JSONSchemaProps
		want  string
	}{
		{nil, apiextensionsv1.JSONSchemaProps{Type: "string"}, "default null is ignored by the apiserver; remove it, or omit the marker"},
		{"x", apiextensionsv1.JSONSchemaProps{Type: "integer"}, "the field's schema type is integer, the default is a JSON string"},
		{true, apiextensionsv1.JSONSchemaProps{XIntOrString: true}, "the field is an int-or-string, the default is a JSON boolean"},
		{map[string]any{}, apiextensionsv1.JSONSchemaProps{XIntOrString: true}, "the field is an int-or-string, the default is a JSON object"},
		{"x", apiextensionsv1.JSONSchemaProps{XIntOrString: true}, ""},
		{[]any{}, apiextensionsv1.JSONSchemaProps{Type: "array"}, ""},
		{[]any{}, apiextensionsv1.JSONSchemaProps{Type: "object"}, "the field's schema type is object, the default is a JSON array"},
		{"x", apiextensionsv1.JSONSchemaProps{}, ""},
		{true, apiextensionsv1.JSONSchemaProps{Type: "boolean"}, ""},
		{"x", apiextensionsv1.JSONSchemaProps{Type: "number"}, "the field's schema type is number, the default is a JSON string"},
	} {
		if got := fitsSchema(tc.value, &tc.s); got != tc.want {
			t.Errorf("fitsSchema(%#v, %+v) = %q, want %q", tc.value, tc.s, got, tc.want)
		}
	}
}

// TestKEPSeverity: KEP-1929's rules bind +default: an error; a warning for
// +kubebuilder:default and under crd:implicitDefaults=false.
func TestKEPSeverity(t *testing.T) {
	for _, tc := range []struct {
		implicit, kb bool
		want         Severity
	}{
		{true, false, Error},
		{true, true, Warning},
		{false, false, Warning},
		{false, true, Warning},
	} {
		m := &Model{opts: Options{Implicit: tc.implicit}}
		if got := m.kepSeverity(&Explicit{Kubebuilder: tc.kb}); got != tc.want {
			t.Errorf("kepSeverity(implicit %v, kubebuilder %v) = %v, want %v", tc.implicit, tc.kb, got, tc.want)
		}
	}
}

func TestEmptyObject(t *testing.T) {
	for raw, want := range map[string]bool{`{}`: true, `{ }`: true, `{"a":1}`: false, `[]`: false, `null`: false} {
		if got := (&Explicit{Raw: []byte(raw)}).EmptyObject(); got != want {
			t.Errorf("EmptyObject(%s) = %v", raw, got)
		}
	}
}

// TestCheckFieldOpaque: a default whose value goes into a type with its
// own encoding is accepted for the CRD as the author wrote it, with
// Opaque saying where; the rest of the value is checked all the same.
func TestCheckFieldOpaque(t *testing.T) {
	for _, implicit := range []bool{true, false} {
		m := newModel(t, Options{Implicit: implicit})
		for _, tc := range []struct {
			field, opaque, refused string
		}{
			{"OwnEncoding.literal", "Wrapped has its own MarshalJSON", ""},
			{"OwnEncoding.object", "w: Wrapped has its own MarshalJSON", ""},
			{"OwnEncoding.overflow", "", "n: 300 does not fit in an int8"},
			{"OwnEncoding.plain", "", ""},
		} {
			f := field(t, m, tc.field)
			c := m.CheckField(f, goSchema(f.Shape, f.Type))
			if !strings.HasPrefix(c.Opaque, tc.opaque) || (c.Opaque == "") != (tc.opaque == "") {
				t.Errorf("%s (implicit %v): Opaque %q, want %q", tc.field, implicit, c.Opaque, tc.opaque)
			}
			msg := strings.Join(findings(c.Findings), "\n")
			if c.Refused != (tc.refused != "") || !strings.Contains(msg, tc.refused) {
				t.Errorf("%s (implicit %v): refused %v, findings %q; want refused for %q", tc.field, implicit, c.Refused, msg, tc.refused)
			}
		}
	}
}

// TestK8sDefault: +k8s:default is +default under declarative validation's
// name: the same value and rules, and the same conflict rules with
// +default and +kubebuilder:default.
func TestK8sDefault(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, source, value string
		want                 []string
	}{
		{"K8s.alone", "+k8s:default", `"x"`, nil},
		{"K8s.agree", "+default", `"x"`, nil},
		{"K8s.conflict", "", "", []string{`error conflicting-defaults: two different defaults: +default="x" and +k8s:default="y"; keep one`}},
		{"K8s.kubebuilder", "", "", []string{`error conflicting-defaults: two different defaults: +k8s:default="x" and +kubebuilder:default="y"; keep one`}},
		{"K8s.noOmitempty", "+k8s:default", `"x"`, []string{`error default-needs-omitempty: +k8s:default="x" is not the zero value ""`}},
		{"K8s.typed", "+k8s:default on type K8sTyped", `"typed"`, nil},
	} {
		f := field(t, m, tc.field)
		ex, fs := m.Explicit(f)
		c := m.CheckField(f, goSchema(f.Shape, f.Type))
		matchFindings(t, tc.field, c.Findings, tc.want...)
		if tc.source == "" {
			if ex != nil {
				t.Errorf("%s: default %s from %s, want none", tc.field, ex.Raw, ex.Source)
			}
			continue
		}
		if ex == nil || ex.Source != tc.source || string(ex.Raw) != tc.value {
			t.Errorf("%s: explicit %+v (%v), want %s from %s", tc.field, ex, fs, tc.value, tc.source)
		}
	}
}

// TestNeedsOmitemptyAdvice: rule 3's fix is omitempty only where the
// field's validation refuses the zero value, so that no Go client means
// it; elsewhere omitempty would store the default in place of a client's
// zero, and the fix is a pointer.
func TestNeedsOmitemptyAdvice(t *testing.T) {
	m := newModel(t, Options{Implicit: false})
	for _, tc := range []struct {
		field string
		fix   Fix
		why   string // the constraint named, with FixOmitempty
	}{
		{"ZeroValid.minZero", FixPointer, ""},
		{"ZeroValid.minOne", FixOmitempty, "its minimum is 1"},
		{"ZeroValid.exclusive", FixOmitempty, "its minimum is 0"},
		{"ZeroValid.maxNegative", FixOmitempty, "its maximum is -1"},
		{"ZeroValid.minLength", FixOmitempty, "its minLength is 1"},
		{"ZeroValid.pattern", FixOmitempty, "its pattern ^[a-z]+$ does not match it"},
		{"ZeroValid.patternEmpty", FixPointer, ""},
		{"ZeroValid.typeEnum", FixOmitempty, "its enum does not hold it"},
		{"ZeroValid.boolEnum", FixOmitempty, "its enum does not hold it"},
	} {
		f := field(t, m, tc.field)
		c := m.CheckField(f, goSchema(f.Shape, f.Type))
		if len(c.Findings) != 1 || c.Findings[0].Rule != RuleNeedsOmitempty {
			t.Errorf("%s: findings %v", tc.field, findings(c.Findings))
			continue
		}
		fnd := c.Findings[0]
		advice := "Make the field a pointer: with omitempty"
		if tc.fix == FixOmitempty {
			advice = "Add omitempty (or omitzero) to the json tag (" + tc.why + ", so no client means"
		}
		if fnd.Fix != tc.fix || !strings.Contains(fnd.Msg, advice) {
			t.Errorf("%s: fix %q, %s; want %q, %q", tc.field, fnd.Fix, fnd.Msg, tc.fix, advice)
		}
	}
}

// TestStructDefaultOmitzero: on an omitzero struct, struct-default-not-empty
// says why for omitzero: Go clients leave out only the zero struct.
func TestStructDefaultOmitzero(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	f := field(t, m, "OmitzeroDefault.sub")
	c := m.CheckField(f, goSchema(f.Shape, f.Type))
	matchFindings(t, "OmitzeroDefault.sub", c.Findings,
		`warning struct-default-not-empty: +kubebuilder:default={"name":"x"} on a non-pointer struct: only {} is allowed, because Go clients send the struct whole as soon as one field is set (omitzero leaves out only the zero struct), so the default would apply only while every field is zero.`)
}

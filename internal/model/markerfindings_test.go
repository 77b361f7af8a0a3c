package model

import (
	"path/filepath"
	"testing"
)

// TestStructFindings: markers that no field's decision reads are reported
// at the type or field that carries them: +implicitDefaults written twice
// (two values: an error; one value: a warning), and default markers on
// inline fields, with where such a default can go.
func TestStructFindings(t *testing.T) {
	for _, tc := range []struct {
		typ      string
		implicit bool
		want     []string
	}{
		{"Implicit", true, []string{
			"error conflicting-defaults: two different settings: +implicitDefaults=false and +implicitDefaults=true; keep one",
			"warning duplicate-markers: +implicitDefaults=false is written 2 times; keep one",
		}},
		{"BothType", true, []string{"error conflicting-defaults: two different settings: +implicitDefaults=true and +implicitDefaults=false; keep one"}},
		{"OffType", true, nil},
		{"Precedence", true, nil},
		{"off.Plain", true, nil}, // the same package marker in two files
		{"conflict.T", true, []string{"error conflicting-defaults: two different settings: +implicitDefaults=false and +implicitDefaults=true in the package's comments; keep one"}},
		{"Inlines", true, []string{
			`error inline-default: +default={"inner":"x","count":1,"unknown":true} on an inline field sets nothing: InlineDefault has no property of its own, ` +
				`its fields are Inlines's. Put the default on the fields of InlineDefault (+default="x" on InlineDefault.Inner, +default=1 on InlineDefault.Count), ` +
				`on a field of type Inlines, or on type Inlines itself`,
			`warning inline-default: +kubebuilder:default={"inner":"y"} on an inline field sets nothing: InlineKubebuilder has no property of its own, ` +
				`its fields are Inlines's. Put the default on the fields of InlineKubebuilder, on a field of type Inlines, or on type Inlines itself; ` +
				`controller-gen writes it as the default of every property of type Inlines, controller-gen-default leaves it out`,
			`error inline-default: +implicitDefaults=false on an inline field applies to nothing: InlineImplicit has no property of its own, its fields are Inlines's. ` +
				`Put it on type Inlines (for all its fields, InlineImplicit's among them), or on the fields of InlineImplicit`,
			`error inline-default: +default=3 on an inline field sets nothing: InlineNotObject has no property of its own, its fields are Inlines's. ` +
				`Put the default on the fields of InlineNotObject, on a field of type Inlines, or on type Inlines itself`,
			// Unmarked InlineNone `json:",inline"`: a named field, which
			// encoding/json does not inline
			`error json-name-mismatch: json tag ",inline": controller-gen writes its fields inline into the CRD, encoding/json (Go clients) "Unmarked": ` +
				`encoding/json inlines embedded structs only: it gives any other field without a name its Go name, and ignores the option inline; ` +
				"Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: embed the struct to inline it, or write `json:\"unmarked\"` to keep a key",
			"error conflicting-defaults: two different settings: +implicitDefaults=false and +implicitDefaults=true; keep one", // InlineWithFindings.Sixth
		}},
		// A marker on a field encoding/json ignores is not dropped without
		// a word; a tag encoding/json reads otherwise is an error.
		{"Ignored", true, []string{
			"error ignored-field-default: +default=\"x\": the field is tagged `json:\"-\"`: encoding/json ignores it and controller-gen leaves it out of the CRD, " +
				"so the default applies to nothing. Fix: remove the marker, or give the field a json name",
			"error ignored-field-default: +kubebuilder:default=3: the field is tagged `json:\"-\"`",
			`error json-name-mismatch: json tag "a\"b,omitempty": controller-gen writes "a\"b" into the CRD, encoding/json (Go clients) "Quote": ` +
				`encoding/json refuses the name "a\"b" (a name has letters, digits and !#$%&()*+-./:;<=>?@[]^_{|}~ and spaces only) and reads the field as if it had none; ` +
				"Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: rename the key with those characters only",
			`error json-name-mismatch: json tag "spec,inline": controller-gen writes its fields inline into the CRD, encoding/json (Go clients) "spec": ` +
				"encoding/json inlines embedded structs only: it gives any other field without a name its Go name, and ignores the option inline; " +
				"Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: embed the struct to inline it, or write `json:\"spec\"` to keep a key",
		}},
		// Under crd:implicitDefaults=false, which promises controller-gen's
		// output, a +default there is a warning, and +implicitDefaults means
		// nothing anyway.
		{"Inlines", false, []string{"warning inline-default: +default={", "warning inline-default: +kubebuilder:default=", "warning inline-default: +default=3",
			"error json-name-mismatch", "error conflicting-defaults"}},
	} {
		m := newModel(t, Options{Implicit: tc.implicit})
		id := typeID(t, m, tc.typ)
		fs := m.StructFindings(id)
		matchFindings(t, tc.typ, fs, tc.want...)
		for _, f := range fs {
			if f.Pos.Filename == "" || f.Pos.Line == 0 || !f.Own || f.GoPath == "" {
				t.Errorf("%s: finding without a place: %+v", tc.typ, f)
			}
		}
		if again := m.StructFindings(id); len(again) != len(fs) {
			t.Errorf("%s: asked twice, %d then %d findings", tc.typ, len(fs), len(again))
		}
	}
	m := newModel(t, Options{Implicit: true})
	if fs := m.StructFindings(typeID(t, m, "conflict.T")); len(fs) == 1 &&
		(fs[0].GoPath != "package conflict" || fs[0].Pos.Line != 2 || filepath.Base(fs[0].Pos.Filename) != "doc.go") {
		t.Errorf("package finding about %q at %s, want package conflict at doc.go:2", fs[0].GoPath, fs[0].Pos)
	}
	fs := m.StructFindings(typeID(t, m, "Inlines"))
	if len(fs) > 0 && fs[0].GoPath != "Inlines.InlineDefault" {
		t.Errorf("inline finding about %q, want Inlines.InlineDefault", fs[0].GoPath)
	}
	fs = m.StructFindings(typeID(t, m, "Implicit"))
	if len(fs) > 0 && fs[0].GoPath != "Implicit.FieldBoth" {
		t.Errorf("finding about %q, want Implicit.FieldBoth (the Go name)", fs[0].GoPath)
	}
}

// TestIgnoredFieldsForeign: in other modules' types, which the user cannot
// change, ignored-field-default and json-name-mismatch are warnings.
func TestIgnoredFieldsForeign(t *testing.T) {
	own := newModel(t, Options{Implicit: true})
	m := New(own.Index(), fixture.col, nil, Options{Implicit: true}) // no roots: nothing is the user's
	fs := m.StructFindings(typeID(t, m, "Ignored"))
	matchFindings(t, "Ignored", fs, "warning ignored-field-default", "warning ignored-field-default", "warning json-name-mismatch", "warning json-name-mismatch")
}

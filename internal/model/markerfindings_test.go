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
			"error conflicting-defaults: two different settings: +implicitDefaults=false and +implicitDefaults=true; keep one", // InlineWithFindings.Sixth
		}},
		// Under crd:implicitDefaults=false, which promises controller-gen's
		// output, a +default there is a warning, and +implicitDefaults means
		// nothing anyway.
		{"Inlines", false, []string{"warning inline-default: +default={", "warning inline-default: +kubebuilder:default=", "warning inline-default: +default=3",
			"error conflicting-defaults"}},
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

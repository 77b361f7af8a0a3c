package model

import (
	"context"
	"encoding/json"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// Decision is what one property of a field, or of a list item or map
// value, gets: the default the CRD carries and where it comes from, or why
// it carries none. The Go defaulter follows the same decision.
type Decision struct {
	// Field is the Go field; nil for a list item or map value.
	Field *Field
	JPath string
	// Default is the default written, nil for none.
	Default []byte
	value   any
	// Source says where Default comes from: "+default",
	// "+kubebuilder:default", "+default on type T", or the implicit rule.
	Source string
	// Rule is the KEP-1929 rule that wrote or skipped the default.
	Rule string
	// Why says, when Default is nil, why the property has no default.
	Why string
	// Findings are the diagnostics of the decision, reported once.
	Findings []Finding
	// explicit is the author's default, when there is one.
	explicit *Explicit
}

// Explicit is the author's default behind the decision, if any, whether or
// not it was written.
func (d *Decision) Explicit() *Explicit { return d.explicit }

// Apply writes the decision into the property's schema: its default, and
// the `required` entries that the default covers (see
// dropRequiredCoveredByDefaults).
func (d *Decision) Apply(s *apiextensionsv1.JSONSchemaProps) {
	if d.Default == nil {
		return
	}
	s.Default = &apiextensionsv1.JSON{Raw: d.Default}
	dropRequiredCoveredByDefaults(s, d.value)
}

// String explains the decision in one line.
func (d *Decision) String() string {
	name := d.JPath
	if d.Field != nil {
		name = d.Field.GoPath() + " (" + d.JPath + ")"
	}
	if d.Default != nil {
		return fmt.Sprintf("%s: default %s from %s", name, d.Default, d.Source)
	}
	return fmt.Sprintf("%s: no default: %s", name, d.Why)
}

func (d *Decision) add(sev Severity, rule, msg string, m *Model) {
	f := m.finding(d.Field, sev, rule, msg)
	f.JPath = d.JPath
	d.Findings = append(d.Findings, f)
}

func (d *Decision) addAt(f Finding) {
	if f.JPath == "" {
		f.JPath = d.JPath
	}
	d.Findings = append(d.Findings, f)
}

// Decisions are the decisions about f that gave its property a default,
// one per property that f generates (a type used by several CRDs or
// versions is decided in each). The others are kept only with
// Options.Explain: a large API has many fields and few defaults.
func (m *Model) Decisions(f *Field) []*Decision { return m.decisions[f] }

// keep records d for Decisions and Explain.
func (m *Model) keep(d *Decision) {
	if d.Default != nil {
		m.decisions[d.Field] = append(m.decisions[d.Field], d)
	}
	if m.opts.Explain {
		m.all = append(m.all, d)
	}
}

// Decide takes the decision for f, whose generated property is prop (with
// the defaults below it already decided), at jpath, where inherit is the
// +implicitDefaults setting of an enclosing field or type.
func (m *Model) Decide(prop *apiextensionsv1.JSONSchemaProps, f *Field, inherit *bool, jpath string) *Decision {
	d := &Decision{Field: f, JPath: jpath}
	defer m.keep(d)
	switch refused := m.checkExplicit(d, prop); {
	case d.explicit != nil && !refused:
		m.writeExplicit(d, prop)
	case refused:
	case !m.ImplicitFor(f, inherit):
		d.Why = "no marker, and implicit defaults are off here (+implicitDefaults=false or crd:implicitDefaults=false)"
	case f.Required():
		d.Why = "no marker, and the field is +required: clients must send it"
	case implicitStructApplies(prop, f.Shape):
		m.decideStruct(d, prop)
	case f.Shape.Kind == KindOpaque && !f.Shape.Pointer && !f.Tag.Omits(f.Shape.NonPointerStruct()):
		d.Why = "no marker, and the zero value is unknown: " + f.Shape.Note
		if f.Shape.Note != "" {
			d.add(Note, RuleUnknownZero, "no implicit default: "+f.Shape.Note, m)
		}
	case implicitZeroApplies(prop, f):
		m.decideZero(d, prop)
	default:
		d.Why = "no marker, and no implicit default applies (a pointer, a list, a map, or omitempty/omitzero)"
	}
	return d
}

// writeExplicit decides for the author's default, checked already. With
// implicit defaults on (KEP-1929's promise that Go clients and the CRD
// agree), the default is written as a Go client encodes it (goEncoding),
// and a +default={} on an omitzero struct follows rule 1 for omitzero
// structs, as if it were implicit: Go clients leave the zero struct out.
func (m *Model) writeExplicit(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	f, ex := d.Field, d.explicit
	if m.opts.Implicit && f.Shape.NonPointerStruct() && f.Tag.OmitZero && string(canonical(ex.Raw)) == "{}" {
		m.decideStruct(d, prop)
		d.Source = ex.Source + "={} on an omitzero struct, as " + d.Source
		d.Why = ex.Source + "={} on an omitzero struct, as " + RuleImplicitStruct + ": " + d.Why
		return
	}
	d.Default, d.value, d.Source = ex.Raw, ex.Value, ex.Source
	if m.opts.Implicit {
		m.asGoEncodes(d, prop, f.Type, f.Pkg)
	}
}

// asGoEncodes rewrites an object or list default as a Go client encodes
// it, when the apiserver would store the two differently (a field without
// omitempty that has no default of its own, left out of the author's
// value; a zero value that omitempty leaves out).
func (m *Model) asGoEncodes(d *Decision, prop *apiextensionsv1.JSONSchemaProps, t types.Type, pkg *loader.Package) {
	switch d.value.(type) {
	case map[string]any, []any:
	default:
		return
	}
	enc := m.goEncoding(d.value, t, pkg)
	if reflect.DeepEqual(enc, d.value) || storedAlike(prop, d.value, enc) {
		return
	}
	raw, err := json.Marshal(enc)
	if err != nil {
		return
	}
	d.Default, d.value = raw, enc
	d.Source += fmt.Sprintf(", written as Go clients encode it: %s", raw)
}

// Lint is the part of f's decision that needs no generated schema: rule 2
// on its tag; its author's default evaluated, checked against KEP-1929's
// rules 3 and "Non-pointer structs", and against the JSON type
// controller-gen gives the Go type and the Go type itself. Its findings
// are the ones Decide reports, word for word.
func (m *Model) Lint(f *Field) []Finding {
	d := &Decision{Field: f}
	m.checkExplicit(d, goSchema(f.Shape, f.Type))
	return d.Findings
}

// checkExplicit adds rule 2's finding and checks the author's default, if
// any, against the KEP-1929 rules and the property's type; refused says
// the default, or a marker's value, cannot be written.
func (m *Model) checkExplicit(d *Decision, prop *apiextensionsv1.JSONSchemaProps) (refused bool) {
	f := d.Field
	if msg := omitemptyOnStruct(f); msg != "" {
		d.add(Warning, RuleOmitemptyStruct, msg, m)
	}
	ex, findings := m.Explicit(f)
	for _, fnd := range findings {
		d.addAt(fnd)
	}
	if ex == nil {
		if len(findings) > 0 {
			d.Why = "its marker's value is refused"
		}
		return len(findings) > 0
	}
	d.explicit = ex
	sev := m.kepSeverity(ex)
	for _, r := range []struct {
		rule string
		msg  string
	}{
		{RuleStructDefaultEmpty, structDefaultMustBeEmpty(f, ex)},
		{RuleNeedsOmitempty, nonZeroDefaultNeedsOmitempty(f, ex)},
	} {
		if r.msg == "" {
			continue
		}
		d.addAt(Finding{Sev: sev, Pos: ex.Pos, GoPath: f.GoPath(), Rule: r.rule, Own: m.own.is(f.Pkg), Msg: r.msg})
		if sev == Error {
			d.Why, d.Rule = "the default breaks a KEP-1929 rule", r.rule
			return true
		}
	}
	msg := fitsSchema(ex.Value, prop)
	if msg == "" {
		msg = m.decodable(ex.Value, f.Type, f.Pkg)
	}
	if msg != "" {
		d.addAt(Finding{Sev: Error, Pos: ex.Pos, GoPath: f.GoPath(), Rule: RuleTypeMismatch, Own: m.own.is(f.Pkg),
			Msg: fmt.Sprintf("%s=%s: %s", ex.Source, ex.Raw, msg)})
		d.Why, d.Rule = "the default does not have the field's type", RuleTypeMismatch
		return true
	}
	return false
}

// DecideElement takes the decision for a list item or map value at jpath,
// whose schema is s and whose Go type has shape sh: only a +default on the
// item's type applies (KEP-1929 "Lists" and "String Maps").
func (m *Model) DecideElement(s *apiextensionsv1.JSONSchemaProps, sh Shape, jpath string) *Decision {
	d := &Decision{JPath: jpath}
	ex, findings := m.ElementDefault(sh)
	for _, fnd := range findings {
		d.addAt(fnd)
	}
	if ex == nil {
		d.Why = "a list item or map value takes only a +default on its type"
		return d
	}
	d.explicit = ex
	msg := fitsSchema(ex.Value, s)
	if msg == "" && sh.Named != nil {
		msg = m.decodable(ex.Value, sh.Named, sh.Ident.Package)
	}
	if msg != "" {
		d.addAt(Finding{Sev: Error, Pos: ex.Pos, GoPath: m.parser.Types[sh.Ident].Name, Rule: RuleTypeMismatch,
			Own: m.own.is(sh.Ident.Package), Msg: fmt.Sprintf("%s=%s: %s", ex.Source, ex.Raw, msg)})
		d.Why = "the default does not have the schema's type"
		return d
	}
	d.Default, d.value, d.Source = ex.Raw, ex.Value, ex.Source
	if m.opts.Implicit && sh.Named != nil {
		m.asGoEncodes(d, s, sh.Named, sh.Ident.Package)
	}
	return d
}

// kepSeverity is how a KEP-1929 rule violation by an explicit default is
// reported. The KEP's rules bind the KEP's marker: a +default (on a field
// or a type) that breaks them is an error. +kubebuilder:default keeps
// controller-gen's meaning, a plain OpenAPI default, so it gets a warning;
// so does everything under crd:implicitDefaults=false, which promises
// controller-gen's output.
func (m *Model) kepSeverity(ex *Explicit) Severity {
	if m.opts.Implicit && !ex.Kubebuilder {
		return Error
	}
	return Warning
}

// implicitStructApplies is where KEP-1929 rule 1 can apply: a non-pointer
// struct with an object schema of its own. Embedded resources need
// apiVersion and kind, which have no default; a subtree that preserves
// unknown fields declares nothing to default.
func implicitStructApplies(prop *apiextensionsv1.JSONSchemaProps, sh Shape) bool {
	return sh.NonPointerStruct() && prop.Type == "object" && !preservesUnknown(prop) && !prop.XEmbeddedResource
}

// implicitZeroApplies is where KEP-1929 rule 4 applies: a non-pointer
// scalar without omitempty, whose zero JSON is known and fits the schema.
func implicitZeroApplies(prop *apiextensionsv1.JSONSchemaProps, f *Field) bool {
	sh := f.Shape
	if sh.Pointer || f.Tag.Omits(sh.NonPointerStruct()) || sh.Kind != KindScalar || sh.Zero == nil {
		return false
	}
	switch prop.Type {
	case "string", "integer", "number", "boolean":
		return true
	}
	return prop.XIntOrString
}

// preservesUnknown reports a subtree that keeps unknown fields and declares
// none: nothing below it is typed, so nothing below it is defaulted.
func preservesUnknown(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields &&
		len(s.Properties) == 0 && s.Items == nil && s.AdditionalProperties == nil
}

// decideZero is KEP-1929 "Changes to kubebuilder/default-gen" rule 4: a
// non-pointer scalar without omitempty is always sent by Go clients, at its
// zero value when unset, so its CRD default is that zero value, unless the
// apiserver would refuse it.
func (m *Model) decideZero(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	d.Rule = RuleImplicitZero
	raw := d.Field.Shape.Zero
	if errs := tryDefault(prop, raw, false); len(errs) > 0 {
		d.Why = "the apiserver would refuse the zero value: " + errs.ToAggregate().Error()
		d.add(Warning, RuleImplicitZero, fmt.Sprintf("implicit default %s (zero value: the field has no omitempty) skipped: "+
			"the apiserver would reject it: %s. Fix: add omitempty (or omitzero), make the field a pointer, or set a valid +default",
			raw, errs.ToAggregate().Error()), m)
		return
	}
	d.Default, d.value, d.Source = raw, decode(raw), "implicit-zero-default: the zero value of a field without omitempty"
}

// decideStruct is KEP-1929 "Changes to kubebuilder/default-gen" rule 1,
// for encoding/json as it is today.
//
// The KEP's rule: a non-pointer struct is never absent after a Go round
// trip, it is `{}`, so its CRD default is `{}`. That holds for a field
// without omitzero: Go clients always send it, and the default only
// serves other clients. When `{}` is refused (a MinProperties, or required
// children), the default is `{}` with the defaults nested below it
// applied, if the apiserver accepts that; if not, the field gets none and
// the author is told how to fix it.
//
// With omitzero, which the KEP predates, Go clients leave the zero struct
// out, as omitempty leaves out a zero scalar: absent and zero are one
// value. The default is then what the apiserver stores for Go's zero
// struct, so that an absent field reads as Go's defaulted zero struct; it
// is not written when that adds nothing to the zero struct, and it is
// skipped, silently, when the apiserver refuses it: the Go defaulter then
// leaves the zero struct alone too, as the apiserver leaves it absent.
func (m *Model) decideStruct(d *Decision, prop *apiextensionsv1.JSONSchemaProps) {
	d.Rule = RuleImplicitStruct
	f := d.Field
	var candidates []any
	if f.Tag.OmitZero {
		if !defaultsBelow(prop) {
			d.Why = "omitzero: Go clients leave the zero struct out, and no default below it would change it"
			return
		}
		zero, ok := m.zeroJSON(f.Shape.Ident)
		if !ok {
			d.Why = "omitzero, and the JSON of the zero struct is not known"
			return
		}
		base, err1 := normalize.StoredValue(prop, zero, false)
		stored, err2 := normalize.StoredValue(prop, zero, true)
		if err1 != nil || err2 != nil {
			d.Why = fmt.Sprintf("omitzero, and the schema cannot be read: %v", firstErr(err1, err2))
			return
		}
		if jsonEqual(base, stored) {
			d.Why = "omitzero: Go clients leave the zero struct out, and no default below it would change it"
			return
		}
		if empty, err := normalize.StoredValue(prop, map[string]any{}, true); err == nil && jsonEqual(empty, stored) {
			candidates = append(candidates, map[string]any{})
		}
		candidates = append(candidates, stored)
	} else {
		candidates = append(candidates, map[string]any{})
	}
	var first field.ErrorList
	for i := 0; i < len(candidates); i++ {
		c := candidates[i]
		raw, _ := json.Marshal(c)
		errs := tryDefault(prop, raw, string(raw) != "{}")
		if len(errs) == 0 {
			d.Default, d.value = raw, c
			d.Source = "implicit-struct-default: a non-pointer struct"
			switch {
			case f.Tag.OmitZero:
				d.Source += " tagged omitzero: what the apiserver stores for Go's zero struct"
			case string(raw) != "{}":
				d.Source += ": {} is refused, so {} with the defaults below it applied"
			}
			return
		}
		if i == 0 {
			first = errs
			// without omitzero, {} refused: {} with the defaults below it applied
			if !f.Tag.OmitZero && defaultsBelow(prop) {
				if applied, err := normalize.StoredValue(prop, map[string]any{}, true); err == nil && len(applied) > 0 {
					candidates = append(candidates, applied)
				}
			}
		}
	}
	reason := first.ToAggregate().Error()
	if f.Tag.OmitZero {
		d.Why = "omitzero, and the apiserver would refuse the zero struct: " + reason
		return
	}
	d.Why = "the apiserver would refuse {}: " + reason
	if omitemptyOnStruct(f) != "" {
		// rule 2's warning on the same field already says to use omitzero,
		// which fixes this too: one warning, one fix
		d.Why += " (omitempty-struct: use omitzero)"
		return
	}
	d.add(Warning, RuleImplicitStruct, fmt.Sprintf("implicit default {} (non-pointer struct) skipped: the apiserver would reject it: %s. Fix: %s",
		reason, structFix(prop, first)), m)
}

// structFix is the fix for a refused implicit {} that matches the reason.
// Go clients always send a non-pointer struct without omitzero, so its
// empty value must either be valid or never be sent.
func structFix(prop *apiextensionsv1.JSONSchemaProps, errs field.ErrorList) string {
	var required []string
	minProps := false
	for _, e := range errs {
		switch {
		case e.Type == field.ErrorTypeRequired:
			name := e.Field[strings.LastIndex(e.Field, ".")+1:]
			if _, ok := prop.Properties[name]; ok && !slices.Contains(required, name) {
				required = append(required, name)
			}
		case strings.Contains(e.Detail, "at least") && strings.Contains(e.Detail, "properties"):
			minProps = true
		}
	}
	const omit = "add omitzero to the json tag (Go clients then leave the empty struct out), or make the field a pointer"
	switch {
	case len(required) > 0:
		return fmt.Sprintf("give %s a default, %s, or mark the field +required", strings.Join(required, ", "), omit)
	case minProps:
		return "the schema refuses an empty object, which Go clients send for this field: " + omit
	}
	return omit + ", or mark the field +required"
}

// tryDefault validates raw as the default of prop, as the apiserver does on
// CRD create, with the `required` entries it covers dropped. full keeps the
// children's schemas, for a value that sets children.
func tryDefault(prop *apiextensionsv1.JSONSchemaProps, raw []byte, full bool) field.ErrorList {
	trial := *prop
	trial.Required = slices.Clone(prop.Required)
	dropRequiredCoveredByDefaults(&trial, decode(raw))
	return normalize.ValidateDefaultInIsolation(context.Background(), slim(&trial, raw, full))
}

func decode(raw []byte) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// storedAlike reports whether the apiserver stores a and b alike as the
// value of a property whose schema is s (nested defaults applied).
func storedAlike(s *apiextensionsv1.JSONSchemaProps, a, b any) bool {
	wrap := &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"v": *s}}
	sa, err1 := normalize.StoredValue(wrap, map[string]any{"v": a}, true)
	sb, err2 := normalize.StoredValue(wrap, map[string]any{"v": b}, true)
	return err1 == nil && err2 == nil && jsonEqual(sa, sb)
}

// jsonEqual compares two decoded JSON values by their encoding, so that
// numbers compare alike whether they are int64 (the apiserver's decoding)
// or float64 (encoding/json's).
func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// defaultsBelow reports a default anywhere below s, which defaulting an
// object of schema s could add.
func defaultsBelow(s *apiextensionsv1.JSONSchemaProps) bool {
	for _, p := range s.Properties {
		if p.Default != nil || defaultsBelow(&p) {
			return true
		}
	}
	for _, c := range []*apiextensionsv1.JSONSchemaPropsOrArray{s.Items} {
		if c != nil && c.Schema != nil && (c.Schema.Default != nil || defaultsBelow(c.Schema)) {
			return true
		}
	}
	if a := s.AdditionalProperties; a != nil && a.Schema != nil && (a.Schema.Default != nil || defaultsBelow(a.Schema)) {
		return true
	}
	return false
}

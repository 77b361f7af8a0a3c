package crdgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/markers"
	"github.com/controller-gen-default/controller-gen-default/normalize"
)

// Rule names, printed after each diagnostic and documented in the README.
const (
	ruleImplicitStruct     = "implicit-struct-default"
	ruleImplicitZero       = "implicit-zero-default"
	ruleOmitemptyStruct    = "omitempty-struct"
	ruleNeedsOmitempty     = "default-needs-omitempty"
	ruleStructDefaultEmpty = "struct-default-not-empty"
	ruleConflict           = "conflicting-defaults"
	ruleInvalidJSON        = "invalid-default"
	ruleUnresolvedRef      = "unresolved-ref"
	ruleTypeMismatch       = "default-type-mismatch"
	ruleUnknownZero        = "unknown-zero-value"
)

// explicit is a default the author wrote.
type explicit struct {
	raw    []byte
	value  any
	source string // "+default", "+kubebuilder:default" or "+default on type T"
	at     diagPos
}

// fieldDefault applies the KEP-1929 rules to one field's property.
func (d *defaulter) fieldDefault(prop *apiextensionsv1.JSONSchemaProps, f goField, sh shape, l loc, implicit bool) {
	d.lintOmitemptyOnStruct(f, sh, l)
	ex, ok := d.explicitFieldDefault(prop, f, sh, l)
	if ok {
		if d.explicitAllowed(prop, f, sh, ex, l) {
			d.setDefault(prop, ex.raw, ex.value, l, origin{at: ex.at, goPath: f.goPath(), cause: ex.source, own: d.own.is(f.pkg)})
		}
		return
	}
	if !implicit || explicitlyRequired(f) {
		return
	}
	if raw := implicitStructDefault(prop, sh); raw != nil {
		d.tryImplicit(prop, f, l, raw, ruleImplicitStruct, "non-pointer struct")
		return
	}
	if sh.kind == kindOpaque && sh.note != "" && !f.omitEmpty && !sh.pointer {
		d.diags.add(diag{sev: sevNote, at: posOf(f), goPath: f.goPath(), jpath: l.jpath, rule: ruleUnknownZero, own: d.own.is(f.pkg),
			msg: "no implicit default: " + sh.note})
	}
	if raw := implicitZeroDefault(prop, f, sh); raw != nil {
		d.tryImplicit(prop, f, l, raw, ruleImplicitZero, "zero value: the field has no omitempty")
	}
}

// implicitStructDefault is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 1: a non-pointer struct field is never absent after a Go round trip,
// it is `{}`, so its CRD default is `{}`.
func implicitStructDefault(prop *apiextensionsv1.JSONSchemaProps, sh shape) []byte {
	if sh.pointer || sh.kind != kindStruct || prop.Type != "object" || preservesUnknown(prop) || prop.XEmbeddedResource {
		return nil // embedded resources need apiVersion and kind, which have no default
	}
	return []byte("{}")
}

// implicitZeroDefault is KEP-1929 "Changes to kubebuilder/default-gen" rule
// 4: a non-pointer scalar without omitempty is always sent by Go clients,
// at its zero value when unset, so its CRD default is that zero value.
func implicitZeroDefault(prop *apiextensionsv1.JSONSchemaProps, f goField, sh shape) []byte {
	if sh.pointer || f.omitEmpty || sh.kind != kindScalar || sh.zero == nil {
		return nil
	}
	switch prop.Type {
	case "string", "integer", "number", "boolean":
	default:
		if !prop.XIntOrString {
			return nil
		}
	}
	return sh.zero
}

// lintOmitemptyOnStruct is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 2: encoding/json ignores omitempty on a non-pointer struct, so the
// tag promises an absence that never happens.
func (d *defaulter) lintOmitemptyOnStruct(f goField, sh shape, l loc) {
	if sh.pointer || sh.kind != kindStruct || !f.omitEmptyOnly {
		return
	}
	if strings.Contains(f.Tag.Get("json"), "omitzero") {
		return
	}
	d.diags.add(diag{sev: sevWarning, at: posOf(f), goPath: f.goPath(), jpath: l.jpath, rule: ruleOmitemptyStruct, own: d.own.is(f.pkg),
		msg: "omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, or drop the tag"})
}

// explicitlyRequired reports +required, +kubebuilder:validation:Required or
// +k8s:required: the author wants clients to send the field, so it gets no
// implicit default. Requiredness inferred from a missing omitempty does not
// count.
func explicitlyRequired(f goField) bool {
	for _, n := range markers.RequiredNames {
		if f.Markers.Get(n) != nil {
			return true
		}
	}
	return false
}

// explicitFieldDefault finds the author's default for f: +default or
// +kubebuilder:default on the field, else +default on the field's type.
func (d *defaulter) explicitFieldDefault(prop *apiextensionsv1.JSONSchemaProps, f goField, sh shape, l loc) (explicit, bool) {
	var own, kb *explicit
	if m, ok := f.Markers.Get(markers.DefaultName).(markers.Default); ok {
		if e, ok := d.parseMarker(m, f.pkg, posOf(f), f.goPath(), l); ok {
			e.source = "+default"
			own = &e
		}
	}
	if f.Markers.Get(markers.KubebuilderDefaultName) != nil && prop.Default != nil {
		var v any
		if err := json.Unmarshal(prop.Default.Raw, &v); err == nil {
			kb = &explicit{raw: prop.Default.Raw, value: v, source: "+kubebuilder:default", at: posOf(f)}
		}
	}
	switch {
	case own != nil && kb != nil:
		if !bytes.Equal(canonical(own.raw), canonical(kb.raw)) {
			d.diags.add(diag{sev: sevError, at: own.at, goPath: f.goPath(), jpath: l.jpath, rule: ruleConflict, own: true,
				msg: fmt.Sprintf("two different defaults: +default=%s and +kubebuilder:default=%s; keep one", own.raw, kb.raw)})
			return explicit{}, false
		}
		return *own, true
	case own != nil:
		return *own, true
	case kb != nil:
		return *kb, true
	}
	if e, ok := d.typeDefault(sh, l); ok {
		e.at = posOf(f)
		return e, true
	}
	return explicit{}, false
}

// typeDefault is the +default on the named type of sh, if any.
func (d *defaulter) typeDefault(sh shape, l loc) (explicit, bool) {
	if !sh.hasIdent {
		return explicit{}, false
	}
	info := d.parser.Types[sh.ident]
	m, ok := info.Markers.Get(markers.DefaultName).(markers.Default)
	if !ok {
		return explicit{}, false
	}
	pkg := sh.ident.Package
	at := diagPos(pkg.Fset.Position(info.RawSpec.Pos()))
	e, ok := d.parseMarker(m, pkg, at, info.Name, l)
	e.source = "+default on type " + info.Name
	return e, ok
}

// explicitAllowed checks an explicit default against the KEP-1929 rules and
// the property's type, reporting errors at the marker.
func (d *defaulter) explicitAllowed(prop *apiextensionsv1.JSONSchemaProps, f goField, sh shape, ex explicit, l loc) bool {
	own := d.own.is(f.pkg)
	sev := d.kepSeverity(ex)
	if msg := structDefaultMustBeEmpty(sh, ex); msg != "" {
		d.diags.add(diag{sev: sev, at: ex.at, goPath: f.goPath(), jpath: l.jpath, rule: ruleStructDefaultEmpty, own: own, msg: msg})
		if sev == sevError {
			return false
		}
	}
	if msg := nonZeroDefaultNeedsOmitempty(f, sh, ex); msg != "" {
		d.diags.add(diag{sev: sev, at: ex.at, goPath: f.goPath(), jpath: l.jpath, rule: ruleNeedsOmitempty, own: own, msg: msg})
		if sev == sevError {
			return false
		}
	}
	if msg := fitsSchema(ex.value, prop); msg != "" {
		d.diags.add(diag{sev: sevError, at: ex.at, goPath: f.goPath(), jpath: l.jpath, rule: ruleTypeMismatch, own: own,
			msg: fmt.Sprintf("%s=%s: %s", ex.source, ex.raw, msg)})
		return false
	}
	return true
}

// kepSeverity is how a KEP-1929 rule violation by an explicit default is
// reported. The KEP's rules bind the KEP's marker: a +default (on a field
// or a type) that breaks them is an error. +kubebuilder:default keeps
// controller-gen's meaning, a plain OpenAPI default, so it gets a warning;
// so does everything under crd:implicitDefaults=false, which promises
// controller-gen's output.
func (d *defaulter) kepSeverity(ex explicit) severity {
	if d.opts.implicit && ex.source != "+kubebuilder:default" {
		return sevError
	}
	return sevWarning
}

// structDefaultMustBeEmpty is KEP-1929 "Non-pointer structs" (forbidden
// example): a non-pointer struct decodes to {} in Go when absent, so any
// other default would differ between Go clients and the apiserver.
func structDefaultMustBeEmpty(sh shape, ex explicit) string {
	if sh.pointer || sh.kind != kindStruct || string(canonical(ex.raw)) == "{}" {
		return ""
	}
	return fmt.Sprintf("%s=%s on a non-pointer struct: only {} is allowed, because Go clients always send the struct. "+
		"Make the field a pointer to give it a default, or put defaults on the struct's own fields", ex.source, ex.raw)
}

// nonZeroDefaultNeedsOmitempty is KEP-1929 "Changes to kubebuilder/default-gen"
// rule 3 and "Non-pointer scalar fields" (the Invalid example): without
// omitempty, Go clients always send the zero value, so a different default
// would never apply to them.
func nonZeroDefaultNeedsOmitempty(f goField, sh shape, ex explicit) string {
	if sh.pointer || f.omitEmpty || sh.kind != kindScalar || sh.zero == nil {
		return ""
	}
	if bytes.Equal(canonical(ex.raw), canonical(sh.zero)) {
		return ""
	}
	return fmt.Sprintf("%s=%s is not the zero value %s, and without omitempty Go clients always send %s, so the default would never apply to them. "+
		"Add omitempty (or omitzero) to the json tag, or make the field a pointer", ex.source, ex.raw, sh.zero, sh.zero)
}

// elementDefault applies a type-level +default to a list item or map value
// (KEP-1929 "Lists" and "String Maps").
func (d *defaulter) elementDefault(s *apiextensionsv1.JSONSchemaProps, sh shape, l loc) {
	ex, ok := d.typeDefault(sh, l)
	if !ok {
		return
	}
	info := d.parser.Types[sh.ident]
	if msg := fitsSchema(ex.value, s); msg != "" {
		d.diags.add(diag{sev: sevError, at: ex.at, goPath: info.Name, jpath: l.jpath, rule: ruleTypeMismatch, own: d.own.is(sh.ident.Package),
			msg: fmt.Sprintf("%s=%s: %s", ex.source, ex.raw, msg)})
		return
	}
	d.setDefault(s, ex.raw, ex.value, l, origin{at: ex.at, goPath: info.Name, cause: ex.source, own: d.own.is(sh.ident.Package)})
}

// tryImplicit writes an implicit default unless the apiserver would reject
// it. A default the generator invents must never make a CRD invalid, so a
// rejected one is skipped with a warning that says why and how to fix it.
func (d *defaulter) tryImplicit(prop *apiextensionsv1.JSONSchemaProps, f goField, l loc, raw []byte, rule, why string) {
	trial := *prop
	trial.Required = slices.Clone(prop.Required)
	var value any
	_ = json.Unmarshal(raw, &value)
	dropRequiredCoveredByDefaults(&trial, value)
	if errs := normalize.ValidateDefaultInIsolation(context.Background(), slim(&trial, raw)); len(errs) > 0 {
		d.diags.add(diag{sev: sevWarning, at: posOf(f), goPath: f.goPath(), jpath: l.jpath, rule: rule, own: d.own.is(f.pkg),
			msg: fmt.Sprintf("implicit default %s (%s) skipped: the apiserver would reject it: %s. Fix: %s",
				raw, why, errs.ToAggregate().Error(), implicitFix(rule))})
		return
	}
	*prop = trial
	prop.Default = &apiextensionsv1.JSON{Raw: raw}
	d.record(l, origin{at: posOf(f), goPath: f.goPath(), cause: fmt.Sprintf("implicit default %s: %s", raw, why), own: d.own.is(f.pkg)})
}

func implicitFix(rule string) string {
	if rule == ruleImplicitStruct {
		return "give the required fields it names a default, make this field a pointer, or mark it +required"
	}
	return "add omitempty (or omitzero), make the field a pointer, or set a valid +default"
}

// setDefault writes an explicit default on s.
func (d *defaulter) setDefault(s *apiextensionsv1.JSONSchemaProps, raw []byte, value any, l loc, o origin) {
	s.Default = &apiextensionsv1.JSON{Raw: raw}
	dropRequiredCoveredByDefaults(s, value)
	d.record(l, o)
}

// dropRequiredCoveredByDefaults removes from `required` each property that
// a default value leaves out but that has a default of its own. The
// apiserver validates every default in isolation, before nested defaults
// apply (defaulting.ValidateDefaults), and would reject such a default with
// "Required value"; yet after top-down defaulting the property can never be
// missing, so dropping it from `required` changes no object. This is what
// makes KEP-1929's "Non-pointer structs" and "Struct pointers" examples
// acceptable to the apiserver.
func dropRequiredCoveredByDefaults(s *apiextensionsv1.JSONSchemaProps, v any) {
	switch v := v.(type) {
	case map[string]any:
		kept := s.Required[:0:0]
		for _, r := range s.Required {
			p, has := s.Properties[r]
			if _, present := v[r]; !present && has && p.Default != nil && string(p.Default.Raw) != "null" {
				continue
			}
			kept = append(kept, r)
		}
		if len(kept) == 0 {
			kept = nil
		}
		s.Required = kept
		for k, cv := range v {
			if p, ok := s.Properties[k]; ok {
				dropRequiredCoveredByDefaults(&p, cv)
				s.Properties[k] = p
			}
		}
	case []any:
		if s.Items != nil && s.Items.Schema != nil {
			for _, e := range v {
				dropRequiredCoveredByDefaults(s.Items.Schema, e)
			}
		}
	}
}

// slim returns the part of s that a default of raw is validated against:
// s itself with its own constraints, but children only as far as CEL rules
// or the value itself need them, and no nested defaults. That keeps the
// check proportional to the node, not to its subtree.
func slim(s *apiextensionsv1.JSONSchemaProps, raw []byte) *apiextensionsv1.JSONSchemaProps {
	out := *s
	out.Description = ""
	out.Default = &apiextensionsv1.JSON{Raw: raw}
	if len(s.XValidations) == 0 {
		out.Properties = nil
		out.Items = nil
		out.AdditionalProperties = nil
		return &out
	}
	out.Properties = make(map[string]apiextensionsv1.JSONSchemaProps, len(s.Properties))
	for k, p := range s.Properties {
		c := p.DeepCopy()
		stripDefaults(c)
		out.Properties[k] = *c
	}
	return &out
}

func stripDefaults(s *apiextensionsv1.JSONSchemaProps) {
	s.Default = nil
	s.Description = ""
	for k, p := range s.Properties {
		stripDefaults(&p)
		s.Properties[k] = p
	}
	if s.Items != nil && s.Items.Schema != nil {
		stripDefaults(s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		stripDefaults(s.AdditionalProperties.Schema)
	}
}

// canonical re-encodes JSON so that equal values compare equal.
func canonical(raw []byte) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}

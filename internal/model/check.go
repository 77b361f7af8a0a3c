package model

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
)

// Check is the part of a field's decision that needs neither the generated
// schema's constraints nor the apiserver: the author's default, if any,
// evaluated and checked against KEP-1929's rules and against the JSON type
// of the property and the Go type. Package decision takes the decision
// from it; Lint reports its findings alone. Its findings carry no JSON
// path: the decision adds the path where it has one.
type Check struct {
	// Explicit is the author's default, nil when there is none or its
	// marker's value cannot be read.
	Explicit *Explicit
	// Findings are the check's diagnostics, in the order they were found.
	Findings []Finding
	// Refused says the default, or a marker's value, cannot be written;
	// Why says why, and Rule, when one applies, which rule refuses it.
	Refused bool
	Why     string
	Rule    string
	// Opaque, for an accepted default, says where its value goes into a
	// type with its own encoding that the defaults generator cannot write
	// (decodable): the CRD carries the literal, the Go defaulter leaves
	// the field alone.
	Opaque string
}

// CheckField checks f against KEP-1929's rule 2 (its tag) when implicit
// defaults are on, and its
// author's default, if any, against rules 3 and "Non-pointer structs" and
// against prop's JSON type and the Go type. prop is the field's generated
// schema, or, for tools that see Go code only, the type part of the schema
// controller-gen generates for the Go type (goSchema): only its type is
// read.
func (m *Model) CheckField(f *Field, prop *apiextensionsv1.JSONSchemaProps) Check {
	var c Check
	// an unexported field controller-gen writes into the CRD: no Go client
	// sends or reads it, so it takes no default (StructFindings reports a
	// marker there, ignoredFieldDefault)
	if jsontag.EncodingJSON(m.jsonField(f.FieldInfo, f.Pkg)).Skip {
		c.Refused, c.Why, c.Rule = true, "encoding/json ignores the field (it is unexported): no Go client sends or reads it", RuleIgnoredFieldDefault
		return c
	}
	// Rule 2 exists because of rule 1: a struct that encoding/json always
	// writes gets the implicit default {}. With implicit defaults off
	// (crd:implicitDefaults=false, controller-gen's output), it concerns
	// nothing the run writes.
	if msg := OmitemptyOnStruct(f); msg != "" && m.opts.Implicit {
		fnd := m.FieldFinding(f, Warning, RuleOmitemptyStruct, msg)
		fnd.Fix = FixOmitzero
		c.Findings = append(c.Findings, fnd)
	}
	ex, findings := m.Explicit(f)
	c.Findings = append(c.Findings, findings...)
	if ex == nil {
		if len(findings) > 0 {
			c.Refused, c.Why = true, "its marker's value is refused"
		}
		return c
	}
	c.Explicit = ex
	sev := m.kepSeverity(ex)
	needsMsg, needsFix := m.nonZeroDefaultNeedsOmitempty(f, ex)
	for _, r := range []struct {
		rule string
		msg  string
		fix  Fix
	}{
		{RuleStructDefaultEmpty, m.structDefaultMustBeEmpty(f, ex), FixPointer},
		{RuleNeedsOmitempty, needsMsg, needsFix},
	} {
		if r.msg == "" {
			continue
		}
		c.Findings = append(c.Findings, Finding{Sev: sev, Pos: ex.Pos, GoPath: f.GoPath(), Rule: r.rule, Own: m.own.is(f.Pkg), Msg: r.msg, Fix: r.fix})
		if sev == Error {
			c.Refused, c.Why, c.Rule = true, "the default breaks a KEP-1929 rule", r.rule
			return c
		}
	}
	// one warning, one fix: omitempty, which default-needs-omitempty asks
	// for, makes the field optional too
	if msg := m.defaultOnRequired(f, ex); msg != "" && !hasRule(c.Findings, RuleNeedsOmitempty) {
		c.Findings = append(c.Findings, Finding{Sev: Warning, Pos: ex.Pos, GoPath: f.GoPath(), Rule: RuleDefaultOnRequired, Own: m.own.is(f.Pkg), Msg: msg})
	}
	msg := fitsSchema(ex.Value, prop)
	if msg == "" {
		msg, c.Opaque = m.decodable(ex.Value, f.Type, f.Pkg)
	}
	if msg != "" {
		c.Findings = append(c.Findings, Finding{Sev: Error, Pos: ex.Pos, GoPath: f.GoPath(), Rule: RuleTypeMismatch, Own: m.own.is(f.Pkg),
			Msg: fmt.Sprintf("%s=%s: %s", ex.Source, ex.Written(), msg)})
		c.Refused, c.Why, c.Rule = true, "the default does not have the field's type", RuleTypeMismatch
	}
	return c
}

// CheckElement checks the default of a list item or map value whose Go
// type has shape sh and whose schema is s (only its type is read): a
// +default on the item's type, the only default such a value takes
// (KEP-1929 "Lists" and "String Maps"), against s's JSON type and the Go
// type. Explicit is nil when the type has no readable +default.
func (m *Model) CheckElement(s *apiextensionsv1.JSONSchemaProps, sh Shape) Check {
	var c Check
	ex, findings := m.ElementDefault(sh)
	c.Findings = append(c.Findings, findings...)
	if ex == nil {
		return c
	}
	c.Explicit = ex
	msg := fitsSchema(ex.Value, s)
	if msg == "" && sh.Named != nil {
		msg, c.Opaque = m.decodable(ex.Value, sh.Named, sh.Ident.Package)
	}
	if msg != "" {
		c.Findings = append(c.Findings, Finding{Sev: Error, Pos: ex.Pos, GoPath: m.idx.TypeInfo(sh.Ident).Name, Rule: RuleTypeMismatch,
			Own: m.own.is(sh.Ident.Package), Msg: fmt.Sprintf("%s=%s: %s", ex.Source, ex.Written(), msg)})
		c.Refused, c.Why, c.Rule = true, "the default does not have the schema's type", RuleTypeMismatch
	}
	return c
}

// Lint is the part of f's decision that needs no generated schema: rule 2
// on its tag; its author's default evaluated, checked against KEP-1929's
// rules 3 and "Non-pointer structs", and against the JSON type
// controller-gen gives the Go type and the Go type itself. Its findings
// are the ones the decision reports, word for word.
func (m *Model) Lint(f *Field) []Finding {
	return m.CheckField(f, goSchema(f.Shape, f.Type)).Findings
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

func hasRule(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

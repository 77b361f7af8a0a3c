package model

import (
	"errors"
	"fmt"
	"go/token"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Explicit is a default the author wrote.
type Explicit struct {
	Raw   []byte // as controller-gen encodes it
	Value any    // Raw decoded
	// Source is "+default", "+k8s:default", "+kubebuilder:default" or
	// "+default on type T".
	Source string
	// Pos is the marker's field or type.
	Pos token.Position
	// Kubebuilder is true for +kubebuilder:default, which keeps
	// controller-gen's meaning of a plain OpenAPI default.
	Kubebuilder bool
	// Ref is the marker's value as written when it is a ref() ("ref(Name)"),
	// else "".
	Ref string
}

// explicitResult is an explicit default, or the findings that keep it out.
type explicitResult struct {
	ex       *Explicit
	findings []Finding
}

// Explicit is the author's default for f: +default (or +k8s:default, its
// other name) or +kubebuilder:default on the field (they must agree), else
// +default on the field's type.
// Values that cannot be evaluated, a conflict, a marker written twice
// with two values, and a default on a recursive path are findings; the
// field then has no explicit default. A marker written twice with one
// value is a warning, and the value is used.
func (m *Model) Explicit(f *Field) (*Explicit, []Finding) {
	own, findings := m.authorsDefault(f.Markers, f.Pkg, f.Pos(), f.GoPath())
	if refused(findings) {
		return nil, findings
	}
	kb, kbFindings := m.kubebuilderDefault(f)
	findings = append(findings, kbFindings...)
	if refused(kbFindings) {
		return nil, findings
	}
	ex := own
	switch {
	case own != nil && kb != nil:
		if !jsonnum.EqualJSON(own.Raw, kb.Raw) {
			findings = append(findings, m.FieldFinding(f, Error, RuleConflict,
				fmt.Sprintf("two different defaults: %s=%s and +kubebuilder:default=%s; keep one", own.Source, own.Written(), kb.Written())))
			return nil, findings
		}
	case kb != nil:
		ex = kb
	}
	if ex != nil {
		if fnd, ok := m.recursiveField(f, ex); ok {
			return nil, append(findings, fnd)
		}
		return ex, findings
	}
	if f.Shape.HasIdent {
		r := m.TypeDefault(f.Shape.Ident)
		if r.ex == nil {
			return nil, r.findings
		}
		e := *r.ex
		e.Pos = f.Pos()
		return &e, r.findings
	}
	return nil, nil
}

// refused reports an error among fs: the marker's value is kept out.
func refused(fs []Finding) bool {
	for _, f := range fs {
		if f.Sev == Error {
			return true
		}
	}
	return false
}

// TypeDefault is the +default on the named type id, evaluated once. A
// +default on a recursive type is refused.
func (m *Model) TypeDefault(id TypeIdent) explicitResult {
	if r, ok := m.typeDefaults[id]; ok {
		return *r
	}
	r := &explicitResult{}
	m.typeDefaults[id] = r
	info := m.idx.TypeInfo(id)
	if info == nil {
		return *r
	}
	e, findings := m.authorsDefault(info.Markers, id.Package, id.Package.Fset.Position(info.RawSpec.Pos()), info.Name)
	r.findings = findings
	if e == nil {
		return *r
	}
	if fnd, ok := m.recursiveType(id, e, info.Name); ok {
		r.findings = append(r.findings, fnd)
		return *r
	}
	e.Source += " on type " + info.Name
	r.ex = e
	return *r
}

// ElementDefault is the +default on the type of a list item or map value
// (KEP-1929 "Lists" and "String Maps"): the only default such a value takes.
func (m *Model) ElementDefault(sh Shape) (*Explicit, []Finding) {
	if !sh.HasIdent {
		return nil, nil
	}
	r := m.TypeDefault(sh.Ident)
	return r.ex, r.findings
}

// evaluate reads a +default value, or says at pos why it cannot be read.
func (m *Model) evaluate(d markers.Default, pkg *loader.Package, pos token.Position, goPath string) (*Explicit, *Finding) {
	raw, v, err := d.Evaluate(pkg)
	if err != nil {
		rule := RuleInvalidJSON
		if ve, ok := errors.AsType[*markers.ValueError](err); ok && ve.Kind == markers.ErrUnresolvedRef {
			rule = RuleUnresolvedRef
		}
		return nil, &Finding{Sev: Error, Pos: pos, GoPath: goPath, Rule: rule, Own: m.own.is(pkg), Msg: err.Error()}
	}
	e := &Explicit{Raw: raw, Value: v, Pos: pos}
	if _, ok := d.Ref(); ok {
		e.Ref = strings.TrimSpace(string(d))
	}
	return e, nil
}

// FieldFinding is a finding about f, at f.
func (m *Model) FieldFinding(f *Field, sev Severity, rule, msg string) Finding {
	return Finding{Sev: sev, Pos: f.Pos(), GoPath: f.GoPath(), Rule: rule, Own: m.own.is(f.Pkg), Msg: msg}
}

// Written is the default as the author wrote it, for messages about it:
// its numbers as written (Raw writes them as the apiserver stores them:
// 9223372036854775808 as 9223372036854776000), and a ref() as written,
// with its value (writtenRef).
func (e *Explicit) Written() string {
	v := string(e.Raw)
	if b, err := jsonnum.MarshalAsWritten(e.Value); err == nil {
		v = string(b)
	}
	return writtenRef(e.Ref, quote.Excerpt(v))
}

// writtenRef is the rule for quoting a +default=ref(Name) in a message:
// ref(Name) as the author wrote it, then the constant's value, which is
// what the schema and the apiserver see: `ref(Bad) (= "SCTP")`. A value
// that is not a ref() is quoted alone.
func writtenRef(ref, value string) string {
	if ref == "" {
		return value
	}
	return ref + " (= " + value + ")"
}

// Origin is where the default comes from, for the messages that name it
// after a refusal of its value: Source, with a ref() as written
// (`+default=ref(Bad)`).
func (e *Explicit) Origin() string {
	if e.Ref == "" {
		return e.Source
	}
	return e.Source + "=" + e.Ref
}

// EmptyObject reports a default of {}.
func (e *Explicit) EmptyObject() bool { return jsonnum.EqualJSON(e.Raw, []byte("{}")) }

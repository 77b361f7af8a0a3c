package model

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/quote"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// No marker is dropped without a word. controller-tools' marker collector
// keeps every value of a marker (MarkerValues maps a name to all of them)
// and MarkerValues.Get reads the first, so each marker the model reads is
// read here, where a second value is reported; a marker on an inline
// field, which controller-gen flattens away, is reported where it is; and
// so is a marker that the collector skips, undefined or written where its
// definition does not apply (ignoredmarkers.go).

// Rule names of the findings about markers and recursive types.
const (
	// RuleDuplicateMarkers is a marker written twice with the same value
	// (a warning, as kube-api-linter's duplicatemarkers).
	RuleDuplicateMarkers = "duplicate-markers"
	// RuleRecursiveDefault is a default on a recursive type, or on a field
	// that lies on a cycle of types.
	RuleRecursiveDefault = "recursive-default"
	// RuleRecursiveType is a recursive type in a CRD (the crd generator's).
	RuleRecursiveType = "recursive-type"
	// RuleInlineDefault is a default marker on an inline (embedded) field.
	RuleInlineDefault = "inline-default"
	// RuleIgnoredFieldDefault is a default marker on a field that
	// encoding/json ignores (ignoredFieldDefault).
	RuleIgnoredFieldDefault = "ignored-field-default"
	// RuleJSONNameMismatch is a json tag that controller-gen and
	// encoding/json read differently (jsontag.Mismatch).
	RuleJSONNameMismatch = "json-name-mismatch"
)

// oneDefault reads the +default values of one field or type (vals, as the
// collector keeps them): the value, or the finding that keeps it out, at
// pos. A value that cannot be read is refused; so are two different
// values (conflicting-defaults). The same value written twice is a
// warning (duplicate-markers), and the value is used.
func (m *Model) oneDefault(name string, vals []markers.Default, pkg *loader.Package, pos token.Position, goPath string) (*Explicit, []Finding) {
	var first *Explicit
	for _, d := range vals {
		e, fnd := m.evaluate(d, pkg, pos, goPath)
		if fnd != nil {
			return nil, []Finding{*fnd}
		}
		if first == nil {
			first = e
			continue
		}
		if !jsonnum.EqualJSON(first.Raw, e.Raw) {
			return nil, []Finding{m.markerFinding(Error, RuleConflict, pkg, pos, goPath,
				fmt.Sprintf("two different defaults: +%s=%s and +%s=%s; keep one", name, first.Written(), name, e.Written()))}
		}
	}
	texts := make([]string, len(vals))
	for i, d := range vals {
		texts[i] = quote.Excerpt(string(d))
	}
	if first != nil {
		first.Source = "+" + name
	}
	return first, m.duplicates(name, texts, pkg, pos, goPath)
}

// authorsDefault reads a field's or type's +default and +k8s:default
// (markers ms), each as oneDefault reads it: +k8s:default is +default
// under declarative validation's name, and where both are written they
// must agree (conflicting-defaults). The value is +default's when it is
// written, else +k8s:default's.
func (m *Model) authorsDefault(ms ctmarkers.MarkerValues, pkg *loader.Package, pos token.Position, goPath string) (*Explicit, []Finding) {
	own, findings := m.oneDefault(markers.DefaultName, markerDefaults(ms, markers.DefaultName), pkg, pos, goPath)
	if refused(findings) {
		return nil, findings
	}
	k8s, k8sFindings := m.oneDefault(markers.K8sDefaultName, markerDefaults(ms, markers.K8sDefaultName), pkg, pos, goPath)
	findings = append(findings, k8sFindings...)
	if refused(k8sFindings) {
		return nil, findings
	}
	switch {
	case own == nil:
		return k8s, findings
	case k8s != nil && !jsonnum.EqualJSON(own.Raw, k8s.Raw):
		return nil, append(findings, m.markerFinding(Error, RuleConflict, pkg, pos, goPath,
			fmt.Sprintf("two different defaults: +%s=%s and +%s=%s; keep one", markers.DefaultName, own.Written(), markers.K8sDefaultName, k8s.Written())))
	}
	return own, findings
}

// kubebuilderDefault reads the +kubebuilder:default values of f as
// oneDefault reads +default's, each as controller-gen writes it.
func (m *Model) kubebuilderDefault(f *Field) (*Explicit, []Finding) {
	var first *Explicit
	var texts []string
	for _, v := range f.Markers[markers.KubebuilderDefaultName] {
		mk, ok := v.(crdmarkers.Default)
		if !ok {
			continue
		}
		raw, err := json.Marshal(mk.Value)
		if err != nil {
			continue // controller-tools parsed it: it encodes
		}
		if f.Shape.Kind == KindList && string(raw) == "{}" {
			raw = []byte("[]") // as controller-gen writes it for arrays
		}
		value, _ := jsonnum.Decode(raw) // numbers exact
		e := &Explicit{Raw: raw, Value: value, Source: "+kubebuilder:default", Pos: f.Pos(), Kubebuilder: true}
		texts = append(texts, e.Written())
		if first == nil {
			first = e
			continue
		}
		if !jsonnum.EqualJSON(first.Raw, e.Raw) {
			return nil, []Finding{m.FieldFinding(f, Error, RuleConflict,
				fmt.Sprintf("two different defaults: +kubebuilder:default=%s and +kubebuilder:default=%s; keep one", first.Written(), e.Written()))}
		}
	}
	return first, m.duplicates(markers.KubebuilderDefaultName, texts, f.Pkg, f.Pos(), f.GoPath())
}

// duplicates is the warning about a marker written more than once with
// one value (texts, as written), or nothing.
func (m *Model) duplicates(name string, texts []string, pkg *loader.Package, pos token.Position, goPath string) []Finding {
	if len(texts) < 2 {
		return nil
	}
	msg := fmt.Sprintf("+%s=%s is written %d times; keep one", name, texts[0], len(texts))
	for _, t := range texts[1:] {
		if t != texts[0] {
			msg = fmt.Sprintf("+%s=%s and +%s=%s are the same default; keep one", name, texts[0], name, t)
			break
		}
	}
	return []Finding{m.markerFinding(Warning, RuleDuplicateMarkers, pkg, pos, goPath, msg)}
}

func (m *Model) markerFinding(sev Severity, rule string, pkg *loader.Package, pos token.Position, goPath, msg string) Finding {
	return Finding{Sev: sev, Pos: pos, GoPath: goPath, Rule: rule, Own: m.own.is(pkg), Msg: msg}
}

// defaultValues are the +default and +k8s:default values of a field or
// type, as written, with the marker's name.
func defaultValues(ms ctmarkers.MarkerValues) []namedDefault {
	var out []namedDefault
	for _, name := range []string{markers.DefaultName, markers.K8sDefaultName} {
		for _, d := range markerDefaults(ms, name) {
			out = append(out, namedDefault{name, d})
		}
	}
	return out
}

// namedDefault is a +default or +k8s:default value, with the marker's name.
type namedDefault struct {
	name string
	markers.Default
}

// markerDefaults are the values of the marker name (+default or
// +k8s:default) of a field or type, as written.
func markerDefaults(ms ctmarkers.MarkerValues, name string) []markers.Default {
	var out []markers.Default
	for _, v := range ms[name] {
		switch v := v.(type) {
		case markers.FieldDefault:
			out = append(out, v.Default)
		case markers.Default:
			out = append(out, v)
		}
	}
	return out
}

// recursiveField refuses a field's own default when the field lies on a
// cycle of types.
func (m *Model) recursiveField(f *Field, ex *Explicit) (Finding, bool) {
	cyc, ok := m.FieldCycle(f)
	if !ok {
		return Finding{}, false
	}
	return m.FieldFinding(f, Error, RuleRecursiveDefault, fmt.Sprintf("%s=%s lies on a cycle of types (%s): %s. "+
		"Remove the marker, or break the cycle", ex.Source, ex.Written(), cyc, recursiveWhy)), true
}

// recursiveType refuses a type's +default when the type is recursive.
func (m *Model) recursiveType(id TypeIdent, ex *Explicit, goPath string) (Finding, bool) {
	cyc, ok := m.TypeCycle(id)
	if !ok {
		return Finding{}, false
	}
	return m.markerFinding(Error, RuleRecursiveDefault, id.Package, ex.Pos, goPath, fmt.Sprintf("+default=%s on a recursive type (%s): %s. "+
		"Remove the +default, or put the default on fields of type %s that lie outside the cycle", ex.Written(), cyc, recursiveWhy, goPath)), true
}

const recursiveWhy = "a default that creates a value there applies again inside it, at every level " +
	"(the generated Go defaulter would never return), and a CRD schema cannot express a recursive type"

// StructFindings are the findings about markers of the struct type id
// that no field's decision reads: +implicitDefaults written twice on the
// type, on one of its fields or in its package, and default markers on
// its inline (embedded) fields, which have no property of their own; and
// the same of the types it embeds inline, whose fields are its own; and the
// +kubebuilder: markers of its package that controller-tools' collector
// skips (ignoredMarkers). The generators and the lint report them for each
// struct type they read.
func (m *Model) StructFindings(id TypeIdent) []Finding {
	if fs, ok := m.structFindings[id]; ok {
		return fs
	}
	m.structFindings[id] = nil // an inline struct that embeds itself
	var out []Finding
	if info := m.idx.TypeInfo(id); info != nil {
		out = append(out, m.implicitTwice(info.Markers, id.Package, id.Package.Fset.Position(info.RawSpec.Pos()), info.Name)...)
		for _, fi := range info.Fields {
			name := embeddedName(fi) // the Go name, as diagnostics name fields
			pos := id.Package.Fset.Position(fi.RawField.Pos())
			// errors in the user's types; in other modules' types, which the
			// user cannot change, warnings (the default is left out all the same)
			jf, sev := m.jsonField(fi, id.Package), Error
			if !m.own.is(id.Package) {
				sev = Warning
			}
			if msg := m.ignoredFieldDefault(fi, jf); msg != "" {
				out = append(out, m.markerFinding(sev, RuleIgnoredFieldDefault, id.Package, pos, info.Name+"."+name, msg))
			} else if msg := jsontag.Mismatch(jf, m.idx.IgnoreUnexportedFields()); msg != "" {
				out = append(out, m.markerFinding(sev, RuleJSONNameMismatch, id.Package, pos, info.Name+"."+name, msg))
			}
			if fi.Name != "" && m.idx.IgnoreUnexportedFields() && !ast.IsExported(fi.Name) {
				continue
			}
			tag, ok := jsontag.Parse(fi.Tag)
			if !ok {
				continue
			}
			out = append(out, m.implicitTwice(fi.Markers, id.Package, pos, info.Name+"."+name)...)
			if tag.Inline {
				out = append(out, m.inlineMarkers(id, info.Name, fi, name, pos)...)
				// the embedded type's fields are this type's
				if t := id.Package.TypesInfo.TypeOf(fi.RawField.Type); t != nil {
					if sh := m.ShapeOf(t, id.Package); sh.Kind == KindStruct && sh.HasIdent {
						out = append(out, m.StructFindings(sh.Ident)...)
					}
				}
			}
		}
		out = append(out, m.packageFindings(id.Package)...)
		out = append(out, m.ignoredMarkers(id.Package)...)
	}
	m.structFindings[id] = out
	return out
}

// embeddedName is the Go name of a field; for an embedded field, its
// type's name.
func embeddedName(fi ctmarkers.FieldInfo) string {
	if fi.Name != "" {
		return fi.Name
	}
	s := strings.TrimPrefix(types.ExprString(fi.RawField.Type), "*")
	return s[strings.LastIndex(s, ".")+1:]
}

// implicitTwice reports +implicitDefaults written more than once in ms:
// two different values are an error, the same value twice a warning.
func (m *Model) implicitTwice(ms ctmarkers.MarkerValues, pkg *loader.Package, pos token.Position, goPath string) []Finding {
	vals := ms[markers.ImplicitName]
	if len(vals) < 2 {
		return nil
	}
	texts := make([]string, len(vals))
	for i, v := range vals {
		texts[i] = fmt.Sprint(v)
		if texts[i] != texts[0] {
			return []Finding{m.markerFinding(Error, RuleConflict, pkg, pos, goPath,
				fmt.Sprintf("two different settings: +%s=%s and +%s=%s; keep one", markers.ImplicitName, texts[0], markers.ImplicitName, texts[i]))}
		}
	}
	return m.duplicates(markers.ImplicitName, texts, pkg, pos, goPath)
}

// packageFindings reports two different +implicitDefaults on a package,
// at the first file that carries one. (A package marker repeated with the
// same value in several files is common, and harmless.)
func (m *Model) packageFindings(pkg *loader.Package) []Finding {
	vals, err := ctmarkers.PackageMarkers(m.col, pkg)
	if err != nil {
		return nil
	}
	vs := vals[markers.ImplicitName]
	for _, v := range vs[min(1, len(vs)):] {
		if v != vs[0] {
			return []Finding{m.markerFinding(Error, RuleConflict, pkg, packageMarkerPos(pkg, markers.ImplicitName), "package "+pkg.Name,
				fmt.Sprintf("two different settings: +%s=%v and +%s=%v in the package's comments; keep one", markers.ImplicitName, vs[0], markers.ImplicitName, v))}
		}
	}
	return nil
}

// packageMarkerPos is the first comment before a package clause of pkg
// that carries the marker name, else the package clause of its first file.
func packageMarkerPos(pkg *loader.Package, name string) token.Position {
	for _, f := range pkg.Syntax {
		for _, cg := range f.Comments {
			if cg.Pos() > f.Package {
				break
			}
			for _, c := range cg.List {
				if strings.Contains(c.Text, "+"+name) {
					return pkg.Fset.Position(c.Pos())
				}
			}
		}
	}
	if len(pkg.Syntax) > 0 {
		return pkg.Fset.Position(pkg.Syntax[0].Package)
	}
	return token.Position{}
}

// inlineMarkers reports the default markers on the inline field fi of the
// struct owner (type id): an inline struct has no property of its own,
// its fields are owner's, so a default or +implicitDefaults on it applies
// to nothing. controller-gen writes a default there as the default of
// every property of type owner; controller-gen-default leaves it out.
func (m *Model) inlineMarkers(id TypeIdent, owner string, fi ctmarkers.FieldInfo, name string, pos token.Position) []Finding {
	var out []Finding
	goPath := owner + "." + name
	var embedded []*Field
	if t := id.Package.TypesInfo.TypeOf(fi.RawField.Type); t != nil {
		if sh := m.ShapeOf(t, id.Package); sh.HasIdent {
			embedded = m.Fields(sh.Ident)
		}
	}
	where := func(marker, text string, value any) string {
		var sugg []string
		if obj, ok := value.(map[string]any); ok {
			for _, f := range embedded {
				if v, ok := obj[f.Tag.Name]; ok {
					if b, err := jsonnum.MarshalAsWritten(v); err == nil {
						sugg = append(sugg, fmt.Sprintf("+%s=%s on %s", marker, b, f.GoPath()))
					}
				}
			}
		}
		fields := "the fields of " + name
		if len(sugg) > 0 {
			fields += " (" + strings.Join(sugg, ", ") + ")"
		}
		return fmt.Sprintf("+%s=%s on an inline field sets nothing: %s has no property of its own, its fields are %s's. "+
			"Put the default on %s, on a field of type %s, or on type %s itself", marker, text, name, owner, fields, owner, owner)
	}
	for _, d := range defaultValues(fi.Markers) {
		sev := Warning
		if m.opts.Implicit {
			sev = Error
		}
		_, value, _ := d.Evaluate(id.Package)
		out = append(out, m.markerFinding(sev, RuleInlineDefault, id.Package, pos, goPath, where(d.name, string(d.Default), value)))
	}
	for _, v := range fi.Markers[markers.KubebuilderDefaultName] {
		mk, ok := v.(crdmarkers.Default)
		if !ok {
			continue
		}
		raw, _ := json.Marshal(mk.Value)
		value, _ := jsonnum.Decode(raw)
		out = append(out, m.markerFinding(Warning, RuleInlineDefault, id.Package, pos, goPath, where(markers.KubebuilderDefaultName, string(raw), value)+
			"; controller-gen writes it as the default of every property of type "+owner+", controller-gen-default leaves it out"))
	}
	if m.opts.Implicit {
		for _, v := range fi.Markers[markers.ImplicitName] {
			out = append(out, m.markerFinding(Error, RuleInlineDefault, id.Package, pos, goPath, fmt.Sprintf(
				"+%s=%v on an inline field applies to nothing: %s has no property of its own, its fields are %s's. "+
					"Put it on type %s (for all its fields, %s's among them), or on the fields of %s", markers.ImplicitName, v, name, owner, owner, name, name)))
		}
	}
	return out
}

// jsonField is fi as jsontag's readers of its tag see it.
func (m *Model) jsonField(fi ctmarkers.FieldInfo, pkg *loader.Package) jsontag.Field {
	jf := jsontag.Field{Name: embeddedName(fi), Embedded: fi.Name == "", Tag: fi.Tag}
	if jf.Embedded {
		if t := pkg.TypesInfo.TypeOf(fi.RawField.Type); t != nil {
			if p, ok := types.Unalias(t).(*types.Pointer); ok {
				t = p.Elem()
			}
			_, jf.Struct = types.Unalias(t).Underlying().(*types.Struct)
		}
	}
	return jf
}

// ignoredFieldDefault refuses a default marker (+default,
// +kubebuilder:default) on a field that encoding/json ignores: tagged
// `json:"-"`, which controller-gen leaves out of the CRD too, so the
// marker was dropped without a word; or unexported, which controller-gen
// writes into the CRD (unless crd:ignoreUnexportedFields=true), where its
// default would be stored in every object and read by no Go client. It
// returns the finding, or "".
func (m *Model) ignoredFieldDefault(fi ctmarkers.FieldInfo, jf jsontag.Field) string {
	if !jsontag.EncodingJSON(jf).Skip {
		return ""
	}
	var marks []string
	for _, d := range defaultValues(fi.Markers) {
		marks = append(marks, "+"+d.name+"="+string(d.Default))
	}
	for _, v := range fi.Markers[markers.KubebuilderDefaultName] {
		if mk, ok := v.(crdmarkers.Default); ok {
			raw, _ := json.Marshal(mk.Value)
			marks = append(marks, "+"+markers.KubebuilderDefaultName+"="+string(raw))
		}
	}
	if len(marks) == 0 {
		return ""
	}
	what := "the field is tagged `json:\"-\"`: encoding/json ignores it and controller-gen leaves it out of the CRD, so the default applies to nothing"
	fix := "remove the marker, or give the field a json name"
	if fi.Tag.Get("json") != "-" {
		what = "the field is unexported: encoding/json ignores it, so no Go client sends or reads it"
		if m.idx.IgnoreUnexportedFields() {
			what += ", and crd:ignoreUnexportedFields=true leaves it out of the CRD: the default applies to nothing"
		} else {
			what += ", while controller-gen writes it into the CRD, where the default would be stored in objects no Go client reads it from"
		}
		fix = "remove the marker, or export the field"
	}
	return fmt.Sprintf("%s: %s. Fix: %s", strings.Join(marks, " and "), what, fix)
}

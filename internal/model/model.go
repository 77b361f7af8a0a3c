// Package model is the one place where a Go field's default is decided.
//
// For each field of an API type it derives, once, everything the
// generators need: the JSON name and tag options, the shape of the Go type
// and its zero value, the author's explicit default (field +default,
// +kubebuilder:default, or +default on the field's type, with ref()
// resolved), requiredness, and whether implicit defaults are on; and the
// part of the decision that needs no generated schema (CheckField,
// CheckElement): the KEP-1929 findings on the Go code alone. Given the
// field's generated schema, package decision then takes the decision:
// which default the CRD gets, or why it gets none, checked against the
// apiserver's own code. The crd generator writes the decision into the CRD,
// the defaults generator into Go code, and the lint reports the check's
// findings (Lint; LintRoots, and LintPackage for a go/analysis pass); none
// of them derives a default on its own, so the CRD and the Go defaulter
// cannot disagree.
//
// This package links no apiserver validation, CEL or storage code (a test
// in lint/plugin pins it): the golangci-lint plugin builds on it alone.
//
// The rules are those of KEP-1929 (kubernetes/enhancements
// keps/sig-api-machinery/1929-built-in-default), "Changes to
// kubebuilder/default-gen", with one change for encoding/json's omitzero,
// which the KEP predates (see implicitStructDefault).
package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// Options are the generator options that change decisions.
type Options struct {
	// Implicit turns KEP-1929's implicit defaults on (crd:implicitDefaults).
	Implicit bool
}

// Model holds the fields of the types an Index has loaded.
type Model struct {
	idx  Index
	col  *ctmarkers.Collector
	opts Options
	own  ownership
	// loadImports makes the index load, on demand, the packages of the
	// types the roots use (LintRoots; the generators load them already).
	loadImports bool
	// importOf, when set, finds the package of path that from imports
	// (LintPackage: the analysed package has no loader of its own).
	importOf func(from *loader.Package, path string) *loader.Package
	// importsOf, when set, lists the packages from imports (LintPackage).
	importsOf func(from *loader.Package) []*loader.Package
	// deps are packages found among the dependencies of another (imported)
	deps map[depKey]*loader.Package

	ownEncoding  map[*types.Named]bool
	fields       map[TypeIdent][]*Field
	typeDefaults map[TypeIdent]*explicitResult
	pkgMark      map[*loader.Package]*bool
	pkgOptional  map[*loader.Package]bool
	zeros        map[TypeIdent]map[string]any
	lookup       map[*types.Named]TypeIdent

	// the graph of struct types (cycle.go)
	graph map[TypeIdent][]Step
	comp  map[TypeIdent]int
	comps int // components numbered so far
	// findings about a struct type's own markers (markerfindings.go)
	structFindings map[TypeIdent][]Finding
	// the markers of a package that the collector skips (ignoredmarkers.go)
	pkgIgnored map[*loader.Package][]Finding
}

// New returns a model of the types idx loads. roots are the packages being
// generated: findings elsewhere are about other modules.
func New(idx Index, col *ctmarkers.Collector, roots []*loader.Package, opts Options) *Model {
	return &Model{
		idx:          idx,
		col:          col,
		opts:         opts,
		own:          newOwnership(roots),
		ownEncoding:  map[*types.Named]bool{},
		fields:       map[TypeIdent][]*Field{},
		typeDefaults: map[TypeIdent]*explicitResult{},
		pkgMark:      map[*loader.Package]*bool{},
		pkgOptional:  map[*loader.Package]bool{},
		zeros:        map[TypeIdent]map[string]any{},
		lookup:       map[*types.Named]TypeIdent{},
		deps:         map[depKey]*loader.Package{},
		graph:        map[TypeIdent][]Step{},
		comp:         map[TypeIdent]int{},

		structFindings: map[TypeIdent][]Finding{},
		pkgIgnored:     map[*loader.Package][]Finding{},
	}
}

// Options returns the options the model decides with.
func (m *Model) Options() Options { return m.opts }

// Index returns the index whose types the model describes.
func (m *Model) Index() Index { return m.idx }

// Own reports whether pkg belongs to the modules being generated.
func (m *Model) Own(pkg *loader.Package) bool { return m.own.is(pkg) }

// Tag is a field's json tag, read as encoding/json reads it.
type Tag = jsontag.Tag

// Field is one JSON field of a struct type, with inline structs expanded
// in place as controller-gen flattens them.
type Field struct {
	ctmarkers.FieldInfo
	Pkg   *loader.Package
	Owner string // Go name of the declaring type
	// Sel is the Go selector from the outer struct, through inline embedded
	// structs: "Spec" or "VolumeSource.AzureDisk".
	Sel   string
	Tag   Tag
	Type  types.Type
	Shape Shape
}

// GoPath is Type.Field, as diagnostics name the field.
func (f *Field) GoPath() string { return f.Owner + "." + f.goName() }

func (f *Field) goName() string {
	if f.Name != "" {
		return f.Name
	}
	// an embedded field with a json name
	return strings.TrimPrefix(types.ExprString(f.RawField.Type), "*")
}

// Pos is where the field is declared.
func (f *Field) Pos() token.Position { return f.Pkg.Fset.Position(f.RawField.Pos()) }

// Required reports +required, +kubebuilder:validation:Required or
// +k8s:required: the author wants clients to send the field, so it gets no
// implicit default. Requiredness that controller-gen infers from a missing
// omitempty does not count.
func (f *Field) Required() bool {
	for _, n := range markers.RequiredNames {
		if f.Markers.Get(n) != nil {
			return true
		}
	}
	return false
}

// SchemaRequired reports whether controller-gen lists f in the `required`
// of its struct's schema (controller-tools v0.23.0 pkg/crd structToSchema):
// +kubebuilder:validation:Optional or +optional (+k8s:optional) make it
// optional, +kubebuilder:validation:Required or +required (+k8s:required)
// required, in that order; otherwise, in a package without
// +kubebuilder:validation:Optional, every field that is neither inline nor
// omitempty/omitzero is required.
//
// The apiserver defaults before it validates, so a default on a required
// property means the required check never fires: implicit defaults stay
// off such fields (see package decision).
func (m *Model) SchemaRequired(f *Field) bool {
	switch {
	case f.Markers.Get("kubebuilder:validation:Optional") != nil:
		return false
	case f.Markers.Get("kubebuilder:validation:Required") != nil:
		return true
	case f.Markers.Get("optional") != nil, f.Markers.Get("k8s:optional") != nil:
		return false
	case f.Markers.Get("required") != nil, f.Markers.Get("k8s:required") != nil:
		return true
	}
	return !m.packageOptional(f.Pkg) && !f.Tag.Inline && !f.Tag.OmitEmpty && !f.Tag.OmitZero
}

// packageOptional reports +kubebuilder:validation:Optional on pkg, which
// makes controller-gen's fields optional unless they say otherwise.
func (m *Model) packageOptional(pkg *loader.Package) bool {
	if v, ok := m.pkgOptional[pkg]; ok {
		return v
	}
	vals, err := ctmarkers.PackageMarkers(m.col, pkg)
	v := err == nil && vals.Get("kubebuilder:validation:Optional") != nil
	m.pkgOptional[pkg] = v
	return v
}

// Fields lists the JSON fields of the struct type id, inline structs
// expanded, as controller-gen flattens them. A type defined from another
// struct type (definedFrom) has that type's fields.
func (m *Model) Fields(id TypeIdent) []*Field {
	if fs, ok := m.fields[id]; ok {
		return fs
	}
	info := m.idx.TypeInfo(id)
	if info == nil {
		return nil
	}
	if from, ok := m.definedFrom(id, info); ok {
		m.fields[id] = nil // a defined type's chain ends: Go refuses a cycle
		fs := m.Fields(from)
		m.fields[id] = fs
		return fs
	}
	var out []*Field
	for _, fi := range info.Fields {
		if fi.Name != "" && m.idx.IgnoreUnexportedFields() && !ast.IsExported(fi.Name) {
			continue
		}
		tag, ok := jsontag.Parse(fi.Tag)
		if !ok {
			continue
		}
		t := id.Package.TypesInfo.TypeOf(fi.RawField.Type)
		f := &Field{FieldInfo: fi, Pkg: id.Package, Owner: id.Name, Tag: tag, Type: t, Shape: m.ShapeOf(t, id.Package)}
		f.Sel = fi.Name
		if f.Sel == "" { // embedded: the field is named after its type
			f.Sel = f.goName()
			if i := strings.LastIndex(f.Sel, "."); i >= 0 {
				f.Sel = f.Sel[i+1:]
			}
		}
		if !tag.Inline {
			out = append(out, f)
			continue
		}
		if f.Shape.HasIdent {
			for _, ef := range m.Fields(f.Shape.Ident) {
				c := *ef
				c.Sel = f.Sel + "." + ef.Sel
				out = append(out, &c)
			}
		}
	}
	m.fields[id] = out
	return out
}

// definedFrom is the rule for a type defined from another struct type
// (`type Defined common.Inner`, not an alias): it has the other type's
// fields, with their tags and markers, as encoding/json reads it and as
// controller-gen's schema, a reference to the other type's, has them.
// Its own markers (a +default on it, +implicitDefaults) stay its own. The
// other type is the one declared where the definition names it, whatever
// aliases it goes through.
func (m *Model) definedFrom(id TypeIdent, info *ctmarkers.TypeInfo) (TypeIdent, bool) {
	if info.RawSpec == nil || info.RawSpec.Assign.IsValid() {
		return TypeIdent{}, false // an alias is the type it names
	}
	if _, ok := info.RawSpec.Type.(*ast.StructType); ok || id.Package.TypesInfo == nil {
		return TypeIdent{}, false
	}
	n, ok := types.Unalias(id.Package.TypesInfo.TypeOf(info.RawSpec.Type)).(*types.Named)
	if !ok {
		return TypeIdent{}, false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return TypeIdent{}, false
	}
	return m.identOf(n, id.Package)
}

// TypeInfo returns the parsed type id.
func (m *Model) TypeInfo(id TypeIdent) *ctmarkers.TypeInfo { return m.idx.TypeInfo(id) }

// ImplicitMarker is the +implicitDefaults marker on the type id, if any;
// for a type defined from another struct type (definedFrom), whose fields
// are that type's, its own marker, else that type's.
func (m *Model) ImplicitMarker(id TypeIdent) *bool {
	info := m.idx.TypeInfo(id)
	if info == nil {
		return nil
	}
	if v := implicitMarker(info.Markers); v != nil {
		return v
	}
	if from, ok := m.definedFrom(id, info); ok {
		return m.ImplicitMarker(from)
	}
	return nil
}

func implicitMarker(ms ctmarkers.MarkerValues) *bool {
	if v, ok := ms.Get(markers.ImplicitName).(markers.Implicit); ok {
		b := bool(v)
		return &b
	}
	return nil
}

// ImplicitFor says whether implicit defaults are on for f, where inherit is
// the setting of an enclosing field or type (nil if none): the field's own
// +implicitDefaults marker, then one on the field's type, then inherit,
// then the package's, then the generator option. implicitDefaults=false as
// an option wins over every marker.
func (m *Model) ImplicitFor(f *Field, inherit *bool) bool {
	if !m.opts.Implicit {
		return false
	}
	if v := implicitMarker(f.Markers); v != nil {
		return *v
	}
	if f.Shape.HasIdent {
		if v := m.ImplicitMarker(f.Shape.Ident); v != nil {
			return *v
		}
	}
	if inherit != nil {
		return *inherit
	}
	if p := m.packageImplicit(f.Pkg); p != nil {
		return *p
	}
	return true
}

// Below is the inherited setting for what lies below f: f's own
// +implicitDefaults marker, else inherit.
func (m *Model) Below(f *Field, inherit *bool) *bool {
	if v := implicitMarker(f.Markers); v != nil {
		return v
	}
	return inherit
}

func (m *Model) packageImplicit(pkg *loader.Package) *bool {
	if v, ok := m.pkgMark[pkg]; ok {
		return v
	}
	var out *bool
	if vals, err := ctmarkers.PackageMarkers(m.col, pkg); err == nil {
		out = implicitMarker(vals)
	}
	m.pkgMark[pkg] = out
	return out
}

// Lookup finds the parsed type of n, wherever it was loaded from.
func (m *Model) Lookup(n *types.Named) (TypeIdent, bool) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		return TypeIdent{}, false
	}
	if id, ok := m.lookup[n]; ok {
		return id, true
	}
	path := loader.NonVendorPath(obj.Pkg().Path())
	for id := range m.idx.Types() {
		if id.Name == obj.Name() && id.Package.PkgPath == path {
			m.lookup[n] = id
			return id, true
		}
	}
	return TypeIdent{}, false
}

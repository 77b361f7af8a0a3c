package crdgen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/markers"
)

type options struct {
	implicit bool
	verbose  bool
}

// defaulter walks each flattened version schema together with the Go types
// it was generated from, and writes every effective default once, on the
// property that uses it. Shared type schemas are never touched, so the
// flattener cannot turn two defaults into an `allOf`.
type defaulter struct {
	parser  *crd.Parser
	col     *ctmarkers.Collector
	opts    options
	diags   *diagnostics
	own     ownership
	origins map[string]origin
	// versionRoots are the root types and their nodes by
	// originKey(crd, version, ""), where locate starts.
	versionRoots map[string]versionRoot
	roots        map[string]node
	pkgMark      map[*loader.Package]*bool
	// ownEncoding caches hasOwnEncoding by type.
	ownEncoding map[*types.Named]bool
}

func newDefaulter(p *crd.Parser, col *ctmarkers.Collector, roots []*loader.Package, opts options) *defaulter {
	return &defaulter{
		parser:       p,
		col:          col,
		opts:         opts,
		diags:        newDiagnostics(),
		own:          newOwnership(roots),
		origins:      map[string]origin{},
		versionRoots: map[string]versionRoot{},
		roots:        map[string]node{},
		pkgMark:      map[*loader.Package]*bool{},

		ownEncoding: map[*types.Named]bool{},
	}
}

// loc is where the walk is: in which CRD version, at which schema and JSON
// path, and whether implicit defaults are on there.
type loc struct {
	crd, version string
	spath        string // schema path below openAPIV3Schema: properties[spec].properties[x]
	jpath        string // object path: spec.x
	// inherit is set by a +implicitDefaults marker on an enclosing field or
	// type and overrides package markers below it.
	inherit *bool
	// resource is true on the root and on x-kubernetes-embedded-resource
	// nodes, where metadata, apiVersion and kind get no default.
	resource bool
}

func (l loc) property(name string) loc {
	c := l
	c.resource = false
	c.spath = joinPath(l.spath, "properties["+name+"]")
	if l.jpath == "" {
		c.jpath = name
	} else {
		c.jpath = l.jpath + "." + name
	}
	return c
}

func (l loc) items(seg string) loc {
	c := l
	c.resource = false
	c.spath = joinPath(l.spath, seg)
	c.jpath = l.jpath + "[*]"
	return c
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// field is a struct field with its JSON name and the package it is declared in.
type goField struct {
	ctmarkers.FieldInfo
	pkg   *loader.Package
	owner string // Go name of the declaring type
	json  string
	// omitEmpty is true for omitempty and omitzero alike.
	omitEmpty     bool
	omitEmptyOnly bool // the tag says omitempty (not only omitzero)
}

func (f goField) goPath() string {
	name := f.Name
	if name == "" { // an embedded field with a json name
		name = strings.TrimPrefix(types.ExprString(f.RawField.Type), "*")
	}
	return f.owner + "." + name
}

func (f goField) pos() token.Position { return f.pkg.Fset.Position(f.RawField.Pos()) }

// applyCRD injects defaults into every version of c.
func (d *defaulter) applyCRD(c *apiextensionsv1.CustomResourceDefinition, roots map[string]crd.TypeIdent) {
	for i := range c.Spec.Versions {
		v := &c.Spec.Versions[i]
		id, ok := roots[v.Name]
		if !ok || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		l := loc{crd: c.Name, version: v.Name, resource: true}
		if info := d.parser.Types[id]; info != nil {
			root := node{at: diagPos(id.Package.Fset.Position(info.RawSpec.Pos())), goPath: id.Name, own: d.own.is(id.Package)}
			d.roots[c.Name] = root
			d.versionRoots[originKey(c.Name, v.Name, "")] = versionRoot{id: id, n: root}
		}
		d.structNode(v.Schema.OpenAPIV3Schema, id, l)
	}
}

// structNode walks the fields of the struct type id, whose schema is s.
func (d *defaulter) structNode(s *apiextensionsv1.JSONSchemaProps, id crd.TypeIdent, l loc) {
	info := d.parser.Types[id]
	if info == nil {
		return
	}
	if v, ok := info.Markers.Get(markers.ImplicitName).(markers.Implicit); ok {
		b := bool(v)
		l.inherit = &b
	}
	for _, f := range d.fields(id) {
		if l.resource && (f.json == "metadata" || f.json == "apiVersion" || f.json == "kind") {
			continue
		}
		prop, ok := s.Properties[f.json]
		if !ok {
			continue
		}
		d.field(&prop, f, l.property(f.json))
		s.Properties[f.json] = prop
	}
}

// fields lists the JSON fields of a struct type, with inline (embedded)
// structs expanded in place as controller-gen flattens them.
func (d *defaulter) fields(id crd.TypeIdent) []goField {
	info := d.parser.Types[id]
	if info == nil {
		return nil
	}
	var out []goField
	for _, fi := range info.Fields {
		if fi.Name != "" && d.parser.IgnoreUnexportedFields && !ast.IsExported(fi.Name) {
			continue
		}
		tag, ok := fi.Tag.Lookup("json")
		if !ok || tag == "-" {
			continue
		}
		opts := strings.Split(tag, ",")
		f := goField{FieldInfo: fi, pkg: id.Package, owner: id.Name, json: opts[0]}
		inline := f.json == ""
		for _, o := range opts[1:] {
			switch o {
			case "inline":
				inline = true
			case "omitempty":
				f.omitEmpty, f.omitEmptyOnly = true, true
			case "omitzero":
				f.omitEmpty = true
			}
		}
		if !inline {
			out = append(out, f)
			continue
		}
		sh := d.shapeOf(id.Package.TypesInfo.TypeOf(fi.RawField.Type), id.Package)
		if sh.hasIdent {
			out = append(out, d.fields(sh.ident)...)
		}
	}
	return out
}

// field decides the default of one property and walks below it. Children
// come first, so that a parent's default can be checked against what its
// children will be.
func (d *defaulter) field(prop *apiextensionsv1.JSONSchemaProps, f goField, l loc) {
	sh := d.shapeOf(f.pkg.TypesInfo.TypeOf(f.RawField.Type), f.pkg)
	implicit := d.implicitFor(f, sh, l)
	below := l
	if v, ok := f.Markers.Get(markers.ImplicitName).(markers.Implicit); ok {
		b := bool(v)
		below.inherit = &b
	}
	d.descend(prop, sh, f.pkg, below)
	d.fieldDefault(prop, f, sh, l, implicit)
}

// implicitFor says whether implicit defaults are on for f: the field's own
// +implicitDefaults marker, then one on the field's type, then one on an
// enclosing field or type, then the package's, then the generator option.
// implicitDefaults=false wins over every marker.
func (d *defaulter) implicitFor(f goField, sh shape, l loc) bool {
	if !d.opts.implicit {
		return false
	}
	if v, ok := f.Markers.Get(markers.ImplicitName).(markers.Implicit); ok {
		return bool(v)
	}
	if sh.hasIdent {
		if v, ok := d.parser.Types[sh.ident].Markers.Get(markers.ImplicitName).(markers.Implicit); ok {
			return bool(v)
		}
	}
	if l.inherit != nil {
		return *l.inherit
	}
	if p := d.packageImplicit(f.pkg); p != nil {
		return *p
	}
	return true
}

func (d *defaulter) packageImplicit(pkg *loader.Package) *bool {
	if v, ok := d.pkgMark[pkg]; ok {
		return v
	}
	var out *bool
	if vals, err := ctmarkers.PackageMarkers(d.col, pkg); err == nil {
		if v, ok := vals.Get(markers.ImplicitName).(markers.Implicit); ok {
			b := bool(v)
			out = &b
		}
	}
	d.pkgMark[pkg] = out
	return out
}

// descend walks the inside of a property of shape sh.
func (d *defaulter) descend(s *apiextensionsv1.JSONSchemaProps, sh shape, pkg *loader.Package, l loc) {
	if preservesUnknown(s) {
		return
	}
	switch sh.kind {
	case kindStruct:
		if sh.hasIdent {
			l.resource = s.XEmbeddedResource
			d.structNode(s, sh.ident, l)
		}
	case kindList:
		if s.Items != nil && s.Items.Schema != nil {
			d.element(s.Items.Schema, sh.elem, pkg, l.items("items"))
		}
	case kindMap:
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			d.element(s.AdditionalProperties.Schema, sh.elem, pkg, l.items("additionalProperties"))
		}
	}
}

// preservesUnknown reports a subtree that keeps unknown fields and declares
// none: nothing below it is typed, so nothing below it is defaulted.
func preservesUnknown(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields &&
		len(s.Properties) == 0 && s.Items == nil && s.AdditionalProperties == nil
}

// element walks a list item or map value; only a type-level +default
// applies to it (KEP-1929 "Lists" and "String Maps").
func (d *defaulter) element(s *apiextensionsv1.JSONSchemaProps, t types.Type, pkg *loader.Package, l loc) {
	sh := d.shapeOf(t, pkg)
	d.descend(s, sh, pkg, l)
	d.elementDefault(s, sh, l)
}

type versionRoot struct {
	id crd.TypeIdent
	n  node
}

// locate finds the Go source of the deepest property on the schema path
// spath (properties[spec].items.properties[x]) of a version of a CRD, going
// down from the root type as applyCRD does. It runs only when the apiserver
// reports an error, so that no index of every property is kept.
func (d *defaulter) locate(crdName, version, spath string) (node, bool) {
	root, ok := d.versionRoots[originKey(crdName, version, "")]
	if !ok {
		return node{}, false
	}
	id, found := root.id, root.n
	l := loc{crd: crdName, version: version, resource: true}
	sh, pkg := shape{kind: kindStruct, ident: id, hasIdent: true}, id.Package
	for _, seg := range splitSegments(spath) {
		switch {
		case strings.HasPrefix(seg, "properties[") && sh.kind == kindStruct && sh.hasIdent:
			name := strings.TrimSuffix(strings.TrimPrefix(seg, "properties["), "]")
			fields := d.fields(sh.ident)
			i := slices.IndexFunc(fields, func(f goField) bool { return f.json == name })
			if i < 0 {
				return found, true
			}
			f := fields[i]
			l = l.property(name)
			found = node{at: posOf(f), goPath: f.goPath(), jpath: l.jpath, own: d.own.is(f.pkg)}
			sh, pkg = d.shapeOf(f.pkg.TypesInfo.TypeOf(f.RawField.Type), f.pkg), f.pkg
		case (seg == "items" && sh.kind == kindList) || (seg == "additionalProperties" && sh.kind == kindMap):
			l = l.items(seg)
			sh = d.shapeOf(sh.elem, pkg)
		default:
			return found, true
		}
	}
	return found, true
}

package engine

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/defaultdiff"
	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

type options struct {
	implicit, explain bool
}

// schemaWalker walks each flattened version schema together with the Go types
// it was generated from, asks the model for each property's decision and
// writes it there: every effective default once, on the property that uses
// it. Shared type schemas are never touched, so the flattener cannot turn
// two defaults into an `allOf`.
type schemaWalker struct {
	parser  *crd.Parser
	model   *decision.Model
	opts    options
	diags   *model.Diagnostics
	origins map[string]Origin
	// versionRoots are the root types and their nodes by
	// originKey(crd, version, ""), where locate starts.
	versionRoots map[string]versionRoot
	roots        map[string]Node
	// recursive are the findings about recursive types, which only the
	// crd generator reports (the CRD cannot express them; the Go defaulter
	// can), and the schema paths, by originKey, where the recursion left
	// the property without a type: the apiserver's errors there are theirs.
	recursive   []model.Finding
	recursiveAt map[string]bool
	// requiredMismatch are the fields where model.SchemaRequired, which
	// the lint and the Go-only checks use, disagrees with the `required`
	// controller-gen wrote; the decision follows the schema, and tests
	// require none.
	requiredMismatch []string
}

func newSchemaWalker(p *crd.Parser, col *ctmarkers.Collector, roots []*loader.Package, opts options) *schemaWalker {
	return &schemaWalker{
		parser:       p,
		model:        decision.New(p, col, roots, decision.Options{Options: model.Options{Implicit: opts.implicit}, Explain: opts.explain}),
		opts:         opts,
		diags:        model.NewDiagnostics(),
		origins:      map[string]Origin{},
		versionRoots: map[string]versionRoot{},
		roots:        map[string]Node{},
		recursiveAt:  map[string]bool{},
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
	// types are the struct types the walk is inside, innermost first, and
	// via the field it went down last: a struct type met again below
	// itself is where a recursive type comes back.
	types *typeFrame
	via   *model.Field
}

type typeFrame struct {
	id     model.TypeIdent
	parent *typeFrame
}

func (l loc) inside(id model.TypeIdent) bool {
	for f := l.types; f != nil; f = f.parent {
		if f.id == id {
			return true
		}
	}
	return false
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

// applyCRD injects defaults into every version of c.
func (d *schemaWalker) applyCRD(c *apiextensionsv1.CustomResourceDefinition, roots map[string]crd.TypeIdent) {
	same := sameSchemas(c)
	defer d.versionsAgree(c, same)
	for i := range c.Spec.Versions {
		v := &c.Spec.Versions[i]
		id, ok := roots[v.Name]
		if !ok || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		l := loc{crd: c.Name, version: v.Name, resource: true}
		d.model.InVersion(c.Name, v.Name)
		if info := d.parser.Types[id]; info != nil {
			root := Node{At: id.Package.Fset.Position(info.RawSpec.Pos()), GoPath: id.Name, Own: d.model.Types.Own(id.Package)}
			d.roots[c.Name] = root
			d.versionRoots[originKey(c.Name, v.Name, "")] = versionRoot{id: id, n: root}
		}
		d.structNode(v.Schema.OpenAPIV3Schema, model.TypeIdent(id), l)
	}
}

// structNode walks the fields of the struct type id, whose schema is s.
func (d *schemaWalker) structNode(s *apiextensionsv1.JSONSchemaProps, id model.TypeIdent, l loc) {
	for _, f := range d.model.Types.StructFindings(id) {
		d.diags.Add(f)
	}
	l.types = &typeFrame{id: id, parent: l.types}
	if v := d.model.Types.ImplicitMarker(id); v != nil {
		l.inherit = v
	}
	for _, f := range d.model.Types.Fields(id) {
		if l.resource && (f.Tag.Name == "metadata" || f.Tag.Name == "apiVersion" || f.Tag.Name == "kind") {
			continue
		}
		prop, ok := s.Properties[f.Tag.Name]
		if !ok {
			continue
		}
		required := slices.Contains(s.Required, f.Tag.Name)
		if required != d.model.Types.SchemaRequired(f) {
			d.requiredMismatch = append(d.requiredMismatch, fmt.Sprintf("%s (%s): required %v in the schema", f.GoPath(), l.property(f.Tag.Name).jpath, required))
		}
		d.field(&prop, f, l.property(f.Tag.Name), s)
		s.Properties[f.Tag.Name] = prop
	}
}

// field walks below one property, then takes its decision: children come
// first, so that a parent's default is decided with its children's.
func (d *schemaWalker) field(prop *apiextensionsv1.JSONSchemaProps, f *model.Field, l loc, parent *apiextensionsv1.JSONSchemaProps) {
	below := l
	below.inherit = d.model.Types.Below(f, l.inherit)
	below.via = f
	d.descend(prop, f.Shape, f.Pkg, below)
	dec := d.model.Decide(prop, f, l.inherit, l.jpath, parent)
	d.apply(prop, dec, l, f.Pos(), f.GoPath(), d.model.Types.Own(f.Pkg))
}

// apply writes a decision into the schema and keeps its findings and, for
// apiserver errors about the default, where it came from.
func (d *schemaWalker) apply(s *apiextensionsv1.JSONSchemaProps, dec *decision.Decision, l loc, at token.Position, goPath string, own bool) {
	for _, f := range dec.Findings {
		d.diags.Add(f)
	}
	if dec.Default == nil {
		// controller-tools may have written a marker's value that the
		// decision refuses
		s.Default = nil
		return
	}
	dec.Apply(s)
	if ex := dec.Explicit(); ex != nil {
		at = ex.Pos
	}
	d.record(l, Origin{Node: Node{At: at, GoPath: goPath, Own: own}, Cause: dec.Source})
}

// descend walks the inside of a property of shape sh.
func (d *schemaWalker) descend(s *apiextensionsv1.JSONSchemaProps, sh model.Shape, pkg *loader.Package, l loc) {
	if decision.PreservesUnknown(s) {
		return
	}
	switch sh.Kind {
	case model.KindStruct:
		if sh.HasIdent && l.inside(sh.Ident) && untyped(s) {
			d.recursion(l)
			return
		}
		if sh.HasIdent {
			l.resource = s.XEmbeddedResource
			d.structNode(s, sh.Ident, l)
		}
	case model.KindList:
		if s.Items != nil && s.Items.Schema != nil {
			d.element(s.Items.Schema, sh.Elem, pkg, l.items("items"))
		}
	case model.KindMap:
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			d.element(s.AdditionalProperties.Schema, sh.Elem, pkg, l.items("additionalProperties"))
		}
	}
}

// element walks a list item or map value; only a type-level +default
// applies to it (KEP-1929 "Lists" and "String Maps").
func (d *schemaWalker) element(s *apiextensionsv1.JSONSchemaProps, t types.Type, pkg *loader.Package, l loc) {
	sh := d.model.Types.ShapeOf(t, pkg)
	d.descend(s, sh, pkg, l)
	dec := d.model.DecideElement(s, sh, l.jpath)
	if dec.Default == nil && len(dec.Findings) == 0 {
		return
	}
	info := d.parser.Types[crd.TypeIdent(sh.Ident)]
	d.apply(s, dec, l, token.Position{}, info.Name, d.model.Types.Own(sh.Ident.Package))
}

type versionRoot struct {
	id crd.TypeIdent
	n  Node
}

// locate finds the Go source of the deepest property on the schema path
// spath (properties[spec].items.properties[x]) of a version of a CRD, going
// down from the root type as applyCRD does. It runs only when the apiserver
// reports an error, so that no index of every property is kept.
func (d *schemaWalker) locate(crdName, version, spath string) (Node, bool) {
	root, ok := d.versionRoots[originKey(crdName, version, "")]
	if !ok {
		return Node{}, false
	}
	id, found := root.id, root.n
	l := loc{crd: crdName, version: version, resource: true}
	sh, pkg := model.Shape{Kind: model.KindStruct, Ident: model.TypeIdent(id), HasIdent: true}, id.Package
	for _, seg := range SplitPath(spath) {
		switch {
		case strings.HasPrefix(seg, "properties[") && sh.Kind == model.KindStruct && sh.HasIdent:
			name := strings.TrimSuffix(strings.TrimPrefix(seg, "properties["), "]")
			fields := d.model.Types.Fields(sh.Ident)
			i := slices.IndexFunc(fields, func(f *model.Field) bool { return f.Tag.Name == name })
			if i < 0 {
				return found, true
			}
			f := fields[i]
			l = l.property(name)
			found = Node{At: f.Pos(), GoPath: f.GoPath(), JPath: l.jpath, Own: d.model.Types.Own(f.Pkg)}
			sh, pkg = f.Shape, f.Pkg
		case (seg == "items" && sh.Kind == model.KindList) || (seg == "additionalProperties" && sh.Kind == model.KindMap):
			l = l.items(seg)
			sh = d.model.Types.ShapeOf(sh.Elem, pkg)
		default:
			return found, true
		}
	}
	return found, true
}

// Node is the Go source of one schema property: the field (or, for a
// CRD's root, the type) at At, its Go path, the JSON path of the property
// (none for a root), and whether it is in one of the generated modules.
type Node struct {
	At     token.Position
	GoPath string
	JPath  string
	Own    bool
}

// Origin is where a default in the schema came from, so that an apiserver
// error about it can be reported at the Go source: the field or marker
// that wrote it, and the rule (Cause, the decision's Source).
type Origin struct {
	Node
	Cause string
}

func originKey(crd, version, spath string) string { return crd + "|" + version + "|" + spath }

func (d *schemaWalker) record(l loc, o Origin) {
	o.JPath = l.jpath
	d.origins[originKey(l.crd, l.version, l.spath)] = o
}

// untyped reports a schema without a type, as controller-gen's flattener
// leaves the property where a recursive type comes back.
func untyped(s *apiextensionsv1.JSONSchemaProps) bool {
	return s.Type == "" && !s.XIntOrString && s.XPreserveUnknownFields == nil && len(s.Properties) == 0 &&
		s.Items == nil && s.AdditionalProperties == nil && len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0
}

// recursion reports, at the field the walk went down last, a recursive
// type in a CRD: the property where the type comes back has no type, and
// the apiserver refuses it with a message that does not say why.
func (d *schemaWalker) recursion(l loc) {
	d.recursiveAt[originKey(l.crd, l.version, l.spath)] = true
	f := l.via
	if f == nil {
		return
	}
	cycle := "a recursive type"
	if c, ok := d.model.Types.FieldCycle(f); ok {
		cycle = c.String()
	}
	fnd := d.model.Types.FieldFinding(f, model.Error, model.RuleRecursiveType, fmt.Sprintf("%s: a CRD schema cannot express a recursive type "+
		"(controller-gen leaves this property without a type, which the apiserver refuses). Break the cycle: refer to the nested objects "+
		"by name (e.g. a list of names), or make this field schema-less: runtime.RawExtension, or "+
		"+kubebuilder:pruning:PreserveUnknownFields with +kubebuilder:validation:Schemaless and +kubebuilder:validation:Type=object", cycle))
	fnd.JPath = l.jpath
	d.recursive = append(d.recursive, fnd)
}

// belowRecursion reports a schema path at or below a property that a
// recursive type left without a type.
func (d *schemaWalker) belowRecursion(crdName, version, spath string) bool {
	for p := spath; ; {
		if d.recursiveAt[originKey(crdName, version, p)] {
			return true
		}
		segs := SplitPath(p)
		if len(segs) <= 1 {
			return false
		}
		p = strings.Join(segs[:len(segs)-1], ".")
	}
}

// sameSchemas are the pairs of c's versions whose schemas are equal, as
// controller-gen generated them.
func sameSchemas(c *apiextensionsv1.CustomResourceDefinition) [][2]string {
	var out [][2]string
	vs := c.Spec.Versions
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if vs[i].Schema != nil && vs[j].Schema != nil && reflect.DeepEqual(vs[i].Schema, vs[j].Schema) {
				out = append(out, [2]string{vs[i].Name, vs[j].Name})
			}
		}
	}
	return out
}

// versionsAgree is the rule that a field's default is a function of its Go
// type and field, never of the version or path that reached it: versions
// whose schemas controller-gen generated equal (the same Go types, or one
// type reached through aliases) stay equal with their defaults, unless the
// author's markers differ between them (+implicitDefaults=false in one
// version's package). A pair that is not is reported at the CRD's root
// type with the first default that differs, as a warning that names both
// causes: before the apiserver's words about its consequence (a
// selectableFields CRD whose versions' schemas differ is refused), which
// do not name the cause.
func (d *schemaWalker) versionsAgree(c *apiextensionsv1.CustomResourceDefinition, same [][2]string) {
	byName := map[string]*apiextensionsv1.CustomResourceValidation{}
	for _, v := range c.Spec.Versions {
		byName[v.Name] = v.Schema
	}
	for _, p := range same {
		if reflect.DeepEqual(byName[p[0]], byName[p[1]]) {
			continue
		}
		what := "their required lists differ"
		if ch := defaultdiff.Versions(c, p[0], p[1]); len(ch) > 0 {
			what = fmt.Sprintf("%s has %s at %s, %s has %s", p[0], orNone(ch[0].Old), ch[0].Path, p[1], orNone(ch[0].New))
			if len(ch) > 1 {
				what += fmt.Sprintf(" (and %d more)", len(ch)-1)
			}
		}
		root := d.roots[c.Name]
		d.diags.Add(model.Finding{Sev: model.Warning, Pos: root.At, GoPath: root.GoPath, Rule: model.RuleVersionsDiffer, Own: root.Own, CRD: c.Name,
			Msg: fmt.Sprintf("CRD %s: versions %s and %s have the same schema as controller-gen writes it, and different defaults: %s. "+
				"Where the two versions' Go types and markers are the same (one type through aliases), this is a bug of controller-gen-default: "+
				"please report it with the types of both versions. Where the markers differ (+implicitDefaults in one version only), "+
				"make them alike if the versions must stay alike: with selectableFields, the apiserver refuses versions whose schemas differ",
				c.Name, p[0], p[1], what)})
	}
}

func orNone(raw []byte) string {
	if raw == nil {
		return "no default"
	}
	return "default " + string(raw)
}

// SplitPath splits a schema path (properties[spec].items.properties[a.b])
// on the dots outside brackets.
func SplitPath(p string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range p {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, p[start:i])
				start = i + 1
			}
		}
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

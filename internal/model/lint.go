package model

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// LintRoots reports, for tools that see Go code only, the findings of the
// crd generator that need no schema, in the types the crd generator reads
// when run on roots: the root types of the CRDs (kinds: struct types
// that embed metav1.TypeMeta and metav1.ObjectMeta, and the types of the
// same name in the roots of the same +groupName, as controller-tools'
// FindKubeKinds and NeedCRDFor find them) and what they reach through
// fields, list items and map values, walked as the crd generator walks
// the schema (no metadata, apiVersion or kind at a resource's root or in
// an embedded resource, nothing below a +kubebuilder:validation:Schemaless
// field). It reports, for each struct type reached, its StructFindings,
// Lint on each of its fields, and the type-level defaults of their list
// items and map values. A List type (ListMeta) or a helper type that no
// kind reaches is no CRD schema, and is not reported.
//
// When the roots declare no kind at all (a package of shared types
// analysed alone, as go vet and golangci-lint analyse one package at a
// time), every struct type declared in them except List types is
// reported: the crd generator would write no CRD for them alone.
//
// Types are loaded as the crd generator loads them (NewIndex, the same
// markers), so that each finding is the generator's, word for word.
// Findings are once per position, in the order of positions.
func LintRoots(roots []*loader.Package, col *ctmarkers.Collector, checker *loader.TypeChecker, opts Options) []Finding {
	idx := NewIndex(col, checker)
	for _, r := range roots {
		idx.NeedPackage(r)
	}
	m := New(idx, col, roots, opts)
	m.loadImports = true
	return m.lintRoots(roots)
}

// PassPackage is a package as a go/analysis driver hands it to an analyzer
// (an analysis.Pass): the files of the build being analysed, parsed with
// their comments, and the type checker's results on them.
type PassPackage struct {
	Fset  *token.FileSet
	Files []*ast.File
	Types *types.Package
	Info  *types.Info
	// Module is the path of the package's module; "" reads it from the
	// go.mod above the package's files.
	Module string
	// Import returns the package of path, which the package imports,
	// loaded as the crd generator loads it (controller-tools' loader), for
	// the markers of its types; nil when it is not to be had.
	Import func(path string) *loader.Package
}

// CRDMarkers are a collector of the crd generator's markers
// (RegisterMarkers) and its type-checker filter (CheckFilter): LintRoots
// and LintPackage read types with them as the crd generator does.
func CRDMarkers() (*ctmarkers.Collector, *loader.TypeChecker) {
	reg := &ctmarkers.Registry{}
	if err := RegisterMarkers(reg); err != nil {
		panic(err) // the markers' definitions are this module's
	}
	return &ctmarkers.Collector{Registry: reg}, &loader.TypeChecker{NodeFilters: []loader.NodeFilter{CheckFilter()}}
}

// ImportsOf is PassPackage.Import for the package pkg: the packages pkg
// imports, loaded all together with controller-tools' loader and cfg (its
// Dir the directory of pkg's files) when the first of them is asked for;
// a load that fails leaves them unknown (their types without markers).
func ImportsOf(pkg *types.Package, cfg *packages.Config) func(path string) *loader.Package {
	var imports map[string]*loader.Package
	return func(path string) *loader.Package {
		if imports == nil {
			imports = loadImports(pkg, cfg)
		}
		return imports[path]
	}
}

// loadImports loads the packages pkg imports, by import path, with
// controller-tools' loader.
func loadImports(pkg *types.Package, cfg *packages.Config) map[string]*loader.Package {
	out := map[string]*loader.Package{}
	var paths []string
	for _, p := range pkg.Imports() {
		if path := loader.NonVendorPath(p.Path()); path != "unsafe" && path != "C" {
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return out
	}
	roots, err := loader.LoadRootsWithConfig(cfg, paths...)
	if err != nil {
		return out
	}
	for _, r := range roots {
		out[r.PkgPath] = r
	}
	return out
}

// LintPackage is LintRoots for the one package a go/analysis driver
// analyses: its types and their markers are those of pkg.Files, the files
// the driver's build selected (build tags, overlays), type-checked by the
// driver; only the packages it imports are loaded, through pkg.Import and
// checker, for the markers of the types it uses from them.
func LintPackage(pkg PassPackage, col *ctmarkers.Collector, checker *loader.TypeChecker, opts Options) []Finding {
	var names []string
	for _, f := range pkg.Files {
		if tf := pkg.Fset.File(f.Pos()); tf != nil {
			names = append(names, tf.Name())
		}
	}
	root := &loader.Package{Package: &packages.Package{
		ID:              pkg.Types.Path(),
		Name:            pkg.Types.Name(),
		PkgPath:         pkg.Types.Path(),
		GoFiles:         names,
		CompiledGoFiles: names,
		Fset:            pkg.Fset,
		Syntax:          pkg.Files,
		Types:           pkg.Types,
		TypesInfo:       pkg.Info,
	}}
	if pkg.Module != "" {
		root.Module = &packages.Module{Path: pkg.Module}
	}
	idx := &index{col: col, checker: checker, types: map[TypeIdent]*ctmarkers.TypeInfo{}, loaded: map[*loader.Package]bool{},
		typed: map[*loader.Package]bool{root: true}}
	idx.NeedPackage(root)
	roots := []*loader.Package{root}
	m := New(idx, col, roots, opts)
	m.loadImports = true
	m.importOf = func(from *loader.Package, path string) *loader.Package {
		if from != root {
			return from.Imports()[path]
		}
		if pkg.Import == nil {
			return nil
		}
		return pkg.Import(path)
	}
	m.importsOf = func(from *loader.Package) []*loader.Package {
		if from != root {
			return sortedImports(from.Imports())
		}
		var out []*loader.Package
		if pkg.Import == nil {
			return out
		}
		for _, p := range pkg.Types.Imports() {
			if ip := pkg.Import(loader.NonVendorPath(p.Path())); ip != nil {
				out = append(out, ip)
			}
		}
		return out
	}
	return m.lintRoots(roots)
}

// lintRoots walks the types of roots as LintRoots says.
func (m *Model) lintRoots(roots []*loader.Package) []Finding {
	ds := NewDiagnostics()
	w := lintWalk{m: m, ds: ds, seen: map[lintVisit]bool{}}
	if kinds, found := m.kindRoots(roots); found {
		for _, id := range kinds {
			w.structNode(id, true)
		}
	} else {
		w.everyType(roots)
	}
	ds.sort()
	return ds.List()
}

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// skippedVersion reports a kind's root type marked
// +kubebuilder:skipversion: controller-tools removes its version from the
// CRD (crd markers' SkipVersion), so the crd generator reports nothing of
// the types only it reaches, and neither does the lint.
func skippedVersion(info *ctmarkers.TypeInfo) bool {
	return info != nil && info.Markers.Get("kubebuilder:skipversion") != nil
}

// kindRoots are the root types of the CRDs the crd generator writes for
// roots, in the order of the index: each struct type of the roots that
// embeds metav1.TypeMeta and metav1.ObjectMeta is a kind of its package's
// +groupName ("" without one), and every root type of that name in a root
// package of that group is one of its versions, but those marked
// +kubebuilder:skipversion (skippedVersion). found says whether the roots
// declare a kind at all, skipped versions included (found).
func (m *Model) kindRoots(roots []*loader.Package) (out []TypeIdent, found bool) {
	isRoot := map[*loader.Package]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	type groupKind struct{ group, kind string }
	kinds := map[groupKind]bool{}
	var candidates []TypeIdent
	for id, info := range m.idx.Types() {
		if !isRoot[id.Package] {
			continue
		}
		candidates = append(candidates, id)
		if m.embedsMeta(id, info, "TypeMeta") && m.embedsMeta(id, info, "ObjectMeta") {
			kinds[groupKind{m.group(id.Package), id.Name}] = true
		}
	}
	for _, id := range candidates {
		if !kinds[groupKind{m.group(id.Package), id.Name}] || !isStruct(id) {
			continue
		}
		found = true
		if !skippedVersion(m.idx.TypeInfo(id)) {
			out = append(out, id)
		}
	}
	return out, found
}

// embedsMeta reports an embedded field of type metav1.<name> (not a
// pointer), as FindKubeKinds looks for TypeMeta and ObjectMeta.
func (m *Model) embedsMeta(id TypeIdent, info *ctmarkers.TypeInfo, name string) bool {
	if id.Package.TypesInfo == nil {
		return false
	}
	for _, fi := range info.Fields {
		if fi.Name != "" {
			continue
		}
		if n, ok := id.Package.TypesInfo.TypeOf(fi.RawField.Type).(*types.Named); ok && isMetav1(n, name) {
			return true
		}
	}
	return false
}

func isMetav1(n *types.Named, name string) bool {
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Name() == name && loader.NonVendorPath(obj.Pkg().Path()) == metav1Path
}

// isList reports a List type: a struct with a field of type
// metav1.ListMeta.
func (m *Model) isList(id TypeIdent, info *ctmarkers.TypeInfo) bool {
	if id.Package.TypesInfo == nil {
		return false
	}
	for _, fi := range info.Fields {
		if n, ok := id.Package.TypesInfo.TypeOf(fi.RawField.Type).(*types.Named); ok && isMetav1(n, "ListMeta") {
			return true
		}
	}
	return false
}

// group is the +groupName of pkg, "" without one.
func (m *Model) group(pkg *loader.Package) string {
	vals, err := ctmarkers.PackageMarkers(m.col, pkg)
	if err != nil {
		return ""
	}
	if g, ok := vals.Get("groupName").(string); ok {
		return g
	}
	return ""
}

func isStruct(id TypeIdent) bool {
	obj := id.Package.Types.Scope().Lookup(id.Name)
	if obj == nil {
		return false
	}
	_, ok := obj.Type().Underlying().(*types.Struct)
	return ok
}

// The markers that change where the crd generator's walk goes.
const (
	markerSchemaless       = "kubebuilder:validation:Schemaless"
	markerEmbeddedResource = "kubebuilder:validation:EmbeddedResource"
	markerPreserveUnknown  = "kubebuilder:pruning:PreserveUnknownFields"
)

// lintWalk goes through the types a CRD's schema is generated from, as
// the crd generator's walk (crdgen) goes through the schema.
type lintWalk struct {
	m    *Model
	ds   *Diagnostics
	seen map[lintVisit]bool
}

type lintVisit struct {
	id TypeIdent
	// resource: at a resource's root, whose metadata, apiVersion and kind
	// are not the walk's
	resource bool
}

func (w *lintWalk) add(fs []Finding) {
	for _, f := range fs {
		w.ds.Add(f)
	}
}

// structNode reports the struct type id and walks its fields.
func (w *lintWalk) structNode(id TypeIdent, resource bool) {
	v := lintVisit{id, resource}
	if w.seen[v] {
		return
	}
	w.seen[v] = true
	w.add(w.m.StructFindings(id))
	for _, f := range w.m.Fields(id) {
		if resource && (f.Tag.Name == "metadata" || f.Tag.Name == "apiVersion" || f.Tag.Name == "kind") {
			continue
		}
		w.add(w.m.Lint(f))
		if f.Markers.Get(markerSchemaless) != nil {
			continue // no properties below: nothing is walked
		}
		w.descend(f.Shape, f.Pkg, f.Markers.Get(markerEmbeddedResource) != nil)
	}
}

// descend walks what a value of shape sh holds: a struct's fields, a list
// item's or map value's type and its type-level default. It stays in the
// modules being linted: another module's types are not the user's to
// change, and the drivers report only the analysed package's files.
func (w *lintWalk) descend(sh Shape, pkg *loader.Package, resource bool) {
	switch sh.Kind {
	case KindStruct:
		if !sh.HasIdent || !w.m.Own(sh.Ident.Package) || w.preservesOnly(sh.Ident) {
			return
		}
		w.structNode(sh.Ident, resource)
	case KindList, KindMap:
		elem := w.m.ShapeOf(sh.Elem, pkg)
		w.descend(elem, pkg, false)
		if elem.HasIdent {
			w.add(w.m.CheckElement(goSchema(elem, sh.Elem), elem).Findings)
		}
	}
}

// preservesOnly reports a struct type whose schema keeps unknown fields
// and declares none: the crd generator walks nothing below it.
func (w *lintWalk) preservesOnly(id TypeIdent) bool {
	info := w.m.idx.TypeInfo(id)
	return info != nil && info.Markers.Get(markerPreserveUnknown) != nil && len(w.m.Fields(id)) == 0
}

// everyType reports every struct type declared in roots, but List types:
// each type's StructFindings, Lint on each field it declares (an inline
// struct's fields are linted with their own type), and the type-level
// defaults of their list items and map values.
func (w *lintWalk) everyType(roots []*loader.Package) {
	isRoot := map[*loader.Package]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	m := w.m
	for id, info := range m.idx.Types() {
		if !isRoot[id.Package] || !isStruct(id) || m.isList(id, info) {
			continue
		}
		w.add(m.StructFindings(id))
		for _, f := range m.Fields(id) {
			if f.Owner != id.Name {
				continue // an inline struct's field, linted with its own type
			}
			w.add(m.Lint(f))
			if f.Shape.Kind == KindList || f.Shape.Kind == KindMap {
				elem := m.ShapeOf(f.Shape.Elem, f.Pkg)
				if elem.HasIdent {
					w.add(m.CheckElement(goSchema(elem, f.Shape.Elem), elem).Findings)
				}
			}
		}
	}
}

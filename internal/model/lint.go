package model

import (
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// LintRoots runs Lint on every field of every struct type declared in
// roots, and the type-level defaults of their list items and map values,
// and reports each such type's StructFindings, for tools that see Go code
// only. It loads types as the crd generator does (NewIndex, the same
// markers), so that each finding is the generator's, word for word.
// Findings are once per position, in the order of positions.
func LintRoots(roots []*loader.Package, col *ctmarkers.Collector, checker *loader.TypeChecker, opts Options) []Finding {
	idx := NewIndex(col, checker)
	for _, r := range roots {
		idx.NeedPackage(r)
	}
	m := New(idx, col, roots, opts)
	m.loadImports = true
	isRoot := map[*loader.Package]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	ds := NewDiagnostics()
	for id := range idx.Types() {
		if !isRoot[id.Package] {
			continue
		}
		if _, ok := id.Package.Types.Scope().Lookup(id.Name).Type().Underlying().(*types.Struct); !ok {
			continue
		}
		for _, fnd := range m.StructFindings(id) {
			ds.Add(fnd)
		}
		for _, f := range m.Fields(id) {
			if f.Owner != id.Name {
				continue // an inline struct's field, linted with its own type
			}
			for _, fnd := range m.Lint(f) {
				ds.Add(fnd)
			}
			if f.Shape.Kind == KindList || f.Shape.Kind == KindMap {
				elem := m.ShapeOf(f.Shape.Elem, f.Pkg)
				if elem.HasIdent {
					for _, fnd := range m.CheckElement(goSchema(elem, f.Shape.Elem), elem).Findings {
						ds.Add(fnd)
					}
				}
			}
		}
	}
	ds.sort()
	return ds.List()
}

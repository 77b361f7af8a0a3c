// make mutation (hack/mutation.sh) builds with tag mutation: this test
// checks the index, not a decision, and takes most of the package's test
// time, which every mutant would pay.

//go:build !mutation

package decision

import (
	"go/ast"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// TestIndexIsTheParsers: model.NewIndex, which the lint analyzers use
// because they cannot import controller-tools' pkg/crd, loads the types
// the crd generator's crd.Parser (with crd.AddKnownTypes) loads, package
// by package, over every package the example API and the forbidden
// examples reach (apimachinery's known packages among them); and
// model.CheckFilter and model.RegisterMarkers are the crd generator's.
func TestIndexIsTheParsers(t *testing.T) {
	if testing.Short() {
		// decide_test.go keeps the rules in the unit tier.
		t.Skip("-short: type-checks every package the example APIs reach, k8s.io's included (about 10 s on 2 cores): run without -short (make test-integration)")
	}
	roots, err := loader.LoadRootsWithConfig(&packages.Config{}, "../../testdata/api/...", "../../testdata/forbidden/...")
	if err != nil {
		t.Fatal(err)
	}
	reg := &ctmarkers.Registry{}
	if err := model.RegisterMarkers(reg); err != nil {
		t.Fatal(err)
	}
	col := &ctmarkers.Collector{Registry: reg}
	checker := &loader.TypeChecker{NodeFilters: []loader.NodeFilter{model.CheckFilter()}}
	p := &crd.Parser{Collector: col, Checker: checker}
	crd.AddKnownTypes(p)
	idx := model.NewIndex(col, checker)

	var all []*loader.Package
	seen := map[*loader.Package]bool{}
	var visit func(*loader.Package)
	visit = func(pkg *loader.Package) {
		if seen[pkg] {
			return
		}
		seen[pkg] = true
		all = append(all, pkg)
		for _, imp := range pkg.Imports() {
			visit(imp)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	names := func(types func(yield func(model.TypeIdent, *ctmarkers.TypeInfo) bool)) []string {
		var out []string
		for id, info := range types {
			out = append(out, id.Package.PkgPath+"."+id.Name+" "+info.Name)
		}
		slices.Sort(out)
		return out
	}
	known := map[string]bool{}
	for _, pkg := range all {
		p.NeedPackage(pkg)
		idx.NeedPackage(pkg)
		if _, ok := crd.KnownPackages[loader.NonVendorPath(pkg.PkgPath)]; ok {
			known[pkg.PkgPath] = true
		}
		if got, want := names(idx.Types()), names(ParserIndex(p).Types()); !slices.Equal(got, want) {
			t.Fatalf("after %s: model.NewIndex has %d types, crd.Parser %d\n%v\n%v", pkg.PkgPath, len(got), len(want), got, want)
		}
	}
	for _, path := range []string{"k8s.io/apimachinery/pkg/apis/meta/v1", "k8s.io/apimachinery/pkg/api/resource", "k8s.io/apimachinery/pkg/util/intstr", "k8s.io/apimachinery/pkg/runtime"} {
		if !known[path] {
			t.Errorf("the examples do not reach %s: the test does not cover its override", path)
		}
	}

	ours, theirs := model.CheckFilter(), crd.Generator{}.CheckFilter()
	nodes := 0
	for _, pkg := range all {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if n != nil {
					nodes++
					if ours(n) != theirs(n) {
						t.Errorf("%s: model.CheckFilter %v, crd's %v", pkg.Fset.Position(n.Pos()), ours(n), theirs(n))
					}
				}
				return true
			})
		}
	}
	if nodes == 0 {
		t.Error("no syntax to check the filter on")
	}

	want := &ctmarkers.Registry{}
	if err := (crd.Generator{}).RegisterMarkers(want); err != nil {
		t.Fatal(err)
	}
	if err := markers.Register(want); err != nil {
		t.Fatal(err)
	}
	defs := func(r *ctmarkers.Registry) []string {
		var out []string
		for _, d := range r.AllDefinitions() {
			out = append(out, d.Name+" "+d.Target.String())
		}
		slices.Sort(out)
		return out
	}
	if got, w := defs(reg), defs(want); !slices.Equal(got, w) {
		t.Errorf("model.RegisterMarkers registers\n%v\nthe crd generator\n%v", got, w)
	}
}

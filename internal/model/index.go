package model

import (
	"go/ast"
	"iter"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/markers"
)

// This package does not import controller-tools' pkg/crd, and neither does
// anything the lint analyzers link: `go mod tidy`, which `golangci-lint
// custom` runs in golangci-lint's own module, also loads the tests of every
// package a plugin imports, and pkg/crd's tests import the apiserver's
// validation, whose CEL libraries clash there with an older
// google.golang.org/genproto ("ambiguous import"). lint/plugin's
// TestImportGraph pins it. The generators reach pkg/crd through package
// decision, which gives the model their crd.Parser as an Index.

// TypeIdent is a named type of a loaded package: controller-tools'
// crd.TypeIdent, field for field (crd.TypeIdent(id) converts it).
type TypeIdent struct {
	Package *loader.Package
	Name    string
}

// Index is where the model finds the types it describes, with their
// markers: the crd generator's crd.Parser (package decision adapts it), or
// NewIndex for tools that see Go code only.
type Index interface {
	// TypeInfo is the type id, nil when its package is not loaded or has
	// no such type.
	TypeInfo(id TypeIdent) *ctmarkers.TypeInfo
	// NeedPackage loads the types of pkg, once.
	NeedPackage(pkg *loader.Package)
	// Types are the types loaded so far.
	Types() iter.Seq2[TypeIdent, *ctmarkers.TypeInfo]
	// IgnoreUnexportedFields is the crd generator's option of that name.
	IgnoreUnexportedFields() bool
}

// NewIndex returns an Index that loads types as the crd generator's
// crd.Parser does with crd.AddKnownTypes (controller-tools pkg/crd's
// NeedPackage, AddPackage and indexTypes): every named type of a package
// with its markers, none of a package marked +kubebuilder:skip, and none
// of the packages whose known-type override does not call AddPackage
// (skipPackages); each package is type-checked with checker.
func NewIndex(col *ctmarkers.Collector, checker *loader.TypeChecker) Index {
	return &index{col: col, checker: checker, types: map[TypeIdent]*ctmarkers.TypeInfo{}, loaded: map[*loader.Package]bool{}}
}

// skipPackages are the packages of crd.KnownPackages whose override sets
// schemas only, without AddPackage: their types are never indexed, nor
// type-checked. decision's TestIndexIsTheParsers keeps NewIndex equal to
// crd.Parser.
var skipPackages = map[string]bool{
	"k8s.io/apimachinery/pkg/api/resource": true,
	"k8s.io/apimachinery/pkg/util/intstr":  true,
}

type index struct {
	col     *ctmarkers.Collector
	checker *loader.TypeChecker
	types   map[TypeIdent]*ctmarkers.TypeInfo
	loaded  map[*loader.Package]bool
	// typed are the packages a go/analysis driver has type-checked
	// (LintPackage): the checker does not check them again.
	typed map[*loader.Package]bool
}

func (x *index) TypeInfo(id TypeIdent) *ctmarkers.TypeInfo { return x.types[id] }

func (x *index) IgnoreUnexportedFields() bool { return false }

func (x *index) Types() iter.Seq2[TypeIdent, *ctmarkers.TypeInfo] {
	return func(yield func(TypeIdent, *ctmarkers.TypeInfo) bool) {
		for id, info := range x.types {
			if !yield(id, info) {
				return
			}
		}
	}
}

func (x *index) NeedPackage(pkg *loader.Package) {
	if x.loaded[pkg] {
		return
	}
	x.loaded[pkg] = true
	if skipPackages[loader.NonVendorPath(pkg.PkgPath)] {
		return
	}
	x.indexTypes(pkg)
	if !x.typed[pkg] {
		x.checker.Check(pkg)
	}
}

func (x *index) indexTypes(pkg *loader.Package) {
	pkgMarkers, err := ctmarkers.PackageMarkers(x.col, pkg)
	if err != nil {
		pkg.AddError(err)
	} else if pkgMarkers.Get("kubebuilder:skip") != nil {
		return
	}
	if err := ctmarkers.EachType(x.col, pkg, func(info *ctmarkers.TypeInfo) {
		x.types[TypeIdent{Package: pkg, Name: info.Name}] = info
	}); err != nil {
		pkg.AddError(err)
	}
}

// RegisterMarkers registers controller-tools' CRD markers (what the crd
// generator's RegisterMarkers registers), then ours over them: the
// markers the crd generator reads, and LintRoots with it.
func RegisterMarkers(into *ctmarkers.Registry) error {
	if err := crdmarkers.Register(into); err != nil {
		return err
	}
	return markers.Register(into)
}

// CheckFilter is the crd generator's filter of the nodes to type-check
// (filterTypesForCRDs in controller-tools' pkg/crd): no interfaces, and
// only the fields with a json tag, since the others have custom
// serialization.
func CheckFilter() loader.NodeFilter {
	return func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.InterfaceType:
			return false
		case *ast.StructType:
			return true
		case *ast.Field:
			_, hasTag := loader.ParseAstTag(node.Tag).Lookup("json")
			return hasTag
		default:
			return true
		}
	}
}

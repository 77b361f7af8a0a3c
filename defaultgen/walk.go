package defaultgen

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/types"
	"path"
	"strconv"
	"strings"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/gotypes"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// field is one JSON field of a struct, with the Go expression that reaches
// it from the struct and its declaring package.
type field struct {
	ctmarkers.FieldInfo
	pkg  *loader.Package
	path string // Go selector from the struct: "Spec" or "VolumeSource.AzureDisk"
	typ  types.Type
}

// helper returns the function that defaults a *n, or "" when nothing below
// n has a default. Helpers are registered before their body is built, so
// recursive types terminate.
func (fg *fileGen) helper(n *types.Named) string {
	if !fg.needs(n) {
		return ""
	}
	if h, ok := fg.helpers[n]; ok {
		return h
	}
	name := "setDefaults_" + n.Obj().Name()
	if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != fg.pkg.PkgPath {
		name = "setDefaults_" + fg.importName(n.Obj().Pkg().Path(), n.Obj().Pkg().Name()) + "_" + n.Obj().Name()
	}
	fg.helpers[n] = name
	fg.order = append(fg.order, n)
	var b strings.Builder
	for _, f := range fg.fields(n) {
		b.WriteString(fg.fieldStmts("in."+f.path, f))
	}
	fg.body[n] = b.String()
	return name
}

// needs reports whether a default applies anywhere below the struct type n.
func (fg *fileGen) needs(n *types.Named) bool {
	switch fg.state[n] {
	case 1:
		return false // in progress: a cycle adds nothing new
	case 2:
		return true
	case 3:
		return false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok || skipped(n) {
		fg.state[n] = 3
		return false
	}
	fg.state[n] = 1
	yes := false
	for _, f := range fg.fields(n) {
		if _, ok := fg.fieldDefault(f); ok || fg.typeNeeds(f.typ) {
			yes = true
			break
		}
	}
	if yes {
		fg.state[n] = 2
	} else {
		fg.state[n] = 3
	}
	return yes
}

// skipped are packages without +default markers whose types have their
// own encoding or no defaults: apimachinery's.
func skipped(n *types.Named) bool {
	return n.Obj().Pkg() == nil || strings.HasPrefix(n.Obj().Pkg().Path(), "k8s.io/apimachinery/")
}

func (fg *fileGen) typeNeeds(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		return fg.typeNeeds(t.Elem())
	case *types.Named:
		if _, ok := t.Underlying().(*types.Struct); ok {
			return fg.needs(t)
		}
		return fg.typeNeeds(t.Underlying())
	case *types.Slice:
		return fg.elemNeeds(t.Elem())
	case *types.Array:
		return fg.elemNeeds(t.Elem())
	case *types.Map:
		return fg.elemNeeds(t.Elem())
	}
	return false
}

func (fg *fileGen) elemNeeds(elem types.Type) bool {
	if p, ok := types.Unalias(elem).(*types.Pointer); ok {
		if _, ok := fg.typeDefault(p.Elem()); ok {
			return true
		}
	}
	return fg.typeNeeds(elem)
}

// fields lists the JSON fields of a struct type, inline structs expanded,
// as the crd generator sees them.
func (fg *fileGen) fields(n *types.Named) []field {
	pkg := fg.loaderPkg(n)
	if pkg == nil {
		return nil
	}
	info := fg.typeInfo(pkg, n.Obj().Name())
	if info == nil {
		return nil
	}
	var out []field
	for _, fi := range info.Fields {
		tag, ok := fi.Tag.Lookup("json")
		if !ok || tag == "-" {
			continue
		}
		opts := strings.Split(tag, ",")
		inline := opts[0] == ""
		for _, o := range opts[1:] {
			inline = inline || o == "inline"
		}
		t := pkg.TypesInfo.TypeOf(fi.RawField.Type)
		name := fi.Name
		if name == "" { // embedded: the field is named after its type
			name = strings.TrimPrefix(types.ExprString(fi.RawField.Type), "*")
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
		}
		if !ast.IsExported(name) && pkg.PkgPath != fg.pkg.PkgPath {
			continue
		}
		if inline {
			if en, ok := types.Unalias(t).(*types.Named); ok && !skipped(en) {
				for _, ef := range fg.fields(en) {
					ef.path = name + "." + ef.path
					out = append(out, ef)
				}
			}
			continue
		}
		out = append(out, field{FieldInfo: fi, pkg: pkg, path: name, typ: t})
	}
	return out
}

// fieldDefault is the raw JSON default of a field: +default or
// +kubebuilder:default on the field, else +default on its type. A
// non-pointer struct's only allowed default, {}, changes nothing in Go.
func (fg *fileGen) fieldDefault(f field) (string, bool) {
	t := types.Unalias(f.typ)
	if n, ok := t.(*types.Named); ok {
		if _, isStruct := n.Underlying().(*types.Struct); isStruct && !gotypes.HasOwnEncoding(n) {
			return "", false
		}
	}
	if m, ok := f.Markers.Get(markers.DefaultName).(markers.Default); ok {
		raw, _, err := m.Evaluate(f.pkg)
		if err != nil {
			fg.errs = append(fg.errs, fmt.Sprintf("%s: %v", f.pkg.Fset.Position(f.RawField.Pos()), err))
			return "", false
		}
		return string(raw), true
	}
	if m, ok := f.Markers.Get(markers.KubebuilderDefaultName).(crdmarkers.Default); ok {
		raw, err := json.Marshal(m.Value)
		if err != nil {
			fg.errs = append(fg.errs, fmt.Sprintf("%s: %v", f.pkg.Fset.Position(f.RawField.Pos()), err))
			return "", false
		}
		if _, isSlice := underlyingOf(t).(*types.Slice); isSlice && string(raw) == "{}" {
			raw = []byte("[]") // as controller-gen writes it for arrays
		}
		return string(raw), true
	}
	return fg.typeDefault(t)
}

// typeDefault is the +default on the named type of t (after a pointer).
func (fg *fileGen) typeDefault(t types.Type) (string, bool) {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || skipped(n) {
		return "", false
	}
	pkg := fg.loaderPkg(n)
	if pkg == nil {
		return "", false
	}
	info := fg.typeInfo(pkg, n.Obj().Name())
	if info == nil {
		return "", false
	}
	m, ok := info.Markers.Get(markers.DefaultName).(markers.Default)
	if !ok {
		return "", false
	}
	raw, _, err := m.Evaluate(pkg)
	if err != nil {
		fg.errs = append(fg.errs, fmt.Sprintf("%s: %v", pkg.Fset.Position(info.RawSpec.Pos()), err))
		return "", false
	}
	return string(raw), true
}

// fieldStmts sets the field's default when it is at its zero value, then
// walks the (possibly just defaulted) value: defaulting is top-down.
func (fg *fileGen) fieldStmts(expr string, f field) string {
	var b strings.Builder
	if raw, ok := fg.fieldDefault(f); ok {
		b.WriteString(fg.setIfZero(expr, f.typ, raw))
	}
	b.WriteString(fg.valueStmts(expr, f.typ))
	return b.String()
}

// setIfZero unmarshals raw into expr when expr is its type's zero value.
func (fg *fileGen) setIfZero(expr string, t types.Type, raw string) string {
	cond := fg.isZero(expr, t)
	lit := "`" + raw + "`"
	if strings.Contains(raw, "`") {
		lit = strconv.Quote(raw)
	}
	fg.imports["encoding/json"] = "json"
	return fmt.Sprintf("if %s {\nif err := json.Unmarshal([]byte(%s), &%s); err != nil {\npanic(err)\n}\n}\n", cond, lit, expr)
}

func (fg *fileGen) isZero(expr string, t types.Type) string {
	switch u := underlyingOf(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
		return expr + " == nil"
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "!" + expr
		case u.Info()&types.IsString != 0:
			return expr + ` == ""`
		case u.Info()&types.IsNumeric != 0:
			return expr + " == 0"
		}
	}
	fg.imports["reflect"] = "reflect"
	return "reflect.ValueOf(" + expr + ").IsZero()"
}

// valueStmts walks the value at expr for nested defaults.
func (fg *fileGen) valueStmts(expr string, t types.Type) string {
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		if n, ok := types.Unalias(t.Elem()).(*types.Named); ok {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct {
				if h := fg.helper(n); h != "" {
					return fmt.Sprintf("if %s != nil {\n%s(%s)\n}\n", expr, h, expr)
				}
			}
		}
	case *types.Named:
		if _, isStruct := t.Underlying().(*types.Struct); isStruct {
			if h := fg.helper(t); h != "" {
				return fmt.Sprintf("%s(&%s)\n", h, expr)
			}
			return ""
		}
		return fg.valueStmts(expr, t.Underlying())
	case *types.Slice:
		return fg.loop(expr, t.Elem(), false)
	case *types.Array:
		return fg.loop(expr, t.Elem(), false)
	case *types.Map:
		return fg.loop(expr, t.Elem(), true)
	}
	return ""
}

// loop walks list items or map values. A type-level default applies to an
// item only when the item is a pointer: encoding/json writes a nil pointer
// as null, which the apiserver defaults; it never writes a value item as
// null, so the apiserver never defaults one.
func (fg *fileGen) loop(expr string, elem types.Type, isMap bool) string {
	fg.tmp++
	if isMap {
		k, v := fmt.Sprintf("k%d", fg.tmp), fmt.Sprintf("v%d", fg.tmp)
		inner := fg.elemStmts(v, elem)
		if inner == "" {
			return ""
		}
		return fmt.Sprintf("for %s := range %s {\n%s := %s[%s]\n%s%s[%s] = %s\n}\n", k, expr, v, expr, k, inner, expr, k, v)
	}
	i := fmt.Sprintf("i%d", fg.tmp)
	inner := fg.elemStmts(fmt.Sprintf("%s[%s]", expr, i), elem)
	if inner == "" {
		return ""
	}
	return fmt.Sprintf("for %s := range %s {\n%s}\n", i, expr, inner)
}

func (fg *fileGen) elemStmts(expr string, elem types.Type) string {
	var b strings.Builder
	if _, ok := types.Unalias(elem).(*types.Pointer); ok {
		if raw, ok := fg.typeDefault(elem); ok {
			b.WriteString(fg.setIfZero(expr, elem, raw))
		}
	}
	b.WriteString(fg.valueStmts(expr, elem))
	return b.String()
}

func underlyingOf(t types.Type) types.Type { return types.Unalias(t).Underlying() }

// qualify is n as written in the generated file.
func (fg *fileGen) qualify(n *types.Named) string {
	p := n.Obj().Pkg()
	if p == nil || p.Path() == fg.pkg.PkgPath {
		return n.Obj().Name()
	}
	return fg.importName(p.Path(), p.Name()) + "." + n.Obj().Name()
}

// importName imports path under its package name, or a numbered one when
// another path already has that name.
func (fg *fileGen) importName(p, name string) string {
	if n, ok := fg.imports[p]; ok {
		return n
	}
	taken := map[string]bool{"json": true, "runtime": true, "context": true, "fmt": true, "reflect": true}
	for _, n := range fg.imports {
		taken[n] = true
	}
	alias := name
	if alias == fg.pkg.Name { // k8s.io/api/core/v1 in a package v1: corev1
		alias = path.Base(path.Dir(p)) + name
	}
	for i := 2; taken[alias]; i++ {
		alias = fmt.Sprintf("%s%d", name, i)
	}
	fg.imports[p] = alias
	return alias
}

// loaderPkg finds the loaded package of n among the root's imports,
// transitively.
func (fg *fileGen) loaderPkg(n *types.Named) *loader.Package {
	if n.Obj().Pkg() == nil {
		return nil
	}
	want := loader.NonVendorPath(n.Obj().Pkg().Path())
	if p, ok := fg.byPath[want]; ok {
		return p
	}
	seen := map[*loader.Package]bool{}
	var find func(p *loader.Package) *loader.Package
	find = func(p *loader.Package) *loader.Package {
		if p.PkgPath == want {
			return p
		}
		if seen[p] {
			return nil
		}
		seen[p] = true
		if imp := p.Imports()[want]; imp != nil {
			return imp
		}
		for _, imp := range p.Imports() {
			if r := find(imp); r != nil {
				return r
			}
		}
		return nil
	}
	p := find(fg.pkg)
	fg.byPath[want] = p
	return p
}

// typeInfo returns the marker information of a type declared in pkg.
func (fg *fileGen) typeInfo(pkg *loader.Package, name string) *ctmarkers.TypeInfo {
	byName, ok := fg.infos[pkg]
	if !ok {
		byName = map[string]*ctmarkers.TypeInfo{}
		fg.check(pkg)
		if err := ctmarkers.EachType(fg.col, pkg, func(info *ctmarkers.TypeInfo) { byName[info.Name] = info }); err != nil {
			fg.errs = append(fg.errs, err.Error())
		}
		fg.infos[pkg] = byName
	}
	return byName[name]
}

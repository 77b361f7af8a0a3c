package defaultgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/golit"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

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
	base := "setDefaults_" + n.Obj().Name()
	if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != fg.pkg.PkgPath {
		base = "setDefaults_" + fg.importName(n.Obj().Pkg().Path(), n.Obj().Pkg().Name()) + "_" + n.Obj().Name()
	}
	name := fg.freeName(base)
	fg.helpers[n] = name
	fg.order = append(fg.order, n)
	// the body is a function of its own: its loops start at depth 0
	depth := fg.depth
	fg.depth = 0
	defer func() { fg.depth = depth }()
	fields := fg.fields(n)
	alloc := fg.allocations(n, fields)
	var b strings.Builder
	for _, e := range alloc {
		fmt.Fprintf(&b, "if in.%s == nil {\nin.%s = &%s{}\n}\n", e.sel, e.sel, fg.qualify(e.elem))
	}
	for _, f := range fields {
		stmts := fg.fieldStmts("in."+f.Sel, f)
		var guards []string
		for _, e := range embeddedPointers(n, f.Sel) {
			if !containsEmbedded(alloc, e.sel) {
				guards = append(guards, "in."+e.sel+" != nil")
			}
		}
		if stmts != "" && len(guards) > 0 {
			stmts = fmt.Sprintf("if %s {\n%s}\n", strings.Join(guards, " && "), stmts)
		}
		b.WriteString(stmts)
	}
	fg.body[n] = b.String()
	return name
}

// embedded is an embedded pointer field on the way to a promoted field:
// its selector from the outer struct, and the struct type it points to.
type embedded struct {
	sel  string
	elem *types.Named
}

// embeddedPointers lists the embedded pointer fields (`*Inner
// `json:",inline"“) that the selector sel of a field of the struct type n
// goes through, outermost first: in.Inner.S reads through Inner, which may
// be nil.
func embeddedPointers(n *types.Named, sel string) []embedded {
	var out []embedded
	cur, _ := n.Underlying().(*types.Struct)
	segs := strings.Split(sel, ".")
	for i, seg := range segs[:len(segs)-1] {
		if cur == nil {
			return out
		}
		var ft types.Type
		for f := range cur.Fields() {
			if f.Name() == seg {
				ft = types.Unalias(f.Type())
			}
		}
		if p, ok := ft.(*types.Pointer); ok {
			ft = types.Unalias(p.Elem())
			if en, ok := ft.(*types.Named); ok {
				out = append(out, embedded{sel: strings.Join(segs[:i+1], "."), elem: en})
			}
		}
		if ft == nil {
			return out
		}
		cur, _ = ft.Underlying().(*types.Struct)
	}
	return out
}

func containsEmbedded(list []embedded, sel string) bool {
	for _, e := range list {
		if e.sel == sel {
			return true
		}
	}
	return false
}

// allocations are the embedded pointers of the struct type n that the
// defaulter allocates: those on the way to a field the CRD has a default
// for. The rule: a nil embedded pointer leaves its promoted fields out of
// the JSON, so the apiserver applies their defaults in the outer object,
// and a Go client decoding what it stores allocates the pointer (encoding/
// json does, to set a promoted field). The defaulter does the same before
// setting the defaults, where otherwise in.Inner.S would dereference nil.
// encoding/json cannot allocate a pointer to an unexported struct (it
// fails to decode the object): such a shape is refused at the field.
func (fg *fileGen) allocations(n *types.Named, fields []*model.Field) []embedded {
	var out []embedded
	for _, f := range fields {
		if len(fg.m.Decisions(f)) == 0 {
			continue
		}
		for _, e := range embeddedPointers(n, f.Sel) {
			if containsEmbedded(out, e.sel) {
				continue
			}
			if !e.elem.Obj().Exported() {
				fg.errorf(f.Pos(), "the CRD has a default for %s, promoted from the embedded pointer *%s, which encoding/json cannot allocate "+
					"(it refuses to set an embedded pointer to an unexported struct): export %s, or embed it by value", f.Tag.Name, e.elem.Obj().Name(), e.elem.Obj().Name())
				continue
			}
			out = append(out, e)
		}
	}
	return out
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
		if _, ok := fg.fieldDefault(f); ok || fg.typeNeeds(f.Type) {
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
	if _, _, ok := fg.elemDefault(elem); ok {
		return true
	}
	return fg.typeNeeds(elem)
}

// fields lists the JSON fields of a struct type as the model has them
// (inline structs expanded), without those this package cannot reach.
func (fg *fileGen) fields(n *types.Named) []*model.Field {
	id, ok := fg.m.Types.Lookup(n)
	if !ok {
		return nil
	}
	var out []*model.Field
	for _, f := range fg.m.Types.Fields(id) {
		if n.Obj().Pkg().Path() != fg.pkg.PkgPath && !exportedPath(f.Sel) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func exportedPath(sel string) bool {
	for s := range strings.SplitSeq(sel, ".") {
		if !ast.IsExported(s) {
			return false
		}
	}
	return true
}

// fieldDefault is the JSON default that Go code sets on f: the explicit
// default the CRD carries for it, when a Go client can leave the field out
// (or send null) and so let the apiserver apply it. Implicit defaults need
// no code: they are Go's zero values. A non-pointer struct's only allowed
// default, {}, is its zero value too; an omitzero struct's other default
// (a struct-default-not-empty warning for +kubebuilder:default) is set
// while the struct is zero, when encoding/json leaves it out and the
// apiserver stores that default.
func (fg *fileGen) fieldDefault(f *model.Field) (string, bool) {
	if f.Shape.NonPointerStruct() && !f.Tag.OmitZero {
		return "", false
	}
	if c, _ := absent(f, "x"); c == "" {
		return "", false
	}
	for _, d := range fg.m.Decisions(f) {
		if d.Default == nil || d.Explicit() == nil {
			continue
		}
		if f.Shape.NonPointerStruct() && d.Explicit().EmptyObject() {
			return "", false // rule 1 for omitzero structs: resetWhenZero and the walk below
		}
		return string(d.Default), true
	}
	return "", false
}

// leftAlone reports an omitzero struct (or pointer to one) whose CRD has no
// default: Go clients leave it out while it is zero (by its IsZero method
// where it has one), the apiserver then stores nothing, so the Go defaulter
// must not default inside it either while it is zero.
func (fg *fileGen) leftAlone(f *model.Field) bool {
	if !f.Tag.OmitZero || len(fg.m.Decisions(f)) > 0 {
		return false
	}
	if f.Shape.NonPointerStruct() {
		return true
	}
	return f.Shape.Pointer && f.Shape.Kind == model.KindStruct && hasIsZero(f.Type)
}

// resetWhenZero reports a non-pointer omitzero struct whose type has its
// own IsZero method and whose CRD has a default ({}, implicit or not).
// encoding/json leaves it out when IsZero says so, whatever it holds; the
// apiserver then stores the default, {} with the defaults inside it, which
// is what a Go client reads back. The Go defaulter does the same: it
// resets such a struct to its zero value before defaulting inside it.
func (fg *fileGen) resetWhenZero(f *model.Field) bool {
	return f.Shape.NonPointerStruct() && f.Tag.OmitZero && hasIsZero(f.Type) && len(fg.m.Decisions(f)) > 0
}

// elemDefault is the +default on the type of a pointer list item or map
// value. A nil item is null on the wire, which the apiserver defaults; a
// value item is never null, so it is never defaulted.
func (fg *fileGen) elemDefault(elem types.Type) (string, token.Position, bool) {
	p, ok := types.Unalias(elem).(*types.Pointer)
	if !ok {
		return "", token.Position{}, false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || skipped(n) {
		return "", token.Position{}, false
	}
	id, ok := fg.m.Types.Lookup(n)
	if !ok {
		return "", token.Position{}, false
	}
	ex, _ := fg.m.Types.ElementDefault(model.Shape{Named: n, Ident: id, HasIdent: true})
	if ex == nil {
		return "", token.Position{}, false
	}
	return string(ex.Raw), ex.Pos, true
}

// fieldStmts sets the field's default when the field would be absent on
// the wire, then walks the (possibly just defaulted) value: defaulting is
// top-down.
func (fg *fileGen) fieldStmts(expr string, f *model.Field) string {
	var b strings.Builder
	if raw, ok := fg.fieldDefault(f); ok {
		b.WriteString(fg.keepImportsIfEmpty(func() string {
			cond, usesReflect := absent(f, expr)
			if usesReflect {
				cond = strings.ReplaceAll(cond, reflectMark, fg.importName("reflect", "reflect")+".")
			}
			return fg.setIf(cond, expr, raw, f.Type, f.Pos(), f.GoPath())
		}))
	}
	if fg.resetWhenZero(f) {
		if n, ok := types.Unalias(f.Type).(*types.Named); ok {
			fmt.Fprintf(&b, "if %s.IsZero() {\n%s = %s{}\n}\n", expr, expr, fg.qualify(n))
		}
	}
	inner := fg.valueStmts(expr, f.Type)
	if inner != "" && fg.leftAlone(f) {
		inner = fmt.Sprintf("if %s {\n%s}\n", fg.nonZero(expr, f.Type), inner)
	}
	b.WriteString(inner)
	return b.String()
}

// reflectMark stands for the reflect package's name in the conditions of
// absent, which the caller replaces by the name the file imports it as.
const reflectMark = "\x00reflect."

// absent is the Go condition under which encoding/json leaves the field at
// expr out, or writes it as null: then, and only then, the apiserver
// applies the field's default. "" means never: the field is always sent.
// A pointer is tested for nil first, so that nothing is called on nil.
// usesReflect says the condition holds reflectMark.
func absent(f *model.Field, expr string) (cond string, usesReflect bool) {
	t := f.Type
	var conds []string
	add := func(c string) {
		if c != "" && !containsString(conds, c) {
			conds = append(conds, c)
		}
	}
	if _, isPtr := underlyingOf(t).(*types.Pointer); isPtr {
		add(expr + " == nil") // written as null, or left out
	}
	if f.Tag.OmitEmpty {
		add(emptyCond(expr, t))
	}
	if f.Tag.OmitZero {
		add(zeroCond(expr, t))
	}
	switch underlyingOf(t).(type) {
	case *types.Slice, *types.Map, *types.Interface:
		add(expr + " == nil") // written as null
	}
	add(nullCond(expr, t))
	cond = strings.Join(conds, " || ")
	return cond, strings.Contains(cond, reflectMark)
}

// nullCond is the rule for types with their own MarshalJSON that write
// null, which the apiserver defaults like an absent field, whatever the
// field's tags: a RawExtension without Raw and Object, an apiextensions
// JSON without Raw, either with Raw "null", a zero metav1.Time or
// MicroTime. For a pointer to one, it is the condition on the value it
// points to (absent puts the nil test first).
func nullCond(expr string, t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	switch loader.NonVendorPath(n.Obj().Pkg().Path()) + "." + n.Obj().Name() {
	case "k8s.io/apimachinery/pkg/runtime.RawExtension":
		return "(len(" + expr + ".Raw) == 0 && " + expr + `.Object == nil || string(` + expr + `.Raw) == "null")`
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSON":
		return "len(" + expr + ".Raw) == 0 || string(" + expr + `.Raw) == "null"`
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Time", "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
		return expr + ".IsZero()"
	}
	return ""
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// emptyCond is encoding/json's omitempty test: false, 0, nil, or an empty
// string, slice, map or array. A struct is never empty.
func emptyCond(expr string, t types.Type) string {
	switch u := underlyingOf(t).(type) {
	case *types.Pointer, *types.Interface:
		return expr + " == nil"
	case *types.Slice, *types.Map, *types.Array:
		return "len(" + expr + ") == 0"
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
	return ""
}

// zeroCond is encoding/json's omitzero test: the IsZero method where the
// type has one, else the Go zero value.
func zeroCond(expr string, t types.Type) string {
	if hasIsZero(t) {
		return expr + ".IsZero()" // absent tests a pointer for nil first
	}
	switch u := underlyingOf(t).(type) {
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map:
		return expr + " == nil"
	case *types.Basic:
		return emptyCond(expr, u)
	}
	return reflectMark + "ValueOf(" + expr + ").IsZero()"
}

// hasIsZero reports an `IsZero() bool` method, which omitzero calls.
func hasIsZero(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "IsZero")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	b, ok := sig.Results().At(0).Type().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// nonZero is the negation of omitzero's test on a struct, or a pointer to
// one, at expr.
func (fg *fileGen) nonZero(expr string, t types.Type) string {
	_, isPtr := underlyingOf(t).(*types.Pointer)
	switch {
	case hasIsZero(t) && isPtr:
		return expr + " != nil && !" + expr + ".IsZero()"
	case hasIsZero(t):
		return "!" + expr + ".IsZero()"
	case types.Comparable(t):
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return expr + " != (" + fg.qualify(n) + "{})"
		}
	}
	return "!" + fg.importName("reflect", "reflect") + ".ValueOf(" + expr + ").IsZero()"
}

// setIf sets expr, of type t, to the default raw when cond holds. The value
// is written as a Go constant or composite literal (golit.Expr), which the
// compiler checks: the generated code has nothing to fail at run time. It
// is the very function by which the model checked the default
// (model.CheckField), on the value the CRD carries; should it still refuse
// it here (a type this package cannot name), the error is reported at pos,
// at the field or type goPath, and nothing is written. A value that goes
// into a type with its own encoding golit does not know, which the model
// accepts for the CRD (model.Check.Opaque), is the one exception:
// ownEncodingSkipped.
func (fg *fileGen) setIf(cond, expr, raw string, t types.Type, pos token.Position, goPath string) string {
	v, err := jsonnum.Decode([]byte(raw))
	if err != nil {
		fg.errorf(pos, "the default %s is not JSON: %v", raw, err)
		return ""
	}
	lit, err := golit.Expr(v, t, fg.litEnv())
	if golit.IsOwnEncoding(err) {
		fg.ownEncodingSkipped(pos, goPath, raw, err)
		return ""
	}
	if err != nil {
		fg.errorf(pos, "the default %s cannot be written as Go: %v", raw, err)
		return ""
	}
	if lit.UsesPtr {
		fg.usesPtr = true
	}
	return fmt.Sprintf("if %s {\n%s = %s\n}\n", cond, expr, lit.Src)
}

// litEnv writes values in this package, importing the packages of the
// types they name.
func (fg *fileGen) litEnv() golit.Env {
	env := fg.m.Types.LitEnv(fg.pkg.Types, func(p *types.Package) string {
		if p.Path() == fg.pkg.PkgPath {
			return ""
		}
		return fg.importName(p.Path(), p.Name())
	})
	env.Ptr = fg.ptrName()
	return env
}

// keepImportsIfEmpty runs write, and when it writes nothing (a default
// left unset: ownEncodingSkipped), forgets the imports it named on the
// way (the condition's reflect, the literal's packages), which the file
// would otherwise import without using.
func (fg *fileGen) keepImportsIfEmpty(write func() string) string {
	before := maps.Clone(fg.imports)
	out := write()
	if out == "" {
		fg.imports = before
	}
	return out
}

// ownEncodingSkipped is the rule for a default whose value goes into a
// type with its own encoding that golit does not know (a duration wrapper
// with MarshalJSON): the crd generator writes the author's literal, as
// controller-gen does, and the apiserver applies it; the defaults
// generator cannot write the Go value that the type's UnmarshalJSON makes
// of it, so it leaves the field as it is and says so, once, as a warning
// of its own. Only this generator's output is affected, never the CRD.
func (fg *fileGen) ownEncodingSkipped(pos token.Position, goPath, raw string, err error) {
	fg.warnings = append(fg.warnings, model.Finding{Sev: model.Warning, Pos: pos, GoPath: goPath, Rule: model.RuleDefaultOwnEncoding, Own: fg.m.Types.Own(fg.pkg),
		Msg: fmt.Sprintf("the defaults generator leaves this field unset: the CRD's default %s goes into a type of its own encoding (%v). "+
			"The apiserver applies the default, so clients that read objects from it see it; Go code that builds objects and calls "+
			"SetObjectDefaults does not. Set the value in your own defaulting code, or use a type the generator knows (metav1.Duration, resource.Quantity)", raw, err)})
}

func (fg *fileGen) errorf(pos token.Position, format string, args ...any) {
	fg.errs = append(fg.errs, fmt.Sprintf("%s: error: %s", pos, fmt.Sprintf(format, args...)))
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
//
// Its variables are named by the loop's depth in its function (i1, then
// i2 inside it; k1 and v1 for a map): a nested loop never hides a variable
// the loops around it still use, and a loop added to the file renames no
// other, as deepcopy-gen and defaulter-gen name theirs.
func (fg *fileGen) loop(expr string, elem types.Type, isMap bool) string {
	fg.depth++
	defer func() { fg.depth-- }()
	if isMap {
		k, v := fmt.Sprintf("k%d", fg.depth), fmt.Sprintf("v%d", fg.depth)
		inner := fg.elemStmts(v, elem)
		if inner == "" {
			return ""
		}
		return fmt.Sprintf("for %s := range %s {\n%s := %s[%s]\n%s%s[%s] = %s\n}\n", k, expr, v, expr, k, inner, expr, k, v)
	}
	i := fmt.Sprintf("i%d", fg.depth)
	inner := fg.elemStmts(fmt.Sprintf("%s[%s]", expr, i), elem)
	if inner == "" {
		return ""
	}
	return fmt.Sprintf("for %s := range %s {\n%s}\n", i, expr, inner)
}

func (fg *fileGen) elemStmts(expr string, elem types.Type) string {
	var b strings.Builder
	if raw, pos, ok := fg.elemDefault(elem); ok {
		b.WriteString(fg.keepImportsIfEmpty(func() string {
			return fg.setIf(expr+" == nil", expr, raw, elem, pos, types.TypeString(elem, types.RelativeTo(fg.pkg.Types)))
		}))
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

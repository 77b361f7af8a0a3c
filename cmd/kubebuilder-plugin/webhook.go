package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// A defaulting webhook of a kubebuilder go/v4 project is a type passed to
// controller-runtime's WithDefaulter in the kind's webhook setup, and that
// type's Default method. kubebuilder v4.15.0 scaffolds, for `create webhook
// --defaulting`, internal/webhook/<version>/<kind>_webhook.go
// (internal/webhook/<group>/<version>/ with multigroup, api/<version>/ with
// --legacy):
//
//	func SetupFrigateWebhookWithManager(mgr ctrl.Manager) error {
//		return ctrl.NewWebhookManagedBy(mgr, &shipv1.Frigate{}).
//			WithDefaulter(&FrigateCustomDefaulter{}).
//			Complete()
//	}
//	…
//	func (d *FrigateCustomDefaulter) Default(_ context.Context, obj *shipv1.Frigate) error {
//		frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())
//
//		// TODO(user): fill in your defaulting logic.
//
//		return nil
//	}
//
// kubebuilder's main branch names the type FrigateDefaulter; older v4
// releases used the builder's For(&shipv1.Frigate{}) and a Default that takes
// a runtime.Object and type-asserts it. Names do not matter here: the
// plugin follows the value passed to WithDefaulter (&T{}, T{}, new(T), a
// variable, a constructor call of the module) to its type T, finds T's
// Default method in T's package, and takes the kind from Default's object
// parameter (*pkg.Kind), from the type assertion in its body when the
// parameter is an interface, or from the builder. editDefaulters makes such
// a Default call the generated SetObjectDefaults_<Kind> first (after the
// type check and the log line), and keeps the rest of the file byte for
// byte. Wherever it cannot, it says so with file:line and the line to add.

// defaulterFilter selects the defaulters to edit: zero selects all (edit);
// create webhook selects its --kind in its --version (and --group with
// multigroup).
type defaulterFilter struct {
	kind, version, group string
	// defaulting: the command scaffolded a defaulting webhook (create
	// webhook --defaulting), so finding none for the kind is reported.
	defaulting bool
}

// defaultsCallComment precedes the inserted call.
const defaultsCallComment = "// Declarative defaults (+default markers), as the CRD applies them: generated\n" +
	"// into zz_generated.defaults.go by `make generate` (controller-gen-default's defaults)."

// defaultMethod is a Default method and how the plugin would wire it.
type defaultMethod struct {
	file *goFile
	fd   *ast.FuncDecl
	// name is "(*T).Default" or "T.Default".
	name string
	// kind is the object's type; kindExpr how the file names it (qual.Kind
	// or Kind).
	kind      typeRef
	kindKnown bool
	qual      string
	// objVar is the variable that holds the *Kind in the body ("" if none).
	objVar string
	// after is the statement after which the call goes (nil: the body's
	// start), before a log line that follows it.
	after ast.Stmt
	// problem says why the call cannot be added (0: it can), and the rest
	// what its message names: the number of parameters, the object
	// parameter, the type assertion and its ok variable, the call to add.
	problem          reason
	params           int
	obj              param
	assertAt, okName string
	hint             string
}

// param is a parameter of a function: its name ("" if none) and type.
type param struct {
	name string
	typ  ast.Expr
}

// analyseDefault reads Default's signature and body: the object parameter
// is *Kind (or *pkg.Kind), or an interface (runtime.Object) that the body
// type-asserts with `x, ok := obj.(*pkg.Kind)` and `if !ok { … }`, or
// `x := obj.(*pkg.Kind)`.
func (p *project) analyseDefault(gf *goFile, fd *ast.FuncDecl) defaultMethod {
	dm := defaultMethod{file: gf, fd: fd, name: methodName(fd)}
	var params []param
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 {
			params = append(params, param{"", f.Type})
		}
		for _, n := range f.Names {
			params = append(params, param{n.Name, f.Type})
		}
	}
	if len(params) != 2 {
		dm.problem, dm.params = paramCount, len(params)
		return dm
	}
	dm.obj = params[1]
	if star, ok := dm.obj.typ.(*ast.StarExpr); ok {
		if t, ok := p.typeOfType(star, gf); ok {
			dm.kind, dm.kindKnown, dm.qual = t, true, qualifier(star.X)
			if dm.obj.name == "" || dm.obj.name == "_" {
				dm.problem, dm.hint = unnamedObject, callText(dm.qual, t.name, "obj")
				return dm
			}
			dm.objVar = dm.obj.name
			dm.after = skipLog(fd.Body, nil)
			return dm
		}
	}
	// An interface: the body must type-assert it.
	if dm.obj.name == "" || dm.obj.name == "_" || !p.assertedKind(&dm) {
		dm.problem = noAssert
	}
	return dm
}

// assertedKind reads the type assertion of Default's object parameter to
// a pointer to the kind at the top level of its body, into dm: the kind,
// the variable it assigns, and the `if !ok` check after which the call
// goes. It reports whether it found one.
func (p *project) assertedKind(dm *defaultMethod) bool {
	body := dm.fd.Body
	for i, s := range body.List {
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) > 2 {
			continue
		}
		ta, ok := as.Rhs[0].(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			continue
		}
		if x, ok := ta.X.(*ast.Ident); !ok || x.Name != dm.obj.name {
			continue
		}
		star, ok := ta.Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		t, ok := p.typeOfType(star, dm.file)
		if !ok {
			continue
		}
		dm.kind, dm.kindKnown, dm.qual = t, true, qualifier(star.X)
		v, ok := as.Lhs[0].(*ast.Ident)
		if !ok || v.Name == "_" {
			return false
		}
		dm.hint = callText(dm.qual, t.name, v.Name)
		if len(as.Lhs) == 1 {
			dm.objVar, dm.after = v.Name, skipLog(body, s)
			return true
		}
		if o, isIdent := as.Lhs[1].(*ast.Ident); isIdent {
			dm.okName = o.Name
		}
		for _, s2 := range body.List[i+1:] {
			if is, isIf := s2.(*ast.IfStmt); isIf && is.Init == nil && isNot(is.Cond, dm.okName) {
				dm.objVar, dm.after = v.Name, skipLog(body, s2)
				return true
			}
		}
		dm.problem, dm.assertAt = uncheckedAssert, p.at(as.Pos())
		return true
	}
	return false
}

func nameOr(n string) string {
	if n == "" {
		return "_"
	}
	return n
}

// isNot: e is `!ok`.
func isNot(e ast.Expr, ok string) bool {
	u, isUnary := e.(*ast.UnaryExpr)
	if !isUnary || u.Op != token.NOT {
		return false
	}
	id, isIdent := u.X.(*ast.Ident)
	return isIdent && id.Name == ok && ok != ""
}

// skipLog is the statement after which the call goes: after, or the log
// line (x.Info(…)) right after it.
func skipLog(body *ast.BlockStmt, after ast.Stmt) ast.Stmt {
	next := 0
	if after != nil {
		for i, s := range body.List {
			if s == after {
				next = i + 1
			}
		}
	}
	if next < len(body.List) && isLogCall(body.List[next]) {
		return body.List[next]
	}
	return after
}

// methodName is "(*T).Default" or "T.Default".
func methodName(fd *ast.FuncDecl) string {
	return "(" + types.ExprString(fd.Recv.List[0].Type) + ")." + fd.Name.Name
}

// qualifier is pkg of pkg.Kind, "" of Kind.
func qualifier(e ast.Expr) string {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok {
			return x.Name
		}
	}
	return ""
}

func callText(qual, kind, v string) string {
	call := "SetObjectDefaults_" + kind + "(" + v + ")"
	if qual != "" {
		call = qual + "." + call
	}
	return call
}

// mutatingMarker matches kubebuilder's marker of a mutating webhook.
var mutatingMarker = regexp.MustCompile(`^//\s*\+kubebuilder:webhook:.*\bmutating=true\b`)

// editDefaulters returns the Go files of the universe whose defaulting
// webhook's Default now calls SetObjectDefaults_<Kind>, path → new
// content, and a log line per defaulter it changed or could not change.
func editDefaulters(universe map[string]string, filter defaulterFilter) (map[string]string, []string) {
	p := newProject(universe)
	outcomes := p.planDefaulters(p.findSetups(), filter)
	changed, failed := applyEdits(universe, outcomes)
	return changed, messages(append(outcomes, failed...))
}

// markerArg is the value of key= in a marker line.
func markerArg(marker, key string) string {
	for _, part := range strings.Split(marker, ",") {
		if i := strings.Index(part, key+"="); i >= 0 && (i == 0 || part[i-1] == ':' || part[i-1] == ',') {
			return part[i+len(key)+1:]
		}
	}
	return ""
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// importName is the name under which f imports importPath ("" in its own
// package, "<pkg>" if it does not import it).
func importName(f *ast.File, importPath string, samePackage bool) string {
	if samePackage {
		return ""
	}
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil || p != importPath {
			continue
		}
		if is.Name != nil {
			return is.Name.Name
		}
		return path.Base(p)
	}
	return "<pkg>"
}

// insertionPoint is where the call goes in the body, and the text to
// insert there: after the statement after (the type check, or the log line
// that follows it or starts the body), else first.
func insertionPoint(fset *token.FileSet, src string, body *ast.BlockStmt, after ast.Stmt, call string) (int, string) {
	file := fset.File(body.Pos())
	indent := "\t"
	if len(body.List) > 0 {
		off := file.Offset(body.List[0].Pos())
		lineStart := strings.LastIndexByte(src[:off], '\n') + 1
		if ws := src[lineStart:off]; strings.TrimSpace(ws) == "" {
			indent = ws
		}
	}
	block := indent + strings.ReplaceAll(defaultsCallComment, "\n", "\n"+indent) + "\n" + indent + call + "\n"
	lineEnd := func(off int) int {
		if nl := strings.IndexByte(src[off:], '\n'); nl >= 0 {
			return off + nl + 1
		}
		return len(src)
	}
	// blankOrEnd: the line at off is blank or closes the body.
	blankOrEnd := func(off int) bool {
		first, _, _ := strings.Cut(src[off:], "\n")
		first = strings.TrimSpace(first)
		return first == "" || first == "}"
	}
	if after != nil {
		end := file.Offset(after.End())
		if strings.TrimSpace(stripLineComment(src[end:lineEnd(end)])) == "" {
			// the scaffold: a blank line, then the call, before the rest.
			at := lineEnd(end)
			text := "\n" + block
			if !blankOrEnd(at) {
				text += "\n"
			}
			return at, text
		}
		// Something follows on the same line: format.Source sorts it out.
		return end, "\n" + block
	}
	lbrace := file.Offset(body.Lbrace) + 1
	if strings.TrimSpace(src[lbrace:lineEnd(lbrace)]) != "" {
		// `{ return nil }` on one line: format.Source sorts the lines out.
		return lbrace, "\n" + block
	}
	if !blankOrEnd(lineEnd(lbrace)) {
		block += "\n"
	}
	return lineEnd(lbrace), block
}

// stripLineComment drops a trailing // comment (the rest of a line after a
// statement).
func stripLineComment(s string) string {
	if i := strings.Index(s, "//"); i >= 0 {
		return s[:i]
	}
	return s
}

// isLogCall: the statement is a call x.Info(…) (the scaffold's
// <kind>log.Info("Defaulting for <Kind>", …)).
func isLogCall(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	ce, ok := es.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ce.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Info"
}

// callsDefaults: the body already applies the declarative defaults, with
// SetObjectDefaults_<Kind> or the generated DeclarativeDefaulter.
func callsDefaults(body *ast.BlockStmt, kind string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (id.Name == "SetObjectDefaults_"+kind || id.Name == "DeclarativeDefaulter") {
			found = true
		}
		return !found
	})
	return found
}

func modulePath(universe map[string]string) string {
	for _, l := range strings.Split(universe["go.mod"], "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			m := strings.TrimSpace(rest)
			if u, err := strconv.Unquote(m); err == nil {
				m = u
			}
			return m
		}
	}
	return ""
}

// declaresKind: a Go file of dir declares `type kind struct` embedding
// TypeMeta, a root type for which the defaults generator writes
// SetObjectDefaults_<kind>.
func declaresKind(universe map[string]string, dir, kind string) bool {
	for p, src := range universe {
		if path.Dir(p) != dir || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || !strings.Contains(src, kind) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				ts := s.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok && ts.Name.Name == kind && embedsTypeMeta(st) {
					return true
				}
			}
		}
	}
	return false
}

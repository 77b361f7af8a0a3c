package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"regexp"
	"sort"
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
	// problem says why the call cannot be added, and how to add it.
	problem string
}

// analyseDefault reads Default's signature and body: the object parameter
// is *Kind (or *pkg.Kind), or an interface (runtime.Object) that the body
// type-asserts with `x, ok := obj.(*pkg.Kind)` and `if !ok { … }`, or
// `x := obj.(*pkg.Kind)`.
func (p *project) analyseDefault(gf *goFile, fd *ast.FuncDecl) defaultMethod {
	dm := defaultMethod{file: gf, fd: fd, name: methodName(fd)}
	type param struct {
		name string
		typ  ast.Expr
	}
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
		dm.problem = fmt.Sprintf("%s takes %d parameters, not (ctx context.Context, obj *<Kind>) as controller-runtime's Defaulter does", dm.name, len(params))
		return dm
	}
	obj := params[1]
	if star, ok := obj.typ.(*ast.StarExpr); ok {
		if t, ok := p.typeOfType(star, gf); ok {
			dm.kind, dm.kindKnown, dm.qual = t, true, qualifier(star.X)
			if obj.name == "" || obj.name == "_" {
				dm.problem = fmt.Sprintf("its object parameter has no name; name it obj and add %q as the first statement of %s", callText(dm.qual, t.name, "obj"), dm.name)
				return dm
			}
			dm.objVar = obj.name
			dm.after = skipLog(fd.Body, nil)
			return dm
		}
	}
	// An interface: the body must type-assert it.
	if obj.name != "" && obj.name != "_" {
		for i, s := range fd.Body.List {
			as, ok := s.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) > 2 {
				continue
			}
			ta, ok := as.Rhs[0].(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				continue
			}
			if x, ok := ta.X.(*ast.Ident); !ok || x.Name != obj.name {
				continue
			}
			star, ok := ta.Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			t, ok := p.typeOfType(star, gf)
			if !ok {
				continue
			}
			dm.kind, dm.kindKnown, dm.qual = t, true, qualifier(star.X)
			v, ok := as.Lhs[0].(*ast.Ident)
			if !ok || v.Name == "_" {
				break
			}
			call := callText(dm.qual, t.name, v.Name)
			if len(as.Lhs) == 1 {
				dm.objVar, dm.after = v.Name, skipLog(fd.Body, s)
				return dm
			}
			okName := ""
			if o, isIdent := as.Lhs[1].(*ast.Ident); isIdent {
				okName = o.Name
			}
			for _, s2 := range fd.Body.List[i+1:] {
				if is, isIf := s2.(*ast.IfStmt); isIf && is.Init == nil && isNot(is.Cond, okName) {
					dm.objVar, dm.after = v.Name, skipLog(fd.Body, s2)
					return dm
				}
			}
			dm.problem = fmt.Sprintf("%s type-asserts %s at %s without an `if !%s { return … }` after it; add %q after that check",
				dm.name, obj.name, p.at(as.Pos()), okName, call)
			return dm
		}
	}
	dm.problem = fmt.Sprintf("%s takes %s %s and its body does not type-assert it to a pointer to the kind at its top level "+
		"(`x, ok := %s.(*<pkg>.<Kind>)` then `if !ok { return … }`)", dm.name, nameOr(obj.name), types.ExprString(obj.typ), nameOr(obj.name))
	return dm
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

// setup is one WithDefaulter call.
type setup struct {
	call  *ast.CallExpr
	sc    scope
	kind  typeRef
	known bool // kind
}

// mutatingMarker matches kubebuilder's marker of a mutating webhook.
var mutatingMarker = regexp.MustCompile(`^//\s*\+kubebuilder:webhook:.*\bmutating=true\b`)

// editDefaulters returns the Go files of the universe whose defaulting
// webhook's Default now calls SetObjectDefaults_<Kind>, path → new
// content, and a log line per defaulter it changed or could not change.
func editDefaulters(universe map[string]string, filter defaulterFilter) (map[string]string, []string) {
	p := newProject(universe)
	var logs []string
	// relevant: a file that cannot be analysed concerns this command.
	relevant := func(src string) bool { return filter.kind == "" || strings.Contains(src, filter.kind) }
	matches := func(t typeRef) bool {
		if filter.kind == "" {
			return true
		}
		pkgPath := t.dir
		if pkgPath == "" {
			pkgPath = t.importPath
		}
		return t.name == filter.kind && (filter.version == "" || path.Base(pkgPath) == filter.version) &&
			(filter.group == "" || t.dir == "" || path.Base(path.Dir(pkgPath)) == filter.group)
	}

	// matched: a defaulter of the filter's kind was found (wired, already
	// wired, or reported).
	matched := false

	// The WithDefaulter calls of the project.
	var setups []setup
	setupDirs := map[string]bool{}
	var names []string
	for name, src := range universe {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !skippedDir(name) && strings.Contains(src, "WithDefaulter") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		gf := p.file(name)
		if gf.err != nil {
			if relevant(gf.src) {
				matched = true
				logs = append(logs, fmt.Sprintf("%s: warning: not edited, it does not parse (%v): its defaulting webhook is not wired to the declarative defaults; "+
					"once it parses, run `kubebuilder edit --plugins %s`, or add \"<pkg>.SetObjectDefaults_<Kind>(obj)\" as the first statement of its Default method", name, firstLine(gf.err), pluginKey))
			}
			continue
		}
		setupDirs[path.Dir(name)] = true
		for _, d := range gf.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			sc := scope{file: gf, fn: fd}
			parents := map[ast.Expr]*ast.CallExpr{}
			var calls []*ast.CallExpr
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.CallExpr); ok {
					parents[x] = c
				}
				if sel.Sel.Name == "WithDefaulter" && len(c.Args) == 1 {
					calls = append(calls, c)
				}
				return true
			})
			for _, c := range calls {
				s := setup{call: c, sc: sc}
				s.kind, s.known = p.builderKind(c, parents, sc)
				setups = append(setups, s)
			}
		}
	}

	type insertion struct {
		at   int
		text string
	}
	edits := map[string][]insertion{}
	seen := map[*ast.FuncDecl]bool{}
	var accounted []typeRef // kinds whose defaulter was found or reported, for the marker check
	for _, s := range setups {
		// The line of WithDefaulter, not of the chain it ends.
		where := p.at(s.call.Fun.(*ast.SelectorExpr).Sel.Pos())
		arg := types.ExprString(s.call.Args[0])
		hint := "<pkg>.SetObjectDefaults_<Kind>(obj)"
		if s.known {
			hint = callText(importName(s.sc.file.f, s.kind.importPath, path.Dir(s.sc.file.path) == s.kind.dir), s.kind.name, "obj")
		}
		if s.known {
			accounted = append(accounted, s.kind)
		}
		t, ok := p.typeOfValue(s.call.Args[0], s.sc, 0)
		if !ok {
			if s.known && !matches(s.kind) || !s.known && !relevant(s.sc.file.src) {
				continue
			}
			matched = true
			logs = append(logs, fmt.Sprintf("%s: warning: the defaulting webhook%s is not wired to the declarative defaults: the plugin cannot tell from the source which type WithDefaulter(%s) is "+
				"(it follows &T{}, T{}, new(T), variables and the module's constructors); add %q as the first statement of that type's Default method",
				where, ofKind(s), arg, hint))
			continue
		}
		gf, fd := p.method(t, "Default")
		if fd == nil {
			if s.known && !matches(s.kind) || !s.known && !relevant(s.sc.file.src) {
				continue
			}
			matched = true
			decl := p.declaredAt(t)
			if decl == "" {
				decl = where
			}
			reason := "its package declares no Default method for it"
			if t.dir == "" {
				reason = t.importPath + " is not a package of this module"
			}
			logs = append(logs, fmt.Sprintf("%s: warning: the defaulting webhook%s is not wired to the declarative defaults: %s, passed to WithDefaulter at %s, has no Default method the plugin can edit (%s); "+
				"add %q as the first statement of (*%s).Default", decl, ofKind(s), t.name, where, reason, hint, t.name))
			continue
		}
		if seen[fd] {
			continue
		}
		seen[fd] = true
		dm := p.analyseDefault(gf, fd)
		kind := dm.kind
		if !dm.kindKnown {
			kind = s.kind
		}
		if (dm.kindKnown || s.known) && !matches(kind) || !dm.kindKnown && !s.known && !relevant(gf.src+s.sc.file.src) {
			continue
		}
		matched = true
		if dm.kindKnown {
			accounted = append(accounted, dm.kind)
		}
		at := p.at(fd.Pos())
		if dm.kindKnown && s.known && !dm.kind.same(s.kind) {
			logs = append(logs, fmt.Sprintf("%s: warning: %s is not wired to the declarative defaults: it defaults a %s.%s, but WithDefaulter at %s registers it for %s.%s; "+
				"make them agree, then run `kubebuilder edit --plugins %s`", at, dm.name, dm.kind.importPath, dm.kind.name, where, s.kind.importPath, s.kind.name, pluginKey))
			continue
		}
		if dm.problem != "" {
			logs = append(logs, fmt.Sprintf("%s: warning: %s is not wired to the declarative defaults: %s", at, dm.name, dm.problem))
			continue
		}
		call := callText(dm.qual, kind.name, dm.objVar)
		switch {
		case kind.dir == "":
			logs = append(logs, fmt.Sprintf("%s: note: %s is left as it is: %s is not a package of this module (%s), so make generate writes no SetObjectDefaults_%s for it",
				at, dm.name, kind.importPath, p.module, kind.name))
			continue
		case !declaresKind(universe, kind.dir, kind.name):
			logs = append(logs, fmt.Sprintf("%s: warning: %s is not wired to the declarative defaults: %s declares no root type %s (a struct embedding metav1.TypeMeta), so make generate writes no SetObjectDefaults_%s; "+
				"once it does, run `kubebuilder edit --plugins %s` or add %q as the first statement of %s", at, dm.name, kind.dir, kind.name, kind.name, pluginKey, call, dm.name))
			continue
		case callsDefaults(fd.Body, kind.name):
			continue
		}
		off, text := insertionPoint(p.fset, gf.src, fd.Body, dm.after, call)
		edits[gf.path] = append(edits[gf.path], insertion{off, text})
		logs = append(logs, fmt.Sprintf("%s: %s now calls %s, the declarative defaults of %s that `make generate` writes into %s/zz_generated.defaults.go",
			at, dm.name, call, kind.name, kind.dir))
	}

	// create webhook --defaulting: a defaulter the plugin did not find.
	if filter.kind != "" && filter.defaulting && !matched {
		where := ""
		for _, dir := range []string{path.Join("internal/webhook", filter.group, filter.version), path.Join("api", filter.group, filter.version)} {
			if name := path.Join(dir, strings.ToLower(filter.kind)+"_webhook.go"); universe[name] != "" {
				where = name + ": "
				break
			}
		}
		logs = append(logs, fmt.Sprintf("%swarning: create webhook --defaulting --kind %s --version %s: the plugin found no WithDefaulter(…) for %s in the project's Go files, "+
			"so no Default method is wired to the declarative defaults; add \"<pkg>.SetObjectDefaults_%s(obj)\" as the first statement of the Default method of the type passed to WithDefaulter",
			where, filter.kind, filter.version, filter.kind, filter.kind))
	}
	// edit: a mutating webhook that no WithDefaulter accounts for.
	if filter.kind == "" {
		logs = append(logs, p.unwiredMarkers(setupDirs, accounted)...)
	}

	changed := map[string]string{}
	for name, ins := range edits {
		sort.Slice(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
		src := universe[name]
		out := src
		for _, in := range ins {
			text := in.text
			if strings.Contains(src, "\r\n") {
				text = strings.ReplaceAll(text, "\n", "\r\n")
			}
			out = out[:in.at] + text + out[in.at:]
		}
		// gofmt'd in, gofmt'd out; otherwise only the inserted lines are new.
		if formatted, err := format.Source([]byte(src)); err == nil && bytes.Equal(formatted, []byte(src)) {
			if b, err := format.Source([]byte(out)); err == nil {
				out = string(b)
			}
		}
		if _, err := parser.ParseFile(token.NewFileSet(), name, out, parser.SkipObjectResolution); err != nil {
			logs = append(logs, fmt.Sprintf("%s: warning: not edited: the edit would not parse (%v); add the call by hand", name, firstLine(err)))
			continue
		}
		changed[name] = out
	}
	return changed, logs
}

// unwiredMarkers warns about each +kubebuilder:webhook marker with
// mutating=true whose resource no WithDefaulter of the project accounts
// for: for example a go/v3 Default() on the API type, which
// controller-runtime no longer calls.
func (p *project) unwiredMarkers(setupDirs map[string]bool, accounted []typeRef) []string {
	var logs []string
	dirs := make([]string, 0, len(p.byDir))
	for d := range p.byDir {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, dir := range dirs {
		for _, name := range p.byDir[dir] {
			src := p.universe[name]
			if !strings.Contains(src, "mutating=true") {
				continue
			}
			for i, l := range strings.Split(src, "\n") {
				l = strings.TrimSpace(l)
				if !mutatingMarker.MatchString(l) {
					continue
				}
				resource, version := markerArg(l, "resources"), markerArg(l, "versions")
				covered := false
				for _, k := range accounted {
					lk := strings.ToLower(k.name)
					pkgPath := k.dir
					if pkgPath == "" {
						pkgPath = k.importPath
					}
					if strings.HasPrefix(resource, lk[:len(lk)-1]) && (version == "" || path.Base(pkgPath) == version) {
						covered = true
					}
				}
				if covered {
					continue
				}
				why := "no WithDefaulter(…) of the project registers a defaulter for it"
				if !setupDirs[dir] {
					why = "its package has no WithDefaulter(…) call"
				}
				logs = append(logs, fmt.Sprintf("%s:%d: warning: a mutating webhook (resources=%s, versions=%s) that the plugin cannot wire to the declarative defaults: %s. "+
					"The plugin edits the Default method of types passed to controller-runtime's WithDefaulter; if this webhook defaults a kind of this module, "+
					"add \"<pkg>.SetObjectDefaults_<Kind>(obj)\" as the first statement of its Default method", name, i+1, resource, version, why))
			}
		}
	}
	return logs
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

func ofKind(s setup) string {
	if !s.known {
		return ""
	}
	return " of " + s.kind.name
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

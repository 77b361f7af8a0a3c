package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// A kubebuilder v4.15.0 go/v4 project scaffolds, for `create webhook
// --defaulting`, internal/webhook/<version>/<kind>_webhook.go
// (internal/webhook/<group>/<version>/ with multigroup, api/<version>/ with
// --legacy) holding a controller-runtime typed CustomDefaulter:
//
//	// Default implements webhook.CustomDefaulter so a webhook will be registered for the Kind Frigate.
//	func (d *FrigateCustomDefaulter) Default(_ context.Context, obj *shipv1.Frigate) error {
//		frigatelog.Info("Defaulting for Frigate", "name", obj.GetName())
//
//		// TODO(user): fill in your defaulting logic.
//
//		return nil
//	}
//
// (obj *Frigate with --legacy; the same shape when kubebuilder's
// WebhookUpdater appends a defaulter to an existing webhook file).
// editDefaulters makes such a Default call the generated
// SetObjectDefaults_<Kind> first (after the log line), and keeps the rest of
// the file byte for byte.

// defaulterFilter selects the defaulters to edit: zero selects all (edit);
// create webhook selects its --kind in its --version (and --group with
// multigroup).
type defaulterFilter struct {
	kind, version, group string
}

// defaultsCallComment precedes the inserted call.
const defaultsCallComment = "// Declarative defaults (+default markers), as the CRD applies them: generated\n" +
	"// into zz_generated.defaults.go by `make generate` (controller-gen-default's defaults)."

// editDefaulters returns the webhook files of the universe whose Default
// now calls SetObjectDefaults_<Kind>, path → new content, and a log line
// per defaulter it changed or had to leave alone.
func editDefaulters(universe map[string]string, filter defaulterFilter) (map[string]string, []string) {
	module := modulePath(universe)
	files := make([]string, 0)
	for p, src := range universe {
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && !skippedDir(p) &&
			strings.Contains(src, "CustomDefaulter") && strings.Contains(src, "Default(") {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	changed := map[string]string{}
	var logs []string
	kinds := map[string]bool{} // "dir\x00Kind": the package declares the kind
	declares := func(dir, kind string) bool {
		k := dir + "\x00" + kind
		if v, ok := kinds[k]; ok {
			return v
		}
		kinds[k] = declaresKind(universe, dir, kind)
		return kinds[k]
	}
	for _, p := range files {
		src := universe[p]
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			if filter.kind != "" && strings.Contains(src, filter.kind+"CustomDefaulter") {
				logs = append(logs, fmt.Sprintf("%s: not edited, it does not parse: %v", p, err))
			}
			continue
		}
		type insertion struct {
			at   int
			text string
		}
		var ins []insertion
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "Default" || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Body == nil {
				continue
			}
			kind, ok := strings.CutSuffix(typeName(fd.Recv.List[0].Type), "CustomDefaulter")
			if !ok || kind == "" {
				continue
			}
			// The object parameter: *Kind or *pkg.Kind.
			var param *ast.Field
			qual := ""
			for _, fl := range fd.Type.Params.List {
				star, ok := fl.Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				switch t := star.X.(type) {
				case *ast.Ident:
					if t.Name == kind {
						param, qual = fl, ""
					}
				case *ast.SelectorExpr:
					if x, ok := t.X.(*ast.Ident); ok && t.Sel.Name == kind {
						param, qual = fl, x.Name
					}
				}
			}
			if param == nil {
				continue
			}
			where := fmt.Sprintf("%s:%d", p, fset.Position(fd.Pos()).Line)
			// The package of the kind: the file's own, or the import.
			apiDir, external := path.Dir(p), ""
			if qual != "" {
				imp := importPath(f, qual)
				rel, ok := strings.CutPrefix(imp, module+"/")
				if imp == "" || module == "" || !ok {
					apiDir, external = "", imp
				} else {
					apiDir = rel
				}
			}
			if filter.kind != "" {
				if kind != filter.kind || apiDir != "" && filter.version != "" && path.Base(apiDir) != filter.version ||
					apiDir != "" && filter.group != "" && path.Base(path.Dir(apiDir)) != filter.group {
					continue
				}
			}
			call := "SetObjectDefaults_" + kind
			if qual != "" {
				call = qual + "." + call
			}
			switch {
			case apiDir == "":
				logs = append(logs, fmt.Sprintf("%s: %s's Default is left as it is: %s is not a package of this module (%s), so make generate writes no %s for it", where, kind, external, module, "SetObjectDefaults_"+kind))
				continue
			case !declares(apiDir, kind):
				logs = append(logs, fmt.Sprintf("%s: %s's Default is left as it is: %s declares no root type %s, so make generate writes no %s for it", where, kind, apiDir, kind, "SetObjectDefaults_"+kind))
				continue
			case callsDefaults(fd.Body, kind):
				continue
			case len(param.Names) != 1 || param.Names[0].Name == "_":
				logs = append(logs, fmt.Sprintf("%s: %s's Default is left as it is: its object parameter has no name; name it and add %s(obj) by hand", where, kind, call))
				continue
			}
			call += "(" + param.Names[0].Name + ")"
			at, text := insertionPoint(fset, src, fd.Body, call)
			ins = append(ins, insertion{at, text})
			logs = append(logs, fmt.Sprintf("%s: %s's Default now calls %s, the declarative defaults that `make generate` writes into %s/zz_generated.defaults.go", where, kind, call, apiDir))
		}
		if len(ins) == 0 {
			continue
		}
		out := src
		for i := len(ins) - 1; i >= 0; i-- {
			text := ins[i].text
			if strings.Contains(src, "\r\n") {
				text = strings.ReplaceAll(text, "\n", "\r\n")
			}
			out = out[:ins[i].at] + text + out[ins[i].at:]
		}
		// gofmt'd in, gofmt'd out; otherwise only the inserted lines are new.
		if formatted, err := format.Source([]byte(src)); err == nil && bytes.Equal(formatted, []byte(src)) {
			if b, err := format.Source([]byte(out)); err == nil {
				out = string(b)
			}
		}
		if _, err := parser.ParseFile(token.NewFileSet(), p, out, parser.SkipObjectResolution); err != nil {
			logs = append(logs, fmt.Sprintf("%s: not edited: the edit would not parse (%v); add the call by hand", p, err))
			continue
		}
		changed[p] = out
	}
	return changed, logs
}

// insertionPoint is where the call goes in the body, and the text to
// insert there: after a first statement that logs (x.Info(…)), else first.
func insertionPoint(fset *token.FileSet, src string, body *ast.BlockStmt, call string) (int, string) {
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
	if len(body.List) > 0 && isLogCall(body.List[0]) {
		end := file.Offset(body.List[0].End())
		if strings.TrimSpace(stripLineComment(src[end:lineEnd(end)])) == "" {
			// the scaffold: a blank line, then the call, before the rest.
			return lineEnd(end), "\n" + block
		}
	}
	lbrace := file.Offset(body.Lbrace) + 1
	if strings.TrimSpace(src[lbrace:lineEnd(lbrace)]) != "" {
		// `{ return nil }` on one line: format.Source sorts the lines out.
		return lbrace, "\n" + block
	}
	next := src[lineEnd(lbrace):]
	if first, _, _ := strings.Cut(next, "\n"); strings.TrimSpace(first) != "" && strings.TrimSpace(first) != "}" {
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

// typeName is the name of T or *T.
func typeName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// importPath is the path the file imports as name ("" if none).
func importPath(f *ast.File, name string) string {
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		if is.Name != nil {
			if is.Name.Name == name {
				return p
			}
			continue
		}
		if path.Base(p) == name {
			return p
		}
	}
	return ""
}

// modulePath is the module of the project's go.mod.
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

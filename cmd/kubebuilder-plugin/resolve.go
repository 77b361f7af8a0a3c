package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
	"strings"
)

// The project's Go source and a resolver of the types the plugin needs: the
// type of the value passed to WithDefaulter, the kind of its webhook
// builder, and methods of the module's types. It reads syntax only (no type
// checker): the scaffold's shapes and the few ways of writing them.

// goFile is a Go file of the universe, parsed.
type goFile struct {
	path, src string
	f         *ast.File
	err       error
}

// project is the Go source of the universe, parsed on demand.
type project struct {
	universe map[string]string
	module   string
	fset     *token.FileSet
	byDir    map[string][]string // dir → its non-test .go files, sorted
	parsed   map[string]*goFile
}

func newProject(universe map[string]string) *project {
	p := &project{universe: universe, module: modulePath(universe), fset: token.NewFileSet(),
		byDir: map[string][]string{}, parsed: map[string]*goFile{}}
	for name := range universe {
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !skippedDir(name) {
			p.byDir[path.Dir(name)] = append(p.byDir[path.Dir(name)], name)
		}
	}
	for _, files := range p.byDir {
		sort.Strings(files)
	}
	return p
}

func (p *project) file(name string) *goFile {
	if gf, ok := p.parsed[name]; ok {
		return gf
	}
	gf := &goFile{path: name, src: p.universe[name]}
	gf.f, gf.err = parser.ParseFile(p.fset, name, gf.src, parser.ParseComments|parser.SkipObjectResolution)
	p.parsed[name] = gf
	return gf
}

// pkg is the files of the package in dir that parse.
func (p *project) pkg(dir string) []*goFile {
	var out []*goFile
	for _, name := range p.byDir[dir] {
		if gf := p.file(name); gf.err == nil {
			out = append(out, gf)
		}
	}
	return out
}

// at is "file:line" of pos.
func (p *project) at(pos token.Pos) string {
	ps := p.fset.Position(pos)
	return fmt.Sprintf("%s:%d", ps.Filename, ps.Line)
}

// dirOf is the directory in the module of an import path, "" outside it.
func (p *project) dirOf(importPath string) string {
	if p.module == "" {
		return ""
	}
	if importPath == p.module {
		return "."
	}
	rel, ok := strings.CutPrefix(importPath, p.module+"/")
	if !ok {
		return ""
	}
	return rel
}

// importPathOf is the import path of a directory of the module.
func (p *project) importPathOf(dir string) string {
	if p.module == "" {
		return dir
	}
	if dir == "." {
		return p.module
	}
	return p.module + "/" + dir
}

// typeRef names a named type: its package (the directory in the module, ""
// outside it, and the import path) and its name.
type typeRef struct{ dir, importPath, name string }

func (t typeRef) same(u typeRef) bool { return t.name == u.name && t.importPath == u.importPath }

// scope is where an expression is: its file and enclosing function (nil at
// package level).
type scope struct {
	file *goFile
	fn   *ast.FuncDecl
}

// maxDepth bounds how far variables and constructors are followed.
const maxDepth = 8

// typeOfType is the named type that the type expression e denotes, through
// pointers, parentheses and type arguments.
func (p *project) typeOfType(e ast.Expr, gf *goFile) (typeRef, bool) {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.IndexExpr:
			e = t.X
			continue
		case *ast.IndexListExpr:
			e = t.X
			continue
		case *ast.Ident:
			if types.Universe.Lookup(t.Name) != nil {
				return typeRef{}, false
			}
			dir := path.Dir(gf.path)
			return typeRef{dir: dir, importPath: p.importPathOf(dir), name: t.Name}, true
		case *ast.SelectorExpr:
			x, ok := t.X.(*ast.Ident)
			if !ok {
				return typeRef{}, false
			}
			ip := importPath(gf.f, x.Name)
			if ip == "" {
				return typeRef{}, false
			}
			return typeRef{dir: p.dirOf(ip), importPath: ip, name: t.Sel.Name}, true
		}
		return typeRef{}, false
	}
}

// resolveIdent finds what the identifier id, used in sc, stands for: the
// expression last assigned to it before its use, or its declared type.
func (p *project) resolveIdent(id *ast.Ident, sc scope) (value, typ ast.Expr, where scope, ok bool) {
	if fn := sc.fn; fn != nil {
		fields := []*ast.Field{}
		if fn.Recv != nil {
			fields = append(fields, fn.Recv.List...)
		}
		fields = append(fields, fn.Type.Params.List...)
		for _, f := range fields {
			for _, n := range f.Names {
				if n.Name == id.Name {
					return nil, f.Type, sc, true
				}
			}
		}
		var last ast.Node
		var lastValue, lastType ast.Expr
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if n == nil || n.Pos() >= id.Pos() {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			switch s := n.(type) {
			case *ast.AssignStmt:
				for i, l := range s.Lhs {
					if li, ok := l.(*ast.Ident); ok && li.Name == id.Name && len(s.Lhs) == len(s.Rhs) {
						last, lastValue, lastType = s, s.Rhs[i], nil
					}
				}
			case *ast.ValueSpec:
				for i, n := range s.Names {
					if n.Name != id.Name {
						continue
					}
					last, lastValue, lastType = s, nil, s.Type
					if len(s.Values) == len(s.Names) {
						lastValue = s.Values[i]
					}
				}
			}
			return true
		})
		if last != nil {
			return lastValue, lastType, sc, true
		}
	}
	// A package-level variable.
	for _, gf := range p.pkg(path.Dir(sc.file.path)) {
		for _, d := range gf.f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name != id.Name {
						continue
					}
					var v ast.Expr
					if len(vs.Values) == len(vs.Names) {
						v = vs.Values[i]
					}
					return v, vs.Type, scope{file: gf}, true
				}
			}
		}
	}
	return nil, nil, sc, false
}

// funcDecl finds the function (not method) name of the package in dir.
func (p *project) funcDecl(dir, name string) (*goFile, *ast.FuncDecl) {
	for _, gf := range p.pkg(dir) {
		for _, d := range gf.f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name && fd.Body != nil {
				return gf, fd
			}
		}
	}
	return nil, nil
}

// declaredInterface: the package in dir declares name as an interface type.
func (p *project) declaredInterface(t typeRef) bool {
	if t.dir == "" {
		return true // another module's: it may be one
	}
	_, iface := p.typeSpec(t).Type.(*ast.InterfaceType)
	return iface
}

// typeSpec is the declaration of t in its package (an empty one if there
// is none).
func (p *project) typeSpec(t typeRef) *ast.TypeSpec {
	for _, gf := range p.pkg(t.dir) {
		for _, d := range gf.f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if ts := s.(*ast.TypeSpec); ts.Name.Name == t.name {
					return ts
				}
			}
		}
	}
	return &ast.TypeSpec{}
}

// typeOfValue is the named type of the value e (a pointer's element type):
// &T{}, T{}, new(T), a variable or parameter, or a call of a function of
// the module whose result is T or which returns one of those.
func (p *project) typeOfValue(e ast.Expr, sc scope, depth int) (typeRef, bool) {
	if depth > maxDepth {
		return typeRef{}, false
	}
	switch v := e.(type) {
	case *ast.ParenExpr:
		return p.typeOfValue(v.X, sc, depth+1)
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			return p.typeOfValue(v.X, sc, depth+1)
		}
	case *ast.StarExpr:
		return p.typeOfValue(v.X, sc, depth+1)
	case *ast.CompositeLit:
		if v.Type != nil {
			return p.typeOfType(v.Type, sc.file)
		}
	case *ast.Ident:
		value, typ, where, ok := p.resolveIdent(v, sc)
		if !ok {
			return typeRef{}, false
		}
		if typ != nil {
			if t, ok := p.typeOfType(typ, where.file); ok && !p.declaredInterface(t) {
				return t, true
			}
		}
		if value != nil {
			return p.typeOfValue(value, where, depth+1)
		}
	case *ast.CallExpr:
		return p.typeOfCall(v, sc, depth)
	}
	return typeRef{}, false
}

// typeOfCall is the named type of the value of the call v: new(T), or a
// call of a function of the module whose result is T or which returns a
// value whose type typeOfValue tells.
func (p *project) typeOfCall(v *ast.CallExpr, sc scope, depth int) (typeRef, bool) {
	fun := v.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	var dir, name string
	switch f := fun.(type) {
	case *ast.Ident:
		if f.Name == "new" && len(v.Args) == 1 {
			return p.typeOfType(v.Args[0], sc.file)
		}
		dir, name = path.Dir(sc.file.path), f.Name
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return typeRef{}, false
		}
		ip := importPath(sc.file.f, x.Name)
		if ip == "" || p.dirOf(ip) == "" {
			return typeRef{}, false
		}
		dir, name = p.dirOf(ip), f.Sel.Name
	default:
		return typeRef{}, false
	}
	gf, fd := p.funcDecl(dir, name)
	if fd == nil {
		return typeRef{}, false
	}
	if res := fd.Type.Results; res != nil && len(res.List) > 0 {
		if t, ok := p.typeOfType(res.List[0].Type, gf); ok && !p.declaredInterface(t) {
			return t, true
		}
	}
	// An interface result: what the function returns.
	var found typeRef
	ok := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if ok {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if r, isRet := n.(*ast.ReturnStmt); isRet && len(r.Results) > 0 {
			found, ok = p.typeOfValue(r.Results[0], scope{file: gf, fn: fd}, depth+1)
		}
		return true
	})
	return found, ok
}

// builderKind is the kind of the webhook builder chain that a WithDefaulter
// call is part of: NewWebhookManagedBy(mgr, &pkg.Kind{}) (controller-runtime
// v0.23+), NewWebhookManagedBy[*pkg.Kind](mgr), or .For(&pkg.Kind{}) (older
// releases), in the call's receiver chain or, for For, after it.
func (p *project) builderKind(call *ast.CallExpr, parents map[ast.Expr]*ast.CallExpr, sc scope) (typeRef, bool) {
	// Up the chain: …WithDefaulter(d).For(&Kind{})….
	for c := parents[call]; c != nil; c = parents[c] {
		if sel := c.Fun.(*ast.SelectorExpr); sel.Sel.Name == "For" && len(c.Args) == 1 {
			return p.typeOfValue(c.Args[0], sc, 0)
		}
	}
	x := call.Fun.(*ast.SelectorExpr).X
	for depth := 0; depth <= maxDepth; depth++ {
		switch e := x.(type) {
		case *ast.ParenExpr:
			x = e.X
			continue
		case *ast.Ident:
			value, _, where, ok := p.resolveIdent(e, sc)
			if !ok || value == nil {
				return typeRef{}, false
			}
			x, sc = value, where
			continue
		case *ast.CallExpr:
			fun := e.Fun
			var typeArg ast.Expr
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun, typeArg = ix.X, ix.Index
			}
			name := ""
			switch f := fun.(type) {
			case *ast.Ident:
				name = f.Name
			case *ast.SelectorExpr:
				name = f.Sel.Name
				if name == "For" && len(e.Args) == 1 {
					return p.typeOfValue(e.Args[0], sc, 0)
				}
				if !strings.HasSuffix(name, "WebhookManagedBy") {
					x = f.X
					continue
				}
			}
			if !strings.HasSuffix(name, "WebhookManagedBy") {
				return typeRef{}, false
			}
			if typeArg != nil {
				return p.typeOfType(typeArg, sc.file)
			}
			if len(e.Args) >= 2 {
				return p.typeOfValue(e.Args[1], sc, 0)
			}
		}
		return typeRef{}, false
	}
	return typeRef{}, false
}

// method finds the method name of the type t in its package.
func (p *project) method(t typeRef, name string) (*goFile, *ast.FuncDecl) {
	if t.dir == "" {
		return nil, nil
	}
	for _, gf := range p.pkg(t.dir) {
		for _, d := range gf.f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != name || fd.Body == nil {
				continue
			}
			if rt, ok := p.typeOfType(fd.Recv.List[0].Type, gf); ok && rt.name == t.name {
				return gf, fd
			}
		}
	}
	return nil, nil
}

// declaredAt is where the package of t declares it ("" if it does not).
func (p *project) declaredAt(t typeRef) string {
	if ts := p.typeSpec(t); ts.Name != nil {
		return p.at(ts.Pos())
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

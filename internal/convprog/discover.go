package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Discovery is what Discover finds in the packages of the patterns: the
// conversions of the API, wherever the code registers them, and the calls
// of main that set state the conversions read.
type Discovery struct {
	// Module is the user's module path, ModuleDir its root.
	Module, ModuleDir string
	// APIPackages are the import paths of the API packages whose types
	// the conversions convert (each declares AddToScheme), sorted: the
	// program registers them in its scheme, and the CRDs are generated
	// from them. They may belong to another module of the build list (a
	// nested API module replaced by a directory).
	APIPackages []string
	// HubPackages are those of APIPackages whose root types implement
	// conversion.Hub or conversion.Convertible (methods Hub, ConvertTo,
	// ConvertFrom).
	HubPackages []string
	// RootKinds are the types of APIPackages marked
	// +kubebuilder:object:root=true, as "importpath.Type".
	RootKinds []string
	// Registrations are the controller-runtime Converters the code
	// registers (WithConverter, RegisterConverter), by position.
	Registrations []Registration
	// SetupCalls are the calls that a package main makes to a function of
	// the conversion code that assigns a package-level variable of its
	// package (cluster-api's SetAPIVersionGetter), by position.
	SetupCalls []SetupCall
	// ControllerRuntime is the controller-runtime of the module's build
	// list, whose API the program is generated for; nil when nothing
	// converts (Empty).
	ControllerRuntime *ControllerRuntime

	mod *module
}

// Empty says whether nothing converts: no registered Converter and no
// package with Hub or Convertible methods.
func (d *Discovery) Empty() bool { return len(d.Registrations) == 0 && len(d.HubPackages) == 0 }

// Registration is a controller-runtime Converter the code registers.
type Registration struct {
	// Via is "WithConverter" (the webhook builder's) or
	// "RegisterConverter" (a conversion.Registry's).
	Via string
	// Pos is the position of the method's name in the call (absolute
	// file name).
	Pos token.Position
	// Type is the Go type of the GroupKind, "importpath.Type" (the
	// builder's type argument, or its For argument); empty for
	// RegisterConverter, whose GroupKind is GroupKindExpr.
	Type string
	// GroupKindExpr is RegisterConverter's GroupKind, reproduced.
	GroupKindExpr string
	// Expr is the converter expression as written, and Source the same
	// with its identifiers qualified by Imports' names: the generated
	// program's.
	Expr, Source string
	// Imports are the packages Source refers to: name → import path.
	Imports map[string]string
	// Constructor: Source is a func(*runtime.Scheme) (Converter, error)
	// (WithConverter's argument); else a Converter (RegisterConverter's).
	Constructor bool
	// Hub is the hub type of a conversion.NewHubSpokeConverter
	// ("importpath.Type"), Spokes its spokes' types, when the expression
	// (or the package-level var it names) is such a call; empty
	// otherwise.
	Hub    string
	Spokes []string

	varPkg, varName string // the package-level var the expression names
}

// SetupCall is a call of main to a function that sets state the
// conversions read.
type SetupCall struct {
	// Pos is the call's position in main's file (absolute file name).
	Pos token.Position
	// Func is the function called, "importpath.Name"; Name as main writes
	// it (conversion.SetAPIVersionGetter).
	Func, Name string
	// Var is the package-level variable it assigns.
	Var string
}

// Note is what the call means for a run without --setup.
func (c SetupCall) Note() string {
	return fmt.Sprintf("main calls %s, which sets state the conversions read (%s); the conversion program does not run main: "+
		"name a function that makes this call with --setup (docs/conversion.md#setup)", c.Name, c.Var)
}

// DiscoveryError is a converter expression the program cannot reproduce,
// at its position.
type DiscoveryError struct {
	Pos token.Position
	Msg string
}

func (e *DiscoveryError) Error() string {
	cwd, _ := os.Getwd()
	p := e.Pos
	p.Filename = shortPath(cwd, p.Filename)
	return p.String() + ": " + e.Msg
}

// The controller-runtime packages discovery recognizes.
const (
	builderPkg        = controllerRuntimeModule + "/pkg/builder"
	webhookConvPkg    = controllerRuntimeModule + "/pkg/webhook/conversion"
	programModuleBase = "zz_controller_gen_default_convprog"
)

// listedPackage is a package as go list -find prints it.
type listedPackage struct {
	ImportPath, Name, Dir string
	GoFiles               []string
	Imports               []string
	Module                *struct {
		Path, Version, Dir string
		Main               bool
		Replace            *struct{ Path, Version, Dir string }
	}
	Error *struct{ Err string }
}

// listPackages runs go list -find (no dependency resolution: fast) on
// patterns in dir.
func listPackages(ctx context.Context, dir string, patterns []string) ([]*listedPackage, error) {
	args := append([]string{"list", "-e", "-find", "-json=ImportPath,Name,Dir,GoFiles,Imports,Module,Error"}, patterns...)
	out, err := goCmd(ctx, dir, []string{"GOWORK=off"}, args...)
	if err != nil {
		return nil, err
	}
	var pkgs []*listedPackage
	d := json.NewDecoder(bytes.NewReader(out))
	for d.More() {
		p := &listedPackage{}
		if err := d.Decode(p); err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// scanned is a package's syntax, as the prefilter parses it.
type scanned struct {
	pkg         *listedPackage
	fset        *token.FileSet
	files       []*ast.File
	addToScheme bool
	hubMethods  bool // Hub, ConvertTo or ConvertFrom methods
	registers   bool // calls of WithConverter or RegisterConverter
	kinds       []string
}

// scan parses p's files that may matter (keywords first, bytes only).
func scan(p *listedPackage, all bool) (*scanned, error) {
	s := &scanned{pkg: p, fset: token.NewFileSet()}
	for _, name := range p.GoFiles {
		path := filepath.Join(p.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if !all && !containsAny(src, "AddToScheme", "Hub", "ConvertTo", "ConvertFrom", "WithConverter", "RegisterConverter") {
			continue
		}
		f, err := parser.ParseFile(s.fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				switch {
				case d.Recv == nil && d.Name.Name == "AddToScheme":
					s.addToScheme = true
				case d.Recv != nil && (d.Name.Name == "Hub" || d.Name.Name == "ConvertTo" || d.Name.Name == "ConvertFrom"):
					s.hubMethods = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						if d.Tok == token.VAR && slices.ContainsFunc(sp.Names, func(n *ast.Ident) bool { return n.Name == "AddToScheme" }) {
							s.addToScheme = true
						}
					case *ast.TypeSpec:
						doc := sp.Doc
						if doc == nil && len(d.Specs) == 1 {
							doc = d.Doc
						}
						if isRoot(doc) {
							s.kinds = append(s.kinds, sp.Name.Name)
						}
					}
				}
			}
		}
		if containsAny(src, "WithConverter", "RegisterConverter") {
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "WithConverter" || sel.Sel.Name == "RegisterConverter") {
						s.registers = true
					}
				}
				return !s.registers
			})
		}
	}
	slices.Sort(s.kinds)
	return s, nil
}

func containsAny(src []byte, words ...string) bool {
	for _, w := range words {
		if bytes.Contains(src, []byte(w)) {
			return true
		}
	}
	return false
}

// Discover finds the conversions of the packages of o.Patterns (./... at
// a module's root finds them all): a syntactic prefilter picks the
// packages that may hold one, and only those that call WithConverter or
// RegisterConverter are type-checked. It builds nothing.
func Discover(ctx context.Context, o Options) (*Discovery, error) {
	if len(o.Patterns) == 0 {
		return nil, fmt.Errorf("convprog: no package patterns")
	}
	dir := o.Dir
	if dir == "" {
		dir = "."
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	m, err := findModule(ctx, dir)
	if err != nil {
		return nil, err
	}
	listed, err := listPackages(ctx, dir, o.Patterns)
	if err != nil {
		return nil, err
	}
	d := &Discovery{Module: m.mod.Module.Path, ModuleDir: m.dir, mod: m}
	var errs []string
	byPath := map[string]*scanned{}
	var mains, registering []*scanned
	for _, p := range listed {
		if p.Error != nil {
			errs = append(errs, p.Error.Err)
			continue
		}
		if p.Module == nil || !(p.Module.Main || p.Module.Replace != nil && p.Module.Replace.Version == "") {
			return nil, fmt.Errorf("package %s is not in module %s (%s): give package patterns of the module", p.ImportPath, m.mod.Module.Path, m.gomod)
		}
		s, err := scan(p, p.Name == "main")
		if err != nil {
			return nil, err
		}
		byPath[p.ImportPath] = s
		if p.Name == "main" {
			mains = append(mains, s)
		}
		if s.registers {
			registering = append(registering, s)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("listing %s:\n%s", strings.Join(o.Patterns, " "), strings.Join(errs, "\n"))
	}
	if len(byPath) == 0 {
		return nil, fmt.Errorf("no package matches %s in %s", strings.Join(o.Patterns, " "), dir)
	}
	apis := map[string]bool{}
	hubs := map[string]bool{}
	// Hub/Convertible: the API packages with such methods, and their
	// sibling API packages (the other versions of the group)
	parents := map[string]bool{}
	for path, s := range byPath {
		if s.addToScheme && s.hubMethods {
			hubs[path] = true
			parents[filepath.Dir(s.pkg.Dir)] = true
		}
	}
	for path, s := range byPath {
		if s.addToScheme && parents[filepath.Dir(s.pkg.Dir)] {
			apis[path] = true
		}
	}
	// converters: a typed load of the packages that register one
	convPkgs := map[string]bool{} // packages the converter expressions name
	if len(registering) > 0 {
		regs, err := registrations(ctx, dir, registering)
		if err != nil {
			return nil, err
		}
		d.Registrations = regs
		progPath := programModule(m.mod.Module.Path)
		var more []string
		for _, r := range regs {
			for _, ip := range r.Imports {
				if err := importable(progPath, ip); err != nil {
					return nil, &DiscoveryError{Pos: r.Pos, Msg: fmt.Sprintf("the converter %s: %v", r.Expr, err)}
				}
				convPkgs[ip] = true
			}
			for _, t := range append([]string{r.Type, r.Hub}, r.Spokes...) {
				if t != "" {
					more = append(more, typePkg(t))
				}
			}
		}
		// the API packages: the types' packages, and for a converter whose
		// hub and spokes are unknown, the API packages its package imports
		for ip := range convPkgs {
			more = append(more, ip)
		}
		extra, err := listPackages(ctx, dir, dedupe(more))
		if err != nil {
			return nil, err
		}
		var imported []string
		for _, p := range extra {
			if p.Error != nil {
				return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
			}
			s := byPath[p.ImportPath]
			if s == nil {
				if s, err = scan(p, false); err != nil {
					return nil, err
				}
				byPath[p.ImportPath] = s
			}
			if s.addToScheme {
				apis[p.ImportPath] = true
			}
			if convPkgs[p.ImportPath] && !s.addToScheme {
				for _, r := range regs {
					if r.Hub == "" && slices.Contains(mapValues(r.Imports), p.ImportPath) {
						imported = append(imported, p.Imports...)
					}
				}
			}
		}
		if len(imported) > 0 {
			extra, err := listPackages(ctx, dir, dedupe(imported))
			if err != nil {
				return nil, err
			}
			for _, p := range extra {
				if p.Error != nil || byPath[p.ImportPath] != nil && !byPath[p.ImportPath].addToScheme {
					continue
				}
				s := byPath[p.ImportPath]
				if s == nil {
					if s, err = scan(p, false); err != nil {
						return nil, err
					}
					byPath[p.ImportPath] = s
				}
				if s.addToScheme {
					apis[p.ImportPath] = true
				}
			}
		}
	}
	for p := range apis {
		d.APIPackages = append(d.APIPackages, p)
		for _, k := range byPath[p].kinds {
			d.RootKinds = append(d.RootKinds, p+"."+k)
		}
	}
	for p := range hubs {
		d.HubPackages = append(d.HubPackages, p)
	}
	sort.Strings(d.APIPackages)
	sort.Strings(d.HubPackages)
	sort.Strings(d.RootKinds)
	// main's calls of setters of the conversion code
	code := map[string]bool{}
	for p := range hubs {
		code[p] = true
	}
	for p := range convPkgs {
		code[p] = true
	}
	if len(code) > 0 {
		calls, err := setupCalls(ctx, dir, mains, code, byPath)
		if err != nil {
			return nil, err
		}
		d.SetupCalls = calls
	}
	// what the program can serve with the module's controller-runtime,
	// decided before anything is built: a release it cannot serve is a
	// one-line *UnsupportedError
	if !d.Empty() {
		if d.ControllerRuntime, err = controllerRuntime(ctx, dir, m, d.Registrations); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func dedupe(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// typePkg is the import path of "importpath.Type".
func typePkg(t string) string {
	i := strings.LastIndex(t, ".")
	if i < 0 {
		return t
	}
	return t[:i]
}

// importable says whether a package of the program module progPath may
// import path: not a command, and the go command's internal rule, which
// is by import path (golang.org/x/tools/gopls imports
// golang.org/x/tools/internal/...).
func importable(progPath, path string) error {
	elems := strings.Split(path, "/")
	for i, e := range elems {
		if e != "internal" {
			continue
		}
		parent := strings.Join(elems[:i], "/")
		if progPath != parent && !strings.HasPrefix(progPath, parent+"/") {
			return fmt.Errorf("it refers to package %s, internal to %s, which the conversion program (package %s) cannot import: declare the converter as an exported package-level var in a package it can import", path, parent, progPath)
		}
	}
	return nil
}

// registrations type-checks the packages that call WithConverter or
// RegisterConverter and returns the controller-runtime converters they
// register (their dependencies' types come from export data).
func registrations(ctx context.Context, dir string, pkgs []*scanned) ([]Registration, error) {
	var paths []string
	for _, s := range pkgs {
		paths = append(paths, s.pkg.ImportPath)
	}
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Env:     append(os.Environ(), "GOWORK=off"),
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedImports | packages.NeedModule,
	}
	roots, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(paths, " "), err)
	}
	var errs []string
	for _, p := range roots {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-checking the packages that register converters:\n%s", strings.Join(errs, "\n"))
	}
	var out []Registration
	for _, p := range roots {
		for _, f := range p.Syntax {
			var ferr error
			ast.Inspect(f, func(n ast.Node) bool {
				if ferr != nil {
					return false
				}
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				var r *Registration
				switch sel.Sel.Name {
				case "WithConverter":
					r, ferr = withConverter(p, c, sel)
				case "RegisterConverter":
					r, ferr = registerConverter(p, c, sel)
				}
				if r != nil {
					out = append(out, *r)
				}
				return true
			})
			if ferr != nil {
				return nil, ferr
			}
		}
	}
	if err := hubSpokes(ctx, dir, out); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos.Filename != out[j].Pos.Filename {
			return out[i].Pos.Filename < out[j].Pos.Filename
		}
		return out[i].Pos.Offset < out[j].Pos.Offset
	})
	return out, nil
}

// withConverter is the registration of a WithConverter call on
// controller-runtime's webhook builder, or nil for another method of
// that name.
func withConverter(p *packages.Package, c *ast.CallExpr, sel *ast.SelectorExpr) (*Registration, error) {
	s := p.TypesInfo.Selections[sel]
	if s == nil || len(c.Args) != 1 {
		return nil, nil
	}
	recv := s.Recv()
	if ptr, ok := recv.(*types.Pointer); ok {
		recv = ptr.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != builderPkg {
		return nil, nil
	}
	pos := p.Fset.Position(sel.Sel.Pos())
	var t types.Type
	if args := named.TypeArgs(); args != nil && args.Len() > 0 {
		t = args.At(0)
	} else {
		// an older, non-generic builder: For(obj) in the same chain
		for x := sel.X; x != nil; {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				break
			}
			fs, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			if fs.Sel.Name == "For" && len(call.Args) == 1 {
				t = p.TypesInfo.TypeOf(call.Args[0])
				break
			}
			x = fs.X
		}
	}
	typ, err := typeName(t)
	if err != nil {
		return nil, &DiscoveryError{Pos: pos, Msg: fmt.Sprintf("WithConverter: the webhook builder's object: %v", err)}
	}
	r := &Registration{Via: "WithConverter", Pos: pos, Type: typ, Constructor: true}
	if err := reproduce(p, c.Args[0], r); err != nil {
		return nil, err
	}
	return r, nil
}

// registerConverter is the registration of a RegisterConverter call on
// controller-runtime's conversion.Registry, or nil for another method.
func registerConverter(p *packages.Package, c *ast.CallExpr, sel *ast.SelectorExpr) (*Registration, error) {
	s := p.TypesInfo.Selections[sel]
	if s == nil || len(c.Args) != 2 || s.Obj().Pkg() == nil || s.Obj().Pkg().Path() != webhookConvPkg {
		return nil, nil
	}
	r := &Registration{Via: "RegisterConverter", Pos: p.Fset.Position(sel.Sel.Pos())}
	if err := reproduce(p, c.Args[1], r); err != nil {
		return nil, err
	}
	gk := &Registration{Pos: r.Pos}
	if err := reproduce(p, c.Args[0], gk); err != nil {
		return nil, err
	}
	r.GroupKindExpr = gk.Source
	for n, ip := range gk.Imports {
		r.Imports[n] = ip
	}
	return r, nil
}

// typeName is "importpath.Type" of a named type or a pointer to one.
func typeName(t types.Type) (string, error) {
	if t == nil {
		return "", fmt.Errorf("not found")
	}
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !n.Obj().Exported() {
		return "", fmt.Errorf("%s is not an exported named type of a package", t)
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name(), nil
}

// reproduce fills r's Expr, Source and Imports from e: every identifier
// that e uses must be a package-level, exported object (or a name
// declared inside e, such as a function literal's parameter, or a
// predeclared one). A NewHubSpokeConverter call, in e or as the
// initializer of the package-level var e names, gives r's Hub and Spokes.
func reproduce(p *packages.Package, e ast.Expr, r *Registration) error {
	if r.Imports == nil {
		r.Imports = map[string]string{}
	}
	file := p.Fset.File(e.Pos())
	src, err := os.ReadFile(file.Name())
	if err != nil {
		return err
	}
	start, end := file.Offset(e.Pos()), file.Offset(e.End())
	r.Expr = string(src[start:end])
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	alias := func(path string) string {
		for n, ip := range r.Imports {
			if ip == path {
				return n
			}
		}
		n := importAlias(path)
		r.Imports[n] = path
		return n
	}
	fail := func(id *ast.Ident, why string) error {
		return &DiscoveryError{Pos: p.Fset.Position(id.Pos()), Msg: fmt.Sprintf(
			"the converter %s uses %s, %s: the conversion program can only reproduce package-level, exported names; declare the converter as an exported package-level var (as cluster-api's core/webhooks/conversion does: var Cluster = conversion.NewHubSpokeConverter(...)) and pass that",
			r.Expr, id.Name, why)}
	}
	var ferr error
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if ferr != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pn, ok := p.TypesInfo.Uses[id].(*types.PkgName); ok {
					edits = append(edits, edit{file.Offset(id.Pos()), file.Offset(id.End()), alias(pn.Imported().Path())})
					return false
				}
			}
			// x.F: F is a field or method of x's value
			ast.Inspect(n.X, visit)
			return false
		case *ast.Ident:
			obj := p.TypesInfo.Uses[n]
			if obj == nil {
				return true // a definition inside e
			}
			if v, ok := obj.(*types.Var); ok && v.IsField() {
				return true // a struct literal's key
			}
			if obj.Pkg() == nil { // predeclared
				return true
			}
			if obj.Pos() >= e.Pos() && obj.Pos() < e.End() {
				return true // declared inside e
			}
			if obj.Parent() != obj.Pkg().Scope() {
				ferr = fail(n, "a local name")
				return false
			}
			if !obj.Exported() {
				ferr = fail(n, "which is not exported")
				return false
			}
			if p.Name == "main" {
				ferr = fail(n, "which is declared in package main (not importable)")
				return false
			}
			edits = append(edits, edit{file.Offset(n.Pos()), file.Offset(n.End()), alias(obj.Pkg().Path()) + "." + n.Name})
		}
		return true
	}
	ast.Inspect(e, visit)
	if ferr != nil {
		return ferr
	}
	// field selectors (x.F) were visited as identifiers with a field
	// object; method values of package-level vars keep their selector
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	var b strings.Builder
	at := start
	for _, ed := range edits {
		if ed.from < at {
			continue
		}
		b.Write(src[at:ed.from])
		b.WriteString(ed.text)
		at = ed.to
	}
	b.Write(src[at:end])
	r.Source = b.String()
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		r.Hub, r.Spokes = hubSpokeCall(p.TypesInfo.TypeOf, c)
	} else if id := varIdent(e); id != nil {
		if v, ok := p.TypesInfo.Uses[id].(*types.Var); ok && v.Pkg() != nil {
			r.varPkg, r.varName = v.Pkg().Path(), v.Name()
		}
	}
	return nil
}

// importAlias is the name under which the generated program imports a
// package that converter expressions refer to: the same for a path in
// every expression.
func importAlias(path string) string {
	h := fnv.New32a()
	h.Write([]byte(path))
	base := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, pathBase(path))
	return "cv" + base + "_" + strconv.FormatUint(uint64(h.Sum32()), 36)
}

// varIdent is the identifier of x or pkg.x.
func varIdent(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// hubSpokes fills the Hub and Spokes of the registrations whose
// converter is a package-level var initialized with a
// NewHubSpokeConverter call, from the vars' packages (type-checked from
// source: they are small, the converter packages; their dependencies from
// export data).
func hubSpokes(ctx context.Context, dir string, regs []Registration) error {
	var paths []string
	for _, r := range regs {
		if r.varPkg != "" {
			paths = append(paths, r.varPkg)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	cfg := &packages.Config{Context: ctx, Dir: dir, Env: append(os.Environ(), "GOWORK=off"),
		Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedFiles}
	pkgs, err := packages.Load(cfg, dedupe(paths)...)
	if err != nil {
		return err
	}
	for _, vp := range pkgs {
		if vp.TypesInfo == nil {
			continue
		}
		for _, f := range vp.Syntax {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, sp := range gd.Specs {
					vs := sp.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						c, ok := ast.Unparen(vs.Values[i]).(*ast.CallExpr)
						if !ok {
							continue
						}
						for j := range regs {
							if regs[j].varPkg == vp.PkgPath && regs[j].varName == n.Name {
								regs[j].Hub, regs[j].Spokes = hubSpokeCall(vp.TypesInfo.TypeOf, c)
							}
						}
					}
				}
			}
		}
	}
	return nil
}

// hubSpokeCall reads a conversion.NewHubSpokeConverter(hub,
// NewSpokeConverter(spoke, ...)...) call.
func hubSpokeCall(typeOf func(ast.Expr) types.Type, c *ast.CallExpr) (string, []string) {
	if funcName(c) != "NewHubSpokeConverter" || len(c.Args) == 0 {
		return "", nil
	}
	hub, err := typeName(typeOf(c.Args[0]))
	if err != nil {
		return "", nil
	}
	var spokes []string
	for _, a := range c.Args[1:] {
		sc, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok || funcName(sc) != "NewSpokeConverter" || len(sc.Args) == 0 {
			continue
		}
		if s, err := typeName(typeOf(sc.Args[0])); err == nil {
			spokes = append(spokes, s)
		}
	}
	return hub, spokes
}

// funcName is the name of the function a call calls (pkg.F, F, F[T]).
func funcName(c *ast.CallExpr) string {
	fun := c.Fun
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = x.X
	case *ast.IndexListExpr:
		fun = x.X
	}
	switch x := fun.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}

// setupCalls finds the calls that the non-test files of mains make to a
// function of the code packages that assigns a package-level variable of
// its package, syntactically.
func setupCalls(ctx context.Context, dir string, mains []*scanned, code map[string]bool, byPath map[string]*scanned) ([]SetupCall, error) {
	type target struct{ path, name string }
	setters := map[target]string{} // → the variable, "" if none
	var out []SetupCall
	for _, s := range mains {
		for _, f := range s.files {
			names := map[string]string{} // import name → path
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if !code[path] {
					continue
				}
				n := pathBase(path)
				if im.Name != nil {
					n = im.Name.Name
				}
				names[n] = path
			}
			if len(names) == 0 {
				continue
			}
			var ferr error
			ast.Inspect(f, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || ferr != nil {
					return ferr == nil
				}
				sel, ok := c.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := sel.X.(*ast.Ident)
				if !ok || names[id.Name] == "" {
					return true
				}
				t := target{names[id.Name], sel.Sel.Name}
				v, seen := setters[t]
				if !seen {
					v, ferr = assignsPackageVar(ctx, dir, t.path, t.name, byPath)
					setters[t] = v
				}
				if v != "" {
					out = append(out, SetupCall{Pos: s.fset.Position(c.Pos()), Func: t.path + "." + t.name, Name: id.Name + "." + t.name, Var: v})
				}
				return true
			})
			if ferr != nil {
				return nil, ferr
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos.Filename != out[j].Pos.Filename {
			return out[i].Pos.Filename < out[j].Pos.Filename
		}
		return out[i].Pos.Offset < out[j].Pos.Offset
	})
	return out, nil
}

// pathBase is the package name an import path suggests (its last
// element, without a version suffix).
func pathBase(path string) string {
	elems := strings.Split(path, "/")
	b := elems[len(elems)-1]
	if len(elems) > 1 && len(b) > 1 && b[0] == 'v' && strings.Trim(b[1:], "0123456789") == "" {
		b = elems[len(elems)-2]
	}
	return strings.ReplaceAll(b, "-", "_")
}

// assignsPackageVar says which package-level variable of package path the
// function name assigns in its body ("" if none), syntactically.
func assignsPackageVar(ctx context.Context, dir, path, name string, byPath map[string]*scanned) (string, error) {
	s := byPath[path]
	if s == nil || len(s.files) < len(s.pkg.GoFiles) {
		ps, err := listPackages(ctx, dir, []string{path})
		if err != nil || len(ps) != 1 || ps[0].Error != nil {
			return "", err
		}
		if s, err = scan(ps[0], true); err != nil {
			return "", err
		}
		byPath[path] = s
	}
	vars := map[string]bool{}
	var fn *ast.FuncDecl
	for _, f := range s.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, sp := range d.Specs {
						for _, n := range sp.(*ast.ValueSpec).Names {
							vars[n.Name] = true
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == name && d.Body != nil {
					fn = d
				}
			}
		}
	}
	if fn == nil {
		return "", nil
	}
	local := map[string]bool{}
	for _, fl := range []*ast.FieldList{fn.Type.Params, fn.Type.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				local[n.Name] = true
			}
		}
	}
	found := ""
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				if n.Tok == token.DEFINE {
					local[id.Name] = true
					continue
				}
				if vars[id.Name] && !local[id.Name] && found == "" {
					found = id.Name
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				local[id.Name] = true
			}
		}
		return true
	})
	return found, nil
}

package defaultgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"path/filepath"
	"regexp"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// generatedFile is the file this generator writes in each package. From an
// earlier run, it is replaced: its declarations take no names away.
const generatedFile = "zz_generated.defaults.go"

// declaration is a package-scope identifier that the API package declares
// in a file other than generatedFile: what it is (func, var, const, type)
// and where.
type declaration struct {
	what string
	pos  token.Position
}

// declarations lists the package-scope identifiers of pkg's files but
// generatedFile, read from their syntax: an earlier generated file that no
// longer compiles (its name redeclared) does not hide one.
func declarations(pkg *loader.Package) map[string]declaration {
	pkg.NeedSyntax()
	out := map[string]declaration{}
	add := func(id *ast.Ident, what string) {
		if id.Name != "_" {
			if _, ok := out[id.Name]; !ok {
				out[id.Name] = declaration{what: what, pos: pkg.Fset.Position(id.Pos())}
			}
		}
	}
	for _, f := range pkg.Syntax {
		if filepath.Base(pkg.Fset.Position(f.Pos()).Filename) == generatedFile {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" {
					add(d.Name, "func")
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(s.Name, "type")
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(n, d.Tok.String())
						}
					}
				}
			}
		}
	}
	return out
}

// claim is the rule for the exported names the generated file declares,
// its API (RegisterDefaults, SetObjectDefaults_<Kind>, DeclarativeDefaulter):
// callers name them, so they keep their names, and the package must not
// declare them in its other files, where the package would not compile.
// Such a clash is refused at the package's declaration, which the error
// names with the fix; what says what the generated name is.
func (fg *fileGen) claim(name, what string) {
	if d, ok := fg.decls[name]; ok {
		fg.errorf(d.pos, "%s %s is declared here and in the generated %s, where %s is %s: the package would not compile. "+
			"Rename this %[1]s (or delete it, if it is an earlier defaulter's output)", d.what, name, generatedFile, name, what)
	}
	fg.names[name] = true
}

// freeName is the rule for the unexported functions the generated file
// declares (setDefaults_<Type>, setDefaults_<import>_<Type>, defaultsPtr):
// base, or the first of base2, base3... that neither the package (in its
// other files), the generated file nor its imports already declare. A
// package's own setDefaults_Spec or defaultsPtr is left as it is, and two
// types whose helpers would share a name get two names.
func (fg *fileGen) freeName(base string) string {
	name := base
	for i := 2; fg.nameTaken(name); i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	fg.names[name] = true
	return name
}

// nameTaken reports a package-scope name in use, by the package or by the
// generated file (its functions and imports).
func (fg *fileGen) nameTaken(name string) bool {
	if _, ok := fg.decls[name]; ok || fg.names[name] {
		return true
	}
	for _, n := range fg.imports {
		if n == name {
			return true
		}
	}
	return false
}

// ptrName is the name of the generic helper that returns a pointer to a
// copy of its argument, for pointers to values without a composite literal
// (*int32): defaultsPtr, or the first free defaultsPtrN (freeName).
func (fg *fileGen) ptrName() string {
	if fg.ptr == "" {
		fg.ptr = fg.freeName("defaultsPtr")
	}
	return fg.ptr
}

// importName imports path under its package name, or another name when
// that one is taken (importTaken).
func (fg *fileGen) importName(p, name string) string {
	if n, ok := fg.imports[p]; ok {
		return n
	}
	candidates := []string{name}
	if parent := path.Base(path.Dir(p)); parent != "." && parent != "/" && token.IsIdentifier(parent+name) {
		candidates = append(candidates, parent+name) // k8s.io/api/core/v1 in a package v1: corev1
	}
	alias := ""
	for _, c := range candidates {
		if !fg.importTaken(c) {
			alias = c
			break
		}
	}
	for i := 2; alias == ""; i++ {
		if c := fmt.Sprintf("%s%d", name, i); !fg.importTaken(c) {
			alias = c
		}
	}
	fg.imports[p] = alias
	return alias
}

// importTaken is the rule for the names of the generated file's imports,
// as deepcopy-gen's and defaulter-gen's import tracker keep it: an import
// must not be named like another import, like any identifier the package
// declares at package scope in its other files (a `var runtime`, a `type
// fmt`, a `func context`: the file would not compile) or the generated file
// declares, like a predeclared identifier the code uses (len, nil,
// string...), like the package itself, or like a local variable of the
// generated code (in, obj, o, scheme, v, and the loop variables i1, k1,
// v1...), which would hide it.
func (fg *fileGen) importTaken(name string) bool {
	switch name {
	case fg.pkg.Name, "in", "obj", "o", "scheme", "v", "T", "_":
		return true
	}
	return fg.nameTaken(name) || loopVar.MatchString(name) || types.Universe.Lookup(name) != nil
}

// loopVar matches the names of the generated loops' variables.
var loopVar = regexp.MustCompile(`^[ikv][0-9]+$`)

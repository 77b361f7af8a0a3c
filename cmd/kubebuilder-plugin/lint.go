package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// lintOmitempty is KEP-1929 "Changes to kubebuilder/default-gen" rule 2 on
// the kind being created: the crd generator's omitempty-struct warnings
// (model.LintPackage, which the lint package's analyzers run) on the fields
// of the root type kind (with kind "", on every field), in the API
// packages of the universe, the directories of its *_types.go files. Older
// kubebuilder scaffolds wrote `json:"spec,omitempty"`: encoding/json
// ignores omitempty on a struct, so Go clients always send the field.
//
// The packages are loaded with go/packages from dir, the project's
// directory (kubebuilder runs the plugin there), with the universe's Go
// files, go.mod and go.sum as an overlay: the universe is the project as
// the plugins before this one left it. create api, the one command that
// calls this, runs after init, whose `go mod tidy` downloaded the
// dependencies; the new kind has no DeepCopyObject before make generate,
// a type error the model does not need to be free of. The error is for
// packages that do not load (a dependency missing from go.sum or from the
// module cache): then nothing is checked, and make generate's crd reports
// the rule.
func lintOmitempty(universe map[string]string, kind, dir string) ([]string, error) {
	overlay := map[string][]byte{}
	apiDirs := map[string]bool{}
	for p, content := range universe {
		if skippedDir(p) {
			continue
		}
		switch {
		case strings.HasSuffix(p, "_types.go"):
			apiDirs["./"+path.Dir(p)] = true
			fallthrough
		case goCommandFile(p):
			overlay[filepath.Join(dir, filepath.FromSlash(p))] = []byte(content)
		}
	}
	if len(apiDirs) == 0 {
		return nil, nil
	}
	patterns := make([]string, 0, len(apiDirs))
	for d := range apiDirs {
		patterns = append(patterns, d)
	}
	sort.Strings(patterns)
	cfg := &packages.Config{Mode: packages.LoadSyntax | packages.NeedModule, Dir: dir, Overlay: overlay, BuildFlags: readOnly(dir)}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	col, checker := model.CRDMarkers()
	var warnings []string
	for _, p := range pkgs {
		if err := loadError(p); err != nil {
			return nil, err
		}
		module := ""
		if p.Module != nil {
			module = p.Module.Path
		}
		// No Import: the warnings kept are on the kind's own fields, whose
		// shapes are the Go types' and whose markers are the package's;
		// the markers of imported types change none of them, and
		// controller-tools' loader, which would load those packages, reads
		// files from disk, not from the overlay.
		findings := model.LintPackage(model.PassPackage{
			Fset: p.Fset, Files: p.Syntax, Types: p.Types, Info: p.TypesInfo, Module: module,
		}, col, checker, model.Options{Implicit: true})
		for _, f := range findings {
			typeName, field, _ := strings.Cut(f.GoPath, ".")
			if f.Rule != model.RuleOmitemptyStruct || !f.Own || kind != "" && typeName != kind {
				continue
			}
			pos := f.Pos
			if rel, err := filepath.Rel(dir, pos.Filename); err == nil {
				pos.Filename = filepath.ToSlash(rel)
			}
			warnings = append(warnings, fmt.Sprintf("%s: %s: %s (%s): %s [%s]",
				pos, f.Sev, f.GoPath, jsonName(p.Types, typeName, field), f.Msg, f.Rule))
		}
	}
	sort.Strings(warnings)
	return warnings, nil
}

// readOnly is the build flag that keeps the go command from writing the
// project's go.mod and go.sum while the plugin loads its packages, whatever
// GOFLAGS says (-mod=mod would add the missing go.sum entries): a plugin
// returns its edits in the universe and writes no file itself. A vendored
// project keeps the go command's default, -mod=vendor, which writes nothing.
func readOnly(dir string) []string {
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil {
		return nil
	}
	return []string{"-mod=readonly"}
}

// loadError is the first error of p that leaves its types unknown: a
// file that does not parse, no file at all (a directory the go command
// does not list), or an error of a package it imports (a module missing
// from go.sum or from the module cache). p's own type errors are not: the
// model reads the types the checker could give (the go command's copy of
// them, "# importpath" and the compiler's lines, is not either).
func loadError(p *packages.Package) error {
	for _, e := range p.Errors {
		if e.Kind == packages.ParseError {
			return e
		}
	}
	for _, imp := range p.Imports {
		if len(imp.Errors) > 0 {
			return imp.Errors[0]
		}
	}
	if len(p.Syntax) == 0 {
		if len(p.Errors) > 0 {
			return p.Errors[0]
		}
		return fmt.Errorf("%s: no Go files", p.PkgPath)
	}
	return nil
}

// jsonName is the JSON name of the field of the struct type typeName of
// pkg, as its json tag gives it; "" when there is no such field.
func jsonName(pkg *types.Package, typeName, field string) string {
	tn, ok := pkg.Scope().Lookup(typeName).(*types.TypeName)
	if !ok {
		return ""
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() != field {
			continue
		}
		if tag, ok := jsontag.Parse(reflect.StructTag(st.Tag(i))); ok {
			return tag.Name
		}
	}
	return ""
}

func skippedDir(p string) bool {
	for _, d := range []string{".git/", "bin/", "vendor/", "testdata/"} {
		if strings.HasPrefix(p, d) || strings.Contains(p, "/"+d) {
			return true
		}
	}
	return false
}

func embedsTypeMeta(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) != 0 {
			continue
		}
		switch t := f.Type.(type) {
		case *ast.SelectorExpr:
			if t.Sel.Name == "TypeMeta" {
				return true
			}
		case *ast.Ident:
			if t.Name == "TypeMeta" {
				return true
			}
		}
	}
	return false
}

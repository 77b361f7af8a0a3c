package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/jsontag"
)

// lintOmitempty finds the spec and status fields of API root types (structs
// that embed TypeMeta) that are non-pointer structs tagged omitempty without
// omitzero: encoding/json ignores omitempty on a struct, so Go clients always
// send the field (KEP-1929, "Changes to kubebuilder/default-gen" rule 2).
// Older kubebuilder scaffolds wrote `json:"spec,omitempty"`. With kind set,
// only that kind is checked. It reads *_types.go files of the universe.
func lintOmitempty(universe map[string]string, kind string) []string {
	byDir := map[string][]string{}
	for p := range universe {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || skippedDir(p) {
			continue
		}
		byDir[path.Dir(p)] = append(byDir[path.Dir(p)], p)
	}
	var warnings []string
	for _, files := range byDir {
		hasTypes := false
		for _, f := range files {
			hasTypes = hasTypes || strings.HasSuffix(f, "_types.go")
		}
		if !hasTypes {
			continue
		}
		sort.Strings(files)
		fset := token.NewFileSet()
		structs := map[string]bool{}
		var parsed []*ast.File
		var names []string
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, universe[f], parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			parsed, names = append(parsed, af), append(names, f)
			for _, d := range af.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
					for _, s := range g.Specs {
						if ts := s.(*ast.TypeSpec); ts.Assign == token.NoPos {
							if _, ok := ts.Type.(*ast.StructType); ok {
								structs[ts.Name.Name] = true
							}
						}
					}
				}
			}
		}
		for i, af := range parsed {
			if !strings.HasSuffix(names[i], "_types.go") {
				continue
			}
			ast.Inspect(af, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok || !embedsTypeMeta(st) || kind != "" && ts.Name.Name != kind {
					return false
				}
				for _, f := range st.Fields.List {
					id, ok := f.Type.(*ast.Ident)
					if !ok || !structs[id.Name] || f.Tag == nil || len(f.Names) != 1 {
						continue
					}
					raw, err := strconv.Unquote(f.Tag.Value)
					if err != nil {
						continue
					}
					tag, ok := jsontag.Parse(reflect.StructTag(raw))
					if !ok || tag.Name != "spec" && tag.Name != "status" {
						continue
					}
					// the identifier names a struct type of the package: a non-pointer struct
					if msg := jsontag.OmitemptyOnStruct(tag, true); msg != "" {
						warnings = append(warnings, fmt.Sprintf("%s: warning: %s.%s (%s): %s [omitempty-struct]",
							fset.Position(f.Pos()), ts.Name.Name, f.Names[0].Name, tag.Name, msg))
					}
				}
				return false
			})
		}
	}
	sort.Strings(warnings)
	return warnings
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

package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// attachment is where controller-tools' marker collector attaches a
// comment group of a file (MarkersInPackage): to a field, a type or the
// package.
type attachment struct {
	// goPath names it: "Type.Field", "Type", "package name".
	goPath string
	// target is what the collector reads the comment's markers for.
	target ctmarkers.TargetType
	// godoc: the comment is the node's doc comment, whose markers the
	// collector never moves to the package; else it is the comment group
	// right above the node's doc, or the comment at the end of a field's
	// line.
	godoc bool
	// dropped: a comment inside a struct that no field takes, which the
	// collector attaches to nothing (goPath names the struct's type).
	dropped bool
}

// commentAt is where the collector attaches the comment group k of file,
// in the package name: a field's doc comment, the comment group right
// above that or the comment at the end of the field's line to the field;
// a type's doc comment or the comment group right above that to the type;
// any other comment to the package.
func commentAt(fset *token.FileSet, file *ast.File, k int, name string) attachment {
	pkg := attachment{goPath: "package " + name, target: ctmarkers.DescribesPackage}
	cg := file.Comments[k]
	next := token.NoPos
	if k+1 < len(file.Comments) {
		next = file.Comments[k+1].Pos()
	}
	// cg is doc, or the comment group right above n and its doc
	takes := func(n ast.Node, doc *ast.CommentGroup) bool {
		return cg == doc || cg.End() <= n.Pos() && (next == token.NoPos || next >= n.Pos() || doc != nil && next == doc.Pos())
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	i, _ := slices.BinarySearchFunc(file.Decls, cg.Pos(), func(d ast.Decl, p token.Pos) int {
		return int(d.End() - p)
	})
	if i == len(file.Decls) {
		return pkg
	}
	gd, ok := file.Decls[i].(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE || cg.End() <= gd.Pos() && !takes(gd, gd.Doc) {
		return pkg
	}
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		if cg.Pos() > ts.End() {
			continue
		}
		doc := ts.Doc
		if doc == nil && gd.Lparen == token.NoPos {
			doc = gd.Doc // type T ...: the doc is the declaration's
		}
		at := attachment{goPath: ts.Name.Name, target: ctmarkers.DescribesType, godoc: cg == doc}
		st, ok := ts.Type.(*ast.StructType)
		if !ok || cg.Pos() < st.Fields.Opening {
			return at
		}
		f := fieldOf(st.Fields.List, cg, line, takes)
		if f == nil {
			at.dropped, at.godoc = true, false
			return at
		}
		name := ""
		if len(f.Names) > 0 {
			name = f.Names[0].Name
		} else {
			s := strings.TrimPrefix(types.ExprString(f.Type), "*")
			name = s[strings.LastIndex(s, ".")+1:]
		}
		return attachment{goPath: ts.Name.Name + "." + name, target: ctmarkers.DescribesField, godoc: cg == f.Doc}
	}
	return pkg
}

// fieldOf is the field of fields that the comment group cg inside their
// struct belongs to: the field whose line it ends, else the next field,
// if it takes cg; nil for none.
func fieldOf(fields []*ast.Field, cg *ast.CommentGroup, line func(token.Pos) int, takes func(ast.Node, *ast.CommentGroup) bool) *ast.Field {
	for _, f := range fields {
		if cg.Pos() >= f.End() && line(cg.Pos()) == line(f.End()) {
			return f
		}
	}
	for _, f := range fields {
		if cg.End() <= f.Pos() {
			if takes(f, f.Doc) {
				return f
			}
			return nil
		}
	}
	return nil
}

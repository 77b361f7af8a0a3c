package model

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
)

// RuleUnknownMarker is a +kubebuilder: marker that no generator of
// controller-gen-default defines. controller-tools' collector skips a
// marker its registry does not hold, without a word, so a typo
// (+kubebuilder:validation:enum), a marker of a forked controller-gen
// (+kubebuilder:oneOf) or one that controller-tools has dropped
// (+kubebuilder:categories) changes nothing in the CRD.
const RuleUnknownMarker = "unknown-marker"

// kubebuilderPrefix is the namespace of controller-tools' markers.
const kubebuilderPrefix = "+kubebuilder:"

// notControllerTools are the names under +kubebuilder: that kubebuilder
// itself reads, not controller-gen: its scaffolding anchors
// (+kubebuilder:scaffold:imports) and the literate sources of its book
// (+kubebuilder:docs-gen:collapse=...).
var notControllerTools = []string{"kubebuilder:scaffold:", "kubebuilder:docs-gen:"}

// knownMarkers is a registry that holds every name of knownMarkerNames,
// so that a marker's text is resolved to a name as controller-tools'
// collector resolves it (Registry.Lookup: the name before "=", or that
// name less its last ":" segment, for markers with arguments after a
// colon, such as +kubebuilder:printcolumn:name=...).
var knownMarkers = sync.OnceValue(func() *ctmarkers.Registry {
	reg := &ctmarkers.Registry{}
	for _, name := range knownMarkerNames {
		// the names are the generators' own (TestKnownMarkers), so each
		// makes a definition, as it did for them
		if err := reg.Register(ctmarkers.Must(ctmarkers.MakeDefinition(name, ctmarkers.DescribesField, struct{}{}))); err != nil {
			panic(err)
		}
	}
	return reg
})

// unknownMarker is, for the text of a comment (as written, with "//"),
// the marker text when it is a +kubebuilder: marker that no generator
// defines, at any target (package, type or field); "" otherwise. Markers
// are the comments controller-tools' collector reads as markers: "//",
// then blanks, then "+".
func unknownMarker(comment string) string {
	text, ok := strings.CutPrefix(comment, "//")
	if !ok {
		return ""
	}
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, kubebuilderPrefix) {
		return ""
	}
	for _, p := range notControllerTools {
		if strings.HasPrefix(text[1:], p) {
			return ""
		}
	}
	if knownMarkers().Lookup(text, ctmarkers.DescribesField) != nil {
		return ""
	}
	return text
}

// unknownMarkers reports each +kubebuilder: marker of pkg's files that no
// generator defines (unknownMarker): every comment of a file, as
// controller-tools' collector reads every comment for the package, type or
// field it belongs to. Each finding is named after the field or type the
// comment stands at, else the package.
func (m *Model) unknownMarkers(pkg *loader.Package) []Finding {
	if fs, ok := m.pkgUnknown[pkg]; ok {
		return fs
	}
	var out []Finding
	for _, file := range pkg.Syntax {
		for k, cg := range file.Comments {
			for _, c := range cg.List {
				text := unknownMarker(c.Text)
				if text == "" {
					continue
				}
				out = append(out, m.markerFinding(Warning, RuleUnknownMarker, pkg, pkg.Fset.Position(c.Pos()),
					commentOwner(pkg.Fset, file, k, pkg.Name), unknownMarkerMessage(text)))
			}
		}
	}
	m.pkgUnknown[pkg] = out
	return out
}

// unknownMarkerMessage says what is wrong with the unknown marker text
// and how to fix it (meant): the marker it was meant to be, if that can be
// told, else to remove it or say what it meant with a marker that exists.
func unknownMarkerMessage(text string) string {
	written := strings.TrimRight(text[:strings.IndexAny(text+"=", "= \t")], ":")
	msg := fmt.Sprintf("%s: controller-gen defines no such marker and ignores it, so it changes nothing in the CRD", written)
	if m := meant(written[1:]); m != "" {
		return msg + "; " + m
	}
	return msg + "; remove it, or write what it means with a marker controller-gen defines " +
		"(+kubebuilder:validation:XValidation for a rule in CEL)"
}

// combinators are JSON Schema's choices among alternatives, which forks of
// controller-gen write as markers (+kubebuilder:oneOf), by the lower-case
// last segment of the name, with the markers of controller-tools that
// say the same of a struct's fields.
var combinators = map[string]string{
	"oneof": "+kubebuilder:validation:ExactlyOneOf",
	"anyof": "+kubebuilder:validation:AtLeastOneOf",
}

// meant is the advice for the unknown marker name (no "+", no value), the
// first that applies:
//   - a known name in other case: "+kubebuilder:Default" is +kubebuilder:default;
//   - a known name followed by ":value", the value written after a colon
//     instead of "=": "+kubebuilder:default:5" is +kubebuilder:default=5;
//   - the last segment of exactly one known name, in any case, under
//     +kubebuilder: if several have it: "+kubebuilder:validation:nullable"
//     is +nullable, "+kubebuilder:validation:Default" +kubebuilder:default;
//   - the one known +kubebuilder: name at an edit distance of at most 2,
//     for names of at least 6 letters past the prefix (a typo);
//   - a JSON Schema combinator (combinators).
//
// "" when none applies.
func meant(name string) string {
	if k, ok := knownFold(name); ok {
		return "did you mean +" + k + "?"
	}
	if i := strings.LastIndexByte(name, ':'); i > 0 {
		if k, ok := knownFold(name[:i]); ok {
			return fmt.Sprintf("did you mean +%s=%s?", k, name[i+1:])
		}
	}
	last := strings.ToLower(name[strings.LastIndexByte(name, ':')+1:])
	if k := sameLastSegment(last); k != "" {
		return "did you mean +" + k + "?"
	}
	if k := nearestMarker(name); k != "" {
		return "did you mean +" + k + "?"
	}
	if c, ok := combinators[last]; ok {
		return fmt.Sprintf("for a choice among a struct's fields, write %s=<field>;<field> on the struct; for any other rule, +kubebuilder:validation:XValidation (CEL)", c)
	}
	return ""
}

// knownFold is the known name equal to name but for case.
func knownFold(name string) (string, bool) {
	i := slices.IndexFunc(knownMarkerNames, func(k string) bool { return strings.EqualFold(k, name) })
	if i < 0 {
		return "", false
	}
	return knownMarkerNames[i], true
}

// sameLastSegment is the one known name whose last ":" segment is last
// (lower case), preferring names under kubebuilder: when several have it;
// "" for none, or several.
func sameLastSegment(last string) string {
	var all, kb []string
	for _, k := range knownMarkerNames {
		if strings.ToLower(k[strings.LastIndexByte(k, ':')+1:]) != last {
			continue
		}
		all = append(all, k)
		if strings.HasPrefix(k, kubebuilderPrefix[1:]) {
			kb = append(kb, k)
		}
	}
	switch {
	case len(all) == 1:
		return all[0]
	case len(kb) == 1:
		return kb[0]
	}
	return ""
}

// nearestMarker is the known +kubebuilder: marker name that name is a
// typo of: the one name at an edit distance of at most 2, in any case, for
// names of at least 6 letters past the prefix; "" when there is none, or
// more than one at the least distance.
func nearestMarker(name string) string {
	if len(name)+1-len(kubebuilderPrefix) < 6 {
		return ""
	}
	best, bestDist, ties := "", 3, 0
	for _, k := range knownMarkerNames {
		if !strings.HasPrefix(k, kubebuilderPrefix[1:]) {
			continue
		}
		switch d := editDistance(strings.ToLower(k), strings.ToLower(name)); {
		case d < bestDist:
			best, bestDist, ties = k, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties != 1 {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			sub := prev[j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// commentOwner is the Go path of what the comment group k of file stands
// at, as controller-tools' collector associates it: "Type.Field" for a
// field's doc comment, the comment group right above that or the comment
// at the end of the field's line; "Type" for a type's doc comment, the
// comment group right above that, or a comment in its struct that no field
// takes; else "package name".
func commentOwner(fset *token.FileSet, file *ast.File, k int, name string) string {
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
		return "package " + name
	}
	gd, ok := file.Decls[i].(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE || cg.End() <= gd.Pos() && !takes(gd, gd.Doc) {
		return "package " + name
	}
	for _, spec := range gd.Specs {
		ts := spec.(*ast.TypeSpec)
		if cg.Pos() > ts.End() {
			continue
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok || cg.Pos() < st.Fields.Opening {
			return ts.Name.Name
		}
		if f := fieldOf(st.Fields.List, cg, line, takes); f != nil {
			if len(f.Names) > 0 {
				return ts.Name.Name + "." + f.Names[0].Name
			}
			s := strings.TrimPrefix(types.ExprString(f.Type), "*")
			return ts.Name.Name + "." + s[strings.LastIndex(s, ".")+1:]
		}
		return ts.Name.Name
	}
	return "package " + name
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

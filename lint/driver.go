package lint

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Options are how Run runs the analyzers.
type Options struct {
	Config
	// Dir is the directory the patterns are read in and file names are
	// made relative to; "" is the working directory.
	Dir string
	// Fix applies the first suggested fix of each diagnostic; Run then
	// returns only what the fixes do not fix.
	Fix bool
}

// Diagnostic is a finding of the analyzers as Run returns it: a thin view
// of the one finding type (internal/findings.Finding, which the analyzers
// read from model.LintPackage), kept as the go/analysis adapter's shape.
// Run returns what the analyzers report, analysis.Diagnostics (a token.Pos,
// the rule as Category, the message), after -fix has applied their
// suggested fixes; the message is the Finding's Body without its JSON path
// (the lint knows no schema), so a Diagnostic prints exactly as the
// finding does, and the analyzers, go vet and golangci-lint print the same
// words.
type Diagnostic struct {
	// Pos is where it is, the file name relative to Options.Dir when it
	// is below it.
	Pos token.Position
	// Category is the rule, Message the finding's line without its
	// position: "error: Type.Field: message [rule]".
	Category, Message string
}

// String is d in go vet style: "file:line:col: message".
func (d Diagnostic) String() string { return fmt.Sprintf("%s: %s", d.Pos, d.Message) }

// PackageError is an error of a package that does not load.
type PackageError struct {
	// Pos is "file:line:col" or "file:line", the file relative to
	// Options.Dir when it is below it; "" for an error without a position
	// (a package that does not exist).
	Pos string
	Msg string
}

// String is e in go vet style, "file:line:col: message", or its message
// when it has no position.
func (e PackageError) String() string {
	if e.Pos == "" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// LoadError is Run's error when the packages, or packages they import, do
// not load: their errors, each once, by position, errors without one
// first.
type LoadError struct{ Errors []PackageError }

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Errors))
	for i, pe := range e.Errors {
		lines[i] = pe.String()
	}
	return strings.Join(lines, "\n")
}

// Run loads the packages of patterns (go list patterns, e.g. ./api/...)
// from o.Dir as the crd generator run with paths=PATTERNS loads them
// (controller-tools' loader, from source: nothing is compiled), lints them
// together as it reads them (model.LintRoots: the types their kinds reach,
// so that a type of one package that a kind of another reaches is
// reported, and a type no kind reaches is not), and returns each finding
// in their files once, sorted by position, as the analyzers report it.
// With o.Fix it applies the suggested fixes and returns only what they do
// not fix. The error is a *LoadError when the packages do not load; any
// other error is about the patterns or the fixes.
//
// The analyzers (go vet, golangci-lint) see one package at a time, with
// its dependencies' types from the compiler's export data; Run needs
// neither, and loading export data compiled every dependency of a large
// API first (minutes, on a cold build cache, where crd takes seconds).
func Run(patterns []string, o Options) ([]Diagnostic, error) {
	wd, err := filepath.Abs(o.Dir)
	if err != nil {
		return nil, err
	}
	roots, err := loader.LoadRootsWithConfig(&packages.Config{Dir: o.Dir}, patterns...)
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	raw := make([]*packages.Package, len(roots))
	for i, r := range roots {
		raw[i] = r.Package
	}
	if errs := loadErrors(raw, wd); len(errs) > 0 {
		return nil, &LoadError{Errors: errs}
	}
	col, checker := model.CRDMarkers()
	findings := model.LintRoots(roots, col, checker, model.Options{Implicit: o.ImplicitDefaults})
	if errs := append(loadErrors(raw, wd), structTypeErrors(roots, wd)...); len(errs) > 0 {
		return nil, &LoadError{Errors: errs}
	}
	var diags []found
	seen := map[string]bool{}
	for _, r := range roots {
		for _, d := range diagnose(r.Fset, r.Syntax, findings, o.Config).Diagnostics {
			f := found{pos: r.Fset.Position(d.Pos), d: d, fset: r.Fset}
			if k := f.String(); !seen[k] {
				seen[k] = true
				diags = append(diags, f)
			}
		}
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].less(diags[j]) })
	if o.Fix {
		if diags, err = applyFixes(diags); err != nil {
			return nil, fmt.Errorf("-fix: %w", err)
		}
	}
	out := make([]Diagnostic, len(diags))
	for i, f := range diags {
		out[i] = Diagnostic{Pos: f.rel(wd), Category: f.d.Category, Message: f.d.Message}
	}
	return out, nil
}

// structTypeErrors are the type checker's errors inside the struct types
// of roots (a field of an undefined type), by position: where the crd
// generator fails with controller-tools' "unknown type", and the types
// cannot be read. Type errors elsewhere (a stale zz_generated file's
// function bodies) are no error of the crd generator's, nor of the lint's.
func structTypeErrors(roots []*loader.Package, wd string) []PackageError {
	var out []PackageError
	seen := map[PackageError]bool{}
	for _, r := range roots {
		for _, e := range r.Errors {
			if pe := errorAt(e.Pos, e.Msg, wd); e.Kind == packages.TypeError && !seen[pe] && inStructType(r, e.Pos) {
				seen[pe] = true
				out = append(out, pe)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return errorLess(out[i], out[j]) })
	return out
}

// inStructType reports a position ("file:line:col") inside a struct type
// of r's files.
func inStructType(r *loader.Package, pos string) bool {
	m := errorPosRE.FindStringSubmatch(pos)
	if m == nil {
		return false
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	for _, f := range r.Syntax {
		tf := r.Fset.File(f.Pos())
		if tf == nil || !sameFile(tf.Name(), m[1]) {
			continue
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if st, ok := n.(*ast.StructType); ok && !found {
				start, end := r.Fset.Position(st.Pos()), r.Fset.Position(st.End())
				found = after(line, col, start.Line, start.Column) && after(end.Line, end.Column, line, col)
			}
			return !found
		})
		return found
	}
	return false
}

// after reports (l1, c1) at or after (l2, c2).
func after(l1, c1, l2, c2 int) bool { return l1 > l2 || l1 == l2 && c1 >= c2 }

// sameFile reports two names of one file.
func sameFile(a, b string) bool {
	for _, x := range sameFileNames(a) {
		for _, y := range sameFileNames(b) {
			if x == y {
				return true
			}
		}
	}
	return false
}

// loadErrors are the errors of pkgs and of the packages they import that
// make the crd generator fail (crdgen's packagesFailed): every error but
// the type checker's, each once, with file names relative to wd when they
// are below it, by position, errors without one first. The crd generator
// reads the types of a package whose code does not compile (a stale
// zz_generated file after a failed generate), and so does the lint;
// controller-tools' loader checks declarations only, and of the imports
// only what API types use, so its type errors elsewhere are its own. An
// error of the go command that holds the compiler's output ("# importpath"
// and its lines) is split into one error per line.
func loadErrors(pkgs []*packages.Package, wd string) []PackageError {
	var errs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind != packages.TypeError {
				errs = append(errs, e)
			}
		}
	})
	positioned := map[PackageError]bool{}
	for _, e := range errs {
		if e.Pos != "" && e.Pos != "-" {
			positioned[errorAt(e.Pos, e.Msg, wd)] = true
		}
	}
	var out []PackageError
	seen := map[PackageError]bool{}
	add := func(e PackageError) {
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	for _, e := range errs {
		if e.Pos != "" && e.Pos != "-" {
			add(errorAt(e.Pos, e.Msg, wd))
			continue
		}
		header, rest, compiled := strings.Cut(e.Msg, "\n")
		if !compiled || !strings.HasPrefix(header, "# ") {
			add(PackageError{Msg: e.Msg})
			continue
		}
		// The compiler's lines: "file:line:col: message", a message's
		// further lines indented below it, relative to the go command's
		// directory (wd: Run loads from there).
		var entries []string
		for _, l := range strings.Split(rest, "\n") {
			if n := len(entries); n > 0 && (strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " ")) {
				entries[n-1] += "\n" + l
				continue
			}
			entries = append(entries, l)
		}
		for _, en := range entries {
			pos, msg, ok := compilerLine(en)
			switch {
			case en == "too many errors" || msg == "too many errors":
				// the compiler stops at ten; the type checker does not
			case !ok:
				add(PackageError{Msg: en})
			case !positioned[errorAt(pos, msg, wd)]:
				add(errorAt(pos, msg, wd))
			}
		}
	}
	// By position, as the diagnostics; errors without one first.
	sort.SliceStable(out, func(i, j int) bool { return errorLess(out[i], out[j]) })
	return out
}

var errorPosRE = regexp.MustCompile(`^(\S+?\.go):(\d+)(?::(\d+))?$`)

// errorLess orders errors of loadErrors by file, line and column.
func errorLess(a, b PackageError) bool {
	ma, mb := errorPosRE.FindStringSubmatch(a.Pos), errorPosRE.FindStringSubmatch(b.Pos)
	switch {
	case ma == nil || mb == nil:
		return ma == nil && mb != nil
	case ma[1] != mb[1]:
		return ma[1] < mb[1]
	}
	la, _ := strconv.Atoi(ma[2])
	lb, _ := strconv.Atoi(mb[2])
	if la != lb {
		return la < lb
	}
	ca, _ := strconv.Atoi(ma[3])
	cb, _ := strconv.Atoi(mb[3])
	return ca < cb
}

var compilerLineRE = regexp.MustCompile(`^(\S+?\.go:\d+(?::\d+)?): ((?s).*)$`)

// compilerLine splits a line of the compiler's output into its position
// and message.
func compilerLine(l string) (pos, msg string, ok bool) {
	m := compilerLineRE.FindStringSubmatch(l)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// errorAt is an error at pos ("file:line:col" or "file:line") with msg,
// the file relative to wd when it is below it.
func errorAt(pos, msg, wd string) PackageError {
	file, lc := pos, ""
	if m := regexp.MustCompile(`^(.*?)((?::\d+){1,2})$`).FindStringSubmatch(pos); m != nil {
		file, lc = m[1], m[2]
	}
	if !filepath.IsAbs(file) && wd != "" {
		file = filepath.Join(wd, file)
	}
	if r, err := filepath.Rel(wd, file); err == nil && wd != "" && !strings.HasPrefix(r, "..") {
		file = r
	}
	return PackageError{Pos: file + lc, Msg: msg}
}

// found is a diagnostic with its position.
type found struct {
	pos  token.Position
	d    analysis.Diagnostic
	fset *token.FileSet
}

func (f found) String() string { return fmt.Sprintf("%s: %s", f.pos, f.d.Message) }

// rel is f's position with the file name relative to wd when it is below
// it.
func (f found) rel(wd string) token.Position {
	p := f.pos
	if r, err := filepath.Rel(wd, p.Filename); err == nil && wd != "" && !strings.HasPrefix(r, "..") {
		p.Filename = r
	}
	return p
}

func (f found) less(g found) bool {
	a, b := f.pos, g.pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return f.d.Message < g.d.Message
}

// edit is a byte range of a file and its replacement.
type edit struct {
	start, end int
	text       []byte
}

// applyFixes applies the first suggested fix of each diagnostic, file by
// file, and returns the diagnostics it did not fix: those without a fix,
// and those whose fix overlaps one applied before it. A file that was
// gofmt-formatted is formatted again (a `*` before a field's type can move
// the columns of a struct's tags).
func applyFixes(diags []found) ([]found, error) {
	type fileEdits struct {
		edits []edit
	}
	byFile := map[string]*fileEdits{}
	var order []string
	var remain []found
	for _, f := range diags {
		if len(f.d.SuggestedFixes) == 0 {
			remain = append(remain, f)
			continue
		}
		var es []edit
		name := ""
		for _, te := range f.d.SuggestedFixes[0].TextEdits {
			tf := f.fset.File(te.Pos)
			end := te.End
			if end == token.NoPos {
				end = te.Pos
			}
			if name != "" && tf.Name() != name {
				return nil, fmt.Errorf("%s: a fix spans files", f.pos)
			}
			name = tf.Name()
			es = append(es, edit{start: tf.Offset(te.Pos), end: tf.Offset(end), text: te.NewText})
		}
		fe := byFile[name]
		if fe == nil {
			fe = &fileEdits{}
			byFile[name] = fe
			order = append(order, name)
		}
		if overlaps(fe.edits, es) {
			remain = append(remain, f)
			continue
		}
		fe.edits = append(fe.edits, es...)
	}
	for _, name := range order {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		es := byFile[name].edits
		sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
		var out bytes.Buffer
		last := 0
		for _, e := range es {
			if e.start < last || e.end > len(src) {
				return nil, fmt.Errorf("%s: edits out of range", name)
			}
			out.Write(src[last:e.start])
			out.Write(e.text)
			last = e.end
		}
		out.Write(src[last:])
		res := out.Bytes()
		if formatted, err := format.Source(src); err == nil && bytes.Equal(formatted, src) {
			if f, err := format.Source(res); err == nil {
				res = f
			}
		}
		info, err := os.Stat(name)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(name, res, info.Mode().Perm()); err != nil {
			return nil, err
		}
	}
	return remain, nil
}

// overlaps reports whether an edit of b touches the range of an edit of a
// (two insertions at one offset count as overlapping: their order would be
// a guess).
func overlaps(a, b []edit) bool {
	for _, x := range a {
		for _, y := range b {
			if x.start < y.end && y.start < x.end || x.start == y.start {
				return true
			}
		}
	}
	return false
}

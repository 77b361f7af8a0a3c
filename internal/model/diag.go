package model

import (
	"bufio"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	findingspkg "github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// Severity, Finding and Fix are the one finding type of every command
// (package internal/findings, which holds its printers and the rule
// registry); model names them for the rules and the generators.
type (
	Severity = findingspkg.Severity
	Finding  = findingspkg.Finding
	Fix      = findingspkg.Fix
)

// The severities.
const (
	Note    = findingspkg.Note
	Warning = findingspkg.Warning
	Error   = findingspkg.Error
)

// The fixes.
const (
	// FixOmitempty adds omitempty to the json tag.
	FixOmitempty = findingspkg.FixOmitempty
	// FixOmitzero replaces omitempty with omitzero in the json tag.
	FixOmitzero = findingspkg.FixOmitzero
	// FixPointer makes the field a pointer.
	FixPointer = findingspkg.FixPointer
)

// The notes of the crd generator when it replaces a CRD file whose
// defaults differ (crdgen/changes.go).
const (
	RuleDefaultAdded   = "default-added"
	RuleDefaultChanged = "default-changed"
	RuleDefaultRemoved = "default-removed"
)

// summarised are the rules whose findings a report counts in one line per
// rule and CRD, unless every finding is asked for: they repeat on every
// type of a large API, and none changes what the apiserver stores for Go
// clients. KEP-1929 rule 2 is style (omitzero for omitempty, on a struct
// that encoding/json always writes); a default added or changed in a CRD
// file is what the run is for, and a first run over CRDs from
// controller-gen adds hundreds. A removed default is listed one by one.
var summarised = map[string]bool{
	RuleOmitemptyStruct: true,
	RuleDefaultAdded:    true,
	RuleDefaultChanged:  true,
}

// changeNotes are printed in every run, not only when notes are asked
// for, whether in the user's types or another module's.
var changeNotes = map[string]bool{
	RuleDefaultAdded:   true,
	RuleDefaultChanged: true,
	RuleDefaultRemoved: true,
}

type findingKey struct {
	file      string
	line, col int
	rule, msg string
	jpath     string
}

// Diagnostics collects findings, once per Go position, rule and message
// however many CRDs use the type.
type Diagnostics struct {
	list []Finding
	seen map[findingKey]bool
	// printed are the findings a report has printed already.
	printed map[findingKey]bool
	// crd is the CRD that Add gives the findings that name none.
	crd string
}

// NewDiagnostics returns an empty collection.
func NewDiagnostics() *Diagnostics {
	return &Diagnostics{seen: map[findingKey]bool{}, printed: map[findingKey]bool{}}
}

// key is what makes a finding one: its place, rule and message; for the
// note of a changed default, which is about a property of a CRD, its JSON
// path too (a Go field used at several paths has a default at each).
func key(f Finding) findingKey {
	k := findingKey{f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.Rule, f.Msg, ""}
	if changeNotes[f.Rule] {
		k.jpath = f.JPath
	}
	return k
}

// SetCRD names the CRD whose generation the findings added next belong
// to, when they name none themselves; "" for none.
func (ds *Diagnostics) SetCRD(name string) { ds.crd = name }

// Add records f unless the same finding was recorded at the same place.
func (ds *Diagnostics) Add(f Finding) {
	k := key(f)
	if ds.seen[k] {
		return
	}
	ds.seen[k] = true
	if f.CRD == "" {
		f.CRD = ds.crd
	}
	ds.list = append(ds.list, f)
}

// HasErrors reports whether any finding is an error.
func (ds *Diagnostics) HasErrors() bool {
	for _, f := range ds.list {
		if f.Sev == Error {
			return true
		}
	}
	return false
}

// List returns the findings in the order they were added.
func (ds *Diagnostics) List() []Finding { return ds.list }

// ReportOptions say how much a report lists.
type ReportOptions struct {
	// All lists every warning one by one: those of the summarised rules
	// (summarised), and those in types from other modules. Without it,
	// the findings of a summarised rule are one line per rule and CRD,
	// and the warnings in other modules' types one line in all.
	All bool
	// Notes lists the notes too (with All, crd:verbose): the notes of
	// changed defaults are printed in every report.
	Notes bool
	// Hint is the option that lists every finding ("crd:allFindings=true"),
	// named in the lines that stand for several.
	Hint string
}

// Report prints the findings to w, sorted by position, and says whether any
// is an error. A finding an earlier report printed is not printed again.
// Errors are always listed, one by one. Without opts.All, the findings of
// a summarised rule (omitempty-struct, the notes of added and changed
// defaults) are one line per rule and CRD, at the first of them in the
// user's types, with their number; warnings in types from other modules
// are counted in one line. Notes are listed only with opts.Notes, but for
// the notes of changed defaults, which are always printed.
func (ds *Diagnostics) Report(w io.Writer, opts ReportOptions) bool {
	return ds.report(w, opts, false)
}

// ReportErrors prints only the errors, as Report does.
func (ds *Diagnostics) ReportErrors(w io.Writer) bool {
	return ds.report(w, ReportOptions{}, true)
}

// sort orders the findings by position.
func (ds *Diagnostics) sort() { sortFindings(ds.list) }

// sortFindings orders findings by position, keeping the order of those at
// one position.
func sortFindings(list []Finding) { findingspkg.Sort(list) }

// groupKey is a line that stands for the findings of one rule in one CRD.
type groupKey struct{ rule, crd string }

func (ds *Diagnostics) report(w io.Writer, opts ReportOptions, errorsOnly bool) bool {
	ds.sort()
	bw := bufio.NewWriter(w)
	// w is the diagnostic stream (stderr): a failed write has nowhere to go
	defer func() { _ = bw.Flush() }()
	foreign := map[string]int{}
	foreignN := 0
	// what is printed, in order; a group of a summarised rule is printed
	// at its representative: its first finding in the user's types, else
	// its first
	var shown []Finding
	type group struct {
		n   int
		rep Finding
	}
	groups := map[groupKey]*group{}
	for _, f := range ds.list {
		if ds.printed[key(f)] || (errorsOnly && f.Sev != Error) {
			continue
		}
		switch {
		case f.Sev == Error:
		case !f.Own && !opts.All && f.Sev == Warning:
			foreign[f.Rule]++
			foreignN++
			continue
		case f.Sev == Note && !opts.Notes && !changeNotes[f.Rule]:
			continue
		case summarised[f.Rule] && !opts.All:
			ds.printed[key(f)] = true
			k := groupKey{f.Rule, f.CRD}
			g := groups[k]
			if g == nil {
				g = &group{rep: f}
				groups[k] = g
			} else if f.Own && !g.rep.Own {
				g.rep = f
			}
			g.n++
			continue
		}
		ds.printed[key(f)] = true
		shown = append(shown, f)
	}
	for _, g := range groups {
		shown = append(shown, g.rep)
	}
	sortFindings(shown)
	for _, f := range shown {
		n := 1
		if summarised[f.Rule] && !opts.All && f.Sev != Error {
			n = groups[groupKey{f.Rule, f.CRD}].n
		}
		f.Pos = RelPos(f.Pos)
		if n == 1 {
			fmt.Fprintln(bw, f.String())
			continue
		}
		fmt.Fprintln(bw, summary(f, n, opts.Hint))
	}
	if foreignN > 0 {
		rules := make([]string, 0, len(foreign))
		for r, n := range foreign {
			rules = append(rules, fmt.Sprintf("%s: %d", r, n))
		}
		sort.Strings(rules)
		fmt.Fprintf(bw, "warning: %d findings in types from other modules (%s); run with %s to list them\n",
			foreignN, strings.Join(rules, ", "), opts.Hint)
	}
	return ds.HasErrors()
}

// summary is the line that stands for n findings of f's rule in f's CRD,
// at f, their representative: "FILE:LINE:COL: warning: 23 omitempty-struct
// warnings in CRD widgets.example.com, the first here: Widget.Spec (spec):
// …; run with crd:allFindings=true to list them [omitempty-struct]".
func summary(f Finding, n int, hint string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %d %s %ss", f.Pos, f.Sev, n, f.Rule, f.Sev)
	if f.CRD != "" {
		fmt.Fprintf(&b, " in CRD %s", f.CRD)
	}
	fmt.Fprintf(&b, ", the first here: %s", f.GoPath)
	if f.JPath != "" {
		fmt.Fprintf(&b, " (%s)", f.JPath)
	}
	fmt.Fprintf(&b, ": %s; run with %s to list them [%s]", f.Msg, hint, f.Rule)
	return b.String()
}

// RelPos makes a position relative to the working directory when it is
// below it, as go vet does.
func RelPos(pos token.Position) token.Position {
	if wd, err := os.Getwd(); err == nil && pos.Filename != "" {
		if rel, err := filepath.Rel(wd, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			pos.Filename = rel
		}
	}
	return pos
}

// ownership tells the packages of the modules being generated from the rest.
type ownership struct{ modules []string }

func newOwnership(roots []*loader.Package) ownership {
	var o ownership
	seen := map[string]bool{}
	for _, r := range roots {
		m := modulePath(r)
		if m == "" {
			m = r.PkgPath
		}
		if !seen[m] {
			seen[m] = true
			o.modules = append(o.modules, m)
		}
	}
	return o
}

func (o ownership) is(pkg *loader.Package) bool {
	for _, m := range o.modules {
		if pkg.PkgPath == m || strings.HasPrefix(pkg.PkgPath, m+"/") {
			return true
		}
	}
	return false
}

// modulePath is the path of a package's module: as its loader found it,
// else the module line of the go.mod above its files.
func modulePath(pkg *loader.Package) string {
	if pkg.Module != nil && pkg.Module.Path != "" {
		return pkg.Module.Path
	}
	files := pkg.GoFiles
	if len(files) == 0 {
		files = pkg.CompiledGoFiles
	}
	if len(files) == 0 {
		return ""
	}
	for dir := filepath.Dir(files[0]); ; dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
					return strings.Trim(f[1], `"`)
				}
			}
			return ""
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}

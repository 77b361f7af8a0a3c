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
)

// Severity of a finding.
type Severity int

const (
	Note Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	return [...]string{"note", "warning", "error"}[s]
}

// Finding is one diagnostic about one Go field or type.
type Finding struct {
	Sev    Severity
	Pos    token.Position
	GoPath string // Type.Field
	JPath  string // spec.x, the first place it was seen; "" where no schema is known
	Rule   string
	Msg    string
	// Own is true for packages of the modules being generated; findings in
	// other modules are summarised unless verbose.
	Own bool
}

// String is the finding in go vet style, with the position as given.
func (f Finding) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s", f.Pos, f.Sev, f.GoPath)
	if f.JPath != "" {
		fmt.Fprintf(&b, " (%s)", f.JPath)
	}
	fmt.Fprintf(&b, ": %s [%s]", f.Msg, f.Rule)
	return b.String()
}

type findingKey struct {
	file      string
	line, col int
	rule, msg string
}

// Diagnostics collects findings, once per Go position, rule and message
// however many CRDs use the type.
type Diagnostics struct {
	list []Finding
	seen map[findingKey]bool
	// printed are the findings a report has printed already.
	printed map[findingKey]bool
}

// NewDiagnostics returns an empty collection.
func NewDiagnostics() *Diagnostics {
	return &Diagnostics{seen: map[findingKey]bool{}, printed: map[findingKey]bool{}}
}

func (f Finding) key() findingKey {
	return findingKey{f.Pos.Filename, f.Pos.Line, f.Pos.Column, f.Rule, f.Msg}
}

// Add records f unless the same finding was recorded at the same place.
func (ds *Diagnostics) Add(f Finding) {
	k := f.key()
	if ds.seen[k] {
		return
	}
	ds.seen[k] = true
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

// Report prints the findings to w, sorted by position, and says whether any
// is an error. A finding an earlier report printed is not printed again.
// Errors are always listed. Warnings and notes about types from
// other modules are counted in one line unless verbose; notes about the
// user's own types are listed only when verbose. optionHint names the option
// that lists them ("crd:verbose=true").
func (ds *Diagnostics) Report(w io.Writer, verbose bool, optionHint string) bool {
	return ds.report(w, verbose, optionHint, false)
}

// ReportErrors prints only the errors, as Report does.
func (ds *Diagnostics) ReportErrors(w io.Writer) bool {
	return ds.report(w, false, "", true)
}

// sort orders the findings by position.
func (ds *Diagnostics) sort() {
	sort.SliceStable(ds.list, func(i, j int) bool {
		a, b := ds.list[i].Pos, ds.list[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

func (ds *Diagnostics) report(w io.Writer, verbose bool, optionHint string, errorsOnly bool) bool {
	ds.sort()
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	foreign := map[string]int{}
	foreignN := 0
	for _, f := range ds.list {
		if ds.printed[f.key()] || (errorsOnly && f.Sev != Error) {
			continue
		}
		show := f.Sev == Error || verbose || (f.Own && f.Sev == Warning)
		if show {
			ds.printed[f.key()] = true
		} else {
			if !f.Own && f.Sev == Warning {
				foreign[f.Rule]++
				foreignN++
			}
			continue
		}
		f.Pos = RelPos(f.Pos)
		fmt.Fprintln(bw, f.String())
	}
	if foreignN > 0 {
		rules := make([]string, 0, len(foreign))
		for r, n := range foreign {
			rules = append(rules, fmt.Sprintf("%s: %d", r, n))
		}
		sort.Strings(rules)
		fmt.Fprintf(bw, "warning: %d findings in types from other modules (%s); run with %s to list them\n",
			foreignN, strings.Join(rules, ", "), optionHint)
	}
	return ds.HasErrors()
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

// modulePath reads the module line of the go.mod above a package's files.
func modulePath(pkg *loader.Package) string {
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

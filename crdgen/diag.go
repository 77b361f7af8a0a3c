package crdgen

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

// DiagnosticsOutput receives diagnostics in go vet style. Tests replace it.
var DiagnosticsOutput io.Writer = os.Stderr

type severity int

const (
	sevNote severity = iota
	sevWarning
	sevError
)

func (s severity) String() string {
	return [...]string{"note", "warning", "error"}[s]
}

// diagPos is a source position.
type diagPos token.Position

// diag is one finding about one Go field or type.
type diag struct {
	sev    severity
	at     diagPos
	goPath string // Type.Field
	jpath  string // spec.x, the first place it was seen
	rule   string
	msg    string
	// own is true for packages of the modules being generated; findings in
	// other modules are summarised unless verbose.
	own bool
}

type diagKey struct {
	file      string
	line, col int
	rule, msg string
}

// diagnostics collects findings, once per Go position and message however
// many CRDs use the type.
type diagnostics struct {
	list []diag
	seen map[diagKey]bool
}

func newDiagnostics() *diagnostics { return &diagnostics{seen: map[diagKey]bool{}} }

func (ds *diagnostics) add(d diag) {
	k := diagKey{d.at.Filename, d.at.Line, d.at.Column, d.rule, d.msg}
	if ds.seen[k] {
		return
	}
	ds.seen[k] = true
	ds.list = append(ds.list, d)
}

func (ds *diagnostics) hasErrors() bool {
	for _, d := range ds.list {
		if d.sev == sevError {
			return true
		}
	}
	return false
}

// report prints the findings sorted by position and says whether any is an
// error. Errors are always listed. Warnings and notes about types from other
// modules are counted in one line unless verbose; notes about the user's own
// types are listed only when verbose.
func (ds *diagnostics) report(verbose bool) bool {
	sort.SliceStable(ds.list, func(i, j int) bool {
		a, b := ds.list[i].at, ds.list[j].at
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	w := bufio.NewWriter(DiagnosticsOutput)
	defer w.Flush()
	foreign := map[string]int{}
	foreignN := 0
	for _, d := range ds.list {
		show := d.sev == sevError || verbose || (d.own && d.sev == sevWarning)
		if !show {
			if !d.own && d.sev == sevWarning {
				foreign[d.rule]++
				foreignN++
			}
			continue
		}
		fmt.Fprintf(w, "%s: %s: %s", relPos(d.at), d.sev, d.goPath)
		if d.jpath != "" {
			fmt.Fprintf(w, " (%s)", d.jpath)
		}
		fmt.Fprintf(w, ": %s [%s]\n", d.msg, d.rule)
	}
	if foreignN > 0 {
		rules := make([]string, 0, len(foreign))
		for r, n := range foreign {
			rules = append(rules, fmt.Sprintf("%s: %d", r, n))
		}
		sort.Strings(rules)
		fmt.Fprintf(w, "warning: %d findings in types from other modules (%s); run with crd:verbose=true to list them\n",
			foreignN, strings.Join(rules, ", "))
	}
	return ds.hasErrors()
}

// relPos prints a position relative to the working directory when it is
// below it, as go vet does.
func relPos(p diagPos) string {
	pos := token.Position(p)
	if wd, err := os.Getwd(); err == nil && pos.Filename != "" {
		if rel, err := filepath.Rel(wd, pos.Filename); err == nil && !strings.HasPrefix(rel, "..") {
			pos.Filename = rel
		}
	}
	return pos.String()
}

// origin is where a default in the schema came from, so that an apiserver
// error about it can be reported at the Go source.
type origin struct {
	at     diagPos
	goPath string
	jpath  string
	cause  string
	own    bool
}

func originKey(crd, version, spath string) string { return crd + "|" + version + "|" + spath }

func (d *defaulter) record(l loc, o origin) {
	o.jpath = l.jpath
	d.origins[originKey(l.crd, l.version, l.spath)] = o
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

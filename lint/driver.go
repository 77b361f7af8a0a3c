package lint

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Exit statuses of Main.
const (
	ExitClean    = 0 // no finding
	ExitFindings = 1 // findings (with -fix: findings that remain)
	ExitUsage    = 2 // bad arguments, or packages that do not load
)

const usage = `usage: controller-gen-default lint [-fix] [-implicit-defaults=false] PACKAGES...

Reports the KEP-1929 findings of the crd generator that need no schema
(%s),
in go vet style: FILE:LINE:COL: error|warning: Type.Field: message [rule].
Exit status: 0 no finding, 1 findings, 2 usage or load error.

Flags:
`

// Main is `controller-gen-default lint`: it loads PACKAGES (go list patterns,
// e.g. ./api/...), runs the analyzers, prints each diagnostic to stderr in
// go vet style, sorted by position, with file names relative to the working
// directory, and returns the exit status. With -fix it applies the suggested
// fixes and prints only what they do not fix.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("controller-gen-default lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fix := fs.Bool("fix", false, "apply the suggested fixes, and report only what they do not fix")
	implicit := fs.Bool("implicit-defaults", true, "as crd:implicitDefaults: false reports KEP-1929 rule violations as warnings")
	fs.Usage = func() {
		fmt.Fprintf(stderr, usage, strings.Join(Rules, ", "))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitClean
		}
		return ExitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return ExitUsage
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax}
	pkgs, err := packages.Load(cfg, fs.Args()...)
	if err != nil {
		fmt.Fprintf(stderr, "controller-gen-default lint: %v\n", err)
		return ExitUsage
	}
	if len(pkgs) == 0 {
		fmt.Fprintf(stderr, "controller-gen-default lint: no packages match %s\n", strings.Join(fs.Args(), " "))
		return ExitUsage
	}
	wd, _ := os.Getwd()
	if errs := loadErrors(pkgs, wd); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		return ExitUsage
	}
	lcfg := Config{ImplicitDefaults: *implicit}
	graph, err := checker.Analyze(newAnalyzers(lcfg, preload(wd, fs.Args(), lcfg)), pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "controller-gen-default lint: %v\n", err)
		return ExitUsage
	}
	var diags []found
	seen := map[string]bool{}
	failed := false
	for _, act := range graph.Roots {
		if act.Err != nil {
			fmt.Fprintf(stderr, "controller-gen-default lint: %s: %v\n", act.Package.PkgPath, act.Err)
			failed = true
			continue
		}
		for _, d := range act.Diagnostics {
			f := found{pos: act.Package.Fset.Position(d.Pos), d: d, fset: act.Package.Fset}
			if k := f.String(); !seen[k] {
				seen[k] = true
				diags = append(diags, f)
			}
		}
	}
	if failed {
		return ExitUsage
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].less(diags[j]) })
	if *fix {
		var err error
		if diags, err = applyFixes(diags); err != nil {
			fmt.Fprintf(stderr, "controller-gen-default lint: -fix: %v\n", err)
			return ExitUsage
		}
	}
	for _, f := range diags {
		fmt.Fprintln(stderr, f.rel(wd))
	}
	if len(diags) > 0 {
		return ExitFindings
	}
	return ExitClean
}

// loadErrors are the errors of pkgs and of the packages they import, each
// once, in go vet style: "file:line:col: message", with file names relative
// to wd when they are below it, or the command's name and the message for
// an error without a position (a package that does not exist). A package that does not compile (a stale generated file
// after a failed generate, say) has its type errors reported twice by
// go/packages: by the type checker, at their positions, and by the go
// command as one error without a position, "# importpath" followed by
// the compiler's lines for the same errors; of the latter only the lines
// the type checker does not report are kept.
func loadErrors(pkgs []*packages.Package, wd string) []string {
	var errs []packages.Error
	packages.Visit(pkgs, nil, func(p *packages.Package) { errs = append(errs, p.Errors...) })
	positioned := map[string]bool{}
	for _, e := range errs {
		if e.Pos != "" && e.Pos != "-" {
			positioned[errorLine(e.Pos, e.Msg, wd)] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for _, e := range errs {
		if e.Pos != "" && e.Pos != "-" {
			add(errorLine(e.Pos, e.Msg, wd))
			continue
		}
		header, rest, compiled := strings.Cut(e.Msg, "\n")
		if !compiled || !strings.HasPrefix(header, "# ") {
			add("controller-gen-default lint: " + e.Msg)
			continue
		}
		// The compiler's lines: "file:line:col: message", a message's
		// further lines indented below it, relative to the go command's
		// directory (wd: Main loads from there).
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
				add(en)
			case !positioned[errorLine(pos, msg, wd)]:
				add(errorLine(pos, msg, wd))
			}
		}
	}
	// By position, as the diagnostics; errors without one first.
	sort.SliceStable(out, func(i, j int) bool { return errorLess(out[i], out[j]) })
	return out
}

var errorPosRE = regexp.MustCompile(`^(\S+?\.go):(\d+)(?::(\d+))?: `)

// errorLess orders lines of loadErrors by file, line and column.
func errorLess(a, b string) bool {
	ma, mb := errorPosRE.FindStringSubmatch(a), errorPosRE.FindStringSubmatch(b)
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

// errorLine is an error at pos ("file:line:col" or "file:line") with msg,
// the file relative to wd when it is below it.
func errorLine(pos, msg, wd string) string {
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
	return file + lc + ": " + msg
}

// found is a diagnostic with its position.
type found struct {
	pos  token.Position
	d    analysis.Diagnostic
	fset *token.FileSet
}

func (f found) String() string { return fmt.Sprintf("%s: %s", f.pos, f.d.Message) }

// rel is the line as printed, with the file name relative to wd when it is
// below it.
func (f found) rel(wd string) string {
	p := f.pos
	if r, err := filepath.Rel(wd, p.Filename); err == nil && wd != "" && !strings.HasPrefix(r, "..") {
		p.Filename = r
	}
	return fmt.Sprintf("%s: %s", p, f.d.Message)
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

// Package lint holds golang.org/x/tools/go/analysis analyzers for the
// KEP-1929 rules that need only the Go code (README "The rules",
// "Diagnostics"):
//
//	struct-default-not-empty  default-needs-omitempty  omitempty-struct
//	invalid-default           unresolved-ref           default-type-mismatch
//	conflicting-defaults      default-on-required      ignored-field-default
//	json-name-mismatch
//
// They derive nothing themselves. The Findings analyzer (FindingsName),
// which the rule analyzers require, hands model.LintPackage the pass's
// files, type information and module, with the crd generator's markers, and
// model.LintPackage, the schema-free part of the crd generator's decision,
// says what is wrong: every diagnostic is a finding of the crd generator,
// at the same place, with the same rule and the same words. The files are
// those of the driver's build (its build tags, an editor's overlays); only
// the packages the analysed one imports are loaded with controller-tools'
// loader, for the markers of the types it uses from them. Nothing is kept
// between passes.
//
// Three drivers run them: `controller-gen-default lint` (Run), the
// golangci-lint module plugin `kepdefaults` (package lint/plugin), and
// `go vet -vettool=$(which controller-gen-default-vet)`.
package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/controller-gen-default/controller-gen-default/internal/findings"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// Rules are the rule names the analyzers report, one analyzer each: the
// rules of the registry (package internal/findings) that lint emits, in its
// order.
var Rules = ruleNames(findings.Of(findings.CmdLint))

func ruleNames(rs []findings.Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

// Config changes what the analyzers report.
type Config struct {
	// ImplicitDefaults is the crd generator's implicitDefaults option:
	// false reports KEP-1929 rule violations as warnings, as
	// crd:implicitDefaults=false does.
	ImplicitDefaults bool
	// Rules set rules one by one (ParseRuleSettings): a rule set to Off
	// is not reported, one set to Error or Warning is reported at that
	// severity; a rule not named is reported as the crd generator
	// reports it.
	Rules map[string]RuleSetting
}

// DefaultConfig is the crd generator's default.
var DefaultConfig = Config{ImplicitDefaults: true}

// AnalyzerName is the analyzer name of rule: the rule without its
// hyphens ("omitempty-struct" is omitemptystruct), since analyzer names are
// Go identifiers (and go vet flags).
func AnalyzerName(rule string) string { return strings.ReplaceAll(rule, "-", "") }

// Analyzers are the analyzers with DefaultConfig, one per rule of Rules.
var Analyzers = New(DefaultConfig)

// New returns one analyzer per rule of Rules, sharing one Findings
// analyzer with cfg.
func New(cfg Config) []*analysis.Analyzer {
	f := newFindings(cfg)
	var out []*analysis.Analyzer
	for _, rule := range Rules {
		out = append(out, &analysis.Analyzer{
			Name:     AnalyzerName(rule),
			Doc:      fmt.Sprintf("KEP-1929 %s: %s.\n\nThe finding is the crd generator's, word for word.", rule, findings.MustLookup(rule).Summary),
			URL:      "https://github.com/controller-gen-default/controller-gen-default/blob/main/" + findings.MustLookup(rule).URL(),
			Requires: []*analysis.Analyzer{f},
			Run: func(pass *analysis.Pass) (any, error) {
				for _, d := range pass.ResultOf[f].(*Result).Diagnostics {
					if d.Category == rule {
						pass.Report(d)
					}
				}
				return nil, nil
			},
		})
	}
	return out
}

// Result is the Findings analyzer's result for one package: the crd
// generator's findings in the package's own files, as diagnostics of the
// pass, with their suggested fixes.
type Result struct {
	Diagnostics []analysis.Diagnostic
}

// FindingsName is the name of the analyzer that lints a package; the rule
// analyzers require it.
const FindingsName = "kepdefaults"

// newFindings is the analyzer whose result is the findings of a package:
// it uses no facts, and keeps nothing between passes.
func newFindings(cfg Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       FindingsName,
		Doc:        "kepdefaults lists the crd generator's KEP-1929 findings that need no schema in the pass's files, with their markers and types; the rule analyzers report them.",
		ResultType: reflect.TypeOf((*Result)(nil)),
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, passFindings(pass, cfg), cfg), nil
		},
	}
}

// run turns the findings in the pass's files into diagnostics.
func run(pass *analysis.Pass, fs []model.Finding, cfg Config) *Result {
	return diagnose(pass.Fset, pass.Files, fs, cfg)
}

// diagnose turns the findings in files into diagnostics, with their
// suggested fixes, as cfg.Rules sets each rule.
func diagnose(fset *token.FileSet, syntax []*ast.File, fs []model.Finding, cfg Config) *Result {
	files := map[string]*token.File{}
	var astOf = map[*token.File]*ast.File{}
	for _, f := range syntax {
		tf := fset.File(f.Pos())
		if tf == nil {
			continue
		}
		astOf[tf] = f
		for _, name := range sameFileNames(tf.Name()) {
			files[name] = tf
		}
	}
	res := &Result{}
	wanted := map[string]bool{}
	for _, r := range Rules {
		wanted[r] = true
	}
	for _, f := range fs {
		if !wanted[f.Rule] || f.Sev == model.Note {
			continue
		}
		var ok bool
		if f, ok = cfg.apply(f); !ok {
			continue
		}
		tf := lookupFile(files, f.Pos.Filename)
		if tf == nil {
			continue // another package's file
		}
		pos, ok := position(tf, f.Pos)
		if !ok {
			continue
		}
		d := analysis.Diagnostic{Pos: pos, Category: f.Rule, Message: message(f)}
		if fix := suggestFix(f.Fix, fieldAt(astOf[tf], pos)); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	return res
}

// message is a finding as the analyzers report it: the crd generator's line
// without its position (the driver's to print) and JSON path (which needs
// the schema), "error: Type.Field: message [rule]" (findings.Finding's
// Body). The message starts with the severity, "error:" or "warning:", for
// golangci-lint's severity rules to match (its issues have no other field
// for it); the rule is the diagnostic's Category.
func message(f model.Finding) string {
	f.JPath = ""
	return f.Body()
}

// position is the position in tf of the line and column of p, which was
// read from the same file by another parse.
func position(tf *token.File, p token.Position) (token.Pos, bool) {
	if p.Line < 1 || p.Line > tf.LineCount() || p.Column < 1 {
		return token.NoPos, false
	}
	start := tf.LineStart(p.Line)
	off := tf.Offset(start) + p.Column - 1
	if off > tf.Size() {
		return token.NoPos, false
	}
	return tf.Pos(off), true
}

// sameFileNames are the names under which a file can be looked up: as
// given, cleaned, and with symbolic links resolved.
func sameFileNames(name string) []string {
	out := []string{name, filepath.Clean(name)}
	if r, err := filepath.EvalSymlinks(name); err == nil {
		out = append(out, r)
	}
	return out
}

func lookupFile(files map[string]*token.File, name string) *token.File {
	for _, n := range sameFileNames(name) {
		if tf := files[n]; tf != nil {
			return tf
		}
	}
	return nil
}

// fieldAt is the struct field that starts at pos, or nil.
func fieldAt(f *ast.File, pos token.Pos) *ast.Field {
	if f == nil {
		return nil
	}
	var found *ast.Field
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil || n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		if st, ok := n.(*ast.StructType); ok && st.Fields != nil {
			for _, fld := range st.Fields.List {
				if fld.Pos() == pos {
					found = fld
					return false
				}
			}
		}
		return true
	})
	return found
}

// passFindings are model.LintPackage's findings on the pass's package:
// its files (but tests) and types are the pass's (the driver's build tags,
// overlays);
// the packages it imports are loaded with controller-tools' loader when a
// type of theirs is first used, all together, for their types' markers.
func passFindings(pass *analysis.Pass, cfg Config) []model.Finding {
	col, checker := model.CRDMarkers()
	module := ""
	if pass.Module != nil {
		module = pass.Module.Path
	}
	files := nonTestFiles(pass)
	if len(files) == 0 {
		return nil // an external test package
	}
	dir := filepath.Dir(pass.Fset.Position(files[0].Package).Filename)
	return model.LintPackage(model.PassPackage{
		Fset: pass.Fset, Files: files, Types: pass.Pkg, Info: pass.TypesInfo, Module: module,
		Import: model.ImportsOf(pass.Pkg, &packages.Config{Dir: dir}),
	}, col, checker, model.Options{Implicit: cfg.ImplicitDefaults})
}

// nonTestFiles are the pass's files but its _test.go files, which drivers
// that analyse a package with its tests (go vet, golangci-lint) add: the
// crd generator reads no test file, and a test's types are in no CRD.
func nonTestFiles(pass *analysis.Pass) []*ast.File {
	var out []*ast.File
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && !strings.HasSuffix(tf.Name(), "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

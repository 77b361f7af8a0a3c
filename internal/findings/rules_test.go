package findings

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the docs' rule tables from the registry")

// moduleRoot is the repository's root, two levels up.
var moduleRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// ruleConstRx names the constants that hold a rule's name: Rule... and
// rule... (model, conversion, decision, crdgen), Finding... (impact).
var ruleConstRx = regexp.MustCompile(`^(Rule|rule|Finding)[A-Z]\w*$`)

// emittedRules are the rule names the module's code holds, read from its
// source (no import: the lint plugin's tests must not link apiserver code):
// the string constants whose names ruleConstRx matches, in every non-test
// file outside testdata, with where each is.
func emittedRules(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, p)
		if d.IsDir() {
			base := d.Name()
			if p != moduleRoot && (strings.HasPrefix(base, ".") || base == "testdata" || base == "vendor" || base == "bin" ||
				rel == filepath.Join("e2e", "assets") || rel == filepath.Join("internal", "findings")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !ruleConstRx.MatchString(name.Name) || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					out[v] = rel + ": " + name.Name
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRegistryIsTheCode fails when code emits a rule the registry lacks,
// or the registry names a rule no code emits, and when a rule is
// registered twice, emitted by no command, or documented under a heading
// its page lacks.
func TestRegistryIsTheCode(t *testing.T) {
	emitted := emittedRules(t)
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.Name] {
			t.Errorf("%s: registered twice", r.Name)
		}
		seen[r.Name] = true
		if _, ok := emitted[r.Name]; !ok {
			t.Errorf("%s: in the registry, but no code emits it (no Rule…/Finding… constant holds it)", r.Name)
		}
		if len(r.Commands) == 0 || r.Summary == "" {
			t.Errorf("%s: no commands or no summary", r.Name)
		}
		if r.SameRowAs != "" {
			if o, ok := Lookup(r.SameRowAs); !ok || o.SameRowAs != "" {
				t.Errorf("%s: shares the row of %q, which has no row of its own", r.Name, r.SameRowAs)
			}
		}
		doc, err := os.ReadFile(filepath.Join(moduleRoot, r.Page))
		if err != nil {
			t.Errorf("%s: %v", r.Name, err)
			continue
		}
		if !hasHeading(string(doc), r.Heading) {
			t.Errorf("%s: %s has no heading %q", r.Name, r.Page, r.Heading)
		}
	}
	for name, where := range emitted {
		if !seen[name] {
			t.Errorf("%s emits rule %q, which is not in the registry (internal/findings/rules.go)", where, name)
		}
	}
}

func hasHeading(doc, heading string) bool {
	for _, l := range strings.Split(doc, "\n") {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && strings.TrimSpace(h) == heading {
			return true
		}
	}
	return false
}

// TestRuleTables compares each docs page's rule table with the registry's
// rendering (RuleTable); -update rewrites them.
func TestRuleTables(t *testing.T) {
	cmds := make([]Command, 0, len(TablePages))
	for c := range TablePages {
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	for _, c := range cmds {
		file := filepath.Join(moduleRoot, TablePages[c])
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReplaceTable(string(b), c)
		if err != nil {
			t.Error(err)
			continue
		}
		if got == string(b) {
			continue
		}
		if *update {
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: the rule table of %s is not the registry's; run go test ./internal/findings -run TestRuleTables -update\nwant:\n%s", TablePages[c], c, RuleTable(c))
	}
}

func TestAnchor(t *testing.T) {
	for h, want := range map[string]string{
		`The rules (KEP-1929 "Changes to kubebuilder/default-gen")`:     "the-rules-kep-1929-changes-to-kubebuilderdefault-gen",
		"`conversion-lost-field`":                                       "conversion-lost-field",
		"Fields that encoding/json reads otherwise than controller-gen": "fields-that-encodingjson-reads-otherwise-than-controller-gen",
		"omitzero structs: rule 1 for today's encoding/json":            "omitzero-structs-rule-1-for-todays-encodingjson",
	} {
		if got := Anchor(h); got != want {
			t.Errorf("Anchor(%q) = %q, want %q", h, got, want)
		}
	}
}

package lint_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// configured is the analyzer of rule among lint.New(cfg).
func configured(t *testing.T, cfg lint.Config, rule string) *analysis.Analyzer {
	t.Helper()
	for i, a := range lint.New(cfg) {
		if lint.Rules[i] == rule {
			return a
		}
	}
	t.Fatalf("no analyzer for %s", rule)
	return nil
}

// TestRuleSettings: a rule set to error or warning is reported at that
// severity (its message starts with it), and a rule set to off is not
// reported; analysistest checks the `// want` lines of each package of
// testdata/src/rulesettings, and that nothing else is reported.
func TestRuleSettings(t *testing.T) {
	for _, c := range []struct{ flag, rule, pkg string }{
		{"omitempty-struct=error", "omitempty-struct", "errorsev"},
		{"default-type-mismatch=warning", "default-type-mismatch", "warningsev"},
		{"invalid-default=off", "invalid-default", "off"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			settings, err := lint.ParseRuleSettings(c.flag)
			if err != nil {
				t.Fatal(err)
			}
			cfg := lint.DefaultConfig
			cfg.Rules = settings
			analysistest.Run(t, repoRoot, configured(t, cfg, c.rule), "./lint/testdata/src/rulesettings/"+c.pkg)
		})
	}
	// without the setting, off's default is reported
	diags, err := lint.Run([]string{"./testdata/src/rulesettings/off"}, lint.Options{Config: lint.DefaultConfig})
	if err != nil || len(diags) != 1 || diags[0].Category != "invalid-default" {
		t.Errorf("invalid-default on: %v, %v; want one invalid-default", diags, err)
	}
}

// TestRunRuleSettings: Run, the lint command's driver, applies the same
// settings.
func TestRunRuleSettings(t *testing.T) {
	settings, err := lint.ParseRuleSettings("omitempty-struct=error,default-type-mismatch=off")
	if err != nil {
		t.Fatal(err)
	}
	diags, err := lint.Run([]string{"./testdata/src/rulesettings/errorsev"}, lint.Options{Config: lint.Config{ImplicitDefaults: true, Rules: settings}})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 1 || diags[0].Category != "omitempty-struct" || !strings.HasPrefix(diags[0].Message, "error: Kind.Spec: ") {
		t.Errorf("got %v, want one omitempty-struct error", diags)
	}
}

// TestParseRuleSettings: RULE=SETTING pairs, a rule of lint.Rules and one
// of off, on, error, warning; the last setting of a rule wins.
func TestParseRuleSettings(t *testing.T) {
	got, err := lint.ParseRuleSettings("omitempty-struct=off,invalid-default=warning,omitempty-struct=on,")
	if err != nil {
		t.Fatal(err)
	}
	if s := lint.FormatRuleSettings(got); s != "invalid-default=warning,omitempty-struct=on" {
		t.Errorf("got %s", s)
	}
	for _, bad := range []string{"omitempty-struct", "nope=off", "omitempty-struct=loud", "implicit-struct-default=off"} {
		if _, err := lint.ParseRuleSettings(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// RuleSetting is what one rule reports (Config.Rules): Off, or the
// severity of its findings. kube-api-linter names its linters in its
// registry and turns them on and off one by one; these settings do that
// for the rules of this linter, and set the severity too.
type RuleSetting string

const (
	// Off reports nothing of the rule.
	Off RuleSetting = "off"
	// On reports the rule as the crd generator does (the default).
	On RuleSetting = "on"
	// Error reports every finding of the rule as an error.
	Error RuleSetting = "error"
	// Warning reports every finding of the rule as a warning.
	Warning RuleSetting = "warning"
)

var ruleSettings = []RuleSetting{Off, On, Error, Warning}

// CheckRuleSetting reports an error for a rule that is not one of Rules,
// or a setting that is not off, on, error or warning.
func CheckRuleSetting(rule string, s RuleSetting) error {
	if !slices.Contains(Rules, rule) {
		return fmt.Errorf("unknown rule %q (rules: %s)", rule, strings.Join(Rules, ", "))
	}
	if !slices.Contains(ruleSettings, s) {
		return fmt.Errorf("rule %s: unknown setting %q (off, on, error or warning)", rule, s)
	}
	return nil
}

// ParseRuleSettings reads the -rules flag: comma-separated RULE=SETTING
// pairs, "omitempty-struct=off,default-on-required=error"; "" is none. A
// rule named twice keeps its last setting.
func ParseRuleSettings(s string) (map[string]RuleSetting, error) {
	out := map[string]RuleSetting{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		rule, setting, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("%q: want RULE=off|on|error|warning", part)
		}
		rule, setting = strings.TrimSpace(rule), strings.TrimSpace(setting)
		if err := CheckRuleSetting(rule, RuleSetting(setting)); err != nil {
			return nil, err
		}
		out[rule] = RuleSetting(setting)
	}
	return out, nil
}

// FormatRuleSettings is m as ParseRuleSettings reads it, by rule.
func FormatRuleSettings(m map[string]RuleSetting) string {
	parts := make([]string, 0, len(m))
	for r, s := range m {
		parts = append(parts, r+"="+string(s))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// Enabled reports whether cfg reports rule at all.
func (cfg Config) Enabled(rule string) bool { return cfg.Rules[rule] != Off }

// apply is f as cfg reports it, and false when its rule is off.
func (cfg Config) apply(f model.Finding) (model.Finding, bool) {
	switch cfg.Rules[f.Rule] {
	case Off:
		return f, false
	case Error:
		f.Sev = model.Error
	case Warning:
		f.Sev = model.Warning
	}
	return f, true
}

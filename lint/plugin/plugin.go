// Package plugin is the golangci-lint v2 module plugin "kepdefaults": the
// analyzers of package lint, registered with
// github.com/golangci/plugin-module-register. Build a golangci-lint with it
// (.custom-gcl.yml, see the README) and enable it in .golangci.yml:
//
//	linters:
//	  enable: [kepdefaults]
//	  settings:
//	    custom:
//	      kepdefaults:
//	        type: module
//	        settings:
//	          implicitDefaults: true          # as crd:implicitDefaults; false makes rule violations warnings
//	          disable: [omitempty-struct]     # rules not to report
//	          rules:                          # rules one by one: off, on, error or warning
//	            default-on-required: error
//	            conflicting-defaults: warning
package plugin

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

// Name is the linter's name in .golangci.yml.
const Name = "kepdefaults"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings in .golangci.yml.
type Settings struct {
	// ImplicitDefaults is the crd generator's implicitDefaults option
	// (default true): false reports KEP-1929 rule violations as warnings.
	ImplicitDefaults *bool `json:"implicitDefaults,omitempty"`
	// Disable lists rules (lint.Rules) not to report.
	Disable []string `json:"disable,omitempty"`
	// Rules set rules one by one (lint.Config.Rules): off, on, error or
	// warning. A rule in Disable is off whatever Rules says.
	Rules map[string]lint.RuleSetting `json:"rules,omitempty"`
}

// New is the plugin's constructor, called by golangci-lint with the
// settings from .golangci.yml.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Name, err)
	}
	for _, r := range s.Disable {
		if !slices.Contains(lint.Rules, r) {
			return nil, fmt.Errorf("%s: disable: unknown rule %q (rules: %v)", Name, r, lint.Rules)
		}
	}
	for r, v := range s.Rules {
		if err := lint.CheckRuleSetting(r, v); err != nil {
			return nil, fmt.Errorf("%s: rules: %w", Name, err)
		}
	}
	return &Plugin{settings: s}, nil
}

// Plugin is the kepdefaults linter.
type Plugin struct{ settings Settings }

// BuildAnalyzers returns one analyzer per rule that is not off.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	cfg := lint.DefaultConfig
	if p.settings.ImplicitDefaults != nil {
		cfg.ImplicitDefaults = *p.settings.ImplicitDefaults
	}
	cfg.Rules = map[string]lint.RuleSetting{}
	for r, v := range p.settings.Rules {
		cfg.Rules[r] = v
	}
	for _, r := range p.settings.Disable {
		cfg.Rules[r] = lint.Off
	}
	var out []*analysis.Analyzer
	for i, a := range lint.New(cfg) {
		if cfg.Enabled(lint.Rules[i]) {
			out = append(out, a)
		}
	}
	return out, nil
}

// GetLoadMode is typesinfo: the analyzers read the pass's files and the
// type checker's results on them.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

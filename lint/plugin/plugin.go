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
	return &Plugin{settings: s}, nil
}

// Plugin is the kepdefaults linter.
type Plugin struct{ settings Settings }

// BuildAnalyzers returns one analyzer per rule that is not disabled.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	cfg := lint.DefaultConfig
	if p.settings.ImplicitDefaults != nil {
		cfg.ImplicitDefaults = *p.settings.ImplicitDefaults
	}
	var out []*analysis.Analyzer
	for i, a := range lint.New(cfg) {
		if !slices.Contains(p.settings.Disable, lint.Rules[i]) {
			out = append(out, a)
		}
	}
	return out, nil
}

// GetLoadMode is typesinfo: the analyzers read the pass's files and the
// type checker's results on them.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

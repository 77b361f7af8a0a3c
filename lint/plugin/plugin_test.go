package plugin

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/controller-gen-default/controller-gen-default/lint"
)

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil) // no settings
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != len(lint.Rules) {
		t.Fatalf("%d analyzers, %v", len(as), err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %s", p.GetLoadMode())
	}
}

func TestSettings(t *testing.T) {
	p, err := New(map[string]any{"implicitDefaults": false, "disable": []any{"omitempty-struct"}})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	for _, a := range as {
		if a.Name == "omitemptystruct" {
			t.Error("omitempty-struct is disabled")
		}
	}
	if len(as) != len(lint.Rules)-1 {
		t.Errorf("%d analyzers", len(as))
	}
	for _, bad := range []map[string]any{{"disable": []any{"nope"}}, {"implicitDefault": true}} {
		if _, err := New(bad); err == nil || !strings.Contains(err.Error(), Name) {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// TestRulesSetting: rules sets rules one by one; off drops the rule's
// analyzer, as disable does; unknown rules and settings are refused.
func TestRulesSetting(t *testing.T) {
	p, err := New(map[string]any{"rules": map[string]any{"omitempty-struct": "off", "default-on-required": "error"}, "disable": []any{"invalid-default"}})
	if err != nil {
		t.Fatal(err)
	}
	as, _ := p.BuildAnalyzers()
	for _, a := range as {
		if a.Name == "omitemptystruct" || a.Name == "invaliddefault" {
			t.Errorf("%s is off", a.Name)
		}
	}
	if len(as) != len(lint.Rules)-2 {
		t.Errorf("%d analyzers", len(as))
	}
	for _, bad := range []map[string]any{{"rules": map[string]any{"nope": "off"}}, {"rules": map[string]any{"omitempty-struct": "loud"}}} {
		if _, err := New(bad); err == nil || !strings.Contains(err.Error(), Name+": rules:") {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

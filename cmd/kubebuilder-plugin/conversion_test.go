package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestConversionTarget: create webhook --conversion adds test-conversion
// right after test's recipe, once; without --conversion nothing is added;
// edit adds it to a project whose PROJECT file records a conversion webhook.
func TestConversionTarget(t *testing.T) {
	u := projectUniverse(t)
	adopted, _ := call(t, request(t, "init", nil, u))
	u["Makefile"] = adopted.Universe["Makefile"]
	args := []string{"--group", "ship", "--version", "v1", "--kind", "Frigate", "--conversion", "--spoke", "v2"}

	if resp, _ := call(t, request(t, "create webhook", args[:6], u)); strings.Contains(resp.Universe["Makefile"], conversionTarget) {
		t.Errorf("without --conversion the Makefile got %s", conversionTarget)
	}
	resp, stderr := call(t, request(t, "create webhook", args, u))
	mk := resp.Universe["Makefile"]
	if !strings.Contains(stderr, "make "+conversionTarget) {
		t.Errorf("stderr does not name the target: %q", stderr)
	}
	// Only the rule is added (after a blank line), right after test's recipe.
	block := "\n" + conversionRule("./api/...")
	onlyRule := func(before, after string) bool {
		return strings.Count(after, block) == 1 && strings.Replace(after, block, "", 1) == before
	}
	if !onlyRule(u["Makefile"], mk) {
		t.Errorf("diff:\n%s\nwant only:\n%s", lineDiff(u["Makefile"], mk), block)
	}
	lines := strings.Split(mk, "\n")
	test, conv := -1, -1
	for i, l := range lines {
		switch {
		case ruleRe("test").MatchString(l):
			test = i
		case ruleRe(conversionTarget).MatchString(l):
			conv = i
		}
	}
	if test < 0 || conv < test {
		t.Fatalf("test rule at line %d, %s at %d", test+1, conversionTarget, conv+1)
	}
	for _, l := range lines[test+1 : conv-2] {
		if !strings.HasPrefix(l, "\t") {
			t.Errorf("%s is not right after test's recipe: %q between them", conversionTarget, l)
		}
	}

	// Twice is once, also through edit.
	u["Makefile"] = mk
	if resp, _ := call(t, request(t, "create webhook", args, u)); resp.Universe["Makefile"] != "" && resp.Universe["Makefile"] != mk {
		t.Errorf("a second create webhook --conversion changed the Makefile")
	}
	withConv := request(t, "edit", nil, u)
	withConv.Config["resources"] = []any{map[string]any{"path": "example.com/fleet/api/v1", "webhooks": map[string]any{"conversion": true}}}
	if resp, _ := call(t, withConv); len(resp.Universe) != 0 {
		t.Errorf("edit of a Makefile that has the target changed %v", mapKeys(resp.Universe))
	}

	// edit adds it for a recorded conversion webhook.
	u["Makefile"] = adopted.Universe["Makefile"]
	withConv.Universe = u
	resp, stderr = call(t, withConv)
	if got := resp.Universe["Makefile"]; !onlyRule(u["Makefile"], got) {
		t.Errorf("edit with a conversion webhook: diff\n%s", lineDiff(u["Makefile"], got))
	}
	if !strings.Contains(stderr, "make "+conversionTarget) {
		t.Errorf("edit stderr does not name the target: %q", stderr)
	}
}

// TestAddConversionTarget: where the rule goes, and what is kept.
func TestAddConversionTarget(t *testing.T) {
	rule := conversionRule("./api/...")
	for _, tc := range []struct{ name, in, want string }{
		{"after a recipe with a continuation line",
			"all: build\n\ntest: fmt\n\tgo test \\\n\t  ./...\n\nbuild:\n\tgo build\n",
			"all: build\n\ntest: fmt\n\tgo test \\\n\t  ./...\n\n" + rule + "\nbuild:\n\tgo build\n"},
		{"no test rule: at the end",
			"build:\n\tgo build\n\n\n",
			"build:\n\tgo build\n\n" + rule},
		{"test= is a variable, not the rule",
			"test = x\nbuild:\n\tgo build\n",
			"test = x\nbuild:\n\tgo build\n\n" + rule},
		{"a rule of that name is kept",
			"test-conversion:\n\techo mine\n",
			"test-conversion:\n\techo mine\n"},
		{"CRLF",
			"test:\r\n\tgo test\r\n",
			"test:\r\n\tgo test\r\n\r\n" + strings.ReplaceAll(rule, "\n", "\r\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := addConversionTarget(tc.in, "./api/...")
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			if again, added := addConversionTarget(got, "./api/..."); added || again != got {
				t.Errorf("not idempotent")
			}
		})
	}
}

// TestAPIPackages: the pattern comes from the resources' packages in the
// PROJECT file; external resources (not under repo) do not count.
func TestAPIPackages(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{`{"repo":"example.com/fleet","resources":[{"path":"example.com/fleet/api/v1"}]}`, "./api/..."},
		{`{"repo":"example.com/fleet","resources":[{"path":"k8s.io/api/core/v1"},{"path":"example.com/fleet/apis/ship/v1"}]}`, "./apis/..."},
		{`{"repo":"example.com/fleet"}`, "./api/..."},
		{`{"resources":[{"path":"example.com/fleet/pkg/v1"}]}`, "./api/..."},
	} {
		var config map[string]any
		if err := json.Unmarshal([]byte(tc.config), &config); err != nil {
			t.Fatal(err)
		}
		if got := apiPackages(config); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.config, got, tc.want)
		}
	}
	for config, want := range map[string]bool{
		`{"resources":[{"webhooks":{"defaulting":true}},{"webhooks":{"conversion":true}}]}`: true,
		`{"resources":[{"webhooks":{"conversion":false}}]}`:                                 false,
		`{}`: false,
	} {
		var c map[string]any
		_ = json.Unmarshal([]byte(config), &c)
		if got := conversionWebhooks(c); got != want {
			t.Errorf("%s: %v, want %v", config, got, want)
		}
	}
}

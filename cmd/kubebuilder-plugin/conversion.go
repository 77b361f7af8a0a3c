package main

import (
	"path"
	"strings"
)

// conversionTarget is the rule that runs `controller-gen-default conversion`
// on the project's API: the round trips between its versions and the
// defaults that disagree across them, through the API's own ConvertTo and
// ConvertFrom. It sits next to test, and like test it runs manifests and
// generate first, so that the API packages compile and the CRDs are those
// of the types.
const conversionTarget = "test-conversion"

// conversionRule is the rule, for the API packages pattern pkgs.
func conversionRule(pkgs string) string {
	return ".PHONY: " + conversionTarget + "\n" +
		conversionTarget + ": manifests generate ## Check the API's conversion code: fields that round trips between versions lose, defaults that disagree across versions.\n" +
		"\t\"$(CONTROLLER_GEN)\" conversion " + pkgs + "\n"
}

// addConversionTarget adds conversionRule after the recipe of the test rule
// (at the end of the Makefile if there is none). A Makefile that already
// has a rule of that name is left as it is, so that the edit is idempotent
// and a rule the user changed is kept.
func addConversionTarget(mk, pkgs string) (string, bool) {
	lines := strings.Split(mk, "\n")
	if hasRule(lines, conversionTarget) {
		return mk, false
	}
	rule := strings.Split(strings.TrimSuffix(conversionRule(pkgs), "\n"), "\n")
	at := -1
	for i, l := range lines {
		if ruleRe("test").MatchString(l) {
			at = i + 1
			// the recipe: lines that start with a tab, and continuation lines
			for at < len(lines) && (strings.HasPrefix(lines[at], "\t") || strings.HasSuffix(strings.TrimRight(lines[at-1], "\r"), "\\")) {
				at++
			}
			break
		}
	}
	cr := ""
	if len(lines) > 0 {
		cr = crOf(lines[0])
	}
	for i := range rule {
		rule[i] += cr
	}
	if at < 0 {
		// no test rule: at the end, after a blank line
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		lines = append(append(lines, cr), rule...)
		return strings.Join(lines, "\n") + "\n", true
	}
	block := append([]string{cr}, rule...)
	lines = append(lines[:at], append(block, lines[at:]...)...)
	return strings.Join(lines, "\n"), true
}

// conversionWebhooks: the PROJECT file lists a resource with a conversion
// webhook (resources[].webhooks.conversion), as kubebuilder records
// `create webhook --conversion`.
func conversionWebhooks(config map[string]any) bool {
	resources, _ := config["resources"].([]any)
	for _, r := range resources {
		res, _ := r.(map[string]any)
		webhooks, _ := res["webhooks"].(map[string]any)
		if conv, _ := webhooks["conversion"].(bool); conv {
			return true
		}
	}
	return false
}

// apiPackages is the pattern of the project's API packages: the top
// directory of the resources' Go packages (resources[].path, under the
// repo), api/ in go/v4's layout, apis/ in older ones; ./api/... when the
// PROJECT file does not say.
func apiPackages(config map[string]any) string {
	repo, _ := config["repo"].(string)
	resources, _ := config["resources"].([]any)
	for _, r := range resources {
		res, _ := r.(map[string]any)
		p, _ := res["path"].(string)
		rel, ok := strings.CutPrefix(p, repo+"/")
		if repo == "" || !ok || rel == "" {
			continue
		}
		top, _, _ := strings.Cut(rel, "/")
		return "./" + path.Clean(top) + "/..."
	}
	return "./api/..."
}

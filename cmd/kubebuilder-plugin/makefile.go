package main

import (
	"regexp"
	"strings"
)

// What the plugin writes into a project's Makefile.
const (
	toolPackage      = selfModule + "/cmd/controller-gen-default"
	normalizePackage = selfModule + "/cmd/controller-gen-default-normalize"
	toolBinary       = "controller-gen-default"
	normalizeBinary  = "controller-gen-default-normalize"
	toolVersionVar   = "CONTROLLER_GEN_DEFAULT_VERSION"
	toolCheckoutVar  = "CONTROLLER_GEN_DEFAULT_CHECKOUT"
	assetsModule     = selfModule + "/e2e/assets"
	stockToolPackage = "sigs.k8s.io/controller-tools/cmd/controller-gen"
	// The two lines of the rule that makes $(CONTROLLER_GEN), with a version:
	// kubebuilder's go-install-tool installs each binary as
	// $(LOCALBIN)/<name>-<version> and links $(LOCALBIN)/<name> to it, so
	// controller-gen-default-normalize is next to controller-gen-default,
	// where `controller-gen-default normalize` looks for it.
	installCall          = "$(call go-install-tool,$(CONTROLLER_GEN)," + toolPackage + ",$(" + toolVersionVar + "))"
	installNormalizeCall = "$(call go-install-tool,$(CONTROLLER_GEN)-normalize," + normalizePackage + ",$(" + toolVersionVar + "))"
	// The same from a checkout: go-build-checkout-tool (checkoutBlock).
	buildCall          = "$(call " + buildTool + ",$(CONTROLLER_GEN),./cmd/" + toolBinary + ")"
	buildNormalizeCall = "$(call " + buildTool + ",$(CONTROLLER_GEN)-normalize,./cmd/" + normalizeBinary + ")"
	buildTool          = "go-build-checkout-tool"
	offlineBeginMark   = "# BEGIN offline-envtest"
	offlineEndMark     = "# END offline-envtest"
	checkoutBeginMark  = "# BEGIN controller-gen-default checkout"
	checkoutEndMark    = "# END controller-gen-default checkout"
)

// envtestK8sVersion is the Kubernetes version that e2e/assets/build.sh
// builds (k8s.io/kubernetes in e2e/assets/go.mod);
// TestEnvtestVersionMatchesAssetBuilder keeps the two equal.
const envtestK8sVersion = "1.37.1"

// makefileOptions are the plugin's init and edit flags.
type makefileOptions struct {
	// source is where the Makefile gets the tools.
	source toolSource
	// sourceSet: the user gave --controller-gen-default-version or
	// --controller-gen-default-checkout, so the Makefile's choice is
	// replaced, not kept.
	sourceSet bool
	// offlineEnvtest: true adds (or refreshes) the offline-envtest block,
	// false with offlineEnvtestSet removes it, false alone leaves it be.
	offlineEnvtest    bool
	offlineEnvtestSet bool
}

// unrecognisedError is returned when the Makefile cannot be edited safely.
type unrecognisedError struct{ problems []problem }

func (e *unrecognisedError) Error() string { return strings.Join(e.messages(), "\n") }

// messages is the text of the error response: what is wrong, then what to
// change by hand.
func (e *unrecognisedError) messages() []string {
	msgs := []string{"the Makefile is not one that " + pluginKey + " knows how to edit, so it changed nothing:"}
	for _, p := range e.problems {
		msgs = append(msgs, "  - "+problemTable[p.kind](p))
	}
	return append(msgs,
		"Make the Makefile run controller-gen-default by hand (it takes controller-gen's arguments):",
		"  CONTROLLER_GEN ?= $(LOCALBIN)/"+toolBinary,
		"  "+toolVersionVar+" ?= <version, e.g. v0.1.0>",
		"  and in the rule that installs $(CONTROLLER_GEN), both binaries:",
		"  "+installCall,
		"  "+installNormalizeCall,
		"  (without kubebuilder's go-install-tool: GOBIN=$(LOCALBIN) go install "+toolPackage+"@$("+toolVersionVar+") "+normalizePackage+"@$("+toolVersionVar+"),",
		"  or from a checkout: go -C <checkout> build -o $(LOCALBIN)/ ./cmd/"+toolBinary+" ./cmd/"+normalizeBinary+")",
		"  and, for the Go defaulters (zz_generated.defaults.go), next to object:… in the generate recipe the same arguments for defaults:",
		"  \"$(CONTROLLER_GEN)\" object:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) defaults:headerFile=\"hack/boilerplate.go.txt\",year=$(YEAR) paths=\"./...\"",
		"Recipes otherwise keep running \"$(CONTROLLER_GEN)\" with the same arguments. Then run `kubebuilder edit --plugins "+pluginKey+"` again: it changes nothing once the Makefile is right.",
	)
}

var (
	// CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen, any assignment operator.
	controllerGenAssign = regexp.MustCompile(`^(\s*(?:export\s+|override\s+)?CONTROLLER_GEN\s*(?:\?=|:=|::=|=)\s*)(\S*)(.*)$`)
	// $(call go-install-tool,$(CONTROLLER_GEN),<package>,<version>)
	installCallRe = regexp.MustCompile(`\$\(call\s+go-install-tool\s*,\s*\$[({]CONTROLLER_GEN[)}]\s*,\s*([^,\s]+)\s*,\s*(\$[({][A-Za-z0-9_]+[)}]|[^)\s]+)\s*\)`)
	// NAME ?= value
	assignRe = func(name string) *regexp.Regexp {
		return regexp.MustCompile(`^(\s*(?:export\s+|override\s+)?` + regexp.QuoteMeta(name) + `\s*(?:\?=|:=|::=|=)\s*)(.*?)(\s*)$`)
	}
	// $(call go-build-checkout-tool,$(CONTROLLER_GEN),<package>)
	buildCallRe        = regexp.MustCompile(`\$\(call\s+` + buildTool + `\s*,\s*\$[({]CONTROLLER_GEN[)}]\s*,\s*([^,\s)]+)\s*\)`)
	toolsVersionAssign = assignRe("CONTROLLER_TOOLS_VERSION")
	toolVersionAssign  = assignRe(toolVersionVar)
	toolCheckoutAssign = assignRe(toolCheckoutVar)
	localbinAssign     = assignRe("LOCALBIN")
	ruleRe             = func(target string) *regexp.Regexp {
		return regexp.MustCompile(`^` + regexp.QuoteMeta(target) + `\s*:([^=]|$)`)
	}
)

// assignedValue is the value of the first assignment that re matches, and
// its line (1-based).
func assignedValue(lines []string, re *regexp.Regexp) (string, int) {
	for i, l := range lines {
		if m := re.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			return m[2], i + 1
		}
	}
	return "", 0
}

// setAssignment sets the variable that re matches to value, or adds
// comment and `name ?= value` after CONTROLLER_TOOLS_VERSION (else after
// CONTROLLER_GEN).
func setAssignment(lines []string, re *regexp.Regexp, comment, name, value string) []string {
	for i, l := range lines {
		if m := re.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if m[2] != value {
				lines[i] = m[1] + value + crOf(l)
			}
			return lines
		}
	}
	at := -1
	for i, l := range lines {
		if toolsVersionAssign.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			at = i
			break
		}
	}
	if at < 0 {
		for i, l := range lines {
			if controllerGenAssign.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				at = i
				break
			}
		}
	}
	cr := crOf(lines[at])
	add := []string{comment + cr, name + " ?= " + value + cr}
	return append(lines[:at+1], append(add, lines[at+1:]...)...)
}

// removeAssignment drops the variable that re matches, and the comment
// line above it that starts with commentPrefix.
func removeAssignment(lines []string, re *regexp.Regexp, commentPrefix string) []string {
	for i, l := range lines {
		if !re.MatchString(strings.TrimRight(l, "\r")) || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		from := i
		if i > 0 && strings.HasPrefix(lines[i-1], commentPrefix) {
			from = i - 1
		}
		return append(lines[:from], lines[i+1:]...)
	}
	return lines
}

// checkoutBlock defines go-build-checkout-tool, the go-install-tool of a
// checkout: it builds a main package of $(CONTROLLER_GEN_DEFAULT_CHECKOUT)
// into $(1)-checkout and links $(1) to it.
func checkoutBlock() string {
	return strings.Join([]string{
		checkoutBeginMark + " (written by the kubebuilder plugin " + pluginKey + ";",
		"# `kubebuilder edit --plugins " + pluginKey + " --" + flagToolVersion + " <version>` replaces it with go install)",
		"# " + buildTool + " builds the main package $(2) of the controller-gen-default checkout",
		"# $(" + toolCheckoutVar + ") into $(1)-checkout and links $(1) to it, as go-install-tool",
		"# installs $(1)-<version>. It runs go build every time: go rebuilds only what changed in the",
		"# checkout, downloads nothing that the module cache holds, and never writes to the checkout.",
		"# $1 - target path with name of binary",
		"# $2 - main package in the checkout",
		"define " + buildTool,
		"@set -e; \\",
		"[ -f \"$(" + toolCheckoutVar + ")/go.mod\" ] || { \\",
		"echo \"error: " + toolCheckoutVar + "='$(" + toolCheckoutVar + ")' is not a checkout of controller-gen-default (no go.mod): set it, or run kubebuilder edit --plugins " + pluginKey + " --" + flagToolVersion + " <version>\" >&2; \\",
		"exit 1; \\",
		"}; \\",
		"[ \"$$(readlink -- \"$(1)\" 2>/dev/null)\" = \"$(abspath $(1))-checkout\" ] || echo \"Building $(2) from $(" + toolCheckoutVar + ")\"; \\",
		"go -C \"$(" + toolCheckoutVar + ")\" build -mod=readonly -o \"$(abspath $(1))-checkout\" \"$(2)\"; \\",
		"ln -sf \"$(abspath $(1))-checkout\" \"$(1)\"",
		"endef",
		checkoutEndMark,
		"",
	}, "\n")
}

// putCheckoutBlock puts checkoutBlock in place of the one there, or after
// the definition of go-install-tool, or at the end.
func putCheckoutBlock(mk string) string {
	block := checkoutBlock()
	if strings.Contains(mk, "\r\n") {
		block = strings.ReplaceAll(block, "\n", "\r\n")
	}
	if _, ok := markedBlock(mk, checkoutBeginMark, checkoutEndMark); ok {
		return replaceMarked(mk, checkoutBeginMark, checkoutEndMark, block)
	}
	if i := strings.Index(mk, "\ndefine go-install-tool"); i >= 0 {
		if j := strings.Index(mk[i:], "\nendef"); j >= 0 {
			at := i + j + len("\nendef")
			if nl := strings.IndexByte(mk[at:], '\n'); nl >= 0 {
				at += nl + 1
				return mk[:at] + "\n" + block + mk[at:]
			}
		}
	}
	return replaceMarked(mk, checkoutBeginMark, checkoutEndMark, block)
}

// renameBinaryPaths rewrites $(LOCALBIN)/controller-gen, a path to the
// binary that the install rule no longer makes, to the renamed binary.
func renameBinaryPaths(l string) string {
	for _, dir := range []string{"$(LOCALBIN)", "${LOCALBIN}"} {
		old := dir + "/controller-gen"
		var b strings.Builder
		rest := l
		for {
			i := strings.Index(rest, old)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			end := i + len(old)
			b.WriteString(rest[:end])
			if end == len(rest) || !isNameByte(rest[end]) {
				b.WriteString("-default")
			}
			rest = rest[end:]
		}
		l = b.String()
	}
	return l
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func hasAssignment(lines []string, re *regexp.Regexp) bool {
	for _, l := range lines {
		if re.MatchString(l) && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			return true
		}
	}
	return false
}

func hasRule(lines []string, target string) bool {
	re := ruleRe(target)
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// crOf keeps CRLF line endings.
func crOf(l string) string {
	if strings.HasSuffix(l, "\r") {
		return "\r"
	}
	return ""
}

// replaceBlock puts block (empty: nothing) in place of the offline-envtest
// block, or at the end of the Makefile when there is none.
func replaceBlock(mk, block string) string {
	return replaceMarked(mk, offlineBeginMark, offlineEndMark, block)
}

// markedBlock is the [start, end) of the lines from beginMark to endMark
// (marks at the start of a line), and whether there is one.
func markedBlock(mk, beginMark, endMark string) ([2]int, bool) {
	begin := strings.Index(mk, beginMark)
	if begin < 0 || begin > 0 && mk[begin-1] != '\n' {
		return [2]int{}, false
	}
	end := strings.Index(mk[begin:], endMark)
	if end < 0 {
		return [2]int{}, false
	}
	end += begin + len(endMark)
	if nl := strings.IndexByte(mk[end:], '\n'); nl >= 0 {
		end += nl + 1
	} else {
		end = len(mk)
	}
	return [2]int{begin, end}, true
}

// replaceMarked puts block (empty: nothing) in place of the lines from
// beginMark to endMark, or at the end of the Makefile when there are none.
func replaceMarked(mk, beginMark, endMark, block string) string {
	if r, ok := markedBlock(mk, beginMark, endMark); ok {
		begin, end := r[0], r[1]
		if block == "" {
			// Drop the blank line that was added before the block.
			head := strings.TrimSuffix(mk[:begin], "\n")
			if strings.HasSuffix(head, "\n") {
				return head + mk[end:]
			}
			return mk[:begin] + mk[end:]
		}
		return mk[:begin] + block + mk[end:]
	}
	if block == "" {
		return mk
	}
	if mk != "" && !strings.HasSuffix(mk, "\n") {
		mk += "\n"
	}
	if mk != "" && !strings.HasSuffix(mk, "\n\n") {
		mk += "\n"
	}
	return mk + block
}

// offlineBlock is the Makefile text of --offline-envtest. It builds the
// envtest binaries with controller-gen-default's own asset builder,
// e2e/assets/build.sh of the module
// github.com/controller-gen-default/controller-gen-default/e2e/assets, which
// it downloads through the Go module proxy (or takes from
// CONTROLLER_GEN_DEFAULT_ASSETS_DIR), and makes setup-envtest (and test)
// depend on it.
func offlineBlock(lines []string) string {
	var b strings.Builder
	w := func(s ...string) {
		for _, l := range s {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	w(offlineBeginMark+" (written by the kubebuilder plugin "+pluginKey+";",
		"# `kubebuilder edit --plugins "+pluginKey+" --offline-envtest` rewrites it, --offline-envtest=false removes it)",
		"##@ Offline envtest",
		"",
		"## envtest-assets builds kube-apiserver and etcd from Go modules into",
		"## $(LOCALBIN)/k8s/<X.Y.Z>-<os>-<arch>/, where setup-envtest finds them without",
		"## downloading envtest binaries from the internet: only the Go module proxy is used.",
		"## It runs controller-gen-default's asset builder (e2e/assets/build.sh); the first",
		"## build takes 5 to 10 minutes, later runs reuse the binaries.",
		"ENVTEST_K8S_VERSION = "+envtestK8sVersion,
		"#CONTROLLER_GEN_DEFAULT_ASSETS is the Go module of the asset builder",
		"CONTROLLER_GEN_DEFAULT_ASSETS ?= "+assetsModule+"@$("+toolVersionVar+")",
		"#CONTROLLER_GEN_DEFAULT_ASSETS_DIR, if set, is a copy of that module to use instead: a checkout's e2e/assets,",
		"#by default that of "+toolCheckoutVar+" when the tools are built from a checkout",
		"CONTROLLER_GEN_DEFAULT_ASSETS_DIR ?= $(if $("+toolCheckoutVar+"),$("+toolCheckoutVar+")/e2e/assets)",
		"",
		".PHONY: envtest-assets",
		"envtest-assets: ## Build kube-apiserver and etcd for envtest from Go modules.",
		"\t@dir=\"$(CONTROLLER_GEN_DEFAULT_ASSETS_DIR)\"; \\",
		"\tif [ -z \"$$dir\" ]; then \\",
		"\t\tjson=\"$$(cd / && GOWORK=off GOFLAGS= go mod download -json \"$(CONTROLLER_GEN_DEFAULT_ASSETS)\")\" || { \\",
		"\t\t\techo \"$$json\" >&2; \\",
		"\t\t\techo \"error: cannot download $(CONTROLLER_GEN_DEFAULT_ASSETS); set CONTROLLER_GEN_DEFAULT_ASSETS_DIR to a checkout's e2e/assets\" >&2; \\",
		"\t\t\texit 1; \\",
		"\t\t}; \\",
		"\t\tdir=\"$$(printf '%s\\n' \"$$json\" | sed -n 's/^[[:space:]]*\"Dir\": \"\\(.*\\)\",*$$/\\1/p')\"; \\",
		"\tfi; \\",
		"\t[ -f \"$$dir/build.sh\" ] || { echo \"error: no build.sh in '$$dir'\" >&2; exit 1; }; \\",
		"\tout=\"$$(KUBEBUILDER_ASSETS= bash \"$$dir/build.sh\" \"$(LOCALBIN)/k8s\")\" || exit 1; \\",
		"\tout=\"$$(printf '%s\\n' \"$$out\" | tail -n 1)\"; \\",
		"\tcase \"$$(basename \"$$out\")\" in \\",
		"\t\t\"$(ENVTEST_K8S_VERSION)\"-*) echo \"envtest binaries for Kubernetes $(ENVTEST_K8S_VERSION) in $$out\" ;; \\",
		"\t\t*) echo \"error: the asset builder made $$out, not Kubernetes $(ENVTEST_K8S_VERSION): set ENVTEST_K8S_VERSION to its version\" >&2; exit 1 ;; \\",
		"\tesac",
	)
	deps := []string{}
	for _, t := range []string{"setup-envtest", "test"} {
		if hasRule(lines, t) {
			deps = append(deps, t+": envtest-assets")
		}
	}
	if len(deps) > 0 {
		w("")
		w(deps...)
	}
	w(offlineEndMark)
	return b.String()
}

// addDefaultsGenerator adds the defaults generator next to the object
// generator wherever a recipe runs controller-gen-default with object:
// `object:headerFile="hack/boilerplate.go.txt",year=$(YEAR)` is followed by
// ` defaults:headerFile="hack/boilerplate.go.txt",year=$(YEAR)`, the same
// arguments. A command that already runs defaults is left alone, and
// nothing else of the line changes. It reports whether it changed a line,
// and whether, afterwards, some recipe runs the defaults generator.
func addDefaultsGenerator(lines []string) (changed, runsDefaults bool) {
	for start := 0; start < len(lines); {
		// A command is a recipe line and its backslash continuations.
		end := start
		for end < len(lines)-1 && strings.HasSuffix(strings.TrimRight(lines[end], "\r"), "\\") {
			end++
		}
		cmd := lines[start : end+1]
		start = end + 1
		if !strings.HasPrefix(cmd[0], "\t") || !runsControllerGen(cmd) {
			continue
		}
		line, at, object := -1, 0, ""
		hasDefaults := false
		for i, l := range cmd {
			for _, tok := range shellTokens(l) {
				word := l[tok[0]:tok[1]]
				switch {
				case word == "object" || strings.HasPrefix(word, "object:"):
					if line < 0 {
						line, at, object = i, tok[1], word
					}
				case word == "defaults" || strings.HasPrefix(word, "defaults:"):
					hasDefaults = true
				}
			}
		}
		if hasDefaults {
			runsDefaults = true
			continue
		}
		if line < 0 {
			continue
		}
		l := cmd[line]
		cmd[line] = l[:at] + " defaults" + strings.TrimPrefix(object, "object") + l[at:]
		changed, runsDefaults = true, true
	}
	return changed, runsDefaults
}

// runsControllerGen: the command runs $(CONTROLLER_GEN) or controller-gen-default by path.
func runsControllerGen(cmd []string) bool {
	for _, l := range cmd {
		if strings.Contains(l, "$(CONTROLLER_GEN)") || strings.Contains(l, "${CONTROLLER_GEN}") {
			return true
		}
		for _, tok := range shellTokens(l) {
			if w := strings.Trim(l[tok[0]:tok[1]], `"'`); w == toolBinary || strings.HasSuffix(w, "/"+toolBinary) {
				return true
			}
		}
	}
	return false
}

// shellTokens are the [start, end) offsets of the words of a recipe line,
// split at blanks outside quotes and outside make's $(…) and ${…}.
func shellTokens(l string) [][2]int {
	var toks [][2]int
	start, quote, depth := -1, byte(0), 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		blank := c == ' ' || c == '\t' || c == '\r'
		if start < 0 && !blank {
			start = i
		}
		switch {
		case c == '$' && i+1 < len(l) && (l[i+1] == '(' || l[i+1] == '{'):
			depth++
			i++
		case depth > 0 && (c == ')' || c == '}'):
			depth--
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case blank && depth == 0 && start >= 0:
			toks = append(toks, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, [2]int{start, len(l)})
	}
	return toks
}

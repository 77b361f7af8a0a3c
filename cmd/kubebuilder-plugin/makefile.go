package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// What the plugin writes into a project's Makefile.
const (
	toolPackage       = "github.com/controller-gen-default/controller-gen-default/cmd/controller-gen-default"
	toolBinary        = "controller-gen-default"
	toolVersionVar    = "CONTROLLER_GEN_DEFAULT_VERSION"
	assetsModule      = "github.com/controller-gen-default/controller-gen-default/e2e/assets"
	stockToolPackage  = "sigs.k8s.io/controller-tools/cmd/controller-gen"
	installCall       = "$(call go-install-tool,$(CONTROLLER_GEN)," + toolPackage + ",$(" + toolVersionVar + "))"
	offlineBeginMark  = "# BEGIN offline-envtest"
	offlineEndMark    = "# END offline-envtest"
	defaultToolVerStr = "latest"
)

// envtestK8sVersion is the Kubernetes version that e2e/assets/build.sh
// builds (k8s.io/kubernetes in e2e/assets/go.mod);
// TestEnvtestVersionMatchesAssetBuilder keeps the two equal.
const envtestK8sVersion = "1.37.1"

// makefileOptions are the plugin's init and edit flags.
type makefileOptions struct {
	// toolVersion is the controller-gen-default version to install.
	toolVersion string
	// toolVersionSet: the user gave --controller-gen-default-version, so an
	// existing CONTROLLER_GEN_DEFAULT_VERSION is updated, not kept.
	toolVersionSet bool
	// offlineEnvtest: true adds (or refreshes) the offline-envtest block,
	// false with offlineEnvtestSet removes it, false alone leaves it be.
	offlineEnvtest    bool
	offlineEnvtestSet bool
}

// unrecognisedError is returned when the Makefile cannot be edited safely.
type unrecognisedError struct{ problems []string }

func (e *unrecognisedError) Error() string { return strings.Join(e.messages(), "\n") }

// messages is the text of the error response: what is wrong, then what to
// change by hand.
func (e *unrecognisedError) messages() []string {
	msgs := []string{"the Makefile is not one that " + pluginKey + " knows how to edit, so it changed nothing:"}
	for _, p := range e.problems {
		msgs = append(msgs, "  - "+p)
	}
	return append(msgs,
		"Make the Makefile run controller-gen-default by hand (it takes controller-gen's arguments):",
		"  CONTROLLER_GEN ?= $(LOCALBIN)/"+toolBinary,
		"  "+toolVersionVar+" ?= <version, e.g. latest>",
		"  and in the rule that installs $(CONTROLLER_GEN):",
		"  "+installCall,
		"  (without kubebuilder's go-install-tool: GOBIN=$(LOCALBIN) go install "+toolPackage+"@$("+toolVersionVar+"))",
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
	toolsVersionAssign = assignRe("CONTROLLER_TOOLS_VERSION")
	toolVersionAssign  = assignRe(toolVersionVar)
	localbinAssign     = assignRe("LOCALBIN")
	ruleRe             = func(target string) *regexp.Regexp {
		return regexp.MustCompile(`^` + regexp.QuoteMeta(target) + `\s*:([^=]|$)`)
	}
)

// editMakefile returns the Makefile that runs controller-gen-default wherever
// the input runs controller-gen. It changes only what it must and is
// idempotent: editMakefile(editMakefile(m)) == editMakefile(m). It returns
// an *unrecognisedError, and nothing else, when it cannot do that safely.
func editMakefile(in string, opts makefileOptions) (string, error) {
	lines := strings.Split(in, "\n")
	var problems []string

	// 1. CONTROLLER_GEN points at the controller-gen-default binary: the
	// scaffold's go-install-tool moves $(LOCALBIN)/<basename of
	// CONTROLLER_GEN> after `go install`, so the basename must be the
	// binary's name.
	assigns := 0
	for i, l := range lines {
		m := controllerGenAssign.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		assigns++
		val := m[2]
		switch {
		case strings.HasSuffix(val, "/"+toolBinary) || val == toolBinary:
		case strings.HasSuffix(val, "/controller-gen"):
			lines[i] = m[1] + val + "-default" + m[3] + crOf(l)
		default:
			problems = append(problems, fmt.Sprintf("line %d: CONTROLLER_GEN is %q, not a path ending in /controller-gen", i+1, val))
		}
	}
	if assigns == 0 {
		problems = append(problems, "no assignment `CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen`")
	}

	// 2. The rule that installs $(CONTROLLER_GEN) installs our package.
	calls, needsVersionVar := 0, false
	for i, l := range lines {
		locs := installCallRe.FindAllStringSubmatchIndex(l, -1)
		if locs == nil {
			continue
		}
		var b strings.Builder
		last := 0
		for _, loc := range locs {
			pkg, ver := l[loc[2]:loc[3]], l[loc[4]:loc[5]]
			b.WriteString(l[last:loc[0]])
			switch pkg {
			case stockToolPackage:
				b.WriteString(installCall)
				needsVersionVar = true
			case toolPackage:
				b.WriteString(l[loc[0]:loc[1]])
				needsVersionVar = needsVersionVar || ver == "$("+toolVersionVar+")" || ver == "${"+toolVersionVar+"}"
			default:
				problems = append(problems, fmt.Sprintf("line %d: $(CONTROLLER_GEN) is installed from %s, not %s", i+1, pkg, stockToolPackage))
				b.WriteString(l[loc[0]:loc[1]])
			}
			calls++
			last = loc[1]
		}
		b.WriteString(l[last:])
		lines[i] = b.String()
	}
	if calls == 0 {
		problems = append(problems, "no rule that installs it with `$(call go-install-tool,$(CONTROLLER_GEN),"+stockToolPackage+",$(CONTROLLER_TOOLS_VERSION))`")
	}

	// 3. Nothing else installs or runs the stock controller-gen.
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if strings.Contains(l, stockToolPackage) {
			problems = append(problems, fmt.Sprintf("line %d runs %s directly: %s", i+1, stockToolPackage, strings.TrimSpace(l)))
		}
	}
	if len(problems) > 0 {
		return "", &unrecognisedError{problems: problems}
	}

	// Recipes that name the binary by path run the renamed binary.
	for i, l := range lines {
		lines[i] = renameBinaryPaths(l)
	}

	// The recipes that run the object generator also run defaults.
	addDefaultsGenerator(lines)

	// 4. The version variable, next to CONTROLLER_TOOLS_VERSION.
	if needsVersionVar {
		lines = setToolVersion(lines, opts)
	}

	out := strings.Join(lines, "\n")

	// 5. The offline-envtest block.
	switch {
	case opts.offlineEnvtest:
		if !hasAssignment(lines, localbinAssign) {
			return "", errors.New("--offline-envtest: the Makefile has no LOCALBIN variable, the directory whose k8s/ subdirectory setup-envtest reads; " +
				"define LOCALBIN ?= $(shell pwd)/bin and pass --bin-dir \"$(LOCALBIN)\" to setup-envtest, or leave out --offline-envtest")
		}
		out = replaceBlock(out, offlineBlock(lines))
	case opts.offlineEnvtestSet:
		out = replaceBlock(out, "")
	}
	return out, nil
}

// setToolVersion adds `CONTROLLER_GEN_DEFAULT_VERSION ?= <version>` after
// CONTROLLER_TOOLS_VERSION (else after CONTROLLER_GEN), or updates it when
// the user asked for a version.
func setToolVersion(lines []string, opts makefileOptions) []string {
	for i, l := range lines {
		if m := toolVersionAssign.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			if opts.toolVersionSet && m[2] != opts.toolVersion {
				lines[i] = m[1] + opts.toolVersion + crOf(l)
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
	add := []string{
		"#" + toolVersionVar + " is the version of controller-gen-default (controller-gen with KEP-1929 defaults) that CONTROLLER_GEN installs" + cr,
		toolVersionVar + " ?= " + opts.toolVersion + cr,
	}
	return append(lines[:at+1], append(add, lines[at+1:]...)...)
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
	begin := strings.Index(mk, offlineBeginMark)
	if begin >= 0 && (begin == 0 || mk[begin-1] == '\n') {
		end := strings.Index(mk[begin:], offlineEndMark)
		if end >= 0 {
			end += begin + len(offlineEndMark)
			if nl := strings.IndexByte(mk[end:], '\n'); nl >= 0 {
				end += nl + 1
			} else {
				end = len(mk)
			}
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
		"#CONTROLLER_GEN_DEFAULT_ASSETS_DIR, if set, is a copy of that module to use instead (e.g. a checkout's e2e/assets)",
		"CONTROLLER_GEN_DEFAULT_ASSETS_DIR ?=",
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

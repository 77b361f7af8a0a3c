package main

import (
	"errors"
	"fmt"
	"strings"
)

// editMakefile is three passes over the Makefile, as editDefaulters is:
// findMakefile reads what is there (the CONTROLLER_GEN assignments, the
// calls that make $(CONTROLLER_GEN), the variables and blocks of the
// plugin), planMakefile decides the edits, each of a kind in
// makefileEditTable, or the problems that keep it from editing, each of a
// kind in problemTable, and applyMakefile makes the edits, one pass each.

// editMakefile returns the Makefile that runs controller-gen-default wherever
// the input runs controller-gen. It changes only what it must and is
// idempotent: editMakefile(editMakefile(m)) == editMakefile(m). It returns
// an *unrecognisedError, and nothing else, when it cannot do that safely,
// and notes to print (warnings) otherwise.
func editMakefile(in string, opts makefileOptions) (string, []string, error) {
	plan, err := planMakefile(findMakefile(in), opts)
	if err != nil {
		return "", nil, err
	}
	return applyMakefile(in, plan), plan.notes, nil
}

// callKind is what a $(call …,$(CONTROLLER_GEN),…) of the Makefile makes.
type callKind int

const (
	// callStock: go-install-tool of controller-tools' controller-gen.
	callStock callKind = iota
	// callVersion: go-install-tool of controller-gen-default.
	callVersion
	// callForeign: go-install-tool of another package.
	callForeign
	// callCheckout: go-build-checkout-tool, from a checkout.
	callCheckout
)

// toolCall is a call that makes $(CONTROLLER_GEN): [start, end) of its
// line (0-based), the package and version it installs.
type toolCall struct {
	kind             callKind
	line, start, end int
	pkg, version     string
}

// assignment is a variable's assignment: its line (0-based), the text
// before the value, the value and the text after it.
type assignment struct {
	line                  int
	prefix, value, suffix string
}

// makefileFacts is what findMakefile reads of the Makefile; comment lines
// do not count.
type makefileFacts struct {
	lines []string
	// genAssigns are the assignments of CONTROLLER_GEN.
	genAssigns []assignment
	// calls are the calls that make $(CONTROLLER_GEN), line by line, in
	// each line the go-install-tool calls, then the checkout ones.
	calls []toolCall
	// direct are the lines that run controller-tools' controller-gen other
	// than through go-install-tool.
	direct []int
}

// findMakefile reads the Makefile in.
func findMakefile(in string) makefileFacts {
	f := makefileFacts{lines: strings.Split(in, "\n")}
	for i, l := range f.lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if m := controllerGenAssign.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil {
			f.genAssigns = append(f.genAssigns, assignment{i, m[1], m[2], m[3]})
		}
		for _, loc := range installCallRe.FindAllStringSubmatchIndex(l, -1) {
			c := toolCall{kind: callForeign, line: i, start: loc[0], end: loc[1], pkg: l[loc[2]:loc[3]], version: l[loc[4]:loc[5]]}
			switch c.pkg {
			case stockToolPackage:
				c.kind = callStock
			case toolPackage:
				c.kind = callVersion
			}
			f.calls = append(f.calls, c)
		}
		for _, loc := range buildCallRe.FindAllStringIndex(l, -1) {
			f.calls = append(f.calls, toolCall{kind: callCheckout, line: i, start: loc[0], end: loc[1]})
		}
		if strings.Contains(l, stockToolPackage) && !installCallRe.MatchString(l) {
			f.direct = append(f.direct, i)
		}
	}
	return f
}

// problemKind is why the Makefile cannot be edited safely.
type problemKind int

const (
	_ problemKind = iota
	// genValue: CONTROLLER_GEN is not a path to controller-gen.
	genValue
	// noGenAssign: CONTROLLER_GEN is not assigned.
	noGenAssign
	// foreignInstall: $(CONTROLLER_GEN) is installed from another package.
	foreignInstall
	// noInstallRule: nothing installs $(CONTROLLER_GEN).
	noInstallRule
	// directUse: a line runs controller-tools' controller-gen itself.
	directUse
	numProblemKinds
)

// problem is one reason the Makefile cannot be edited, at its line
// (0-based), with what the message names (a value, a package, a line).
type problem struct {
	kind problemKind
	line int
	text string
}

// problemTable is the message of each problemKind.
var problemTable = map[problemKind]func(p problem) string{
	genValue: func(p problem) string {
		return fmt.Sprintf("line %d: CONTROLLER_GEN is %q, not a path ending in /controller-gen", p.line+1, p.text)
	},
	noGenAssign: func(problem) string { return "no assignment `CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen`" },
	foreignInstall: func(p problem) string {
		return fmt.Sprintf("line %d: $(CONTROLLER_GEN) is installed from %s, not %s", p.line+1, p.text, stockToolPackage)
	},
	noInstallRule: func(problem) string {
		return "no rule that installs it with `$(call go-install-tool,$(CONTROLLER_GEN)," + stockToolPackage + ",$(CONTROLLER_TOOLS_VERSION))`"
	},
	directUse: func(p problem) string {
		return fmt.Sprintf("line %d runs %s directly: %s", p.line+1, stockToolPackage, p.text)
	},
}

// makefileEditKind is a kind of edit, one concern each: its row of
// makefileEditTable says why it is made, and makes it.
type makefileEditKind int

const (
	_ makefileEditKind = iota
	editGenPath
	editToolCall
	editNormalize
	editBinaryPaths
	editDefaultsGen
	editSourceVar
	editCheckoutBlock
	editOfflineBlock
	numEditKinds
)

// makefileEdit is one edit: a line's [start, end) becomes text (editGenPath,
// editToolCall), or a pass over the Makefile (the others); remove drops a
// block instead of putting it.
type makefileEdit struct {
	kind             makefileEditKind
	line, start, end int
	text             string
	remove           bool
}

// makefileEditTable says why each kind of edit is made, and makes it on
// the Makefile's lines under the plan.
var makefileEditTable = map[makefileEditKind]struct {
	why   string
	apply func(lines []string, e makefileEdit, p makefilePlan) []string
}{
	editGenPath:  {"go-install-tool installs $(LOCALBIN)/<basename of CONTROLLER_GEN>, so its basename is the binary's name", replaceSpan},
	editToolCall: {"the rule that makes $(CONTROLLER_GEN) installs (or builds) controller-gen-default", replaceSpan},
	editNormalize: {"controller-gen-default-normalize is made next to it, where `controller-gen-default normalize` looks for it",
		func(lines []string, _ makefileEdit, p makefilePlan) []string { return addNormalizeLines(lines, p.src) }},
	editBinaryPaths: {"recipes that name $(LOCALBIN)/controller-gen run the renamed binary",
		func(lines []string, _ makefileEdit, _ makefilePlan) []string {
			for i, l := range lines {
				lines[i] = renameBinaryPaths(l)
			}
			return lines
		}},
	editDefaultsGen: {"the recipes that run the object generator also run defaults",
		func(lines []string, _ makefileEdit, _ makefilePlan) []string {
			addDefaultsGenerator(lines)
			return lines
		}},
	editSourceVar: {"the variable next to CONTROLLER_TOOLS_VERSION says where the tools come from, and the other one goes", setSourceVar},
	editCheckoutBlock: {"a checkout's tools are built by go-build-checkout-tool, which the checkout block defines",
		func(lines []string, e makefileEdit, _ makefilePlan) []string {
			if e.remove {
				return onText(lines, func(mk string) string { return replaceMarked(mk, checkoutBeginMark, checkoutEndMark, "") })
			}
			return onText(lines, putCheckoutBlock)
		}},
	editOfflineBlock: {"--offline-envtest's block is added or refreshed (it is the plugin's), or removed",
		func(lines []string, e makefileEdit, _ makefilePlan) []string {
			block := ""
			if !e.remove {
				block = offlineBlock(lines)
			}
			return onText(lines, func(mk string) string { return replaceBlock(mk, block) })
		}},
}

// makefilePlan is what applyMakefile does: the edits, in order, and where
// the tools come from; notes are warnings to print.
type makefilePlan struct {
	src   toolSource
	edits []makefileEdit
	notes []string
}

// planMakefile decides the edits of the Makefile f under opts, or returns
// the *unrecognisedError of its problems, or the error of --offline-envtest
// without LOCALBIN.
func planMakefile(f makefileFacts, opts makefileOptions) (makefilePlan, error) {
	var plan makefilePlan
	genEdits, problems := planGenPath(f)
	callEdits, callProblems := planToolCalls(f)
	problems = append(problems, callProblems...)
	for _, i := range f.direct {
		problems = append(problems, problem{directUse, i, strings.TrimSpace(f.lines[i])})
	}
	if len(problems) > 0 {
		return plan, &unrecognisedError{problems: problems}
	}
	plan.src, plan.notes = planSource(f, opts)
	mainCall := installCall
	if plan.src.checkout != "" {
		mainCall = buildCall
	}
	plan.edits = genEdits
	// From the last call, so that the offsets of a line's calls hold.
	for i := len(callEdits) - 1; i >= 0; i-- {
		callEdits[i].text = mainCall
		plan.edits = append(plan.edits, callEdits[i])
	}
	plan.edits = append(plan.edits, makefileEdit{kind: editNormalize}, makefileEdit{kind: editBinaryPaths},
		makefileEdit{kind: editDefaultsGen}, makefileEdit{kind: editSourceVar},
		makefileEdit{kind: editCheckoutBlock, remove: plan.src.checkout == ""})
	_, hasOffline := markedBlock(strings.Join(f.lines, "\n"), offlineBeginMark, offlineEndMark)
	switch {
	case opts.offlineEnvtest || hasOffline && !opts.offlineEnvtestSet:
		if !hasAssignment(f.lines, localbinAssign) {
			return plan, errors.New("--offline-envtest: the Makefile has no LOCALBIN variable, the directory whose k8s/ subdirectory setup-envtest reads; " +
				"define LOCALBIN ?= $(shell pwd)/bin and pass --bin-dir \"$(LOCALBIN)\" to setup-envtest, or leave out --offline-envtest")
		}
		plan.edits = append(plan.edits, makefileEdit{kind: editOfflineBlock})
	case opts.offlineEnvtestSet:
		plan.edits = append(plan.edits, makefileEdit{kind: editOfflineBlock, remove: true})
	}
	return plan, nil
}

// planGenPath: CONTROLLER_GEN points at the controller-gen-default binary,
// the scaffold's go-install-tool moves $(LOCALBIN)/<basename of
// CONTROLLER_GEN> after `go install`, so the basename must be the binary's
// name.
func planGenPath(f makefileFacts) ([]makefileEdit, []problem) {
	var edits []makefileEdit
	var problems []problem
	for _, a := range f.genAssigns {
		switch l := f.lines[a.line]; {
		case strings.HasSuffix(a.value, "/"+toolBinary) || a.value == toolBinary:
		case strings.HasSuffix(a.value, "/controller-gen"):
			edits = append(edits, makefileEdit{kind: editGenPath, line: a.line, end: len(l), text: a.prefix + a.value + "-default" + a.suffix + crOf(l)})
		default:
			problems = append(problems, problem{genValue, a.line, a.value})
		}
	}
	if len(f.genAssigns) == 0 {
		problems = append(problems, problem{kind: noGenAssign})
	}
	return edits, problems
}

// planToolCalls: the rule that installs $(CONTROLLER_GEN) is the stock
// one, or the plugin's with a version, or from a checkout; each of its
// calls is replaced (by the call of the tools' source, which planMakefile
// fills in).
func planToolCalls(f makefileFacts) ([]makefileEdit, []problem) {
	var edits []makefileEdit
	var problems []problem
	for _, c := range f.calls {
		if c.kind == callForeign {
			problems = append(problems, problem{foreignInstall, c.line, c.pkg})
			continue
		}
		edits = append(edits, makefileEdit{kind: editToolCall, line: c.line, start: c.start, end: c.end})
	}
	if len(edits) == 0 && len(problems) == 0 {
		problems = append(problems, problem{kind: noInstallRule})
	}
	return edits, problems
}

// planSource is where the tools come from: the flag, else what the
// Makefile says, else the plugin's default; and a warning when the
// Makefile's checkout is not one.
func planSource(f makefileFacts, opts makefileOptions) (toolSource, []string) {
	src := opts.source
	if opts.sourceSet {
		return src, nil
	}
	existing, existingVer := "", ""
	for _, c := range f.calls {
		switch c.kind {
		case callVersion:
			existing = "version"
			if !strings.HasPrefix(c.version, "$") {
				existingVer = c.version
			}
		case callCheckout:
			existing = "checkout"
		}
	}
	var notes []string
	switch existing {
	case "checkout":
		if v, at := assignedValue(f.lines, toolCheckoutAssign); v != "" {
			src = toolSource{checkout: v}
			if err := isCheckout(v); err != nil {
				notes = append(notes, fmt.Sprintf("Makefile:%d: warning: %s, so make cannot build controller-gen-default from it: "+
					"set %s to a checkout, or run `kubebuilder edit --plugins %s --%s <checkout>` (or --%s <version>)",
					at, err, toolCheckoutVar, pluginKey, flagToolCheckout, flagToolVersion))
			}
		}
	case "version":
		if v, _ := assignedValue(f.lines, toolVersionAssign); v != "" {
			src = toolSource{version: v}
		} else if existingVer != "" {
			src = toolSource{version: existingVer}
		}
	}
	return src, notes
}

// applyMakefile makes the edits of plan on the Makefile in.
func applyMakefile(in string, plan makefilePlan) string {
	lines := strings.Split(in, "\n")
	for _, e := range plan.edits {
		lines = makefileEditTable[e.kind].apply(lines, e, plan)
	}
	return strings.Join(lines, "\n")
}

// replaceSpan puts e.text in place of [e.start, e.end) of line e.line.
func replaceSpan(lines []string, e makefileEdit, _ makefilePlan) []string {
	l := lines[e.line]
	lines[e.line] = l[:e.start] + e.text + l[e.end:]
	return lines
}

// onText applies edit to the Makefile as one text.
func onText(lines []string, edit func(mk string) string) []string {
	return strings.Split(edit(strings.Join(lines, "\n")), "\n")
}

// addNormalizeLines follows each line with the call that makes
// $(CONTROLLER_GEN) with a line with the call that makes its normalize
// command, after the command's continuation lines; the normalize lines of
// either kind that were there go.
func addNormalizeLines(lines []string, src toolSource) []string {
	mainCall, normCall := installCall, installNormalizeCall
	if src.checkout != "" {
		mainCall, normCall = buildCall, buildNormalizeCall
	}
	var edited []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if t := strings.TrimSpace(l); t == installNormalizeCall || t == buildNormalizeCall {
			continue
		}
		edited = append(edited, l)
		if !strings.Contains(l, mainCall) || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		for strings.HasSuffix(strings.TrimRight(lines[i], "\r"), "\\") && i+1 < len(lines) {
			i++
			edited = append(edited, lines[i])
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if indent == "" {
			indent = "\t"
		}
		edited = append(edited, indent+normCall+crOf(l))
	}
	return edited
}

// setSourceVar sets the variable that says where the tools come from
// (CONTROLLER_GEN_DEFAULT_CHECKOUT or _VERSION), next to
// CONTROLLER_TOOLS_VERSION, and removes the other one.
func setSourceVar(lines []string, _ makefileEdit, p makefilePlan) []string {
	if p.src.checkout != "" {
		lines = removeAssignment(lines, toolVersionAssign, "#"+toolVersionVar)
		return setAssignment(lines, toolCheckoutAssign,
			"#"+toolCheckoutVar+" is the checkout of controller-gen-default (controller-gen with KEP-1929 defaults) that CONTROLLER_GEN and its normalize command are built from (go build, no download)",
			toolCheckoutVar, p.src.checkout)
	}
	lines = removeAssignment(lines, toolCheckoutAssign, "#"+toolCheckoutVar)
	return setAssignment(lines, toolVersionAssign,
		"#"+toolVersionVar+" is the version of controller-gen-default (controller-gen with KEP-1929 defaults) that CONTROLLER_GEN installs",
		toolVersionVar, p.src.version)
}

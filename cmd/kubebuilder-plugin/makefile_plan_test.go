package main

import (
	"errors"
	"slices"
	"testing"
)

// TestMakefileTables: every problem kind has a message, every edit kind a
// reason and a pass.
func TestMakefileTables(t *testing.T) {
	for k := problemKind(1); k < numProblemKinds; k++ {
		if problemTable[k] == nil {
			t.Errorf("problem kind %d has no message in problemTable", k)
		}
	}
	if len(problemTable) != int(numProblemKinds)-1 {
		t.Errorf("problemTable has %d rows, want %d", len(problemTable), numProblemKinds-1)
	}
	for k := makefileEditKind(1); k < numEditKinds; k++ {
		if row := makefileEditTable[k]; row.why == "" || row.apply == nil {
			t.Errorf("edit kind %d has no reason or no pass in makefileEditTable", k)
		}
	}
	if len(makefileEditTable) != int(numEditKinds)-1 {
		t.Errorf("makefileEditTable has %d rows, want %d", len(makefileEditTable), numEditKinds-1)
	}
}

// TestPlanMakefile: each problem kind is the plan of some Makefile, and
// each edit kind is planned for some Makefile and flags.
func TestPlanMakefile(t *testing.T) {
	mk := readTxtar(t, "v4-project.txtar")["Makefile"]
	stockCall := "$(call go-install-tool,$(CONTROLLER_GEN)," + stockToolPackage + ",$(CONTROLLER_TOOLS_VERSION))"
	version := makefileOptions{source: toolSource{version: "v0.1.0"}}
	edit := func(t *testing.T, old, new string) string { return replace(t, mk, old, new) }
	problems := map[problemKind]bool{}
	for _, tc := range []struct {
		want     problemKind
		makefile func(t *testing.T) string
	}{
		{genValue, func(t *testing.T) string {
			return edit(t, "CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen\n", "CONTROLLER_GEN ?= /usr/bin/gen\n")
		}},
		{noGenAssign, func(t *testing.T) string { return edit(t, "CONTROLLER_GEN ?=", "#CONTROLLER_GEN ?=") }},
		{foreignInstall, func(t *testing.T) string { return edit(t, stockToolPackage+",", "example.com/gen,") }},
		{noInstallRule, func(t *testing.T) string { return edit(t, stockCall, "") }},
		{directUse, func(*testing.T) string { return mk + "\nfoo:\n\tgo run " + stockToolPackage + " paths=./...\n" }},
	} {
		problems[tc.want] = true
		_, err := planMakefile(findMakefile(tc.makefile(t)), version)
		var u *unrecognisedError
		if !errors.As(err, &u) || !slices.ContainsFunc(u.problems, func(p problem) bool { return p.kind == tc.want }) {
			t.Errorf("problem %d: got %v", tc.want, err)
		}
	}
	for k := problemKind(1); k < numProblemKinds; k++ {
		if !problems[k] {
			t.Errorf("no case for the problem kind %d", k)
		}
	}

	edits := map[makefileEditKind]bool{}
	for _, opts := range []makefileOptions{version, {source: toolSource{checkout: repoRoot(t)}, sourceSet: true, offlineEnvtest: true, offlineEnvtestSet: true}} {
		plan, err := planMakefile(findMakefile(mk), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range plan.edits {
			edits[e.kind] = true
		}
	}
	for k := makefileEditKind(1); k < numEditKinds; k++ {
		if !edits[k] {
			t.Errorf("the edit kind %q is never planned", makefileEditTable[k].why)
		}
	}
	// The plan of an edited Makefile changes nothing.
	out, _, err := editMakefile(mk, version)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planMakefile(findMakefile(out), version)
	if err != nil {
		t.Fatal(err)
	}
	if again := applyMakefile(out, plan); again != out {
		t.Errorf("the plan of an edited Makefile changed it:\n%s", lineDiff(out, again))
	}
}

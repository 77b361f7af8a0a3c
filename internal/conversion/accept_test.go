package conversion

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

func finding(rule, field, path string, versions ...string) Finding {
	return Finding{Finding: findings.Finding{Sev: findings.Error, Rule: rule, GoPath: field, JPath: path}, Kind: "Machine.cluster.x-k8s.io", Versions: versions}
}

// TestAccept: entries accept the findings of their rule and field,
// narrowed by path, kind and versions; the count and the entries that
// accept nothing (FILE:LINE) go to the log.
func TestAccept(t *testing.T) {
	file := `# deliberate losses
accept:
  - rule: conversion-lost-field
    field: MachineSpec.InfrastructureRef
    path: spec.infrastructureRef
    reason: v1beta2 references by name
  - rule: conversion-lost-field
    field: MachineSpec.Version
    versions: [v1beta1, v1beta2]
    reason: normalized on the way
  - rule: conversion-default-mismatch
    field: MachineSpec.Gone
    reason: fixed long ago
`
	a, err := parseAccept("accept.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	fs := []Finding{
		finding(RuleLostField, "MachineSpec.InfrastructureRef", "spec.infrastructureRef.uid", "v1beta1", "v1beta2"),
		finding(RuleLostField, "MachineSpec.InfrastructureRef", "spec.infrastructureRef.fieldPath", "v1beta1", "v1beta2"),
		finding(RuleLostField, "MachineSpec.InfrastructureRefs", "spec.infrastructureRefs", "v1beta1", "v1beta2"),
		finding(RuleDefaultMismatch, "MachineSpec.InfrastructureRef", "spec.infrastructureRef.uid", "v1beta1", "v1beta2"),
		finding(RuleLostField, "MachineSpec.Version", "spec.version", "v1beta1", "v1beta2"),
		finding(RuleLostField, "MachineSpec.Version", "spec.version", "v1beta2", "v1beta1"),
	}
	var log bytes.Buffer
	left := a.filter(fs, &log)
	var got []string
	for _, f := range left {
		got = append(got, f.Rule+" "+f.JPath+" "+strings.Join(f.Versions, ","))
	}
	want := []string{
		"conversion-lost-field spec.infrastructureRefs v1beta1,v1beta2",
		"conversion-default-mismatch spec.infrastructureRef.uid v1beta1,v1beta2",
		"conversion-lost-field spec.version v1beta2,v1beta1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("left\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{
		"accept.yaml:11: warning: accepts no finding (conversion-default-mismatch MachineSpec.Gone)",
		"conversion: 3 findings accepted by accept.yaml",
	} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("no %q in the log:\n%s", w, log.String())
		}
	}
}

// TestAcceptMatches: an entry's path accepts the finding at that path and
// below it (a property or an item), its kind only that kind, its versions
// only that pair in that order.
func TestAcceptMatches(t *testing.T) {
	f := finding(RuleLostField, "MachineSpec.Ref", "spec.ref", "v1beta1", "v1beta2")
	for _, tc := range []struct {
		e     acceptEntry
		jpath string
		want  bool
	}{
		{acceptEntry{Path: "spec.ref"}, "spec.ref", true},
		{acceptEntry{Path: "spec.ref"}, "spec.ref.uid", true},
		{acceptEntry{Path: "spec.ref"}, "spec.ref[0]", true},
		{acceptEntry{Path: "spec.ref"}, "spec.refs", false},
		{acceptEntry{Path: "spec.ref"}, "spec", false},
		{acceptEntry{}, "spec.other", true},
		{acceptEntry{Kind: "Machine.cluster.x-k8s.io"}, "spec.ref", true},
		{acceptEntry{Kind: "Cluster.cluster.x-k8s.io"}, "spec.ref", false},
		{acceptEntry{Versions: []string{"v1beta1", "v1beta2"}}, "spec.ref", true},
		{acceptEntry{Versions: []string{"v1beta2", "v1beta1"}}, "spec.ref", false},
		{acceptEntry{Rule: RuleDefaultMismatch}, "spec.ref", false},
		{acceptEntry{Field: "MachineSpec.Other"}, "spec.ref", false},
	} {
		e := tc.e
		if e.Rule == "" {
			e.Rule = f.Rule
		}
		if e.Field == "" {
			e.Field = f.GoPath
		}
		f.JPath = tc.jpath
		if got := e.matches(&f); got != tc.want {
			t.Errorf("%+v on %s: %v, want %v", tc.e, tc.jpath, got, tc.want)
		}
	}
}

// TestAcceptMalformed: a malformed file is an error at FILE:LINE, and
// Report exits 2 before it loads anything.
func TestAcceptMalformed(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"accept:\n  - rule: conversion-lost-field\n    field: A.B\n", "a.yaml:2: an entry without reason"},
		{"accept:\n  - rule: conversion-lost-field\n    field: A.B\n    reason: x\n    paths: spec.b\n", `a.yaml:5: unknown key "paths"`},
		{"accept:\n  - rule: lost\n    field: A.B\n    reason: x\n", `a.yaml:2: rule "lost"`},
		{"exclude:\n  - rule: lost\n", `a.yaml:1: unknown key "exclude"`},
		{"accept:\n  - rule: [\n", "a.yaml:2: did not find"},
		{"accept: {}\n", "a.yaml:1: accept: want a list"},
	} {
		if _, err := parseAccept("a.yaml", []byte(tc.file)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %s", tc.file, err, tc.want)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("accept:\n  - field: A.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := options("./nothing/...")
	o.Accept = bad
	code, _, stderr := run(t, o)
	if code != ExitUsage || !strings.Contains(stderr, bad+":2: ") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
	if a, err := parseAccept("empty.yaml", nil); err != nil || len(a.entries) != 0 {
		t.Errorf("an empty file: %v", err)
	}
}

package conversion

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// An accept file (--accept FILE) lists the findings an API accepts on
// purpose, each with its reason, as linters keep their exclusions (a
// deliberate loss: cluster-api drops ObjectReference's uid,
// resourceVersion and fieldPath when it converts a reference to a
// versioned one):
//
//	accept:
//	  - rule: conversion-lost-field
//	    field: MachineSpec.InfrastructureRef
//	    path: spec.infrastructureRef.uid
//	    reason: v1beta2 references by name; uid is not kept
//
// rule, field (the Type.Field the finding names) and reason are
// required; path (the finding's JSON path, or a path above it), kind
// (Kind.group) and versions (the finding's versions, in order) narrow the
// entry.

// acceptEntry is one entry of an accept file.
type acceptEntry struct {
	Rule     string   `yaml:"rule"`
	Field    string   `yaml:"field"`
	Path     string   `yaml:"path"`
	Kind     string   `yaml:"kind"`
	Versions []string `yaml:"versions"`
	Reason   string   `yaml:"reason"`
	// line is where the entry starts in its file.
	line int
}

// acceptFile is a parsed accept file.
type acceptFile struct {
	name    string
	entries []acceptEntry
}

// readAccept reads and checks an accept file; its errors name FILE:LINE.
func readAccept(name string) (*acceptFile, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return parseAccept(name, b)
}

func parseAccept(name string, b []byte) (*acceptFile, error) {
	errAt := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	a := &acceptFile{name: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		// yaml's messages say "yaml: line N: ..."
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
			return nil, fmt.Errorf("%s:%s", name, rest)
		}
		return nil, fmt.Errorf("%s: %s", name, msg)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return a, nil // an empty file accepts nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root.Line, "want a mapping with the key accept")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "accept" {
			return nil, errAt(k.Line, "unknown key %q: want accept", k.Value)
		}
		if v.Kind != yaml.SequenceNode {
			if v.Tag == "!!null" {
				continue
			}
			return nil, errAt(v.Line, "accept: want a list of entries")
		}
		for _, n := range v.Content {
			e, err := acceptEntryOf(n, errAt)
			if err != nil {
				return nil, err
			}
			a.entries = append(a.entries, e)
		}
	}
	return a, nil
}

func acceptEntryOf(n *yaml.Node, errAt func(int, string, ...any) error) (acceptEntry, error) {
	e := acceptEntry{line: n.Line}
	if n.Kind != yaml.MappingNode {
		return e, errAt(n.Line, "an entry: want a mapping (rule, field, reason; path, kind, versions)")
	}
	known := []string{"rule", "field", "path", "kind", "versions", "reason"}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(known, k.Value) {
			return e, errAt(k.Line, "unknown key %q: want one of %s", k.Value, strings.Join(known, ", "))
		}
	}
	if err := n.Decode(&e); err != nil {
		return e, errAt(n.Line, "%v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	e.line = n.Line
	for _, req := range []struct{ key, v string }{{"rule", e.Rule}, {"field", e.Field}, {"reason", e.Reason}} {
		if strings.TrimSpace(req.v) == "" {
			return e, errAt(n.Line, "an entry without %s: rule, field and reason are required", req.key)
		}
	}
	if !slices.Contains([]string{RuleLostField, RuleDefaultMismatch, RuleFailed}, e.Rule) {
		return e, errAt(n.Line, "rule %q: want %s, %s or %s", e.Rule, RuleLostField, RuleDefaultMismatch, RuleFailed)
	}
	return e, nil
}

// matches says whether e accepts f.
func (e *acceptEntry) matches(f *Finding) bool {
	if e.Rule != f.Rule || e.Field != f.GoPath {
		return false
	}
	if e.Kind != "" && e.Kind != f.Kind {
		return false
	}
	if len(e.Versions) > 0 && !slices.Equal(e.Versions, f.Versions) {
		return false
	}
	if e.Path != "" && e.Path != f.JPath && !strings.HasPrefix(f.JPath, e.Path+".") && !strings.HasPrefix(f.JPath, e.Path+"[") {
		return false
	}
	return true
}

// filter is the findings a accepts none of. It writes to log how many it
// accepted, and a warning at each entry that accepts none (a stale
// exclusion: the loss was fixed, or the field renamed).
func (a *acceptFile) filter(fs []Finding, log io.Writer) []Finding {
	used := make([]bool, len(a.entries))
	var out []Finding
	accepted := 0
	for i := range fs {
		hit := false
		for j := range a.entries {
			if a.entries[j].matches(&fs[i]) {
				used[j], hit = true, true
			}
		}
		if hit {
			accepted++
			continue
		}
		out = append(out, fs[i])
	}
	for j, e := range a.entries {
		if !used[j] {
			fmt.Fprintf(log, "%s:%d: warning: accepts no finding (%s %s%s): remove the entry if the finding is gone\n",
				a.name, e.line, e.Rule, e.Field, pathNote(e.Path))
		}
	}
	fmt.Fprintf(log, "conversion: %d findings accepted by %s\n", accepted, a.name)
	return out
}

func pathNote(p string) string {
	if p == "" {
		return ""
	}
	return " " + p
}

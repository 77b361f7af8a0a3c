package diaglines

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	stderr := "/m/a.go:12:2: warning: A.B (spec.b): omitempty has no effect [omitempty-struct]\n" +
		"\n" +
		"a.go:3:1: error: no tag here\n" +
		"warning: 5 findings in types from other modules (omitempty-struct: 3, implicit-zero-default: 2); run with crd:verbose=true to list them\n" +
		"note: something\n" +
		"Error: not generated\n"
	found, other := Parse(stderr)
	if len(found) != 4 {
		t.Fatalf("found %d findings, want 4: %+v", len(found), found)
	}
	if f := found[0]; f.File != "/m/a.go" || f.Line != 12 || f.Severity != "warning" || f.Rule != "omitempty-struct" {
		t.Errorf("first: %+v", f)
	}
	if f := found[1]; f.Rule != Untagged || f.Severity != "error" {
		t.Errorf("second: %+v", f)
	}
	if f := found[2]; f.Summarised != 5 || !reflect.DeepEqual(f.SummaryRules, map[string]int{"omitempty-struct": 3, "implicit-zero-default": 2}) {
		t.Errorf("summary: %+v", f)
	}
	if !reflect.DeepEqual(other, []string{"Error: not generated"}) {
		t.Errorf("other: %q", other)
	}
}

// TestRuleSummary: a rule's summary line in one CRD stands for its count.
func TestRuleSummary(t *testing.T) {
	found, _ := Parse("/m/a.go:3:2: warning: 7 omitempty-struct warnings in CRD xs.example.com, the first here: A.Spec (spec): omitempty has no effect; run with crd:allFindings=true to list them [omitempty-struct]\n" +
		"/m/a.go:4:2: warning: A.B (spec.b): x [implicit-zero-default]\n")
	if len(found) != 2 || found[0].Summarised != 7 || found[0].Rule != "omitempty-struct" || found[1].Summarised != 0 {
		t.Fatalf("%+v", found)
	}
}

func TestText(t *testing.T) {
	if got := Text("A.B (spec.b): omitempty has no effect [omitempty-struct]"); got != "A.B (spec.b): omitempty has no effect" {
		t.Errorf("Text = %q", got)
	}
}

package acceptance

import (
	"reflect"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/diaglines"
)

// tallyKey is a severity and a rule.
type tallyKey struct{ Severity, Rule string }

// tally counts findings by severity and rule: a summary line counts for
// the findings it stands for, by their rules (a rule it does not break
// down counts under the line's own), any other line for one.
func tally(found []diaglines.Finding) map[tallyKey]int {
	out := map[tallyKey]int{}
	for _, f := range found {
		if f.Summarised == 0 {
			out[tallyKey{f.Severity, f.Rule}]++
			continue
		}
		n := 0
		for r, k := range f.SummaryRules {
			out[tallyKey{f.Severity, r}] += k
			n += k
		}
		if n < f.Summarised {
			out[tallyKey{f.Severity, f.Rule}] += f.Summarised - n
		}
	}
	return out
}

// TestTally: each line counts once, a summary line for the findings it
// stands for, by rule (internal/testsupport/diaglines reads the lines).
func TestTally(t *testing.T) {
	found, _ := diaglines.Parse("/m/a.go:12:2: warning: A.B (spec.b): omitempty has no effect [omitempty-struct]\n" +
		"a.go:3:1: error: no tag here\n" +
		"warning: 5 findings in types from other modules (omitempty-struct: 3, implicit-zero-default: 2); run with crd:verbose=true to list them\n" +
		"note: something\n")
	want := map[tallyKey]int{
		{"warning", "omitempty-struct"}:      4,
		{"warning", "implicit-zero-default"}: 2,
		{"error", diaglines.Untagged}:        1,
		{"note", diaglines.Untagged}:         1,
	}
	if got := tally(found); !reflect.DeepEqual(got, want) {
		t.Errorf("tally = %v, want %v", got, want)
	}
	// a rule's summary line in one CRD stands for its count
	found, _ = diaglines.Parse("/m/a.go:3:2: warning: 7 omitempty-struct warnings in CRD xs.example.com, the first here: A.Spec (spec): omitempty has no effect; run with crd:allFindings=true to list them [omitempty-struct]\n" +
		"/m/a.go:4:2: warning: A.B (spec.b): x [implicit-zero-default]\n")
	if got := tally(found); got[tallyKey{"warning", "omitempty-struct"}] != 7 || got[tallyKey{"warning", "implicit-zero-default"}] != 1 {
		t.Errorf("tally = %v", got)
	}
}

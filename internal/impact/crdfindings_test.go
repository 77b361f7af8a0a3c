package impact

import (
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// TestCRDFindingsAreRegistered: every CRD finding is made of a rule of the
// registry (newFinding refuses others), and AsFinding is the one finding
// type with the registry's severity.
func TestCRDFindingsAreRegistered(t *testing.T) {
	t.Parallel()
	for _, rule := range []string{FindingRemoved, FindingUpdateRefused, FindingNotServed, FindingStorageVersion, FindingWebhook, FindingUnreadable} {
		r, ok := findings.Lookup(rule)
		if !ok || !r.Emits(findings.CmdImpact) {
			t.Errorf("%s: not a rule of impact in the registry", rule)
			continue
		}
		f := newFinding(rule, "widgets.example.com", "v1", "m").AsFinding()
		if f.Sev != r.Severity || f.Rule != rule || f.CRD != "widgets.example.com" || f.Msg != "v1: m" {
			t.Errorf("%s: %+v", rule, f)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("newFinding made a finding of a rule the registry lacks")
		}
	}()
	newFinding("no-such-rule", "x", "", "m")
}

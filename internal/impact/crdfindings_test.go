package impact

import (
	"encoding/json"
	"reflect"
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

// TestFindingJSON: a finding's JSON has the keys its records have always
// had (crd, finding, version, message, problems, in that order), and reads
// back into the shared fields and the deprecated copies alike.
func TestFindingJSON(t *testing.T) {
	t.Parallel()
	f := newFinding(FindingUpdateRefused, "widgets.example.com", "v1", "refused")
	f.Problems = []Problem{{Field: "spec.x", Type: "FieldValueInvalid", Message: "bad"}}
	for _, c := range []struct {
		f    Finding
		want string
	}{
		{f, `{"crd":"widgets.example.com","finding":"crd-update-refused","version":"v1","message":"refused","problems":[{"field":"spec.x","type":"FieldValueInvalid","message":"bad"}]}`},
		{newFinding(FindingRemoved, "gadgets.example.com", "", "gone"), `{"crd":"gadgets.example.com","finding":"crd-removed","message":"gone"}`},
	} {
		b, err := json.Marshal(c.f)
		if err != nil || string(b) != c.want {
			t.Errorf("got  %s (%v)\nwant %s", b, err, c.want)
		}
		var back Finding
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c.f) {
			t.Errorf("read back %+v\nwant      %+v", back, c.f)
		}
	}
	w := newFinding(FindingWebhook, "widgets.example.com", "", "m")
	w.setMessage("n")
	if w.Msg != "n" || w.Rule != FindingWebhook {
		t.Errorf("setMessage: %+v", w)
	}
}

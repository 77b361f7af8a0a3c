package impact

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/findings"
)

// What a Finding is about.
const (
	// FindingRemoved: NEW has no such CRD. Deleting a CRD deletes its
	// objects.
	FindingRemoved = "crd-removed"
	// FindingUpdateRefused: the apiserver refuses NEW as an update of OLD.
	FindingUpdateRefused = "crd-update-refused"
	// FindingNotServed: a version OLD serves is not served by NEW.
	FindingNotServed = "version-not-served"
	// FindingStorageVersion: NEW stores objects at another version.
	FindingStorageVersion = "storage-version-changed"
	// FindingWebhook: OLD or NEW converts with a webhook, which is not
	// called.
	FindingWebhook = "conversion-webhook"
	// FindingUnreadable: the cluster did not list the CRD's objects
	// (--objects kube://: RBAC, a conversion webhook that fails); the
	// command exits 1.
	FindingUnreadable = "objects-unreadable"
)

// Finding is a change of a CRD that concerns all its objects (step 4, and
// whether the CRD update itself is accepted): the one finding type
// (findings.Finding, embedded) about a CRD rather than a Go field, its CRD,
// rule (a name of the registry, findings.Rules), severity (the rule's) and
// message in the shared fields, with what is impact's own added: the
// version and the apiserver's problems it is about. newFinding makes one
// only of a registered rule. Its JSON (MarshalJSON) has the keys that -o
// json and every record's crdFindings have always had: crd, finding (the
// rule), version, message, problems.
type Finding struct {
	findings.Finding
	Version  string
	Problems []Problem
}

// newFinding is a finding of rule, which must be in the registry, about
// the CRD named crd (at version, "" for none).
func newFinding(rule, crd, version, msg string) Finding {
	r := findings.MustLookup(rule)
	return Finding{Finding: findings.Finding{Sev: r.Severity, Rule: rule, Msg: msg, CRD: crd}, Version: version}
}

// setMessage replaces the message.
func (f *Finding) setMessage(msg string) { f.Msg = msg }

// findingJSON is a Finding as JSON, under the keys it has always had.
type findingJSON struct {
	CRD      string    `json:"crd"`
	Finding  string    `json:"finding"`
	Version  string    `json:"version,omitempty"`
	Message  string    `json:"message"`
	Problems []Problem `json:"problems,omitempty"`
}

// MarshalJSON is f as -o json writes it: crd, finding (the rule),
// version, message and problems.
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(findingJSON{CRD: f.CRD, Finding: f.Rule, Version: f.Version, Message: f.Msg, Problems: f.Problems})
}

// UnmarshalJSON reads what MarshalJSON writes; the severity is the rule's
// in the registry (a note for a rule it lacks).
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j findingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r, _ := findings.Lookup(j.Finding)
	*f = Finding{Finding: findings.Finding{Sev: r.Severity, Rule: j.Finding, Msg: j.Message, CRD: j.CRD}, Version: j.Version, Problems: j.Problems}
	return nil
}

// AsFinding is f as the one finding type alone: its shared fields, with
// the version (when there is one) and the problems' count in the message.
func (f Finding) AsFinding() findings.Finding {
	out := f.Finding
	if f.Version != "" {
		out.Msg = f.Version + ": " + out.Msg
	}
	if n := len(f.Problems); n > 0 {
		out.Msg += fmt.Sprintf(" (%d problems)", n)
	}
	return out
}

// crdFindings compares a CRD of OLD with its NEW (nil if NEW has none).
func crdFindings(ctx context.Context, cache *crdcheck.CheckCache, old, new *definition) []Finding {
	name := old.crd.Name
	if new == nil {
		return []Finding{newFinding(FindingRemoved, name, "", "NEW has no such CRD: deleting a CRD deletes all its objects")}
	}
	var out []Finding
	// the update's validation compiles NEW's CEL rules again: a clean
	// outcome for these two CRDs is cached, as ValidateCRD's
	problems := crdcheck.Cached(cache, "update", []*apiextensionsv1.CustomResourceDefinition{old.crd, new.crd},
		func() []Problem { return crdUpdateProblems(ctx, old.crd, new.crd) })
	if len(problems) > 0 {
		f := newFinding(FindingUpdateRefused, name, "", "the apiserver refuses NEW as an update of OLD (with status.storedVersions ["+old.storageVersion+"])")
		f.Problems = problems
		out = append(out, f)
	}
	for _, v := range old.crd.Spec.Versions {
		if nv := new.versions[v.Name]; v.Served && (nv == nil || !nv.served) {
			out = append(out, newFinding(FindingNotServed, name, v.Name, fmt.Sprintf("NEW no longer serves %s: requests at it are refused (404)", v.Name)))
		}
	}
	if old.storageVersion != new.storageVersion {
		out = append(out, newFinding(FindingStorageVersion, name, new.storageVersion,
			fmt.Sprintf("NEW stores objects as %s (OLD: %s): stored objects stay %s until their next write", new.storageVersion, old.storageVersion, old.storageVersion)))
	}
	for _, d := range []*definition{old, new} {
		if c := d.crd.Spec.Conversion; c != nil && c.Strategy == apiextensionsv1.WebhookConverter {
			out = append(out, newFinding(FindingWebhook, name, "",
				"conversion webhooks are out of scope: objects are converted as with the None strategy (only apiVersion changes)"))
			break
		}
	}
	return out
}

// crdScheme types the internal CRD objects for the CRD registry strategy;
// built on first use, not at start-up (normalize links this package too).
var crdScheme = sync.OnceValue(func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
})

// crdUpdateProblems are the errors of an update of the CRD from old to new,
// as the apiserver's CRD registry strategy (registry/customresourcedefinition)
// handles it through rest.BeforeUpdate: PrepareForUpdate (status kept,
// NEW's storage version added to status.storedVersions), then
// ValidateCustomResourceDefinitionUpdate. OLD is taken as created from its
// file: status.storedVersions lists its storage version only.
func crdUpdateProblems(ctx context.Context, old, new *apiextensionsv1.CustomResourceDefinition) []Problem {
	oldInternal, err := crdcheck.ToInternal(old)
	if err != nil {
		return []Problem{{Message: err.Error()}}
	}
	newInternal, err := crdcheck.ToInternal(new)
	if err != nil {
		return []Problem{{Message: err.Error()}}
	}
	oldInternal, newInternal = oldInternal.DeepCopy(), newInternal.DeepCopy()
	oldInternal.ResourceVersion, newInternal.ResourceVersion = "1", "1"
	ctx = genericapirequest.WithNamespace(ctx, "")
	return fromError(rest.BeforeUpdate(customresourcedefinition.NewStrategy(crdScheme()), ctx, newInternal, oldInternal))
}

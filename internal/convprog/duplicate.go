package convprog

import (
	"errors"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// duplicate is, in the program's Kinds answer, a Converter that
// controller-runtime's Registry refused because another is registered for
// its group/kind: the indexes of both in Program.Registrations, and the
// Registry's error.
type duplicate struct {
	Group  string `json:"group"`
	Kind   string `json:"kind"`
	First  int    `json:"first"`
	Second int    `json:"second"`
	Error  string `json:"error"`
}

// DuplicateError is two Converters registered for one group/kind (First
// and Second in the order of their positions; the manager's is the order
// its main calls them). The manager refuses the one registered second: controller-runtime's Registry
// (sigs.k8s.io/controller-runtime pkg/webhook/conversion, registry's
// RegisterConverter) returns "failed to register Converter for GroupKind
// ...: converter already registered" for a group/kind it has, and
// WebhookBuilder.Complete (pkg/builder, registerConversionWebhook) returns
// that error, on which a manager's main exits before it serves. So
// nothing is converted, as nothing would be served.
type DuplicateError struct {
	GroupKind     schema.GroupKind
	First, Second Registration
	// Refusal is the Registry's error.
	Refusal string
}

func (e *DuplicateError) Error() string {
	cwd, _ := os.Getwd()
	at := func(r Registration) string {
		p := r.Pos
		p.Filename = shortPath(cwd, p.Filename)
		return p.String()
	}
	return fmt.Sprintf("%s: %s registers a Converter for %s, which %s at %s registers too: controller-runtime's Registry refuses the one registered second (%s), "+
		"so WebhookBuilder.Complete returns that error and the manager does not start; register one Converter per kind",
		at(e.First), e.First.Via, e.GroupKind, e.Second.Via, at(e.Second), e.Refusal)
}

// duplicates are the program's duplicates as DuplicateErrors, joined.
func (p *Program) duplicates(ds []duplicate) error {
	var errs []error
	for _, d := range ds {
		if d.First < 0 || d.Second < 0 || d.First >= len(p.Registrations) || d.Second >= len(p.Registrations) {
			return fmt.Errorf("the conversion program named registrations %d and %d of %d", d.First, d.Second, len(p.Registrations))
		}
		errs = append(errs, &DuplicateError{GroupKind: schema.GroupKind{Group: d.Group, Kind: d.Kind},
			First: p.Registrations[d.First], Second: p.Registrations[d.Second], Refusal: d.Error})
	}
	return errors.Join(errs...)
}

package conversion

import (
	"fmt"
	"go/token"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
)

// RuleNeedsSetup is a conversion that fails in a run where main sets
// state the conversions read (convprog.SetupCall) and --setup is not
// given: the failure is likely that state's absence, not the conversion's.
const RuleNeedsSetup = "conversion-needs-setup"

// setupNote is what a SetupCall means for a run without --setup.
func setupNote(c convprog.SetupCall) string {
	return fmt.Sprintf("main calls %s, which sets state the conversions read (%s); the conversion program does not run main: name a function that makes this call with --setup (docs/conversion.md#setup)", c.Name, c.Var)
}

// needsSetup turns the conversion-failed findings of a run that misses
// setup calls into conversion-needs-setup findings at main's first such
// call, naming it and the fix; the others are kept.
func needsSetup(fs []Finding, missing []convprog.SetupCall) []Finding {
	if len(missing) == 0 {
		return fs
	}
	c := missing[0]
	for i, f := range fs {
		if f.Rule != RuleFailed {
			continue
		}
		at := relFile(f.Pos)
		fs[i].Rule = RuleNeedsSetup
		fs[i].Pos = token.Position{Filename: c.Pos.Filename, Line: c.Pos.Line, Column: c.Pos.Column}
		fs[i].Msg = fmt.Sprintf("%s (%s at %s): %s", f.Msg, f.Kind, at, setupNote(c))
	}
	return fs
}

// storageVersion is the CRD's storage version.
func storageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

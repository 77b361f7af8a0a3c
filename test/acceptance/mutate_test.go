package acceptance

import (
	"slices"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/mutants"
)

// The mutants themselves are internal/testsupport/mutants' (TestMutants there, on the
// same schema, mutants.QuotaSchemas).
func TestRequiredNewDefaults(t *testing.T) {
	s, o := mutants.QuotaSchemas() // ours: nominalQuota defaulted "0"
	if got := requiredNewDefaults(s, o, ""); !slices.Equal(got, []string{"spec.quotas[*].nominalQuota"}) {
		t.Errorf("requiredNewDefaults = %q", got)
	}
	if got := requiredNewDefaults(s, s, ""); len(got) != 0 {
		t.Errorf("requiredNewDefaults of a schema and itself = %q", got)
	}
}

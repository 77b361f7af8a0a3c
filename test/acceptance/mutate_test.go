package acceptance

import (
	"slices"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// The mutants themselves are internal/testsupport/mutants' (TestMutants there, on the
// same schema).
func TestRequiredNewDefaults(t *testing.T) {
	s := &structuralschema.Structural{
		Generic: structuralschema.Generic{Type: "object"},
		Properties: map[string]structuralschema.Structural{
			"spec": {
				Generic: structuralschema.Generic{Type: "object"},
				Properties: map[string]structuralschema.Structural{
					"quotas": {
						Generic: structuralschema.Generic{Type: "array"},
						Items: &structuralschema.Structural{
							Generic: structuralschema.Generic{Type: "object"},
							Properties: map[string]structuralschema.Structural{
								"name":         {Generic: structuralschema.Generic{Type: "string"}},
								"nominalQuota": {Generic: structuralschema.Generic{Type: "integer"}},
							},
							ValueValidation: &structuralschema.ValueValidation{Required: []string{"name", "nominalQuota"}},
						},
					},
					"labels": {
						Generic:              structuralschema.Generic{Type: "object"},
						AdditionalProperties: &structuralschema.StructuralOrBool{Structural: &structuralschema.Structural{Generic: structuralschema.Generic{Type: "string"}}},
					},
				},
			},
		},
	}
	// ours: nominalQuota defaulted "0"
	o := s.DeepCopy()
	q := o.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"]
	q.Default.Object = "0"
	o.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"] = q
	if got := requiredNewDefaults(s, o, ""); !slices.Equal(got, []string{"spec.quotas[*].nominalQuota"}) {
		t.Errorf("requiredNewDefaults = %q", got)
	}
	if got := requiredNewDefaults(s, s, ""); len(got) != 0 {
		t.Errorf("requiredNewDefaults of a schema and itself = %q", got)
	}
}

package mutants

import structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

// QuotaSchemas are the schemas the tests of mutants and of the acceptance
// test share: theirs, a kind with spec.quotas[*] (name and nominalQuota
// required) and spec.labels (a map of strings); and ours, the same with
// nominalQuota defaulted "0", a required property that controller-gen-
// default defaults.
func QuotaSchemas() (theirs, ours *structuralschema.Structural) {
	theirs = &structuralschema.Structural{
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
	ours = theirs.DeepCopy()
	q := ours.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"]
	q.Default.Object = "0"
	ours.Properties["spec"].Properties["quotas"].Items.Properties["nominalQuota"] = q
	return theirs, ours
}

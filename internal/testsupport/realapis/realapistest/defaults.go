package realapistest

import (
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// WalkDefaults calls f for each default of the schema r (properties,
// items and additionalProperties, at any depth) with o's at the same path
// (nil when o has none there): how the acceptance and random-API tests
// compare controller-gen's literals with controller-gen-default's. Paths
// are "spec.x", "spec.list[*]", "spec.map[*key*]"; the root is "(root)".
func WalkDefaults(p string, r, o *apiextensionsv1.JSONSchemaProps, f func(p string, r, o *apiextensionsv1.JSON)) {
	if r == nil {
		return
	}
	if r.Default != nil {
		var od *apiextensionsv1.JSON
		if o != nil {
			od = o.Default
		}
		at := p
		if at == "" {
			at = "(root)"
		}
		f(at, r.Default, od)
	}
	names := make([]string, 0, len(r.Properties))
	for n := range r.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		rp := r.Properties[n]
		var op *apiextensionsv1.JSONSchemaProps
		if o != nil {
			if x, ok := o.Properties[n]; ok {
				op = &x
			}
		}
		sub := n
		if p != "" {
			sub = p + "." + n
		}
		WalkDefaults(sub, &rp, op, f)
	}
	if r.Items != nil && r.Items.Schema != nil {
		var op *apiextensionsv1.JSONSchemaProps
		if o != nil && o.Items != nil {
			op = o.Items.Schema
		}
		WalkDefaults(p+"[*]", r.Items.Schema, op, f)
	}
	if r.AdditionalProperties != nil && r.AdditionalProperties.Schema != nil {
		var op *apiextensionsv1.JSONSchemaProps
		if o != nil && o.AdditionalProperties != nil {
			op = o.AdditionalProperties.Schema
		}
		WalkDefaults(p+"[*key*]", r.AdditionalProperties.Schema, op, f)
	}
}

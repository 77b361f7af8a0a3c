package crdgen

import (
	"reflect"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

func TestSplitSchemaField(t *testing.T) {
	c := &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1"}, {Name: "v2"}},
	}}
	for _, tc := range []struct {
		field    string
		versions []string
		path     string
	}{
		{"spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[entry].default", []string{"v2"}, "properties[spec].properties[entry]"},
		{"spec.validation.openAPIV3Schema.properties[spec].items.default.number", []string{"v1", "v2"}, "properties[spec].items"},
		{"spec.validation.openAPIV3Schema.properties[a.b].additionalProperties.x-kubernetes-validations[0].rule", []string{"v1", "v2"}, "properties[a.b].additionalProperties"},
		{"spec.names.kind", []string{"v1", "v2"}, ""},
	} {
		v, p := splitSchemaField(c, tc.field)
		if !reflect.DeepEqual(v, tc.versions) || p != tc.path {
			t.Errorf("splitSchemaField(%q) = %v, %q; want %v, %q", tc.field, v, p, tc.versions, tc.path)
		}
	}
}

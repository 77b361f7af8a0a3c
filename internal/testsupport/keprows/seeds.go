package keprows

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// SeedRow is one example of the CRD defaulting KEP (000) or the pruning
// KEP (003): the schema is the object's root, In and Want are the object
// without apiVersion, kind and metadata unless they name them.
type SeedRow struct {
	Name    string
	Schema  string
	In      string
	Want    string
	Invalid string // substring of a validation error, when the KEP says validation fails
	Skip    string
}

// DefaultingKEP are the examples of the CRD defaulting KEP (seed 000).
var DefaultingKEP = []SeedRow{
	{Name: "000 example 1: default in the undefined case",
		Schema: "type: object\nproperties:\n  foo:\n    type: string\n    default: abc\n",
		In:     `{}`, Want: `{"foo":"abc"}`},
	{Name: "000 example 2: no defaulting",
		Schema: "type: object\nproperties:\n  foo:\n    type: string\n    default: abc\n",
		In:     `{"foo":"def"}`, Want: `{"foo":"def"}`},
	{Name: "000 example 3: array default in the undefined case",
		Schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		In:     `{}`, Want: `{"foo":[1]}`},
	{Name: "000 example 3: null stays null and is rejected",
		Schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		In:     `{"foo":null}`, Want: `{"foo":null}`, Invalid: "foo",
		Skip: "superseded by KEP-1929 \"Changes to CRD Normalization\": a non-nullable null with a default now gets the default (next row)"},
	{Name: "000 example 3 under KEP-1929: null gets the default",
		Schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		In:     `{"foo":null}`, Want: `{"foo":[1]}`},
	{Name: "000 example 3, today's \"then rejected by validation\": a null item without a default stays null",
		Schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		In:     `{"foo":[null]}`, Want: `{"foo":[null]}`, Invalid: `foo[0]: Invalid value: "null": foo[0] in body must be of type integer`},
	{Name: "000 example 3: empty lists stay empty",
		Schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		In:     `{"foo":[]}`, Want: `{"foo":[]}`},
	{Name: "000 example 4: top-down defaulting",
		Schema: "type: object\nproperties:\n  foo:\n    type: object\n    properties:\n      a:\n        type: string\n        default: abc\n      b:\n        type: string\n    default: {\"b\": \"def\"}\n",
		In:     `{}`, Want: `{"foo":{"a":"abc","b":"def"}}`},
}

// PruningKEP are the examples of the pruning KEP (seed 003).
var PruningKEP = []SeedRow{
	{Name: "003 example 1: unspecified", Schema: "type: object\n",
		In: `{"foo":42,"json":{"bar":43}}`, Want: `{}`},
	{Name: "003 example 2: properties at top-level", Schema: "type: object\nproperties:\n  foo:\n    type: object\n",
		In: `{"foo":{"abc":42},"json":{"bar":43}}`, Want: `{"foo":{}}`},
	{Name: "003 example 3: properties at multiple levels",
		Schema: "type: object\nproperties:\n  foo:\n    type: object\n    properties:\n      bar:\n        type: object\n",
		In:     `{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`, Want: `{"foo":{"bar":{}}}`},
	{Name: "003 example 4: additionalProperties with a non-empty schema",
		Schema: "type: object\nproperties:\n  foo:\n    type: object\n    additionalProperties:\n      type: object\n",
		In:     `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, Want: `{"foo":{"abc":{},"def":{}}}`},
	{Name: "003 example 5: additionalProperties: false",
		Schema: "type: object\nproperties:\n  foo:\n    type: object\n    additionalProperties: false\n",
		In:     `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, Want: `{"foo":{"abc":{},"def":{}}}`,
		Invalid: "foo"},
	{Name: "003 example 6: arbitrary JSON",
		Schema: "type: object\nproperties:\n  json:\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n",
		In:     `{"foo":42,"json":{"bar":43}}`, Want: `{"json":{"bar":43}}`},
	{Name: "003 example 7: JSON, but with properties at the same level",
		Schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n",
		In:     `{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, Want: `{"json":{"bar":{"abc":43},"def":44}}`,
		Skip: "the KEP's text differs from the apiserver: x-kubernetes-preserve-unknown-fields is not inherited by bar, which has a schema of its own, so bar is pruned (as example 8 says); next row"},
	{Name: "003 example 7 as the apiserver does it",
		Schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n",
		In:     `{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, Want: `{"json":{"bar":{},"def":44}}`},
	{Name: "003 example 8: JSON, but with properties at the same and lower levels",
		Schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n        properties:\n          inner:\n            type: integer\n",
		In:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, Want: `{"json":{"bar":{"inner":43},"def":45}}`},
	{Name: "003 example 9: additionalProperties within JSON",
		Schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    additionalProperties:\n      type: object\n",
		In:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, Want: `{"json":{"bar":{"inner":43,"abc":44},"def":45}}`,
		Skip: "the KEP's text differs from the apiserver: x-kubernetes-preserve-unknown-fields is not inherited by the additionalProperties schema, so bar is pruned and def fails validation; next row"},
	{Name: "003 example 9 as the apiserver does it",
		Schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    additionalProperties:\n      type: object\n",
		In:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, Want: `{"json":{"bar":{},"def":45}}`, Invalid: "json.def"},
	{Name: "003 example 10: embedded resource",
		Schema: "type: object\nproperties:\n  object:\n    type: object\n    nullable: true\n    x-kubernetes-embedded-resource: true\n    x-kubernetes-preserve-unknown-fields: true\n",
		In:     `{"foo":42,"object":{"apiVersion":"v1","kind":"Foo","bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
		Want:   `{"object":{"apiVersion":"v1","kind":"Foo","bar":43,"abc":44,"metadata":{"name":"example"}}}`},
	{Name: "003 example 11: implicit metav1.TypeMeta and metav1.ObjectMeta", Schema: "type: object\n",
		In:   `{"metadata":{"name":"example","garbage":43},"foo":42}`,
		Want: `{"metadata":{"name":"example","namespace":"default","generation":1}}`},
}

// CRDFromYAML is CRD with the root schema given as YAML, as the KEPs write
// their examples.
func CRDFromYAML(group, schemaYAML string) (*apiextensionsv1.CustomResourceDefinition, error) {
	s := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.UnmarshalStrict([]byte(schemaYAML), s); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return CRD(group, s), nil
}

// MustCRDFromYAML is CRDFromYAML for the schemas tests write; it panics on
// invalid YAML.
func MustCRDFromYAML(group, schemaYAML string) *apiextensionsv1.CustomResourceDefinition {
	c, err := CRDFromYAML(group, schemaYAML)
	if err != nil {
		panic(err)
	}
	return c
}

// CRD wraps an example schema, which the KEPs write for the whole object,
// as the root schema of a namespaced CRD of kind Example in group, served
// and stored as v1.
func CRD(group string, root *apiextensionsv1.JSONSchemaProps) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: apiextensionsv1.SchemeGroupVersion.String(), Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: "examples." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "examples", Singular: "example", Kind: "Example", ListKind: "ExampleList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: root},
			}},
		},
	}
}

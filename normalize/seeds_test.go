package normalize

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/keprows"
)

// exampleCRD wraps an example schema, which the KEPs write for the whole
// object, as the root schema of a namespaced CRD.
func exampleCRD(t testing.TB, schemaYAML string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	s := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.UnmarshalStrict([]byte(schemaYAML), s); err != nil {
		t.Fatalf("schema: %v", err)
	}
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metaCRD,
		ObjectMeta: objectMeta("examples.seeds.example.com"),
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "seeds.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "examples", Singular: "example", Kind: "Example", ListKind: "ExampleList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: s},
			}},
		},
	}
}

// seedRow is one example of the CRD defaulting KEP (000) or the pruning
// KEP (003): the schema is the object's root, In and Want are the object
// without apiVersion, kind and metadata unless they name them.
type seedRow struct {
	name    string
	schema  string
	in      string
	want    string
	invalid string // substring of a validation error, when the KEP says validation fails
	skip    string
}

var defaultingKEP = []seedRow{
	{name: "000 example 1: default in the undefined case",
		schema: "type: object\nproperties:\n  foo:\n    type: string\n    default: abc\n",
		in:     `{}`, want: `{"foo":"abc"}`},
	{name: "000 example 2: no defaulting",
		schema: "type: object\nproperties:\n  foo:\n    type: string\n    default: abc\n",
		in:     `{"foo":"def"}`, want: `{"foo":"def"}`},
	{name: "000 example 3: array default in the undefined case",
		schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		in:     `{}`, want: `{"foo":[1]}`},
	{name: "000 example 3: null stays null and is rejected",
		schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		in:     `{"foo":null}`, want: `{"foo":null}`, invalid: "foo",
		skip: "superseded by KEP-1929 \"Changes to CRD Normalization\": a non-nullable null with a default now gets the default (next row)"},
	{name: "000 example 3 under KEP-1929: null gets the default",
		schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		in:     `{"foo":null}`, want: `{"foo":[1]}`},
	{name: "000 example 3, today's \"then rejected by validation\": a null item without a default stays null",
		schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		in:     `{"foo":[null]}`, want: `{"foo":[null]}`, invalid: `foo[0]: Invalid value: "null": foo[0] in body must be of type integer`},
	{name: "000 example 3: empty lists stay empty",
		schema: "type: object\nproperties:\n  foo:\n    type: array\n    items:\n      type: integer\n    default: [1]\n",
		in:     `{"foo":[]}`, want: `{"foo":[]}`},
	{name: "000 example 4: top-down defaulting",
		schema: "type: object\nproperties:\n  foo:\n    type: object\n    properties:\n      a:\n        type: string\n        default: abc\n      b:\n        type: string\n    default: {\"b\": \"def\"}\n",
		in:     `{}`, want: `{"foo":{"a":"abc","b":"def"}}`},
}

var pruningKEP = []seedRow{
	{name: "003 example 1: unspecified", schema: "type: object\n",
		in: `{"foo":42,"json":{"bar":43}}`, want: `{}`},
	{name: "003 example 2: properties at top-level", schema: "type: object\nproperties:\n  foo:\n    type: object\n",
		in: `{"foo":{"abc":42},"json":{"bar":43}}`, want: `{"foo":{}}`},
	{name: "003 example 3: properties at multiple levels",
		schema: "type: object\nproperties:\n  foo:\n    type: object\n    properties:\n      bar:\n        type: object\n",
		in:     `{"foo":{"bar":{"abc":42},"def":43},"json":{"ghi":44}}`, want: `{"foo":{"bar":{}}}`},
	{name: "003 example 4: additionalProperties with a non-empty schema",
		schema: "type: object\nproperties:\n  foo:\n    type: object\n    additionalProperties:\n      type: object\n",
		in:     `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, want: `{"foo":{"abc":{},"def":{}}}`},
	{name: "003 example 5: additionalProperties: false",
		schema: "type: object\nproperties:\n  foo:\n    type: object\n    additionalProperties: false\n",
		in:     `{"foo":{"abc":{"x":42},"def":{"y":43}},"json":{"ghi":44}}`, want: `{"foo":{"abc":{},"def":{}}}`,
		invalid: "foo"},
	{name: "003 example 6: arbitrary JSON",
		schema: "type: object\nproperties:\n  json:\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n",
		in:     `{"foo":42,"json":{"bar":43}}`, want: `{"json":{"bar":43}}`},
	{name: "003 example 7: JSON, but with properties at the same level",
		schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n",
		in:     `{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, want: `{"json":{"bar":{"abc":43},"def":44}}`,
		skip: "the KEP's text differs from the apiserver: x-kubernetes-preserve-unknown-fields is not inherited by bar, which has a schema of its own, so bar is pruned (as example 8 says); next row"},
	{name: "003 example 7 as the apiserver does it",
		schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n",
		in:     `{"foo":42,"json":{"bar":{"abc":43},"def":44}}`, want: `{"json":{"bar":{},"def":44}}`},
	{name: "003 example 8: JSON, but with properties at the same and lower levels",
		schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    properties:\n      bar:\n        type: object\n        properties:\n          inner:\n            type: integer\n",
		in:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, want: `{"json":{"bar":{"inner":43},"def":45}}`},
	{name: "003 example 9: additionalProperties within JSON",
		schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    additionalProperties:\n      type: object\n",
		in:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, want: `{"json":{"bar":{"inner":43,"abc":44},"def":45}}`,
		skip: "the KEP's text differs from the apiserver: x-kubernetes-preserve-unknown-fields is not inherited by the additionalProperties schema, so bar is pruned and def fails validation; next row"},
	{name: "003 example 9 as the apiserver does it",
		schema: "type: object\nproperties:\n  json:\n    type: object\n    x-kubernetes-preserve-unknown-fields: true\n    nullable: true\n    additionalProperties:\n      type: object\n",
		in:     `{"foo":42,"json":{"bar":{"inner":43,"abc":44},"def":45}}`, want: `{"json":{"bar":{},"def":45}}`, invalid: "json.def"},
	{name: "003 example 10: embedded resource",
		schema: "type: object\nproperties:\n  object:\n    type: object\n    nullable: true\n    x-kubernetes-embedded-resource: true\n    x-kubernetes-preserve-unknown-fields: true\n",
		in:     `{"foo":42,"object":{"apiVersion":"v1","kind":"Foo","bar":43,"abc":44,"metadata":{"name":"example","garbage":45}}}`,
		want:   `{"object":{"apiVersion":"v1","kind":"Foo","bar":43,"abc":44,"metadata":{"name":"example"}}}`},
	{name: "003 example 11: implicit metav1.TypeMeta and metav1.ObjectMeta", schema: "type: object\n",
		in:   `{"metadata":{"name":"example","garbage":43},"foo":42}`,
		want: `{"metadata":{"name":"example","namespace":"default","generation":1}}`},
}

// runSeed normalises one row's object and compares everything but
// apiVersion and kind (and metadata, unless the row names it).
func runSeed(t *testing.T, r seedRow) {
	t.Helper()
	if r.skip != "" {
		t.Skip(r.skip)
	}
	crd := exampleCRD(t, r.schema)
	if errs := ValidateCRD(context.Background(), crd); len(errs) > 0 {
		t.Fatalf("CRD invalid: %v", errs.ToAggregate())
	}
	p, err := NewPipeline(crd, "v1")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.in), &obj); err != nil {
		t.Fatal(err)
	}
	_, wantsMeta := obj["metadata"]
	if !wantsMeta {
		obj["metadata"] = map[string]any{"name": "example"}
	}
	obj["metadata"].(map[string]any)["namespace"] = "default"
	obj["apiVersion"], obj["kind"] = "seeds.example.com/v1", "Example"
	res := p.Normalize(context.Background(), obj)
	delete(res.Object, "apiVersion")
	delete(res.Object, "kind")
	if !wantsMeta {
		delete(res.Object, "metadata")
	}
	got, _ := json.Marshal(res.Object)
	if !jsonEqual(t, got, []byte(r.want)) {
		t.Errorf("stored %s, want %s", got, r.want)
	}
	switch {
	case r.invalid == "" && len(res.Errors) > 0:
		t.Errorf("unexpected validation errors: %v", res.Errors.ToAggregate())
	case r.invalid != "" && !strings.Contains(res.Errors.ToAggregate().Error(), r.invalid):
		t.Errorf("validation errors %v, want one about %q", res.Errors, r.invalid)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func TestDefaultingKEPExamples(t *testing.T) {
	for _, r := range defaultingKEP {
		t.Run(r.name, func(t *testing.T) { runSeed(t, r) })
	}
}

func TestPruningKEPExamples(t *testing.T) {
	for _, r := range pruningKEP {
		t.Run(r.name, func(t *testing.T) { runSeed(t, r) })
	}
}

// TestKEP1929Rows runs KEP-1929's default(...) tables against the CRDs
// generated from the KEP's Go types (testdata/golden).
func TestKEP1929Rows(t *testing.T) {
	crds, err := LoadCRDs("../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]*Pipeline{}
	for _, c := range crds {
		p, err := NewPipeline(c, "v1")
		if err != nil {
			t.Fatal(err)
		}
		byFile[c.Spec.Group+"_"+c.Spec.Names.Plural+".yaml"] = p
	}
	for _, r := range keprows.KEP1929 {
		t.Run(r.Example+": "+r.Call, func(t *testing.T) {
			if r.Skip != "" {
				t.Skip(r.Skip)
			}
			p := byFile[r.Golden]
			if p == nil {
				t.Fatalf("no golden CRD %s", r.Golden)
			}
			obj := map[string]any{"apiVersion": r.APIVersion(), "kind": r.Kind,
				"metadata": map[string]any{"name": "row", "namespace": "default"}}
			if r.Spec != "" {
				var spec any
				if err := json.Unmarshal([]byte(r.Spec), &spec); err != nil {
					t.Fatal(err)
				}
				obj["spec"] = spec
			}
			res := p.Normalize(context.Background(), obj)
			got, _ := json.Marshal(res.Object["spec"])
			if !jsonEqual(t, got, []byte(r.Want)) {
				t.Errorf("spec stored as %s, want %s", got, r.Want)
			}
			if r.Invalid == "" && len(res.Errors) > 0 {
				t.Errorf("unexpected errors: %v", res.Errors.ToAggregate())
			}
			if r.Invalid != "" && !strings.Contains(res.Errors.ToAggregate().Error(), r.Invalid) {
				t.Errorf("errors %v, want one about %s", res.Errors, r.Invalid)
			}
		})
	}
}

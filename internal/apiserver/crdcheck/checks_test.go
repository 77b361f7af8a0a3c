package crdcheck_test

import (
	"context"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/keprows"
)

func TestValidateCRD(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"valid", "type: object\nproperties:\n  spec:\n    type: object\n    default: {}\n    properties:\n      size:\n        type: string\n        default: M\n", ""},
		{"not structural: a default in allOf",
			"type: object\nproperties:\n  spec:\n    type: object\n    allOf:\n    - default: {}\n", "must be undefined to be structural"},
		{"default misses a required child",
			"type: object\nproperties:\n  spec:\n    type: object\n    default: {}\n    required: [size]\n    properties:\n      size:\n        type: string\n", "default.size: Required value"},
		{"default not pruned",
			"type: object\nproperties:\n  spec:\n    type: object\n    default: {\"unknown\": 1}\n    properties:\n      size:\n        type: string\n", "must not have unknown fields"},
		{"default of the wrong type",
			"type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      size:\n        type: integer\n        default: large\n", "must be of type integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := crdcheck.ValidateCRD(context.Background(), exampleCRD(tc.schema))
			switch {
			case tc.want == "" && len(errs) > 0:
				t.Errorf("unexpected errors: %v", errs.ToAggregate())
			case tc.want != "" && (len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), tc.want)):
				t.Errorf("errors %v, want one containing %q", errs, tc.want)
			}
		})
	}
}

// TestCheckDefaults: each CRD below is accepted by the apiserver's own
// validation, yet its objects fail (or lose a default) once stored.
// CheckDefaults finds each one, at the default that causes it.
func TestCheckDefaults(t *testing.T) {
	for _, tc := range []struct {
		name, schema, object string
		objectErr            string // what the stored object fails with; "" if it passes
		field, detail        string // what CheckDefaults reports
	}{
		{name: "a parent's maxProperties, broken by a nested default",
			schema: "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      pair:\n        type: object\n        maxProperties: 1\n        default: {\"a\": \"x\"}\n        properties:\n          a:\n            type: string\n          b:\n            type: string\n            default: \"y\"\n",
			object: `{"spec":{}}`, objectErr: "spec.pair: Too many: 2",
			field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[pair].default", detail: "nested below it applied"},
		{name: "a parent CEL rule that fails once the children are defaulted",
			schema: "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      pair:\n        type: object\n        x-kubernetes-validations:\n        - rule: \"!has(self.b)\"\n          message: b is set by the controller\n        default: {\"a\": \"x\"}\n        properties:\n          a:\n            type: string\n          b:\n            type: string\n            default: \"y\"\n",
			object: `{"spec":{}}`, objectErr: "b is set by the controller",
			field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[pair].default", detail: "b is set by the controller"},
		{name: "a CEL rule deep below the default, broken by a nested default",
			schema: "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      outer:\n        type: object\n        default: {\"middle\": {\"inner\": {}}}\n        properties:\n          middle:\n            type: object\n            properties:\n              inner:\n                type: object\n                x-kubernetes-validations:\n                - rule: \"!has(self.mode) || self.mode != 'fast'\"\n                  message: fast is retired\n                properties:\n                  mode:\n                    type: string\n                    default: fast\n",
			object: `{"spec":{}}`, objectErr: "fast is retired",
			field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[outer].default.middle.inner", detail: "fast is retired"},
		{name: "a default under additionalProperties, which the apiserver never validates",
			schema: "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      ports:\n        type: object\n        additionalProperties:\n          type: integer\n          minimum: 1\n          default: 0\n",
			object: `{"spec":{"ports":{"http":null}}}`, objectErr: "should be greater than or equal to 1",
			field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].additionalProperties.default", detail: "additionalProperties"},
		{name: "default: null, which the apiserver silently ignores",
			schema: "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      size:\n        type: string\n        default: null\n",
			object: `{"spec":{}}`, objectErr: "",
			field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].default", detail: "default null is ignored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crd := exampleCRD(tc.schema)
			if strings.Contains(tc.schema, "default: null") {
				// YAML and JSON decoding turn `default: null` into no default at
				// all; generated CRDs carry it as the raw JSON null.
				size := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"]
				size.Default = &apiextensionsv1.JSON{Raw: []byte("null")}
				crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"] = size
			}
			if errs := crdcheck.ValidateCRD(context.Background(), crd); len(errs) > 0 {
				t.Fatalf("the apiserver's validation rejects the CRD, the case proves nothing: %v", errs.ToAggregate())
			}
			p, err := objectpath.New(crd, "v1")
			if err != nil {
				t.Fatal(err)
			}
			obj := decodeOne(t, tc.object)
			obj["apiVersion"], obj["kind"] = "seeds.example.com/v1", "Example"
			obj["metadata"] = map[string]any{"name": "x", "namespace": "default"}
			res := p.Normalize(context.Background(), obj)
			if tc.objectErr == "" {
				if len(res.Errors) > 0 {
					t.Fatalf("object fails: %v", res.Errors.ToAggregate())
				}
				if spec := res.Object["spec"].(map[string]any); len(spec) != 0 {
					t.Fatalf("the null default was applied: %v", spec)
				}
			} else if !strings.Contains(res.Errors.ToAggregate().Error(), tc.objectErr) {
				t.Fatalf("stored object errors %v, want %q", res.Errors, tc.objectErr)
			}
			_, errs := crdcheck.Check(context.Background(), crd)
			if len(errs) != 1 {
				t.Fatalf("Check's later errors = %v, want one error", errs)
			}
			if errs[0].Field != tc.field || !strings.Contains(errs[0].Error(), tc.detail) {
				t.Errorf("CheckDefaults = %s, want field %s and %q", errs[0].Error(), tc.field, tc.detail)
			}
		})
	}
}

// exampleCRD wraps an example schema, which the KEPs write for the whole
// object, as the root schema of a namespaced CRD.
func exampleCRD(schemaYAML string) *apiextensionsv1.CustomResourceDefinition {
	return keprows.MustCRDFromYAML("seeds.example.com", schemaYAML)
}

// decodeOne decodes one YAML or JSON object as the apiserver would.
func decodeOne(t *testing.T, s string) map[string]any {
	t.Helper()
	b, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	obj, err := jsonnum.DecodeObject(b)
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return obj
}

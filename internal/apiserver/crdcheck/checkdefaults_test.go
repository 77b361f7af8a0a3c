package crdcheck_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// TestCheckDefaultsListTypes: the apiserver never checks
// x-kubernetes-list-type uniqueness in a default
// (defaulting.ValidateDefaults has no listtype step), so a list-map
// default with duplicate keys, alone or once its items are defaulted, is
// accepted, and every object that omits the field is then refused.
func TestCheckDefaultsListTypes(t *testing.T) {
	const field = "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].default[1]"
	for _, tc := range []struct{ name, def, nameDefault, detail string }{
		{"duplicate keys in the default itself", `[{"name":"http"},{"name":"http"}]`, "", "does not check x-kubernetes-list-type"},
		{"duplicate keys once the items are defaulted", `[{},{}]`, "\n              default: http", "nested below it applied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			crd := exampleCRD("type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      ports:\n        type: array\n" +
				"        x-kubernetes-list-type: map\n        x-kubernetes-list-map-keys: [name]\n        default: " + tc.def + "\n" +
				"        items:\n          type: object\n          properties:\n            name:\n              type: string" + tc.nameDefault + "\n")
			if tc.nameDefault == "" {
				crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["ports"].Items.Schema.Required = []string{"name"}
			}
			if errs := crdcheck.ValidateCRD(context.Background(), crd); len(errs) > 0 {
				t.Fatalf("the apiserver's validation rejects the CRD, the case proves nothing: %v", errs.ToAggregate())
			}
			p, err := objectpath.New(crd, "v1")
			if err != nil {
				t.Fatal(err)
			}
			obj := decodeOne(t, `{"apiVersion":"seeds.example.com/v1","kind":"Example","metadata":{"name":"x","namespace":"default"},"spec":{}}`)
			if res := p.Normalize(context.Background(), obj); !strings.Contains(res.Errors.ToAggregate().Error(), "spec.ports[1]: Duplicate value") {
				t.Fatalf("stored object errors %v, want a duplicate", res.Errors)
			}
			_, errs := crdcheck.Check(context.Background(), crd)
			if len(errs) != 1 || errs[0].Field != field || !strings.Contains(errs[0].Error(), "Duplicate value") || !strings.Contains(errs[0].Detail, tc.detail) {
				t.Fatalf("Check's later errors = %v, want one Duplicate value at %s mentioning %q", errs, field, tc.detail)
			}
		})
	}
}

// TestCheckDefaultsDoesNotRepeatValidateCRD: a default that is invalid
// alone is ValidateCRD's to report, once, where it is: neither at that
// default nor at the parent default that contains it once stored.
func TestCheckDefaultsDoesNotRepeatValidateCRD(t *testing.T) {
	crd := exampleCRD("type: object\nproperties:\n  spec:\n    type: object\n    default: {}\n    properties:\n      size:\n        type: integer\n        default: large\n")
	if errs := crdcheck.ValidateCRD(context.Background(), crd); len(errs) != 1 || !strings.Contains(errs[0].Field, "properties[size].default") {
		t.Fatalf("ValidateCRD = %v, want the size default", errs)
	}
	if _, errs := crdcheck.Check(context.Background(), crd); len(errs) > 0 {
		t.Errorf("Check's later errors repeat it: %v", errs)
	}
}

// TestCheckDefaultsFormatOnce: a nested default out of its format's range
// (a Go uint32 above 2^31-1 is format int32) is ValidateCRD's to report,
// once, where it is; kube-openapi names the value in the message of the
// parent's error ("... with format int32 in size"), not in its path, and
// CheckDefaults did not tell it was the nested default's.
func TestCheckDefaultsFormatOnce(t *testing.T) {
	for _, format := range []string{"int32"} {
		crd := exampleCRD("type: object\nproperties:\n  spec:\n    type: object\n    default: {}\n    properties:\n      inner:\n        type: object\n        default: {}\n" +
			"        properties:\n          size:\n            type: integer\n            format: " + format + "\n            default: 3000000000\n")
		if errs := crdcheck.ValidateCRD(context.Background(), crd); len(errs) != 1 || !strings.Contains(errs[0].Field, "properties[size].default") {
			t.Fatalf("format %s: ValidateCRD = %v, want the size default", format, errs)
		}
		if _, errs := crdcheck.Check(context.Background(), crd); len(errs) > 0 {
			t.Errorf("format %s: CheckDefaults repeats it: %v", format, errs)
		}
	}
}

// TestCheckDefaultsOrder: findings come in schema order (properties by
// name), the same on every run, though schemas are Go maps.
func TestCheckDefaultsOrder(t *testing.T) {
	schema := "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n"
	for _, k := range []string{"d", "b", "e", "a", "c"} {
		schema += "      " + k + ":\n        type: object\n        additionalProperties:\n          type: integer\n          minimum: 1\n          default: 0\n"
	}
	crd := exampleCRD(schema)
	var first []string
	for i := 0; i < 20; i++ {
		var fields []string
		_, later := crdcheck.Check(context.Background(), crd)
		for _, e := range later {
			fields = append(fields, e.Field)
		}
		if i == 0 {
			first = fields
			if len(first) != 5 || !strings.Contains(first[0], "properties[a]") || !strings.Contains(first[4], "properties[e]") {
				t.Fatalf("findings %v, want a to e", first)
			}
		} else if !reflect.DeepEqual(fields, first) {
			t.Fatalf("run %d: %v, first run: %v", i, fields, first)
		}
	}
}

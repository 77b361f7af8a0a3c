package refusal_test

import (
	"context"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/refusal"
)

// TestText: each refusal of a default that the apiserver's own validation
// makes (crdcheck.ValidateDefaultInIsolation, defaulting.ValidateDefaults
// as on CRD create), in words: the value, what the schema asks, and the
// schema keyword; the path kept where it says more than "default".
func TestText(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"minProperties", `{type: object, minProperties: 1, default: {}}`,
			"the default {} has 0 properties; the schema requires at least 1 (minProperties)"},
		{"maxProperties", `{type: object, maxProperties: 1, properties: {a: {type: string}, b: {type: string}}, default: {a: "x", b: "y"}}`,
			`the default {"a":"x","b":"y"} has 2 properties; the schema allows at most 1 (maxProperties)`},
		{"required", `{type: object, required: [protocol], properties: {protocol: {type: string}}, default: {}}`,
			"the default leaves out protocol, which the schema requires (required)"},
		{"required below", `{type: object, properties: {a: {type: object, required: [b], properties: {b: {type: string}}}}, default: {a: {}}}`,
			"the default's a leaves out b, which the schema requires (required)"},
		{"enum", `{type: string, enum: [TCP, UDP], default: ""}`,
			`the default "" is not one of the values the schema allows, "TCP", "UDP" (enum)`},
		{"minLength below", `{type: object, properties: {name: {type: string, minLength: 1}}, default: {name: ""}}`,
			`the default's name "" is 0 characters long; the schema requires at least 1 (minLength)`},
		{"maxLength", `{type: string, maxLength: 2, default: abcd}`,
			`the default "abcd" is 4 characters long; the schema allows at most 2 (maxLength)`},
		{"pattern", `{type: string, pattern: "^a+$", default: b}`,
			`the default "b" does not match the schema's pattern ^a+$ (pattern)`},
		{"minimum", `{type: integer, minimum: 1, default: 0}`, "the default 0 is less than the schema's minimum 1 (minimum)"},
		{"exclusiveMinimum", `{type: integer, minimum: 1, exclusiveMinimum: true, default: 1}`,
			"the default 1 is not greater than 1 (minimum, exclusiveMinimum)"},
		{"maximum", `{type: integer, maximum: 3, default: 5}`, "the default 5 is greater than the schema's maximum 3 (maximum)"},
		{"multipleOf", `{type: integer, multipleOf: 2, default: 3}`, "the default 3 is not a multiple of 2 (multipleOf)"},
		{"minItems", `{type: array, minItems: 1, items: {type: string}, default: []}`,
			"the default [] has 0 items; the schema requires at least 1 (minItems)"},
		{"maxItems", `{type: array, maxItems: 1, items: {type: string}, default: [a, b]}`,
			`the default ["a","b"] has 2 items; the schema allows at most 1 (maxItems)`},
		{"type", `{type: integer, default: three}`, `the default "three" is a string; the schema's type is integer (type)`},
		{"format", `{type: string, format: duration, default: soon}`, `the default "soon" is not a valid duration (format)`},
		{"CEL", `{type: object, properties: {a: {type: integer}}, x-kubernetes-validations: [{rule: "self.a > 1", message: "a must exceed 1"}], default: {a: 0}}`,
			`the default {"a":0} fails a validation rule of the schema: a must exceed 1 (x-kubernetes-validations)`},
		{"CEL rule", `{type: object, properties: {a: {type: integer}}, x-kubernetes-validations: [{rule: "self.a > 1"}], default: {a: 0}}`,
			`the default {"a":0} fails the schema's validation rule self.a > 1 (x-kubernetes-validations)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s apiextensionsv1.JSONSchemaProps
			if err := yaml.Unmarshal([]byte(tc.schema), &s); err != nil {
				t.Fatal(err)
			}
			errs := crdcheck.ValidateDefaultInIsolation(context.Background(), &s)
			if len(errs) == 0 {
				t.Fatalf("the apiserver accepts %s", tc.schema)
			}
			if got := refusal.Text(errs, s.Default.Raw); got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", errs.ToAggregate(), got, tc.want)
			}
			if got := refusal.Text(errs, nil); strings.Contains(got, "Invalid value") || strings.Contains(got, "in body") {
				t.Errorf("without the value: %s", got)
			}
			if got := refusal.Text(errs, nil); tc.name == "type" && got != "the default is a string; the schema's type is integer (type)" {
				t.Errorf("without the value: %s", got)
			}
		})
	}
}

// TestPaths: a path longer than "default" is kept before the words, the
// cause that the nested-defaults check appends stays after them, and an
// error that is not about a default, or that Text does not know, is the
// apiserver's.
func TestPaths(t *testing.T) {
	long := field.NewPath("spec").Child("versions").Index(0).Child("schema", "openAPIV3Schema").Child("properties").Key("spec").Child("properties").Key("sails").Child("default")
	for _, tc := range []struct {
		e    *field.Error
		raw  string
		want string
	}{
		{field.Invalid(long, int64(0), " in body should have at least 1 properties"), `{}`,
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[sails].default: the default {} has 0 properties; the schema requires at least 1 (minProperties)"},
		{field.TooMany(long, 2, 1), `[1,2]`,
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[sails].default: the default [1,2] has 2 items; the schema allows at most 1 (maxItems)"},
		{func() *field.Error {
			e := field.TooMany(long, 2, 1)
			e.Detail += " (the default with the defaults nested below it applied, as the apiserver stores it)"
			return e
		}(), `[1]`,
			"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[sails].default: the default as the apiserver stores it (with the defaults below it applied) has 2 items; " +
				"the schema allows at most 1 (maxItems)"},
		{field.Invalid(field.NewPath("default", "port"), int64(0), "in body should be greater than or equal to 1 (the apiserver does not validate defaults under additionalProperties)"), `{"port":0}`,
			"the default's port 0 is less than the schema's minimum 1 (minimum) (the apiserver does not validate defaults under additionalProperties)"},
		{field.Required(field.NewPath("metadata", "annotations").Key("api-approved.kubernetes.io"), "protected groups must have approval annotation"), ``,
			"metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation"},
		{field.Invalid(field.NewPath("default"), "x", "must result in valid metadata: x"), `{}`,
			`default: Invalid value: "x": must result in valid metadata: x`},
		{field.Duplicate(field.NewPath("default").Index(1), "a"), `["a","a"]`,
			`the default holds "a" twice (item 1); its x-kubernetes-list-type allows each once`},
		{field.Duplicate(field.NewPath("default", "ports").Index(2), map[string]any{"port": 80}), `{"ports":[{"port":80},{"port":80}]}`,
			`the default's ports holds {"port":80} twice (item 2); its x-kubernetes-list-type allows each once`},
	} {
		var raw []byte
		if tc.raw != "" {
			raw = []byte(tc.raw)
		}
		if got := refusal.Text(field.ErrorList{tc.e}, raw); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.e, got, tc.want)
		}
	}
	three := field.ErrorList{field.Required(field.NewPath("default", "a"), ""), field.Required(field.NewPath("default", "b"), ""),
		field.Required(field.NewPath("default", "c"), ""), field.Required(field.NewPath("default", "d", "e"), ""), field.TooMany(field.NewPath("default", "f"), 2, 1)}
	if got, want := refusal.Text(three, []byte(`{"d":{},"f":[1,2]}`)), "the default leaves out a, b and c, which the schema requires (required); "+
		"the default's d leaves out e, which the schema requires (required); the default's f [1,2] has 2 items; the schema allows at most 1 (maxItems)"; got != want {
		t.Errorf("several errors:\n got %s\nwant %s", got, want)
	}
}

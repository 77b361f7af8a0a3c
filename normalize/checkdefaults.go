package normalize

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// CheckDefaults finds the defaults that the apiserver accepts on CRD create
// but that break the objects it then stores. ValidateCRD checks each default
// on its own, before nested defaults apply (defaulting.ValidateDefaults);
// the apiserver stores the default with every nested default applied
// (defaulting.Default is top-down). So:
//
//   - each default is validated again with the defaults below it applied,
//     against its own sub-schema: OpenAPI validation (maxProperties, ...),
//     the list-set and list-map invariants (which ValidateCRD never checks
//     in a default, even one that nested defaults do not change) and CEL
//     rules with the runtime cost budget (validateValue);
//   - defaults under additionalProperties, which the apiserver never
//     validates, are validated like the others;
//   - `default: null`, which the apiserver silently ignores, is an error.
//
// Failures ValidateCRD already reports (the default alone is invalid) are
// not repeated. Error paths have the apiserver's form, e.g.
// spec.versions[0].schema.openAPIV3Schema.properties[spec].default.
func CheckDefaults(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	for i, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		base := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		errs = append(errs, nullDefaults(base, v.Schema.OpenAPIV3Schema)...)
		internal := &apiextensions.JSONSchemaProps{}
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
			errs = append(errs, field.InternalError(base, err))
			continue
		}
		s, err := structuralschema.NewStructural(internal)
		if err != nil {
			continue // not structural: ValidateCRD reports it
		}
		errs = append(errs, nestedDefaults(ctx, base, s, false)...)
	}
	return errs
}

// nullDefaults reports `default: null`: the apiserver converts it to "no
// default" without a word, so the author's intent is silently lost.
func nullDefaults(pth *field.Path, s *apiextensionsv1.JSONSchemaProps) field.ErrorList {
	var errs field.ErrorList
	if s.Default != nil && string(s.Default.Raw) == "null" {
		errs = append(errs, field.Invalid(pth.Child("default"), nil,
			"default null is ignored by the apiserver: remove it, or set nullable and leave the field out"))
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[k]
		errs = append(errs, nullDefaults(pth.Child("properties").Key(k), &p)...)
	}
	if s.Items != nil && s.Items.Schema != nil {
		errs = append(errs, nullDefaults(pth.Child("items"), s.Items.Schema)...)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		errs = append(errs, nullDefaults(pth.Child("additionalProperties"), s.AdditionalProperties.Schema)...)
	}
	return errs
}

// nestedDefaults walks s. underMap is true below additionalProperties,
// where the apiserver validates no default at all.
func nestedDefaults(ctx context.Context, pth *field.Path, s *structuralschema.Structural, underMap bool) field.ErrorList {
	var errs field.ErrorList
	if s.Default.Object != nil {
		errs = append(errs, checkDefault(ctx, pth, s, underMap)...)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[k]
		errs = append(errs, nestedDefaults(ctx, pth.Child("properties").Key(k), &p, underMap)...)
	}
	if s.Items != nil {
		errs = append(errs, nestedDefaults(ctx, pth.Child("items"), s.Items, underMap)...)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		errs = append(errs, nestedDefaults(ctx, pth.Child("additionalProperties"), s.AdditionalProperties.Structural, true)...)
	}
	return errs
}

// checkDefault validates one default as it is stored: with the nested
// defaults applied (defaulting.Default is top-down), and with the list-set
// and list-map invariants that ValidateCRD never checks in a default.
//
// A default that is invalid alone is left to ValidateCRD, which reports it
// (defaulting.ValidateDefaults: OpenAPI and CEL), except below
// additionalProperties, where the apiserver validates no default at all.
func checkDefault(ctx context.Context, pth *field.Path, s *structuralschema.Structural, underMap bool) field.ErrorList {
	if !underMap && len(validateAlone(ctx, pth.Child("default"), s, s.Default.Object)) > 0 {
		return nil // invalid on its own: ValidateCRD reports it
	}
	stored := runtime.DeepCopyJSONValue(s.Default.Object)
	structuraldefaulting.Default(stored, s)
	cause := " (the default with the defaults nested below it applied, as the apiserver stores it)"
	switch {
	case underMap:
		cause = " (the apiserver does not validate defaults under additionalProperties)"
	case reflect.DeepEqual(stored, s.Default.Object):
		cause = " (the apiserver does not check x-kubernetes-list-type uniqueness in defaults)"
	}
	var out field.ErrorList
	for _, e := range validateValue(ctx, pth, s, stored) {
		if invalidBelow(ctx, s, strings.TrimPrefix(e.Field, pth.Child("default").String())) {
			continue // a nested default is itself invalid, and reported where it is
		}
		e.Detail += cause
		out = append(out, e)
	}
	return out
}

// defaultBroken reports whether the default of s is invalid alone or with
// the defaults below it applied.
func defaultBroken(ctx context.Context, s *structuralschema.Structural) bool {
	if len(validateValue(ctx, nil, s, s.Default.Object)) > 0 {
		return true
	}
	stored := runtime.DeepCopyJSONValue(s.Default.Object)
	structuraldefaulting.Default(stored, s)
	return len(validateValue(ctx, nil, s, stored)) > 0
}

// invalidBelow reports whether a default on the way from s down the value
// path rest (".a.b[0]") is broken itself, so that the error is reported
// there and not again at every default above it.
func invalidBelow(ctx context.Context, s *structuralschema.Structural, rest string) bool {
	for _, seg := range valuePath(rest) {
		switch {
		case seg == "[]" && s.Items != nil:
			s = s.Items
		case seg != "[]" && s.Properties != nil:
			p, ok := s.Properties[seg]
			if !ok {
				return false
			}
			s = &p
		case seg != "[]" && s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil:
			s = s.AdditionalProperties.Structural
		default:
			return false
		}
		if s.Default.Object != nil && defaultBroken(ctx, s) {
			return true
		}
	}
	return false
}

// valuePath splits ".a.b[0][k]" into a, b, [], k.
func valuePath(p string) []string {
	var out []string
	for _, part := range strings.Split(strings.TrimPrefix(p, "."), ".") {
		name, idx, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		for idx != "" {
			var key string
			key, idx, _ = strings.Cut(idx, "]")
			if _, err := strconv.Atoi(key); err == nil {
				out = append(out, "[]")
			} else {
				out = append(out, key)
			}
			idx = strings.TrimPrefix(idx, "[")
		}
	}
	return out
}

package crdcheck

import (
	"context"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Check is ValidateCRD (invalid) and checkDefaults (later: the defaults
// the apiserver accepts but whose objects it then refuses) on one
// conversion of crd to the internal type: what the generator runs for
// every CRD it writes.
func Check(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition) (invalid, later field.ErrorList) {
	internal, err := ToInternal(crd)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}, nil
	}
	return validation.ValidateCustomResourceDefinition(ctx, internal), checkDefaults(ctx, crd, internal)
}

// checkDefaults finds the defaults that the apiserver accepts on CRD create
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
//
// internal is crd's conversion (ToInternal), which holds a version's
// schema in spec.validation when every version has the same one.
func checkDefaults(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, internal *apiextensions.CustomResourceDefinition) field.ErrorList {
	var errs field.ErrorList
	for i, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		base := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		if hasNullDefault(v.Schema.OpenAPIV3Schema) {
			errs = append(errs, nullDefaults(base, v.Schema.OpenAPIV3Schema)...)
		}
		schema := internal.Spec.Validation
		if iv := internal.Spec.Versions[i].Schema; iv != nil {
			schema = iv
		}
		if schema == nil || schema.OpenAPIV3Schema == nil {
			continue
		}
		s, err := structuralschema.NewStructural(schema.OpenAPIV3Schema)
		if err != nil {
			continue // not structural: ValidateCRD reports it
		}
		errs = append(errs, nestedDefaults(ctx, base, newNode(s), false)...)
	}
	return errs
}

// hasNullDefault reports whether s or a schema below it has `default:
// null`, without building the paths that nullDefaults reports.
func hasNullDefault(s *apiextensionsv1.JSONSchemaProps) bool {
	if s.Default != nil && string(s.Default.Raw) == "null" {
		return true
	}
	for _, p := range s.Properties {
		if hasNullDefault(&p) {
			return true
		}
	}
	return (s.Items != nil && s.Items.Schema != nil && hasNullDefault(s.Items.Schema)) ||
		(s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil && hasNullDefault(s.AdditionalProperties.Schema))
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
func nestedDefaults(ctx context.Context, pth *field.Path, n node, underMap bool) field.ErrorList {
	var errs field.ErrorList
	if n.s.Default.Object != nil {
		errs = append(errs, checkDefault(ctx, pth, n, underMap)...)
	}
	for _, k := range slices.Sorted(maps.Keys(n.s.Properties)) {
		errs = append(errs, nestedDefaults(ctx, pth.Child("properties").Key(k), n.property(k), underMap)...)
	}
	if n.s.Items != nil {
		errs = append(errs, nestedDefaults(ctx, pth.Child("items"), n.items(), underMap)...)
	}
	if n.s.AdditionalProperties != nil && n.s.AdditionalProperties.Structural != nil {
		errs = append(errs, nestedDefaults(ctx, pth.Child("additionalProperties"), n.additionalProperties(), true)...)
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
// A scalar default has nothing nested and no list type: ValidateCRD has
// said all there is to say about it.
func checkDefault(ctx context.Context, pth *field.Path, n node, underMap bool) field.ErrorList {
	s := n.s
	switch s.Default.Object.(type) {
	case map[string]any, []any:
	default:
		if !underMap {
			return nil
		}
	}
	stored := runtime.DeepCopyJSONValue(s.Default.Object)
	structuraldefaulting.Default(stored, s)
	var errs field.ErrorList
	if !underMap && reflect.DeepEqual(stored, s.Default.Object) {
		// OpenAPI and CEL see what ValidateCRD saw; only the list types are new
		errs = listSetsAndMaps(pth, s, stored)
	} else {
		errs = n.validateValue(ctx, pth, stored)
	}
	if len(errs) == 0 {
		return nil
	}
	if !underMap && len(n.validateAlone(ctx, pth.Child("default"), s.Default.Object)) > 0 {
		return nil // invalid on its own: ValidateCRD reports it
	}
	cause := " (the default with the defaults nested below it applied, as the apiserver stores it)"
	switch {
	case underMap:
		cause = " (the apiserver does not validate defaults under additionalProperties)"
	case reflect.DeepEqual(stored, s.Default.Object):
		cause = " (the apiserver does not check x-kubernetes-list-type uniqueness in defaults)"
	}
	var out field.ErrorList
	for _, e := range errs {
		if invalidBelow(ctx, n, valuePathOf(e, pth.Child("default").String())) {
			continue // a nested default is itself invalid, and reported where it is
		}
		e.Detail += cause
		out = append(out, e)
	}
	return out
}

// defaultBroken reports whether the default of n is invalid alone or with
// the defaults below it applied.
func defaultBroken(ctx context.Context, n node) bool {
	if len(n.validateValue(ctx, nil, n.s.Default.Object)) > 0 {
		return true
	}
	stored := runtime.DeepCopyJSONValue(n.s.Default.Object)
	structuraldefaulting.Default(stored, n.s)
	return len(n.validateValue(ctx, nil, stored)) > 0
}

// invalidBelow reports whether a default on the way from n down the value
// path rest (".a.b[0]") is broken itself, so that the error is reported
// there and not again at every default above it.
func invalidBelow(ctx context.Context, n node, rest string) bool {
	for _, seg := range valuePath(rest) {
		switch {
		case seg == "[]" && n.s.Items != nil:
			n = n.items()
		case seg != "[]" && n.s.Properties != nil:
			if _, ok := n.s.Properties[seg]; !ok {
				return false
			}
			n = n.property(seg)
		case seg != "[]" && n.s.AdditionalProperties != nil && n.s.AdditionalProperties.Structural != nil:
			n = n.additionalProperties()
		default:
			return false
		}
		if n.s.Default.Object != nil && defaultBroken(ctx, n) {
			return true
		}
	}
	return false
}

// formatIn is the end of kube-openapi's format error, which names the value
// that fails in its message, not in its path: "Checked value must be of
// type integer with format int32 in u" is at the default's path, about
// the default's property u.
var formatIn = regexp.MustCompile(`^Checked value must be of type \S+ with format \S+ in (\S+)$`)

// valuePathOf is the path of e in the default at dflt, ".a.b[0]": the rest
// of its field path, or, for a format error at the default itself, the
// value its message names (formatIn). A nested default out of its format's
// range (a uint32 default above 2^31-1, format int32) is then reported
// once, where it is, not again at each default above it.
func valuePathOf(e *field.Error, dflt string) string {
	rest := strings.TrimPrefix(e.Field, dflt)
	if rest == "" {
		if m := formatIn.FindStringSubmatch(e.Detail); m != nil {
			return "." + m[1]
		}
	}
	return rest
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

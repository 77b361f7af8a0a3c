package normalize

import (
	"context"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateDefaultInIsolation validates the default of s, and every default
// below it, exactly as the apiserver does on CRD create: each default on its
// own against its own sub-schema, before any nested default is applied
// (defaulting.ValidateDefaults with requirePrunedDefaults, as
// apiextensions/validation does for v1 CRDs). Error paths start at
// "default".
func ValidateDefaultInIsolation(ctx context.Context, s *apiextensionsv1.JSONSchemaProps) field.ErrorList {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, internal, nil); err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	ss, err := structuralschema.NewStructural(internal)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	errs, err := defaulting.ValidateDefaults(ctx, nil, ss, false, true)
	if err != nil {
		return append(errs, field.InternalError(nil, err))
	}
	return errs
}

// StoredValue returns v, an object, as the apiserver's decode stores it at a
// node whose schema is s: non-nullable nulls without a default pruned
// (defaulting.PruneNonNullableNullsWithoutDefaults), then, with
// applyDefaults, the defaults below s applied top-down (defaulting.Default).
// v is not changed.
func StoredValue(s *apiextensionsv1.JSONSchemaProps, v map[string]any, applyDefaults bool) (map[string]any, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, internal, nil); err != nil {
		return nil, err
	}
	ss, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, err
	}
	out := runtime.DeepCopyJSON(v)
	defaulting.PruneNonNullableNullsWithoutDefaults(out, ss)
	if applyDefaults {
		defaulting.Default(out, ss)
	}
	return out, nil
}

package crdcheck

import (
	"context"
	"encoding/json"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
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
// v is not changed. Its numbers may be of any kind that encoding/json
// writes (float64, json.Number, the generators' exact jsonnum.Number): v is
// encoded and decoded again as the apiserver decodes a request body, its
// integers exact int64s (k8s.io/apimachinery/pkg/util/json), so that
// nothing in between rounds through a float64.
func StoredValue(s *apiextensionsv1.JSONSchemaProps, v map[string]any, applyDefaults bool) (map[string]any, error) {
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, internal, nil); err != nil {
		return nil, err
	}
	ss, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, err
	}
	out, err := AsDecoded(v)
	if err != nil {
		return nil, err
	}
	defaulting.PruneNonNullableNullsWithoutDefaults(out, ss)
	if applyDefaults {
		defaulting.Default(out, ss)
	}
	return out, nil
}

// AsDecoded returns v, an object, as the apiserver holds it once it has
// decoded its JSON: encoded, then decoded as a request body is
// (jsonnum.DecodeObject: an integer that fits is an int64, any other
// number a float64).
func AsDecoded(v map[string]any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonnum.DecodeObject(b)
}

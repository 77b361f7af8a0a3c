package objectpath

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// coerce is steps 1 to 3 of Normalize: unstructuredSchemaCoercer.apply in
// pkg/apiserver/customresource_handler.go, configured as the request decoder
// configures it (unstructuredNegotiatedSerializer.DecoderToVersion):
//
//   - dropInvalidMetadata false: metadata that does not decode into
//     ObjectMeta (labels: 5, say), at the root or in an embedded resource,
//     is a decode error, answered with 400 Bad Request. Only the storage
//     read path (crdConversionRESTOptionsGetter) drops it silently;
//   - returnUnknownFieldPaths true, as for fieldValidation Warn (the
//     apiserver's default) and Strict: the unknown field paths are returned.
//
// It saves apiVersion, kind and the root ObjectMeta
// (schemaobjectmeta.GetObjectMetaWithOptions), prunes unknown fields
// (structuralpruning.PruneWithOptions with isResourceRoot) and removes the
// non-nullable nulls that have no default
// (structuraldefaulting.PruneNonNullableNullsWithoutDefaults), both unless
// the legacy spec.preserveUnknownFields; then it coerces the metadata of
// embedded resources (schemaobjectmeta.CoerceWithOptions) and writes the
// saved fields back (schemaobjectmeta.SetObjectMeta).
//
// It returns the unknown field paths and, if the apiserver would refuse to
// decode the object, why.
func (p *Pipeline) coerce(u *unstructured.Unstructured) ([]string, *field.Error) {
	return coerceWith(u, p.structural, p.preserveUnknownFields, true)
}

// coerceWith is unstructuredSchemaCoercer.apply with the schema s, without
// dropInvalidMetadata or repairGeneration; trackUnknown is its
// returnUnknownFieldPaths. The storage codec's encoder
// (schemaCoercingConverter) applies it with neither option, with the
// schema of the storage version.
func coerceWith(u *unstructured.Unstructured, s *structuralschema.Structural, preserveUnknownFields, trackUnknown bool) ([]string, *field.Error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, decodeError(field.NewPath("kind"), err)
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, decodeError(field.NewPath("apiVersion"), err)
	}
	objectMeta, foundObjectMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object,
		schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: trackUnknown})
	if err != nil {
		return nil, decodeError(field.NewPath("metadata"), err)
	}
	if !preserveUnknownFields {
		unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, s, true,
			structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: trackUnknown})...)
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	}
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false,
		schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: trackUnknown})
	if ferr != nil {
		return unknown, ferr
	}
	unknown = append(unknown, paths...)
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := SetObjectMeta(u.Object, objectMeta); err != nil {
			return unknown, decodeError(field.NewPath("metadata"), err)
		}
	}
	return unknown, nil
}

// SetObjectMeta writes the root metadata back (schemaobjectmeta.SetObjectMeta)
// without the null creationTimestamp a zero metav1.Time becomes: the
// apiserver sets a real one on create, which we do not invent.
func SetObjectMeta(obj map[string]any, objectMeta *metav1.ObjectMeta) error {
	if err := schemaobjectmeta.SetObjectMeta(obj, objectMeta); err != nil {
		return err
	}
	if m, ok := obj["metadata"].(map[string]any); ok {
		if ts, found := m["creationTimestamp"]; found && ts == nil {
			delete(m, "creationTimestamp")
		}
	}
	return nil
}

// decodeError is an object the apiserver refuses to decode (400 Bad
// Request, "... cannot be handled as a Kind: <err>").
func decodeError(pth *field.Path, err error) *field.Error {
	return &field.Error{Type: field.ErrorTypeInvalid, Field: pth.String(), BadValue: field.OmitValueType{},
		Detail: fmt.Sprintf("the apiserver cannot decode the object: %v", err)}
}

package impact

import (
	"fmt"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// The storage codec of a CRD (customresource_handler.go,
// crdConversionRESTOptionsGetter.GetRESTOptions): a versioning codec whose
// decoder is a schemaCoercingDecoder (unstructuredSchemaCoercer with
// dropInvalidMetadata and repairGeneration), whose converter is a
// schemaCoercingConverter (unstructuredSchemaCoercer without options), and
// whose defaulter is the unstructuredDefaulter. The versioning codec
// (k8s.io/apimachinery/pkg/runtime/serializer/versioning, codec.Decode)
// defaults a decoded object before it converts it. Conversion between
// versions (convert, convert.go) is the None strategy's, where only
// apiVersion changes, unless --convert gives the API's own code, which the
// apiserver's webhook converter calls as it calls a conversion webhook.

// coercer is unstructuredSchemaCoercer: its options, for one definition.
type coercer struct {
	def                 *definition
	dropInvalidMetadata bool
	repairGeneration    bool
}

// apply is unstructuredSchemaCoercer.apply, on an object of this
// definition's kind, with the schema of the object's version: save
// apiVersion, kind and metadata; prune unknown fields and the non-nullable
// nulls without a default (unless spec.preserveUnknownFields); coerce the
// metadata of embedded resources; write the saved fields back, the
// generation repaired to 1 if it is 0 and repairGeneration.
func (c coercer) apply(u *unstructured.Unstructured) error {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return err
	}
	objectMeta, foundObjectMeta, _, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object,
		schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: c.dropInvalidMetadata})
	if err != nil {
		return err
	}
	s, err := c.schema(u)
	if err != nil {
		return err
	}
	if !c.def.crd.Spec.PreserveUnknownFields {
		structuralpruning.PruneWithOptions(u.Object, s, true, structuralschema.UnknownFieldPathOptions{})
		structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	}
	if err, _ := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false,
		schemaobjectmeta.CoerceOptions{DropInvalidFields: c.dropInvalidMetadata}); err != nil {
		return err
	}
	if c.repairGeneration && objectMeta.Generation == 0 {
		objectMeta.Generation = 1
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		return objectpath.SetObjectMeta(u.Object, objectMeta)
	}
	return nil
}

// schema is the structural schema of u's version.
func (c coercer) schema(u *unstructured.Unstructured) (*structuralschema.Structural, error) {
	v, ok := c.def.versions[u.GroupVersionKind().Version]
	if !ok {
		return nil, fmt.Errorf("CRD %s has no version %q", c.def.crd.Name, u.GroupVersionKind().Version)
	}
	return v.schema()
}

// toStorage is what the storage codec writes for obj, a request already
// defaulted in its own version: obj converted to the storage version and
// coerced with that version's schema (the schemaCoercingConverter of the
// codec's encoder; the encoder does not default).
func (d *definition) toStorage(obj map[string]any) (map[string]any, error) {
	u, err := d.convert(&unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}, d.storageVersion)
	if err != nil {
		return nil, err
	}
	if err := (coercer{def: d}).apply(u); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// fromStorage is what the storage codec reads from stored, an object as
// written by toStorage (of this or an earlier definition of the CRD), for a
// request at version: coerced with the schema of the version it is stored
// at (dropping invalid metadata, repairing the generation), defaulted with
// that schema, then converted to version and coerced with its schema.
// Defaults are applied in the stored version only, as the versioning codec
// does (Decode defaults before it converts); the converter coerces even
// when the versions are the same.
func (d *definition) fromStorage(stored map[string]any, version string) (map[string]any, error) {
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(stored)}
	if err := (coercer{def: d, dropInvalidMetadata: true, repairGeneration: true}).apply(u); err != nil {
		return nil, err
	}
	s, err := (coercer{def: d}).schema(u)
	if err != nil {
		return nil, err
	}
	structuraldefaulting.Default(u.Object, s)
	if u, err = d.convert(u, version); err != nil {
		return nil, err
	}
	if err := (coercer{def: d}).apply(u); err != nil {
		return nil, err
	}
	return u.Object, nil
}

// convertTo is obj converted to version by the storage codec's converter
// and pruned with that version's schema (schemaCoercingConverter), without
// defaulting.
func (d *definition) convertTo(obj map[string]any, version string) (map[string]any, error) {
	u, err := d.convert(&unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}, version)
	if err != nil {
		return nil, err
	}
	if err := (coercer{def: d}).apply(u); err != nil {
		return nil, err
	}
	return u.Object, nil
}

package impact

import (
	"reflect"
	"strings"
	"sync/atomic"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// createdAsRead says that nothing of the object can be held by ratcheting,
// without running heldByRatcheting's writes (asIfNew), for an object whose
// read under NEW is exactly what OLD's create accepted, checked by the
// same rules. Ratcheted values are the errors of a write of every value
// as new (asIfNew: an update from the object's skeleton) that the no-op
// update does not get. Here every such error would be one of:
//   - a value's OpenAPI or CEL error: a write of every value as new
//     validates each value as the create did (no old value: nothing
//     ratchets, no transition rule runs), the same values by the same
//     rules, and the create found none;
//   - a metadata, size or request error: the skeleton has the object's
//     metadata and the update sends the no-op update's body, so the no-op
//     update gets the same ones, and they are not counted;
//   - a transition rule at the root of the schema, the one value that the
//     skeleton has (so oldSelf is the skeleton there), or a value written
//     through the status subresource, which the create did not validate:
//     objects with either take the full path.
//
// The read's equality with the stored object follows from the same
// version and the same rules (the same defaults and pruning), and a
// status the create wrote through the status subresource was validated by
// the same rules too; both are checked anyway, as the premises of the
// argument, and cost little. TestFastPathIsFullPath checks the shortcut on
// every test object and random ones, against NEW CRDs that change the
// rules and one that does not.
func createdAsRead(old, new *definition, version string, st stored, rb readBack, statusSubresource bool) bool {
	if fullPath || rb.version != version || len(st.problems) > 0 || statusSubresource && hasStatus(rb.object) {
		return false
	}
	if !reflect.DeepEqual(st.object, rb.object) || !validatesAlike(old.crd, new.crd, version) {
		return false
	}
	createdAsReadSkips.Add(1)
	return true
}

// createdAsReadSkips counts, for the tests, the objects createdAsRead
// spared.
var createdAsReadSkips atomic.Int64

// validatesAlike: OLD's and NEW's CRDs validate objects of version by the
// same rules: the same group, names and scope, the same schema (with its
// CEL rules), subresources and selectable fields of the version, and no
// transition rule (oldSelf) at the schema's root.
func validatesAlike(old, new *apiextensionsv1.CustomResourceDefinition, version string) bool {
	if old.Spec.Group != new.Spec.Group || old.Spec.Scope != new.Spec.Scope || !reflect.DeepEqual(old.Spec.Names, new.Spec.Names) ||
		old.Spec.PreserveUnknownFields != new.Spec.PreserveUnknownFields {
		return false
	}
	ov, nv := versionEntry(old, version), versionEntry(new, version)
	if ov == nil || nv == nil || !reflect.DeepEqual(ov.Schema, nv.Schema) ||
		!reflect.DeepEqual(ov.Subresources, nv.Subresources) || !reflect.DeepEqual(ov.SelectableFields, nv.SelectableFields) {
		return false
	}
	if ov.Schema != nil && ov.Schema.OpenAPIV3Schema != nil {
		for _, rule := range ov.Schema.OpenAPIV3Schema.XValidations {
			if strings.Contains(rule.Rule, "oldSelf") || rule.OptionalOldSelf != nil && *rule.OptionalOldSelf {
				return false
			}
		}
	}
	return true
}

// versionEntry is the entry of spec.versions named version, or nil.
func versionEntry(crd *apiextensionsv1.CustomResourceDefinition, version string) *apiextensionsv1.CustomResourceDefinitionVersion {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			return &crd.Spec.Versions[i]
		}
	}
	return nil
}

package impact

import (
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// statusUpdateFollows says that the no-op update's write of the status
// (a PUT to /status of the object as read, at version) gets no error,
// without sending it, because asIfNew's status write of the same object
// (asNew, its errors) got none. The two writes send the same body through
// the same status strategy and differ only in the object updated: the
// object as read for the no-op update, the object without its status for
// asIfNew. So:
//   - metadata, type meta, the scale subresource's status and the
//     storage size check see the same objects in both (the status
//     strategy never increments the generation);
//   - outside the status, every value is unchanged in both: the same
//     ratcheting, the same CEL evaluations;
//   - a value of the status is unchanged in the no-op update and new in
//     asIfNew's: an OpenAPI or CEL error of it in the no-op update is one
//     that ratcheting hides, or one it never hides (a CEL evaluation
//     error), which asIfNew's write gets too; but for a transition rule,
//     which runs only in the no-op update (premise: no rule at the
//     status's values reads oldSelf);
//   - the root, changed in asIfNew's write and unchanged in the no-op
//     update, gets no error in the no-op update that it does not get in
//     asIfNew's, but for a transition rule, whose oldSelf differs
//     (premise: none at the root);
//   - so no OpenAPI error blocks the CEL rules in either;
//   - list-type errors are reported only where the object updated has
//     none, which the no-op update's object, the object as read, never
//     lacks;
//   - both writes evaluate the same CEL rules on the same values (no
//     oldSelf in the status), so spend the same cost.
//
// TestFastPathIsFullPath and TestCreatedAsReadRandomSchemas compare the
// records with and without it.
func statusUpdateFollows(newDef *definition, version string, obj map[string]any, asNew []Problem) bool {
	if len(asNew) > 0 {
		return false
	}
	v := versionEntry(newDef.crd, version)
	if v == nil || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return false
	}
	root := v.Schema.OpenAPIV3Schema
	if slices.ContainsFunc(root.XValidations, usesOldSelf) || ruleAt(fieldSchema(root, "status"), obj["status"], usesOldSelf) {
		return false
	}
	return true
}

// ruleAt says whether a CEL rule of a node of v, of schema s, satisfies
// pred.
func ruleAt(s *apiextensionsv1.JSONSchemaProps, v any, pred func(apiextensionsv1.ValidationRule) bool) bool {
	if s == nil {
		return false
	}
	if slices.ContainsFunc(s.XValidations, pred) {
		return true
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if ruleAt(fieldSchema(s, k), x, pred) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if ruleAt(itemSchema(s), x, pred) {
				return true
			}
		}
	}
	return false
}

// hasOptionalOldSelf says whether a rule has optionalOldSelf.
func hasOptionalOldSelf(rule apiextensionsv1.ValidationRule) bool {
	return rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
}

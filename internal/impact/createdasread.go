package impact

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// createdAsRead says that the main write of heldByRatcheting (asIfNew's
// update of the object from its skeleton, which writes every value but
// the status as new) finds nothing that the no-op update does not, without
// running it, for an object whose read under NEW is exactly what OLD's
// create accepted, checked by the same rules. Ratcheted values are the
// errors of asIfNew's writes that the no-op update does not get. Here
// every error of the main write would be one of:
//   - a value's OpenAPI or CEL error outside the status: the write
//     validates each such value as the create did (no old value: nothing
//     ratchets, no transition rule runs), the same values by the same
//     rules (validatesAlike: NEW's schema may differ from OLD's only in
//     descriptions and in fields the object does not have), at the same
//     CEL cost, and the create found none;
//   - a metadata, size or request error: the skeleton has the object's
//     metadata and the write sends the no-op update's body, so the no-op
//     update gets the same ones, and they are not counted. The write
//     differs from the no-op update in one value only, the generation it
//     increments (the spec changed from the skeleton's); premise: the
//     generation is at least 1 and keeps its number of digits, so that
//     the object the storage size check measures has the same size;
//   - a transition rule at the root of the schema, the one value that the
//     skeleton has (so oldSelf is the skeleton there): such CRDs are left
//     out (validatesAlike).
//
// With the status subresource, the skeleton carries the object's status
// (a PUT of the object does not write it), which the create did not
// validate; the status is the no-op update's too, so each of its values
// is ratcheted, or not, as in the no-op update, and its CEL rules run as
// there (statusWriteOnly adds the premises). heldByRatcheting then runs
// the status write alone, which writes the status as new.
//
// Two more premises are checked, not derived: the read equals the stored
// object (NEW's pruning and defaults changed nothing, which also makes the
// no-op update's body the object the create validated), and the object
// was stored without a problem. TestFastPathIsFullPath checks the shortcut
// on every test object and random ones, against NEW CRDs that change the
// rules, change them only in fields some objects lack, and change nothing;
// TestCreatedAsReadRandomSchemas on random schemas changed at random nodes.
func createdAsRead(old, new *definition, version string, st stored, rb readBack, statusSubresource bool, noop *Update) bool {
	if rb.version != version || len(st.problems) > 0 || !generationKeepsDigits(rb.object) {
		return false
	}
	if !reflect.DeepEqual(st.object, rb.object) {
		return false
	}
	rules := old.versions[version].rulesAgainst(new)
	if !rules.judges(rb.object) {
		return false
	}
	if statusSubresource && hasStatus(rb.object) && !statusWriteOnly(rules, rb.object, noop) {
		return false
	}
	return true
}

// statusWriteOnly are the premises under which the main write of an
// object with a status (the status subresource's) gets no error, besides
// createdAsRead's:
//   - the no-op update got no problem: the status's values, ratcheted and
//     evaluated by CEL as there, gave no error there, and no CEL rule ran
//     out of the cost budget;
//   - the root of the schema has no keyword that sees the status (only
//     type and a required list without "status"): the create validated
//     the root without the status, the main write with it;
//   - no CEL rule at the object's values has optionalOldSelf: the main
//     write then evaluates outside the status the rules the create
//     evaluated, all of which the no-op update evaluates on the same
//     values at the same cost, and within it the no-op update's own; so
//     it spends no more of the cost budget than the no-op update, at
//     every rule.
func statusWriteOnly(rules alikeRules, obj map[string]any, noop *Update) bool {
	return noop != nil && len(noop.Problems) == 0 && statusBlindRoot(rules.root) && !ruleAt(rules.root, obj, hasOptionalOldSelf)
}

// statusBlindRoot says that a root schema's own keywords do not depend on
// whether the object has a status: only its type, object, its properties,
// and a required list that does not name status.
func statusBlindRoot(root *apiextensionsv1.JSONSchemaProps) bool {
	if root == nil {
		return true
	}
	own := ownKeywords(root)
	if slices.Contains(own.Required, "status") {
		return false
	}
	own.Required, own.Properties = nil, nil
	return reflect.DeepEqual(own, apiextensionsv1.JSONSchemaProps{Type: "object"})
}

// generationKeepsDigits says that the object's generation is at least 1
// and has as many decimal digits as the generation after it.
func generationKeepsDigits(obj map[string]any) bool {
	g, found, err := unstructured.NestedInt64(obj, "metadata", "generation")
	return found && err == nil && g >= 1 && len(strconv.FormatInt(g, 10)) == len(strconv.FormatInt(g+1, 10))
}

// alikeRules is validatesAlike's judge of the objects of one version:
// tree pairs OLD's and NEW's schemas, unless the CRDs validate the
// version's objects by other rules whatever they hold (ok false); root is
// NEW's schema.
type alikeRules struct {
	ok   bool
	tree *ruleTree
	root *apiextensionsv1.JSONSchemaProps
}

// judges says that OLD and NEW validate obj by the same rules.
func (r alikeRules) judges(obj map[string]any) bool {
	return r.ok && r.tree.judgesAlike(obj)
}

// rulesAgainst is validatesAlike's comparison of v, a version of OLD, with
// the same version of newDef, built on first use, once (v's CRD has one
// counterpart in NEW).
func (v *version) rulesAgainst(newDef *definition) alikeRules {
	v.alikeOnce.Do(func() { v.alike = validatesAlike(v.def.crd, newDef.crd, v.name) })
	return v.alike
}

// validatesAlike: OLD's and NEW's CRDs validate an object of version by
// the same rules when it passes the judge returned: the same group, names
// and scope, subresources and selectable fields of the version, no
// transition rule (oldSelf) at the schema's root, and schemas that judge
// the object alike (ruleTree.judgesAlike: the same keywords and CEL rules
// at each of its values; descriptions, and the schemas of fields it does
// not have, aside).
func validatesAlike(old, new *apiextensionsv1.CustomResourceDefinition, version string) alikeRules {
	if old.Spec.Group != new.Spec.Group || old.Spec.Scope != new.Spec.Scope || !reflect.DeepEqual(old.Spec.Names, new.Spec.Names) ||
		old.Spec.PreserveUnknownFields != new.Spec.PreserveUnknownFields {
		return alikeRules{}
	}
	ov, nv := versionEntry(old, version), versionEntry(new, version)
	if ov == nil || nv == nil || (ov.Schema == nil) != (nv.Schema == nil) ||
		!reflect.DeepEqual(ov.Subresources, nv.Subresources) || !reflect.DeepEqual(ov.SelectableFields, nv.SelectableFields) {
		return alikeRules{}
	}
	if ov.Schema == nil {
		return alikeRules{ok: true}
	}
	for _, s := range []*apiextensionsv1.JSONSchemaProps{ov.Schema.OpenAPIV3Schema, nv.Schema.OpenAPIV3Schema} {
		if s != nil && slices.ContainsFunc(s.XValidations, usesOldSelf) {
			return alikeRules{}
		}
	}
	return alikeRules{ok: true, tree: pairSchemas(ov.Schema.OpenAPIV3Schema, nv.Schema.OpenAPIV3Schema), root: nv.Schema.OpenAPIV3Schema}
}

// usesOldSelf says whether a rule may read oldSelf: a transition rule (its
// rule or message expression names oldSelf; the apiserver's own test is
// on the compiled program, of which this is a superset) or one with
// optionalOldSelf.
func usesOldSelf(rule apiextensionsv1.ValidationRule) bool {
	return strings.Contains(rule.Rule, "oldSelf") || strings.Contains(rule.MessageExpression, "oldSelf") || rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
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

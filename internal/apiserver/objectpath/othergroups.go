package objectpath

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SkippedOtherGroup names what --skip-other-groups skips, in normalize's
// note per object and in impact's table: an object whose API group no
// CRD given has (the Namespace, ConfigMap or Deployment of a samples file).
// An object of a group some CRD has, but of a kind or version no CRD
// serves, is not skipped: it stays unusable input.
const SkippedOtherGroup = "skipped (no CRD has the group)"

// APIGroup is the API group of obj's apiVersion, which --skip-other-groups
// looks for among the CRDs' groups: "" for the core group ("v1"), and for
// an apiVersion that does not parse.
func APIGroup(obj map[string]any) string {
	gv, _ := schema.ParseGroupVersion(str(obj["apiVersion"]))
	return gv.Group
}

// str is v if it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

package pipeline

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/normalize/manifest"
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

// skipNote is normalize's line on stderr for an object that
// --skip-other-groups skips: `FILE:DOC: skipped (no CRD has the group):
// apiVersion "v1", kind "Namespace"`.
func skipNote(d manifest.Object) []byte {
	return fmt.Appendf(nil, "%s: %s: apiVersion %q, kind %q\n", d.Source(), SkippedOtherGroup, str(d.Object["apiVersion"]), str(d.Object["kind"]))
}

package acceptance

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestSameVersions: versions whose schemas controller-gen writes alike
// must stay alike in ours; a default in one of them only is named at its
// path.
func TestSameVersions(t *testing.T) {
	schema := func(def string) *apiextensionsv1.CustomResourceValidation {
		mode := apiextensionsv1.JSONSchemaProps{Type: "string"}
		if def != "" {
			mode.Default = &apiextensionsv1.JSON{Raw: []byte(def)}
		}
		return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object",
			Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": {
				Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"mode": mode},
			}},
		}}
	}
	crd := func(v1, v1beta1, v1alpha1 string) *apiextensionsv1.CustomResourceDefinition {
		c := &apiextensionsv1.CustomResourceDefinition{}
		c.Name = "widgets.example.com"
		c.Spec.Versions = []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1", Schema: schema(v1)}, {Name: "v1beta1", Schema: schema(v1beta1)}, {Name: "v1alpha1", Schema: schema(v1alpha1)},
		}
		// v1alpha1 differs from the others in controller-gen's CRD
		c.Spec.Versions[2].Schema.OpenAPIV3Schema.Description = "old"
		return c
	}
	ref := crd("", "", "")
	if sets, broken, diffs := sameVersions(ref, crd(`"fast"`, `"fast"`, "")); sets != 1 || broken != 0 || len(diffs) != 0 {
		t.Errorf("the same default in both: sets %d, broken %d, %q", sets, broken, diffs)
	}
	if sets, broken, diffs := sameVersions(ref, crd("", "", `"slow"`)); sets != 1 || broken != 0 || len(diffs) != 0 {
		t.Errorf("a default in a version of its own: sets %d, broken %d, %q", sets, broken, diffs)
	}
	sets, broken, diffs := sameVersions(ref, crd(`"fast"`, "", ""))
	if sets != 1 || broken != 1 || len(diffs) != 1 {
		t.Fatalf("a default in one version only: sets %d, broken %d, %q", sets, broken, diffs)
	}
	if want := `v1beta1 differs from v1 at properties.spec.properties.mode.default: v1 "fast", v1beta1 none`; !strings.Contains(diffs[0], want) {
		t.Errorf("diff %q does not say %q", diffs[0], want)
	}
}

func TestFirstDiff(t *testing.T) {
	got := firstDiff([]byte("a\nb\nc\nd\n"), []byte("a\nb\nx\nd\n"), 1)
	want := "\tat line 3:\n\t  b\n\t- c\n\t+ x\n"
	if got != want {
		t.Errorf("firstDiff = %q, want %q", got, want)
	}
}

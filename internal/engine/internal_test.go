package engine

import (
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// TestVersionsAgree: versions whose schemas were equal before the defaults
// and differ after are a warning, naming both versions and the first
// default that differs; versions that were not equal before, and equal
// ones that stay equal, say nothing.
func TestVersionsAgree(t *testing.T) {
	schema := func(def string) *apiextensionsv1.CustomResourceValidation {
		p := apiextensionsv1.JSONSchemaProps{Type: "integer"}
		if def != "" {
			p.Default = &apiextensionsv1.JSON{Raw: []byte(def)}
		}
		return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
			Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"n": p}}}
	}
	c := &apiextensionsv1.CustomResourceDefinition{}
	c.Name = "widgets.example.com"
	for _, v := range []string{"v1", "v2", "v3"} {
		c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Schema: schema("")})
	}
	c.Spec.Versions[2].Schema.OpenAPIV3Schema.Description = "another"
	same := sameSchemas(c)
	if !reflect.DeepEqual(same, [][2]string{{"v1", "v2"}}) {
		t.Fatalf("sameSchemas = %v", same)
	}
	d := &schemaWalker{diags: model.NewDiagnostics(), roots: map[string]Node{}}
	d.versionsAgree(c, same)
	if got := d.diags.List(); len(got) != 0 {
		t.Errorf("equal versions: %v", got)
	}
	c.Spec.Versions[1].Schema = schema("0")
	c.Spec.Versions[2].Schema = schema("1") // was not equal: may differ
	d.versionsAgree(c, same)
	got := d.diags.List()
	if len(got) != 1 || got[0].Rule != model.RuleVersionsDiffer || got[0].Sev != model.Warning ||
		!strings.Contains(got[0].Msg, "versions v1 and v2 have the same schema as controller-gen writes it") ||
		!strings.Contains(got[0].Msg, "v1 has no default at n, v2 has default 0.") {
		t.Errorf("diverging versions: %v", got)
	}
}

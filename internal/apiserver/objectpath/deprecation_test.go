package objectpath

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/utils/ptr"
)

// TestDefaultDeprecationWarning: the cases of the apiserver's own test of
// the text it restates (k8s.io/apiextensions-apiserver
// pkg/apiserver/customresource_handler_test.go,
// Test_defaultDeprecationWarning), and the integration test's fixture
// (test/integration/deprecation_test.go): a deprecated version with a
// newer served one.
func TestDefaultDeprecationWarning(t *testing.T) {
	names := apiextensionsv1.CustomResourceDefinitionNames{Kind: "Widget"}
	for _, tc := range []struct {
		name, deprecated string
		versions         []apiextensionsv1.CustomResourceDefinitionVersion
		want             string
	}{
		{"no replacement", "v1", []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1", Served: true, Deprecated: true}, {Name: "v2", Served: true, Deprecated: true}, {Name: "v3", Served: false},
		}, "example.com/v1 Widget is deprecated"},
		{"replacement sorting", "v1", []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1", Served: true}, {Name: "v1alpha1", Served: true}, {Name: "v1alpha2", Served: true},
			{Name: "v1beta1", Served: true}, {Name: "v1beta2", Served: true}, {Name: "v2", Served: true},
			{Name: "v2alpha1", Served: true}, {Name: "v2alpha2", Served: true}, {Name: "v2beta1", Served: true},
			{Name: "v2beta2", Served: true}, {Name: "v3", Served: false}, {Name: "v3alpha1", Served: false},
			{Name: "v3alpha2", Served: false}, {Name: "v3beta1", Served: false}, {Name: "v3beta2", Served: false},
		}, "example.com/v1 Widget is deprecated; use example.com/v2 Widget"},
		{"no newer replacement of equal stability", "v2", []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1", Served: true}, {Name: "v3", Served: false}, {Name: "v3alpha1", Served: true},
			{Name: "v3beta1", Served: true}, {Name: "v4", Served: true, Deprecated: true},
		}, "example.com/v2 Widget is deprecated"},
		{"the newest of the newer ones", "v1alpha1", []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1alpha1", Served: true, Deprecated: true}, {Name: "v1beta3", Served: true},
			{Name: "v1beta2", Served: true}, {Name: "v1", Served: false},
		}, "example.com/v1alpha1 Widget is deprecated; use example.com/v1beta3 Widget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := apiextensionsv1.CustomResourceDefinitionSpec{Group: "example.com", Names: names, Versions: tc.versions}
			if got := defaultDeprecationWarning(tc.deprecated, spec); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDeprecationWarning: the version's own text when set, the default
// text without, and none for a version that is not deprecated.
func TestDeprecationWarning(t *testing.T) {
	crd := &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "example.com", Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: "Widget"},
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
			{Name: "v1alpha1", Served: true, Deprecated: true, DeprecationWarning: ptr.To("custom deprecation warning")},
			{Name: "v1beta1", Served: true, Deprecated: true},
			{Name: "v1", Served: true},
		},
	}}
	for version, want := range map[string]string{
		"v1alpha1": "custom deprecation warning",
		"v1beta1":  "example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget",
		"v1":       "",
	} {
		if got := deprecationWarning(crd, version); got != want {
			t.Errorf("%s: got %q, want %q", version, got, want)
		}
	}
}

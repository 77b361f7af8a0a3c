package impact

import (
	"context"
	"io"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/goapi"
)

// withoutDefaults is s with every default removed, at every level: the
// schema controller-gen writes for a type without +kubebuilder:default.
func withoutDefaults(s *apiextensionsv1.JSONSchemaProps) {
	if s == nil {
		return
	}
	s.Default = nil
	for k, p := range s.Properties {
		withoutDefaults(&p)
		s.Properties[k] = p
	}
	if s.Items != nil {
		withoutDefaults(s.Items.Schema)
	}
	if s.AdditionalProperties != nil {
		withoutDefaults(s.AdditionalProperties.Schema)
	}
}

// TestEffectsWithGoTypes: on an upgrade to the CRD this generator writes
// for testdata/api/scalars (OLD: the same without defaults), with the Go
// types loaded (--types), the implicit zero value of a field without
// omitempty is what a Go client already sends, and the author's default
// of an omitempty field changes what a client reads; without the Go types
// the zero value is only a zero value.
func TestEffectsWithGoTypes(t *testing.T) {
	newCRDs, err := crdcheck.LoadCRDs("../../testdata/golden/scalars.kep.example.com_scalars.yaml")
	if err != nil {
		t.Fatal(err)
	}
	old := newCRDs[0].DeepCopy()
	for i := range old.Spec.Versions {
		withoutDefaults(old.Spec.Versions[i].Schema.OpenAPIV3Schema)
	}
	a, err := New(context.Background(), []*apiextensionsv1.CustomResourceDefinition{old}, newCRDs)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Object(context.Background(), map[string]any{"apiVersion": "scalars.kep.example.com/v1", "kind": "Scalar",
		"metadata": map[string]any{"name": "s", "namespace": "default"}, "spec": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	api, err := goapi.LoadTypes("../..", []string{"./testdata/api/scalars/..."}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		client GoClient
		want   map[string]Effect
	}{
		{"--types", api, map[string]Effect{"spec.defaulted": EffectGoSends, "spec.name": EffectNews}},
		{"without --types", nil, map[string]Effect{"spec.defaulted": EffectZero, "spec.name": EffectNews}},
	} {
		g := newGrouper(c.client)
		g.add(r)
		got := map[string]Effect{}
		for _, grp := range g.sorted() {
			got[grp.Path] = grp.Effect
		}
		if len(got) != len(c.want) || got["spec.defaulted"] != c.want["spec.defaulted"] || got["spec.name"] != c.want["spec.name"] {
			t.Errorf("%s: effects %v, want %v (added %v)", c.name, got, c.want, r.Changes.Added)
		}
	}
}

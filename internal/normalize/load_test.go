package normalize

import (
	"context"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// TestBuildErrorIsUnusable: a version that cannot be built is reported as
// unusable input (exit 2), naming the object and the CRD, not as an
// object the apiserver refuses.
func TestBuildErrorIsUnusable(t *testing.T) {
	crds, err := crdcheck.LoadCRDs("../apiserver/objectpath/testdata/crds")
	if err != nil {
		t.Fatal(err)
	}
	c := crds[0].DeepCopy()
	c.Spec.Versions[0].Schema = nil // invalid: ValidateCRD refuses it
	c.Spec.Versions = c.Spec.Versions[:1]
	pipelines, err := objectpath.Lazy(crds[:0])
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := objectpath.Lazy([]*apiextensionsv1.CustomResourceDefinition{c})
	if err != nil {
		t.Fatal(err)
	}
	for gvk, p := range lazy {
		pipelines[gvk] = p
	}
	want := "CRD " + c.Name + ": " + c.Name + " version " + c.Spec.Versions[0].Name + " has no schema"
	var stderr strings.Builder
	gvk := schema.GroupVersionKind{Group: c.Spec.Group, Version: c.Spec.Versions[0].Name, Kind: c.Spec.Names.Kind}
	obj := manifest.Object{File: "in.yaml", Doc: 3, Object: map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind, "metadata": map[string]any{"name": "a"}}}
	if _, code := normalizeOne(context.Background(), pipelines, obj, &Options{Namespace: "default"}, &stderr); code != ExitUnusable || stderr.String() != "in.yaml:3: "+want+"\n" {
		t.Errorf("normalizeOne: exit %d, stderr %q; want %d, %q", code, stderr.String(), ExitUnusable, "in.yaml:3: "+want)
	}
}

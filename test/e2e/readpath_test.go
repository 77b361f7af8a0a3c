package e2e

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/keprows"
)

// The CRD-defaulting KEP: defaults apply "during read from storage", so a
// default added to a CRD shows up on objects stored before it.
var _ = Describe("read-path defaulting", func() {
	It("defaults a stored object on GET once the CRD gains a default", func() {
		crd := keprows.CRD("readpath.example.com", &apiextensionsv1.JSONSchemaProps{
			Type: "object",
			Properties: map[string]apiextensionsv1.JSONSchemaProps{
				"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"size": {Type: "string"},
				}},
			},
		})
		Expect(k8s.Create(bg(), crd)).To(Succeed())
		Eventually(func() bool {
			var got apiextensionsv1.CustomResourceDefinition
			return k8s.Get(bg(), keyOf(crd.Name), &got) == nil && established(&got)
		}, 30*time.Second, 100*time.Millisecond).Should(BeTrue())

		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "readpath.example.com/v1", "kind": "Example",
			"metadata": map[string]any{"name": "stored-before", "namespace": "default"},
			"spec":     map[string]any{},
		}}
		Eventually(func() error { return k8s.Create(bg(), obj) }, 30*time.Second, 200*time.Millisecond).Should(Succeed())

		By("adding a default to the CRD")
		Expect(k8s.Get(bg(), keyOf(crd.Name), crd)).To(Succeed())
		spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
		size := spec.Properties["size"]
		size.Default = &apiextensionsv1.JSON{Raw: []byte(`"M"`)}
		spec.Properties["size"] = size
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
		Expect(k8s.Update(bg(), crd)).To(Succeed())

		By("reading the object stored before the default existed")
		Eventually(func() any {
			got := &unstructured.Unstructured{}
			got.SetAPIVersion("readpath.example.com/v1")
			got.SetKind("Example")
			if err := k8s.Get(bg(), client.ObjectKey{Namespace: "default", Name: "stored-before"}, got); err != nil {
				return err.Error()
			}
			v, _, _ := unstructured.NestedString(got.Object, "spec", "size")
			return v
		}, 30*time.Second, 200*time.Millisecond).Should(Equal("M"))
	})
})

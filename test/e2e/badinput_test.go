package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
)

// badCRD is a CRD whose schema is the generated structpointers CRD with
// one change; the group is changed too so that each case is a new CRD.
func badCRD(name string, edit func(spec *apiextensionsv1.JSONSchemaProps)) *apiextensionsv1.CustomResourceDefinition {
	GinkgoHelper()
	b, err := os.ReadFile(filepath.Join(crdDir, "structpointers.kep.example.com_structpointers.yaml"))
	Expect(err).NotTo(HaveOccurred())
	c := &apiextensionsv1.CustomResourceDefinition{}
	Expect(yaml.Unmarshal(b, c)).To(Succeed())
	c.Spec.Group = name + ".bad.example.com"
	c.Name = c.Spec.Names.Plural + "." + c.Spec.Group
	spec := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	edit(&spec)
	c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	return c
}

func entryOf(spec *apiextensionsv1.JSONSchemaProps) (apiextensionsv1.JSONSchemaProps, func(apiextensionsv1.JSONSchemaProps)) {
	return spec.Properties["entry"], func(e apiextensionsv1.JSONSchemaProps) { spec.Properties["entry"] = e }
}

// A CRD that the generator's checks refuse is refused by the live apiserver
// too, for the same field. Both messages are printed.
var _ = DescribeTable("bad input: refused offline and by the live apiserver",
	func(name, field string, edit func(spec *apiextensionsv1.JSONSchemaProps)) {
		c := badCRD(name, edit)
		offline := crdcheck.ValidateCRD(context.Background(), c)
		Expect(offline).NotTo(BeEmpty(), "the offline check accepts the CRD")
		live := k8s.Create(bg(), c.DeepCopy())
		Expect(live).To(HaveOccurred(), "the live apiserver accepts the CRD")
		fmt.Fprintf(GinkgoWriter, "%s\n  offline: %v\n  live:    %v\n", name, offline.ToAggregate(), live)
		AddReportEntry(name, fmt.Sprintf("offline: %v\nlive: %v", offline.ToAggregate(), live))
		Expect(offline.ToAggregate().Error()).To(ContainSubstring(field))
		Expect(live.Error()).To(ContainSubstring(field))
	},
	Entry("KEP-1929 Struct pointers as controller-gen v0.23.0 writes it", "controllergen", "default.number: Required value",
		func(spec *apiextensionsv1.JSONSchemaProps) {
			e, set := entryOf(spec)
			e.Required = []string{"number"}
			set(e)
		}),
	Entry("a default in allOf, as the flattener writes a type and a field default", "allof", "must be undefined to be structural",
		func(spec *apiextensionsv1.JSONSchemaProps) {
			e, set := entryOf(spec)
			e.AllOf = []apiextensionsv1.JSONSchemaProps{{Default: &apiextensionsv1.JSON{Raw: []byte(`{"name":"x"}`)}}}
			set(e)
		}),
	Entry("a default with an unknown field", "unpruned", "must not have unknown fields",
		func(spec *apiextensionsv1.JSONSchemaProps) {
			e, set := entryOf(spec)
			e.Default = &apiextensionsv1.JSON{Raw: []byte(`{"name":"x","color":"red"}`)}
			set(e)
		}),
	Entry("a default outside the enum", "enum", "Unsupported value",
		func(spec *apiextensionsv1.JSONSchemaProps) {
			e, set := entryOf(spec)
			name := e.Properties["name"]
			name.Enum = []apiextensionsv1.JSON{{Raw: []byte(`"a"`)}, {Raw: []byte(`"b"`)}}
			e.Properties["name"] = name
			set(e)
		}),
)

// A CRD that only crdcheck.Check's later errors refuse: the live apiserver accepts it, and
// then refuses its objects, with the error they predicted.
var _ = It("bad input: a nested default the apiserver accepts, then refuses objects for", func() {
	c := badCRD("nested", func(spec *apiextensionsv1.JSONSchemaProps) {
		e, set := entryOf(spec)
		e.MaxProperties = ptrTo(int64(1)) // pointer-name plus the nested number default make two
		set(e)
	})
	Expect(crdcheck.ValidateCRD(context.Background(), c)).To(BeEmpty(), "the apiserver's own validation should accept it")
	_, offline := crdcheck.Check(context.Background(), c)
	Expect(offline).NotTo(BeEmpty())
	Expect(k8s.Create(bg(), c.DeepCopy())).To(Succeed())
	var err error
	Eventually(func() error {
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": c.Spec.Group + "/v1", "kind": c.Spec.Names.Kind,
			"metadata": map[string]any{"name": "x", "namespace": "default"}, "spec": map[string]any{},
		}}
		err = k8s.Create(bg(), obj)
		if err != nil && strings.Contains(err.Error(), "no matches for kind") {
			return err // the CRD is not served yet
		}
		return nil
	}, 30*time.Second, 200*time.Millisecond).Should(Succeed())
	fmt.Fprintf(GinkgoWriter, "nested\n  offline: %v\n  live:    %v\n", offline.ToAggregate(), err)
	Expect(err).To(HaveOccurred())
	Expect(err.Error()).To(ContainSubstring("Too many"))
	Expect(offline.ToAggregate().Error()).To(ContainSubstring("Too many"))
})

func ptrTo[T any](v T) *T { return &v }

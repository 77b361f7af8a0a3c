package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/keprows"
)

var _ = Describe("the generated CRDs", func() {
	It("are all installed and established by the live apiserver", func() {
		files, err := filepath.Glob(filepath.Join(crdDir, "*.yaml"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		for _, f := range files {
			b, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			var want apiextensionsv1.CustomResourceDefinition
			Expect(yaml.Unmarshal(b, &want)).To(Succeed())
			var got apiextensionsv1.CustomResourceDefinition
			Expect(k8s.Get(bg(), keyOf(want.Name), &got)).To(Succeed())
			Expect(established(&got)).To(BeTrue(), "%s is not established", want.Name)
		}
	})
})

var kepEntries = func() []TableEntry {
	var out []TableEntry
	for i, r := range keprows.KEP1929 {
		out = append(out, Entry(fmt.Sprintf("%s: %s", r.Example, r.Call), i, r))
	}
	return out
}()

var _ = DescribeTable("KEP-1929 example tables, created through the live apiserver",
	func(i int, r keprows.Row) {
		if r.Skip != "" {
			Skip(r.Skip)
		}
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": r.APIVersion(),
			"kind":       r.Kind,
			"metadata":   map[string]any{"name": fmt.Sprintf("kep1929-%d", i), "namespace": "default"},
		}}
		if r.Spec != "" {
			var spec any
			Expect(json.Unmarshal([]byte(r.Spec), &spec)).To(Succeed())
			obj.Object["spec"] = spec
		}
		err := k8s.Create(bg(), obj)
		if r.Invalid != "" {
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring(r.Invalid))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		got, _ := json.Marshal(obj.Object["spec"])
		Expect(string(got)).To(MatchJSON(r.Want))
	},
	kepEntries,
)

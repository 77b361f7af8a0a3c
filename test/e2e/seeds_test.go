package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/keprows"
)

// The rows of the CRD defaulting KEP (000) and the pruning KEP (003),
// created through the live apiserver: each example schema becomes the root
// schema of its own CRD.
var seedEntries = func() []TableEntry {
	var out []TableEntry
	for i, r := range append(append([]keprows.SeedRow{}, keprows.DefaultingKEP...), keprows.PruningKEP...) {
		out = append(out, Entry(r.Name, i, r))
	}
	return out
}()

var _ = DescribeTable("defaulting and pruning KEP examples, through the live apiserver",
	func(i int, r keprows.SeedRow) {
		if r.Skip != "" {
			Skip(r.Skip)
		}
		s := &apiextensionsv1.JSONSchemaProps{}
		Expect(yaml.UnmarshalStrict([]byte(r.Schema), s)).To(Succeed())
		group := fmt.Sprintf("row%d.seeds.example.com", i)
		crd := keprows.CRD(group, s)
		Expect(k8s.Create(bg(), crd)).To(Succeed())

		var in map[string]any
		Expect(json.Unmarshal([]byte(r.In), &in)).To(Succeed())
		_, wantsMeta := in["metadata"]
		if !wantsMeta {
			in["metadata"] = map[string]any{"name": "example"}
		}
		in["metadata"].(map[string]any)["namespace"] = "default"
		in["apiVersion"], in["kind"] = group+"/v1", "Example"

		var err error
		obj := &unstructured.Unstructured{}
		Eventually(func() bool {
			obj = &unstructured.Unstructured{Object: deepCopy(in)}
			err = k8s.Create(bg(), obj)
			return err == nil || !strings.Contains(err.Error(), "no matches for kind")
		}, 30*time.Second, 200*time.Millisecond).Should(BeTrue(), "the CRD is not served: %v", err)

		if r.Invalid != "" {
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring(r.Invalid))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		got := obj.Object
		delete(got, "apiVersion")
		delete(got, "kind")
		if wantsMeta {
			// only the metadata fields the KEP names; the server adds uid, times...
			var want map[string]any
			Expect(json.Unmarshal([]byte(r.Want), &want)).To(Succeed())
			m := got["metadata"].(map[string]any)
			kept := map[string]any{}
			for k := range want["metadata"].(map[string]any) {
				kept[k] = m[k]
			}
			got["metadata"] = kept
		} else {
			delete(got, "metadata")
		}
		b, _ := json.Marshal(got)
		Expect(string(b)).To(MatchJSON(r.Want))
	},
	seedEntries,
)

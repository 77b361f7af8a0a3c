package e2e

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/controller-gen-default/controller-gen-default/internal/equiv"
)

// A sample of the rule-of-thumb harness (defaultgen's TestRuleOfThumb)
// through the live apiserver: random Go objects, created through the API,
// read back into the Go type, against the generated Go defaulting
// functions. Random objects often break the schema's value validation
// (enums, patterns); those are refused and not compared. The spec is
// compared: create drops the status of kinds with a status subresource.
var _ = Describe("KEP-1929 rule of thumb against the live apiserver", func() {
	It("stores Go-serialised objects as the generated Go defaulting functions default them", func() {
		seed := equiv.Seed()
		fmt.Fprintf(GinkgoWriter, "rule-of-thumb seed: %d\n", seed)
		scheme, err := equiv.Scheme()
		Expect(err).NotTo(HaveOccurred())
		f := equiv.Filler(seed)
		compared := 0
		for _, k := range equiv.Kinds {
			for i := 0; i < 25; i++ {
				in, err := equiv.Instance(f, k)
				Expect(err).NotTo(HaveOccurred())
				want, err := equiv.GoDefaults(scheme, k, in)
				Expect(err).NotTo(HaveOccurred())

				u := &unstructured.Unstructured{}
				Expect(json.Unmarshal(in, &u.Object)).To(Succeed())
				u.SetName(fmt.Sprintf("rot-%d-%d", seed%100000, compared+i*100+len(k.Golden)))
				u.SetNamespace("default")
				if err := k8s.Create(bg(), u); err != nil {
					continue // refused by value validation; not a defaulting question
				}
				got, err := equiv.Stored(u.Object)
				Expect(err).NotTo(HaveOccurred())
				Expect(specOf(got)).To(MatchJSON(specOf(want)), "seed %d, %s input %s", seed, equiv.GVK(k).Kind, in)
				compared++
			}
		}
		fmt.Fprintf(GinkgoWriter, "rule of thumb: %d objects compared through the live apiserver\n", compared)
		Expect(compared).To(BeNumerically(">=", 50))
	})
})

func specOf(b []byte) string {
	var m map[string]any
	Expect(json.Unmarshal(b, &m)).To(Succeed())
	s, _ := json.Marshal(m["spec"])
	return string(s)
}

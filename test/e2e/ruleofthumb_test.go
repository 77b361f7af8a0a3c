package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/equivtest"
)

// A sample of the rule-of-thumb harness (defaultgen's TestRuleOfThumb)
// through the live apiserver: random Go objects, created through the API,
// read back into the Go type, against the generated Go defaulting
// functions. Random objects often break the schema's value validation
// (enums, patterns); those are refused and not compared. The spec is
// compared: create drops the status of kinds with a status subresource.
var _ = Describe("KEP-1929 rule of thumb against the live apiserver", func() {
	It("stores Go-serialised objects as the generated Go defaulting functions default them", func() {
		seed := equivtest.Seed()
		fmt.Fprintf(GinkgoWriter, "rule-of-thumb seed: %d\n", seed)
		scheme, err := equivtest.Scheme()
		Expect(err).NotTo(HaveOccurred())
		f := equivtest.Filler(seed)
		compared := 0
		for _, k := range equivtest.Kinds {
			for i := 0; i < 25; i++ {
				in, err := equivtest.Instance(f, k)
				Expect(err).NotTo(HaveOccurred())
				want, err := equivtest.GoDefaults(scheme, k, in)
				Expect(err).NotTo(HaveOccurred())

				u := &unstructured.Unstructured{}
				Expect(u.UnmarshalJSON(in)).To(Succeed()) // integers stay int64, as the Go client sends them
				u.SetName(fmt.Sprintf("rot-%d-%d", seed%100000, compared+i*100+len(k.Golden)))
				u.SetNamespace("default")
				if err := k8s.Create(bg(), u); err != nil {
					continue // refused by value validation; not a defaulting question
				}
				got, err := equivtest.Stored(u.Object)
				Expect(err).NotTo(HaveOccurred())
				// compared as equivtest.Diff compares them offline: a zero value
				// stored from an author's +default (k8s.io/api's +default=""
				// on LocalObjectReference.Name) is absence for a Go client.
				where, err := equivtest.Diff(reflect.TypeOf(k.New()), specOf(want), specOf(got))
				Expect(err).NotTo(HaveOccurred())
				Expect(where).To(BeEmpty(), "seed %d, %s input %s\n(a) %s\n(b) %s", seed, equivtest.GVK(k).Kind, in, specOf(want), specOf(got))
				compared++
			}
		}
		fmt.Fprintf(GinkgoWriter, "rule of thumb: %d objects compared through the live apiserver\n", compared)
		Expect(compared).To(BeNumerically(">=", 50))
	})
})

// specOf is the object b with its spec alone.
func specOf(b []byte) []byte {
	var m map[string]json.RawMessage
	Expect(json.Unmarshal(b, &m)).To(Succeed())
	s, err := json.Marshal(map[string]json.RawMessage{"spec": m["spec"]})
	Expect(err).NotTo(HaveOccurred())
	return s
}

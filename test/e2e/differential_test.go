package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
)

// objectsPerRun is the size of the differential corpus, over all CRDs.
const objectsPerRun = 2200

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// The offline normaliser and the live apiserver must store the same object
// and accept or reject the same objects. E2E_SEED replays a run.
var _ = Describe("differential: offline normaliser against the live apiserver", func() {
	It(fmt.Sprintf("agree on %d random objects derived from the testdata CRDs", objectsPerRun), func() {
		seed := uint64(time.Now().UnixNano())
		if s := os.Getenv("E2E_SEED"); s != "" {
			var err error
			seed, err = strconv.ParseUint(s, 10, 64)
			Expect(err).NotTo(HaveOccurred())
		}
		fmt.Fprintf(GinkgoWriter, "differential seed: %d (replay with E2E_SEED=%d)\n", seed, seed)
		AddReportEntry("differential seed", seed)

		crds, err := crdcheck.LoadCRDs(crdDir)
		Expect(err).NotTo(HaveOccurred())
		type target struct {
			crd *apiextensionsv1.CustomResourceDefinition
			p   *objectpath.Pipeline
		}
		var targets []target
		for _, c := range crds {
			p, err := objectpath.New(c, c.Spec.Versions[0].Name)
			Expect(err).NotTo(HaveOccurred())
			targets = append(targets, target{c, p})
		}

		g := objGen{r: rand.New(rand.NewPCG(seed, 0))}
		accepted, rejected := 0, 0
		for i := 0; i < objectsPerRun; i++ {
			t := targets[i%len(targets)]
			root := t.crd.Spec.Versions[0].Schema.OpenAPIV3Schema
			body := map[string]any{}
			for _, k := range []string{"spec", "status"} {
				if s, ok := root.Properties[k]; ok {
					if v, ok := g.value(&s, 1); ok {
						body[k] = v
					}
				}
			}
			name := fmt.Sprintf("diff-%d-%d", seed%100000, i)
			d := compare(t.crd, t.p, name, body)
			if d.live == nil {
				rejected++
			} else {
				accepted++
			}
			if d.disagree != "" {
				minimal := shrink(t.crd, t.p, name, body)
				Fail(fmt.Sprintf("seed %d, object %d (%s): %s\nminimal object body: %s", seed, i, t.crd.Spec.Names.Kind, d.disagree, toJSON(minimal)))
			}
		}
		fmt.Fprintf(GinkgoWriter, "differential: %d objects, %d accepted, %d rejected by both\n", objectsPerRun, accepted, rejected)
		Expect(accepted).To(BeNumerically(">", objectsPerRun/10), "the corpus should not be all invalid")
		Expect(rejected).To(BeNumerically(">", objectsPerRun/10), "the corpus should not be all valid")
	})
})

type verdict struct {
	live     map[string]any // what the server stored, nil if it refused
	disagree string
}

// compare creates body through the live apiserver and the offline pipeline.
func compare(c *apiextensionsv1.CustomResourceDefinition, p *objectpath.Pipeline, name string, body map[string]any) verdict {
	obj := map[string]any{
		"apiVersion": c.Spec.Group + "/" + c.Spec.Versions[0].Name,
		"kind":       c.Spec.Names.Kind,
		"metadata":   map[string]any{"name": name, "namespace": "default"},
	}
	for k, v := range body {
		obj[k] = v
	}
	// what the server receives: the JSON encoding
	var wire map[string]any
	Expect(json.Unmarshal([]byte(toJSON(obj)), &wire)).To(Succeed())

	offline := p.Normalize(context.Background(), wire)
	u := &unstructured.Unstructured{Object: wire}
	err := k8s.Create(context.Background(), u)
	var v verdict
	if err == nil {
		v.live = u.Object
	}
	switch {
	case err == nil && len(offline.Errors) > 0:
		v.disagree = fmt.Sprintf("the apiserver accepted it, the normaliser refused it: %v", offline.Errors.ToAggregate())
	case err != nil && len(offline.Errors) == 0:
		v.disagree = fmt.Sprintf("the normaliser accepted it, the apiserver refused it: %v", err)
	case err == nil:
		want, got := withoutMetadata(v.live), withoutMetadata(offline.Object)
		if !reflect.DeepEqual(want, got) {
			v.disagree = fmt.Sprintf("stored objects differ:\napiserver:  %s\nnormaliser: %s", toJSON(want), toJSON(got))
		}
	}
	return v
}

// withoutMetadata drops what only the server sets (uid, timestamps...),
// through a JSON round trip so that numbers compare alike.
func withoutMetadata(o map[string]any) map[string]any {
	var out map[string]any
	_ = json.Unmarshal([]byte(toJSON(o)), &out)
	delete(out, "metadata")
	return out
}

// shrink removes fields from body, one at a time, while the disagreement
// persists, and returns the smallest body found.
func shrink(c *apiextensionsv1.CustomResourceDefinition, p *objectpath.Pipeline, name string, body map[string]any) map[string]any {
	attempts := 0
	for changed := true; changed && attempts < 300; {
		changed = false
		for _, path := range leafPaths(body, nil) {
			attempts++
			trial := deleteAt(deepCopy(body), path)
			if compare(c, p, fmt.Sprintf("%s-s%d", name, attempts), trial).disagree != "" {
				body, changed = trial, true
				break
			}
		}
	}
	return body
}

func leafPaths(v any, prefix []any) [][]any {
	var out [][]any
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := append(append([]any{}, prefix...), k)
			out = append(out, leafPaths(e, p)...)
			out = append(out, p)
		}
	case []any:
		for i, e := range v {
			p := append(append([]any{}, prefix...), i)
			out = append(out, leafPaths(e, p)...)
			out = append(out, p)
		}
	}
	return out
}

func deleteAt(v map[string]any, path []any) map[string]any {
	var cur any = v
	for i, seg := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			k := seg.(string)
			if last {
				delete(c, k)
				return v
			}
			cur = c[k]
		case []any:
			idx := seg.(int)
			if last {
				setAt(v, path[:i], append(append([]any{}, c[:idx]...), c[idx+1:]...))
				return v
			}
			cur = c[idx]
		}
	}
	return v
}

func getAt(v any, path []any) any {
	for _, seg := range path {
		switch c := v.(type) {
		case map[string]any:
			v = c[seg.(string)]
		case []any:
			v = c[seg.(int)]
		}
	}
	return v
}

func setAt(root map[string]any, path []any, val any) {
	if len(path) == 0 {
		return
	}
	parent := getAt(root, path[:len(path)-1])
	switch c := parent.(type) {
	case map[string]any:
		c[path[len(path)-1].(string)] = val
	case []any:
		c[path[len(path)-1].(int)] = val
	}
}

func deepCopy(m map[string]any) map[string]any {
	var out map[string]any
	_ = json.Unmarshal([]byte(toJSON(m)), &out)
	return out
}

func toJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

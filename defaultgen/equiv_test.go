package defaultgen_test

import (
	"reflect"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/equivtest"
)

// instancesPerKind is how many random objects of each testdata kind the
// rule-of-thumb harness compares.
const instancesPerKind = 300

// TestRuleOfThumb is KEP-1929's rule of thumb on every testdata kind: a
// random Go object is stored alike (a) defaulted by the generated Go
// defaulting functions and marshalled, and (b) marshalled, as a Go client
// sends it, and decoded by the apiserver's code with the generated CRD.
// Both are compared as JSON, so that {} and an absent field differ.
// EQUIV_SEED replays a run.
func TestRuleOfThumb(t *testing.T) {
	seed := equivtest.Seed()
	t.Logf("seed %d (replay with EQUIV_SEED=%d)", seed, seed)
	scheme, err := equivtest.Scheme()
	if err != nil {
		t.Fatal(err)
	}
	f := equivtest.Filler(seed)
	for _, k := range equivtest.Kinds {
		t.Run(equivtest.GVK(k).Kind, func(t *testing.T) {
			crds, err := crdcheck.LoadCRDs("../testdata/golden/" + k.Golden)
			if err != nil || len(crds) != 1 {
				t.Fatalf("golden CRD %s: %v", k.Golden, err)
			}
			p, err := objectpath.New(crds[0], "v1")
			if err != nil {
				t.Fatal(err)
			}
			// differ compares (a) and (b) for one serialised object and says
			// where they differ ("" when they do not).
			differ := func(in []byte) (a, b []byte, where string) {
				a, err := equivtest.GoDefaults(scheme, k, in)
				if err != nil {
					t.Fatalf("Go path: %v", err)
				}
				sent, err := equivtest.Sent(k, in) // shrinking edits JSON; send what Go would
				if err != nil {
					t.Fatalf("Go path: %v", err)
				}
				obj, err := jsonnum.DecodeObject(sent)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				res := p.Decode(obj)
				if len(res.Errors) > 0 {
					t.Fatalf("the apiserver would not decode a Go-serialised object: %v\n%s", res.Errors.ToAggregate(), in)
				}
				if len(res.Pruned) > 0 {
					t.Fatalf("the CRD prunes fields of a Go-serialised object: %v\n%s", res.Pruned, in)
				}
				b, err = equivtest.Stored(res.Object)
				if err != nil {
					t.Fatalf("CRD path: %v", err)
				}
				where, err = equivtest.Diff(reflect.TypeOf(k.New()), a, b)
				if err != nil {
					t.Fatal(err)
				}
				return a, b, where
			}
			for i := 0; i < instancesPerKind; i++ {
				in, err := equivtest.Instance(f, k)
				if err != nil {
					t.Fatal(err)
				}
				if a, b, where := differ(in); where != "" {
					minimal := equivtest.Shrink(in, func(x []byte) bool { _, _, d := differ(x); return d != "" }, 200)
					ma, mb, mwhere := differ(minimal)
					t.Fatalf("seed %d, object %d: Go and CRD defaulting differ at %s\ninput:   %s\nGo:      %s\nCRD:     %s\nminimal: %s (at %s)\nGo:      %s\nCRD:     %s",
						seed, i, where, in, a, b, minimal, mwhere, ma, mb)
				}
			}
		})
	}
}

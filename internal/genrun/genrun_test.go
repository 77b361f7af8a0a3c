package genrun_test

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/controller-gen-default/controller-gen-default/crdgen"
	"github.com/controller-gen-default/controller-gen-default/defaultgen"
	"github.com/controller-gen-default/controller-gen-default/internal/engine"
	"github.com/controller-gen-default/controller-gen-default/internal/genrun"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// TestWireSharesOneSession: the crd and defaults generators of a run
// wired by Wire, in either order, share one session: the conflict of
// testdata/forbidden, which both report, is printed once, to the
// session's writer (with a session each, both would print it); and the
// caller reads the decisions of that session after the run.
func TestWireSharesOneSession(t *testing.T) {
	const conflict = "BadMarkerSpec.Twice (spec.twice): two different defaults"
	for _, crdFirst := range []bool{true, false} {
		var crd genall.Generator = crdgen.Generator{}
		var def genall.Generator = defaultgen.Generator{}
		gens := genall.Generators{&crd, &def}
		if !crdFirst {
			gens = genall.Generators{&def, &crd}
		}
		rt, err := gens.ForRootsWithConfig(&packages.Config{}, "../../testdata/forbidden/...")
		if err != nil {
			t.Fatal(err)
		}
		var diags bytes.Buffer
		s, err := genrun.Wire(rt, &diags)
		if err != nil {
			t.Fatal(err)
		}
		if err := markers.Registered(rt.Collector.Registry); err != nil {
			t.Errorf("crd first %v: %v", crdFirst, err)
		}
		rt.OutputRules = genall.OutputRules{Default: genall.OutputToNothing}
		rt.ErrorWriter = &diags
		if !rt.Run() {
			t.Fatalf("crd first %v: testdata/forbidden generated without errors", crdFirst)
		}
		if n := strings.Count(diags.String(), conflict); n != 1 {
			t.Errorf("crd first %v: the conflict printed %d times, want once:\n%s", crdFirst, n, diags.String())
		}
		dec, err := engine.Decide(s, &rt.GenerationContext, engine.Options{ImplicitDefaults: true})
		if err != nil || dec == nil || len(dec.Kinds) == 0 {
			t.Fatalf("crd first %v: Decide after the run: %v, %v", crdFirst, dec, err)
		}
	}
}

package engine

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/model"
)

// markersOnly is a generator that registers the crd generator's markers
// (model.RegisterMarkers: this tool's over controller-tools') and
// generates nothing: the run's packages and registry, without crdgen.
type markersOnly struct{}

func (markersOnly) RegisterMarkers(into *ctmarkers.Registry) error {
	return model.RegisterMarkers(into)
}

func (markersOnly) CheckFilter() loader.NodeFilter { return model.CheckFilter() }

func (markersOnly) Generate(*genall.GenerationContext) error { return nil }

// loadContext loads patterns as genall does for the crd generator, with
// the markers gen registers.
func loadContext(t *testing.T, gen genall.Generator, patterns ...string) *genall.GenerationContext {
	t.Helper()
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	return &rt.GenerationContext
}

// TestSessionReusesBuild: the defaults generator's decisions (Decide)
// after the crd generator's build (BuildCRDs, released once written) in
// one Session are that build's, whatever allowDangerousTypes, and a build
// for the defaults generator serves the crd generator with the same
// options until it is released; other implicitDefaults, another Session
// or a released build are built anew.
func TestSessionReusesBuild(t *testing.T) {
	ctx := loadContext(t, markersOnly{}, "../../testdata/api/workload/...")
	crdOpts := BuildOptions{ImplicitDefaults: true} // the crd generator's defaults

	var built []*apiextensionsv1.CustomResourceDefinition
	s := &Session{}
	b, err := BuildCRDs(s, ctx, crdOpts, func(c *apiextensionsv1.CustomResourceDefinition) { built = append(built, c) })
	if err != nil || b == nil || len(built) == 0 {
		t.Fatalf("BuildCRDs: %v, %v, %d CRDs", b, err, len(built))
	}
	b.Release()
	for _, opts := range []Options{{ImplicitDefaults: true}, {ImplicitDefaults: true, AllowDangerousTypes: true}} {
		dec, err := Decide(s, ctx, opts)
		if err != nil || dec == nil {
			t.Fatalf("Decide(%+v): %v, %v", opts, dec, err)
		}
		if dec.Model != b.Model() || dec.Findings != b.Findings() {
			t.Errorf("Decide(%+v) after the crd generator's build: a new build", opts)
		}
		if len(dec.Kinds) == 0 {
			t.Errorf("Decide(%+v): no kinds", opts)
		}
	}
	if dec, err := Decide(s, ctx, Options{}); err != nil || dec == nil || dec.Model == b.Model() {
		t.Errorf("Decide without implicit defaults after a build with them: %v, reused %v", err, dec != nil && dec.Model == b.Model())
	}
	if dec, err := Decide(&Session{}, ctx, Options{ImplicitDefaults: true}); err != nil || dec == nil || dec.Model == b.Model() {
		t.Errorf("Decide in another session: %v, reused %v", err, dec != nil && dec.Model == b.Model())
	}

	// the defaults generator first: its build serves crd, until released
	s = &Session{}
	dec, err := Decide(s, ctx, Options{ImplicitDefaults: true})
	if err != nil || dec == nil {
		t.Fatalf("Decide: %v, %v", dec, err)
	}
	var again []*apiextensionsv1.CustomResourceDefinition
	b, err = BuildCRDs(s, ctx, crdOpts, func(c *apiextensionsv1.CustomResourceDefinition) { again = append(again, c) })
	if err != nil || b == nil || b.Model() != dec.Model {
		t.Fatalf("BuildCRDs after Decide with the same options: %v, reused %v", err, b != nil && b.Model() == dec.Model)
	}
	if len(again) != len(built) || len(b.CRDs()) != len(built) {
		t.Errorf("the reused build gave %d CRDs, holds %d; the crd generator's own %d", len(again), len(b.CRDs()), len(built))
	}
	b.Release()
	if b2, err := BuildCRDs(s, ctx, crdOpts, func(*apiextensionsv1.CustomResourceDefinition) {}); err != nil || b2 == nil || b2 == b {
		t.Errorf("BuildCRDs after Release: %v, reused %v", err, b2 == b)
	}
	if b2, err := BuildCRDs(s, ctx, BuildOptions{ImplicitDefaults: true, OmitToolVersion: true}, func(*apiextensionsv1.CustomResourceDefinition) {}); err != nil || b2 == nil || b2.Model() == dec.Model {
		t.Errorf("BuildCRDs with other options: %v", err)
	}
}

// TestNoKind: roots without a kind build nothing, for both generators.
func TestNoKind(t *testing.T) {
	ctx := loadContext(t, markersOnly{}, "../encoding/jsonnum")
	if b, err := BuildCRDs(nil, ctx, BuildOptions{ImplicitDefaults: true}, func(*apiextensionsv1.CustomResourceDefinition) {}); b != nil || err != nil {
		t.Errorf("BuildCRDs: %v, %v", b, err)
	}
	if dec, err := Decide(nil, ctx, Options{ImplicitDefaults: true}); dec != nil || err != nil {
		t.Errorf("Decide: %v, %v", dec, err)
	}
}

// crdMarkers registers controller-tools' CRD markers alone, as a
// generator registered after this tool's markers would.
type crdMarkers struct{ markersOnly }

func (crdMarkers) RegisterMarkers(into *ctmarkers.Registry) error { return crdmarkers.Register(into) }

// TestForeignDefault: with controller-tools' +default in the registry
// rather than this tool's, both refuse to build, and say why.
func TestForeignDefault(t *testing.T) {
	ctx := loadContext(t, crdMarkers{}, "../../testdata/api/workload/...")
	b, err := BuildCRDs(nil, ctx, BuildOptions{ImplicitDefaults: true}, func(*apiextensionsv1.CustomResourceDefinition) {})
	if b != nil || err == nil || !strings.Contains(err.Error(), "call markers.Register after every generator") {
		t.Errorf("BuildCRDs: %v, %v", b, err)
	}
	if dec, err := Decide(nil, ctx, Options{ImplicitDefaults: true}); dec != nil || err == nil {
		t.Errorf("Decide: %v, %v", dec, err)
	}
}

package objectpath

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/keprows"
)

// exampleCRD wraps an example schema, which the KEPs write for the whole
// object, as the root schema of a namespaced CRD.
func exampleCRD(schemaYAML string) *apiextensionsv1.CustomResourceDefinition {
	return keprows.MustCRDFromYAML("seeds.example.com", schemaYAML)
}

// runSeed normalises one row's object and compares everything but
// apiVersion and kind (and metadata, unless the row names it).
func runSeed(t *testing.T, r keprows.SeedRow) {
	t.Helper()
	if r.Skip != "" {
		t.Skip(r.Skip)
	}
	crd := exampleCRD(r.Schema)
	if errs := crdcheck.ValidateCRD(context.Background(), crd); len(errs) > 0 {
		t.Fatalf("CRD invalid: %v", errs.ToAggregate())
	}
	p, err := New(crd, "v1")
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.In), &obj); err != nil {
		t.Fatal(err)
	}
	_, wantsMeta := obj["metadata"]
	if !wantsMeta {
		obj["metadata"] = map[string]any{"name": "example"}
	}
	obj["metadata"].(map[string]any)["namespace"] = "default"
	obj["apiVersion"], obj["kind"] = "seeds.example.com/v1", "Example"
	res := p.Normalize(context.Background(), obj)
	delete(res.Object, "apiVersion")
	delete(res.Object, "kind")
	if !wantsMeta {
		delete(res.Object, "metadata")
	}
	got, _ := json.Marshal(res.Object)
	if !jsonEqual(t, got, []byte(r.Want)) {
		t.Errorf("stored %s, want %s", got, r.Want)
	}
	switch {
	case r.Invalid == "" && len(res.Errors) > 0:
		t.Errorf("unexpected validation errors: %v", res.Errors.ToAggregate())
	case r.Invalid != "" && !strings.Contains(res.Errors.ToAggregate().Error(), r.Invalid):
		t.Errorf("validation errors %v, want one about %q", res.Errors, r.Invalid)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func TestDefaultingKEPExamples(t *testing.T) {
	for _, r := range keprows.DefaultingKEP {
		t.Run(r.Name, func(t *testing.T) { runSeed(t, r) })
	}
}

func TestPruningKEPExamples(t *testing.T) {
	for _, r := range keprows.PruningKEP {
		t.Run(r.Name, func(t *testing.T) { runSeed(t, r) })
	}
}

// TestKEP1929Rows runs KEP-1929's default(...) tables against the CRDs
// generated from the KEP's Go types (testdata/golden).
func TestKEP1929Rows(t *testing.T) {
	crds, err := crdcheck.LoadCRDs("../../../testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]*Pipeline{}
	for _, c := range crds {
		p, err := New(c, "v1")
		if err != nil {
			t.Fatal(err)
		}
		byFile[c.Spec.Group+"_"+c.Spec.Names.Plural+".yaml"] = p
	}
	for _, r := range keprows.KEP1929 {
		t.Run(r.Example+": "+r.Call, func(t *testing.T) {
			if r.Skip != "" {
				t.Skip(r.Skip)
			}
			p := byFile[r.Golden]
			if p == nil {
				t.Fatalf("no golden CRD %s", r.Golden)
			}
			obj := map[string]any{"apiVersion": r.APIVersion(), "kind": r.Kind,
				"metadata": map[string]any{"name": "row", "namespace": "default"}}
			if r.Spec != "" {
				var spec any
				if err := json.Unmarshal([]byte(r.Spec), &spec); err != nil {
					t.Fatal(err)
				}
				obj["spec"] = spec
			}
			res := p.Normalize(context.Background(), obj)
			got, _ := json.Marshal(res.Object["spec"])
			if !jsonEqual(t, got, []byte(r.Want)) {
				t.Errorf("spec stored as %s, want %s", got, r.Want)
			}
			if r.Invalid == "" && len(res.Errors) > 0 {
				t.Errorf("unexpected errors: %v", res.Errors.ToAggregate())
			}
			if r.Invalid != "" && !strings.Contains(res.Errors.ToAggregate().Error(), r.Invalid) {
				t.Errorf("errors %v, want one about %s", res.Errors, r.Invalid)
			}
		})
	}
}

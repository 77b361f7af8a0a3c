package impact

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
)

// recordBuilds records what the definitions of a build while f runs.
func recordBuilds(a *Analyzer, f func()) []string {
	var mu sync.Mutex // the workers of f build at once
	var got []string
	for _, side := range []map[string]*definition{a.old, a.new} {
		for _, d := range side {
			d.onBuild = func(what, version string) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, what+" "+d.crd.Name+" "+version)
			}
		}
	}
	f()
	for _, side := range []map[string]*definition{a.old, a.new} {
		for _, d := range side {
			d.onBuild = nil
		}
	}
	slices.Sort(got)
	return got
}

// builtSoFar names the versions of a whose schema or pipeline is built.
func builtSoFar(a *Analyzer) []string {
	var out []string
	for _, side := range []map[string]*definition{a.old, a.new} {
		for _, d := range side {
			for name, v := range d.versions {
				if v.structural != nil || v.pipe != nil {
					out = append(out, d.crd.Name+" "+name)
				}
			}
		}
	}
	return out
}

// TestVersionsBuiltOnFirstUse: New builds no schema and no pipeline; an
// object builds what its own version needs under OLD and NEW, once,
// however many objects and workers ask; a CRD or version no object uses is
// never built.
func TestVersionsBuiltOnFirstUse(t *testing.T) {
	t.Parallel()
	a := analyzer(t, []string{"testdata/old.yaml"}, "testdata/new.yaml")
	if got := builtSoFar(a); len(got) != 0 {
		t.Errorf("New built %q, want nothing", got)
	}
	widget := map[string]any{"apiVersion": "impact.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"}, "spec": map[string]any{}}
	got := recordBuilds(a, func() {
		done := make(chan struct{})
		for range 4 {
			go func() {
				defer func() { done <- struct{}{} }()
				if _, err := a.Object(context.Background(), widget); err != nil {
					t.Error(err)
				}
			}()
		}
		for range 4 {
			<-done
		}
	})
	// one definition of widgets per side: OLD's pipeline (store) and
	// schema (storage codec), NEW's schema (read) and pipeline (update)
	want := []string{"pipeline widgets.impact.example.com v1", "pipeline widgets.impact.example.com v1",
		"schema widgets.impact.example.com v1", "schema widgets.impact.example.com v1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("built %q, want %q", got, want)
	}
	if got := recordBuilds(a, func() { _, _ = a.Object(context.Background(), widget) }); len(got) != 0 {
		t.Errorf("a second object built %q again", got)
	}
	for _, side := range []map[string]*definition{a.old, a.new} {
		g := side["gadgets.impact.example.com"]
		for name, v := range g.versions {
			if v.structural != nil || v.pipe != nil || g.internalCRD != nil {
				t.Errorf("gadgets %s built without an object of it", name)
			}
		}
	}
}

// TestLazyIsEager: the records of every test object are the same whether
// each version is built when an object first needs it or every version of
// every CRD is built before the first object.
func TestLazyIsEager(t *testing.T) {
	t.Parallel()
	for _, newFile := range []string{"testdata/new.yaml", "testdata/new-refused.yaml", "testdata/new-removed.yaml"} {
		lazy := analyzer(t, []string{"testdata/old.yaml"}, newFile)
		eager := analyzer(t, []string{"testdata/old.yaml"}, newFile)
		for _, side := range []map[string]*definition{eager.old, eager.new} {
			for _, d := range side {
				for _, v := range d.versions {
					if _, err := v.schema(); err != nil {
						t.Fatal(err)
					}
					if v.served {
						if _, err := v.pipeline(); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
		}
		for _, file := range []string{"testdata/objects.yaml", "testdata/list.yaml", "testdata/mixed.yaml"} {
			inputs, err := readInputs([]string{file}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range inputs {
				l, lerr := lazy.Object(context.Background(), in.Object)
				e, eerr := eager.Object(context.Background(), in.Object)
				if !reflect.DeepEqual(l, e) || (lerr == nil) != (eerr == nil) {
					t.Errorf("%s, %s: lazy %+v (%v), eager %+v (%v)", newFile, in.Source, l, lerr, e, eerr)
				}
			}
		}
	}
}

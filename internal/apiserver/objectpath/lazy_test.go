package objectpath

import (
	"bytes"
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
	"github.com/controller-gen-default/controller-gen-default/internal/random"
)

// watchBuilds counts each build of a version of pipelines from now on
// (Pipeline.onBuild, set per pipeline: tests that watch builds do not share
// a package-level hook); the function it returns reads the counts.
func watchBuilds(pipelines map[schema.GroupVersionKind]*Pipeline) func() map[schema.GroupVersionKind]int {
	var mu sync.Mutex
	got := map[schema.GroupVersionKind]int{}
	for _, p := range pipelines {
		p.onBuild = func(gvk schema.GroupVersionKind) {
			mu.Lock()
			got[gvk]++
			mu.Unlock()
		}
	}
	return func() map[schema.GroupVersionKind]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(got)
	}
}

// loadLazy loads the CRDs in paths as normalize loads them: a pipeline
// per served version, built on first use.
func loadLazy(t *testing.T, paths ...string) map[schema.GroupVersionKind]*Pipeline {
	t.Helper()
	crds, err := crdcheck.LoadCRDs(paths...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Lazy(crds)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVersionsBuiltOnFirstUse: loading builds no version; the first
// objects of a version, sent at once by several goroutines, build it once;
// the versions no object uses are never built.
func TestVersionsBuiltOnFirstUse(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	pipelines := loadLazy(t, "testdata/crds", "testdata/fuzz/rich.yaml")
	for gvk, p := range pipelines {
		if p.strategy != nil || p.structural != nil {
			t.Errorf("loading built %v", gvk)
		}
	}
	if len(pipelines) < 3 {
		t.Fatalf("%d pipelines, want the served versions of 3 CRDs", len(pipelines))
	}
	gvk := schema.GroupVersionKind{Group: "example.com", Version: "v2", Kind: "ClusterThing"}
	p := pipelines[gvk]
	builds := watchBuilds(pipelines)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			res := p.Normalize(context.Background(), clusterThing(map[string]any{"name": "t" + strconv.Itoa(i)}))
			if res.Refused != nil || len(res.Errors) > 0 {
				t.Errorf("object %d: %v %v", i, res.Refused, res.Errors)
			}
		})
	}
	wg.Wait()
	got := builds()
	if want := map[schema.GroupVersionKind]int{gvk: 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("built %v, want %v", got, want)
	}
	for other, q := range pipelines {
		if other != gvk && (q.strategy != nil || q.structural != nil) {
			t.Errorf("%v built without an object of it", other)
		}
	}
}

// TestBuildError: a version that cannot be built answers every request
// with an internal error (500) naming the CRD and the version, and the
// build is not retried.
func TestBuildError(t *testing.T) {
	crds, err := crdcheck.LoadCRDs("testdata/crds")
	if err != nil {
		t.Fatal(err)
	}
	c := crds[0].DeepCopy()
	c.Spec.Versions[0].Schema = nil // invalid: ValidateCRD refuses it
	calls := 0
	p, err := newLazy(c, c.Spec.Versions[0].Name, func() (*apiextensions.CustomResourceDefinition, error) { calls++; return crdcheck.ToInternal(c) })
	if err != nil {
		t.Fatal(err)
	}
	want := "CRD " + c.Name + ": " + c.Name + " version " + c.Spec.Versions[0].Name + " has no schema"
	if err := p.Build(); err == nil || err.Error() != want {
		t.Fatalf("Build() = %v, want %q", err, want)
	}
	res := p.Create(context.Background(), map[string]any{"apiVersion": "example.com/v1", "kind": c.Spec.Names.Kind, "metadata": map[string]any{"name": "a"}}, Request{})
	if res.Refused == nil || res.Refused.Status().Code != 500 || !strings.Contains(res.Refused.Error(), want) {
		t.Errorf("Create refused with %v, want a 500 saying %q", res.Refused, want)
	}
	if dec := p.Decode(map[string]any{}); !dec.Undecodable || len(dec.Errors) != 1 {
		t.Errorf("Decode = %+v, want undecodable", dec)
	}
	if main, status := p.Strategies(); main != nil || status != nil {
		t.Error("Strategies of a pipeline that cannot be built")
	}
	if calls != 1 {
		t.Errorf("the CRD was converted %d times, want once", calls)
	}
}

// seedObjects are the objects of FuzzCreate's seed corpus.
func seedObjects(t *testing.T) []map[string]any {
	t.Helper()
	files, err := filepath.Glob("../../normalize/testdata/fuzz/FuzzCreate/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	var out []map[string]any
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for o, err := range manifest.All(f, bytes.NewReader([]byte(data))) {
			if err != nil {
				break
			}
			out = append(out, o.Object)
		}
	}
	return out
}

// lazyValues is the vocabulary of the random values of TestLazyIsEager: the
// names the test CRDs use, and strings some of which they refuse.
var lazyValues = random.Vocabulary{
	Keys:    []string{"name", "data", "entry", "replicas", "x", "items", "key"},
	Strings: []string{"", "a", "pointer-name", "Bad Name", "example.com/ok"},
	IntMin:  -100, IntMax: 99, NumberMax: 10, MaxKeys: 2, MaxItems: 2,
}

// TestLazyIsEager: every object of FuzzCreate's seeds, and random objects
// of each served version, give the same result through the pipelines the
// command builds on first use and through pipelines built at once (New).
func TestLazyIsEager(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	paths := []string{"testdata/crds", "testdata/fuzz/rich.yaml"}
	lazy := loadLazy(t, paths...)
	crds, err := crdcheck.LoadCRDs(paths...)
	if err != nil {
		t.Fatal(err)
	}
	eager := map[schema.GroupVersionKind]*Pipeline{}
	var gvks []schema.GroupVersionKind
	for _, c := range crds {
		for _, v := range c.Spec.Versions {
			if v.Served {
				p, err := New(c, v.Name)
				if err != nil {
					t.Fatal(err)
				}
				eager[p.gvk] = p
				gvks = append(gvks, p.gvk)
			}
		}
	}
	objects := seedObjects(t)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		gvk := gvks[i%len(gvks)]
		obj := map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind,
			"metadata": map[string]any{"name": "r" + strconv.Itoa(i)}}
		for _, k := range []string{"spec", "status", "data"} {
			if r.IntN(2) == 0 {
				obj[k] = random.JSON(r, lazyValues, 3)
			}
		}
		objects = append(objects, obj)
	}
	compared := 0
	for i, obj := range objects {
		gvk := schema.FromAPIVersionAndKind(str(obj["apiVersion"]), str(obj["kind"]))
		l, e := lazy[gvk], eager[gvk]
		if (l == nil) != (e == nil) {
			t.Fatalf("object %d: %v is served by one and not the other", i, gvk)
		}
		if l == nil {
			continue
		}
		for _, strict := range []bool{false, true} {
			req := Request{Namespace: "default", Strict: strict}
			lr, er := l.Create(ctx, runtime.DeepCopyJSON(obj), req), e.Create(ctx, runtime.DeepCopyJSON(obj), req)
			// the validators walk maps in random order
			lr.Errors, er.Errors = SortErrors(lr.Errors), SortErrors(er.Errors)
			if !reflect.DeepEqual(lr, er) {
				t.Errorf("object %d (%v, strict %t):\nlazy  %+v\neager %+v", i, gvk, strict, lr, er)
			}
		}
		if ld, ed := l.Decode(obj), e.Decode(obj); !reflect.DeepEqual(ld, ed) {
			t.Errorf("object %d: Decode: lazy %+v, eager %+v", i, ld, ed)
		}
		compared++
	}
	if compared < 200 {
		t.Errorf("%d objects compared", compared)
	}
}

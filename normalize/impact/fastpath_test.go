package impact

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// randomValue is a random JSON value over the names the test CRDs use,
// some of which they refuse, prune or default.
func randomValue(r *rand.Rand, depth int) any {
	switch n := r.IntN(8); {
	case n == 0:
		return nil
	case n == 1:
		return r.IntN(2) == 0
	case n == 2:
		return int64(r.IntN(20) - 5)
	case n == 3:
		return []string{"", "a", "small", "large", "fast", "Bad Name"}[r.IntN(6)]
	case n < 6 && depth < 3:
		m := map[string]any{}
		for range r.IntN(4) {
			m[[]string{"size", "color", "replicas", "mode", "legacy", "tier", "ready", "extra"}[r.IntN(8)]] = randomValue(r, depth+1)
		}
		return m
	case depth < 3:
		var l []any
		for range r.IntN(3) {
			l = append(l, randomValue(r, depth+1))
		}
		return l
	}
	return "x"
}

// TestFastPathIsFullPath: the records of the test objects, and of random
// objects of each kind and version, are the same with Analyzer.Object's
// shortcuts (an empty diff for an object read as stored; one decoding of
// the body the no-op update and the ratcheting updates share; no search
// for ratcheted values in an object read as OLD's create accepted it,
// createdAsRead) and without them.
func TestFastPathIsFullPath(t *testing.T) {
	var objects []map[string]any
	for _, file := range []string{"testdata/objects.yaml", "testdata/list.yaml", "testdata/mixed.yaml"} {
		inputs, err := readInputs([]string{file}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			objects = append(objects, in.Object)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	kinds := [][2]string{{"impact.example.com/v1", "Widget"}, {"impact.example.com/v1beta1", "Gadget"}, {"impact.example.com/v1", "Gadget"}}
	for i := range 120 {
		k := kinds[i%len(kinds)]
		obj := map[string]any{"apiVersion": k[0], "kind": k[1], "metadata": map[string]any{"name": "r" + strconv.Itoa(i)}}
		for _, f := range []string{"spec", "status"} {
			if r.IntN(3) > 0 {
				obj[f] = randomValue(r, 0)
			}
		}
		objects = append(objects, obj)
	}
	unchanged := 0
	for _, newFile := range []string{"testdata/new.yaml", "testdata/new-refused.yaml", "testdata/old.yaml"} {
		a := analyzer(t, []string{"testdata/old.yaml"}, newFile)
		for i, obj := range objects {
			fast, ferr := a.Object(context.Background(), runtime.DeepCopyJSON(obj))
			fullPath = true
			full, err := a.Object(context.Background(), runtime.DeepCopyJSON(obj))
			fullPath = false
			if !reflect.DeepEqual(fast, full) || (ferr == nil) != (err == nil) {
				t.Errorf("%s, object %d: fast %+v (%v), full %+v (%v)", newFile, i, fast, ferr, full, err)
			}
			if fast != nil && reflect.DeepEqual(fast.Categories, []string{Unchanged}) {
				unchanged++
			}
		}
	}
	if unchanged == 0 {
		t.Error("no unchanged object compared")
	}
	if createdAsReadSkips.Load() == 0 {
		t.Error("no object took createdAsRead's shortcut")
	}
	t.Logf("%d objects, %d unchanged records", len(objects), unchanged)
}

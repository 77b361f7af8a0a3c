package conversion

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"
)

// TestBlameNeverRemovesMetadata: at the root, apiVersion, kind and metadata
// are never blamed, however much their removal would help; below it,
// properties of those names are values like any other.
func TestBlameNeverRemovesMetadata(t *testing.T) {
	obj := map[string]any{"apiVersion": "a/v1", "kind": "K", "metadata": map[string]any{"name": "n"},
		"spec": map[string]any{"a": int64(1)}}
	withoutRoot := func(name string) func(map[string]any) (bool, error) {
		return func(o map[string]any) (bool, error) {
			_, there := o[name]
			return !there, nil
		}
	}
	for _, name := range []string{"apiVersion", "kind", "metadata"} {
		if at, found, err := blame(obj, withoutRoot(name)); found || err != nil {
			t.Errorf("%s: blamed %v (%v)", name, at, err)
		}
	}
	// spec.kind is blamed: it is not the object's kind
	nested := map[string]any{"apiVersion": "a/v1", "kind": "K", "spec": map[string]any{"kind": "x", "b": "y"}}
	specKindGone := func(o map[string]any) (bool, error) {
		spec, _ := o["spec"].(map[string]any)
		_, there := spec["kind"]
		return !there, nil
	}
	if at, found, err := blame(nested, specKindGone); !found || err != nil || !reflect.DeepEqual(at, []any{"spec", "kind"}) {
		t.Errorf("spec.kind: blamed %v %v (%v)", at, found, err)
	}
}

// TestLookupRemoveBounds: an index past a list's end finds nothing and
// removes nothing; one within it removes the item and shortens the list.
func TestLookupRemoveBounds(t *testing.T) {
	obj := func() map[string]any {
		return map[string]any{"l": []any{"a", "b"}, "m": []any{[]any{"x", "y"}}}
	}
	o := obj()
	if v := lookup(o, []any{"l", 2}); v != nil {
		t.Errorf("lookup past the end: %v", v)
	}
	if v := lookup(o, []any{"l", 1}); v != "b" {
		t.Errorf("lookup of the last item: %v", v)
	}
	remove(o, []any{"l", 2})
	remove(o, []any{"m", 0, 2})
	if !reflect.DeepEqual(o, obj()) {
		t.Errorf("remove past the end changed the object: %v", o)
	}
	remove(o, []any{"l", 1})
	remove(o, []any{"m", 0, 0})
	if want := map[string]any{"l": []any{"a"}, "m": []any{[]any{"y"}}}; !reflect.DeepEqual(o, want) {
		t.Errorf("remove: %v, want %v", o, want)
	}
}

// refuseKeys refuses every object whose spec has a key, naming the keys:
// each removal changes the refusal, so each finds a culprit.
type refuseKeys struct{}

func (refuseKeys) Convert(_ context.Context, objs []map[string]any, _ string) ([]map[string]any, error) {
	for _, o := range objs {
		spec, _ := o["spec"].(map[string]any)
		if len(spec) > 0 {
			return nil, &RefusedError{Err: fmt.Errorf("refused: %v", slices.Sorted(maps.Keys(spec)))}
		}
	}
	return objs, nil
}

// TestCulpritBound: at most maxCulprits values are taken out of an object
// that stays refused; the first is reported.
func TestCulpritBound(t *testing.T) {
	k := widgetKind(t, widgetCRD(t, nil))
	spec := map[string]any{}
	for i := range maxCulprits + 2 {
		spec[fmt.Sprintf("k%02d", i)] = "x"
	}
	obj := map[string]any{"apiVersion": "conv.example.com/v1beta1", "kind": "Widget", "metadata": map[string]any{"name": "w"}, "spec": spec}
	p, _, reduced, ok, err := culprit(context.Background(), refuseKeys{}, obj, k.Versions["v1"])
	if err != nil || !ok || p.String() != "spec.k00" {
		t.Fatalf("culprit = %v, %v, %v; want spec.k00", p, ok, err)
	}
	if left := reduced["spec"].(map[string]any); len(left) != 2 || left["k08"] == nil || left["k09"] == nil {
		t.Errorf("reduced spec %v, want k08 and k09 left", left)
	}
}

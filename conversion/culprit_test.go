package conversion

import (
	"reflect"
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

package conversion

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// TestDropRefusedOrder: the fields dropped do not depend on the order of
// the errors. Here one error drops spec.o.p (its required name is missing)
// and another, under spec.o.p.q, dropped spec.o too when it came second
// (it found neither q nor p, and went up to o).
func TestDropRefusedOrder(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{
			"keep": "x",
			"o": map[string]any{
				"other": "y",
				"p": map[string]any{
					"q": map[string]any{"a": int64(1)},
				},
			},
		},
	}
	errs := field.ErrorList{
		field.Required(field.NewPath("spec", "o", "p", "name"), ""),
		field.Required(field.NewPath("spec", "o", "p", "q", "name"), ""),
	}
	want := map[string]any{"spec": map[string]any{"keep": "x", "o": map[string]any{"other": "y"}}}
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		var es field.ErrorList
		for _, i := range order {
			es = append(es, errs[i])
		}
		got := runtime.DeepCopyJSON(obj)
		if !dropRefused(got, es) {
			t.Fatalf("order %v: nothing dropped", order)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("order %v: %v, want %v", order, got, want)
		}
	}
	// an item's missing key drops the list (not the item: the list keeps
	// its length), whatever the order of the item's errors
	items := map[string]any{"spec": map[string]any{"keep": "x", "l": []any{map[string]any{"value": "v"}}}}
	es := field.ErrorList{
		field.Required(field.NewPath("spec", "l").Index(0).Child("key"), ""),
		field.Invalid(field.NewPath("spec", "l").Index(0).Child("value"), "v", ""),
	}
	for range 2 {
		got := runtime.DeepCopyJSON(items)
		dropRefused(got, es)
		if want := map[string]any{"spec": map[string]any{"keep": "x"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("%v, want %v", got, want)
		}
		slices.Reverse(es)
	}
}

// TestParseFieldPath: a field.Path's string splits into property names,
// indexes and keys, an index after an index included.
func TestParseFieldPath(t *testing.T) {
	for p, want := range map[string][]string{
		"spec.items[0].name": {"spec", "items", "[0]", "name"},
		"spec.matrix[0][1]":  {"spec", "matrix", "[0]", "[1]"},
		"spec.cube[0][1][2]": {"spec", "cube", "[0]", "[1]", "[2]"},
		"spec.map[key]":      {"spec", "map", "[key]"},
		"spec.open[x":        {"spec", "open", "[x"},
		"spec":               {"spec"},
	} {
		if got := parseFieldPath(p); !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}

// TestDropRefusedKeepsTopLevel: an error at a top-level field (spec)
// drops nothing: without spec the object is no better.
func TestDropRefusedKeepsTopLevel(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"a": "x"}}
	if dropRefused(obj, field.ErrorList{field.Required(field.NewPath("spec"), "")}) || obj["spec"] == nil {
		t.Errorf("dropped a top-level field: %v", obj)
	}
}

// TestPresentDeletePath: a path's indexes must be within the list; a list's
// item is never deleted (its parent goes instead); a key in brackets is a
// map's key.
func TestPresentDeletePath(t *testing.T) {
	obj := func() map[string]any {
		return map[string]any{"l": []any{map[string]any{"a": "0"}, map[string]any{"a": "1"}}, "m": map[string]any{"k": "v"}}
	}
	for _, tc := range []struct {
		segs    []string
		present bool
		deleted bool
	}{
		{[]string{"l", "[0]", "a"}, true, true},
		{[]string{"l", "[1]", "a"}, true, true},
		{[]string{"l", "[2]", "a"}, false, false},
		{[]string{"l", "[-1]", "a"}, false, false},
		{[]string{"l", "[x]", "a"}, false, false},
		{[]string{"l", "[1]"}, true, false},
		{[]string{"m", "[k]"}, true, true},
		{[]string{"m", "j"}, false, false},
		{[]string{"m", "k", "deeper"}, false, false},
	} {
		o := obj()
		if got := present(o, tc.segs); got != tc.present {
			t.Errorf("present %q: %v, want %v", tc.segs, got, tc.present)
		}
		if got := deletePath(o, tc.segs); got != tc.deleted || present(o, tc.segs) == got && tc.present {
			t.Errorf("deletePath %q: %v, want %v; now %v", tc.segs, got, tc.deleted, o)
		}
	}
}

// TestObjectsRefused: a version none of whose random objects is valid has
// the errors of its last attempt; a version with valid objects has none.
func TestObjectsRefused(t *testing.T) {
	crd := widgetCRD(t, func(c *apiextensionsv1.CustomResourceDefinition) {
		for i, v := range c.Spec.Versions {
			if v.Name == "v1beta1" {
				spec := v.Schema.OpenAPIV3Schema.Properties["spec"]
				spec.MinProperties = ptr(int64(50)) // more than it has
				c.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["spec"] = spec
			}
		}
	})
	k := widgetKind(t, crd)
	objs, refused := Objects(context.Background(), k, 10, rand.New(rand.NewPCG(1, 0)))
	if len(objs["v1beta1"]) != 0 || len(refused["v1beta1"]) == 0 {
		t.Errorf("v1beta1: %d objects, refused %v; want none, refused", len(objs["v1beta1"]), refused["v1beta1"])
	}
	if len(objs["v1"]) == 0 || refused["v1"] != nil {
		t.Errorf("v1: %d objects, refused %v; want objects, none refused", len(objs["v1"]), refused["v1"])
	}
}

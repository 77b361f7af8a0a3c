package random

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"testing"
)

// TestJSON: JSON's values are of its vocabulary (keys, strings, integers
// within their bounds, numbers only with NumberMax), nest at most depth
// levels, reach that depth, hold every kind, and are the same for the
// same seed.
func TestJSON(t *testing.T) {
	v := Vocabulary{Keys: []string{"a", "b"}, Strings: []string{"", "x"}, IntMin: -3, IntMax: 4, MaxKeys: 3, MaxItems: 2}
	var walk func(x any, depth int) int // the levels of objects and arrays
	kinds := map[string]int{}
	walk = func(x any, depth int) int {
		switch x := x.(type) {
		case nil:
			kinds["null"]++
		case bool:
			kinds["boolean"]++
		case int64:
			kinds["integer"]++
			if x < v.IntMin || x > v.IntMax {
				t.Fatalf("integer %d outside [%d, %d]", x, v.IntMin, v.IntMax)
			}
		case float64:
			kinds["number"]++
			if v.NumberMax == 0 || x < 0 || x >= v.NumberMax {
				t.Fatalf("number %v with NumberMax %v", x, v.NumberMax)
			}
		case string:
			kinds["string"]++
			if !slices.Contains(v.Strings, x) {
				t.Fatalf("string %q not in %q", x, v.Strings)
			}
		case map[string]any:
			kinds["object"]++
			if len(x) > v.MaxKeys {
				t.Fatalf("%d keys, at most %d: %v", len(x), v.MaxKeys, x)
			}
			n := 0
			for k, c := range x {
				if !slices.Contains(v.Keys, k) {
					t.Fatalf("key %q not in %q", k, v.Keys)
				}
				n = max(n, walk(c, depth+1))
			}
			return 1 + n
		case []any:
			kinds["array"]++
			if x == nil || len(x) > v.MaxItems {
				t.Fatalf("array %#v, at most %d items", x, v.MaxItems)
			}
			n := 0
			for _, c := range x {
				n = max(n, walk(c, depth+1))
			}
			return 1 + n
		default:
			t.Fatalf("%T is no JSON value", x)
		}
		return 0
	}
	for _, numbers := range []float64{0, 10} {
		v.NumberMax = numbers
		clear(kinds)
		r := rand.New(rand.NewPCG(1, 2))
		deepest := 0
		for range 2000 {
			deepest = max(deepest, walk(JSON(r, v, 3), 0))
		}
		if deepest != 3 {
			t.Errorf("NumberMax %v: %d levels at most, want 3", numbers, deepest)
		}
		for _, k := range []string{"null", "boolean", "integer", "string", "object", "array"} {
			if kinds[k] == 0 {
				t.Errorf("NumberMax %v: no %s in %v", numbers, k, kinds)
			}
		}
		if (kinds["number"] > 0) != (numbers > 0) {
			t.Errorf("NumberMax %v: %d numbers", numbers, kinds["number"])
		}
		if x := JSON(rand.New(rand.NewPCG(1, 2)), v, 0); walk(x, 0) != 0 {
			t.Errorf("depth 0: %v", x)
		}
	}
	for seed := range uint64(50) {
		a, b := JSON(rand.New(rand.NewPCG(seed, 0)), v, 3), JSON(rand.New(rand.NewPCG(seed, 0)), v, 3)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: %v, then %v", seed, a, b)
		}
	}
	// no keys or strings: words of 1 to 8 letters
	word := regexp.MustCompile(`^[a-z]{1,8}$`)
	var words func(x any) int
	words = func(x any) int {
		n := 0
		switch x := x.(type) {
		case string:
			if !word.MatchString(x) {
				t.Fatalf("string %q is no word", x)
			}
			n++
		case map[string]any:
			for k, c := range x {
				if !word.MatchString(k) {
					t.Fatalf("key %q is no word", k)
				}
				n += 1 + words(c)
			}
		case []any:
			for _, c := range x {
				n += words(c)
			}
		}
		return n
	}
	r, n := rand.New(rand.NewPCG(3, 0)), 0
	for range 200 {
		n += words(JSON(r, Vocabulary{MaxKeys: 3, MaxItems: 2}, 2))
	}
	if n == 0 {
		t.Error("no words without a vocabulary")
	}
}

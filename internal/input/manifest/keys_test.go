package manifest

import (
	"errors"
	"strings"
	"testing"
)

// TestKeyCollision: two keys that go-yaml reads as different values but
// that become one JSON key are refused, the same way on every run and
// whether the document is a List streamed or an object; keys that are one
// value, or one JSON key only by their text, are not.
func TestKeyCollision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, err string }{
		{"kind: Widget\nspec:\n  1: a\n  \"1\": b\n", `spec: the keys 1 and "1" both become "1" in JSON`},
		{"kind: Widget\nspec: {1.0: a, 1: b}\n", `spec: the keys 1.0 and 1 both become "1"`},
		{"kind: Widget\nspec:\n  yes: a\n  \"true\": b\n", `spec: the keys yes and "true" both become "true"`},
		{"kind: Widget\nspec:\n  .nan: a\n  .NaN: b\n", `spec: the keys .nan and .NaN both become ".nan"`},
		{"kind: Widget\nspec:\n  m:\n  - 0x1: a\n    !!str 1: b\n", `spec.m[0]: the keys 0x1 and !!str 1 both become "1"`},
		{"kind: List\nitems:\n- kind: Widget\n  spec:\n    1: a\n    '1': b\n", `items[0].spec: the keys 1 and "1" both become "1"`},
		{"1: a\n\"1\": b\nkind: Widget\n", `the keys 1 and "1" both become "1"`},
		// one value twice: the last is kept, on every run (a duplicate field)
		{"kind: Widget\nspec:\n  1: a\n  0x1: b\n", ""},
		{"kind: Widget\nspec:\n  a: 1\n  a: 2\n", ""},
		{"kind: Widget\nspec:\n  \"1\": a\n  '1': b\n", ""},
	} {
		compare(t, []byte(tc.in))
		for range 20 {
			o := readOutcome(NewReader("f", strings.NewReader(tc.in)))
			if tc.err == "" && o.err != "" || !strings.Contains(o.err, tc.err) {
				t.Fatalf("%q: error %q, want %q", tc.in, o.err, tc.err)
			}
		}
	}
}

func TestKeyCollisionError(t *testing.T) {
	t.Parallel()
	_, _, _, err := decodeWhole([]byte(`{"kind":"Widget"}`), []byte("kind: Widget\n1: a\n\"1\": b\n"))
	var kc *KeyCollisionError
	if !errors.As(err, &kc) || kc.Path != "" || kc.Key != "1" {
		t.Fatalf("err = %v, want a *KeyCollisionError at the top", err)
	}
}

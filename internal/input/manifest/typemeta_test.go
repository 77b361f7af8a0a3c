package manifest

import (
	"strings"
	"testing"
)

// An apiVersion or kind that is not a string is named as written, not as
// an empty kind: kubectl reads `kind: 5` as no kind at all.
func TestTypeMeta(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		obj                   map[string]any
		apiVersion, kind, err string
	}{
		{obj: map[string]any{"apiVersion": "x.io/v1", "kind": "Widget"}, apiVersion: "x.io/v1", kind: "Widget"},
		{obj: map[string]any{}},
		{obj: map[string]any{"apiVersion": "x.io/v1", "kind": int64(5)}, err: "kind: 5 is a number, not a string: write the kind's name, e.g. kind: Widget"},
		{obj: map[string]any{"apiVersion": "x.io/v1", "kind": nil}, err: "kind: null is null, not a string"},
		{obj: map[string]any{"apiVersion": "x.io/v1", "kind": []any{"W"}}, err: `kind: ["W"] is a list, not a string`},
		{obj: map[string]any{"apiVersion": true, "kind": "W"}, err: "apiVersion: true is a boolean, not a string: write group/version, e.g. apiVersion: example.com/v1"},
		{obj: map[string]any{"apiVersion": map[string]any{"g": "x"}}, err: `apiVersion: {"g":"x"} is an object, not a string`},
	} {
		av, kind, err := TypeMeta(tc.obj)
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("TypeMeta(%v): %v, want %q", tc.obj, err, tc.err)
			}
			continue
		}
		if err != nil || av != tc.apiVersion || kind != tc.kind {
			t.Errorf("TypeMeta(%v) = %q, %q, %v", tc.obj, av, kind, err)
		}
	}
}

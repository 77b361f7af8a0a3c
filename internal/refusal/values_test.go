package refusal

import (
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// enum is n values "v0"... as the apiserver's field.NotSupported quotes
// them.
func enum(n int) []string {
	vals := make([]string, n)
	for i := range vals {
		vals[i] = "v" + strconv.Itoa(i)
	}
	return vals
}

// TestShortenValues: a long list of allowed values is capped, and written
// once per diagnostic; a short one is kept as the apiserver writes it.
func TestShortenValues(t *testing.T) {
	big := field.NotSupported(field.NewPath("spec", "a"), "x", enum(20000))
	again := field.NotSupported(field.NewPath("spec", "b").Index(0), "y", enum(20000))
	short := field.NotSupported(field.NewPath("spec", "c"), "z", []string{"A", "B"})
	var lists ValueLists
	got := []string{lists.Shorten(big.Field, big.Error()), lists.Shorten(again.Field, again.Error()), lists.Shorten(short.Field, short.Error()),
		lists.Shorten(short.Field, short.Error())}
	want := []string{
		`spec.a: Unsupported value: "x": supported values: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", ... and 19990 more (20000 in all)`,
		`spec.b[0]: Unsupported value: "y": supported values: as for spec.a (20000 values)`,
		`spec.c: Unsupported value: "z": supported values: "A", "B"`,
		`spec.c: Unsupported value: "z": supported values: "A", "B"`,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\ngot  %s\nwant %s", i, got[i], want[i])
		}
	}
	// long values: capped by bytes, at least one kept
	long := field.NotSupported(nil, "x", []string{strings.Repeat("a", 300), strings.Repeat("b", 300), "c"})
	if got, want := CapValues(long.Error()), `<nil>: Unsupported value: "x": supported values: "`+strings.Repeat("a", 300)+`", ... and 2 more (3 in all)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// the words of a default's refusal, and the errors of one Text
	def := field.NotSupported(field.NewPath("spec", "validation", "openAPIV3Schema", "properties[a]", "default"), "nope", enum(20000))
	text := Text(field.ErrorList{def, def}, []byte(`"nope"`))
	if len(text) > 2000 || strings.Count(text, `"v9"`) != 1 || !strings.Contains(text, "as for spec.validation.openAPIV3Schema.properties[a].default (20000 values)") {
		t.Errorf("%d bytes: %.600s", len(text), text)
	}
	if s := One(def, []byte(`"nope"`)); len(s) > 1000 {
		t.Errorf("One: %d bytes", len(s))
	}
}

package defaultdiff

import "testing"

func TestPathOf(t *testing.T) {
	for in, want := range map[string]string{
		"properties[spec]": "spec",
		"properties[spec].properties[ports].items.properties[protocol]":     "spec.ports[*].protocol",
		"properties[spec].properties[labels].additionalProperties":          "spec.labels.*",
		"properties[spec].properties[a.b].items.items":                      `spec["a.b"][*][*]`,
		"properties[spec].properties[m].additionalProperties.properties[x]": "spec.m.*.x",
	} {
		if got := PathOf(in); got != want {
			t.Errorf("PathOf(%q) = %q, want %q", in, got, want)
		}
		if back := SchemaPathOf(want); back != in {
			t.Errorf("SchemaPathOf(%q) = %q, want %q", want, back, in)
		}
	}
}

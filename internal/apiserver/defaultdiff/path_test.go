package defaultdiff

import "testing"

func TestSchemaPathOf(t *testing.T) {
	for path, want := range map[string]string{
		"spec":                   "properties[spec]",
		"spec.ports[*].protocol": "properties[spec].properties[ports].items.properties[protocol]",
		"spec.labels.*":          "properties[spec].properties[labels].additionalProperties",
		`spec["a.b"][*][*]`:      "properties[spec].properties[a.b].items.items",
		"spec.m.*.x":             "properties[spec].properties[m].additionalProperties.properties[x]",
		`spec["a.b`:              "properties[spec]",
	} {
		if got := SchemaPathOf(path); got != want {
			t.Errorf("SchemaPathOf(%q) = %q, want %q", path, got, want)
		}
	}
}

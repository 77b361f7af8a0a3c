package crdcheck

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// TestExactIntegers: the apiserver's checks receive an integer default as
// the apiserver decodes it, an exact int64: 2^63-1 is a valid int64
// default, while 9223372036854776000 (what a float64 makes of it, and
// controller-gen v0.23.0 writes) is refused; and StoredValue reads the
// generators' exact numbers as the apiserver reads a request body.
func TestExactIntegers(t *testing.T) {
	prop := func(def string) *apiextensionsv1.JSONSchemaProps {
		return &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"big": {Type: "integer", Format: "int64", Default: &apiextensionsv1.JSON{Raw: []byte(def)}},
		}}
	}
	if errs := ValidateDefaultInIsolation(context.Background(), prop("9223372036854775807")); len(errs) > 0 {
		t.Errorf("default 9223372036854775807 refused: %v", errs)
	}
	if errs := ValidateDefaultInIsolation(context.Background(), prop("9223372036854776000")); len(errs) == 0 ||
		!strings.Contains(errs.ToAggregate().Error(), "int64") {
		t.Errorf("default 9223372036854776000 accepted: %v", errs)
	}

	out, err := StoredValue(prop("9223372036854775807"), map[string]any{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := out["big"].(int64); !ok || v != math.MaxInt64 {
		t.Errorf("stored default %#v, want int64 9223372036854775807", out["big"])
	}

	s := &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"a": {Type: "integer"}, "b": {Type: "integer"}, "c": {Type: "number"}, "d": {Type: "integer"},
	}}
	in := map[string]any{"a": jsonnum.Number("9007199254740993"), "b": json.Number("9223372036854775807"), "c": jsonnum.Number("0.5"), "d": float64(3)}
	out, err = StoredValue(s, in, false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": int64(9007199254740993), "b": int64(math.MaxInt64), "c": 0.5, "d": int64(3)}
	for k, w := range want {
		if out[k] != w {
			t.Errorf("%s: stored %#v, want %#v", k, out[k], w)
		}
	}
}

package conversion

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
)

// TestFillerInteger: the filler's integers keep to minimum, maximum (each
// exclusive or not) and multipleOf, and reach both ends of their range, so
// that a bound the filler gets wrong shows.
func TestFillerInteger(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name   string
		vv     *structuralschema.ValueValidation
		lo, hi int64 // the range the values must span exactly
	}{
		{"none", nil, -5, 100},
		{"minimum", &structuralschema.ValueValidation{Minimum: f64(10)}, 10, 110}, // 0 to 0 raised to 10 to 110
		{"minimum above the range", &structuralschema.ValueValidation{Minimum: f64(200)}, 200, 300},
		{"fractional minimum", &structuralschema.ValueValidation{Minimum: f64(2.5), Maximum: f64(6)}, 3, 6},
		{"exclusive minimum", &structuralschema.ValueValidation{Minimum: f64(3), ExclusiveMinimum: true, Maximum: f64(6)}, 4, 6},
		{"maximum", &structuralschema.ValueValidation{Maximum: f64(50)}, -5, 50},
		{"maximum below the range", &structuralschema.ValueValidation{Maximum: f64(-10)}, -110, -10},
		{"fractional maximum", &structuralschema.ValueValidation{Minimum: f64(1), Maximum: f64(4.5)}, 1, 4},
		{"exclusive maximum", &structuralschema.ValueValidation{Minimum: f64(1), Maximum: f64(4), ExclusiveMaximum: true}, 1, 3},
		{"both below the range", &structuralschema.ValueValidation{Minimum: f64(-12), Maximum: f64(-10)}, -10, -10},
		{"multipleOf", &structuralschema.ValueValidation{Minimum: f64(7), Maximum: f64(20), MultipleOf: f64(7)}, 7, 14},
		{"multipleOf of negatives", &structuralschema.ValueValidation{Maximum: f64(-1), MultipleOf: f64(5)}, -100, -5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &filler{r: rand.New(rand.NewPCG(1, 2))}
			lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
			zeros := 0
			for range 2000 {
				v := f.integer(tc.vv)
				if v < tc.lo || v > tc.hi {
					t.Fatalf("%d outside [%d, %d]", v, tc.lo, tc.hi)
				}
				if tc.vv != nil && tc.vv.MultipleOf != nil && v%int64(*tc.vv.MultipleOf) != 0 {
					t.Fatalf("%d is no multiple of %v", v, *tc.vv.MultipleOf)
				}
				lo, hi = min(lo, v), max(hi, v)
				if v == 0 {
					zeros++
				}
			}
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("values span [%d, %d], want [%d, %d]", lo, hi, tc.lo, tc.hi)
			}
			// zero (which omitempty loses) one time in five, and more
			// when the range holds it
			if tc.vv == nil && (zeros < 300 || zeros > 600) {
				t.Errorf("%d zeros in 2000, want about 400", zeros)
			}
		})
	}
}

// TestFillerNumber: the filler's numbers keep to minimum and maximum (an
// exclusive maximum too), are halves (not integers) but for the minimum
// it falls back to, and spread over the range.
func TestFillerNumber(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name   string
		vv     *structuralschema.ValueValidation
		lo, hi float64 // the smallest and largest values there must be
	}{
		{"none", nil, -4.5, 99.5},
		{"minimum", &structuralschema.ValueValidation{Minimum: f64(10)}, 10.5, 99.5},
		{"minimum above the range", &structuralschema.ValueValidation{Minimum: f64(200)}, 200.5, 299.5},
		{"maximum below the range", &structuralschema.ValueValidation{Maximum: f64(-10)}, -109.5, -10.5},
		{"fractional maximum", &structuralschema.ValueValidation{Minimum: f64(0), Maximum: f64(2.2)}, 0, 1.5},
		{"exclusive maximum", &structuralschema.ValueValidation{Minimum: f64(0), Maximum: f64(2.5), ExclusiveMaximum: true}, 0, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &filler{r: rand.New(rand.NewPCG(1, 2))}
			lo, hi := math.Inf(1), math.Inf(-1)
			for range 2000 {
				v := f.number(tc.vv)
				if v < tc.lo || v > tc.hi {
					t.Fatalf("%v outside [%v, %v]", v, tc.lo, tc.hi)
				}
				if v != math.Floor(v)+0.5 && (tc.vv == nil || tc.vv.Minimum == nil || v != *tc.vv.Minimum) {
					t.Fatalf("%v is neither a half nor the minimum", v)
				}
				lo, hi = min(lo, v), max(hi, v)
			}
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("values span [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

// TestFillerFormats: a string of each format the filler knows is one the
// apiserver accepts for that format (Version.Create validates it).
func TestFillerFormats(t *testing.T) {
	formats := []string{"date-time", "date", "duration", "int-or-string", "byte", "uuid", "ipv4", "ip", "hostname",
		"dns1123subdomain", "ipv6", "cidr", "mac", "uri", "email", "datetime", "uuid3", "uuid4", "uuid5"}
	k := widgetKind(t, widgetCRD(t, editV1Spec(func(props map[string]apiextensionsv1.JSONSchemaProps) {
		for i, f := range formats {
			props[fmt.Sprintf("f%d", i)] = apiextensionsv1.JSONSchemaProps{Type: "string", Format: f}
		}
	})))
	v := k.Versions["v1"]
	f := &filler{r: rand.New(rand.NewPCG(1, 2))}
	for i, format := range formats {
		for range 20 {
			s := f.str(&structuralschema.ValueValidation{Format: format})
			obj := map[string]any{"apiVersion": v.APIVersion, "kind": v.Kind, "metadata": map[string]any{"name": "w", "namespace": "default"},
				"spec": map[string]any{fmt.Sprintf("f%d", i): s}}
			if _, errs := v.Create(context.Background(), obj); len(errs) > 0 {
				t.Errorf("format %s: %q refused: %v", format, s, errs)
				break
			}
		}
	}
}

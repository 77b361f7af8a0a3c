package conversion

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestNormNumbers: integers of every Go type, and floats that are
// integers below 2^53, are int64; other floats stay float64, as the
// apiserver's JSON decoding gives them; zeroValue reads them so.
func TestNormNumbers(t *testing.T) {
	for _, tc := range []struct {
		in, want any
	}{
		{float64(3), int64(3)},
		{-2.0, int64(-2)},
		{1.5, 1.5},
		{float64(1 << 53), float64(1 << 53)},
		{float64(1<<53 - 1), int64(1<<53 - 1)},
		{-float64(1 << 53), -float64(1 << 53)},
		{int(4), int64(4)},
		{int32(-4), int64(-4)},
		{json.Number("7"), int64(7)},
		{json.Number("2.0"), int64(2)},
		{json.Number("2.5"), 2.5},
		{map[string]any{"a": []any{float64(1), 0.5}}, map[string]any{"a": []any{int64(1), 0.5}}},
		{"s", "s"},
	} {
		if got := normNumbers(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("normNumbers(%#v) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
	for v, zero := range map[any]bool{0.0: true, 0.5: false, int64(0): true, int64(2): false, "": true, "a": false, false: true, true: false, nil: false} {
		if zeroValue(v) != zero {
			t.Errorf("zeroValue(%#v) = %v", v, !zero)
		}
	}
}

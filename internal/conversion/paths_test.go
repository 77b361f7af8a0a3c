package conversion

import (
	"encoding/json"
	"testing"
)

// TestZeroValue: a scalar's zero value, whatever Go type holds a number.
func TestZeroValue(t *testing.T) {
	for v, zero := range map[any]bool{0.0: true, 0.5: false, int64(0): true, int64(2): false, int32(0): true,
		json.Number("0"): true, json.Number("0.0"): true, json.Number("1"): false,
		"": true, "a": false, false: true, true: false, nil: false} {
		if zeroValue(v) != zero {
			t.Errorf("zeroValue(%#v) = %v", v, !zero)
		}
	}
}

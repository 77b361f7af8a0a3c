package jsonnum

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestStored: every Go type a decoded number comes in encodes as the
// apiserver stores the number; keys are sorted; the input is not changed.
func TestStored(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{int64(1), `1`},
		{float64(1), `1`},
		{json.Number("1.0"), `1`},
		{Number("1e0"), `1`},
		{int(-3), `-3`},
		{int8(-3), `-3`},
		{int16(300), `300`},
		{int32(-70000), `-70000`},
		{uint(7), `7`},
		{uint8(255), `255`},
		{uint16(65535), `65535`},
		{uint32(4294967295), `4294967295`},
		{uint64(math.MaxUint64), `18446744073709552000`}, // beyond int64: a float64
		{int64(1<<53 + 1), `9007199254740993`},
		{float64(1 << 53), `9007199254740992`},
		{float64(0.1), `0.1`},
		{float32(0.1), `0.1`},
		{math.Copysign(0, -1), `0`},
		{float64(1e21), `1e+21`},
		{json.Number("1000000000000000000000"), `1e+21`},
		{map[string]any{"b": []any{int64(2), 2.5}, "a": nil, "c": "x"}, `{"a":null,"b":[2,2.5],"c":"x"}`},
		{[]any(nil), `null`},
		{map[string]any(nil), `null`},
		{true, `true`},
		{"<a&b>", `"<a&b>"`},
	} {
		got, err := Stored(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("Stored(%#v) = %s, %v; want %s", tc.v, got, err, tc.want)
		}
	}
	in := map[string]any{"n": json.Number("1.50")}
	if _, err := Stored(in); err != nil || in["n"] != json.Number("1.50") {
		t.Errorf("Stored changed its input: %#v, %v", in, err)
	}
	for _, bad := range []any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}, map[string]any{"a": float32(math.Inf(1))}, json.Number("1e400"), Number("x")} {
		if b, err := Stored(bad); err == nil {
			t.Errorf("Stored(%#v) = %s, want an error", bad, b)
		}
	}
}

// TestEqual: numbers by value across Go types, exactly beyond 2^53;
// nothing that cannot be stored is equal, not even to itself.
func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{int64(1), float64(1), true},
		{json.Number("1.0"), Number("1e0"), true},
		{int64(1<<53 + 1), float64(1 << 53), false},
		{json.Number("9007199254740993"), int64(1<<53 + 1), true},
		{map[string]any{"a": int64(1), "b": "x"}, map[string]any{"b": "x", "a": 1.0}, true},
		{map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}, false},
		{[]any{int64(1), int64(2)}, []any{2.0, 1.0}, false},
		{"1", int64(1), false},
		{nil, map[string]any(nil), true},
		{math.NaN(), math.NaN(), false},
		{func() {}, func() {}, false}, // not JSON
	} {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

// TestCanonicalJSON: two texts of one stored value are one text.
func TestCanonicalJSON(t *testing.T) {
	a, err1 := CanonicalJSON([]byte(` {"b": 1.0, "a": [1e2, "x"]} `))
	b, err2 := CanonicalJSON([]byte(`{"a":[100,"x"],"b":1}`))
	if err1 != nil || err2 != nil || string(a) != string(b) || string(a) != `{"a":[100,"x"],"b":1}` {
		t.Errorf("CanonicalJSON: %s (%v), %s (%v)", a, err1, b, err2)
	}
	if got, err := CanonicalJSON([]byte(`{"a":`)); err == nil {
		t.Errorf("CanonicalJSON of invalid JSON = %s, want an error", got)
	}
}

// TestDecodeObject: as the apiserver decodes a body: int64 where an
// integer fits, float64 otherwise; anything but an object refused.
func TestDecodeObject(t *testing.T) {
	obj, err := DecodeObject([]byte(`{"i": 9007199254740993, "f": 1.5, "e": 1e2, "big": 18446744073709551616, "l": [1]}`))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"i": int64(9007199254740993), "f": 1.5, "e": float64(100), "big": float64(18446744073709551616)} {
		if obj[k] != want {
			t.Errorf("%s = %#v (%T), want %#v (%T)", k, obj[k], obj[k], want, want)
		}
	}
	if l, _ := obj["l"].([]any); len(l) != 1 || l[0] != int64(1) {
		t.Errorf("l = %#v", obj["l"])
	}
	for _, bad := range []string{`null`, `[]`, `1`, `{"a":`, `{"a":1} x`} {
		if _, err := DecodeObject([]byte(bad)); err == nil || (bad == "null" && !strings.Contains(err.Error(), "not a JSON object")) {
			t.Errorf("DecodeObject(%s): %v, want an error", bad, err)
		}
	}
}

// TestEqualJSON: texts by stored value; texts that are not JSON by bytes.
func TestEqualJSON(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{"a": 1.0}`, `{"a":1}`, true},
		{`{}`, ` { } `, true},
		{`{"a": 1}`, `{"a": 2}`, false},
		{`9007199254740993`, `9007199254740992`, false},
		{`{"a":`, `{"a":`, true},
		{`{"a":`, `{"a": `, false},
		{`{"a":1}`, `{"a":`, false},
	} {
		if got := EqualJSON([]byte(tc.a), []byte(tc.b)); got != tc.want {
			t.Errorf("EqualJSON(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestAsDecoded: integers of every Go type, and floats whose encoding is
// an integer that fits (2^53 and above too: 2^62 is written, and so
// stored, as 4611686018427388000), are int64; other numbers float64, as
// the apiserver's decoding gives them.
func TestAsDecoded(t *testing.T) {
	for _, tc := range []struct {
		in, want any
	}{
		{float64(3), int64(3)},
		{-2.0, int64(-2)},
		{1.5, 1.5},
		{float64(1 << 53), int64(1 << 53)},
		{float64(1 << 62), int64(4611686018427388000)}, // encoding/json writes the shortest decimal
		{float64(1 << 63), float64(1 << 63)},
		{1e21, 1e21},
		{int(4), int64(4)},
		{int32(-4), int64(-4)},
		{uint64(math.MaxUint64), float64(math.MaxUint64)},
		{json.Number("7"), int64(7)},
		{json.Number("2.0"), float64(2)},
		{json.Number("2.5"), 2.5},
		{map[string]any{"a": []any{float64(1), 0.5}}, map[string]any{"a": []any{int64(1), 0.5}}},
		{"s", "s"},
		{nil, nil},
	} {
		if got := AsDecoded(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("AsDecoded(%#v) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
	if f := func() {}; reflect.ValueOf(AsDecoded(f)).Pointer() != reflect.ValueOf(f).Pointer() {
		t.Errorf("AsDecoded of a value that does not encode is not the value")
	}
}

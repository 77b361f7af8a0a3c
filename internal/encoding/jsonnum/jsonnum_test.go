package jsonnum

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// TestCanonical: a number as the apiserver stores it, every digit of an
// integer kept, and Canonical a fixed point.
func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ lit, want, err string }{
		{lit: "0", want: "0"},
		{lit: "-0", want: "0"},
		{lit: "-0.0e7", want: "0"},
		{lit: "1e2", want: "100"},
		{lit: "1.0", want: "1"},
		{lit: "100.000", want: "100"},
		{lit: "9223372036854775807", want: "9223372036854775807"},
		{lit: "-9223372036854775808", want: "-9223372036854775808"},
		{lit: "9007199254740993", want: "9007199254740993"},
		// not an integer literal: the nearest float64, as the apiserver reads it
		{lit: "10000000000000001.0", want: "10000000000000000"},
		{lit: "12345678901234567e0", want: "12345678901234568"},
		{lit: "9007199254740993.0", want: "9007199254740992"},
		{lit: "9223372036854775808", want: "9223372036854775808"[:0] + "9223372036854776000"},
		{lit: "18446744073709551615", want: "18446744073709552000"},
		{lit: "1e20", want: "100000000000000000000"},
		{lit: "1e21", want: "1e+21"},
		{lit: "0.1", want: "0.1"},
		{lit: "1.5", want: "1.5"},
		{lit: "1e-7", want: "1e-7"},
		{lit: "-1e-400", want: "0"},
		{lit: "1e400", err: "beyond the largest float64"},
		{lit: "1e999999999999999999", err: "beyond the largest float64"},
		{lit: "1e-999999999999999999", want: "0"},
		{lit: "01", err: "not a JSON number"},
		{lit: "1.", err: "not a JSON number"},
		{lit: "+1", err: "not a JSON number"},
		{lit: "", err: "not a JSON number"},
	} {
		got, err := Canonical(tc.lit)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Canonical(%q) = %q, %v; want error %q", tc.lit, got, err, tc.err)
			}
			continue
		case err != nil:
			t.Errorf("Canonical(%q): %v", tc.lit, err)
			continue
		case got != tc.want:
			t.Errorf("Canonical(%q) = %q, want %q", tc.lit, got, tc.want)
		}
		if again, err := Canonical(got); err != nil || again != got {
			t.Errorf("Canonical(%q) = %q, %v: not a fixed point", got, again, err)
		}
		checkStored(t, tc.lit, got)
	}
}

// checkStored fails unless canonical is what the apiserver stores for
// lit (a zero may be stored -0, which it reads back as 0), and reads the
// same from canonical.
func checkStored(t *testing.T, lit, canonical string) {
	t.Helper()
	stored := apiserverStores(t, lit)
	if stored != canonical && !(stored == "-0" && canonical == "0") {
		t.Errorf("Canonical(%q) = %s, but the apiserver stores %s", lit, canonical, stored)
	}
	if again := apiserverStores(t, canonical); again != canonical {
		t.Errorf("the apiserver stores %q as %s, its canonical form %s as %s", lit, stored, canonical, again)
	}
}

// FuzzCanonical: on every JSON number a float64 holds, Canonical is what
// the apiserver stores, and a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"0", "-0.0", "1.0", "10000000000000001.0", "9223372036854775808", "1e21", "1e-7", "12345678901234567e0", "0.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		got, err := Canonical(lit)
		if err != nil {
			return
		}
		if again, err := Canonical(got); err != nil || again != got {
			t.Fatalf("Canonical(%q) = %q, %v: not a fixed point", got, again, err)
		}
		checkStored(t, lit, got)
	})
}

// apiserverStores decodes lit as the apiserver decodes JSON and encodes it
// as it writes objects.
func apiserverStores(t *testing.T, lit string) string {
	t.Helper()
	var v any
	if err := utiljson.Unmarshal([]byte(lit), &v); err != nil {
		t.Fatalf("the apiserver cannot read %s: %v", lit, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecode: numbers are kept as written; the value encodes canonically.
func TestDecode(t *testing.T) {
	v, err := Decode([]byte(` {"a": [9223372036854775807, 1e2, -0], "b": 0.5} `))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": []any{Number("9223372036854775807"), Number("1e2"), Number("-0")}, "b": Number("0.5")}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("Decode = %#v, want %#v", v, want)
	}
	b, err := Marshal(v)
	if err != nil || string(b) != `{"a":[9223372036854775807,100,0],"b":0.5}` {
		t.Errorf("Marshal = %s, %v", b, err)
	}
	if b, _ := MarshalAsWritten(v); string(b) != `{"a":[9223372036854775807,1e2,-0],"b":0.5}` {
		t.Errorf("MarshalAsWritten = %s", b)
	}
	for _, bad := range []string{``, `1 2`, `{"a":}`, `[1e400]`, `{"a":{"b":1e400}}`, `"x`} {
		if v, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) = %#v, want an error", bad, v)
		}
	}
	if _, err := Decode([]byte(`[1e400]`)); err == nil || !strings.Contains(err.Error(), "1e400 is beyond the largest float64") {
		t.Errorf("Decode([1e400]): %v", err)
	}
}

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		lit    string
		isInt  bool
		i64    int64
		i64ok  bool
		digits string
		exp    int
	}{
		{"0", true, 0, true, "", 0},
		{"-0", true, 0, true, "", 0},
		{"1200", true, 1200, true, "12", 2},
		{"1.5e1", true, 15, true, "15", 0},
		{"0.015", false, 0, false, "15", -3},
		{"-7", true, -7, true, "7", 0},
		{"18446744073709551615", true, 0, false, "18446744073709551615", 0},
		{"18446744073709551616", true, 0, false, "18446744073709551616", 0},
	} {
		d, err := Parse(tc.lit)
		if err != nil {
			t.Fatal(err)
		}
		i, iok := d.Int64()
		if d.IsInt() != tc.isInt || i != tc.i64 || iok != tc.i64ok || d.Digits != tc.digits || d.Exp != tc.exp {
			t.Errorf("Parse(%q) = %+v: int %v, int64 %d %v", tc.lit, d, d.IsInt(), i, iok)
		}
	}
	if got := Compact("0." + strings.Repeat("0", 399) + "1"); got != "1e-400" {
		t.Errorf("Compact = %s", got)
	}
	if got := Compact("123.5"); got != "123.5" {
		t.Errorf("Compact = %s", got)
	}
}

// TestDuplicateKey: the first key an object holds twice, at its object's
// path, however deep; none in objects whose keys are distinct, in lists of
// objects with the same keys, or in what is not JSON.
func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct {
		in, path, key string
		ok            bool
	}{
		{in: `{"a":1,"a":2}`, key: "a", ok: true},
		{in: `{"a":{"b":1,"c":{"d":[],"d":{}}}}`, path: ".a.c", key: "d", ok: true},
		{in: `[{"x":1},{"y":[{"z":1,"z":1}]}]`, path: "[1].y[0]", key: "z", ok: true},
		{in: `{"a":"a","b":"a"}`},
		{in: `[{"a":1},{"a":1}]`},
		{in: `{"a":{"a":{"a":1}}}`},
		{in: `"a"`},
		{in: `{"a":1,`},
		{in: `{"k":["a","a"],"l":{"k":1}}`},
	} {
		path, key, ok := DuplicateKey([]byte(tc.in))
		if ok != tc.ok || path != tc.path || key != tc.key {
			t.Errorf("DuplicateKey(%s) = %q, %q, %v; want %q, %q, %v", tc.in, path, key, ok, tc.path, tc.key, tc.ok)
		}
	}
}

// TestParseIsEncodingJSONs: Parse accepts exactly the numbers
// encoding/json reads (RFC 8259, section 6): every digit from 0 to 9 in
// each part, e and E, an exponent's sign; and takes each apart into the
// same digits and exponent however it is written.
func TestParseIsEncodingJSONs(t *testing.T) {
	for _, tc := range []struct {
		lit    string
		digits string // "" with exp 0 for zero; "!" when not a number
		exp    int
		neg    bool
	}{
		{"9", "9", 0, false},
		{"-9", "9", 0, true},
		{"90", "9", 1, false},
		{"0.9", "9", -1, false},
		{"0.09", "9", -2, false},
		{"19.0900", "1909", -2, false},
		{"1E5", "1", 5, false},
		{"1E+5", "1", 5, false},
		{"1E-5", "1", -5, false},
		{"1e+09", "1", 9, false},
		{"2.5e-9", "25", -10, false},
		{"9e9", "9", 9, false},
		{"1e0000000005", "1", 5, false},
		{"1e123456789", "1", 123456789, false},
		{"1e1234567890", "1", 999999999, false},
		{"-1e-1234567890", "1", -999999999, true},
		{"0e5", "", 0, false},
		{"-0.0E-5", "", 0, false},
		{"1e", "!", 0, false},
		{"1E", "!", 0, false},
		{"1e+", "!", 0, false},
		{"1E-", "!", 0, false},
		{"-", "!", 0, false},
		{"0.", "!", 0, false},
		{".5", "!", 0, false},
		{"1.5.", "!", 0, false},
		{"1e5e5", "!", 0, false},
		{"1e5.5", "!", 0, false},
		{"1x", "!", 0, false},
		{"00", "!", 0, false},
		{"-01", "!", 0, false},
		{"0x1", "!", 0, false},
		{"1:", "!", 0, false},
		{"1.:", "!", 0, false},
		{"1e:", "!", 0, false},
		{"/", "!", 0, false},
		{"1./", "!", 0, false},
		{"1e/", "!", 0, false},
		{"--1", "!", 0, false},
		{"1e--1", "!", 0, false},
	} {
		d, err := Parse(tc.lit)
		if json.Valid([]byte(tc.lit)) != (err == nil) {
			t.Errorf("Parse(%q): %v, while encoding/json reads it: %v", tc.lit, err, json.Valid([]byte(tc.lit)))
		}
		if tc.digits == "!" {
			if err == nil {
				t.Errorf("Parse(%q) = %+v, want an error", tc.lit, d)
			}
			continue
		}
		if err != nil || d.Digits != tc.digits || d.Exp != tc.exp || d.Neg != tc.neg || d.Lit != tc.lit {
			t.Errorf("Parse(%q) = %+v, %v; want digits %q, exp %d, neg %v", tc.lit, d, err, tc.digits, tc.exp, tc.neg)
		}
	}
}

// TestCompact: scientific notation only when strictly shorter, with the
// exponent of the first digit; zero and what is not a number as written.
func TestCompact(t *testing.T) {
	for lit, want := range map[string]string{
		"0.0001":       "1e-4",
		"-0.0001":      "-1e-4",
		"0.00012":      "1.2e-4",
		"12300000000":  "1.23e10",
		"-12300000000": "-1.23e10",
		"100":          "100", // 1e2 is no shorter
		"1000":         "1e3",
		"0.001":        "1e-3",
		"0.000":        "0.000",
		"-0":           "-0",
		"x":            "x",
		"123.5":        "123.5",
		"1.5e300":      "1.5e300",
		"150000000e5":  "1.5e13",
	} {
		if got := Compact(lit); got != want {
			t.Errorf("Compact(%q) = %q, want %q", lit, got, want)
		}
	}
}

// TestFloat: the nearest float of each size; a value beyond the largest is
// an error naming that largest float; below the smallest it is a zero of
// its sign, however many digits it is written with.
func TestFloat(t *testing.T) {
	long := "1." + strings.Repeat("0", 98) + "1e-300" // 100 digits, about 1e-300
	for _, tc := range []struct {
		lit  string
		bits int
		want float64
		err  string
	}{
		{lit: long, bits: 64, want: 1e-300},
		{lit: "-" + long, bits: 64, want: -1e-300},
		{lit: "0.1", bits: 32, want: float64(float32(0.1))},
		{lit: "3.4028235e38", bits: 32, want: float64(float32(3.4028235e38))},
		{lit: "3.5e38", bits: 32, err: "3.5e38 is beyond the largest float32 (3.4028235e+38)"},
		{lit: "1.8e308", bits: 64, err: "1.8e308 is beyond the largest float64 (1.7976931348623157e+308)"},
		{lit: "1e-401", bits: 64, want: 0},
		{lit: "-1e-401", bits: 64, want: math.Copysign(0, -1)},
		{lit: "-1e-400", bits: 32, want: math.Copysign(0, -1)},
	} {
		d, err := Parse(tc.lit)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.Float(tc.bits)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("Float%d(%s) = %v, %v; want error %q", tc.bits, tc.lit, got, err, tc.err)
			}
		case err != nil || got != tc.want || math.Signbit(got) != math.Signbit(tc.want):
			t.Errorf("Float%d(%s) = %v, %v; want %v", tc.bits, tc.lit, got, err, tc.want)
		}
	}
}

package markers

import (
	"errors"
	"go/constant"
	"go/token"
	"strings"
	"testing"
)

// TestEvaluateNumbers: a marker's numbers keep every digit, as written in
// the value and as the apiserver stores them in raw; a number no float64
// holds is refused, since the apiserver cannot read it.
func TestEvaluateNumbers(t *testing.T) {
	for _, tc := range []struct {
		value, raw string
		num        string // the decoded Number, as written
		err        string
	}{
		{value: `9223372036854775807`, raw: `9223372036854775807`, num: "9223372036854775807"},
		{value: `9007199254740993`, raw: `9007199254740993`, num: "9007199254740993"},
		{value: `-0`, raw: `0`, num: "-0"},
		{value: `1e2`, raw: `100`, num: "1e2"},
		{value: `1.0`, raw: `1`, num: "1.0"},
		{value: `0.1`, raw: `0.1`, num: "0.1"},
		{value: `1e21`, raw: `1e+21`, num: "1e21"},
		{value: `18446744073709551615`, raw: `18446744073709552000`, num: "18446744073709551615"},
		{value: `1e400`, err: "+default=1e400: 1e400 is beyond the largest float64"},
		{value: `[1e400]`, err: "1e400 is beyond the largest float64"},
	} {
		raw, v, err := Default(tc.value).Evaluate(nil)
		if tc.err != "" {
			ve, ok := errors.AsType[*ValueError](err)
			if !ok || ve.Kind != ErrInvalidJSON || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("+default=%s: %v, want a ValueError %q", tc.value, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("+default=%s: %v", tc.value, err)
			continue
		}
		if string(raw) != tc.raw {
			t.Errorf("+default=%s: raw %s, want %s", tc.value, raw, tc.raw)
		}
		if n, ok := v.(Number); !ok || string(n) != tc.num {
			t.Errorf("+default=%s: value %#v, want Number(%q)", tc.value, v, tc.num)
		}
	}
	raw, _, err := Default(`{"b": 9223372036854775807, "a": [9007199254740993, 0.5]}`).Evaluate(nil)
	if err != nil || string(raw) != `{"a":[9007199254740993,0.5],"b":9223372036854775807}` {
		t.Errorf("object: %s, %v", raw, err)
	}
}

// TestConstValueNumbers: ref() of a numeric constant is its exact value.
func TestConstValueNumbers(t *testing.T) {
	lit := func(s string, k token.Token) constant.Value { return constant.MakeFromLiteral(s, k, 0) }
	third := constant.BinaryOp(lit("1.0", token.FLOAT), token.QUO, lit("3", token.INT))
	for _, tc := range []struct {
		c    constant.Value
		want string
		err  string
	}{
		{c: lit("9223372036854775807", token.INT), want: "9223372036854775807"},
		{c: lit("9007199254740993", token.INT), want: "9007199254740993"},
		{c: constant.Shift(lit("1", token.INT), token.SHL, 70), want: "1180591620717411303424"},
		{c: lit("0.5", token.FLOAT), want: "0.5"},
		{c: lit("2.0", token.FLOAT), want: "2"},
		{c: lit("0.1", token.FLOAT), want: "0.1"},
		{c: lit("1e-400", token.FLOAT), want: "1e-400"},
		{c: third, want: "0.3333333333333333333333333333333333333333"},
		{c: lit("1e400", token.FLOAT), err: "beyond the largest float64"},
		{c: lit("1i", token.IMAG), err: "cannot be a JSON default"},
	} {
		v, err := constValue(tc.c)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("constValue(%s) = %v, %v; want error %q", tc.c, v, err, tc.err)
			}
			continue
		}
		if n, ok := v.(Number); err != nil || !ok || string(n) != tc.want {
			t.Errorf("constValue(%s) = %#v, %v; want Number(%q)", tc.c, v, err, tc.want)
		}
	}
}

// Package jsonnum keeps the numbers of JSON defaults exact.
//
// encoding/json decodes a number into an interface{} as a float64, which
// holds integers exactly only up to 2^53: 9007199254740993 becomes
// 9007199254740992, and 9223372036854775807 becomes 9223372036854775808,
// which no int64 holds. The apiserver decodes a JSON number as an int64
// when it is an integer that fits, else as a float64
// (k8s.io/apimachinery/pkg/util/json, UnmarshalCaseSensitivePreserveInts).
// A marker's value is decoded here with its numbers as written (Number),
// so that each check decides on the exact value, and encoded as the
// apiserver stores it (Canonical), so that the CRD, the Go code and the
// apiserver agree to the last digit.
//
// It is also the one place where JSON values are compared and decoded as
// the apiserver holds them: Stored is the canonical form (keys sorted,
// numbers Canonical whatever Go type holds them), Equal and EqualJSON
// compare by it, and DecodeObject decodes a body as the apiserver does.
package jsonnum

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Number is a JSON number exactly as it was written. It encodes as the
// apiserver stores it (Canonical).
type Number string

// MarshalJSON writes the number as Canonical does.
func (n Number) MarshalJSON() ([]byte, error) {
	c, err := Canonical(string(n))
	if err != nil {
		return nil, err
	}
	return []byte(c), nil
}

// String is the number as written.
func (n Number) String() string { return string(n) }

// Decode decodes exactly one JSON value (spaces around it allowed), as
// encoding/json decodes it into an interface{} except for numbers, which
// are Numbers: nil, bool, string, Number, []any and map[string]any.
func Decode(data []byte) (any, error) {
	if !json.Valid(data) {
		var probe any
		if err := json.Unmarshal(data, &probe); err != nil {
			return nil, err // encoding/json's own message
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return numbers(v)
}

// RangeError is a number beyond the largest float64: valid JSON, which
// neither encoding/json nor the apiserver reads.
type RangeError struct{ Lit string }

func (e *RangeError) Error() string {
	return fmt.Sprintf("%s is beyond the largest float64 (%s), the largest number the apiserver reads", e.Lit, MaxFloat(64))
}

// numbers replaces json.Number by Number, checking each is finite.
func numbers(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		if _, err := Canonical(string(v)); err != nil {
			return nil, err
		}
		return Number(v), nil
	case map[string]any:
		for k, e := range v {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			v[k] = n
		}
	case []any:
		for i, e := range v {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			v[i] = n
		}
	}
	return v, nil
}

// Marshal encodes a decoded value (Decode's, or encoding/json's) as
// encoding/json does, with every Number written as Canonical.
func Marshal(v any) ([]byte, error) { return json.Marshal(v) }

// MarshalAsWritten encodes a decoded value with every Number as it was
// written, for messages that quote an author's value.
func MarshalAsWritten(v any) ([]byte, error) { return json.Marshal(asWritten(v)) }

func asWritten(v any) any {
	switch v := v.(type) {
	case Number:
		return json.Number(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = asWritten(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = asWritten(e)
		}
		return out
	}
	return v
}

// Compact writes an exact decimal in scientific notation when that is
// shorter: 0.000…01 (400 zeros) is 1e-401.
func Compact(lit string) string {
	d, err := Parse(lit)
	if err != nil || d.IsZero() {
		return lit
	}
	sci := d.Digits
	if len(sci) > 1 {
		sci = sci[:1] + "." + sci[1:]
	}
	sci += "e" + strconv.Itoa(d.Exp+len(d.Digits)-1)
	if d.Neg {
		sci = "-" + sci
	}
	if len(sci) < len(lit) {
		return sci
	}
	return lit
}

// Canonical is the number lit as the apiserver stores it once it has
// decoded it (k8s.io/apimachinery/pkg/util/json: strconv.ParseInt on the
// literal, else the nearest float64): an integer literal that fits in an
// int64 in decimal, anything else as encoding/json writes the float64
// nearest to it (10000000000000001.0 is 10000000000000000), and zero as
// 0 (the apiserver stores a float zero as 0 or -0, both of which it reads
// back as the integer 0). It is a fixed point: Canonical of
// Canonical(lit) is Canonical(lit). It fails on text that is not a JSON
// number, and on a number whose magnitude no float64 holds (the apiserver
// refuses it).
func Canonical(lit string) (string, error) {
	d, err := Parse(lit)
	if err != nil {
		return "", err
	}
	if i, err := strconv.ParseInt(lit, 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	f, err := d.Float64()
	if err != nil {
		return "", &RangeError{Lit: lit}
	}
	if f == 0 {
		return "0", nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Decimal is a JSON number taken apart: its value is
// (-1 if Neg) × Digits × 10^Exp, with Digits free of leading and trailing
// zeros ("" for zero, when Neg and Exp are false and 0).
type Decimal struct {
	Lit    string // as written
	Neg    bool
	Digits string
	Exp    int
}

// Parse takes a JSON number apart. Exponents are bounded, so that a
// number like 1e999999999999 costs nothing; their value is then beyond
// any float64 anyway.
func Parse(lit string) (Decimal, error) {
	d := Decimal{Lit: lit}
	if !valid(lit) {
		return d, fmt.Errorf("%q is not a JSON number", lit)
	}
	s := lit
	if s[0] == '-' {
		d.Neg = true
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := s[i+1:]
		neg := false
		switch e[0] {
		case '-':
			neg = true
			e = e[1:]
		case '+':
			e = e[1:]
		}
		e = strings.TrimLeft(e, "0")
		if len(e) > 9 {
			e = "999999999" // far beyond any float64: saturate
		}
		if e != "" {
			n, _ := strconv.Atoi(e)
			exp = n
		}
		if neg {
			exp = -exp
		}
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	d.Digits = trimmed
	if d.Digits == "" {
		d.Neg, d.Exp = false, 0
		return d, nil
	}
	d.Exp = exp
	return d, nil
}

// valid reports a JSON number (RFC 8259, section 6).
func valid(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// IsZero reports the value 0 (however written: 0, -0, 0.0e5).
func (d Decimal) IsZero() bool { return d.Digits == "" }

// IsInt reports an integer value: 1e2 and 1.0 are integers, 1.5 is not.
func (d Decimal) IsInt() bool { return d.Digits == "" || d.Exp >= 0 }

// IntDigits is the number of digits of an integer value's magnitude.
func (d Decimal) IntDigits() int {
	if d.Digits == "" {
		return 1
	}
	return len(d.Digits) + d.Exp
}

// Int64 is the value, when it is an integer that an int64 holds.
func (d Decimal) Int64() (int64, bool) {
	if !d.IsInt() || d.IntDigits() > 19 {
		return 0, false
	}
	s := d.Digits + strings.Repeat("0", d.Exp)
	if d.Digits == "" {
		s = "0"
	}
	if d.Neg {
		s = "-" + s
	}
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return i, true
}

// Float64 is the float64 nearest to the value, as strconv.ParseFloat and
// the apiserver read it; an error when it is beyond the largest float64.
func (d Decimal) Float64() (float64, error) { return d.Float(64) }

// Float is the float of the given size (32 or 64) nearest to the value
// (round half to even, as the Go compiler converts a constant and
// encoding/json decodes a number); an error when the value is beyond the
// largest float of that size, which Go refuses.
func (d Decimal) Float(bits int) (float64, error) {
	if d.Digits == "" {
		return 0, nil
	}
	if d.Exp+len(d.Digits) > 400 {
		return 0, errRange(d, bits)
	}
	if d.Exp+len(d.Digits) < -400 {
		if d.Neg {
			return math.Copysign(0, -1), nil
		}
		return 0, nil
	}
	s := d.Digits + "e" + strconv.Itoa(d.Exp)
	if d.Neg {
		s = "-" + s
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		return 0, errRange(d, bits)
	}
	return f, nil
}

func errRange(d Decimal, bits int) error {
	return fmt.Errorf("%s is beyond the largest float%d (%s)", d.Lit, bits, MaxFloat(bits))
}

// MaxFloat is the largest finite float of the size, as encoding/json
// writes it.
func MaxFloat(bits int) string {
	if bits == 32 {
		b, _ := json.Marshal(float32(math.MaxFloat32))
		return string(b)
	}
	b, _ := json.Marshal(math.MaxFloat64)
	return string(b)
}

// DuplicateKey is the first key that an object of data holds twice, with
// the path of that object ("" at the top, then .key and [index] steps), or
// ok false when every object's keys are distinct or data is not valid
// JSON. encoding/json, and the apiserver's decoder of a CRD's default,
// keep the last of two values silently.
func DuplicateKey(data []byte) (path, key string, ok bool) {
	if !json.Valid(data) {
		return "", "", false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	// one frame per open object or list: the keys seen, the key whose
	// value comes next (objects), the index of the next item (lists)
	type frame struct {
		keys  map[string]bool
		key   string
		next  bool // the next string token is a key
		index int
		at    string
	}
	var stack []*frame
	// valueDone advances the enclosing frame past a complete value
	valueDone := func() {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.keys != nil {
			f.next = true
		} else {
			f.index++
		}
	}
	childPath := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.keys != nil {
			return f.at + "." + f.key
		}
		return fmt.Sprintf("%s[%d]", f.at, f.index)
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{keys: map[string]bool{}, next: true, at: childPath()})
			case '[':
				stack = append(stack, &frame{at: childPath()})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if len(stack) > 0 && stack[len(stack)-1].keys != nil && stack[len(stack)-1].next {
				f := stack[len(stack)-1]
				if f.keys[t] {
					return f.at, t, true
				}
				f.keys[t], f.key, f.next = true, t, false
				continue
			}
			valueDone()
		default:
			valueDone()
		}
		if len(stack) == 0 {
			return "", "", false
		}
	}
}

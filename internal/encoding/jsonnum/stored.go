package jsonnum

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// Stored encodes v, a decoded JSON value (Decode's, encoding/json's, or
// the apiserver's unstructured decoding's), as the apiserver stores it:
// object keys sorted, and every number Canonical whatever Go type holds it
// (int64, float64, json.Number, Number, any other integer or float), and
// <, > and & as themselves, for messages. Two values the apiserver stores
// alike encode to the same bytes: this is the one canonical form of JSON
// values that every comparison uses. It fails
// on a number the apiserver cannot store (NaN, ±Inf, beyond the largest
// float64).
func Stored(v any) ([]byte, error) {
	n, err := asNumbers(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Equal reports whether a and b are one value as the apiserver stores
// them (Stored): 1, 1.0 and 1e0 are one number, 2^53+1 is not 2^53. A
// value that cannot be stored equals nothing.
func Equal(a, b any) bool {
	ea, err1 := Stored(a)
	eb, err2 := Stored(b)
	return err1 == nil && err2 == nil && string(ea) == string(eb)
}

// CanonicalJSON is the JSON text raw re-encoded as Stored, so that two
// defaults written differently compare equal byte for byte when the
// apiserver stores them alike.
func CanonicalJSON(raw []byte) ([]byte, error) {
	v, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	return Stored(v)
}

// DecodeObject decodes one JSON object as the apiserver decodes a request
// body into an unstructured object (k8s.io/apimachinery/pkg/util/json):
// an integer that fits is an int64, any other number a float64.
func DecodeObject(data []byte) (map[string]any, error) {
	var obj map[string]any
	if err := utiljson.Unmarshal(data, &obj); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errors.New("not a JSON object")
	}
	return obj, nil
}

// asNumbers is v with every number a Number of its exact value, copied
// so that v is left as it is.
func asNumbers(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v, nil
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := asNumbers(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		if v == nil {
			return v, nil
		}
		out := make([]any, len(v))
		for i, e := range v {
			n, err := asNumbers(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case json.Number:
		return Number(v), nil
	case float64:
		return floatNumber(v, 64)
	case float32:
		return floatNumber(float64(v), 32)
	case int:
		return Number(strconv.FormatInt(int64(v), 10)), nil
	case int8:
		return Number(strconv.FormatInt(int64(v), 10)), nil
	case int16:
		return Number(strconv.FormatInt(int64(v), 10)), nil
	case int32:
		return Number(strconv.FormatInt(int64(v), 10)), nil
	case int64:
		return Number(strconv.FormatInt(v, 10)), nil
	case uint:
		return Number(strconv.FormatUint(uint64(v), 10)), nil
	case uint8:
		return Number(strconv.FormatUint(uint64(v), 10)), nil
	case uint16:
		return Number(strconv.FormatUint(uint64(v), 10)), nil
	case uint32:
		return Number(strconv.FormatUint(uint64(v), 10)), nil
	case uint64:
		return Number(strconv.FormatUint(v, 10)), nil
	}
	return v, nil
}

// floatNumber is f's exact shortest decimal (a float32's, for bits 32).
func floatNumber(f float64, bits int) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%v is not a JSON number", f)
	}
	return Number(strconv.FormatFloat(f, 'g', -1, bits)), nil
}

// EqualJSON reports whether two JSON texts are one value as the apiserver
// stores it (CanonicalJSON). Texts that are not JSON compare as bytes.
func EqualJSON(a, b []byte) bool {
	ca, err1 := CanonicalJSON(a)
	cb, err2 := CanonicalJSON(b)
	if err1 != nil || err2 != nil {
		return string(a) == string(b)
	}
	return string(ca) == string(cb)
}

// AsDecoded is v, a JSON value, as the apiserver holds it once it has
// decoded v's encoding (as DecodeObject: an integer that fits is an
// int64, whatever Go type held it, any other number a float64); v itself
// when it does not encode.
func AsDecoded(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if err := utiljson.Unmarshal(b, &out); err != nil {
		return v
	}
	return out
}

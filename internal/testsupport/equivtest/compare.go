package equivtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Diff compares (a) and (b), stored JSON of an object of Go type t, and
// returns "" when they are equal, else the path of the first difference.
//
// They are compared as JSON: an omitzero struct stored as {} where Go
// leaves it out is a difference. One value is allowed in (b) alone: the
// zero value of a scalar, list or map field that encoding/json leaves out
// when zero (omitempty, omitzero). A Go client cannot hold that value
// apart from absence, so it comes only from an author's +default of the
// zero value (k8s.io/api's +default="" on LocalObjectReference.Name), which
// the apiserver stores and Go writes as absence.
func Diff(t reflect.Type, a, b []byte) (string, error) {
	av, err := decodeNumbers(a)
	if err != nil {
		return "", err
	}
	bv, err := decodeNumbers(b)
	if err != nil {
		return "", err
	}
	return diff(t, av, bv, ""), nil
}

func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

var marshaler = reflect.TypeFor[json.Marshaler]()

func diff(t reflect.Type, a, b any, path string) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return equalAt(a, b, path)
	}
	switch t.Kind() {
	case reflect.Struct:
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if !aok || !bok {
			return equalAt(a, b, path)
		}
		fields := jsonFields(t)
		for k, bv := range bm {
			f, known := fields[k]
			av, inA := am[k]
			switch {
			case !inA && known && omittedZero(f, bv):
			case !inA:
				return fmt.Sprintf("%s.%s: only in (b): %v", path, k, bv)
			case known:
				if d := diff(f.Type, av, bv, path+"."+k); d != "" {
					return d
				}
			default:
				if d := equalAt(av, bv, path+"."+k); d != "" {
					return d
				}
			}
		}
		for k, av := range am {
			if _, ok := bm[k]; !ok {
				return fmt.Sprintf("%s.%s: only in (a): %v", path, k, av)
			}
		}
		return ""
	case reflect.Map:
		am, aok := a.(map[string]any)
		bm, bok := b.(map[string]any)
		if !aok || !bok || len(am) != len(bm) {
			return equalAt(a, b, path)
		}
		for k, av := range am {
			if d := diff(t.Elem(), av, bm[k], path+"["+k+"]"); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		al, aok := a.([]any)
		bl, bok := b.([]any)
		if !aok || !bok || len(al) != len(bl) {
			return equalAt(a, b, path)
		}
		for i := range al {
			if d := diff(t.Elem(), al[i], bl[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	return equalAt(a, b, path)
}

func equalAt(a, b any, path string) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	return fmt.Sprintf("%s: (a) %v, (b) %v", path, a, b)
}

// omittedZero reports a value v of field f that encoding/json would leave
// out: the zero value of a scalar, list or map tagged omitempty or omitzero.
func omittedZero(f reflect.StructField, v any) bool {
	opts := strings.Split(f.Tag.Get("json"), ",")[1:]
	omits := false
	for _, o := range opts {
		omits = omits || o == "omitempty" || o == "omitzero"
	}
	if !omits || f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer {
		return false
	}
	switch v := v.(type) {
	case string:
		return v == ""
	case bool:
		return !v
	case json.Number:
		return strings.Trim(string(v), "0.") == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// jsonFields maps JSON names to the fields of struct type t, inline
// (embedded, untagged or `json:""`) structs expanded.
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					out[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

package model

import (
	"fmt"
	"go/types"
	"math"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// decodable says, in words, why encoding/json could not decode value into
// a Go value of type t, as the defaults generator's code does; "" when it
// can. Run on every default that Go code sets, it is what keeps a generated
// defaulter from ever failing on a marker's value.
func (m *Model) decodable(value any, t types.Type, pkg *loader.Package) string {
	t = types.Unalias(t)
	if value == nil {
		return "" // null leaves any Go value at its zero value
	}
	if p, ok := t.(*types.Pointer); ok {
		return m.decodable(value, p.Elem(), pkg)
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		switch loader.NonVendorPath(n.Obj().Pkg().Path()) + "." + n.Obj().Name() {
		case "k8s.io/apimachinery/pkg/api/resource.Quantity":
			return quantity(value)
		case "k8s.io/apimachinery/pkg/apis/meta/v1.Duration":
			if s, ok := value.(string); ok {
				if _, err := time.ParseDuration(s); err != nil {
					return fmt.Sprintf("%q is not a duration: %v", s, err)
				}
				return ""
			}
			return "a duration is a JSON string, e.g. \"30s\""
		case "k8s.io/apimachinery/pkg/apis/meta/v1.Time", "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
			if s, ok := value.(string); ok {
				if _, err := time.Parse(time.RFC3339, s); err != nil {
					return fmt.Sprintf("%q is not an RFC 3339 time: %v", s, err)
				}
				return ""
			}
			return "a time is a JSON string in RFC 3339"
		case "k8s.io/apimachinery/pkg/util/intstr.IntOrString":
			if f, ok := value.(float64); ok && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
				return ""
			}
			if _, ok := value.(string); ok {
				return ""
			}
			return "an int-or-string is a JSON string or a 32-bit integer"
		}
		if m.hasOwnEncoding(n) {
			return "" // its own UnmarshalJSON decides; nothing to check here
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basicDecodable(value, u)
	case *types.Struct:
		obj, ok := value.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is a struct, the default is a JSON %s", typeName(t), jsonType(value))
		}
		sh := m.ShapeOf(t, pkg)
		if !sh.HasIdent {
			return ""
		}
		for _, f := range m.Fields(sh.Ident) {
			v, ok := lookupFold(obj, f.Tag.Name)
			if !ok {
				continue
			}
			if msg := m.decodable(v, f.Type, f.Pkg); msg != "" {
				return f.Tag.Name + ": " + msg
			}
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			if _, ok := value.(string); !ok {
				return "a []byte is a base64 JSON string"
			}
			return ""
		}
		return m.listDecodable(value, u.Elem(), pkg)
	case *types.Array:
		return m.listDecodable(value, u.Elem(), pkg)
	case *types.Map:
		obj, ok := value.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s is a map, the default is a JSON %s", typeName(t), jsonType(value))
		}
		for k, v := range obj {
			if msg := m.decodable(v, u.Elem(), pkg); msg != "" {
				return k + ": " + msg
			}
		}
	}
	return ""
}

func (m *Model) listDecodable(value any, elem types.Type, pkg *loader.Package) string {
	list, ok := value.([]any)
	if !ok {
		return fmt.Sprintf("a list is a JSON array, the default is a JSON %s", jsonType(value))
	}
	for i, v := range list {
		if msg := m.decodable(v, elem, pkg); msg != "" {
			return fmt.Sprintf("[%d]: %s", i, msg)
		}
	}
	return ""
}

// basicDecodable checks a JSON value against a Go basic type, ranges
// included.
func basicDecodable(value any, b *types.Basic) string {
	info := b.Info()
	switch {
	case info&types.IsString != 0:
		if _, ok := value.(string); !ok {
			return fmt.Sprintf("a %s is a JSON string, the default is a JSON %s", b.Name(), jsonType(value))
		}
	case info&types.IsBoolean != 0:
		if _, ok := value.(bool); !ok {
			return fmt.Sprintf("a bool is a JSON boolean, the default is a JSON %s", jsonType(value))
		}
	case info&types.IsInteger != 0:
		f, ok := value.(float64)
		if !ok || f != math.Trunc(f) {
			return fmt.Sprintf("a %s is a JSON integer, the default is a JSON %s", b.Name(), jsonType(value))
		}
		lo, hi := intRange(b)
		if f < lo || f > hi {
			return fmt.Sprintf("%v does not fit in a %s", f, b.Name())
		}
	case info&types.IsFloat != 0:
		if _, ok := value.(float64); !ok {
			return fmt.Sprintf("a %s is a JSON number, the default is a JSON %s", b.Name(), jsonType(value))
		}
	}
	return ""
}

func intRange(b *types.Basic) (lo, hi float64) {
	switch b.Kind() {
	case types.Int8:
		return math.MinInt8, math.MaxInt8
	case types.Int16:
		return math.MinInt16, math.MaxInt16
	case types.Int32:
		return math.MinInt32, math.MaxInt32
	case types.Uint8:
		return 0, math.MaxUint8
	case types.Uint16:
		return 0, math.MaxUint16
	case types.Uint32:
		return 0, math.MaxUint32
	case types.Uint, types.Uint64, types.Uintptr:
		return 0, math.MaxUint64
	}
	return math.MinInt64, math.MaxInt64
}

func quantity(value any) string {
	switch v := value.(type) {
	case string:
		if _, err := resource.ParseQuantity(v); err != nil {
			return fmt.Sprintf("%q is not a quantity: %v", v, err)
		}
		return ""
	case float64:
		return ""
	}
	return "a quantity is a JSON string or number"
}

// lookupFold finds a JSON key as encoding/json matches it to a field:
// exactly, else case-insensitively.
func lookupFold(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

func typeName(t types.Type) string {
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

// Package golit writes a JSON default as a Go expression of the field's
// type: the value the Go defaulter sets, checked by the compiler instead of
// decoded at run time.
//
// One function, Expr, both checks a value against a Go type and writes it.
// The model's check (model.CheckField, through Check) and the defaults
// generator's code (defaultgen, through Expr) therefore cannot disagree:
// what the check accepts is exactly what the generator writes, and the
// generated code has nothing left to fail at run time. Scalars become
// untyped constants (`in.Retries = 5`), which the compiler refuses when they
// do not fit; structs, lists and maps composite literals; pointers `&T{...}`
// or a generic helper's call (Env.Ptr).
//
// A value is accepted when a Go client can send it and the apiserver stores
// the CRD default as that same JSON (KEP-1929's rule of thumb):
//
//   - integers are exact, within the Go type's range and the apiserver's
//     (int64); 1e2 and 1.0 are the integer 100, -0 is 0, 1.5 is refused;
//   - a float is the nearest value of its size, and is refused when that
//     value, as encoding/json writes it, differs from the number as the
//     apiserver stores it (0.123456789 in a float32, 9007199254740993 in a
//     float64), is infinite, or is 0 for a number that is not;
//   - object keys name JSON fields exactly (encoding/json would also match
//     a key case-insensitively, which the apiserver prunes), and no key
//     names an unexported field, which encoding/json never sets;
//   - types with their own JSON encoding are written only when known
//     (resource.Quantity, metav1.Duration, metav1.Time, metav1.MicroTime,
//     intstr.IntOrString, runtime.RawExtension, apiextensions JSON);
//     any other is refused: the generator cannot prove what its
//     UnmarshalJSON does.
package golit

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsontag"
)

// Field is one JSON field of a struct type.
type Field struct {
	// Name is the JSON name.
	Name string
	// Sel is the Go selector from the struct, through embedded structs:
	// "Port" or "VolumeSource.AzureDisk".
	Sel  string
	Type types.Type
}

// Env says how to read the types a value goes into and how to write it.
type Env struct {
	// Fields lists the JSON fields of the named struct type n, inline
	// structs expanded, as the CRD has them; ok is false when they are not
	// known, and StructFields reads them from the Go type.
	Fields func(n *types.Named) (fields []Field, ok bool)
	// Pkg is the package the expression is written in: types of other
	// packages are qualified with Qualifier, and unexported ones refused.
	// Nil when the value is only checked.
	Pkg       *types.Package
	Qualifier types.Qualifier
	// Ptr names a function `func[T any](v T) *T` of Pkg, for pointers to
	// values that have no composite literal (*int32, *resource.Quantity).
	Ptr string
}

// Lit is a Go expression.
type Lit struct {
	Src string
	// UsesPtr says that Src calls Env.Ptr.
	UsesPtr bool
}

// Check says, in words, why v cannot be the value of a Go field of type t;
// "" when it can. It is Expr without the expression.
func Check(v any, t types.Type, env Env) string {
	env.Pkg = nil
	if _, err := Expr(v, t, env); err != nil {
		return err.Error()
	}
	return ""
}

// Checked is what CheckOpaque says of a value.
type Checked struct {
	// Msg says why no Go client can send the value; "" when one can.
	Msg string
	// Opaque, when Msg is "", says where the value goes into a type with
	// its own encoding that Expr does not know ("consolidateAfter:
	// NillableDuration has its own UnmarshalJSON: ..."): the Go value
	// there is whatever that type's UnmarshalJSON or UnmarshalText makes
	// of the JSON, which Expr cannot write. "" when Expr writes v whole.
	Opaque string
}

// CheckOpaque is Check with the types that have their own encoding taken
// as accepting any JSON value, as encoding/json hands it to their
// methods: every other part of v is checked as Expr checks it, and Opaque
// names the first such type the value meets, with its path.
func CheckOpaque(v any, t types.Type, env Env) Checked {
	env.Pkg = nil
	b := &builder{env: env, opaque: true}
	if _, err := b.expr(v, t); err != nil {
		return Checked{Msg: err.Error()}
	}
	if _, err := Expr(v, t, env); err != nil {
		if !IsOwnEncoding(err) {
			// CheckOpaque refuses what Expr refuses, but for types with
			// their own encoding: TestCheckOpaque
			return Checked{Msg: err.Error()}
		}
		return Checked{Opaque: err.Error()}
	}
	return Checked{}
}

// IsOwnEncoding reports an error of Expr that refuses a value only because
// a type on its way has its own encoding, which Expr does not know: the
// value may well be valid, but its Go value is the type's methods' to make.
func IsOwnEncoding(err error) bool {
	pe, ok := errors.AsType[*pathError](err)
	return ok && pe.ownEncoding
}

// Expr is v, a decoded JSON value (jsonnum.Decode's, or encoding/json's),
// as a Go expression assignable to a variable of type t. The error says
// why no Go client can send v for t, prefixed by the JSON path inside v.
func Expr(v any, t types.Type, env Env) (Lit, error) {
	b := &builder{env: env}
	e, err := b.expr(v, t)
	if err != nil {
		return Lit{}, err
	}
	if e.omit {
		return Lit{}, &pathError{msg: "null leaves the Go value at its zero value"}
	}
	return Lit{Src: e.src, UsesPtr: b.usedPtr}, nil
}

// pathError is a message about the value at a JSON path inside the
// default: "limit: 300 does not fit in a uint8 (0 to 255)".
type pathError struct {
	path []string
	msg  string
	// ownEncoding: refused for a type with its own encoding (IsOwnEncoding)
	ownEncoding bool
}

func (e *pathError) Error() string {
	if len(e.path) == 0 {
		return e.msg
	}
	return strings.Join(e.path, ": ") + ": " + e.msg
}

func at(step string, err error) error {
	if pe, ok := errors.AsType[*pathError](err); ok {
		return &pathError{path: append([]string{step}, pe.path...), msg: pe.msg, ownEncoding: pe.ownEncoding}
	}
	return err
}

func fail(format string, args ...any) error { return &pathError{msg: fmt.Sprintf(format, args...)} }

type builder struct {
	env     Env
	usedPtr bool
	// opaque takes any value for a type with its own encoding
	// (CheckOpaque); the expression written is then no Go code.
	opaque bool
}

// expr is an expression and what can be done with it.
type expr struct {
	src string
	// typed: src has its type without context (a composite literal, a
	// conversion, a call); an untyped constant or nil does not.
	typed bool
	// composite: src is a composite literal, whose address &src is a
	// pointer to a new variable.
	composite bool
	// omit: null for a type that cannot be null: encoding/json leaves the
	// value as it is.
	omit bool
}

func (b *builder) expr(v any, t types.Type) (expr, error) {
	t = types.Unalias(t)
	v = number(v)
	if p, ok := t.(*types.Pointer); ok {
		if v == nil {
			return expr{src: "nil"}, nil
		}
		e, err := b.expr(v, p.Elem())
		if err != nil || e.omit {
			return e, err
		}
		if e.composite {
			return expr{src: "&" + e.src, typed: true}, nil
		}
		return b.ptr(e, p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		if k, ok := knownType(n); ok {
			return b.known(k, v, n)
		}
		if m := ownEncoding(n); m != "" {
			if b.opaque {
				return expr{src: "_", typed: true, composite: true}, nil
			}
			return expr{}, &pathError{ownEncoding: true,
				msg: fmt.Sprintf("%s has its own %s: the defaults generator cannot tell what Go value it makes of a JSON value", typeName(n), m)}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if v == nil {
			return expr{omit: true}, nil
		}
		return b.basic(v, t, u)
	case *types.Struct:
		if v == nil {
			return expr{omit: true}, nil
		}
		return b.structLit(v, t, u)
	case *types.Slice:
		return b.slice(v, t, u)
	case *types.Array:
		if v == nil {
			return expr{omit: true}, nil
		}
		return b.array(v, t, u)
	case *types.Map:
		return b.mapLit(v, t, u)
	case *types.Interface:
		if !u.Empty() {
			return expr{}, fail("%s is an interface with methods, which encoding/json cannot decode into", typeName(t))
		}
		return b.anyValue(v)
	}
	return expr{}, fail("a %s has no JSON value", typeName(t))
}

// number turns the numbers of other decoders into Numbers.
func number(v any) any {
	switch n := v.(type) {
	case json.Number:
		return jsonnum.Number(n)
	case float64:
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return v
		}
		return jsonnum.Number(strconv.FormatFloat(n, 'g', -1, 64))
	case int64:
		return jsonnum.Number(strconv.FormatInt(n, 10))
	case int:
		return jsonnum.Number(strconv.Itoa(n))
	}
	return v
}

// JSONType names the JSON type of a decoded value: "integer" for a
// number whose value is an integer.
func JSONType(v any) string {
	switch v := number(v).(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case jsonnum.Number:
		if d, err := jsonnum.Parse(string(v)); err == nil && d.IsInt() {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// article is "a" or "an" before a type name.
func article(name string) string {
	if name != "" && strings.ContainsRune("aeioAEIO", rune(name[0])) {
		return "an" // an int8, but a uint8
	}
	return "a"
}

func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return t.String()
}

func mismatch(t types.Type, want string, v any) error {
	name := typeName(t)
	return fail("%s %s is a JSON %s, the default is a JSON %s", article(name), name, want, JSONType(v))
}

// typeExpr writes t in Env.Pkg, or says why it cannot be written there.
func (b *builder) typeExpr(t types.Type) (string, error) {
	if b.env.Pkg != nil {
		if n := unexportedElsewhere(t, b.env.Pkg, map[types.Type]bool{}); n != nil {
			return "", fail("%s is unexported in package %s: the defaults generator cannot write its value in package %s",
				n.Obj().Name(), n.Obj().Pkg().Path(), b.env.Pkg.Path())
		}
	}
	q := b.env.Qualifier
	if q == nil {
		q = func(p *types.Package) string {
			if b.env.Pkg != nil && p == b.env.Pkg {
				return ""
			}
			return p.Name()
		}
	}
	return types.TypeString(t, q), nil
}

// unexportedElsewhere finds a named type in t that code in pkg cannot name.
func unexportedElsewhere(t types.Type, pkg *types.Package, seen map[types.Type]bool) *types.Named {
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if o := t.Obj(); o.Pkg() != nil && o.Pkg().Path() != pkg.Path() && !o.Exported() {
			return t
		}
		for a := range t.TypeArgs().Types() {
			if n := unexportedElsewhere(a, pkg, seen); n != nil {
				return n
			}
		}
	case *types.Pointer:
		return unexportedElsewhere(t.Elem(), pkg, seen)
	case *types.Slice:
		return unexportedElsewhere(t.Elem(), pkg, seen)
	case *types.Array:
		return unexportedElsewhere(t.Elem(), pkg, seen)
	case *types.Map:
		if n := unexportedElsewhere(t.Key(), pkg, seen); n != nil {
			return n
		}
		return unexportedElsewhere(t.Elem(), pkg, seen)
	case *types.Struct:
		for f := range t.Fields() {
			if n := unexportedElsewhere(f.Type(), pkg, seen); n != nil {
				return n
			}
		}
	}
	return nil
}

// ptr is a pointer to a new variable holding e, of type elem.
func (b *builder) ptr(e expr, elem types.Type) (expr, error) {
	src := e.src
	if !e.typed && !inferred(src, elem) {
		te, err := b.typeExpr(elem)
		if err != nil {
			return expr{}, err
		}
		src = te + "(" + src + ")"
	}
	b.usedPtr = true
	name := b.env.Ptr
	if name == "" {
		name = "ptrTo"
	}
	return expr{src: name + "(" + src + ")", typed: true}, nil
}

// inferred is the rule for the conversion of an untyped constant passed
// to the pointer helper (func[T any](v T) *T): it is left out when the
// constant's default type, which the call infers for T, is elem itself
// (defaultsPtr("ext4") for a *string, defaultsPtr(false) for a *bool,
// defaultsPtr(3) for an *int), and written otherwise (defaultsPtr(int32(3)),
// defaultsPtr(float64(3)), defaultsPtr(Protocol("TCP"))).
func inferred(src string, elem types.Type) bool {
	tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, src)
	return err == nil && tv.Value != nil && types.Identical(types.Default(tv.Type), elem)
}

// basic is a constant of a string, boolean, integer or float type.
func (b *builder) basic(v any, t types.Type, u *types.Basic) (expr, error) {
	info := u.Info()
	switch {
	case info&types.IsString != 0:
		s, ok := v.(string)
		if !ok {
			return expr{}, mismatch(t, "string", v)
		}
		if err := CRDString(s, false); err != nil {
			return expr{}, err
		}
		return expr{src: strconv.Quote(s)}, nil
	case info&types.IsBoolean != 0:
		x, ok := v.(bool)
		if !ok {
			return expr{}, mismatch(t, "boolean", v)
		}
		return expr{src: strconv.FormatBool(x)}, nil
	case info&types.IsInteger != 0:
		n, ok := v.(jsonnum.Number)
		if !ok {
			return expr{}, mismatch(t, "integer", v)
		}
		src, err := Integer(string(n), u.Kind())
		if err != nil {
			if errors.Is(err, errNotInteger) {
				return expr{}, mismatch(t, "integer", v)
			}
			return expr{}, err
		}
		return expr{src: src}, nil
	case info&types.IsFloat != 0:
		n, ok := v.(jsonnum.Number)
		if !ok {
			return expr{}, mismatch(t, "number", v)
		}
		bits := 64
		if u.Kind() == types.Float32 {
			bits = 32
		}
		src, err := Float(string(n), bits)
		if err != nil {
			return expr{}, err
		}
		return expr{src: src}, nil
	}
	name := typeName(t)
	return expr{}, fail("%s %s has no JSON value that encoding/json decodes", article(name), name)
}

var errNotInteger = fail("not an integer")

// intRanges are the values of each integer kind that both Go and the
// apiserver hold: the apiserver's integers are int64.
var intRanges = map[types.BasicKind]struct {
	name   string
	lo, hi string
}{
	types.Int:     {"int", "-9223372036854775808", "9223372036854775807"},
	types.Int8:    {"int8", "-128", "127"},
	types.Int16:   {"int16", "-32768", "32767"},
	types.Int32:   {"int32", "-2147483648", "2147483647"},
	types.Int64:   {"int64", "-9223372036854775808", "9223372036854775807"},
	types.Uint:    {"uint", "0", "18446744073709551615"},
	types.Uint8:   {"uint8", "0", "255"},
	types.Uint16:  {"uint16", "0", "65535"},
	types.Uint32:  {"uint32", "0", "4294967295"},
	types.Uint64:  {"uint64", "0", "18446744073709551615"},
	types.Uintptr: {"uintptr", "0", "18446744073709551615"},
	// untyped constants never reach here; byte and rune are aliases
}

// Integer is the JSON number lit as a constant of the integer kind: its
// exact value, in decimal. It is refused when lit is no integer
// (errNotInteger), when the kind does not hold it, and beyond int64 or
// written as no integer literal (1e16+1 as 10000000000000001.0), where the
// apiserver stores the nearest float64 instead.
func Integer(lit string, kind types.BasicKind) (string, error) {
	d, err := jsonnum.Parse(lit)
	if err != nil {
		return "", fail("%v", err)
	}
	if !d.IsInt() {
		return "", errNotInteger
	}
	r, ok := intRanges[kind]
	if !ok {
		return "", fail("%s is not an integer kind", types.Typ[kind].Name())
	}
	lo, _ := jsonnum.Parse(r.lo)
	hi, _ := jsonnum.Parse(r.hi)
	if cmpInt(d, lo) < 0 || cmpInt(d, hi) > 0 {
		return "", fail("%s does not fit in %s %s (%s to %s)", lit, article(r.name), r.name, r.lo, r.hi)
	}
	i, ok := d.Int64()
	if !ok {
		return "", fail("%s does not fit in the apiserver's integers (int64: -9223372036854775808 to 9223372036854775807): "+
			"it would store the nearest float64, %s", lit, mustCanonical(lit))
	}
	exact := strconv.FormatInt(i, 10)
	if stored := mustCanonical(lit); stored != exact {
		return "", fail("%s is not written as an integer: the apiserver reads it as the nearest float64 and stores %s, "+
			"where Go clients send %s; write %s", lit, stored, exact, exact)
	}
	return exact, nil
}

func mustCanonical(lit string) string {
	c, err := jsonnum.Canonical(lit)
	if err != nil {
		return "nothing (" + err.Error() + ")"
	}
	return c
}

// cmpInt compares two integer Decimals.
func cmpInt(a, b jsonnum.Decimal) int {
	sa, sb := sign(a), sign(b)
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := 0
	switch {
	case a.IntDigits() != b.IntDigits():
		c = -1
		if a.IntDigits() > b.IntDigits() {
			c = 1
		}
	default:
		da := a.Digits + strings.Repeat("0", a.Exp)
		db := b.Digits + strings.Repeat("0", b.Exp)
		c = strings.Compare(da, db)
	}
	return c * sa
}

func sign(d jsonnum.Decimal) int {
	switch {
	case d.IsZero():
		return 0
	case d.Neg:
		return -1
	}
	return 1
}

// Float is the JSON number lit as a constant of a float type of the size:
// the nearest such float, as encoding/json writes it. It is refused when
// that float is infinite, is 0 for a number that is not, or, written as
// encoding/json writes it, is not the number as the apiserver stores it:
// Go clients would then send another value than the CRD default.
func Float(lit string, bits int) (string, error) {
	d, err := jsonnum.Parse(lit)
	if err != nil {
		return "", fail("%v", err)
	}
	name := fmt.Sprintf("float%d", bits)
	f, err := d.Float(bits)
	if err != nil {
		m := jsonnum.MaxFloat(bits)
		return "", fail("%s does not fit in a %s (-%s to %s)", lit, name, m, m)
	}
	if f == 0 {
		if !d.IsZero() {
			return "", fail("%s is too small for a %s: it would be 0", lit, name)
		}
		return "0", nil
	}
	var enc []byte
	if bits == 32 {
		enc, _ = json.Marshal(float32(f))
	} else {
		enc, _ = json.Marshal(f)
	}
	stored, err := jsonnum.Canonical(lit)
	if err != nil {
		return "", fail("%v", err)
	}
	if string(enc) != stored {
		return "", fail("%s %s holds %s, not %s: Go clients would send %s where the apiserver stores %s; write %s",
			article(name), name, enc, lit, enc, stored, enc)
	}
	return string(enc), nil
}

// keptByGo is the rule of Float for the known types with their own JSON
// encoding (resource.Quantity, metav1.Duration, metav1.Time,
// metav1.MicroTime), run through the types' own UnmarshalJSON and
// MarshalJSON: the Go value a client decodes the literal lit (JSON, as the
// apiserver stores the default) into, written back as Go clients send it
// and decoded again, must be the value lit denotes. Otherwise Go clients
// send another value than the CRD default: a quantity below a nanounit is
// rounded up (0.5n is 1n), a binary quantity above 2^63-1 is capped, a
// duration loses what lies below a nanosecond (1.5ns is 1ns), a Time
// loses its fraction of a second (it is sent to the second). It returns
// the JSON Go clients send, or why lit is refused: the value Go makes of
// it and the literal to write instead. Another form of the same value is
// kept ("60s", which Go sends as "1m0s"; an offset, which Go sends in
// UTC): every client reads it as the same value.
func keptByGo(k known, lit []byte) (sent []byte, err error) {
	var (
		v     interface{ UnmarshalJSON([]byte) error }
		again interface{ UnmarshalJSON([]byte) error }
		same  func() (bool, error)
		name  string
	)
	switch k {
	case knownQuantity:
		var q, q2 resource.Quantity
		v, again, name = &q, &q2, "a resource.Quantity is rounded up to a whole nanounit, and capped at 2^63-1 when binary"
		same = func() (bool, error) {
			exact, err := quantityValue(unquote(lit))
			if err != nil {
				return true, nil // ParseQuantity read it: so do we, or trust it
			}
			held, _ := new(big.Rat).SetString(q2.AsDec().String())
			return held != nil && exact.Cmp(held) == 0, nil
		}
	case knownDuration:
		var d, d2 metav1.Duration
		v, again, name = &d, &d2, "a metav1.Duration counts whole nanoseconds"
		same = func() (bool, error) {
			exact, ok := durationValue(unquote(lit))
			return !ok || exact.Cmp(new(big.Rat).SetInt64(int64(d2.Duration))) == 0, nil
		}
	case knownTime, knownMicroTime:
		var t, t2 metav1.Time
		var m, m2 metav1.MicroTime
		v, again, name = &t, &t2, "a metav1.Time is sent to the second"
		if k == knownMicroTime {
			v, again, name = &m, &m2, "a metav1.MicroTime is sent to the microsecond"
		}
		same = func() (bool, error) {
			s := unquote(lit)
			if sub := subNanosecond(s); sub {
				return false, nil
			}
			exact, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				return true, nil
			}
			if k == knownMicroTime {
				return exact.Equal(m2.Time), nil
			}
			return exact.Equal(t2.Time), nil
		}
	default:
		return lit, nil
	}
	if err := v.UnmarshalJSON(lit); err != nil {
		return nil, fail("%s: %v", lit, err)
	}
	sent, err = json.Marshal(v)
	if err != nil {
		return nil, fail("%s: %v", lit, err)
	}
	if err := again.UnmarshalJSON(sent); err != nil {
		return nil, fail("%s is written %s by Go, which Go cannot read: %v", lit, sent, err)
	}
	if ok, _ := same(); !ok {
		return nil, fail("%s: Go clients would send %s where the apiserver stores %s; write %s", name, sent, lit, sent)
	}
	return sent, nil
}

// keptValue is keptByGo on v, a JSON value of the known type k.
func keptValue(k known, v any) error {
	lit, err := jsonnum.Marshal(v)
	if err != nil {
		return fail("%v", err)
	}
	_, err = keptByGo(k, lit)
	return err
}

// unquote is the string of a JSON string, or the JSON as it is (a number).
func unquote(lit []byte) string {
	var s string
	if json.Unmarshal(lit, &s) == nil {
		return s
	}
	return string(lit)
}

// quantityValue is the exact value of a quantity as written: its number
// times its suffix (a decimal exponent e3, an SI suffix, a binary suffix),
// without ParseQuantity's rounding to a nanounit and capping.
func quantityValue(s string) (*big.Rat, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("+-0123456789.", r) })
	num, suffix := s, ""
	if i >= 0 {
		num, suffix = s[:i], s[i:]
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return nil, fmt.Errorf("no number")
	}
	if exp, err := strconv.Atoi(strings.TrimLeft(suffix, "eE")); err == nil && len(suffix) > 1 && strings.ContainsRune("eE", rune(suffix[0])) {
		if exp > 1000 || exp < -1000 {
			return nil, fmt.Errorf("exponent out of range")
		}
		p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil))
		if exp < 0 {
			p.Inv(p)
		}
		return r.Mul(r, p), nil
	}
	unit, err := resource.ParseQuantity("1" + suffix) // exact: 1n to 1Ei
	if err != nil {
		return nil, err
	}
	u, ok := new(big.Rat).SetString(unit.AsDec().String())
	if !ok {
		return nil, fmt.Errorf("no unit")
	}
	return r.Mul(r, u), nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// durationUnits are time.ParseDuration's units, in nanoseconds.
var durationUnits = map[string]int64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// durationValue is the exact value in nanoseconds of a duration as
// written, which time.ParseDuration truncates to the nanosecond.
func durationValue(s string) (*big.Rat, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	total := new(big.Rat)
	if s == "0" {
		return total, true
	}
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789.", r) })
		if i <= 0 {
			return nil, false
		}
		num := s[:i]
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return strings.ContainsRune("0123456789.", r) })
		if j < 0 {
			j = len(s)
		}
		unit, ok := durationUnits[s[:j]]
		s = s[j:]
		n, ok2 := new(big.Rat).SetString(num)
		if !ok || !ok2 {
			return nil, false
		}
		total.Add(total, n.Mul(n, new(big.Rat).SetInt64(unit)))
	}
	if neg {
		total.Neg(total)
	}
	return total, true
}

// subNanosecond reports a time whose fraction of a second has a non-zero
// digit beyond the ninth, which time.Parse drops.
func subNanosecond(s string) bool {
	i := strings.IndexByte(s, '.')
	if i < 0 {
		return false
	}
	frac := s[i+1:]
	if j := strings.IndexFunc(frac, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
		frac = frac[:j]
	}
	return len(frac) > 9 && strings.Trim(frac[9:], "0") != ""
}

// structLit is a composite literal of a struct type.
func (b *builder) structLit(v any, t types.Type, u *types.Struct) (expr, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return expr{}, fail("%s is a struct, the default is a JSON %s", typeName(t), JSONType(v))
	}
	fields := b.fields(t, u)
	byName := make(map[string]Field, len(fields))
	for _, f := range fields {
		// of two fields with one name, encoding/json sets the shallower
		if g, ok := byName[f.Name]; !ok || strings.Count(f.Sel, ".") < strings.Count(g.Sel, ".") {
			byName[f.Name] = f
		}
	}
	root := &group{}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range obj {
			if !yield(k) {
				return
			}
		}
	}) {
		f, ok := byName[k]
		if !ok {
			for _, g := range fields {
				if strings.EqualFold(g.Name, k) {
					return expr{}, at(k, fail("no field %s in %s; the field is spelled %s (encoding/json would match it, the apiserver prunes it)", k, typeName(t), g.Name))
				}
			}
			return expr{}, at(k, fail("no field %s in %s, so Go clients cannot send it (the apiserver prunes it)", k, typeName(t)))
		}
		sel := strings.Split(f.Sel, ".")
		if !isExported(sel[len(sel)-1]) {
			return expr{}, at(k, fail("the field %s is unexported: encoding/json neither sets nor sends it", sel[len(sel)-1]))
		}
		e, err := b.expr(obj[k], f.Type)
		if err != nil {
			return expr{}, at(k, err)
		}
		if e.omit {
			continue // null: the field keeps its zero value
		}
		root.add(sel, e.src)
	}
	return b.render(root, t, u)
}

func isExported(name string) bool {
	return name != "" && strings.ToUpper(name[:1]) == name[:1] && name[0] != '_'
}

// group collects the fields of a composite literal, nested by embedded
// struct: {Port: 80, VolumeSource: VolumeSource{AzureDisk: ...}}.
type group struct {
	names []string
	vals  map[string]string
	subs  map[string]*group
}

func (g *group) add(sel []string, src string) {
	if g.vals == nil {
		g.vals, g.subs = map[string]string{}, map[string]*group{}
	}
	name := sel[0]
	if !slices.Contains(g.names, name) {
		g.names = append(g.names, name)
	}
	if len(sel) == 1 {
		g.vals[name] = src
		return
	}
	if g.subs[name] == nil {
		g.subs[name] = &group{}
	}
	g.subs[name].add(sel[1:], src)
}

// render writes the composite literal of g for the struct type t.
func (b *builder) render(g *group, t types.Type, u *types.Struct) (expr, error) {
	te, err := b.typeExpr(t)
	if err != nil {
		return expr{}, err
	}
	var parts []string
	for _, name := range g.names {
		if src, ok := g.vals[name]; ok {
			parts = append(parts, name+": "+src)
			continue
		}
		ft := fieldType(u, name)
		if ft == nil {
			return expr{}, fail("no embedded field %s in %s", name, typeName(t))
		}
		inner := ft
		ptr := false
		if p, ok := types.Unalias(ft).(*types.Pointer); ok {
			inner, ptr = p.Elem(), true
			if n, ok := types.Unalias(inner).(*types.Named); ok && !n.Obj().Exported() {
				return expr{}, fail("%s embeds a pointer to the unexported struct %s, which encoding/json cannot set", typeName(t), n.Obj().Name())
			}
		}
		is, ok := types.Unalias(inner).Underlying().(*types.Struct)
		if !ok {
			return expr{}, fail("the embedded field %s of %s is no struct", name, typeName(t))
		}
		sub, err := b.render(g.subs[name], inner, is)
		if err != nil {
			return expr{}, err
		}
		if ptr {
			sub.src = "&" + sub.src
		}
		parts = append(parts, name+": "+sub.src)
	}
	return expr{src: te + "{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
}

// fieldType is the type of the field of u named name (an embedded field is
// named after its type).
func fieldType(u *types.Struct, name string) types.Type {
	for f := range u.Fields() {
		if f.Name() == name {
			return f.Type()
		}
	}
	return nil
}

// fields lists the JSON fields of a struct type: the model's, else the Go
// type's own.
func (b *builder) fields(t types.Type, u *types.Struct) []Field {
	if n, ok := types.Unalias(t).(*types.Named); ok && b.env.Fields != nil {
		if fs, ok := b.env.Fields(n); ok {
			return fs
		}
	}
	return StructFields(u)
}

// StructFields lists the JSON fields of a struct as controller-gen reads
// them: the json tag's name, fields tagged "-" or untagged left out, and
// embedded structs (or fields tagged inline, or with an empty name)
// expanded in place.
func StructFields(u *types.Struct) []Field {
	var out []Field
	var walk func(u *types.Struct, prefix string, depth int)
	walk = func(u *types.Struct, prefix string, depth int) {
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			tag, ok := jsontag.Parse(reflect.StructTag(u.Tag(i)))
			if !ok {
				continue
			}
			sel := prefix + f.Name()
			if tag.Inline {
				ft := types.Unalias(f.Type())
				if p, ok := ft.(*types.Pointer); ok {
					ft = types.Unalias(p.Elem())
				}
				if is, ok := ft.Underlying().(*types.Struct); ok && depth < 10 {
					walk(is, sel+".", depth+1)
				}
				continue
			}
			out = append(out, Field{Name: tag.Name, Sel: sel, Type: f.Type()})
		}
	}
	walk(u, "", 0)
	return out
}

func (b *builder) slice(v any, t types.Type, u *types.Slice) (expr, error) {
	if v == nil {
		return expr{src: "nil"}, nil
	}
	if isBytes(u.Elem()) {
		s, ok := v.(string)
		if !ok {
			return expr{}, fail("a []byte is a base64 JSON string, the default is a JSON %s", JSONType(v))
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return expr{}, fail("%q is not base64, which encoding/json reads a []byte from: %v", s, err)
		}
		if again := base64.StdEncoding.EncodeToString(raw); again != s {
			return expr{}, fail("%q: Go clients send these bytes as %q; write that", s, again)
		}
		te, err := b.typeExpr(t)
		if err != nil {
			return expr{}, err
		}
		parts := make([]string, len(raw))
		for i, c := range raw {
			parts[i] = strconv.Itoa(int(c))
		}
		return expr{src: te + "{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
	}
	list, ok := v.([]any)
	if !ok {
		return expr{}, fail("a list is a JSON array, the default is a JSON %s", JSONType(v))
	}
	return b.items(list, t, u.Elem())
}

// isBytes reports a slice element type that encoding/json writes as
// base64: a byte kind without methods of its own.
func isBytes(elem types.Type) bool {
	b, ok := types.Unalias(elem).Underlying().(*types.Basic)
	if !ok || b.Kind() != types.Uint8 {
		return false
	}
	if n, ok := types.Unalias(elem).(*types.Named); ok {
		return ownEncoding(n) == ""
	}
	return true
}

func (b *builder) array(v any, t types.Type, u *types.Array) (expr, error) {
	list, ok := v.([]any)
	if !ok {
		return expr{}, fail("a list is a JSON array, the default is a JSON %s", JSONType(v))
	}
	if int64(len(list)) != u.Len() {
		return expr{}, fail("%s holds %d items, which Go clients always send; the default has %d", typeName(t), u.Len(), len(list))
	}
	return b.items(list, t, u.Elem())
}

func (b *builder) items(list []any, t, elem types.Type) (expr, error) {
	te, err := b.typeExpr(t)
	if err != nil {
		return expr{}, err
	}
	parts := make([]string, len(list))
	for i, item := range list {
		e, err := b.element(item, elem)
		if err != nil {
			return expr{}, at(fmt.Sprintf("[%d]", i), err)
		}
		parts[i] = e.src
	}
	return expr{src: te + "{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
}

// element is a list item or map value: null only where Go holds it (a
// pointer or an interface); elsewhere encoding/json would store the zero
// value, which Go clients then send instead of null.
func (b *builder) element(v any, elem types.Type) (expr, error) {
	if v == nil {
		switch types.Unalias(elem).Underlying().(type) {
		case *types.Pointer, *types.Interface:
			return expr{src: "nil"}, nil
		}
		name := typeName(elem)
		return expr{}, fail("null: %s %s cannot be null; Go clients send its zero value", article(name), name)
	}
	return b.expr(v, elem)
}

func (b *builder) mapLit(v any, t types.Type, u *types.Map) (expr, error) {
	if v == nil {
		return expr{src: "nil"}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return expr{}, fail("%s is a map, the default is a JSON %s", typeName(t), JSONType(v))
	}
	te, err := b.typeExpr(t)
	if err != nil {
		return expr{}, err
	}
	key := types.Unalias(u.Key())
	opaqueKeys := false
	if n, ok := key.(*types.Named); ok && ownEncoding(n) != "" {
		if !b.opaque {
			return expr{}, &pathError{ownEncoding: true,
				msg: fmt.Sprintf("the keys of %s have their own %s: the defaults generator cannot tell what Go value they make of a JSON key", typeName(t), ownEncoding(n))}
		}
		opaqueKeys = true // any key, as the type's UnmarshalText takes it; the values are checked
	}
	kb, ok := key.Underlying().(*types.Basic)
	if !opaqueKeys && (!ok || (kb.Info()&(types.IsString|types.IsInteger) == 0)) {
		return expr{}, fail("the keys of %s are %s, which encoding/json cannot decode", typeName(t), typeName(key))
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range obj {
			if !yield(k) {
				return
			}
		}
	})
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if err := CRDString(k, true); err != nil {
			return expr{}, at(strconv.Quote(k), err)
		}
		ks := strconv.Quote(k)
		if !opaqueKeys && kb.Info()&types.IsInteger != 0 {
			src, err := Integer(k, kb.Kind())
			if err != nil || src != k {
				return expr{}, at(k, fail("a key of %s is an integer, written as Go clients send it (as %s)", typeName(t), "\"123\""))
			}
			ks = src
		}
		e, err := b.element(obj[k], u.Elem())
		if err != nil {
			return expr{}, at(k, err)
		}
		parts = append(parts, ks+": "+e.src)
	}
	return expr{src: te + "{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
}

// anyValue is v in an interface{}: encoding/json decodes numbers as
// float64, objects as map[string]interface{}, arrays as []interface{}.
func (b *builder) anyValue(v any) (expr, error) {
	switch x := v.(type) {
	case nil:
		return expr{src: "nil"}, nil
	case string:
		if err := CRDString(x, false); err != nil {
			return expr{}, err
		}
		return expr{src: strconv.Quote(x)}, nil
	case bool:
		return expr{src: strconv.FormatBool(x)}, nil
	case jsonnum.Number:
		src, err := Float(string(x), 64)
		if err != nil {
			return expr{}, at("in an interface{}, numbers are float64", err)
		}
		return expr{src: "float64(" + src + ")", typed: true}, nil
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			e, err := b.anyValue(number(item))
			if err != nil {
				return expr{}, at(fmt.Sprintf("[%d]", i), err)
			}
			parts[i] = e.src
		}
		return expr{src: "[]interface{}{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
	case map[string]any:
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range x {
				if !yield(k) {
					return
				}
			}
		})
		parts := make([]string, len(keys))
		for i, k := range keys {
			if err := CRDString(k, true); err != nil {
				return expr{}, at(strconv.Quote(k), err)
			}
			e, err := b.anyValue(number(x[k]))
			if err != nil {
				return expr{}, at(k, err)
			}
			parts[i] = strconv.Quote(k) + ": " + e.src
		}
		return expr{src: "map[string]interface{}{" + strings.Join(parts, ", ") + "}", typed: true, composite: true}, nil
	}
	return expr{}, fail("%T is no JSON value", v)
}

// ownEncoding names the method by which encoding/json reads or writes n
// instead of by kind, or "".
func ownEncoding(n *types.Named) string {
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		ms := types.NewMethodSet(t)
		for _, m := range []string{"UnmarshalJSON", "UnmarshalText", "MarshalJSON", "MarshalText"} {
			if ms.Lookup(nil, m) != nil {
				return m
			}
		}
	}
	return ""
}

// known are the types with their own encoding whose values the generator
// writes, by package path (vendor/ stripped) and name.
type known int

const (
	knownQuantity known = iota + 1
	knownDuration
	knownTime
	knownMicroTime
	knownIntOrString
	knownRawExtension
	knownJSON
)

var knownTypes = map[string]known{
	"k8s.io/apimachinery/pkg/api/resource.Quantity":                      knownQuantity,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":                      knownDuration,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":                          knownTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":                     knownMicroTime,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":                    knownIntOrString,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                       knownRawExtension,
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":      knownJSON,
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1.JSON": knownJSON,
}

func knownType(n *types.Named) (known, bool) {
	o := n.Obj()
	if o.Pkg() == nil {
		return 0, false
	}
	path := o.Pkg().Path()
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		path = path[i+len("/vendor/"):]
	}
	k, ok := knownTypes[path+"."+o.Name()]
	return k, ok
}

// known writes a value of a known type. The checks are the type's own
// UnmarshalJSON, run here on the value.
func (b *builder) known(k known, v any, n *types.Named) (expr, error) {
	if v == nil {
		return expr{omit: true}, nil
	}
	te, err := b.typeExpr(n)
	if err != nil {
		return expr{}, err
	}
	switch k {
	case knownQuantity:
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case jsonnum.Number:
			s = string(x)
		default:
			return expr{}, fail("a quantity is a JSON string or number, the default is a JSON %s", JSONType(v))
		}
		q, err := resource.ParseQuantity(strings.TrimSpace(s))
		if err != nil {
			return expr{}, fail("%q is not a quantity: %v", s, err)
		}
		canon := q.String()
		// resource.MustParse cannot panic here: canon parses (it is what
		// ParseQuantity made of the value, written by Quantity.String).
		if _, err := resource.ParseQuantity(canon); err != nil {
			return expr{}, fail("%q is not a quantity once written as %q: %v", s, canon, err)
		}
		if err := keptValue(k, v); err != nil {
			return expr{}, err
		}
		return expr{src: b.pkgName(n) + "MustParse(" + strconv.Quote(canon) + ")", typed: true}, nil
	case knownDuration:
		s, ok := v.(string)
		if !ok {
			return expr{}, fail("a duration is a JSON string, e.g. \"30s\"")
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return expr{}, fail("%q is not a duration: %v", s, err)
		}
		if err := keptValue(k, v); err != nil {
			return expr{}, err
		}
		return expr{src: te + "{Duration: " + strconv.FormatInt(int64(d), 10) + "}", typed: true, composite: true}, nil
	case knownTime, knownMicroTime:
		s, ok := v.(string)
		if !ok {
			return expr{}, fail("a time is a JSON string in RFC 3339")
		}
		layout := time.RFC3339
		if k == knownMicroTime {
			layout = "2006-01-02T15:04:05.000000Z07:00" // metav1.RFC3339Micro
		}
		ts, err := time.Parse(layout, s)
		if err != nil {
			return expr{}, fail("%q is not an RFC 3339 time: %v", s, err)
		}
		if err := keptValue(k, v); err != nil {
			return expr{}, err
		}
		tq := b.qualify(types.NewPackage("time", "time"))
		// encoding/json reads it as time.Parse(...).Local(), time.Unix's
		// location
		return expr{src: fmt.Sprintf("%s{Time: %sUnix(%d, %d)}", te, tq, ts.Unix(), ts.Nanosecond()), typed: true, composite: true}, nil
	case knownIntOrString:
		switch x := v.(type) {
		case string:
			if err := CRDString(x, false); err != nil {
				return expr{}, err
			}
			return expr{src: fmt.Sprintf("%s{Type: %sString, StrVal: %s}", te, b.pkgName(n), strconv.Quote(x)), typed: true, composite: true}, nil
		case jsonnum.Number:
			src, err := Integer(string(x), types.Int32)
			if errors.Is(err, errNotInteger) {
				return expr{}, fail("an int-or-string is a JSON string or a 32-bit integer, the default is a JSON number")
			}
			if err != nil {
				return expr{}, err
			}
			return expr{src: fmt.Sprintf("%s{IntVal: %s}", te, src), typed: true, composite: true}, nil
		}
		return expr{}, fail("an int-or-string is a JSON string or a 32-bit integer, the default is a JSON %s", JSONType(v))
	case knownRawExtension, knownJSON:
		if err := crdStrings(v); err != nil {
			return expr{}, err
		}
		raw, err := jsonnum.Marshal(v)
		if err != nil {
			return expr{}, fail("%v", err)
		}
		return expr{src: fmt.Sprintf("%s{Raw: []byte(%s)}", te, strconv.Quote(string(raw))), typed: true, composite: true}, nil
	}
	return expr{}, fail("unknown type %s", typeName(n))
}

// pkgName is the qualifier of n's package in Env.Pkg, with its dot.
func (b *builder) pkgName(n *types.Named) string { return b.qualify(n.Obj().Pkg()) }

func (b *builder) qualify(p *types.Package) string {
	if b.env.Pkg != nil && p.Path() == b.env.Pkg.Path() {
		return ""
	}
	if b.env.Qualifier != nil {
		if q := b.env.Qualifier(p); q != "" {
			return q + "."
		}
		return ""
	}
	return p.Name() + "."
}

// Encoding is v, a JSON value of a known type n, as encoding/json writes
// the Go value that Expr makes of it: a quantity in its canonical form
// (Quantity.String, always a string), a duration as Duration.String, a
// time in UTC RFC 3339 (to the second; the microsecond for MicroTime). ok
// is false when n is no such type, or v none of its values; an
// int-or-string, a RawExtension and a JSON are written as they are.
func Encoding(v any, n *types.Named) (any, bool) {
	k, ok := knownType(n)
	if !ok || v == nil {
		return nil, false
	}
	v = number(v)
	switch k {
	case knownQuantity:
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case jsonnum.Number:
			s = string(x)
		default:
			return nil, false
		}
		q, err := resource.ParseQuantity(strings.TrimSpace(s))
		if err != nil {
			return nil, false
		}
		return q.String(), true
	case knownDuration:
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return nil, false
		}
		return d.String(), true
	case knownTime, knownMicroTime:
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		layout := time.RFC3339
		if k == knownMicroTime {
			layout = "2006-01-02T15:04:05.000000Z07:00"
		}
		ts, err := time.Parse(layout, s)
		if err != nil {
			return nil, false
		}
		return ts.UTC().Format(layout), true
	}
	return nil, false
}

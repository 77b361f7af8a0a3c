package model

import (
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// asJSON is v encoded as the apiserver stores it, for comparing.
func asJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := jsonnum.Marshal(v)
	if err != nil {
		t.Fatalf("%#v: %v", v, err)
	}
	return string(b)
}

func decodeJSON(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonnum.Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestZeroJSON: what encoding/json writes for a Go zero struct: every
// field it writes at its zero value (null for nil pointers, slices, maps
// and interfaces), inline fields in place, none that omitempty or
// omitzero leaves out; unknown where a field has its own encoding.
func TestZeroJSON(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		typ, want string // "" for unknown
	}{
		{"ZeroSub", `{"n":0}`},
		{"ZeroInline", `{"x":""}`},
		{"Zero", ""}, // Unknown's field has its own encoding
		{"ZeroUnknown", ""},
		{"ZeroUnknownOmit", `{}`},
		{"Sub", `{"count":0}`},
		{"Omit", `{"plain":"","st":{"n":0}}`}, // omitempty does nothing on a struct
	} {
		id := typeID(t, m, tc.typ)
		z, ok := m.ZeroJSON(id)
		if ok != (tc.want != "") {
			t.Errorf("ZeroJSON(%s) known = %v, want %v", tc.typ, ok, tc.want != "")
			continue
		}
		if !ok {
			if z != nil {
				t.Errorf("ZeroJSON(%s) = %v with ok false", tc.typ, z)
			}
			continue
		}
		if got := asJSON(t, z); got != tc.want {
			t.Errorf("ZeroJSON(%s) = %s, want %s", tc.typ, got, tc.want)
		}
		z["changed"] = true
		if again, _ := m.ZeroJSON(id); asJSON(t, again) != tc.want {
			t.Errorf("ZeroJSON(%s) returns the cached value itself", tc.typ)
		}
	}
}

// TestZeroValue: the zero JSON of a field that is always written.
func TestZeroValue(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, want string // "?" for unknown
	}{
		{"Zero.s", `""`}, {"Zero.i", `0`}, {"Zero.b", `false`}, {"Zero.f", `0`},
		{"Zero.p", `null`}, {"Zero.l", `null`}, {"Zero.m", `null`}, {"Zero.any", `null`},
		{"Zero.sub", `{"n":0}`}, {"Zero.d", `"0s"`}, {"Zero.t", `null`},
		{"Zero.unknown", "?"}, {"ZeroUnknown.o", "?"},
	} {
		v, ok := m.zeroValue(field(t, m, tc.field).Shape)
		switch {
		case ok != (tc.want != "?"):
			t.Errorf("zeroValue(%s) known = %v", tc.field, ok)
		case ok && asJSON(t, v) != tc.want:
			t.Errorf("zeroValue(%s) = %s, want %s", tc.field, asJSON(t, v), tc.want)
		}
	}
}

// TestGoEncoding: a value as a Go client sends it once it has decoded it
// into the Go type: fields without omitempty appear at their zero value,
// zero values omitempty/omitzero leave out go, nulls go, unknown keys
// stay.
func TestGoEncoding(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	zero := field(t, m, "Reaches.a") // any field will do for the package
	for _, tc := range []struct {
		typ   string // a type of testdata/rules, or a field "Type.json" whose type to use
		value string
		want  string
	}{
		{"ZeroSub", `{}`, `{"n":0}`},
		{"ZeroSub", `{"n":3}`, `{"n":3}`},
		{"ZeroSub", `{"N":3}`, `{"n":3}`}, // encoding/json matches keys case-insensitively
		{"ZeroSub", `{"n":null}`, `{"n":0}`},
		{"ZeroSub", `{"other":1}`, `{"n":0,"other":1}`},
		{"ZeroSub", `"x"`, `"x"`},
		{"ZeroUnknownOmit", `{"o":1}`, `{"o":1}`},
		{"ZeroUnknown", `{}`, `{}`}, // the zero of o is unknown: left to the apiserver
		{"Omit", `{}`, `{"plain":"","st":{"n":0}}`},
		{"Omit", `{"s":"","b":false,"n":0,"f":0.0,"l":[],"m":{},"zs":"","zn":0}`, `{"plain":"","st":{"n":0}}`},
		{"Omit", `{"s":"a","b":true,"n":1,"l":["x"],"m":{"k":"v"}}`, `{"b":true,"l":["x"],"m":{"k":"v"},"n":1,"plain":"","s":"a","st":{"n":0}}`},
		{"Omit", `{"st":{}}`, `{"plain":"","st":{"n":0}}`},
		{"Omit", `{"pst":{}}`, `{"plain":"","pst":{"n":0},"st":{"n":0}}`},
		{"Omit", `{"zst":{}}`, `{"plain":"","st":{"n":0}}`},
		{"Omit", `{"zst":{"n":2}}`, `{"plain":"","st":{"n":0},"zst":{"n":2}}`},
		{"Omit", `{"zl":[],"zm":{}}`, `{"plain":"","st":{"n":0},"zl":[],"zm":{}}`},
		{"Omit", `{"p":""}`, `{"p":"","plain":"","st":{"n":0}}`},
		{"Omit", `{"zun":{}}`, `{"plain":"","st":{"n":0},"zun":{}}`},
		{"Zero.subs", `[{}, {"n":1}]`, `[{"n":0},{"n":1}]`},
		{"Zero.subs", `{}`, `{}`},
		{"Zero.array", `[{}]`, `[{"n":0}]`},
		{"Zero.byName", `{"a":{},"b":null}`, `{"a":{"n":0}}`},
		{"Zero.byName", `[]`, `[]`},
		{"Zero.bytes", `"aGk="`, `"aGk="`},
		{"Zero.own", `{"a":1}`, `{"a":1}`},
		{"Zero.s", `"x"`, `"x"`},
		{"Zero.any", `{"a":null}`, `{"a":null}`},
	} {
		var f *Field
		if _, _, ok := cutLast(tc.typ); ok {
			f = field(t, m, tc.typ)
		} else {
			id := typeID(t, m, tc.typ)
			f = &Field{Type: id.Package.Types.Scope().Lookup(tc.typ).Type(), Pkg: id.Package}
		}
		if f.Pkg == nil {
			f.Pkg = zero.Pkg
		}
		got := asJSON(t, m.GoEncoding(decodeJSON(t, tc.value), f.Type, f.Pkg))
		if got != tc.want {
			t.Errorf("GoEncoding(%s, %s) = %s, want %s", tc.value, tc.typ, got, tc.want)
		}
	}
}

func cutLast(s string) (string, string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// TestOmitted: what encoding/json leaves out, by tag and value.
func TestOmitted(t *testing.T) {
	m := newModel(t, Options{Implicit: true})
	for _, tc := range []struct {
		field, enc string
		want       bool
	}{
		{"Omit.s", `""`, true}, {"Omit.s", `"a"`, false},
		{"Omit.b", `false`, true}, {"Omit.b", `true`, false},
		{"Omit.n", `0`, true}, {"Omit.n", `0.0`, true}, {"Omit.n", `1`, false},
		{"Omit.l", `[]`, true}, {"Omit.l", `["x"]`, false},
		{"Omit.m", `{}`, true}, {"Omit.m", `{"k":"v"}`, false},
		{"Omit.st", `{}`, false}, {"Omit.st", `{"n":0}`, false}, // omitempty does nothing on a struct
		{"Omit.p", `""`, false}, // a non-nil pointer is written
		{"Omit.pst", `{"n":0}`, false},
		{"Omit.zs", `""`, true}, {"Omit.zs", `"a"`, false},
		{"Omit.zn", `0`, true}, {"Omit.zn", `2`, false},
		{"Omit.zl", `[]`, false}, {"Omit.zm", `{}`, false}, // an empty, non-nil slice or map is not zero
		{"Omit.zst", `{"n":0}`, true}, {"Omit.zst", `{"n":1}`, false}, {"Omit.zst", `{}`, false},
		{"Omit.zun", `{}`, false}, // the zero struct is unknown
		{"Omit.plain", `""`, false},
	} {
		if got := m.omitted(field(t, m, tc.field), decodeJSON(t, tc.enc)); got != tc.want {
			t.Errorf("omitted(%s, %s) = %v, want %v", tc.field, tc.enc, got, tc.want)
		}
	}
	if !m.omitted(field(t, m, "Omit.n"), float64(0)) || m.omitted(field(t, m, "Omit.n"), float64(1)) {
		t.Error("omitted on float64 numbers")
	}
}

func TestDropNulls(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":null,"b":1}`:                       `{"b":1}`,
		`{"a":{"b":null,"c":[null,{"d":null}]}}`: `{"a":{"c":[null,{}]}}`,
		`[null,{"a":null}]`:                      `[null,{}]`,
		`null`:                                   `null`,
		`"x"`:                                    `"x"`,
	} {
		v := decodeJSON(t, in)
		if got := asJSON(t, DropNulls(v)); got != want {
			t.Errorf("DropNulls(%s) = %s, want %s", in, got, want)
		}
		if got := asJSON(t, v); got != asJSON(t, decodeJSON(t, in)) {
			t.Errorf("DropNulls(%s) changed its argument to %s", in, got)
		}
	}
}

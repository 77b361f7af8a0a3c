package golit

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// typesOf type-checks src, a package "api", and returns its package.
func typesOf(t testing.TB, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "api.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("example.com/api", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

const apiSrc = `package api

import "encoding/json"

type Mode string

type Inner struct {
	Port int32 ` + "`json:\"port\"`" + `
	Host *string ` + "`json:\"host,omitempty\"`" + `
}

type Outer struct {
	Inner ` + "`json:\",inline\"`" + `
	*Extra ` + "`json:\",inline\"`" + `
	Mode  Mode ` + "`json:\"mode\"`" + `
	Items []*Inner ` + "`json:\"items\"`" + `
	ByKey map[string]uint8 ` + "`json:\"byKey\"`" + `
	ByInt map[int16]string ` + "`json:\"byInt\"`" + `
	Fixed [2]int ` + "`json:\"fixed\"`" + `
	Bytes []byte ` + "`json:\"bytes\"`" + `
	Any   interface{} ` + "`json:\"any\"`" + `
	hidden string ` + "`json:\"hidden\"`" + `
	Skip string ` + "`json:\"-\"`" + `
}

type Extra struct {
	Note string ` + "`json:\"note\"`" + `
}

type Custom struct{ v int }

func (c *Custom) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &c.v) }

type HasCustom struct {
	C Custom ` + "`json:\"c\"`" + `
}

type Keyed struct {
	ByMode   map[Mode]string ` + "`json:\"byMode\"`" + `
	ByCustom map[Custom]string ` + "`json:\"byCustom\"`" + `
}
`

func TestExpr(t *testing.T) {
	pkg := typesOf(t, apiSrc)
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	env := Env{Pkg: pkg, Ptr: "ptr"}
	for _, tc := range []struct {
		json string
		t    types.Type
		want string // the expression, or the error with "error: " before it
	}{
		{`"TCP"`, typ("Mode"), `"TCP"`},
		{`{"port": 80, "host": "h", "note": "n", "mode": "m"}`, typ("Outer"),
			`Outer{Inner: Inner{Host: ptr("h"), Port: 80}, Mode: "m", Extra: &Extra{Note: "n"}}`},
		{`{"items": [{"port": 1}, null]}`, typ("Outer"), `Outer{Items: []*Inner{&Inner{Port: 1}, nil}}`},
		{`{"byKey": {"b": 2, "a": 1e0}}`, typ("Outer"), `Outer{ByKey: map[string]uint8{"a": 1, "b": 2}}`},
		{`{"byInt": {"-3": "x"}}`, typ("Outer"), `Outer{ByInt: map[int16]string{-3: "x"}}`},
		{`{"fixed": [1, 2]}`, typ("Outer"), `Outer{Fixed: [2]int{1, 2}}`},
		{`{"bytes": "aGk="}`, typ("Outer"), `Outer{Bytes: []byte{104, 105}}`},
		{`{"any": {"n": 9007199254740992, "l": [true, "s", null]}}`, typ("Outer"),
			`Outer{Any: map[string]interface{}{"l": []interface{}{true, "s", nil}, "n": float64(9007199254740992)}}`},
		{`{"mode": null}`, typ("Outer"), `Outer{}`},
		{`{}`, types.NewPointer(typ("Inner")), `&Inner{}`},
		{`3`, types.NewPointer(types.NewPointer(types.Typ[types.Int64])), `ptr(ptr(int64(3)))`},
		// a pointer's conversion only where T would not be inferred as the type
		{`false`, types.NewPointer(types.Typ[types.Bool]), `ptr(false)`},
		{`-3`, types.NewPointer(types.Typ[types.Int]), `ptr(-3)`},
		{`3`, types.NewPointer(types.Typ[types.Float64]), `ptr(float64(3))`},
		{`0.5`, types.NewPointer(types.Typ[types.Float64]), `ptr(0.5)`},
		{`0.5`, types.NewPointer(types.Typ[types.Float32]), `ptr(float32(0.5))`},
		{`"TCP"`, types.NewPointer(typ("Mode")), `ptr(Mode("TCP"))`},

		{`{"Port": 1}`, typ("Inner"), `error: Port: no field Port in Inner; the field is spelled port`},
		{`{"nope": 1}`, typ("Inner"), `error: nope: no field nope in Inner, so Go clients cannot send it`},
		{`{"hidden": "x"}`, typ("Outer"), `error: hidden: the field hidden is unexported`},
		{`{"Skip": "x"}`, typ("Outer"), `error: Skip: no field Skip in Outer`},
		{`{"byInt": {"01": "x"}}`, typ("Outer"), `error: byInt: 01: a key of map[int16]string is an integer`},
		{`{"byInt": {"40000": "x"}}`, typ("Outer"), `error: byInt: 40000: a key of map[int16]string is an integer`},
		{`{"fixed": [1]}`, typ("Outer"), `error: fixed: [2]int holds 2 items`},
		{`{"bytes": "aGk"}`, typ("Outer"), `error: bytes: "aGk" is not base64`},
		{`{"any": 9007199254740993}`, typ("Outer"), `error: any: in an interface{}, numbers are float64: a float64 holds 9007199254740992`},
		{`{"items": [{"port": 2147483648}]}`, typ("Outer"), `error: items: [0]: port: 2147483648 does not fit in an int32 (-2147483648 to 2147483647)`},
		{`{"c": 1}`, typ("HasCustom"), `error: c: Custom has its own UnmarshalJSON`},
		{`{"byMode": {"b": "x", "a": "y"}}`, typ("Keyed"), `Keyed{ByMode: map[Mode]string{"a": "y", "b": "x"}}`},
		{`{"byCustom": {"k": "x"}}`, typ("Keyed"), `error: byCustom: the keys of map[example.com/api.Custom]string have their own UnmarshalJSON`},
		{`[1]`, typ("Inner"), `error: Inner is a struct, the default is a JSON array`},
		{`true`, types.Typ[types.Complex128], `error: a complex128 has no JSON value that encoding/json decodes`},
	} {
		v, err := jsonnum.Decode([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		lit, err := Expr(v, tc.t, env)
		got := lit.Src
		if err != nil {
			got = "error: " + err.Error()
		}
		if strings.HasPrefix(tc.want, "error: ") && strings.HasPrefix(got, tc.want) {
			continue
		}
		if got != tc.want {
			t.Errorf("Expr(%s, %s) =\n\t%s\nwant\n\t%s", tc.json, tc.t, got, tc.want)
		}
		if msg := Check(v, tc.t, env); (msg == "") != (err == nil) {
			t.Errorf("Check(%s, %s) = %q, Expr's error %v", tc.json, tc.t, msg, err)
		}
	}
}

// TestExprOtherPackage: a value of another package's type is qualified,
// and one that names an unexported type of another package is refused
// where the code is written, not where it is only checked.
func TestExprOtherPackage(t *testing.T) {
	pkg := typesOf(t, "package api\n\ntype hidden string\n\ntype Shown string\n")
	other := types.NewPackage("example.com/gen", "gen")
	q := func(p *types.Package) string { return "x" + p.Name() }
	v := any("v")
	hidden := types.NewPointer(pkg.Scope().Lookup("hidden").Type())
	if _, err := Expr(v, hidden, Env{Pkg: other, Qualifier: q}); err == nil || !strings.Contains(err.Error(), "hidden is unexported in package example.com/api") {
		t.Errorf("Expr of an unexported type of another package: %v", err)
	}
	if msg := Check(v, hidden, Env{}); msg != "" {
		t.Errorf("Check: %s", msg)
	}
	lit, err := Expr(v, types.NewPointer(pkg.Scope().Lookup("Shown").Type()), Env{Pkg: other, Qualifier: q, Ptr: "p"})
	if err != nil || lit.Src != `p(xapi.Shown("v"))` || !lit.UsesPtr {
		t.Errorf("Expr = %+v, %v", lit, err)
	}
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		lit  string
		kind types.BasicKind
		want string
	}{
		{"255", types.Uint8, "255"},
		{"256", types.Uint8, "error: 256 does not fit in a uint8 (0 to 255)"},
		{"-0", types.Uint, "0"},
		{"2.5e1", types.Int16, "25"},
		{"2.55e1", types.Int16, "error: not an integer"},
		{"-9223372036854775808", types.Int, "-9223372036854775808"},
		{"9223372036854775808", types.Uint64, "error: 9223372036854775808 does not fit in the apiserver's integers"},
		// not an integer literal: the apiserver reads a float64
		{"10000000000000001.0", types.Int64, "error: 10000000000000001.0 is not written as an integer: the apiserver reads it as the nearest float64 " +
			"and stores 10000000000000000, where Go clients send 10000000000000001; write 10000000000000001"},
		{"10000000000000000.0", types.Int64, "10000000000000000"},
	} {
		got, err := Integer(tc.lit, tc.kind)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && strings.HasPrefix(got, tc.want)) {
			t.Errorf("Integer(%s, %s) = %s, want %s", tc.lit, types.Typ[tc.kind], got, tc.want)
		}
	}
	for _, tc := range []struct {
		lit  string
		bits int
		want string
	}{
		{"0.1", 32, "0.1"},
		{"0.1", 64, "0.1"},
		{"16777216", 32, "16777216"},
		{"16777217", 32, "error: a float32 holds 16777216, not 16777217"},
		{"3.4028235e38", 32, "3.4028235e+38"},
		{"3.5e38", 32, "error: 3.5e38 does not fit in a float32"},
		{"1e-46", 32, "error: 1e-46 is too small for a float32"},
		{"1e-45", 32, "1e-45"},
		{"-0.0", 64, "0"},
		{"1e-7", 64, "1e-7"},
	} {
		got, err := Float(tc.lit, tc.bits)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want && !(strings.HasPrefix(tc.want, "error: ") && strings.HasPrefix(got, tc.want)) {
			t.Errorf("Float(%s, %d) = %s, want %s", tc.lit, tc.bits, got, tc.want)
		}
	}
}

// TestUnexportedElsewhere: an unexported type of another package is found
// wherever a type names it (pointer, slice, array, map key and value,
// struct field, type argument); a type of the package itself, or only
// exported types, or a recursive type without one, names none.
func TestUnexportedElsewhere(t *testing.T) {
	pkg := typesOf(t, `package api

type hidden string

type Shown string

type Box[T any] struct{ V T }

type List struct{ Next *List; V Shown }
`)
	other := types.NewPackage("example.com/gen", "gen")
	named := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	hidden, shown := named("hidden"), named("Shown")
	boxOf := func(arg types.Type) types.Type {
		inst, err := types.Instantiate(nil, named("Box"), []types.Type{arg}, true)
		if err != nil {
			t.Fatal(err)
		}
		return inst
	}
	field := func(typ types.Type) types.Type {
		return types.NewStruct([]*types.Var{types.NewField(token.NoPos, other, "F", typ, false)}, nil)
	}
	for _, tc := range []struct {
		name string
		t    types.Type
		want types.Type // nil: none
	}{
		{"the type", hidden, hidden},
		{"pointer", types.NewPointer(hidden), hidden},
		{"slice", types.NewSlice(hidden), hidden},
		{"array", types.NewArray(hidden, 2), hidden},
		{"map key", types.NewMap(hidden, shown), hidden},
		{"map value", types.NewMap(shown, hidden), hidden},
		{"struct field", field(hidden), hidden},
		{"type argument", boxOf(hidden), hidden},
		{"exported", types.NewMap(shown, types.NewSlice(boxOf(shown))), nil},
		{"recursive", named("List"), nil},
		{"basic", types.Typ[types.String], nil},
	} {
		got := unexportedElsewhere(tc.t, other, map[types.Type]bool{})
		if (got == nil) != (tc.want == nil) || got != nil && got != tc.want {
			t.Errorf("%s: unexportedElsewhere(%s) = %v, want %v", tc.name, tc.t, got, tc.want)
		}
		if got := unexportedElsewhere(tc.t, pkg, map[types.Type]bool{}); got != nil {
			t.Errorf("%s: unexportedElsewhere(%s) in its own package = %v, want none", tc.name, tc.t, got)
		}
	}
}

// TestStructFields: a struct's JSON fields as controller-gen reads them:
// the tag's name, untagged and "-" fields left out, embedded and inline
// structs (through a pointer too) expanded in place with their selector,
// an inline field that is no struct left out, and a struct that inlines
// itself expanded 10 levels deep, no further.
func TestStructFields(t *testing.T) {
	pkg := typesOf(t, "package api\n\n"+
		"type Base struct {\n\tID string `json:\"id\"`\n}\n\n"+
		"type Ptr struct {\n\tNote string `json:\"note\"`\n}\n\n"+
		"type Mode string\n\n"+
		"type S struct {\n"+
		"\tBase `json:\",inline\"`\n"+
		"\t*Ptr `json:\",inline\"`\n"+
		"\tM Mode `json:\",inline\"`\n"+
		"\tName string `json:\"name,omitempty\"`\n"+
		"\tSkip string `json:\"-\"`\n"+
		"\tPlain string\n"+
		"}\n\n"+
		"type R struct {\n\t*R `json:\",inline\"`\n\tX int `json:\"x\"`\n}\n")
	st := func(name string) *types.Struct { return pkg.Scope().Lookup(name).Type().Underlying().(*types.Struct) }
	var got []string
	for _, f := range StructFields(st("S")) {
		got = append(got, f.Name+"="+f.Sel+":"+f.Type.String())
	}
	if want := "id=Base.ID:string note=Ptr.Note:string name=Name:string"; strings.Join(got, " ") != want {
		t.Errorf("StructFields(S) = %s, want %s", strings.Join(got, " "), want)
	}
	fs := StructFields(st("R"))
	if len(fs) != 11 || fs[0].Sel != strings.Repeat("R.", 10)+"X" || fs[10].Sel != "X" {
		var sels []string
		for _, f := range fs {
			sels = append(sels, f.Sel)
		}
		t.Errorf("StructFields(R) = %v, want R.R.….X (10 levels deep) to X", sels)
	}
}

// TestKnownType: a known type by its package path and name, vendored too;
// a type of the same name elsewhere, or of no package (error), is not.
func TestKnownType(t *testing.T) {
	named := func(path, name string) *types.Named {
		p := types.NewPackage(path, path[strings.LastIndex(path, "/")+1:])
		return types.NewNamed(types.NewTypeName(token.NoPos, p, name, nil), types.NewStruct(nil, nil), nil)
	}
	for _, tc := range []struct {
		n    *types.Named
		want known
	}{
		{named("k8s.io/apimachinery/pkg/api/resource", "Quantity"), knownQuantity},
		{named("example.com/m/vendor/k8s.io/apimachinery/pkg/util/intstr", "IntOrString"), knownIntOrString},
		{named("k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1", "JSON"), knownJSON},
		{named("example.com/api", "Quantity"), 0},
		{types.Universe.Lookup("error").Type().(*types.Named), 0},
	} {
		if k, ok := knownType(tc.n); k != tc.want || ok != (tc.want != 0) {
			t.Errorf("knownType(%s) = %d, %v; want %d", tc.n, k, ok, tc.want)
		}
	}
}

// TestCheckOpaque: a type with its own encoding takes any JSON value, and
// Opaque names it with its path; every other part of the value is checked
// as Expr checks it, before or after the opaque part.
func TestCheckOpaque(t *testing.T) {
	pkg := typesOf(t, apiSrc+`
type Both struct {
	C *Custom `+"`json:\"c,omitempty\"`"+`
	N int8 `+"`json:\"n\"`"+`
	ByCustom map[Custom]int8 `+"`json:\"byCustom\"`"+`
}
`)
	typ := func(name string) types.Type { return pkg.Scope().Lookup(name).Type() }
	for _, tc := range []struct {
		json   string
		t      types.Type
		msg    string // Msg, a prefix
		opaque string // Opaque, a prefix
	}{
		{`"720h"`, typ("Custom"), "", "Custom has its own UnmarshalJSON"},
		{`{"c": "0s"}`, typ("HasCustom"), "", "c: Custom has its own UnmarshalJSON"},
		{`{"c": "0s", "n": 1}`, typ("Both"), "", "c: Custom has its own UnmarshalJSON"},
		{`{"c": "0s", "n": 300}`, typ("Both"), "n: 300 does not fit in an int8", ""},
		{`{"c": "0s", "nope": 1}`, typ("Both"), "nope: no field nope in Both", ""},
		{`{"byCustom": {"k": 1}}`, typ("Both"), "", "byCustom: the keys of map[example.com/api.Custom]int8 have their own UnmarshalJSON"},
		{`{"byCustom": {"k": 300}}`, typ("Both"), "byCustom: k: 300 does not fit in an int8", ""},
		{`{"n": 1}`, typ("Both"), "", ""},
		{`"x"`, typ("Inner"), "Inner is a struct", ""},
	} {
		v, err := jsonnum.Decode([]byte(tc.json))
		if err != nil {
			t.Fatal(err)
		}
		got := CheckOpaque(v, tc.t, Env{})
		if !strings.HasPrefix(got.Msg, tc.msg) || (tc.msg == "") != (got.Msg == "") ||
			!strings.HasPrefix(got.Opaque, tc.opaque) || (tc.opaque == "") != (got.Opaque == "") {
			t.Errorf("CheckOpaque(%s, %s) = %+v, want Msg %q, Opaque %q", tc.json, tc.t, got, tc.msg, tc.opaque)
		}
		_, err = Expr(v, tc.t, Env{})
		// Expr stops at the first type with its own encoding, so it may
		// miss what CheckOpaque finds beside it; it never accepts more
		if (err == nil) != (got.Msg == "" && got.Opaque == "") || (got.Opaque != "" && !IsOwnEncoding(err)) {
			t.Errorf("CheckOpaque(%s, %s) = %+v, Expr's error %v (own encoding %v)", tc.json, tc.t, got, err, IsOwnEncoding(err))
		}
	}
}

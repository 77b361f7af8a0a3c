package defaultgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/yaml"

	numbersv1 "github.com/controller-gen-default/controller-gen-default/defaultgen/testdata/numbers/v1"
	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/decision"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/golit"
	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
	"github.com/controller-gen-default/controller-gen-default/internal/model"
	"github.com/controller-gen-default/controller-gen-default/markers"
)

// valuesHarness is testdata/numbers/v1 loaded once, as the crd and defaults
// generators load it: its crd.Parser, the generated schema of Spec, and the
// reflect type of Spec, whose fields the Go defaulter sets.
type valuesHarness struct {
	parser *crd.Parser
	col    *ctmarkers.Collector
	roots  []*loader.Package
	pkg    *loader.Package
	spec   *apiextensionsv1.JSONSchemaProps
	fields []string // JSON names of Spec's fields, in order
}

var valuesOnce struct {
	sync.Once
	h   *valuesHarness
	err error
}

func loadValuesHarness(t testing.TB) *valuesHarness {
	t.Helper()
	valuesOnce.Do(func() {
		var gen genall.Generator = Generator{}
		rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, "./testdata/numbers/v1")
		if err != nil {
			valuesOnce.err = err
			return
		}
		ctx := &rt.GenerationContext
		p := &crd.Parser{Collector: ctx.Collector, Checker: ctx.Checker, AllowDangerousTypes: true}
		crd.AddKnownTypes(p)
		for _, r := range ctx.Roots {
			p.NeedPackage(r)
		}
		kinds := crd.FindKubeKinds(p, crd.FindMetav1(ctx.Roots))
		if len(kinds) != 1 {
			valuesOnce.err = fmt.Errorf("%d kinds, want 1", len(kinds))
			return
		}
		p.NeedCRDFor(kinds[0], nil)
		c := p.CustomResourceDefinitions[kinds[0]]
		spec := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
		h := &valuesHarness{parser: p, col: ctx.Collector, roots: ctx.Roots, pkg: ctx.Roots[0], spec: &spec}
		st := reflect.TypeOf(numbersv1.Spec{})
		for i := range st.NumField() {
			h.fields = append(h.fields, strings.Split(st.Field(i).Tag.Get("json"), ",")[0])
		}
		valuesOnce.h = h
	})
	if valuesOnce.err != nil {
		t.Fatal(valuesOnce.err)
	}
	return valuesOnce.h
}

// valueOutcome is what the generators make of one +default on one field.
type valueOutcome struct {
	field   string            // JSON name
	refused string            // the error, at file:line, when refused
	crd     []byte            // the CRD's default
	lit     string            // the Go expression the defaulter assigns
	mainLit string            // the same, written in a package main
	imports map[string]string // of mainLit
	goJSON  []byte            // the Go value, evaluated as the compiler does, encoded by encoding/json
	apiJSON []byte            // the CRD default as the apiserver stores it, encoded as it writes objects
	// readJSON is apiJSON as a Go client reads it: decoded into the
	// field's Go type, then encoded as that client would send it
	readJSON []byte
	goSource string // the statement of the generated code
}

// run takes the decision the crd and defaults generators take for
// `+default=<text>` on Spec's field named field, as they take it: the
// model's check and decision (decision.Decide, against the generated
// schema and the apiserver's validation of defaults), then the defaults
// generator's emission (setIf). It evaluates the emitted expression as the
// Go compiler does (evalLit), encodes it, and stores the CRD default
// through the apiserver's defaulting (crdcheck.StoredValue).
func (h *valuesHarness) run(t testing.TB, field, text string) valueOutcome {
	t.Helper()
	out := valueOutcome{field: field}
	dm := decision.New(h.parser, h.col, h.roots, decision.Options{Options: model.Options{Implicit: true}})
	obj := h.pkg.Types.Scope().Lookup("Spec")
	id, ok := dm.Types.Lookup(obj.Type().(*types.Named))
	if !ok {
		t.Fatal("Spec is not loaded")
	}
	var f *model.Field
	for _, g := range dm.Types.Fields(id) {
		if g.Tag.Name == field {
			f = g
		}
	}
	if f == nil {
		t.Fatalf("no field %s", field)
	}
	marked := *f
	marked.Markers = ctmarkers.MarkerValues{}
	for k, v := range f.Markers {
		marked.Markers[k] = v
	}
	marked.Markers[markers.DefaultName] = []any{markers.FieldDefault{Default: markers.Default(strings.TrimSpace(text))}}
	orig := h.spec.Properties[field]
	prop := orig.DeepCopy()
	d := dm.Decide(prop, &marked, nil, "spec."+field, nil)
	for _, fnd := range d.Findings {
		if fnd.Sev == model.Error {
			if !fnd.Pos.IsValid() || fnd.Pos.Line == 0 || fnd.Pos.Filename == "" {
				t.Fatalf("+default=%s on %s: refused without file:line: %s", text, field, fnd.Msg)
			}
			out.refused = fmt.Sprintf("%s:%d: %s", fnd.Pos.Filename, fnd.Pos.Line, fnd.Msg)
			return out
		}
	}
	if d.Default == nil {
		t.Fatalf("+default=%s on %s: neither refused nor written: %s", text, field, d)
	}
	out.crd = d.Default

	// the CRD default, written to the CRD's YAML as the crd generator writes
	// it, read back, and stored by the apiserver for an object without the
	// field
	d.Apply(prop)
	prop = crdYAMLRoundTrip(t, prop, text, field)
	wrap := &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{field: *prop}}
	stored, err := crdcheck.StoredValue(wrap, map[string]any{}, true)
	if err != nil {
		t.Fatalf("+default=%s on %s: the apiserver's defaulting: %v", text, field, err)
	}
	v, ok := stored[field]
	if !ok {
		t.Fatalf("+default=%s on %s: the apiserver did not apply the default %s", text, field, d.Default)
	}
	out.apiJSON, err = json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}

	// the Go code, as the defaults generator writes it
	fg := newFileGen(dm, h.pkg)
	out.goSource = fg.setIf("true", "x", string(d.Default), f.Type, f.Pos(), f.GoPath())
	if len(fg.errs) > 0 {
		t.Fatalf("+default=%s on %s: the check accepted %s, the emission refused it: %v", text, field, d.Default, fg.errs)
	}
	out.lit = strings.TrimSuffix(strings.TrimPrefix(out.goSource, "if true {\nx = "), "\n}\n")
	// the same value written in a package main, for TestEmittedValuesCompile
	out.imports = map[string]string{}
	main := types.NewPackage("main", "main")
	mainLit, err := golit.Expr(decodeJSON(t, d.Default), f.Type, golit.Env{
		Fields: dm.Types.LitEnv(nil, nil).Fields, Pkg: main, Ptr: "defaultsPtr",
		Qualifier: func(p *types.Package) string {
			name := p.Name()
			switch p.Path() {
			case h.pkg.PkgPath:
				name = "numbersv1"
			case "k8s.io/apimachinery/pkg/apis/meta/v1":
				name = "metav1"
			}
			out.imports[p.Path()] = name
			return name
		},
	})
	if err != nil {
		t.Fatalf("+default=%s on %s: %s cannot be written in package main: %v", text, field, d.Default, err)
	}
	out.mainLit = mainLit.Src
	ft, _ := reflect.TypeOf(numbersv1.Spec{}).FieldByName(f.Sel)
	rv, err := evalLit(out.lit, ft.Type)
	if err != nil {
		t.Fatalf("+default=%s on %s: the generated code `%s` does not compile: %v", text, field, out.lit, err)
	}
	out.goJSON, err = json.Marshal(rv.Interface())
	if err != nil {
		t.Fatal(err)
	}
	read := reflect.New(ft.Type)
	if err := json.Unmarshal(out.apiJSON, read.Interface()); err != nil {
		t.Fatalf("+default=%s on %s: a Go client cannot read what the apiserver stores, %s: %v", text, field, out.apiJSON, err)
	}
	if out.readJSON, err = json.Marshal(read.Elem().Interface()); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzDefaultValues is the differential target on marker values × Go
// kinds: for `+default=<text>` on a field of each kind of
// testdata/numbers/v1, the generators either refuse it with an error at
// the marker's file:line, or the value the Go defaulter sets is the value
// a Go client reads from what the apiserver stores for the CRD default
// (both encoded by encoding/json: the CRD keeps the author's literal,
// "60s", which Go reads as the duration it writes "1m0s"). Nothing
// panics, and the emitted expression compiles (evalLit applies the
// compiler's rules for constants: go/constant, which the compiler uses;
// TestEmittedValuesCompile compiles the seed corpus's for real).
//
// The seed corpus is testdata/fuzz/FuzzDefaultValues, run by `go test`. To
// fuzz: go test ./defaultgen -run '^$' -fuzz '^FuzzDefaultValues$' -parallel 1
func FuzzDefaultValues(f *testing.F) {
	h := loadValuesHarness(f)
	f.Fuzz(func(t *testing.T, field, text string) {
		if strings.ContainsAny(text, "\r\n") || !utf8.ValidString(text) {
			t.Skip("a marker is one line of a Go comment")
		}
		field = h.pick(field)
		o := h.run(t, field, text)
		if o.refused != "" {
			return
		}
		if !jsonnum.EqualJSON(o.goJSON, o.readJSON) {
			t.Fatalf("+default=%s on %s: the Go defaulter sets %s (`%s`), a Go client reads %s where the apiserver stores %s (CRD default %s)",
				text, field, o.goJSON, o.lit, o.readJSON, o.apiJSON, o.crd)
		}
	})
}

func decodeJSON(t testing.TB, raw []byte) any {
	t.Helper()
	v, err := jsonnum.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// fieldSel is the Go name of Spec's field with the JSON name.
func fieldSel(t testing.TB, name string) string {
	st := reflect.TypeOf(numbersv1.Spec{})
	for i := range st.NumField() {
		if strings.Split(st.Field(i).Tag.Get("json"), ",")[0] == name {
			return st.Field(i).Name
		}
	}
	t.Fatalf("no field %s", name)
	return ""
}

// pick is the field named name, or one chosen by it.
func (h *valuesHarness) pick(name string) string {
	for _, f := range h.fields {
		if f == name {
			return f
		}
	}
	n := 0
	for _, c := range name {
		n = n*31 + int(c)
	}
	if n < 0 {
		n = -n
	}
	return h.fields[n%len(h.fields)]
}

// evalLit evaluates a Go expression that the defaults generator emits as
// the compiler does, into a value of type t: constants by go/constant
// (which cmd/compile uses), representable in their type or refused, as the
// compiler refuses them; conversions, composite literals, &, nil, the
// pointer helper, intstr's constants and resource.MustParse.
func evalLit(src string, t reflect.Type) (reflect.Value, error) {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return reflect.Value{}, err
	}
	return eval(e, t)
}

func eval(e ast.Expr, t reflect.Type) (reflect.Value, error) {
	if c, ok := constOf(e); ok {
		return convertConst(c, t)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(e.X, t)
	case *ast.Ident:
		if e.Name == "nil" {
			return reflect.Zero(t), nil
		}
	case *ast.SelectorExpr:
		switch types.ExprString(e) {
		case "intstr.String":
			return reflect.ValueOf(intstr.String).Convert(t), nil
		case "intstr.Int":
			return reflect.ValueOf(intstr.Int).Convert(t), nil
		}
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if t.Kind() != reflect.Pointer {
				return reflect.Value{}, fmt.Errorf("&%s for a %s", types.ExprString(e.X), t)
			}
			v, err := eval(e.X, t.Elem())
			if err != nil {
				return v, err
			}
			p := reflect.New(t.Elem())
			p.Elem().Set(v)
			return p, nil
		}
	case *ast.CallExpr:
		fun := types.ExprString(e.Fun)
		if len(e.Args) != 1 && fun != "time.Unix" {
			break
		}
		switch {
		case strings.HasPrefix(fun, "defaultsPtr"):
			if t.Kind() != reflect.Pointer {
				return reflect.Value{}, fmt.Errorf("%s for a %s", fun, t)
			}
			v, err := eval(e.Args[0], t.Elem())
			if err != nil {
				return v, err
			}
			p := reflect.New(t.Elem())
			p.Elem().Set(v)
			return p, nil
		case fun == "time.Unix" && len(e.Args) == 2:
			sec, ok1 := constOf(e.Args[0])
			nsec, ok2 := constOf(e.Args[1])
			s, ok3 := constant.Int64Val(sec)
			n, ok4 := constant.Int64Val(nsec)
			if !ok1 || !ok2 || !ok3 || !ok4 {
				return reflect.Value{}, fmt.Errorf("time.Unix of %s", types.ExprString(e))
			}
			return reflect.ValueOf(time.Unix(s, n)), nil
		case fun == "resource.MustParse":
			c, ok := constOf(e.Args[0])
			if !ok || c.Kind() != constant.String {
				return reflect.Value{}, fmt.Errorf("resource.MustParse of %s", types.ExprString(e.Args[0]))
			}
			return reflect.ValueOf(resource.MustParse(constant.StringVal(c))), nil
		case fun == t.String() || fun == t.Kind().String():
			return eval(e.Args[0], t) // a conversion to t, of a constant
		}
		return reflect.Value{}, fmt.Errorf("call %s for a %s", fun, t)
	case *ast.CompositeLit:
		return evalComposite(e, t)
	}
	return reflect.Value{}, fmt.Errorf("cannot evaluate %s as a %s", types.ExprString(e), t)
}

func evalComposite(e *ast.CompositeLit, t reflect.Type) (reflect.Value, error) {
	switch t.Kind() {
	case reflect.Slice:
		s := reflect.MakeSlice(t, 0, len(e.Elts))
		for _, el := range e.Elts {
			v, err := eval(el, t.Elem())
			if err != nil {
				return v, err
			}
			s = reflect.Append(s, v)
		}
		return s, nil
	case reflect.Map:
		m := reflect.MakeMapWithSize(t, len(e.Elts))
		for _, el := range e.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				return reflect.Value{}, fmt.Errorf("map element %s", types.ExprString(el))
			}
			k, err := eval(kv.Key, t.Key())
			if err != nil {
				return k, err
			}
			if m.MapIndex(k).IsValid() {
				return reflect.Value{}, fmt.Errorf("duplicate key %s in map literal", types.ExprString(kv.Key))
			}
			v, err := eval(kv.Value, t.Elem())
			if err != nil {
				return v, err
			}
			m.SetMapIndex(k, v)
		}
		return m, nil
	case reflect.Struct:
		s := reflect.New(t).Elem()
		for _, el := range e.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				return reflect.Value{}, fmt.Errorf("struct element %s", types.ExprString(el))
			}
			name, ok := kv.Key.(*ast.Ident)
			if !ok {
				return reflect.Value{}, fmt.Errorf("struct key %s", types.ExprString(kv.Key))
			}
			sf, ok := t.FieldByName(name.Name)
			if !ok || len(sf.Index) != 1 {
				return reflect.Value{}, fmt.Errorf("no field %s in %s", name.Name, t)
			}
			v, err := eval(kv.Value, sf.Type)
			if err != nil {
				return v, err
			}
			s.Field(sf.Index[0]).Set(v)
		}
		return s, nil
	}
	return reflect.Value{}, fmt.Errorf("composite literal %s for a %s", types.ExprString(e), t)
}

// constOf is the value of a constant expression: literals, true, false,
// and unary + and - of constants.
func constOf(e ast.Expr) (constant.Value, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		c := constant.MakeFromLiteral(e.Value, e.Kind, 0)
		return c, c.Kind() != constant.Unknown
	case *ast.ParenExpr:
		return constOf(e.X)
	case *ast.Ident:
		switch e.Name {
		case "true":
			return constant.MakeBool(true), true
		case "false":
			return constant.MakeBool(false), true
		}
	case *ast.UnaryExpr:
		if e.Op != token.SUB && e.Op != token.ADD {
			return nil, false
		}
		x, ok := constOf(e.X)
		if !ok {
			return nil, false
		}
		return constant.UnaryOp(e.Op, x, 0), true
	}
	return nil, false
}

// convertConst is an untyped constant assigned to a variable of type t, as
// the compiler converts it (go/types' representable): an error where the
// compiler's is.
func convertConst(c constant.Value, t reflect.Type) (reflect.Value, error) {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.String:
		if c.Kind() != constant.String {
			return v, fmt.Errorf("cannot use %s as %s", c, t)
		}
		v.SetString(constant.StringVal(c))
	case reflect.Bool:
		if c.Kind() != constant.Bool {
			return v, fmt.Errorf("cannot use %s as %s", c, t)
		}
		v.SetBool(constant.BoolVal(c))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := constant.ToInt(c)
		if i.Kind() != constant.Int {
			return v, fmt.Errorf("%s truncated to %s", c, t)
		}
		x, exact := constant.Int64Val(i)
		if !exact || v.OverflowInt(x) {
			return v, fmt.Errorf("%s overflows %s", c, t)
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		i := constant.ToInt(c)
		if i.Kind() != constant.Int {
			return v, fmt.Errorf("%s truncated to %s", c, t)
		}
		x, exact := constant.Uint64Val(i)
		if !exact || constant.Sign(i) < 0 || v.OverflowUint(x) {
			return v, fmt.Errorf("%s overflows %s", c, t)
		}
		v.SetUint(x)
	case reflect.Float32:
		fc := constant.ToFloat(c)
		if fc.Kind() != constant.Float && fc.Kind() != constant.Int {
			return v, fmt.Errorf("cannot use %s as %s", c, t)
		}
		x, _ := constant.Float32Val(fc)
		if math.IsInf(float64(x), 0) {
			return v, fmt.Errorf("%s overflows %s", c, t)
		}
		v.SetFloat(float64(x))
	case reflect.Float64:
		fc := constant.ToFloat(c)
		if fc.Kind() != constant.Float && fc.Kind() != constant.Int {
			return v, fmt.Errorf("cannot use %s as %s", c, t)
		}
		x, _ := constant.Float64Val(fc)
		if math.IsInf(x, 0) {
			return v, fmt.Errorf("%s overflows %s", c, t)
		}
		v.SetFloat(x)
	default:
		return v, fmt.Errorf("constant %s for a %s", c, t)
	}
	return v, nil
}

// crdYAMLRoundTrip is prop as it comes back from the CRD file: written as
// controller-tools' genall.WriteYAML writes it (JSON decoded with
// UseNumber, sigs.k8s.io/yaml.Marshal) and read as the apiserver's clients
// read it (sigs.k8s.io/yaml.Unmarshal). A writer's error is a failure: the
// check must have refused the default at its marker.
func crdYAMLRoundTrip(t testing.TB, prop *apiextensionsv1.JSONSchemaProps, text, field string) *apiextensionsv1.JSONSchemaProps {
	t.Helper()
	j, err := json.Marshal(prop)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(m)
	if err != nil {
		t.Fatalf("+default=%s on %s: accepted, and the CRD writer fails: %v", text, field, err)
	}
	back := &apiextensionsv1.JSONSchemaProps{}
	if err := yaml.Unmarshal(y, back); err != nil {
		t.Fatalf("+default=%s on %s: accepted, and the CRD does not read back: %v\n%s", text, field, err, y)
	}
	return back
}

// FuzzStringDefaults is FuzzDefaultValues on strings over the whole
// Unicode range: s, as a JSON string (raw: s is the JSON text itself, for
// lone surrogates such as "\ud800"), is the +default of a string field, a
// string list's item and a map's key. Each is refused at the marker naming
// the character (U+XXXX), or the string the Go defaulter sets is the one
// the apiserver stores from the CRD file as the crd generator writes it.
//
// To fuzz: go test ./defaultgen -run '^$' -fuzz '^FuzzStringDefaults$' -parallel 1
func FuzzStringDefaults(f *testing.F) {
	h := loadValuesHarness(f)
	for _, s := range []string{"a\u0007b", "\x00", "\t\u000b\u000c", "\x7f", "a\u0080", "\u0085", "x\u009f", "\u00a0",
		"\u2028", "\u2029", "\ufeff", "\ufeffbom", "\ufdd0", "\ufffe", "\uffff", "\U0001fffe", "\U0010ffff", "\U0001F600", "\ufffd",
		" lead", "trail ", "\r\n", "---", "null", "~", "yes"} {
		f.Add(s, false)
	}
	for _, raw := range []string{`"\ud800"`, `"a\udfffb"`, `"\ud83d\ude00"`, `"\u0085"`, `"\u2028\u2029"`} {
		f.Add(raw, true)
	}
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		text := s
		if !raw {
			b, err := json.Marshal(s)
			if err != nil {
				t.Skip()
			}
			text = string(b)
		}
		var str string
		if strings.ContainsAny(text, "\r\n") || !utf8.ValidString(text) || json.Unmarshal([]byte(text), &str) != nil || !strings.HasPrefix(text, `"`) {
			t.Skip("a marker is one line of a Go comment, and this target is about strings")
		}
		for _, c := range []struct{ field, text string }{
			{"string", text},
			{"listString", "[" + text + "]"},
			{"mapUint8", "{" + text + ": 1}"},
		} {
			o := h.run(t, c.field, c.text)
			if o.refused != "" {
				if !strings.Contains(o.refused, "U+") {
					t.Errorf("+default=%s on %s: refused without naming the character: %s", c.text, c.field, o.refused)
				}
				continue
			}
			if !jsonnum.EqualJSON(o.goJSON, o.readJSON) {
				t.Errorf("+default=%s on %s: the Go defaulter sets %s (`%s`), a Go client reads %s where the apiserver stores %s (CRD default %s)",
					c.text, c.field, o.goJSON, o.lit, o.readJSON, o.apiJSON, o.crd)
			}
		}
	})
}

package markers

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctmarkers "sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// registry is controller-tools' CRD markers with ours registered over
// them, as the crd generator has them (model.RegisterMarkers).
func registry(t testing.TB) *ctmarkers.Registry {
	t.Helper()
	reg := &ctmarkers.Registry{}
	if err := (crd.Generator{}).RegisterMarkers(reg); err != nil {
		t.Fatal(err)
	}
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// parse parses one marker comment (without its "//") as the collector
// does for target.
func parse(t testing.TB, reg *ctmarkers.Registry, target ctmarkers.TargetType, text string) (any, error) {
	t.Helper()
	def := reg.Lookup(text, target)
	if def == nil {
		t.Fatalf("no marker definition for %q on %v", text, target)
	}
	return def.Parse(text)
}

// TestRegister: +default on fields and types and +implicitDefaults on
// fields, types and packages are ours, over controller-tools' +default,
// with help for `crd -ww`; controller-tools' +kubebuilder:default stays.
func TestRegister(t *testing.T) {
	reg := registry(t)
	for _, tc := range []struct {
		marker string
		target ctmarkers.TargetType
		output any
	}{
		{"+default", ctmarkers.DescribesField, FieldDefault{}},
		{"+default", ctmarkers.DescribesType, Default("")},
		{"+implicitDefaults", ctmarkers.DescribesField, Implicit(false)},
		{"+implicitDefaults", ctmarkers.DescribesType, Implicit(false)},
		{"+implicitDefaults", ctmarkers.DescribesPackage, Implicit(false)},
		{"+kubebuilder:default", ctmarkers.DescribesField, crdmarkers.Default{}},
	} {
		def := reg.Lookup(tc.marker, tc.target)
		if def == nil {
			t.Errorf("%s on %v: not registered", tc.marker, tc.target)
			continue
		}
		if def.Output != reflect.TypeOf(tc.output) {
			t.Errorf("%s on %v: output %v, want %T", tc.marker, tc.target, def.Output, tc.output)
		}
		if tc.marker == "+kubebuilder:default" {
			continue
		}
		if h := reg.HelpFor(def); h == nil || h.Category != "CRD defaults (KEP-1929)" || h.Summary == "" {
			t.Errorf("%s on %v: help %+v", tc.marker, tc.target, h)
		}
	}
	if reg.Lookup("+default", ctmarkers.DescribesPackage) != nil {
		t.Error("+default is registered on packages, where it means nothing")
	}
}

// TestRegistered: a registry with ours registered last holds this
// package's definitions; one where controller-tools' CRD markers were
// registered after ours (as a generator registered after crd's does), or
// where ours never were, is refused, naming the marker, what it is, and
// the fix.
func TestRegistered(t *testing.T) {
	if err := Registered(registry(t)); err != nil {
		t.Errorf("ours last: %v", err)
	}
	later := registry(t)
	if err := crdmarkers.Register(later); err != nil {
		t.Fatal(err)
	}
	err := Registered(later)
	if err == nil || !strings.Contains(err.Error(), "+default field marker is sigs.k8s.io/controller-tools/pkg/crd/markers.KubernetesDefault, not github.com/controller-gen-default/controller-gen-default/markers.FieldDefault") ||
		!strings.Contains(err.Error(), "call markers.Register after every generator has registered its markers") {
		t.Errorf("controller-tools' +default after ours: %v", err)
	}
	theirs := &ctmarkers.Registry{}
	if err := crdmarkers.Register(theirs); err != nil {
		t.Fatal(err)
	}
	if err := Registered(theirs); err == nil {
		t.Error("controller-tools' markers alone: accepted")
	}
	if err := Registered(&ctmarkers.Registry{}); err == nil || !strings.Contains(err.Error(), "has no +default field marker") {
		t.Errorf("an empty registry: %v", err)
	}
}

// TestParseDefault: the marker keeps the text after "=" as written, spaces
// around it trimmed, on fields and on types; it never fails, since the
// value is read where the field and its position are known.
func TestParseDefault(t *testing.T) {
	reg := registry(t)
	for _, tc := range []struct {
		text, want string
	}{
		{`+default=32`, `32`},
		{`+default="TCP"`, `"TCP"`},
		{`+default= "TCP" `, `"TCP"`},
		{`+default={"port": 80, "name": "http"}`, `{"port": 80, "name": "http"}`},
		{`+default=["popcorn", "chips"]`, `["popcorn", "chips"]`},
		{`+default=ref(DefaultProtocol)`, `ref(DefaultProtocol)`},
		{`+default=ref(k8s.io/api/core/v1.ProtocolUDP)`, `ref(k8s.io/api/core/v1.ProtocolUDP)`},
		{`+default=TCP`, `TCP`}, // not JSON: Evaluate says so
		{`+default=`, ``},
		{`+default={"a":"x=y"}`, `{"a":"x=y"}`},
		{`+default="a,b;c"`, `"a,b;c"`},
	} {
		got, err := parse(t, reg, ctmarkers.DescribesField, tc.text)
		if err != nil {
			t.Errorf("field %s: %v", tc.text, err)
		} else if got != (FieldDefault{Default(tc.want)}) {
			t.Errorf("field %s = %#v, want %q", tc.text, got, tc.want)
		}
		got, err = parse(t, reg, ctmarkers.DescribesType, tc.text)
		if err != nil {
			t.Errorf("type %s: %v", tc.text, err)
		} else if got != Default(tc.want) {
			t.Errorf("type %s = %#v, want %q", tc.text, got, tc.want)
		}
	}
}

// TestParseImplicit: +implicitDefaults is a bool, as controller-tools
// parses bools: true or false; no value, or any other, is an error.
func TestParseImplicit(t *testing.T) {
	reg := registry(t)
	for _, tc := range []struct {
		text    string
		want    Implicit
		wantErr bool
	}{
		{"+implicitDefaults=false", false, false},
		{"+implicitDefaults=true", true, false},
		{"+implicitDefaults", false, true},
		{"+implicitDefaults=no", false, true},
		{`+implicitDefaults="false"`, false, true},
	} {
		for _, target := range []ctmarkers.TargetType{ctmarkers.DescribesField, ctmarkers.DescribesType, ctmarkers.DescribesPackage} {
			got, err := parse(t, reg, target, tc.text)
			if (err != nil) != tc.wantErr {
				t.Errorf("%s on %v: err = %v, want error %v", tc.text, target, err, tc.wantErr)
				continue
			}
			if err == nil && got != tc.want {
				t.Errorf("%s on %v = %#v, want %v", tc.text, target, got, tc.want)
			}
		}
	}
}

func TestRef(t *testing.T) {
	for _, tc := range []struct {
		value string
		name  string
		ok    bool
	}{
		{"ref(Name)", "Name", true},
		{"ref( Name )", "Name", true},
		{"ref(k8s.io/api/core/v1.ProtocolUDP)", "k8s.io/api/core/v1.ProtocolUDP", true},
		{"ref()", "", true}, // Evaluate: ref() names no constant
		{"ref(Name", "", false},
		{"Name)", "", false},
		{"ref", "", false},
		{"REF(Name)", "", false},
		{`"ref(Name)"`, "", false}, // a JSON string
		{" ref(Name)", "", false},  // ParseMarker trims; Ref reads the value as kept
		{"", "", false},
	} {
		name, ok := Default(tc.value).Ref()
		if name != tc.name || ok != tc.ok {
			t.Errorf("Default(%q).Ref() = %q, %v; want %q, %v", tc.value, name, ok, tc.name, tc.ok)
		}
	}
}

var refsOnce struct {
	sync.Once
	pkg *loader.Package
	err error
}

// refsPackage is testdata/refs, loaded and type-checked once.
func refsPackage(t testing.TB) *loader.Package {
	t.Helper()
	refsOnce.Do(func() {
		pkgs, err := loader.LoadRoots("./testdata/refs")
		if err != nil {
			refsOnce.err = err
			return
		}
		if len(pkgs) != 1 {
			refsOnce.err = fmt.Errorf("loaded %d packages, want 1", len(pkgs))
			return
		}
		refsOnce.pkg = pkgs[0]
		// as the generators do: the package and its imports
		(&loader.TypeChecker{}).Check(refsOnce.pkg)
		if len(refsOnce.pkg.Errors) > 0 {
			refsOnce.err = refsOnce.pkg.Errors[0]
		}
	})
	if refsOnce.err != nil {
		t.Fatal(refsOnce.err)
	}
	return refsOnce.pkg
}

const refsPath = "github.com/controller-gen-default/controller-gen-default/markers/testdata/refs"

// TestEvaluate: a value is JSON, decoded and encoded again as
// controller-gen encodes +default, or ref() of a constant of the marker's
// package or of a package it imports. Anything else is a ValueError of
// the right kind, whose message says how to write the value.
func TestEvaluate(t *testing.T) {
	pkg := refsPackage(t)
	for _, tc := range []struct {
		value string
		raw   string // want, when the value evaluates
		exact string // the number as evaluated, when it is one, every digit

		kind ErrKind  // want, when it does not
		msg  []string // in the error message
	}{
		{value: `"TCP"`, raw: `"TCP"`},
		{value: `3`, raw: `3`},
		{value: `-7`, raw: `-7`},
		{value: `true`, raw: `true`},
		{value: `null`, raw: `null`}, // refused by the generators, with the field's position
		{value: `{"port": 80, "name": "http"}`, raw: `{"name":"http","port":80}`},
		{value: `[ "popcorn", "chips" ]`, raw: `["popcorn","chips"]`},
		{value: `{}`, raw: `{}`},
		{value: `[]`, raw: `[]`},
		{value: `{"a": {"b": [1, {"c": null}]}}`, raw: `{"a":{"b":[1,{"c":null}]}}`},
		{value: `"ref(Str)"`, raw: `"ref(Str)"`}, // a JSON string, not a ref
		{value: `ref(Str)`, raw: `"TCP"`},
		{value: `ref(Untyped)`, raw: `"UDP"`},
		{value: `ref( Int )`, raw: `3`},
		{value: `ref(Negative)`, raw: `-7`},
		{value: `ref(Half)`, raw: `0.5`},
		{value: `ref(Yes)`, raw: `true`},
		{value: `ref(Tiny)`, raw: `8.673617379884035e-19`, exact: "8.67361737988403547205962240695953369140625e-19"},
		{value: `ref(` + refsPath + `.Str)`, raw: `"TCP"`},
		{value: `ref(` + refsPath + `/other.Name)`, raw: `"from-other"`},
		{value: `ref(` + refsPath + `/other.DefaultPort)`, raw: `8080`},

		{value: `TCP`, kind: ErrInvalidJSON, msg: []string{"+default=TCP is not valid JSON", `strings need double quotes, e.g. +default="TCP"`, "ref(Name)"}},
		{value: ``, kind: ErrInvalidJSON, msg: []string{"+default= is not valid JSON"}},
		{value: `{"a": 1,}`, kind: ErrInvalidJSON, msg: []string{"is not valid JSON"}},
		{value: `{"a": 1, "a": 2}`, kind: ErrInvalidJSON, msg: []string{`the object at "$" holds the key "a" twice`, "write each key once"}},
		{value: `{"p": [{"n": "x", "n": "y"}]}`, kind: ErrInvalidJSON, msg: []string{`the object at "$.p[0]" holds the key "n" twice`}},
		{value: `1 2`, kind: ErrInvalidJSON, msg: []string{"is not valid JSON"}},
		{value: `[` + strings.Repeat(`1,`, 150) + `x]`, kind: ErrInvalidJSON, msg: []string{"+default=[1,1,1", "1,1… (303 bytes in all) is not valid JSON"}},
		{value: `'x'`, kind: ErrInvalidJSON, msg: []string{"is not valid JSON"}},
		{value: `ref(Missing)`, kind: ErrUnresolvedRef, msg: []string{"+default=ref(Missing): no constant Missing in package " + refsPath}},
		{value: `ref()`, kind: ErrUnresolvedRef, msg: []string{"+default=ref(): ref() names no constant: write ref(Name)"}},
		{value: `ref(example.com/x.)`, kind: ErrUnresolvedRef, msg: []string{"ref() names no constant"}},
		{value: `ref(Var)`, kind: ErrUnresolvedRef, msg: []string{"Var in package " + refsPath + " is a variable, not a constant; ref() takes a constant"}},
		{value: `ref(Type)`, kind: ErrUnresolvedRef, msg: []string{"is a type, not a constant; ref() takes a constant"}},
		{value: `ref(Complex)`, kind: ErrUnresolvedRef, msg: []string{"constant (1 + 2i) cannot be a JSON default"}},
		{value: `ref(k8s.io/api/core/v1.ProtocolTCP)`, kind: ErrUnresolvedRef,
			msg: []string{`package "k8s.io/api/core/v1" is not imported by ` + refsPath + `; import it or use a constant of this package`}},
		{value: `ref(` + refsPath + `/other.Missing)`, kind: ErrUnresolvedRef, msg: []string{"no constant Missing in package " + refsPath + "/other"}},
		{value: `ref(.Str)`, kind: ErrUnresolvedRef, msg: []string{"no constant .Str in package"}},
	} {
		raw, value, err := Default(tc.value).Evaluate(pkg)
		if tc.msg == nil {
			if err != nil {
				t.Errorf("+default=%s: %v", tc.value, err)
				continue
			}
			if string(raw) != tc.raw {
				t.Errorf("+default=%s = %s, want %s", tc.value, raw, tc.raw)
			}
			if tc.exact != "" && value != Number(tc.exact) {
				t.Errorf("+default=%s: value %#v, want %s exactly", tc.value, value, tc.exact)
			}
			if want := decodeJSON(t, raw); tc.exact == "" && !reflect.DeepEqual(value, want) {
				t.Errorf("+default=%s: value %#v, want %#v (raw decoded)", tc.value, value, want)
			}
			continue
		}
		ve, ok := errors.AsType[*ValueError](err)
		if !ok {
			t.Errorf("+default=%s: err = %v (%T), want a *ValueError", tc.value, err, err)
			continue
		}
		if raw != nil || value != nil {
			t.Errorf("+default=%s: error and a value %s", tc.value, raw)
		}
		if ve.Kind != tc.kind {
			t.Errorf("+default=%s: kind %v, want %v", tc.value, ve.Kind, tc.kind)
		}
		for _, m := range tc.msg {
			if !strings.Contains(ve.Error(), m) {
				t.Errorf("+default=%s: error %q lacks %q", tc.value, ve.Error(), m)
			}
		}
	}
}

// TestFieldDefaultApplyToSchema: schemapatch and controller-tools'
// generators get the field's value through the marker, as controller-gen's
// own +default writes it; what does not evaluate, and null, are left to the
// crd and defaults generators to report.
func TestFieldDefaultApplyToSchema(t *testing.T) {
	pkg := refsPackage(t)
	ctx := &crdmarkers.SchemaContext{Package: pkg}
	for _, tc := range []struct {
		value string
		ctx   *crdmarkers.SchemaContext
		want  string // "" for no default
	}{
		{`{"b": 1, "a": 2}`, ctx, `{"a":2,"b":1}`},
		{`ref(Str)`, ctx, `"TCP"`},
		{`TCP`, ctx, ``},
		{`ref(Missing)`, ctx, ``},
		{`null`, ctx, ``},
		{`3`, nil, ``},
		{`3`, &crdmarkers.SchemaContext{}, ``},
	} {
		s := &apiextensionsv1.JSONSchemaProps{Type: "string"}
		if err := (FieldDefault{Default(tc.value)}).ApplyToSchema(tc.ctx, s); err != nil {
			t.Errorf("+default=%s: %v", tc.value, err)
		}
		got := ""
		if s.Default != nil {
			got = string(s.Default.Raw)
		}
		if got != tc.want {
			t.Errorf("+default=%s: schema default %q, want %q", tc.value, got, tc.want)
		}
		if s.Type != "string" {
			t.Errorf("+default=%s: changed the schema's type to %q", tc.value, s.Type)
		}
	}
}

// TestApplyPriority: +default applies before +kubebuilder:default (and
// every marker of default priority), so that +kubebuilder:default's value
// is the one controller-tools leaves where both are set, as with
// controller-tools' own +default.
func TestApplyPriority(t *testing.T) {
	if p := (FieldDefault{}).ApplyPriority(); p >= crdmarkers.ApplyPriorityDefault {
		t.Errorf("FieldDefault.ApplyPriority() = %d, want below ApplyPriorityDefault (%d)", p, crdmarkers.ApplyPriorityDefault)
	}
	var kb any = crdmarkers.Default{}
	if pm, ok := kb.(interface {
		ApplyPriority() crdmarkers.ApplyPriority
	}); ok && pm.ApplyPriority() <= (FieldDefault{}).ApplyPriority() {
		t.Errorf("+kubebuilder:default applies at %d, before +default at %d", pm.ApplyPriority(), (FieldDefault{}).ApplyPriority())
	}
}

func decodeJSON(t testing.TB, raw []byte) any {
	t.Helper()
	v, err := jsonnum.Decode(raw) // numbers exact, as Evaluate keeps them
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}

package jsontag

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Inner is the embedded struct of the types the tests build.
type Inner struct {
	X string `json:"x"`
}

// Named is an embedded type that is not a struct.
type Named string

// encodedKeys is what encoding/json writes for a struct of one field,
// f, whose value is not empty: the keys of the object.
func encodedKeys(t *testing.T, f reflect.StructField) []string {
	t.Helper()
	typ := reflect.StructOf([]reflect.StructField{f})
	v := reflect.New(typ).Elem()
	fv := v.Field(0)
	switch fv.Kind() {
	case reflect.String:
		fv.SetString("v")
	case reflect.Struct:
		fv.Field(0).SetString("v")
	case reflect.Pointer:
		fv.Set(reflect.ValueOf(&Inner{X: "v"}))
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// readingKeys is the keys of the same object as r says.
func readingKeys(r Reading) []string {
	switch {
	case r.Skip:
		return nil
	case r.Inline:
		return []string{"x"}
	}
	return []string{r.Name}
}

// fieldsFor are the fields the tests tag with tag: a string, a struct, an
// embedded struct, an embedded pointer to a struct and an embedded named
// string.
func fieldsFor(tag string) []struct {
	sf reflect.StructField
	f  Field
} {
	st := reflect.StructTag(`json:` + strconv.Quote(tag))
	inner := reflect.TypeFor[Inner]()
	return []struct {
		sf reflect.StructField
		f  Field
	}{
		{reflect.StructField{Name: "Plain", Type: reflect.TypeFor[string](), Tag: st}, Field{Name: "Plain", Tag: st}},
		{reflect.StructField{Name: "Spec", Type: inner, Tag: st}, Field{Name: "Spec", Tag: st}},
		{reflect.StructField{Name: "Inner", Type: inner, Tag: st, Anonymous: true}, Field{Name: "Inner", Embedded: true, Struct: true, Tag: st}},
		{reflect.StructField{Name: "Inner", Type: reflect.PointerTo(inner), Tag: st, Anonymous: true}, Field{Name: "Inner", Embedded: true, Struct: true, Tag: st}},
		{reflect.StructField{Name: "Named", Type: reflect.TypeFor[Named](), Tag: st, Anonymous: true}, Field{Name: "Named", Embedded: true, Tag: st}},
	}
}

// TestEncodingJSON: EncodingJSON puts each field where encoding/json
// writes it, for tags that encoding/json and controller-gen read alike
// and for those they read otherwise.
func TestEncodingJSON(t *testing.T) {
	for _, tag := range []string{
		"name", "name,omitempty", "", ",omitempty", ",inline", "name,inline", "-", "-,", "-,omitempty",
		"with space", "a:b", "dots.and-dashes", "quote\"d", "back\\slash", "comma's", "ünïcödé", "emoji😀", "a`b",
		"name,string", "name,omitzero", " ", "x,inline,omitempty",
	} {
		for _, c := range fieldsFor(tag) {
			got, want := readingKeys(EncodingJSON(c.f)), encodedKeys(t, c.sf)
			if !slices.Equal(got, want) {
				t.Errorf("json:%q on %s (embedded %v): EncodingJSON %v, encoding/json writes %q", tag, c.sf.Type, c.sf.Anonymous, EncodingJSON(c.f), want)
			}
		}
	}
}

// TestEncodingJSONUnexported: encoding/json skips unexported fields, but
// for embedded structs, whose exported fields it promotes (reflect.StructOf
// cannot build unexported fields: these types are written out).
func TestEncodingJSONUnexported(t *testing.T) {
	type inner = Inner
	type named = Named
	for _, c := range []struct {
		v any
		f Field
	}{
		// (encoding/json skips it before it reads the tag, which go vet
		// would refuse here)
		{struct {
			hidden string
		}{"v"}, Field{Name: "hidden", Tag: `json:"hidden"`}},
		{struct {
			inner `json:",inline"`
		}{inner{"v"}}, Field{Name: "inner", Embedded: true, Struct: true, Tag: `json:",inline"`}},
		{struct {
			inner `json:"in"`
		}{inner{"v"}}, Field{Name: "inner", Embedded: true, Struct: true, Tag: `json:"in"`}},
		{struct {
			named `json:"n"`
		}{"v"}, Field{Name: "named", Embedded: true, Tag: `json:"n"`}},
	} {
		b, _ := json.Marshal(c.v)
		var obj map[string]any
		_ = json.Unmarshal(b, &obj)
		var want []string
		for k := range obj {
			want = append(want, k)
		}
		if got := readingKeys(EncodingJSON(c.f)); !slices.Equal(got, want) {
			t.Errorf("%+v: EncodingJSON %v, encoding/json writes %s", c.f, EncodingJSON(c.f), b)
		}
	}
}

// FuzzEncodingJSON checks EncodingJSON against encoding/json on any tag.
func FuzzEncodingJSON(f *testing.F) {
	for _, s := range []string{"name", ",inline", "a b,omitempty", "quote\"d", "-", "-,", "é", "\x00", "a\xffb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		for _, c := range fieldsFor(tag) {
			if r := EncodingJSON(c.f); !slices.Equal(readingKeys(r), encodedKeys(t, c.sf)) {
				t.Errorf("json:%q on %s (embedded %v): EncodingJSON %v, encoding/json writes %q", tag, c.sf.Type, c.sf.Anonymous, r, encodedKeys(t, c.sf))
			}
		}
	})
}

// TestMismatch: the tags that controller-gen and encoding/json read
// alike give nothing; the others a finding naming both places and the
// fix.
func TestMismatch(t *testing.T) {
	for _, c := range []struct {
		f    Field
		want string // "" for none, else a substring
	}{
		{Field{Name: "Spec", Tag: `json:"spec,omitempty"`}, ""},
		{Field{Name: "TypeMeta", Embedded: true, Struct: true, Tag: `json:",inline"`}, ""},
		{Field{Name: "Probe", Embedded: true, Struct: true, Tag: `json:""`}, ""},
		{Field{Name: "Skipped", Tag: `json:"-"`}, ""},
		{Field{Name: "Dash", Tag: `json:"-,"`}, ""},
		{Field{Name: "NoTag"}, ""}, // controller-gen's own error
		{Field{Name: "Spec", Tag: `json:"spec,inline"`}, `json tag "spec,inline": controller-gen writes its fields inline into the CRD, encoding/json (Go clients) "spec": ` +
			`encoding/json inlines embedded structs only: it gives any other field without a name its Go name, and ignores the option inline; ` +
			"Go clients' values there are pruned by the apiserver, and the CRD's are never read. Fix: embed the struct to inline it, or write `json:\"spec\"` to keep a key"},
		{Field{Name: "Spec", Tag: `json:",omitempty"`}, "controller-gen writes its fields inline into the CRD, encoding/json (Go clients) \"Spec\": " +
			"encoding/json inlines embedded structs only"},
		{Field{Name: "Spec", Tag: `json:",inline,omitempty"`}, "write `json:\"spec,omitempty\"` to keep a key"},
		{Field{Name: "Inner", Embedded: true, Struct: true, Tag: `json:"inner,inline"`}, `controller-gen writes its fields inline into the CRD, encoding/json (Go clients) "inner": encoding/json ignores the option inline on a field with a name`},
		{Field{Name: "Named", Embedded: true, Tag: `json:",inline"`}, `encoding/json (Go clients) "Named": encoding/json inlines embedded structs only`},
		{Field{Name: "Weird", Tag: `json:"a\"b"`}, `controller-gen writes "a\"b" into the CRD, encoding/json (Go clients) "Weird": encoding/json refuses the name "a\"b"`},
		{Field{Name: "hidden", Tag: `json:"hidden"`}, `controller-gen writes "hidden" into the CRD, encoding/json (Go clients) no key: encoding/json ignores an unexported field`},
	} {
		got := Mismatch(c.f, false)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%+v: Mismatch\n%s\nwant\n%s", c.f, got, c.want)
		}
	}
	if got := Mismatch(Field{Name: "hidden", Tag: `json:"hidden"`}, true); got != "" {
		t.Errorf("crd:ignoreUnexportedFields=true skips an unexported field as encoding/json does; Mismatch %s", got)
	}
}

package yamlout

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"
)

// readBack is what sigs.k8s.io/yaml (as kubectl and normalize read YAML)
// reads from Marshal's output for in, compared as JSON.
func readBack(t *testing.T, in any) (wrote []byte, back any) {
	t.Helper()
	b, err := Marshal(in)
	if err != nil {
		t.Fatalf("Marshal(%#v): %v", in, err)
	}
	if err := yaml.Unmarshal(b, &back); err != nil {
		t.Fatalf("%#v written as %q does not read back: %v", in, b, err)
	}
	return b, back
}

// roundTrip fails unless s, as a value, a list item and a key, reads back
// as s.
func roundTrip(t *testing.T, s string) {
	t.Helper()
	in := map[string]any{"s": s, "l": []any{s}, s: "key"}
	if b, back := readBack(t, in); !reflect.DeepEqual(back, in) {
		t.Fatalf("%q written as %q reads back as %q", s, b, back)
	}
}

// Every character of the Basic Latin, Latin-1 and General Punctuation
// blocks, and the byte order mark, reads back as written: sigs.k8s.io/yaml
// alone refuses DEL and turns NEL into a space.
func TestEveryControlReadsBack(t *testing.T) {
	var runes []rune
	for r := rune(0); r < 0x300; r++ {
		runes = append(runes, r)
	}
	for r := rune(0x2000); r < 0x2070; r++ {
		runes = append(runes, r)
	}
	runes = append(runes, 0xfeff, 0xfffd, 0xfffe, 0x10ffff)
	for _, r := range runes {
		roundTrip(t, "a"+string(r)+"b")
		roundTrip(t, string(r))
	}
}

// A key over go-yaml's 1,024-character limit for a key in flow style
// reads back: sigs.k8s.io/yaml refuses it.
func TestLongKeyReadsBack(t *testing.T) {
	roundTrip(t, strings.Repeat("k", 5000))
}

// sameAsSigsYAML fails unless Marshal writes what sigs.k8s.io/yaml writes,
// wherever sigs.k8s.io/yaml writes something that reads back as the object.
func sameAsSigsYAML(t *testing.T, obj any) {
	t.Helper()
	want, err := yaml.Marshal(obj)
	if err != nil {
		return
	}
	var back any
	if yaml.Unmarshal(want, &back) != nil || !sameJSON(back, obj) {
		return // sigs.k8s.io/yaml changed it: nothing to match
	}
	if got, err := Marshal(obj); err != nil || string(got) != string(want) {
		t.Fatalf("%#v: Marshal wrote\n%s(%v)\nsigs.k8s.io/yaml\n%s", obj, got, err, want)
	}
}

// sameJSON reports whether a and b are the same JSON value (numbers
// compared as float64, so -0 is 0).
func sameJSON(a, b any) bool {
	return reflect.DeepEqual(asJSON(a), asJSON(b))
}

func asJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return err.Error()
	}
	return out
}

func TestSameAsSigsYAML(t *testing.T) {
	for _, doc := range []string{
		`{"apiVersion":"x.io/v1","kind":"Widget","metadata":{"name":"a","labels":{"a10":"x","a2":"y","1":"z"}},"spec":{"n":1,"f":1.5,"e":1e21,"big":18446744073709551615,"neg":-9223372036854775809,"z":-0,"zf":-0.0,"t":true,"null":null,"s":"true","list":[1,"2",{"k":[]}],"empty":{}}}`,
		`[1,2.0,"3"]`, `"x"`, `null`, `{"":""}`, `{"a: b":"- c","#":"'"}`,
	} {
		var obj any
		if err := json.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatal(err)
		}
		sameAsSigsYAML(t, obj)
	}
}

// FuzzMarshal: on any JSON document, Marshal's output reads back as the
// document, and is sigs.k8s.io/yaml's wherever that reads back too.
func FuzzMarshal(f *testing.F) {
	for _, s := range []string{`{"s":"a\u007fb"}`, `{"s":"a\u0085c"}`, `{"s":"\u2028"}`, `{"\ufeffx":1}`, `{"- x":"'"}`,
		`{"a":null,"b":"0x10","c":"~","d":": "}`, `[1e400]`, `{"` + strings.Repeat("k", 1100) + `":1}`, `[-0,0.0,1.0,1e3]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var obj any
		if !utf8.ValidString(doc) || json.Unmarshal([]byte(doc), &obj) != nil {
			return
		}
		if _, back := readBack(t, obj); !sameJSON(back, obj) {
			t.Fatalf("%s reads back as %#v", doc, back)
		}
		sameAsSigsYAML(t, obj)
	})
}

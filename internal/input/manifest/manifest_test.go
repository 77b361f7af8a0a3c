package manifest

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

// read returns the sources and names of the objects of in, and the error
// that ended reading (nil at io.EOF).
func read(t *testing.T, in string) ([]string, []string, error) {
	t.Helper()
	var sources, names []string
	for o, err := range All("f.yaml", strings.NewReader(in)) {
		if err != nil {
			return sources, names, err
		}
		sources = append(sources, o.Source())
		name, _ := o.Object["metadata"].(map[string]any)["name"].(string)
		names = append(names, o.Object["kind"].(string)+"/"+name)
	}
	return sources, names, nil
}

const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: %s\n"

func w(name string) string { return strings.ReplaceAll(widget, "%s", name) }

func TestEmptyDocumentsAreSkipped(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"an empty file", "", nil},
		{"a file of only ---", "---\n", nil},
		{"a file of only --- lines", "---\n---\n---\n", nil},
		{"a trailing ---", w("a") + "---\n", []string{"f.yaml:1"}},
		{"a trailing ---\\n---\\n", w("a") + "---\n---\n", []string{"f.yaml:1"}},
		{"a leading ---", "---\n" + w("a"), []string{"f.yaml:1"}},
		{"a comment-only document between two", w("a") + "---\n# only a comment\n  # and another\n---\n" + w("b"), []string{"f.yaml:1", "f.yaml:2"}},
		{"a null document", w("a") + "---\nnull\n---\n" + w("b"), []string{"f.yaml:1", "f.yaml:2"}},
		{"a document of ~", "~\n---\n" + w("a"), []string{"f.yaml:1"}},
		{"blank lines and spaces", "\n\n   \n---\n\n" + w("a") + "\n\n---\n   \n", []string{"f.yaml:1"}},
		{"a --- with a comment after it", w("a") + "--- # end\n" + w("b"), []string{"f.yaml:1", "f.yaml:2"}},
		{"a JSON stream", `{"kind":"Widget","metadata":{"name":"a"}} {"kind":"Widget","metadata":{"name":"b"}}`, []string{"f.yaml:1", "f.yaml:2"}},
		{"a JSON null between objects", `{"kind":"Widget","metadata":{"name":"a"}} null {"kind":"Widget","metadata":{"name":"b"}}`, []string{"f.yaml:1", "f.yaml:2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := read(t, tc.in)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestByteOrderMark(t *testing.T) {
	t.Parallel()
	utf16 := func(s string) string { // little endian, with its BOM
		b := []byte{0xff, 0xfe}
		for _, r := range s {
			b = append(b, byte(r), 0)
		}
		return string(b)
	}
	for name, in := range map[string]string{"UTF-8": "\xef\xbb\xbf" + w("a"), "UTF-16": utf16(w("a"))} {
		_, names, err := read(t, in)
		if err != nil || !reflect.DeepEqual(names, []string{"Widget/a"}) {
			t.Errorf("%s: %v, %v", name, names, err)
		}
	}
}

func TestLists(t *testing.T) {
	t.Parallel()
	t.Run("a v1 List stands for its items", func(t *testing.T) {
		in := w("first") + "---\napiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n" +
			"- apiVersion: example.com/v1\n  kind: Widget\n  metadata: {name: a}\n" +
			"- apiVersion: example.com/v1\n  kind: Gadget\n  metadata: {name: b}\n---\n" + w("last")
		sources, names, err := read(t, in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sources, []string{"f.yaml:1", "f.yaml:2:1", "f.yaml:2:2", "f.yaml:3"}) ||
			!reflect.DeepEqual(names, []string{"Widget/first", "Widget/a", "Gadget/b", "Widget/last"}) {
			t.Errorf("sources %v, names %v", sources, names)
		}
	})
	t.Run("the items of a <Kind>List without apiVersion and kind take the list's", func(t *testing.T) {
		in := "apiVersion: example.com/v1\nkind: WidgetList\nitems:\n- metadata: {name: a}\n- apiVersion: other.com/v2\n  kind: Gadget\n  metadata: {name: b}\n"
		var got []string
		for o, err := range All("f.yaml", strings.NewReader(in)) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, o.Object["apiVersion"].(string)+" "+o.Object["kind"].(string))
		}
		if !reflect.DeepEqual(got, []string{"example.com/v1 Widget", "other.com/v2 Gadget"}) {
			t.Errorf("got %v", got)
		}
	})
	t.Run("an empty List is no object", func(t *testing.T) {
		sources, _, err := read(t, "apiVersion: v1\nkind: List\nitems: []\n---\n"+w("a"))
		if err != nil || !reflect.DeepEqual(sources, []string{"f.yaml:2"}) {
			t.Errorf("got %v, %v", sources, err)
		}
	})
	t.Run("any document with items is a list, even items: null, as kubectl reads it", func(t *testing.T) {
		sources, _, err := read(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\nitems: null\n---\n"+w("b"))
		if err != nil || !reflect.DeepEqual(sources, []string{"f.yaml:2"}) {
			t.Errorf("got %v, %v", sources, err)
		}
	})
}

func TestNumbers(t *testing.T) {
	t.Parallel()
	var got map[string]any
	for o, err := range All("f.json", strings.NewReader(`{"kind":"W","spec":{"i":3,"f":1.5,"e":1e3,"big":12345678901234567890,"neg":-7}}`)) {
		if err != nil {
			t.Fatal(err)
		}
		got = o.Object["spec"].(map[string]any)
	}
	want := map[string]any{"i": int64(3), "f": 1.5, "e": float64(1000), "big": 12345678901234567890.0, "neg": int64(-7)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		read     int    // objects read before the error
		want     string // the error's text
	}{
		{"a scalar document", w("a") + "---\nhello\n", 1, `f.yaml:2: not an object: a string`},
		{"a number", "42\n", 0, `f.yaml:1: not an object: a number`},
		{"a YAML list", "- a\n- b\n", 0, `f.yaml:1: not an object: a list`},
		{"an item that is not an object", "apiVersion: v1\nkind: List\nitems:\n- 5\n", 0, "f.yaml:1: json: cannot unmarshal number"},
		{"broken YAML", w("a") + "---\nkind: [\n", 1, "f.yaml:2: error converting YAML to JSON"},
		{"a bad separator", w("a") + "--- x\n" + w("b"), 0, "f.yaml:1: invalid Yaml document separator: x"},
		{"a number out of range", `{"kind":"W","spec":{"f":1e400}}`, 0, "f.yaml:1: "},
		{"a list without kind", "items: [{}]\n", 0, "f.yaml:1: a list without kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sources, _, err := read(t, tc.in)
			var e *Error
			if len(sources) != tc.read || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("read %v, error %v; want %d objects and %q", sources, err, tc.read, tc.want)
			}
		})
	}
}

func TestNextAfterTheEnd(t *testing.T) {
	t.Parallel()
	r := NewReader("f.yaml", strings.NewReader(w("a")))
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := r.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("got %v, want io.EOF", err)
		}
	}
	r = NewReader("f.yaml", strings.NewReader("[1]"))
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 { //nolint:errorlint // the same error value twice, not one that wraps it
		t.Errorf("errors %v then %v; want the same error twice", err1, err2)
	}
}

func TestKindless(t *testing.T) {
	t.Parallel()
	var got []map[string]any
	for o, err := range All("f.yaml", strings.NewReader("metadata: {name: a}\n---\n{}\n")) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o.Object)
	}
	if len(got) != 2 || got[0]["metadata"] == nil || len(got[1]) != 0 {
		t.Errorf("got %v", got)
	}
}

// TestDuplicates: a field given twice keeps its last value, and is named
// as the apiserver's strict decoding names it, in YAML and in JSON, for
// each document and each List item on its own.
func TestDuplicates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     map[string][]string // source: duplicates
		seed     any                 // spec.seed of the first object
	}{
		{"yaml", w("a") + "spec:\n  seed: 3\n  seed: 4\n",
			map[string][]string{"f.yaml:1": {"spec.seed"}}, int64(4)},
		{"yaml, three times, and nested in a list", w("a") + "spec:\n  seed: 3\n  seed: 4\n  seed: 5\n  ports:\n  - name: a\n    name: b\n",
			map[string][]string{"f.yaml:1": {"spec.seed", "spec.ports[0].name"}}, int64(5)},
		{"yaml, the second document only", w("a") + "spec:\n  seed: 1\n---\n# c\n---\n" + w("b") + "spec:\n  seed: 3\n  seed: 4\n",
			map[string][]string{"f.yaml:1": nil, "f.yaml:2": {"spec.seed"}}, int64(1)},
		{"yaml, a top-level field", w("a") + "kind: Widget\n",
			map[string][]string{"f.yaml:1": {"kind"}}, nil},
		{"yaml, no duplicates", w("a") + "spec:\n  seed: 3\n  other:\n    seed: 4\n",
			map[string][]string{"f.yaml:1": nil}, int64(3)},
		{"yaml List: each item its own paths", "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(w("a"), "\n", "\n  ") + "spec: {seed: 3, seed: 4}\n- " + strings.ReplaceAll(w("b"), "\n", "\n  ") + "spec: {seed: 5}\n",
			map[string][]string{"f.yaml:1:1": {"spec.seed"}, "f.yaml:1:2": nil}, int64(4)},
		{"json", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"seed":3,"seed":4}}` + "\n" +
			`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"b","name":"c"}}`,
			map[string][]string{"f.yaml:1": {"spec.seed"}, "f.yaml:2": {"metadata.name"}}, int64(4)},
		{"json List", `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"}},{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"b"},"spec":{"seed":3,"seed":4}}]}`,
			map[string][]string{"f.yaml:1:1": nil, "f.yaml:1:2": {"spec.seed"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][]string{}
			first := true
			for o, err := range All("f.yaml", strings.NewReader(tc.in)) {
				if err != nil {
					t.Fatal(err)
				}
				got[o.Source()] = o.Duplicates
				if first {
					spec, _ := o.Object["spec"].(map[string]any)
					if spec["seed"] != tc.seed {
						t.Errorf("spec.seed = %#v, want %#v", spec["seed"], tc.seed)
					}
					first = false
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("duplicates = %q, want %q", got, tc.want)
			}
		})
	}
}

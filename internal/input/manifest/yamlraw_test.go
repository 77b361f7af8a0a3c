package manifest

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// TestYAMLToRawIsUnmarshal: yamlToRaw gives the Raw and the error of
// yaml.Unmarshal into a runtime.RawExtension, which it replaces, on the
// golden CRDs and random one-byte edits of them, null and empty
// documents, YAML errors, values JSON cannot hold, and nesting at, below
// and beyond encoding/json's limit.
func TestYAMLToRawIsUnmarshal(t *testing.T) {
	t.Parallel()
	docs := []string{
		"", "null", "~", "# comment\n", "a: 1\n", "- 1\n- x\n", "a: .nan\n", "a: .inf\n", "1: a\n'1': b\n",
		"a: [\n", "a: b: c\n", "\t", "a: !!binary aGk=\n", "x: 18446744073709551615\n", "'<&>': \"\\u2028\"\n",
		strings.Repeat("[", 9999) + strings.Repeat("]", 9999),
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
		strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		"a:\n" + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "\n",
		"a:\n  b:\n" + "    " + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + "\n",
		// JSON nests 10001 deep: the JSON decoder's error
		"a:\n  b:\n" + "    " + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + "\n",
	}
	files, err := filepath.Glob("../../../testdata/golden/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden CRDs: %v", err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
		for range 5 {
			changed := []byte(string(b))
			changed[r.IntN(len(changed))] = " :-[]{}\nabckz01\"'&*!|>"[r.IntN(22)]
			docs = append(docs, string(changed))
		}
	}
	for _, doc := range docs {
		got, err := yamlToRaw([]byte(doc))
		want, wantErr := unmarshalLike([]byte(doc), got, err)
		if !sameError(err, wantErr) {
			t.Errorf("%.40q: error %v, want %v", doc, err, wantErr)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%.40q: raw %.60q, want %.60q", doc, got, want)
		}
	}
}

// unmarshalLike is the Raw and the error of yaml.Unmarshal of doc into a
// runtime.RawExtension, the outcome equal to got and gotErr if one of 64
// calls gives it. yaml.Unmarshal is not a function of doc when two keys of
// a mapping become one JSON key ("1: a\n'1': b\n"): sigs.k8s.io/yaml
// converts the keys in Go's map order, so the value kept changes from
// call to call (the reader refuses such documents first, KeyCollisionError).
// yamlToRaw runs the same conversion, so it must give one of the outcomes;
// on a document without a collision every call gives the same one.
func unmarshalLike(doc, got []byte, gotErr error) (raw []byte, err error) {
	for range 64 {
		var ext runtime.RawExtension
		err = yaml.Unmarshal(doc, &ext)
		raw = ext.Raw
		if sameError(gotErr, err) && bytes.Equal(got, raw) {
			break
		}
	}
	return raw, err
}

func sameError(err, want error) bool {
	return (err == nil) == (want == nil) && (err == nil || err.Error() == want.Error())
}

// FuzzYAMLToRaw: on any bytes, yamlToRaw gives the Raw and the error of
// yaml.Unmarshal into a runtime.RawExtension, the call it stands in for
// (the claim of its doc comment: the second decode it skips can only fail
// on nesting, which it hands back to yaml.Unmarshal).
func FuzzYAMLToRaw(f *testing.F) {
	for _, seed := range []string{"", "null", "a: 1\n", "- [1, {b: c}]\n", "a: .nan\n", "a: [\n", "1: a\n'1': b\n",
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := yamlToRaw(doc)
		want, wantErr := unmarshalLike(doc, got, err)
		if !sameError(err, wantErr) {
			t.Fatalf("%q: error %v, want %v", doc, err, wantErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%q: raw %q, want %q", doc, got, want)
		}
	})
}

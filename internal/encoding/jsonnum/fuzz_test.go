package jsonnum

import (
	"encoding/json"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// FuzzDuplicateKey checks DuplicateKey against another reader of the same
// bytes: go-yaml v3 refuses a mapping that holds a key twice ("already
// defined"), and valid JSON is YAML it reads, escapes decoded as JSON's.
// On valid JSON the two agree; on anything else DuplicateKey says none.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"a":2}`, `{"a":{"b":1,"c":{"d":[],"d":{}}}}`, `[{"x":1},{"y":[{"z":1,"z":1}]}]`,
		`{"a":"a","b":"a"}`, `[{"a":1},{"a":1}]`, `{"a":1,`, `{"\u0061":1,"a":2}`, `{"":1,"":2}`, `7`, `null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		path, key, dup := DuplicateKey([]byte(s))
		if !json.Valid([]byte(s)) {
			if dup {
				t.Fatalf("%q is not JSON, yet DuplicateKey says %q at %q", s, key, path)
			}
			return
		}
		var v any
		err := yaml.Unmarshal([]byte(s), &v)
		if err != nil && !strings.Contains(err.Error(), "already defined") {
			t.Skip("go-yaml does not read this JSON:", err) // its own limits, not a duplicate
		}
		if yamlDup := err != nil; yamlDup != dup {
			t.Fatalf("%q: DuplicateKey %v (%q at %q), go-yaml: %v", s, dup, key, path, err)
		}
	})
}

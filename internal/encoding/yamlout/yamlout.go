// Package yamlout writes objects as YAML that reads back as the same
// object, for every string and every key.
//
// sigs.k8s.io/yaml, which kubectl uses, writes an object as JSON and reads
// that JSON back with go-yaml's YAML 1.1 parser before go-yaml writes it.
// That detour is where it fails: the JSON holds DEL (U+007F) and the C1
// controls (U+0080 to U+009F) unescaped, and the parser refuses DEL
// ("control characters are not allowed"), reads NEL (U+0085) as a line
// break and folds it into a space, and refuses a key longer than 1,024
// characters ("did not find expected ',' or '}'"). kubectl get -o yaml
// shares the three faults. Marshal takes the same JSON, decodes it with
// encoding/json, and gives go-yaml the values its parser would have made
// (yamlValue), so that the output is sigs.k8s.io/yaml's wherever that is
// right, and go-yaml's own emitter escapes the rest.
package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	yaml "go.yaml.in/yaml/v2"
)

// Marshal writes v as YAML: what sigs.k8s.io/yaml's Marshal writes, where
// it writes anything, with every string and key read back as it was.
func Marshal(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var obj any
	if err := d.Decode(&obj); err != nil {
		return nil, err
	}
	return yaml.Marshal(yamlValue(obj))
}

// yamlValue is the value go-yaml's parser makes of the JSON that encoding/json
// decoded as obj (with UseNumber): numbers typed as go-yaml types them
// (number), the rest as it is.
func yamlValue(obj any) any {
	switch o := obj.(type) {
	case map[string]any:
		for k, v := range o {
			o[k] = yamlValue(v)
		}
	case []any:
		for i, v := range o {
			o[i] = yamlValue(v)
		}
	case json.Number:
		return number(string(o))
	}
	return obj
}

// number is how go-yaml's resolver types a plain scalar that is a JSON
// number: an int when it fits in 64 bits, else a uint64 when it fits in
// that, else a float64.
func number(s string) any {
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		if int64(int(i)) == i {
			return int(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u
	}
	f, _ := strconv.ParseFloat(s, 64) // a JSON number: a float64, or ±Inf when too large
	return f
}

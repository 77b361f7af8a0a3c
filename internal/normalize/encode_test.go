package normalize

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// -o yaml writes every string so that it reads back: DEL, NEL and a key
// of over 1,024 characters, which sigs.k8s.io/yaml (and kubectl get -o
// yaml) refuse or change, included.
func TestEncodeYAMLReadsBack(t *testing.T) {
	long := strings.Repeat("k", 2000)
	obj := map[string]any{"spec": map[string]any{"del": "a\x7fb", "nel": "a\u0085c", long: "v"}}
	out, err := encode(obj, "yaml")
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var back map[string]any
	if err := yaml.Unmarshal([]byte(strings.TrimPrefix(string(out), separator)), &back); err != nil || !reflect.DeepEqual(back, obj) {
		t.Fatalf("-o yaml wrote %q, which reads back as %q (%v)", out, back, err)
	}
}

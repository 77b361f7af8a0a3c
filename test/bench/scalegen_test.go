package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestWriteListIsKubectlShape checks that the List written item by item is
// byte for byte what sigs.k8s.io/yaml (kubectl's YAML printer) writes for
// the whole List, on objects with block scalars, empty lines in them, long
// strings, lists of maps and numbers, and that every copy has a name of its
// own.
func TestWriteListIsKubectlShape(t *testing.T) {
	var base []baseObject
	for i, doc := range []string{
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"},"spec":{"listeners":[{"name":"http","port":80}]}}`,
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r","annotations":{"note":"line one\n\n  indented line after an empty one\nlast: line\n"}},"spec":{"hostnames":["` + strings.Repeat("a", 120) + `.example.com"],"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/x y: z"}}],"weight":1.5}]}}`,
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"GatewayClass","metadata":{"name":"gc"},"spec":{"controllerName":"example.com/gc","description":"` + strings.Repeat("word ", 40) + `"}}`,
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"r"},"spec":{}}`,
		// The placeholder in a value: this one is marshalled for each copy.
		`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"p","labels":{"x":"` + nameToken + `"}},"spec":{}}`,
	} {
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			t.Fatal(i, err)
		}
		base = append(base, baseObject{source: "doc", obj: obj, namespaced: obj["kind"] != "GatewayClass"})
	}
	base[3].dup = 1 // the same HTTPRoute default/r as base[1]

	if tmpl, err := newTemplate(base[4]); err != nil || tmpl != nil {
		t.Errorf("newTemplate with the placeholder in a value: %v, %v; want nil, nil", tmpl, err)
	}
	const n = 12
	var got bytes.Buffer
	if err := writeList(&got, base, n); err != nil {
		t.Fatal(err)
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}}
	var items []any
	for i := range n {
		items = append(items, base[i%len(base)].instance(i/len(base)))
	}
	list["items"] = items
	want, err := yaml.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("writeList:\n%s\nyaml.Marshal of the List:\n%s", got.String(), want)
	}

	seen := map[string]bool{}
	for _, it := range items {
		obj := it.(map[string]any)
		md := obj["metadata"].(map[string]any)
		key := obj["kind"].(string) + " " + str(obj, "metadata", "namespace") + "/" + md["name"].(string)
		if seen[key] {
			t.Errorf("%s twice", key)
		}
		seen[key] = true
	}
	if got := str(items[2].(map[string]any), "metadata", "name"); got != "gc-0" {
		t.Errorf("cluster-scoped copy 0: name %q, want gc-0", got)
	}
	if got := str(items[6].(map[string]any), "metadata", "namespace"); got != "default-1" {
		t.Errorf("copy 1 of a manifest without namespace: namespace %q, want default-1", got)
	}
	if got := str(items[3].(map[string]any), "metadata", "name"); got != "r-d1" {
		t.Errorf("second default/r: name %q, want r-d1", got)
	}
}

func TestNamespaceIsALabel(t *testing.T) {
	b := baseObject{obj: map[string]any{"metadata": map[string]any{"namespace": strings.Repeat("n", 63)}}, namespaced: true}
	if got := b.namespace("12345"); len(got) > 63 || !strings.HasSuffix(got, "-12345") {
		t.Errorf("namespace %q (%d characters)", got, len(got))
	}
}

func TestCountJSONObjects(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"[]\n", 0},
		{"[\n{\"a\":1},\n{\"b\":[2]}\n]\n", 2},
		{"{\"a\":1}\n{\"b\":[2]}\n", 2},
		{"\n {\"a\":1}\n", 1},
	} {
		f := t.TempDir() + "/out.json"
		if err := os.WriteFile(f, []byte(tc.in), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := countJSONObjects(f); err != nil || got != tc.want {
			t.Errorf("countJSONObjects(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

package defaultdiff

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

func crd(t *testing.T, versions ...string) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	c := &apiextensionsv1.CustomResourceDefinition{}
	for i := 0; i < len(versions); i += 2 {
		s := &apiextensionsv1.JSONSchemaProps{}
		if err := yaml.UnmarshalStrict([]byte(versions[i+1]), s); err != nil {
			t.Fatal(err)
		}
		c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{
			Name: versions[i], Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: s}})
	}
	return c
}

func lines(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "%s %s %s %s -> %s\n", c.Version, c.Path, c.Kind(), c.Old, c.New)
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	const old = `
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      size: {type: string, default: M}
      replicas: {type: integer, default: 1}
      mode: {type: string, default: Fast}
      same: {type: object, default: {"b": 1, "a": [1, 2]}}
      ports:
        type: array
        items:
          type: object
          properties:
            protocol: {type: string, default: TCP}
      labels:
        type: object
        additionalProperties: {type: string, default: x}
      "a.b": {type: string, default: dotted}
`
	const new = `
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      size: {type: string, default: L}
      replicas: {type: integer}
      mode: {type: string, default: Fast}
      same: {type: object, default: {"a":[1,2],"b":1}}
      ports:
        type: array
        items:
          type: object
          properties:
            protocol: {type: string, default: UDP}
            name: {type: string, default: "<http>"}
      labels:
        type: object
        additionalProperties: {type: string, default: x}
      "a.b": {type: string, default: dotted}
      added: {type: boolean, default: false}
`
	got := lines(Diff(crd(t, "v1", old, "v1beta1", old), crd(t, "v2", new, "v1", new)))
	// new's versions first (v2, v1), then old's others (v1beta1); by path
	// within a version. v2 and v1beta1 exist on one side only.
	want := `v2 spec added  -> {}
v2 spec.added added  -> false
v2 spec.labels.* added  -> "x"
v2 spec.mode added  -> "Fast"
v2 spec.ports[*].name added  -> "<http>"
v2 spec.ports[*].protocol added  -> "UDP"
v2 spec.same added  -> {"a":[1,2],"b":1}
v2 spec.size added  -> "L"
v2 spec["a.b"] added  -> "dotted"
v1 spec.added added  -> false
v1 spec.ports[*].name added  -> "<http>"
v1 spec.ports[*].protocol changed "TCP" -> "UDP"
v1 spec.replicas removed 1 -> 
v1 spec.size changed "M" -> "L"
v1beta1 spec removed {} -> 
v1beta1 spec.labels.* removed "x" -> 
v1beta1 spec.mode removed "Fast" -> 
v1beta1 spec.ports[*].protocol removed "TCP" -> 
v1beta1 spec.replicas removed 1 -> 
v1beta1 spec.same removed {"a":[1,2],"b":1} -> 
v1beta1 spec.size removed "M" -> 
v1beta1 spec["a.b"] removed "dotted" -> 
`
	if got != want {
		t.Errorf("Diff:\n%s\nwant\n%s", got, want)
	}
	if again := lines(Diff(crd(t, "v1", old, "v1beta1", old), crd(t, "v2", new, "v1", new))); again != got {
		t.Errorf("Diff is not stable:\n%s\n%s", got, again)
	}
	if d := Diff(crd(t, "v1", old), crd(t, "v1", old)); len(d) != 0 {
		t.Errorf("a CRD against itself: %s", lines(d))
	}
	if d := Diff(nil, crd(t, "v1", `{type: object, properties: {spec: {type: object, default: {}}}}`)); lines(d) != "v1 spec added  -> {}\n" {
		t.Errorf("from nil: %q", lines(d))
	}
}

// TestNoApiserver keeps the package importable by the crd generator without
// the apiserver: only the apiextensions v1 types.
func TestNoApiserver(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range strings.Fields(string(out)) {
		for _, bad := range []string{"k8s.io/apiserver/", "k8s.io/apiextensions-apiserver/pkg/apiserver", "k8s.io/apiextensions-apiserver/pkg/registry", "go.etcd.io/"} {
			if strings.HasPrefix(d, bad) {
				t.Errorf("defaultdiff links %s", d)
			}
		}
	}
}

func TestVersions(t *testing.T) {
	c := crd(t,
		"v1", `{type: object, properties: {spec: {type: object, default: {}, properties: {a: {type: string, default: x}, b: {type: integer}}}}}`,
		"v2", `{type: object, properties: {spec: {type: object, properties: {a: {type: string, default: "x"}, b: {type: integer, default: 0}}}}}`)
	want := "v2 spec removed {} -> \nv2 spec.b added  -> 0\n"
	if got := lines(Versions(c, "v1", "v2")); got != want {
		t.Errorf("Versions(v1, v2):\n%s\nwant:\n%s", got, want)
	}
	if got := lines(Versions(c, "v1", "v1")); got != "" {
		t.Errorf("a version against itself: %s", got)
	}
	if got := lines(Versions(c, "v1", "v3")); got != "v3 spec removed {} -> \nv3 spec.a removed \"x\" -> \n" {
		t.Errorf("a version the CRD does not have:\n%s", got)
	}
}

package main_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// controllerGenVersion is the controller-gen release controller-gen-default
// replaces.
const controllerGenVersion = realapis.ReferenceVersion

// schemapatchCRD is the manifest that schemapatch patches, in
// testdata/schemapatch/manifests, for the API in testdata/schemapatch/api.
const schemapatchCRD = "schemapatch.example.com_widgets.yaml"

// schemapatchDefaults are the defaults of the patched Widget schema, by
// property path (JSON as the apiserver reads it).
//
// Protocol's type-level +default="TCP" is in none of them (spec.protocol,
// spec.protocols[*]): schemapatch builds schemas with controller-tools'
// parser, where a type's markers land on the type's shared schema, and a
// default there would be merged with a field's own into a non-structural
// allOf. Type-level defaults are the crd generator's.
var schemapatchDefaults = map[string]string{
	"spec.name":         `"widget"`,
	"spec.count":        `2`,
	"spec.enabled":      `true`,
	"spec.tags":         `["a","b"]`,
	"spec.labels":       `{"env":"dev","team":"core"}`,
	"spec.limits":       `{"cpu":"100m","memory":64}`,
	"spec.policy":       `"Always"`, // +kubebuilder:default
	"spec.port":         `8080`,     // +default and +kubebuilder:default
	"spec.peerProtocol": `"UDP"`,    // the field's +default on a type with its own
	"spec.replicas":     `3`,
	"spec.pullPolicy":   `"IfNotPresent"`,
}

// refDefaults are the ref() defaults, which controller-gen v0.23.0 drops
// silently: the only lines controller-gen-default's schemapatch adds, in the
// order of the file (properties are sorted by name).
var refDefaults = []struct{ path, line string }{
	{"spec.pullPolicy", "default: IfNotPresent"}, // ref(k8s.io/api/core/v1.PullIfNotPresent)
	{"spec.replicas", "default: 3"},              // ref(DefaultReplicas)
}

// TestSchemapatch checks that schemapatch writes the field defaults that
// controller-gen v0.23.0 writes, byte for byte, plus the ref() values it
// drops. Our +default field marker replaces controller-tools' in the marker
// registry that schemapatch shares, so without its ApplyToSchema every
// +default would be missing.
func TestSchemapatch(t *testing.T) {
	bin := binary(t)
	ours := schemapatch(t, bin)

	t.Run("field defaults", func(t *testing.T) {
		if got := defaultsOf(t, ours); !maps.Equal(got, schemapatchDefaults) {
			t.Errorf("defaults:\n%s\nwant:\n%s", formatDefaults(got), formatDefaults(schemapatchDefaults))
		}
	})

	t.Run("same as controller-gen "+controllerGenVersion+" but for ref()", func(t *testing.T) {
		theirs := schemapatch(t, realapistest.ReferenceBinary(t, filepath.Join("..", "..")))

		// Every default controller-gen writes, identical; nothing else added
		// but the ref() values.
		got, want := defaultsOf(t, ours), defaultsOf(t, theirs)
		for _, d := range refDefaults {
			if _, ok := want[d.path]; ok {
				t.Errorf("controller-gen %s writes a default for ref() on %s; update refDefaults", controllerGenVersion, d.path)
			}
			v, ok := got[d.path]
			if !ok {
				t.Errorf("%s: no default for ref()", d.path)
				continue
			}
			want[d.path] = v
		}
		if !maps.Equal(got, want) {
			t.Errorf("defaults:\n%s\ncontroller-gen's, with the ref() defaults:\n%s", formatDefaults(got), formatDefaults(want))
		}

		// The files: controller-gen's, with exactly the ref() lines added.
		added, missing := addedLines(theirs, ours)
		if missing != "" {
			t.Fatalf("controller-gen-default's output lacks controller-gen's line %s\nours:\n%s\ncontroller-gen's:\n%s", missing, ours, theirs)
		}
		var wantAdded []string
		for _, d := range refDefaults {
			wantAdded = append(wantAdded, d.line)
		}
		if !slices.Equal(added, wantAdded) {
			t.Errorf("lines added to controller-gen's output: %q, want %q\nours:\n%s", added, wantAdded, ours)
		}
	})
}

// schemapatch runs bin's schemapatch on a copy of testdata/schemapatch/manifests
// and returns the patched CRD.
func schemapatch(t *testing.T, bin string) string {
	t.Helper()
	manifests, out := t.TempDir(), t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "schemapatch", "manifests", schemapatchCRD))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(manifests, schemapatchCRD), src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, bin,
		"schemapatch:manifests="+manifests+",maxDescLen=0",
		"output:dir="+out,
		"paths=./cmd/controller-gen-default/testdata/schemapatch/...")
	if code != 0 {
		t.Fatalf("%s schemapatch: exit %d\n%s", filepath.Base(bin), code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, schemapatchCRD))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// defaultsOf returns the defaults in the schema of the CRD's only version.
func defaultsOf(t *testing.T, manifest string) map[string]string {
	t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict([]byte(manifest), &crd); err != nil {
		t.Fatal(err)
	}
	if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Schema == nil {
		t.Fatalf("want one version with a schema:\n%s", manifest)
	}
	defaults := map[string]string{}
	collectDefaults("", crd.Spec.Versions[0].Schema.OpenAPIV3Schema, defaults)
	return defaults
}

// collectDefaults adds the defaults of s and below to into, by path:
// "spec.tags", "spec.tags[*]" for its items, "spec.labels.*" for map values.
func collectDefaults(path string, s *apiextensionsv1.JSONSchemaProps, into map[string]string) {
	if s == nil {
		return
	}
	if s.Default != nil {
		into[path] = string(s.Default.Raw)
	}
	for name, p := range s.Properties {
		if path != "" {
			name = path + "." + name
		}
		collectDefaults(name, &p, into)
	}
	if s.Items != nil {
		collectDefaults(path+"[*]", s.Items.Schema, into)
	}
	if s.AdditionalProperties != nil {
		collectDefaults(path+".*", s.AdditionalProperties.Schema, into)
	}
}

func formatDefaults(d map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(d)) {
		fmt.Fprintf(&b, "\t%s: %s\n", k, d[k])
	}
	return b.String()
}

// addedLines returns the lines of b, trimmed, that are not in a, where a is b
// with lines removed; otherwise missing is the first line of a that b lacks.
func addedLines(a, b string) (added []string, missing string) {
	al := strings.Split(a, "\n")
	i := 0
	for _, l := range strings.Split(b, "\n") {
		if i < len(al) && l == al[i] {
			i++
			continue
		}
		added = append(added, strings.TrimSpace(l))
	}
	if i < len(al) {
		return added, fmt.Sprintf("%d: %q", i+1, al[i])
	}
	return added, ""
}

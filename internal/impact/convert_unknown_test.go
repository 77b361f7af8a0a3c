package impact

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gadgetCRD is testdata/convreg's Gadget CRD: v1 (the hub) stored, v1beta1
// served.
const gadgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.reg.example.com
spec:
  group: reg.example.com
  names: {kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              size: {type: integer, format: int32}
              color: {type: string}
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              length: {type: integer, format: int32}
`

// TestConvertUnknownWithoutSetup: testdata/convreg's hub → v1beta1
// conversion reads state that main sets (conversion.SetUnit). Without
// --setup it fails, and a Gadget stored at v1 is conversion-unknown, not
// breaks-list (the real webhook, with main's state, converts it), and one
// at v1beta1 is conversion-unknown, not conversion-failed; the run exits
// 1, as on objects it could not read. With --setup, neither category.
func TestConvertUnknownWithoutSetup(t *testing.T) {
	testConversion(t) // skips without a go command or module downloads
	dir := t.TempDir()
	crd := filepath.Join(dir, "gadgets.yaml")
	objects := filepath.Join(dir, "objects.yaml")
	if err := os.WriteFile(crd, []byte(gadgetCRD), 0o644); err != nil {
		t.Fatal(err)
	}
	objs := "apiVersion: reg.example.com/v1\nkind: Gadget\nmetadata: {name: hub}\nspec: {size: 3}\n---\n" +
		"apiVersion: reg.example.com/v1beta1\nkind: Gadget\nmetadata: {name: spoke}\nspec: {length: 4}\n"
	if err := os.WriteFile(objects, []byte(objs), 0o644); err != nil {
		t.Fatal(err)
	}
	convreg, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convreg"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(convreg)
	o := withConvert(Options{Old: []string{crd}, New: []string{crd}, Files: []string{objects}, Output: "json"}, "./...")
	categories := func(out string) map[string][]string {
		got := map[string][]string{}
		dec := json.NewDecoder(strings.NewReader(out))
		for dec.More() {
			var r Record
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("-o json: %v\n%s", err, out)
			}
			got[r.Name] = r.Categories
		}
		if len(got) != 2 {
			t.Fatalf("-o json: %d records, want 2:\n%s", len(got), out)
		}
		return got
	}

	out, stderr, code := runImpact(t, "", o)
	got := categories(out)
	for _, name := range []string{"hub", "spoke"} {
		if !slices.Contains(got[name], ConversionUnknown) || slices.Contains(got[name], BreaksList) || slices.Contains(got[name], ConversionFailed) {
			t.Errorf("without --setup: %s: %v; want %s, not %s nor %s", name, got[name], ConversionUnknown, BreaksList, ConversionFailed)
		}
	}
	if code != ExitImpact || !strings.Contains(stderr, "note: main calls conversion.SetUnit") {
		t.Errorf("without --setup: exit %d, want %d (a check must not pass on what it could not know); stderr:\n%s", code, ExitImpact, stderr)
	}
	if !strings.Contains(out, `"unknown":"main calls conversion.SetUnit, which sets state the conversions read (unit)`) {
		t.Errorf("without --setup: the records do not say why the outcome is unknown:\n%s", out)
	}

	o.Setup = "example.com/convreg/convsetup.Setup"
	out, stderr, _ = runImpact(t, "", o)
	for name, cats := range categories(out) {
		if slices.Contains(cats, ConversionUnknown) || slices.Contains(cats, BreaksList) || slices.Contains(cats, ConversionFailed) {
			t.Errorf("--setup: %s: %v; stderr:\n%s", name, cats, stderr)
		}
	}
}

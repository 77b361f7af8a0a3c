package crdcheck

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

// FuzzReadCRDs: ReadCRDs (internal/input/manifest's reader, then crdOf's
// strict decoding) never panics on any bytes, and what it reads is read
// again the same once written back as YAML: a CRD it accepts loses or
// gains nothing in the round trip. Seeds: the CRDs of testdata/golden and
// of internal/impact/testdata under 64 KiB, and Lists of them.
func FuzzReadCRDs(f *testing.F) {
	for _, glob := range []string{"../../../testdata/golden/*.yaml", "impact/testdata/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) < 64<<10 { // the fuzzer mutates small inputs well
				f.Add(b)
			}
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  metadata: {name: a.example.com}\n"))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"group":"g","group":"h"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		crds, err := ReadCRDs("fuzz.yaml", bytes.NewReader(data))
		if err != nil || len(crds) == 0 {
			return
		}
		var again bytes.Buffer
		for _, c := range crds {
			b, err := yaml.Marshal(c)
			if err != nil {
				t.Fatalf("a CRD read cannot be written: %v", err)
			}
			again.WriteString("---\n")
			again.Write(b)
		}
		back, err := ReadCRDs("again.yaml", &again)
		if err != nil {
			t.Fatalf("the CRDs read, written back, are refused: %v\n%s", err, again.String())
		}
		if !reflect.DeepEqual(back, crds) {
			t.Fatalf("the CRDs read differ once written back and read again:\n%s", again.String())
		}
	})
}

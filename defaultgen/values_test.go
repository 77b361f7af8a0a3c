package defaultgen

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/encoding/jsonnum"
)

// TestDefaultValues: the cases and their neighbours, as the crd and
// defaults generators decide them. An accepted value has the CRD default
// crd, every digit kept, and the Go defaulter assigns lit, a constant or
// literal the compiler checks; a refused one is an error at the marker,
// whose message says why.
func TestDefaultValues(t *testing.T) {
	h := loadValuesHarness(t)
	for _, tc := range []struct {
		field, text string
		crd, lit    string // accepted
		err         string // refused
	}{
		// exact integers (controller-gen v0.23.0 writes 9223372036854776000 and 9007199254740992)
		{field: "int64", text: "9223372036854775807", crd: "9223372036854775807", lit: "9223372036854775807"},
		{field: "int64", text: "9007199254740993", crd: "9007199254740993", lit: "9007199254740993"},
		{field: "int64", text: "-9223372036854775808", crd: "-9223372036854775808", lit: "-9223372036854775808"},
		{field: "int64", text: "ref(MaxInt64)", crd: "9223372036854775807", lit: "9223372036854775807"},
		{field: "ptrInt64", text: "9223372036854775807", crd: "9223372036854775807", lit: "defaultsPtr(int64(9223372036854775807))"},
		{field: "listUint64", text: "[9223372036854775807]", crd: "[9223372036854775807]", lit: "[]uint64{9223372036854775807}"},
		// the value decides, not the spelling: -0 is 0, 1e2 and 1.0 are integers
		{field: "uint", text: "-0", crd: "0", lit: "0"},
		{field: "int", text: "1e2", crd: "100", lit: "100"},
		{field: "listInt32", text: "[1, 2.0, 3e0, -0]", crd: "[1,2,3,0]", lit: "[]int32{1, 2, 3, 0}"},
		{field: "intOrString", text: "1e2", crd: "100", lit: "intstr.IntOrString{IntVal: 100}"},
		{field: "float64", text: "-0.0", crd: "0", lit: "0"},
		// floats: the nearest value of the field's size, when Go clients send what the apiserver stores
		{field: "float32", text: "0.1", crd: "0.1", lit: "0.1"},
		{field: "float32", text: "0.12345679", crd: "0.12345679", lit: "0.12345679"},
		{field: "float64", text: "0.12345678901234567890123", crd: "0.12345678901234568", lit: "0.12345678901234568"},
		{field: "float64", text: "1e21", crd: "1e+21", lit: "1e+21"},
		{field: "ptrFloat32", text: "0.1", crd: "0.1", lit: "defaultsPtr(float32(0.1))"},
		// known types: the CRD keeps the author's literal, Go sets the value it decodes to
		{field: "quantity", text: `"1000m"`, crd: `"1000m"`, lit: `resource.MustParse("1")`},
		{field: "duration", text: `"60s"`, crd: `"60s"`, lit: "&metav1.Duration{Duration: 60000000000}"},

		{field: "time", text: `"2020-01-01T00:00:00+01:00"`, crd: `"2020-01-01T00:00:00+01:00"`, lit: "&metav1.Time{Time: time.Unix(1577833200, 0)}"},
		{field: "endpoint", text: `{"name": "http", "port": 80, "weight": 0.5, "limit": "0.5"}`,
			crd: `{"limit":"0.5","name":"http","port":80,"weight":0.5}`,
			lit: `&Endpoint{Limit: defaultsPtr(resource.MustParse("500m")), Name: "http", Port: 80, Weight: defaultsPtr(float32(0.5))}`},
		{field: "endpoints", text: `[{"port": 1e2}, {"name": "b", "weight": null}]`, crd: `[{"port":100},{"name":"b"}]`,
			lit: `[]Endpoint{Endpoint{Port: 100}, Endpoint{Name: "b"}}`},

		{field: "uint8", text: "300", err: "+default=300: 300 does not fit in a uint8 (0 to 255)"},
		{field: "endpoint", text: `{"port": 2147483648}`, err: "port: 2147483648 does not fit in an int32"},
		{field: "endpoint", text: `{"weight": 0.123456789}`, err: "weight: a float32 holds 0.12345679, not 0.123456789"},
		{field: "endpoint", text: `{"Port": 80}`, err: "Port: no field Port in Endpoint; the field is spelled port"},
		{field: "endpoint", text: `{"host": "x"}`, err: "host: no field host in Endpoint, so Go clients cannot send it"},
		{field: "int8", text: "128", err: "+default=128: 128 does not fit in an int8 (-128 to 127)"},
		{field: "uint", text: "-1", err: "-1 does not fit in a uint (0 to 18446744073709551615)"},
		{field: "int64", text: "9223372036854775808", err: "9223372036854775808 does not fit in an int64"},
		{field: "uint64", text: "18446744073709551615", err: "does not fit in the apiserver's integers (int64"},
		{field: "int64", text: "ref(Big)", err: "1180591620717411303424 does not fit in an int64"},
		{field: "int64", text: "9007199254740993.5", err: "+default=9007199254740993.5: the field's schema type is integer, the default is a JSON number"},
		{field: "listInt32", text: "[1, 2.5]", err: "[1]: an int32 is a JSON integer, the default is a JSON number"},
		{field: "mapUint8", text: `{"a": 255, "b": 256}`, err: "b: 256 does not fit in a uint8 (0 to 255)"},
		{field: "float32", text: "1e300", err: "+default=1e300: 1e300 does not fit in a float32 (-3.4028235e+38 to 3.4028235e+38)"},
		{field: "float32", text: "0.123456789", err: "a float32 holds 0.12345679, not 0.123456789"},
		{field: "float32", text: "1e-50", err: "1e-50 is too small for a float32: it would be 0"},
		{field: "float64", text: "9007199254740993", err: "a float64 holds 9007199254740992, not 9007199254740993"},
		{field: "float64", text: "1e400", err: "+default=1e400: 1e400 is beyond the largest float64"},
		{field: "float64", text: "1e-400", err: "1e-400 is too small for a float64"},
		{field: "intOrString", text: "2147483648", err: "2147483648 does not fit in an int32"},
		{field: "listFloat64", text: "[1, null]", err: "[1]: null: a float64 cannot be null"},
		// strings: the same once the CRD is written in YAML and read back, or refused naming the character
		{field: "string", text: `"a\u0007\u2028\u2029\ufeff\ufdd0b"`, crd: "\"a\\u0007\\u2028\\u2029\ufeff\ufdd0b\"", lit: `"a\a\u2028\u2029\ufeff\ufdd0b"`},
		{field: "string", text: `"a\u0085b"`, err: `U+0085 (a control character) cannot be in a default: controller-gen writes the CRD in YAML, which reads "a\u0085b" back as "a b"`},
		{field: "string", text: `"\u007f"`, err: "U+007F (a control character) cannot be in a default: controller-gen writes the CRD in YAML, which cannot hold it (yaml: control characters are not allowed)"},
		{field: "string", text: `"\ufffe"`, err: "U+FFFE (a non-character) cannot be in a default"},
		{field: "listString", text: `["ok", "\u0080"]`, err: "[1]: U+0080 (a control character)"},
		{field: "mapUint8", text: `{"\u009f": 1}`, err: `"\u009f": U+009F (a control character)`},
	} {
		o := h.run(t, tc.field, tc.text)
		switch {
		case tc.err != "" && o.refused == "":
			t.Errorf("+default=%s on %s: accepted as %s (`%s`), want refused: %s", tc.text, tc.field, o.crd, o.lit, tc.err)
		case tc.err != "" && !strings.Contains(o.refused, tc.err):
			t.Errorf("+default=%s on %s: refused with\n\t%s\nwant\n\t%s", tc.text, tc.field, o.refused, tc.err)
		case tc.err != "" && !strings.Contains(o.refused, "testdata/numbers/v1/types.go:"):
			t.Errorf("+default=%s on %s: refused not at the marker: %s", tc.text, tc.field, o.refused)
		case tc.err == "" && o.refused != "":
			t.Errorf("+default=%s on %s: refused: %s", tc.text, tc.field, o.refused)
		case tc.err == "" && (string(o.crd) != tc.crd || o.lit != tc.lit):
			t.Errorf("+default=%s on %s: CRD default %s, Go `%s`; want %s, `%s`", tc.text, tc.field, o.crd, o.lit, tc.crd, tc.lit)
		case tc.err == "" && !jsonnum.EqualJSON(o.goJSON, o.readJSON):
			t.Errorf("+default=%s on %s: Go sets %s, a Go client reads %s from what the apiserver stores (%s)", tc.text, tc.field, o.goJSON, o.readJSON, o.apiJSON)
		}
	}
}

// TestEmittedValuesCompile compiles, once, the code the defaults generator
// emits for every accepted value of FuzzDefaultValues' seed corpus, runs
// it, and compares what each value encodes to with evalLit's evaluation
// (the fuzz target's stand-in for the compiler) and with the CRD default
// as the apiserver stores it.
func TestEmittedValuesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program; skipped with -short")
	}
	h := loadValuesHarness(t)
	files, err := filepath.Glob("testdata/fuzz/FuzzDefaultValues/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus: %v", err)
	}
	imports := map[string]string{"encoding/json": "json", "fmt": "fmt",
		"github.com/controller-gen-default/controller-gen-default/defaultgen/testdata/numbers/v1": "numbersv1"}
	if h.pkg.PkgPath != "github.com/controller-gen-default/controller-gen-default/defaultgen/testdata/numbers/v1" {
		t.Fatalf("numbers loaded as %s", h.pkg.PkgPath)
	}
	var body strings.Builder
	var want []string
	var names []string
	for _, p := range files {
		field, text := readCorpusEntry(t, p)
		o := h.run(t, h.pick(field), text)
		if o.refused != "" {
			continue
		}
		for path, name := range o.imports {
			imports[path] = name
		}
		goField := fieldSel(t, o.field)
		fmt.Fprintf(&body, "\t{\n\t\tvar s numbersv1.Spec\n\t\ts.%s = %s\n\t\tb, err := json.Marshal(s.%s)\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n\t\tfmt.Println(string(b))\n\t}\n",
			goField, o.mainLit, goField)
		if !jsonnum.EqualJSON(o.goJSON, o.readJSON) {
			t.Errorf("%s: evalLit %s, read from the apiserver's %s: %s", filepath.Base(p), o.goJSON, o.apiJSON, o.readJSON)
		}
		want = append(want, string(o.goJSON))
		names = append(names, filepath.Base(p))
	}
	if len(want) < 20 {
		t.Fatalf("only %d accepted values in the seed corpus", len(want))
	}
	var src strings.Builder
	src.WriteString("// Code generated by TestEmittedValuesCompile. DO NOT EDIT.\n\npackage main\n\nimport (\n")
	paths := make([]string, 0, len(imports))
	for p := range imports {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		fmt.Fprintf(&src, "\t%s %q\n", imports[p], p)
	}
	src.WriteString(")\n\nfunc defaultsPtr[T any](v T) *T { return &v }\n\nfunc main() {\n")
	src.WriteString(body.String())
	src.WriteString("}\n")

	dir, err := os.MkdirTemp("testdata", "tmp-values-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./"+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the emitted code does not compile or run: %v\n%s\n%s", err, stderr.String(), src.String())
	}
	got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), stdout.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: compiled %s, evalLit %s", names[i], got[i], want[i])
		}
	}
	t.Logf("%d values compiled and agree with evalLit and the apiserver", len(want))
}

func readCorpusEntry(t *testing.T, path string) (field, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 3 || lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: not a corpus entry of two strings", path)
	}
	var out [2]string
	for i, l := range lines[1:] {
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(l, "string("), ")"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[i] = s
	}
	return out[0], out[1]
}

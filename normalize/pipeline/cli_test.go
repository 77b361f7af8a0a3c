package pipeline

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := RunCLI(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCLI(t *testing.T) {
	crd := "testdata/crds/structpointers.yaml"
	t.Run("one document is printed as itself, defaulted", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crd, "testdata/valid.yaml")
		if code != ExitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if strings.HasPrefix(out, "---") || !strings.Contains(out, "name: other-name\n    number: 0\n") {
			t.Errorf("stdout:\n%s", out)
		}
	})
	t.Run("stdin, JSON output", func(t *testing.T) {
		out, _, code := runCLI(t, `{"apiVersion":"structpointers.kep.example.com/v1","kind":"StructPointer","metadata":{"name":"x"}}`,
			"--crd", "testdata/crds", "-o", "json", "-")
		if code != ExitOK {
			t.Fatalf("exit %d", code)
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		got, _ := json.Marshal(obj["spec"])
		if string(got) != `{"entry":{"name":"pointer-name","number":0}}` {
			t.Errorf("spec = %s", got)
		}
	})
	t.Run("several documents are a YAML stream; pruned fields are warnings", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crd, "testdata/two.yaml")
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if strings.Count(out, "---\n") != 2 || strings.Index(out, "name: one") > strings.Index(out, "name: two") {
			t.Errorf("stdout is not the two documents in order:\n%s", out)
		}
		if want := "testdata/two.yaml:2: warning: unknown field \"spec.extra\"\n"; stderr != want {
			t.Errorf("stderr = %q, want %q", stderr, want)
		}
	})
	t.Run("--strict makes pruned fields errors", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", "--crd", crd, "--strict", "testdata/two.yaml")
		if code != ExitInvalid || !strings.Contains(stderr, "testdata/two.yaml:2: error: unknown field \"spec.extra\"") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("an invalid document exits 1 with FILE:DOC: path: message", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", "--crd", crd, "testdata/invalid.yaml")
		if code != ExitInvalid || !strings.HasPrefix(stderr, "testdata/invalid.yaml:1: spec.entry.number: Invalid value: \"string\"") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("errors are listed by field path, the same on every run", func(t *testing.T) {
		want := "testdata/twoerrors.yaml:1: spec.entry.name: Invalid value: \"integer\": spec.entry.name in body must be of type string: \"integer\"\n" +
			"testdata/twoerrors.yaml:1: spec.entry.number: Invalid value: \"string\": spec.entry.number in body must be of type integer: \"string\"\n"
		for i := 0; i < 10; i++ {
			_, stderr, code := runCLI(t, "", "--crd", crd, "testdata/twoerrors.yaml")
			if code != ExitInvalid || stderr != want {
				t.Fatalf("run %d: exit %d, stderr\n%s\nwant\n%s", i, code, stderr, want)
			}
		}
	})
	for _, tc := range []struct{ name, crd, input, stderr string }{
		{"no CRD for the document", crd, "testdata/unknownkind.yaml", "no served CRD version for apiVersion \"other.example.com/v1\", kind \"Other\""},
		{"unparsable YAML", crd, "testdata/broken.yaml", "testdata/broken.yaml: "},
		{"an invalid CRD", "testdata/badcrd.yaml", "testdata/valid.yaml", "CRD bads.example.com: spec.validation.openAPIV3Schema.properties[spec].default.size: Required value"},
		{"a missing file", crd, "testdata/nope.yaml", "no such file"},
	} {
		t.Run(tc.name+" exits 2", func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "--crd", tc.crd, tc.input)
			if code != ExitUnusable || out != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, stderr, tc.stderr)
			}
		})
	}
	t.Run("usage without --crd", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", "testdata/valid.yaml")
		if code != ExitUnusable || !strings.Contains(stderr, "usage: controller-gen-default normalize") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}

package normalizecmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/normalize"
)

// TestMain runs the tests in internal/apiserver/objectpath, the package of the
// testdata they read and name in their messages.
func TestMain(m *testing.M) {
	if err := os.Chdir("../../../../internal/apiserver/objectpath"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// jsonLines decodes the output of -o json: one object per line.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for line := range strings.Lines(out) {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil || !strings.HasSuffix(line, "}\n") {
			t.Fatalf("not a line of one JSON object (%v): %q", err, line)
		}
		objs = append(objs, obj)
	}
	return objs
}

func TestCLI(t *testing.T) {
	crd := "testdata/crds/structpointers.yaml"
	t.Run("one document is printed as itself, defaulted", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crd, "testdata/valid.yaml")
		if code != normalize.ExitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		if strings.HasPrefix(out, "---") || !strings.Contains(out, "name: other-name\n    number: 0\n") {
			t.Errorf("stdout:\n%s", out)
		}
	})
	t.Run("stdin, JSON output", func(t *testing.T) {
		out, _, code := runCLI(t, `{"apiVersion":"structpointers.kep.example.com/v1","kind":"StructPointer","metadata":{"name":"x"}}`,
			"--crd", "testdata/crds", "-o", "json", "-")
		if code != normalize.ExitOK {
			t.Fatalf("exit %d", code)
		}
		objs := jsonLines(t, out)
		if len(objs) != 1 {
			t.Fatalf("%d objects:\n%s", len(objs), out)
		}
		got, _ := json.Marshal(objs[0]["spec"])
		if string(got) != `{"entry":{"name":"pointer-name","number":0}}` {
			t.Errorf("spec = %s", got)
		}
	})
	t.Run("several documents are a YAML stream; pruned fields are warnings", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crd, "testdata/two.yaml")
		if code != normalize.ExitOK {
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
		if code != normalize.ExitInvalid || !strings.Contains(stderr, "testdata/two.yaml:2: error: unknown field \"spec.extra\"") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("an invalid document exits 1 with FILE:DOC: path: message", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", "--crd", crd, "testdata/invalid.yaml")
		if code != normalize.ExitInvalid || !strings.HasPrefix(stderr, "testdata/invalid.yaml:1: spec.entry.number: Invalid value: \"string\"") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("errors are listed by field path, the same on every run", func(t *testing.T) {
		want := "testdata/twoerrors.yaml:1: spec.entry.name: Invalid value: \"integer\": spec.entry.name in body must be of type string: \"integer\"\n" +
			"testdata/twoerrors.yaml:1: spec.entry.number: Invalid value: \"string\": spec.entry.number in body must be of type integer: \"string\"\n"
		for i := 0; i < 10; i++ {
			_, stderr, code := runCLI(t, "", "--crd", crd, "testdata/twoerrors.yaml")
			if code != normalize.ExitInvalid || stderr != want {
				t.Fatalf("run %d: exit %d, stderr\n%s\nwant\n%s", i, code, stderr, want)
			}
		}
	})
	for _, tc := range []struct{ name, crd, input, stderr string }{
		{"no CRD for the document", crd, "testdata/unknownkind.yaml", "no served CRD version for apiVersion \"other.example.com/v1\", kind \"Other\""},
		{"a kind that is not a string", crd, "testdata/kindnumber.yaml", "testdata/kindnumber.yaml:1: kind: 5 is a number, not a string: write the kind's name, e.g. kind: Widget"},
		{"unparsable YAML", crd, "testdata/broken.yaml", "testdata/broken.yaml:1: error converting YAML to JSON: yaml: line 2:"},
		{"an invalid CRD", "testdata/badcrd.yaml", "testdata/valid.yaml", "CRD bads.example.com: spec.validation.openAPIV3Schema.properties[spec].default.size: Required value"},
		{"a missing file", crd, "testdata/nope.yaml", "no such file"},
	} {
		t.Run(tc.name+" exits 2", func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "--crd", tc.crd, tc.input)
			if code != normalize.ExitUnusable || out != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, stderr, tc.stderr)
			}
		})
	}
	for _, tc := range []struct {
		name  string
		args  []string
		first string // the first line of stderr
	}{
		{"without --crd", []string{"testdata/valid.yaml"}, "normalize: --crd is required"},
		{"a bad -o", []string{"--crd", crd, "-o", "xml", "testdata/valid.yaml"}, `normalize: -o "xml": must be yaml or json`},
		{"an empty -n", []string{"--crd", crd, "-n", "", "testdata/valid.yaml"}, "normalize: --namespace must not be empty"},
	} {
		t.Run("usage: "+tc.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, "", tc.args...)
			if code != normalize.ExitUnusable || !strings.HasPrefix(stderr, tc.first+"\nusage: controller-gen-default normalize") {
				t.Errorf("exit %d, stderr %q; want exit 2, %q and the usage", code, stderr, tc.first)
			}
		})
	}
}

func TestCLIRequests(t *testing.T) {
	crds := "testdata/crds"
	t.Run("empty documents are skipped", func(t *testing.T) {
		for _, in := range []string{"testdata/empty.yaml", "-"} {
			out, stderr, code := runCLI(t, "---\n", "--crd", crds, in)
			if code != normalize.ExitOK || out != "" || stderr != "" {
				t.Errorf("%s: exit %d, stdout %q, stderr %q", in, code, out, stderr)
			}
		}
		if out, _, code := runCLI(t, "---\n", "--crd", crds, "-o", "json", "-"); code != normalize.ExitOK || out != "" {
			t.Errorf("-o json: exit %d, stdout %q; want nothing", code, out)
		}
	})
	t.Run("a List stands for its items; a cluster-scoped object loses its namespace", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crds, "-o", "json", "testdata/list.yaml")
		if code != normalize.ExitOK || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		var got []string
		for _, o := range jsonLines(t, out) {
			m := o["metadata"].(map[string]any)
			got = append(got, fmt.Sprintf("%s %v/%v", o["kind"], m["namespace"], m["name"]))
		}
		if want := []string{"StructPointer default/one", "ClusterThing <nil>/two", "StructPointer team/three"}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("-n is the namespace of objects without one", func(t *testing.T) {
		out, _, code := runCLI(t, "", "--crd", crds, "-n", "team", "testdata/valid.yaml")
		if code != normalize.ExitOK || !strings.Contains(out, "  namespace: team\n") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("with -n, an object in another namespace exits 2, as kubectl refuses it, after the objects before it", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crds, "--namespace", "other", "-o", "json", "testdata/list.yaml")
		want := "testdata/list.yaml:2:1: the namespace from the provided object \"team\" does not match the namespace \"other\". You must pass '--namespace=team' to perform this operation.\n"
		if code != normalize.ExitUnusable || stderr != want {
			t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
		}
		var got []string
		for _, o := range jsonLines(t, out) {
			got = append(got, o["metadata"].(map[string]any)["name"].(string))
		}
		if want := []string{"one", "two"}; !reflect.DeepEqual(got, want) {
			t.Errorf("printed %q, want %q", got, want)
		}
	})
	t.Run("errors name FILE:DOC:ITEM", func(t *testing.T) {
		in := "apiVersion: v1\nkind: List\nitems:\n- apiVersion: example.com/v2\n  kind: ClusterThing\n  metadata: {name: ok}\n" +
			"- apiVersion: example.com/v2\n  kind: ClusterThing\n  metadata: {name: Bad_Name, finalizers: [foo]}\n"
		_, stderr, code := runCLI(t, in, "--crd", crds, "-")
		if code != normalize.ExitInvalid || !strings.HasPrefix(stderr, "-:1:2: metadata.name: Invalid value: \"Bad_Name\"") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("a document that is not an object exits 2", func(t *testing.T) {
		_, stderr, code := runCLI(t, "---\n- a list\n", "--crd", crds, "-")
		if code != normalize.ExitUnusable || stderr != "-:1: not an object: a list\n" {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("warnings: finalizer names", func(t *testing.T) {
		in := "apiVersion: example.com/v2\nkind: ClusterThing\nmetadata: {name: a, finalizers: [foo]}\n"
		_, stderr, code := runCLI(t, in, "--crd", crds, "-")
		if code != normalize.ExitOK || stderr != "-:1: warning: metadata.finalizers: \"foo\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers\n" {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("--strict: unknown fields refuse the object, and nothing else is checked", func(t *testing.T) {
		in := "apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata: {name: a}\nspec: {extra: 1, entry: {number: x}}\n"
		_, stderr, code := runCLI(t, in, "--crd", crds, "--strict", "-")
		if code != normalize.ExitInvalid || stderr != "-:1: error: unknown field \"spec.extra\"\n" {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
	t.Run("sizes: the request body and the object in etcd", func(t *testing.T) {
		obj := func(n int) string {
			return `{"apiVersion":"example.com/v2","kind":"ClusterThing","metadata":{"name":"a"},"spec":{"data":"` + strings.Repeat("x", n) + `"}}`
		}
		for n, want := range map[int]string{
			3_200_000: "-:1: Request entity too large: limit is 3145728\n",
			1_600_000: "-:1: etcdserver: request is too large\n",
			1_000_000: "",
		} {
			_, stderr, code := runCLI(t, obj(n), "--crd", crds, "-")
			if stderr != want || (code == normalize.ExitOK) != (want == "") {
				t.Errorf("%d bytes: exit %d, stderr %q; want %q", n, code, stderr, want)
			}
		}
	})
}

// TestCLIDuplicateFields: a field given twice keeps its last value; it is
// a warning, and with --strict an error that refuses the object, in the
// apiserver's words (`duplicate field "spec.entry.number"`), before the
// unknown fields, as the apiserver's strict decoding orders them.
func TestCLIDuplicateFields(t *testing.T) {
	const in = "apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata:\n  name: dup\n" +
		"spec:\n  entry:\n    number: 3\n    number: 4\n  extra: true\n"
	crd := "testdata/crds/structpointers.yaml"
	t.Run("warn", func(t *testing.T) {
		out, stderr, code := runCLI(t, in, "--crd", crd, "-")
		want := "-:1: warning: duplicate field \"spec.entry.number\"\n-:1: warning: unknown field \"spec.extra\"\n"
		if code != normalize.ExitOK || stderr != want {
			t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
		}
		if !strings.Contains(out, "number: 4\n") {
			t.Errorf("the last value is not kept:\n%s", out)
		}
	})
	t.Run("strict", func(t *testing.T) {
		_, stderr, code := runCLI(t, in, "--crd", crd, "--strict", "-")
		want := "-:1: error: duplicate field \"spec.entry.number\"\n-:1: error: unknown field \"spec.extra\"\n"
		if code != normalize.ExitInvalid || stderr != want {
			t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
		}
	})
	t.Run("strict, only a duplicate", func(t *testing.T) {
		_, stderr, code := runCLI(t, strings.Replace(in, "  extra: true\n", "", 1), "--crd", crd, "--strict", "-")
		if want := "-:1: error: duplicate field \"spec.entry.number\"\n"; code != normalize.ExitInvalid || stderr != want {
			t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
		}
	})
}

// TestCLISkipOtherGroups: a samples file mixes a Namespace and a ConfigMap
// with custom resources. Without --skip-other-groups the Namespace ends the
// run (exit 2) and nothing after it is checked; with it, the objects of
// groups no CRD has are skipped with a note each, in input order among the
// other objects' messages, and the custom resources are checked. An object
// of a group a CRD has, but of a kind or version none serves, stays
// unusable.
func TestCLISkipOtherGroups(t *testing.T) {
	crds := "testdata/crds"
	const (
		namespace = "testdata/mixed.yaml:1: skipped (no CRD has the group): apiVersion \"v1\", kind \"Namespace\"\n"
		finalizer = "testdata/mixed.yaml:2: warning: metadata.finalizers: \"foo\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers\n"
		configMap = "testdata/mixed.yaml:3: skipped (no CRD has the group): apiVersion \"v1\", kind \"ConfigMap\"\n"
	)
	t.Run("without the flag, the Namespace ends the run", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", "--crd", crds, "testdata/mixed.yaml")
		want := "testdata/mixed.yaml:1: no served CRD version for apiVersion \"v1\", kind \"Namespace\"\n"
		if code != normalize.ExitUnusable || out != "" || stderr != want {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, nothing, %q", code, out, stderr, want)
		}
	})
	for _, output := range []string{"yaml", "json"} {
		t.Run("with the flag, -o "+output, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "--crd", crds, "--skip-other-groups", "-o", output, "testdata/mixed.yaml")
			if want := namespace + finalizer + configMap; code != normalize.ExitOK || stderr != want {
				t.Errorf("exit %d, stderr\n%s\nwant exit 0,\n%s", code, stderr, want)
			}
			var printed []string
			for _, o := range decodeOutput(t, out, output) {
				printed = append(printed, fmt.Sprint(o["kind"], " ", o["metadata"].(map[string]any)["name"], " ", o["spec"]))
			}
			// checked: created, defaulted
			want := []string{"ClusterThing one map[size:M]", "StructPointer two map[entry:map[name:pointer-name number:0]]"}
			if !reflect.DeepEqual(printed, want) {
				t.Errorf("printed %q, want %q", printed, want)
			}
		})
	}
	t.Run("a skipped object as the last", func(t *testing.T) {
		in := "apiVersion: example.com/v2\nkind: ClusterThing\nmetadata: {name: a}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\n"
		out, stderr, code := runCLI(t, in, "--crd", crds, "--skip-other-groups", "-")
		if want := "-:2: skipped (no CRD has the group): apiVersion \"apps/v1\", kind \"Deployment\"\n"; code != normalize.ExitOK || stderr != want {
			t.Errorf("exit %d, stderr %q; want %q", code, stderr, want)
		}
		if strings.HasPrefix(out, "---") || !strings.Contains(out, "name: a\n") {
			t.Errorf("one object is printed as itself:\n%s", out)
		}
	})
	for _, tc := range []struct{ name, in, stderr string }{
		{"a version no CRD of the group serves", "apiVersion: example.com/v9\nkind: ClusterThing\nmetadata: {name: a}\n",
			"-:2: no served CRD version for apiVersion \"example.com/v9\", kind \"ClusterThing\"\n"},
		{"a kind no CRD of the group has", "apiVersion: example.com/v2\nkind: Gizmo\nmetadata: {name: a}\n",
			"-:2: no served CRD version for apiVersion \"example.com/v2\", kind \"Gizmo\"\n"},
	} {
		t.Run("with the flag, "+tc.name+" exits 2", func(t *testing.T) {
			in := "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\n" + tc.in
			out, stderr, code := runCLI(t, in, "--crd", crds, "--skip-other-groups", "-")
			want := "-:1: skipped (no CRD has the group): apiVersion \"v1\", kind \"Namespace\"\n" + tc.stderr
			if code != normalize.ExitUnusable || out != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, %q", code, out, stderr, want)
			}
		})
	}
}

// decodeOutput decodes stdout: a YAML stream, or JSON lines.
func decodeOutput(t *testing.T, out, format string) []map[string]any {
	t.Helper()
	if format == "json" {
		return jsonLines(t, out)
	}
	var objs []map[string]any
	for _, doc := range strings.Split(out, "---\n")[1:] {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%v: %q", err, doc)
		}
		objs = append(objs, obj)
	}
	return objs
}

// TestCLIDeprecatedVersions: an object of a deprecated version gets the
// warning the apiserver sends with every request at that version, created
// or refused, before the object's other messages: the version's
// deprecationWarning, or the apiserver's default text without one. A
// version that is not deprecated gets none.
func TestCLIDeprecatedVersions(t *testing.T) {
	crd := "testdata/deprecated.yaml"
	obj := func(version, spec string) string {
		return "apiVersion: deprecated.example.com/" + version + "\nkind: Gadget\nmetadata: {name: g}\nspec: " + spec + "\n"
	}
	for _, tc := range []struct {
		name, in, stderr string
		code             int
	}{
		{"without deprecationWarning: the default text", obj("v1alpha1", "{}"),
			"-:1: warning: deprecated.example.com/v1alpha1 Gadget is deprecated; use deprecated.example.com/v1 Gadget\n", normalize.ExitOK},
		{"with deprecationWarning: its text", obj("v1beta1", "{}"),
			"-:1: warning: deprecated.example.com/v1beta1 Gadget is going away in 2.0; use v1\n", normalize.ExitOK},
		{"not deprecated: none", obj("v1", "{}"), "", normalize.ExitOK},
		{"before the unknown fields", obj("v1alpha1", "{extra: 1}"),
			"-:1: warning: deprecated.example.com/v1alpha1 Gadget is deprecated; use deprecated.example.com/v1 Gadget\n" +
				"-:1: warning: unknown field \"spec.extra\"\n", normalize.ExitOK},
		{"a refused object too", obj("v1beta1", "{size: 5}"),
			"-:1: warning: deprecated.example.com/v1beta1 Gadget is going away in 2.0; use v1\n" +
				"-:1: spec.size: Invalid value: \"integer\": spec.size in body must be of type string: \"integer\"\n", normalize.ExitInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := runCLI(t, tc.in, "--crd", crd, "-")
			if code != tc.code || stderr != tc.stderr {
				t.Errorf("exit %d, stderr %q; want exit %d, %q", code, stderr, tc.code, tc.stderr)
			}
			if !strings.Contains(out, "size: ") {
				t.Errorf("stdout:\n%s", out)
			}
		})
	}
	t.Run("-o json: on stderr, the objects as they are", func(t *testing.T) {
		out, stderr, code := runCLI(t, obj("v1alpha1", "{}"), "--crd", crd, "-o", "json", "-")
		if code != normalize.ExitOK || !strings.HasPrefix(stderr, "-:1: warning: deprecated.example.com/v1alpha1 Gadget is deprecated") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
		if objs := jsonLines(t, out); len(objs) != 1 || len(objs[0]) != 4 {
			t.Errorf("stdout %q: want the object alone", out)
		}
	})
}

// TestCLIDirectory: a directory argument is its manifest files, in order,
// as kubectl create -f DIR reads them (manifest.Files).
func TestCLIDirectory(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"b.yaml": "testdata/mixed.yaml", "a.yaml": "testdata/two.yaml"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	byDir, stderrDir, codeDir := runCLI(t, "", "--crd", "testdata/crds", "--skip-other-groups", dir)
	byFiles, stderrFiles, codeFiles := runCLI(t, "", "--crd", "testdata/crds", "--skip-other-groups", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"))
	if codeDir != codeFiles || byDir != byFiles || stderrDir != stderrFiles || byDir == "" {
		t.Errorf("the directory: exit %d\n%s\n%s\nits files: exit %d\n%s\n%s", codeDir, byDir, stderrDir, codeFiles, byFiles, stderrFiles)
	}
	if _, stderr, code := runCLI(t, "", "--crd", "testdata/crds", t.TempDir()); code != normalize.ExitUnusable || !strings.Contains(stderr, "a directory without .json, .yaml or .yml files") {
		t.Errorf("an empty directory: exit %d, %q", code, stderr)
	}
}

// TestCLIRecursive: -R, --recursive reads a directory's subdirectories
// too, in kubectl's order (each directory's entries by name); without it
// a directory whose manifests are all in subdirectories is refused with a
// hint to use -R, as before but for the hint.
func TestCLIRecursive(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"team-b/b.yaml": "testdata/mixed.yaml", "team-a/a.yaml": "testdata/two.yaml"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runCLI(t, "", "--crd", "testdata/crds", "--skip-other-groups", dir)
	if code != normalize.ExitUnusable || !strings.Contains(stderr, "a directory without .json, .yaml or .yml files directly in it") || !strings.Contains(stderr, "use -R (--recursive)") {
		t.Errorf("subfolders only, without -R: exit %d, %q", code, stderr)
	}
	byFiles, stderrFiles, codeFiles := runCLI(t, "", "--crd", "testdata/crds", "--skip-other-groups", filepath.Join(dir, "team-a", "a.yaml"), filepath.Join(dir, "team-b", "b.yaml"))
	for _, flag := range []string{"-R", "--recursive"} {
		byDir, stderrDir, codeDir := runCLI(t, "", "--crd", "testdata/crds", "--skip-other-groups", dir, flag)
		if codeDir != codeFiles || byDir != byFiles || stderrDir != stderrFiles || byDir == "" {
			t.Errorf("%s: exit %d\n%s\n%s\nits files: exit %d\n%s\n%s", flag, codeDir, byDir, stderrDir, codeFiles, byFiles, stderrFiles)
		}
	}
}

// TestCLIResourceVersion: kubectl create -f clears metadata.resourceVersion
// before it sends an object (resource.Helper.CreateWithOptions, modify
// true), so a kubectl get -o yaml dump, a List whose items carry one, is
// created, not refused with "resourceVersion should not be set".
func TestCLIResourceVersion(t *testing.T) {
	dump := `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: structpointers.kep.example.com/v1
  kind: StructPointer
  metadata:
    name: dumped
    namespace: default
    resourceVersion: "4242"
    uid: 1b4e28ba-2fa1-11d2-883f-0016d3cca427
    creationTimestamp: "2026-01-02T03:04:05Z"
    generation: 3
  spec:
    entry:
      name: other-name
`
	out, stderr, code := runCLI(t, dump, "--crd", "testdata/crds/structpointers.yaml", "-o", "json", "-")
	if code != normalize.ExitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	objs := jsonLines(t, out)
	if len(objs) != 1 {
		t.Fatalf("stdout %q: want one object", out)
	}
	m := objs[0]["metadata"].(map[string]any)
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp"} {
		if _, ok := m[f]; ok {
			t.Errorf("metadata %v: %s is the server's", m, f)
		}
	}
	if m["generation"] != float64(1) {
		t.Errorf("metadata %v: want generation 1, as PrepareForCreate sets it", m)
	}
}

// TestCLIFlagsAfterFiles: a flag after a file name is a flag, as kubectl
// reads it, not a file: the objects before it are printed with it.
func TestCLIFlagsAfterFiles(t *testing.T) {
	crd := "testdata/crds/structpointers.yaml"
	first, _, code1 := runCLI(t, "", "--crd", crd, "-o", "json", "testdata/valid.yaml")
	after, stderr, code2 := runCLI(t, "", "testdata/valid.yaml", "--crd", crd, "-o", "json")
	if code1 != normalize.ExitOK || code2 != code1 || after != first {
		t.Errorf("flags after the file: exit %d (flags first: %d), stdout %q, want %q\nstderr:\n%s", code2, code1, after, first, stderr)
	}
}

// TestCLIBadAPIVersion: an apiVersion that is not group/version is named
// as written, not as the empty group/version it parses to.
func TestCLIBadAPIVersion(t *testing.T) {
	in := "apiVersion: a/b/c\nkind: ClusterThing\nmetadata: {name: a}\n"
	out, stderr, code := runCLI(t, in, "--crd", "testdata/crds/clusterthings.yaml", "-")
	if want := "-:1: no served CRD version for apiVersion \"a/b/c\", kind \"ClusterThing\"\n"; code != normalize.ExitUnusable || out != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, %q", code, out, stderr, want)
	}
}

// TestCLIConflictingCRDs: two CRDs of one name with different content, or
// of one kind, end the run before any object (exit 2), naming both and
// where each is; the same CRD given twice (a file and a directory holding
// it) is read once.
func TestCLIConflictingCRDs(t *testing.T) {
	b, err := os.ReadFile("testdata/crds/clusterthings.yaml")
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed.yaml")
	if err := os.WriteFile(changed, bytes.Replace(b, []byte("type: object"), []byte("type: object\n        description: changed"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", "--crd", "testdata/crds", "--crd", changed, "testdata/two.yaml")
	want := changed + ":1: CRD clusterthings.example.com is also at testdata/crds/clusterthings.yaml:1, with different content; the apiserver keeps the first: " +
		"kubectl create refuses the second (AlreadyExists), kubectl apply would replace the first with it; remove one of them\n"
	if code != normalize.ExitUnusable || out != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", code, out, stderr, want)
	}
	kind := filepath.Join(t.TempDir(), "kind.yaml")
	other := bytes.ReplaceAll(b, []byte("clusterthings"), []byte("otherthings"))
	if err := os.WriteFile(kind, other, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = runCLI(t, "", "--crd", "testdata/crds", "--crd", kind, "testdata/two.yaml")
	if code != normalize.ExitUnusable || !strings.HasPrefix(stderr, kind+`:1: CRD otherthings.example.com claims spec.names.singular "clusterthing", spec.names.kind "ClusterThing", spec.names.listKind "ClusterThingList", which CRD clusterthings.example.com at testdata/crds/clusterthings.yaml:1 has; the apiserver keeps the first: the second is not served (condition NamesAccepted False, reason ListKindConflict`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	once, stderrOnce, codeOnce := runCLI(t, "", "--crd", "testdata/crds", "testdata/two.yaml")
	twice, stderrTwice, codeTwice := runCLI(t, "", "--crd", "testdata/crds", "--crd", "testdata/crds/clusterthings.yaml", "testdata/two.yaml")
	if once != twice || stderrOnce != stderrTwice || codeOnce != codeTwice || once == "" {
		t.Errorf("a CRD given twice: exit %d\n%s%s\nonce: exit %d\n%s%s", codeTwice, twice, stderrTwice, codeOnce, once, stderrOnce)
	}
}

// TestCLILongEnum: the errors about a 20,000-value enum list its values
// once per object, capped (refusal.ValueLists), where the apiserver writes
// them all on every line (189 KB each), for objects and for a CRD whose
// default the enum refuses.
func TestCLILongEnum(t *testing.T) {
	vals := make([]string, 20000)
	for i := range vals {
		vals[i] = fmt.Sprintf("%q", fmt.Sprint("v", i))
	}
	crd := func(def string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"enums.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"enums","kind":"Enum"},` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{` +
			`"a":{"type":"string",` + def + `"enum":[` + strings.Join(vals, ",") + `]},"b":{"type":"array","items":{"type":"string","enum":[` + strings.Join(vals, ",") + `]}}}}}}}}]}}`
	}
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.json"), filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(crd("")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(crd(`"default":"nope",`)), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := "apiVersion: example.com/v1\nkind: Enum\nmetadata: {name: e}\nspec: {a: x, b: [y, z]}\n"
	for _, tc := range []struct {
		crd  string
		code int
		want string
	}{
		{good, normalize.ExitInvalid, `-:1: spec.b[1]: Unsupported value: "z": supported values: as for spec.a (20000 values)`},
		{bad, normalize.ExitUnusable, `supported values: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", ... and 19990 more (20000 in all)`},
	} {
		_, stderr, code := runCLI(t, obj, "--crd", tc.crd)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("exit %d, want %d and %q:\n%.2000s", code, tc.code, tc.want, stderr)
		}
		for line := range strings.Lines(stderr) {
			if len(line) > 2048 {
				t.Errorf("a line of %d bytes: %.300s", len(line), line)
			}
		}
	}
}

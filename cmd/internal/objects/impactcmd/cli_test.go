package impactcmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/impact"
)

// TestMain runs the tests in internal/impact, the package of the
// testdata they read and name in their messages.
func TestMain(m *testing.M) {
	if err := os.Chdir("../../../../internal/impact"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// conversionNote ends every text report (impact's conversionNote).
const conversionNote = "Conversion webhooks are not called: objects are converted between versions as with the None strategy (only apiVersion changes)."

func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

var oldNew = []string{"--old", "testdata/old.yaml", "--new", "testdata/new.yaml"}

func TestCLIDefaults(t *testing.T) {
	out, stderr, code := runCLI(t, "", oldNew...)
	want := `CRD gadgets.impact.example.com: NEW no longer serves v1beta1: requests at it are refused (404)
CRD gadgets.impact.example.com: NEW stores objects as v1 (OLD: v1beta1): stored objects stay v1beta1 until their next write
widgets.impact.example.com v1 spec.color: default added: "blue"
widgets.impact.example.com v1 spec.replicas: default removed (was 1)
widgets.impact.example.com v1 spec.size: default changed: "M" -> "L"
3 defaults added, changed or removed.
` + conversionNote + "\n"
	if out != want || stderr != "" || code != impact.ExitImpact {
		t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit 1 and:\n%s", code, stderr, out, want)
	}
	out, _, code = runCLI(t, "", append(oldNew, "-o", "json")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != impact.ExitImpact || len(lines) != 5 || lines[2] != `{"crd":"widgets.impact.example.com","change":"added","version":"v1","path":"spec.color","new":"blue"}` {
		t.Errorf("exit %d, JSON:\n%s", code, out)
	}
	// a CRD against itself: nothing changes
	out, _, code = runCLI(t, "", "--old", "testdata/new.yaml", "--new", "testdata/new.yaml")
	if code != impact.ExitOK || !strings.HasPrefix(out, "0 defaults added, changed or removed.\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestCLIObjects(t *testing.T) {
	t.Run("text: the defaults grouped, a line per object to look at, the table", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", append(oldNew, "testdata/objects.yaml", "testdata/list.yaml")...)
		if code != impact.ExitImpact || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		want := "CRD gadgets.impact.example.com: NEW no longer serves v1beta1: requests at it are refused (404)\n" +
			"CRD gadgets.impact.example.com: NEW stores objects as v1 (OLD: v1beta1): stored objects stay v1beta1 until their next write\n" +
			"1 object gain defaults on read under NEW, in 1 group (CRD, path, value):\n" +
			"  change what a client that applies manifests reads: 1 group\n" +
			"         1  widgets.impact.example.com v1: spec.color = \"blue\"  e.g. Widget default/plain\n" +
			"7 objects to look at (-v shows each one's details):\n" +
			"  testdata/objects.yaml:3: Widget default/legacy (impact.example.com/v1): loses fields: loses spec.legacy\n" +
			"  testdata/objects.yaml:4: Widget default/enum-tightened (impact.example.com/v1): held by ratcheting: spec.mode: Unsupported value: \"C\": supported values: \"A\", \"B\"\n" +
			"  testdata/objects.yaml:5: Widget default/minimum-raised (impact.example.com/v1): held by ratcheting: spec.port: Invalid value: 80: spec.port in body should be greater than or equal to 1024\n" +
			"  testdata/objects.yaml:6: Widget default/invalid-under-old (impact.example.com/v1): invalid under OLD, held by ratcheting: spec.mode: Unsupported value: \"Z\": supported values: \"A\", \"B\", \"C\"\n" +
			"  testdata/objects.yaml:7: Widget default/negative-replicas (impact.example.com/v1): refused on update: .spec.replicas: Invalid value: -1: should be a non-negative integer\n" +
			"  testdata/objects.yaml:8: Gadget default/beta (impact.example.com/v1beta1): version not served\n" +
			"  testdata/list.yaml:1:1: Widget prod/dumped (impact.example.com/v1): held by ratcheting: status.phase: Unsupported value: \"Legacy\": supported values: \"Ready\", \"Pending\"\n"
		if !strings.HasPrefix(out, want) || !strings.HasSuffix(out, conversionNote+"\n") {
			t.Errorf("stdout:\n%s\nwant it to start with\n%s", out, want)
		}
	})
	t.Run("text -v: a line per object, details, the table", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", append(oldNew, "-v", "testdata/objects.yaml", "testdata/list.yaml")...)
		if code != impact.ExitImpact || stderr != "" {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
		for _, want := range []string{
			"testdata/objects.yaml:1: Widget default/plain (impact.example.com/v1): gains defaults\n" +
				"    --- stored (OLD)\n    +++ read (NEW)\n    @@ -4,5 +4,6 @@\n       name: plain\n       namespace: default\n     spec:\n    +  color: blue\n       replicas: 1\n       size: M\n",
			"testdata/objects.yaml:2: Widget default/explicit (impact.example.com/v1): unchanged\n",
			"testdata/objects.yaml:3: Widget default/legacy (impact.example.com/v1): loses fields\n",
			"    -  legacy: keep-me\n",
			"    held only by ratcheting (a no-op update keeps them; a change must fix them):\n" +
				"      spec.mode: Unsupported value: \"C\": supported values: \"A\", \"B\"\n" +
				"        an update setting spec.mode to \"Cx\" is refused: spec.mode: Unsupported value: \"Cx\": supported values: \"A\", \"B\"\n",
			"    no-op update refused:\n      .spec.replicas: Invalid value: -1: should be a non-negative integer\n",
			"testdata/objects.yaml:8: Gadget default/beta (impact.example.com/v1beta1): version not served, storage version changed\n    NEW does not serve v1beta1: read at v1\n",
			"testdata/list.yaml:1:1: Widget prod/dumped (impact.example.com/v1): held by ratcheting\n",
			"        an update through /status setting status.phase to \"Legacyx\" is refused",
			"objects                            11\n" +
				"  unchanged                         3\n" +
				"  gaining defaults                  1\n" +
				"  losing fields                     1\n" +
				"  refused on update                 1\n" +
				"  held by ratcheting                4\n" +
				"  invalid under OLD                 1\n" +
				"  version no longer served          1\n" +
				"  storage version changed           2\n" +
				"  CRD removed                       0\n" +
				"  CRD update refused                0\n" + conversionNote + "\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks\n%s\nstdout:\n%s", want, out)
			}
		}
	})
	t.Run("json: one record per object, the table on stderr", func(t *testing.T) {
		out, stderr, code := runCLI(t, "", append(oldNew, "-o", "json", "testdata/objects.yaml")...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != impact.ExitImpact || len(lines) != 9 || !strings.HasPrefix(stderr, "objects                             9\n") {
			t.Fatalf("exit %d, %d lines, stderr %q", code, len(lines), stderr)
		}
		var r impact.Record
		if err := json.Unmarshal([]byte(lines[2]), &r); err != nil {
			t.Fatal(err)
		}
		if r.Name != "legacy" || r.Source != "testdata/objects.yaml:3" || strings.Join(r.Changes.Removed, ",") != "spec.legacy" ||
			strings.Join(r.Categories, ",") != impact.LosesFields || r.Update == nil || r.Update.Refused {
			t.Errorf("record %+v", r)
		}
	})
	t.Run("exit 0 when nothing is lost or refused", func(t *testing.T) {
		obj := `{"apiVersion":"impact.example.com/v1","kind":"Widget","metadata":{"name":"x"},"spec":{"color":"red"}}`
		out, _, code := runCLI(t, obj, append(oldNew, "-v", "-")...)
		if code != impact.ExitOK || !strings.HasPrefix(out, "CRD gadgets") || !strings.Contains(out, "-:1: Widget default/x (impact.example.com/v1): unchanged\n") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("empty documents are skipped; a cluster-scoped object keeps no namespace", func(t *testing.T) {
		things := "../apiserver/objectpath/testdata/crds/clusterthings.yaml"
		in := "---\n---\n# nothing\n---\napiVersion: example.com/v2\nkind: ClusterThing\nmetadata: {name: a, namespace: kustomized}\n---\n---\n"
		out, stderr, code := runCLI(t, in, "--old", things, "--new", things, "-v", "-")
		if code != impact.ExitOK || stderr != "" || !strings.Contains(out, "-:1: ClusterThing a (example.com/v2): unchanged\n") || !strings.Contains(out, "objects                             1\n") {
			t.Errorf("exit %d, stderr %q:\n%s", code, stderr, out)
		}
	})
	t.Run("--skip-other-groups skips built-in objects", func(t *testing.T) {
		out, _, code := runCLI(t, "", append(oldNew, "--skip-other-groups", "testdata/mixed.yaml")...)
		if code != impact.ExitOK || !strings.Contains(out, "skipped (no CRD has the group)      1\n") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
}

// TestCLIRecursive: -R reads the object directories' subdirectories, as
// kubectl's -R; without it a directory of subfolders is unusable, with the
// hint to use -R.
func TestCLIRecursive(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/objects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "widgets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "widgets", "objects.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "", append(oldNew, dir)...)
	if code != impact.ExitUnusable || out != "" || !strings.Contains(stderr, "use -R (--recursive)") {
		t.Errorf("without -R: exit %d, stderr %q, stdout %q", code, stderr, out)
	}
	want, _, wantCode := runCLI(t, "", append(oldNew, filepath.Join(dir, "widgets", "objects.yaml"))...)
	out, stderr, code = runCLI(t, "", append(oldNew, "-R", dir)...)
	if code != wantCode || out != want || stderr != "" {
		t.Errorf("-R: exit %d (want %d), stderr %q, stdout:\n%s\nwant:\n%s", code, wantCode, stderr, out, want)
	}
}

// TestCLINewOnly: objects at a version only NEW serves (Widget v2, which
// NEW adds; Sprocket, a CRD NEW adds) are reported as new, created under
// NEW, not unusable input: exit 0 when NEW accepts them, 1 when it refuses
// one. An object with only generateName is named by it.
func TestCLINewOnly(t *testing.T) {
	grown := []string{"--old", "testdata/old.yaml", "--new", "testdata/new-grown.yaml"}
	in := "apiVersion: impact.example.com/v2\nkind: Widget\nmetadata: {name: next}\nspec: {mode: A}\n---\n" +
		"apiVersion: impact.example.com/v1\nkind: Sprocket\nmetadata: {generateName: sprocket-}\n"
	out, stderr, code := runCLI(t, in, append(grown, "-v", "-")...)
	for _, want := range []string{
		"-:1: Widget default/next (impact.example.com/v2): new: created under NEW only\n" +
			"    OLD serves no impact.example.com/v2 Widget: not stored before the change; checked as a create under NEW\n",
		"-:2: Sprocket default/sprocket-… (generateName) (impact.example.com/v1): new: created under NEW only\n",
		"  new: created under NEW only       2\n  invalid under NEW                 0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks\n%s\nstdout:\n%s", want, out)
		}
	}
	if code != impact.ExitOK || stderr != "" {
		t.Errorf("accepted under NEW: exit %d, stderr %q", code, stderr)
	}
	out, stderr, code = runCLI(t, "", append(grown, "-o", "json", "testdata/new-only.yaml")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != impact.ExitImpact || len(lines) != 4 || !strings.Contains(stderr, "  invalid under NEW                 1\n") {
		t.Fatalf("refused under NEW: exit %d, stderr %q, stdout:\n%s", code, stderr, out)
	}
	var r impact.Record
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "next-invalid" || strings.Join(r.Categories, ",") != impact.NewOnly+","+impact.InvalidUnderNew || !r.Fails || len(r.InvalidUnderNew) != 1 {
		t.Errorf("record %+v", r)
	}
	if !strings.Contains(lines[2], `"name":"","generateName":"sprocket-"`) {
		t.Errorf("the generateName record: %s", lines[2])
	}
	// a version neither side serves stays unusable input
	_, stderr, code = runCLI(t, "apiVersion: impact.example.com/v3\nkind: Widget\nmetadata: {name: x}\n", append(grown, "-")...)
	if code != impact.ExitUnusable || !strings.Contains(stderr, `no served CRD version for apiVersion "impact.example.com/v3", kind "Widget"`) {
		t.Errorf("v3: exit %d, stderr %q", code, stderr)
	}
}

func TestCLIUnusable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"an object without a CRD", append(oldNew, "testdata/nocrd.yaml"),
			`testdata/nocrd.yaml:1: no served CRD version for apiVersion "impact.example.com/v1", kind "Sprocket"`},
		{"an object of a built-in kind", append(oldNew, "testdata/mixed.yaml"), `testdata/mixed.yaml:1: no served CRD version for apiVersion "v1", kind "Service"`},
		{"a kind that is not a string", append(oldNew, "../apiserver/objectpath/testdata/kindnumber.yaml"),
			"../apiserver/objectpath/testdata/kindnumber.yaml:1: kind: 5 is a number, not a string: write the kind's name, e.g. kind: Widget"},
		{"an invalid OLD CRD", []string{"--old", "../apiserver/objectpath/testdata/badcrd.yaml", "--new", "testdata/new.yaml"},
			"OLD: CRD bads.example.com: spec.validation.openAPIV3Schema.properties[spec].default.size: Required value"},
		{"an invalid NEW CRD", []string{"--old", "testdata/old.yaml", "--new", "../apiserver/objectpath/testdata/badcrd.yaml"}, "NEW: CRD bads.example.com:"},
		{"unparsable input", append(oldNew, "../apiserver/objectpath/testdata/broken.yaml"), "../apiserver/objectpath/testdata/broken.yaml"},
		{"a missing file", append(oldNew, "testdata/nope.yaml"), "no such file"},
		{"no OLD CRD", []string{"--old", "testdata/objects.yaml", "--new", "testdata/new.yaml"}, "--old: no CustomResourceDefinition in testdata/objects.yaml"},
		{"no NEW CRD", []string{"--old", "testdata/old.yaml", "--new", "testdata/objects.yaml", "testdata/objects.yaml"}, "--new: no CustomResourceDefinition in testdata/objects.yaml"},
		{"two OLD CRDs of one name", []string{"--old", "testdata/old.yaml", "--old", "testdata/conflicts.yaml", "--new", "testdata/new.yaml"},
			"--old: testdata/conflicts.yaml:1: CRD widgets.impact.example.com is also at testdata/old.yaml:1, with different content; the apiserver keeps the first: " +
				"kubectl create refuses the second (AlreadyExists), kubectl apply would replace the first with it; remove one of them\n" +
				`--old: testdata/conflicts.yaml:2: CRD sprockets.impact.example.com claims spec.names.kind "Gadget", spec.names.listKind "GadgetList", which CRD gadgets.impact.example.com at testdata/old.yaml:2 has; ` +
				`the apiserver keeps the first: the second is not served (condition NamesAccepted False, reason ListKindConflict: "GadgetList" is already in use); remove one of them, or rename` + "\n"},
		{"two NEW CRDs of one kind", []string{"--old", "testdata/old.yaml", "--new", "testdata/new.yaml", "--new", "testdata/conflicts.yaml"}, "--new: testdata/conflicts.yaml:2: CRD sprockets"},
		{"no --new", []string{"--old", "testdata/old.yaml"}, "impact: --new is required\nusage: controller-gen-default impact"},
		{"no --old", []string{"--new", "testdata/old.yaml"}, "impact: --old is required\nusage: controller-gen-default impact"},
		{"a bad -o", append(oldNew, "-o", "yaml"), "impact: -o \"yaml\": must be text, json or markdown\nusage: controller-gen-default impact"},
		{"--objects of files", append(oldNew, "--objects", "testdata/objects.yaml"), "impact: --objects \"testdata/objects.yaml\": only kube://"},
		{"an unknown source", []string{"--old", "https://example.com/crds.yaml", "--new", "testdata/new.yaml"}, "--old: https://example.com/crds.yaml: unknown source https://"},
		{"a git source without a path", []string{"--old", "git://main", "--new", "testdata/new.yaml"}, "--old: git://main: write git://REF?path=PATH"},
		{"a kubeconfig that is not there", []string{"--old", "kube://", "--new", "testdata/new.yaml", "--kubeconfig", "testdata/nosuch-kubeconfig"}, "impact: kube://: kubeconfig: "},
		{"--setup without --convert", append(oldNew, "--setup", "example.com/x.Setup", "testdata/objects.yaml"), "impact: --setup needs --convert\nusage: controller-gen-default impact"},
		{"a document that is not an object", append(oldNew, "-"), "-:1: not an object: a list"},
		{"an object in another namespace than -n", append(oldNew, "-n", "team", "testdata/list.yaml"),
			`testdata/list.yaml:1:1: the namespace from the provided object "prod" does not match the namespace "team". You must pass '--namespace=prod' to perform this operation.`},
	} {
		t.Run(tc.name+" exits 2", func(t *testing.T) {
			out, stderr, code := runCLI(t, "- [a list]\n", tc.args...)
			if code != impact.ExitUnusable || out != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, stderr, tc.stderr)
			}
		})
	}
}

// TestCLIDuplicateFields: a field given twice is read as its last value,
// with the apiserver's warning (fieldValidation=Warn) on stderr.
func TestCLIDuplicateFields(t *testing.T) {
	in := "apiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: dup\n  namespace: default\nspec:\n  size: S\n  size: M\n  replicas: 1\n"
	out, stderr, code := runCLI(t, in, append(oldNew, "-v", "-")...)
	if want := "-:1: warning: duplicate field \"spec.size\"\n"; stderr != want || code == impact.ExitUnusable {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	if !strings.Contains(out, "size: M\n") {
		t.Errorf("the last value is not the one read:\n%s", out)
	}
}

// TestCLIFlagsAfterFiles: flags may follow the files, as kubectl's do;
// the run is the same as with the flags first.
func TestCLIFlagsAfterFiles(t *testing.T) {
	first, _, code1 := runCLI(t, "", append(append([]string{"-o", "json"}, oldNew...), "testdata/objects.yaml")...)
	after, stderr, code2 := runCLI(t, "", append([]string{"testdata/objects.yaml", "-o", "json"}, oldNew...)...)
	if code1 != code2 || first != after || first == "" {
		t.Errorf("flags after the file: exit %d, stdout differs from flags first (exit %d): %v\nstderr:\n%s", code2, code1, first != after, stderr)
	}
}

// TestCLILongEnum: the problems of an object about a 20,000-value enum
// list its values once, capped (refusal.ValueLists), in text and JSON,
// where the apiserver writes them all on every error (189 KB each).
func TestCLILongEnum(t *testing.T) {
	vals := make([]string, 20000)
	for i := range vals {
		vals[i] = strconv.Quote(fmt.Sprint("v", i))
	}
	enum := `{"type":"string","enum":[` + strings.Join(vals, ",") + `]}`
	crd := filepath.Join(t.TempDir(), "crd.json")
	if err := os.WriteFile(crd, []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"enums.example.com"},`+
		`"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"enums","kind":"Enum"},"versions":[{"name":"v1","served":true,"storage":true,`+
		`"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"a":`+enum+`,"b":{"type":"array","items":`+enum+`}}}}}}}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := "apiVersion: example.com/v1\nkind: Enum\nmetadata: {name: e, namespace: default}\nspec: {a: x, b: [y, z]}\n"
	for _, format := range []string{"text", "json"} {
		out, stderr, code := runCLI(t, obj, "--old", crd, "--new", crd, "-v", "-o", format, "-")
		if code != impact.ExitImpact || !strings.Contains(out, `... and 19990 more (20000 in all)`) || !strings.Contains(out, `as for spec.a (20000 values)`) {
			t.Errorf("-o %s: exit %d, stderr %q:\n%.3000s", format, code, stderr, out)
		}
		for line := range strings.Lines(out + stderr) {
			if len(line) > 4096 {
				t.Errorf("-o %s: a line of %d bytes: %.300s", format, len(line), line)
			}
		}
	}
}

// TestCLIReportWriteError: a report that cannot be written (stdout on a
// full device) is exit 2 with one line naming standard output, with FILE
// or without, in text and JSON; the run stops at the first failed write.
func TestCLIReportWriteError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		oldNew,
		append(oldNew, "-o", "json"),
		append(oldNew, "testdata/objects.yaml"),
		append(oldNew, "-o", "json", "testdata/objects.yaml"),
	} {
		var stderr bytes.Buffer
		code := Run(args, strings.NewReader(""), full, &stderr)
		want := "impact: writing the report to standard output: write /dev/full: no space left on device; the report is incomplete\n"
		// -o json writes its table to stderr, before the error
		if code != impact.ExitUnusable || !strings.HasSuffix(stderr.String(), want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", args, code, stderr.String(), want)
		}
	}
}

// TestCLITooLarge: a document refused unread as too large
// (manifest.TooLargeError) is invalid under OLD, as the apiserver refuses
// its create (413), named by its top lines; the objects after it are
// analyzed.
func TestCLITooLarge(t *testing.T) {
	big := "apiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: big\n  namespace: prod\nspec:\n  notes:\n" +
		strings.Repeat("  - "+strings.Repeat("y", 60)+"\n", 7<<20/64) +
		"---\napiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: small\nspec:\n  size: M\n"
	out, stderr, code := runCLI(t, big, append(oldNew, "-o", "json", "-")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != impact.ExitImpact || len(lines) != 2 {
		t.Fatalf("exit %d, %d records, stderr %q", code, len(lines), stderr)
	}
	var r impact.Record
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Source != "-:1" || r.Kind != "Widget" || r.Namespace != "prod" || r.Name != "big" || !r.Fails ||
		len(r.Categories) != 1 || r.Categories[0] != impact.InvalidUnderOld || len(r.InvalidUnderOld) != 1 ||
		!strings.HasPrefix(r.InvalidUnderOld[0].Message, "Request entity too large: limit is 3145728 (the document has ") {
		t.Errorf("record %s", lines[0])
	}
	if !strings.Contains(lines[1], `"name":"small"`) {
		t.Errorf("second record %s", lines[1])
	}
}

package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/objectpath"
	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// documents are the kinds of document the streaming tests mix: valid,
// refused, with warnings, with duplicate fields, of two CRDs' versions and
// a third CRD, Lists and <Kind>Lists, JSON, empty documents. Each takes a
// number that makes its names unique.
var documents = []func(i int) string{
	func(i int) string { // valid, defaulted
		return fmt.Sprintf("apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata:\n  name: sp-%d\n", i)
	},
	func(i int) string { // an unknown field: a warning, an error with --strict
		return fmt.Sprintf("apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata:\n  name: extra-%d\nspec:\n  extra: %d\n", i, i)
	},
	func(i int) string { // a duplicate field, then an unknown one
		return fmt.Sprintf("apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata:\n  name: dup-%d\nspec:\n  entry:\n    number: 1\n    number: %d\n  x: 1\n", i, i)
	},
	func(i int) string { // two validation errors
		return fmt.Sprintf("apiVersion: structpointers.kep.example.com/v1\nkind: StructPointer\nmetadata:\n  name: bad-%d\n  namespace: team\nspec:\n  entry:\n    number: \"twelve\"\n    name: %d\n", i, i)
	},
	func(i int) string { // v1 of a kind stored at v2: legacy is pruned on the way back; the namespace is dropped
		return fmt.Sprintf("apiVersion: example.com/v1\nkind: ClusterThing\nmetadata:\n  name: ct-%d\n  namespace: kustomized\nspec:\n  legacy: old\n  data: d%d\n", i, i)
	},
	func(i int) string { // a finalizer warning
		return fmt.Sprintf("apiVersion: example.com/v2\nkind: ClusterThing\nmetadata:\n  name: fin-%d\n  finalizers: [foo]\n", i)
	},
	func(i int) string { // an invalid name and generateName
		return fmt.Sprintf("apiVersion: example.com/v2\nkind: ClusterThing\nmetadata:\n  generateName: Gen_%d\n", i)
	},
	func(i int) string { // a resourceVersion refuses the create
		return fmt.Sprintf("apiVersion: example.com/v2\nkind: ClusterThing\nmetadata:\n  name: rv-%d\n  resourceVersion: \"7\"\n", i)
	},
	func(i int) string { // CEL refuses it
		return fmt.Sprintf("apiVersion: fuzz.example.com/v1\nkind: Rich\nmetadata:\n  name: cel-%d\nspec:\n  mode: C\n  replicas: 0\n", i)
	},
	func(i int) string { // list map, set, enum, bounds, pattern: several errors
		return fmt.Sprintf("apiVersion: fuzz.example.com/v1\nkind: Rich\nmetadata:\n  name: many-%d\nspec:\n  mode: D\n  port: 70000\n  tags: [a, a]\n  ports: [{name: p}, {name: p, number: 0}]\n  labels: {x: UP}\n", i)
	},
	func(i int) string { // valid, with defaults at every level and a status dropped
		return fmt.Sprintf("apiVersion: fuzz.example.com/v1\nkind: Rich\nmetadata:\n  name: rich-%d\n  labels: {num: \"%d\"}\nspec:\n  ports: [{name: http}]\n  target: 8080\n  free: {any: [1, 2]}\nstatus:\n  phase: Ready\n", i, i)
	},
	func(i int) string { // JSON, in a YAML stream
		return fmt.Sprintf(`{"apiVersion": "example.com/v2", "kind": "ClusterThing", "metadata": {"name": "json-%d"}, "spec": {"data": "<&>"}}`+"\n", i)
	},
	func(i int) string { // a List of several kinds, one item refused
		return fmt.Sprintf("apiVersion: v1\nkind: List\nitems:\n"+
			"- apiVersion: structpointers.kep.example.com/v1\n  kind: StructPointer\n  metadata: {name: item-%d}\n"+
			"- apiVersion: example.com/v2\n  kind: ClusterThing\n  metadata: {name: Item_%d}\n"+
			"- apiVersion: fuzz.example.com/v1\n  kind: Rich\n  metadata: {name: item-%d, namespace: team}\n  spec: {extra: 1}\n", i, i, i)
	},
	func(i int) string { // a <Kind>List, whose items take its kind
		return fmt.Sprintf("apiVersion: example.com/v1\nkind: ClusterThingList\nitems:\n- metadata: {name: a-%d}\n- metadata: {name: b-%d}\n  spec: {size: S, size: L}\n", i, i)
	},
	func(int) string { return "# only a comment\n" },
	func(int) string { return "null\n" },
}

// unusable are documents that end the run with exit status 2: no CRD, and
// a document that does not parse.
var unusable = []string{
	"apiVersion: other.example.com/v1\nkind: Other\nmetadata:\n  name: nobody\n",
	"apiVersion: example.com/v2\nkind: ClusterThing\nmetadata:\n  name: [broken\n",
}

// streamInput writes count random documents into three files, and the
// documents of stdin; files lists them with stdin among them.
func streamInput(t *testing.T, r *rand.Rand, count int) (files []string, stdin string) {
	t.Helper()
	dir := t.TempDir()
	var parts [3]strings.Builder
	for i := range count {
		fmt.Fprintf(&parts[r.IntN(3)], "---\n%s", documents[r.IntN(len(documents))](i))
	}
	for i, name := range []string{"a.yaml", "b.yaml"} {
		files = append(files, filepath.Join(dir, name))
		if err := os.WriteFile(files[i], []byte(parts[i].String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{files[0], "-", files[1]}, parts[2].String()
}

// withUnusable inserts an unusable document at a random place of one of
// the files, or of stdin.
func withUnusable(t *testing.T, r *rand.Rand, files []string, stdin string) string {
	t.Helper()
	doc := unusable[r.IntN(len(unusable))]
	insert := func(s string) string {
		docs := strings.SplitAfter(s, "---\n")
		k := r.IntN(len(docs))
		return strings.Join(docs[:k], "") + doc + "---\n" + strings.Join(docs[k:], "")
	}
	if i := r.IntN(len(files)); files[i] != "-" {
		b, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(files[i], []byte(insert(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
		return stdin
	}
	return insert(stdin)
}

// loadTestPipelines loads the CRDs the streaming tests use.
func loadTestPipelines(t *testing.T) (map[schema.GroupVersionKind]*objectpath.Pipeline, []string) {
	t.Helper()
	crds := []string{"../apiserver/objectpath/testdata/crds", "../apiserver/objectpath/testdata/fuzz/rich.yaml"}
	var errb bytes.Buffer
	pipelines, _, code := loadPipelines(context.Background(), crds, &errb)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return pipelines, crds
}

// sequential is the command as it was before it streamed, a loop over the
// objects that collects them and prints them at the end (the YAML stream
// as it was written then, and JSON lines with json.Encoder), given the new
// end: an unusable object or document ends the run after the objects
// before it.
func sequential(t *testing.T, pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, o *Options, stdin string) (string, string, int) {
	t.Helper()
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	var objs []map[string]any
	code := ExitOK
files:
	for _, in := range o.Files {
		r, name, closeFn, err := openInput(in, strings.NewReader(stdin))
		if err != nil {
			fmt.Fprintf(&stderr, "%s: %v\n", name, err)
			code = ExitUnusable
			break
		}
		for d, err := range manifest.All(name, r) {
			if err != nil {
				fmt.Fprintln(&stderr, err)
				code = ExitUnusable
				closeFn()
				break files
			}
			res, c := normalizeOne(ctx, pipelines, d, o, &stderr)
			if c == ExitUnusable {
				code = ExitUnusable
				closeFn()
				break files
			}
			code = max(code, c)
			objs = append(objs, res.Object)
		}
		closeFn()
	}
	for i, obj := range objs {
		if o.Output == "json" {
			if err := json.NewEncoder(&stdout).Encode(obj); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if len(objs) > 1 || i > 0 {
			stdout.WriteString("---\n")
		}
		b, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		stdout.Write(b)
	}
	return stdout.String(), stderr.String(), code
}

// streamed runs the command on n workers.
func streamed(pipelines map[schema.GroupVersionKind]*objectpath.Pipeline, o *Options, stdin string, n int) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := runObjects(context.Background(), pipelines, nil, o, strings.NewReader(stdin), &stdout, &stderr, n)
	return stdout.String(), stderr.String(), code
}

// TestStreamIsSequential: on a few hundred random documents of every kind
// (valid, refused, with warnings and duplicate fields, of several kinds
// and versions, Lists) in several files and stdin, stdout, stderr and the
// exit status are byte for byte those of the sequential loop, for 1, 2, 3
// and 8 workers, in YAML and JSON, with and without --strict; and so they
// are when an unusable object or document ends the run at a random place.
func TestStreamIsSequential(t *testing.T) {
	pipelines, _ := loadTestPipelines(t)
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 0))
	count := 300
	if testing.Short() {
		count = 60
	}
	codes := map[int]bool{}
	for round := range 3 {
		files, stdin := streamInput(t, r, count)
		name := "mixed"
		if round > 0 {
			name = "ending at an unusable document"
			stdin = withUnusable(t, r, files, stdin)
		}
		for _, output := range []string{"yaml", "json"} {
			for _, strict := range []bool{false, true} {
				o := &Options{Output: output, Strict: strict, Namespace: "default", Files: files}
				wantOut, wantErr, wantCode := sequential(t, pipelines, o, stdin)
				codes[wantCode] = true
				var combined1 string
				for _, n := range []int{1, 2, 3, 8} {
					out, errs, code := streamed(pipelines, o, stdin, n)
					if code != wantCode || out != wantOut || errs != wantErr {
						t.Errorf("%s, -o %s, strict %v, %d workers: exit %d, want %d\n%s\n%s",
							name, output, strict, n, code, wantCode, firstDifference("stdout", out, wantOut), firstDifference("stderr", errs, wantErr))
					}
					// stdout and stderr to one terminal: each object after
					// its messages, whatever n
					var both bytes.Buffer
					runObjects(context.Background(), pipelines, nil, o, strings.NewReader(stdin), &both, &both, n)
					if n == 1 {
						combined1 = both.String()
					} else if both.String() != combined1 {
						t.Errorf("%s, -o %s, strict %v, %d workers, stdout and stderr together:\n%s", name, output, strict, n, firstDifference("output", both.String(), combined1))
					}
				}
			}
		}
	}
	// the input reaches every ending
	for _, c := range []int{ExitInvalid, ExitUnusable} {
		if !codes[c] {
			t.Errorf("no run ended with exit status %d", c)
		}
	}
}

// TestStreamRun: the whole run (CRDs loaded, files read) on a few hundred
// mixed objects prints the same stdout, stderr and exit status on 2, 3
// and 8 workers, and on GOMAXPROCS (Workers 0), as on one.
func TestStreamRun(t *testing.T) {
	_, crds := loadTestPipelines(t)
	r := rand.New(rand.NewPCG(1, 2))
	files, stdin := streamInput(t, r, 200)
	for _, output := range []string{"yaml", "json"} {
		o := Options{CRDs: crds, Output: output, Files: files}
		var out1, err1 bytes.Buffer
		o.Workers = 1
		code1 := Run(t.Context(), o, strings.NewReader(stdin), &out1, &err1)
		if out1.Len() == 0 || err1.Len() == 0 || code1 != ExitInvalid {
			t.Errorf("-o %s: exit %d, %d bytes of stdout, %d of stderr; want exit 1, objects and messages", output, code1, out1.Len(), err1.Len())
		}
		for _, n := range []int{2, 3, 8, 0} {
			var outN, errN bytes.Buffer
			o.Workers = n
			codeN := Run(t.Context(), o, strings.NewReader(stdin), &outN, &errN)
			if code1 != codeN || out1.String() != outN.String() || err1.String() != errN.String() {
				t.Errorf("-o %s, %d workers (0: GOMAXPROCS): exit %d, want %d\n%s\n%s", output, n, codeN, code1,
					firstDifference("stdout", outN.String(), out1.String()), firstDifference("stderr", errN.String(), err1.String()))
			}
		}
	}
}

// TestStreamSkipOtherGroups: with SkipOtherGroups, stdout and stderr
// together are the same on any number of workers: each object after its
// messages, the note of a skipped object between them.
func TestStreamSkipOtherGroups(t *testing.T) {
	const (
		namespace = "../apiserver/objectpath/testdata/mixed.yaml:1: skipped (no CRD has the group): apiVersion \"v1\", kind \"Namespace\"\n"
		finalizer = "../apiserver/objectpath/testdata/mixed.yaml:2: warning: metadata.finalizers: \"foo\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers\n"
		configMap = "../apiserver/objectpath/testdata/mixed.yaml:3: skipped (no CRD has the group): apiVersion \"v1\", kind \"ConfigMap\"\n"
	)
	var want string
	for _, n := range []int{1, 2, 8} {
		var both bytes.Buffer
		o := Options{CRDs: []string{"../apiserver/objectpath/testdata/crds"}, SkipOtherGroups: true, Files: []string{"../apiserver/objectpath/testdata/mixed.yaml"}, Workers: n}
		code := Run(t.Context(), o, strings.NewReader(""), &both, &both)
		if n == 1 {
			want = both.String()
			if !strings.HasPrefix(want, namespace+finalizer+"---\n") || !strings.Contains(want, "\n"+configMap+"---\n") {
				t.Errorf("exit %d, each object after its messages, a note between them:\n%s", code, want)
			}
		} else if both.String() != want {
			t.Errorf("%d workers:\n%s", n, firstDifference("output", both.String(), want))
		}
	}
}

// TestStreamStops: the first unusable document ends the run: the objects
// before it are printed, whole, and nothing of those after it, though the
// workers had read ahead.
func TestStreamStops(t *testing.T) {
	pipelines, _ := loadTestPipelines(t)
	valid := func(i int) string { return "---\n" + documents[0](i) }
	for _, tc := range []struct {
		name, stdin, stderr string
		before              int // objects printed
	}{
		{"no CRD, after one object", valid(0) + "---\n" + unusable[0] + valid(2), "-:2: no served CRD version for apiVersion \"other.example.com/v1\", kind \"Other\"\n", 1},
		{"no CRD, first", "---\n" + unusable[0] + valid(1), "-:1: no served CRD version for apiVersion \"other.example.com/v1\", kind \"Other\"\n", 0},
		{"unparsable, after twenty objects", strings.Repeat(valid(0), 20) + "---\n" + unusable[1] + strings.Repeat(valid(0), 20), "-:21: error converting YAML to JSON: yaml: line 4: did not find expected ',' or ']'\n", 20},
	} {
		for _, output := range []string{"yaml", "json"} {
			o := &Options{Output: output, Namespace: "default", Files: []string{"-"}}
			var one []byte // the object of valid(0) alone
			if tc.before > 0 {
				out, _, code := streamed(pipelines, &Options{Output: output, Namespace: "default", Files: []string{"-"}}, valid(0), 1)
				if code != ExitOK {
					t.Fatalf("exit %d", code)
				}
				one = []byte(out)
			}
			for _, n := range []int{1, 2, 8} {
				out, errs, code := streamed(pipelines, o, tc.stdin, n)
				var want string
				switch {
				case output == "json":
					want = strings.Repeat(string(one), tc.before)
				case tc.before == 1:
					want = string(one)
				default:
					want = strings.Repeat("---\n"+string(one), tc.before)
				}
				if code != ExitUnusable || out != want || errs != tc.stderr {
					t.Errorf("%s, -o %s, %d workers: exit %d, stderr %q\n%s", tc.name, output, n, code, errs, firstDifference("stdout", out, want))
				}
			}
		}
	}
}

// TestStreamJSONLines: -o json prints one compact object per line, none
// for no object.
func TestStreamJSONLines(t *testing.T) {
	pipelines, _ := loadTestPipelines(t)
	r := rand.New(rand.NewPCG(3, 4))
	files, stdin := streamInput(t, r, 50)
	o := &Options{Output: "json", Namespace: "default", Files: files}
	out, _, _ := streamed(pipelines, o, stdin, 2)
	yamlOut, _, _ := streamed(pipelines, &Options{Output: "yaml", Namespace: "default", Files: files}, stdin, 2)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	docs := strings.Split(strings.TrimPrefix(yamlOut, "---\n"), "---\n")
	if len(lines) != len(docs) || len(lines) < 2 {
		t.Fatalf("%d JSON lines, %d YAML documents", len(lines), len(docs))
	}
	for i, line := range lines {
		var obj, fromYAML map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		if err := yaml.Unmarshal([]byte(docs[i]), &fromYAML); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(obj)
		b, _ := json.Marshal(fromYAML)
		if !bytes.Equal(a, b) {
			t.Errorf("line %d is not YAML document %d:\n%s\n%s", i+1, i+1, a, b)
		}
	}
	if out, _, code := streamed(pipelines, &Options{Output: "json", Namespace: "default", Files: []string{"-"}}, "---\n", 2); code != ExitOK || out != "" {
		t.Errorf("no object: exit %d, stdout %q", code, out)
	}
}

// TestStreamWriteError: stdout failing ends the run with exit status 2 and
// says so.
func TestStreamWriteError(t *testing.T) {
	pipelines, _ := loadTestPipelines(t)
	o := &Options{Output: "json", Namespace: "default", Files: []string{"-"}}
	var stderr bytes.Buffer
	in := strings.Repeat("---\n"+documents[0](0), 50)
	code := runObjects(context.Background(), pipelines, nil, o, strings.NewReader(in), failingWriter{}, &stderr, 4)
	if code != ExitUnusable || stderr.String() != "normalize: writing the report to standard output: io: read/write on closed pipe; the report is incomplete\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// firstDifference describes where got and want part.
func firstDifference(name, got, want string) string {
	if got == want {
		return name + ": same"
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("%s differs at byte %d:\ngot  ...%q\nwant ...%q", name, i, got[from:min(len(got), i+80)], want[from:min(len(want), i+80)])
}

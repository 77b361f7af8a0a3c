package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// readLimited reads every object of in with the request body limit limit.
func readLimited(t *testing.T, in io.Reader, limit int64) []Object {
	t.Helper()
	r := NewReader("f", in)
	r.limit = limit
	var out []Object
	for {
		o, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
}

// TestTooLarge: a block-style document whose content passes twice the
// request body limit is refused unread (TooLargeError, named by its top
// lines) and the documents after it are read; a List, a flow-style
// document, and indentation, blank and comment lines are not counted
// against the limit.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	const limit = 1000
	notes := strings.Repeat("  - "+strings.Repeat("x", 96)+"\n", 30) // 3000 bytes of content
	big := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: big\n  namespace: prod # a comment\nspec:\n  notes:\n" + notes
	small := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: small\n"
	objs := readLimited(t, strings.NewReader(big+"---\n"+small), limit)
	if len(objs) != 2 || objs[0].TooLarge == nil || objs[1].TooLarge != nil || objs[1].Object["metadata"].(map[string]any)["name"] != "small" {
		t.Fatalf("objects %+v; want the big one refused, then small", objs)
	}
	e := objs[0].TooLarge
	if e.Object() != "Widget prod/big" || e.APIVersion != "example.com/v1" || e.Bytes != int64(len(big)) || e.Limit != limit || objs[0].Doc != 1 || objs[1].Doc != 2 {
		t.Errorf("refused as %+v (%s), doc %d", e, e.Object(), objs[0].Doc)
	}
	want := fmt.Sprintf("Request entity too large: limit is 1000 (the document has %d bytes, 3034 of them content, more than 2 times the limit: not decoded); an object must be under the limit as compact JSON: split its data among several objects", len(big))
	if e.Error() != want {
		t.Errorf("error %q\nwant  %q", e.Error(), want)
	}

	// not refused: a List (its items are requests of their own), in block
	// or flow style, in a YAML or a JSON stream, and a document that is
	// large only by its indentation, blank lines and comments
	items := strings.Repeat("- kind: Widget\n  metadata:\n    name: "+strings.Repeat("n", 50)+"\n", 40)
	deep := "kind: Widget\nmetadata:\n  name: deep\nspec:\n" + strings.Repeat(strings.Repeat(" ", 200)+"# "+strings.Repeat("c", 50)+"\n\n", 20) + "  a: 1\n"
	flowList := `{"kind": "List", "items": [` + strings.Repeat(`{"kind": "Widget", "metadata": {"name": "`+strings.Repeat("n", 50)+`"}},`, 40) + `{"kind": "Widget"}]}` + "\n"
	for name, in := range map[string]string{
		"block List":      "apiVersion: v1\nkind: List\nitems:\n" + items,
		"flow List":       flowList + "---\n" + small,
		"JSON List":       flowList + `{"kind": "Widget"}`,
		"YAML flow List":  "---\n{kind: List, 'items': [" + strings.Repeat("{kind: Widget, metadata: {name: "+strings.Repeat("n", 50)+"}},", 40) + "]}\n",
		"JSON List, late": `{"kind": "List", "metadata": {"x": "` + strings.Repeat("m", 1500) + `"}, "items": [` + strings.Repeat(`{"kind": "Widget", "metadata": {"name": "`+strings.Repeat("n", 50)+`"}},`, 20) + `{"kind": "Widget"}]}`,
		"indentation":     deep,
	} {
		if len(in) <= 2*limit {
			t.Fatalf("%s: %d bytes, not over the limit", name, len(in))
		}
		for _, o := range readLimited(t, strings.NewReader(in), limit) {
			if o.TooLarge != nil {
				t.Errorf("%s: %s refused: %v", name, o.Source(), o.TooLarge)
			}
		}
	}
}

// TestTooLargeFlow: a JSON value, in a JSON stream or in a YAML one, and a
// YAML document in flow style, on one line or on many, whose content
// passes twice the request body limit are refused unread as a block-style
// document is (named by what their top level gives, nothing kept), wherever
// they are in the stream, and the documents after them are read. The
// content of JSON is its compact JSON: its white space outside strings is
// not counted. A value whose items is null is no List.
func TestTooLargeFlow(t *testing.T) {
	t.Parallel()
	const limit = 1000
	notes := strings.Repeat(`"`+strings.Repeat("x", 96)+`", `, 30) + `"end"` // 3034 bytes of content
	// strings with white space, brackets, quotes, escapes and control
	// escapes; every kind of literal
	odd := `"size": [0, 9, -1.5E+9, 1e-9, true, false, null], "s": "a b\t{[\"]}\\", "u": "\u0041", "o": {"k": []}`
	big := `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "big", "namespace": "prod", "labels": {"name": "x"}}, "spec": {` + odd + `, "notes": [` + notes + `]}}`
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(big)); err != nil {
		t.Fatal(err)
	}
	content := compact.Len()
	flow := `{apiVersion: example.com/v1, kind: Widget, metadata: {name: big, namespace: 'prod'}, # a comment` + "\n" +
		`  spec: {notes: [` + strings.ReplaceAll(notes, `"`, "") + `]}}` + "\n"
	small := `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "small"}}`
	for _, tc := range []struct {
		name, in string
		doc      int   // the refused document's
		docs     int   // all documents
		bytes    int64 // the refused document's
	}{
		{"JSON", big + "\n" + small, 1, 2, int64(len(big))},
		{"JSON, third", small + small + "\n\n" + big + small, 3, 4, int64(len(big))},
		{"JSON, one line", compact.String() + small, 1, 2, int64(content)},
		{"JSON in YAML", "# JSON\n" + big + "\n---\n" + small + "\n", 1, 2, int64(len("# JSON\n") + len(big) + 1)},
		{"flow YAML", "---\n" + flow + "---\n" + small + "\n", 1, 2, int64(len("---\n") + len(flow))},
		{"flow YAML, one line", "kind: Widget\n---\n" + strings.ReplaceAll(flow, "# a comment\n", "") + "---\nkind: Widget\n", 2, 3, int64(len(flow) - len("# a comment\n"))},
	} {
		objs := readLimited(t, strings.NewReader(tc.in), limit)
		if len(objs) != tc.docs {
			t.Errorf("%s: %d objects, want %d", tc.name, len(objs), tc.docs)
			continue
		}
		for i, o := range objs {
			if (o.TooLarge != nil) != (i+1 == tc.doc) || o.Doc != i+1 {
				t.Errorf("%s: object %s refused %v; want document %d refused", tc.name, o.Source(), o.TooLarge, tc.doc)
			}
		}
		e := objs[tc.doc-1].TooLarge
		if e == nil {
			continue
		}
		if e.Object() != "Widget prod/big" || e.APIVersion != "example.com/v1" || e.Bytes != tc.bytes || e.Limit != limit {
			t.Errorf("%s: refused as %+v (%s); want Widget prod/big, %d bytes", tc.name, e, e.Object(), tc.bytes)
		}
		if strings.HasPrefix(tc.name, "JSON") && tc.name != "JSON in YAML" && e.Content != int64(content) {
			t.Errorf("%s: content %d, want %d (compact JSON)", tc.name, e.Content, content)
		}
	}
	// items null: not a List
	nullItems := strings.Replace(big, `"kind": "Widget",`, `"kind": "Widget", "items": null,`, 1)
	if objs := readLimited(t, strings.NewReader(nullItems), limit); len(objs) != 1 || objs[0].TooLarge == nil {
		t.Errorf("items null: %+v; want refused", objs)
	}
}

// endless is a document of n bytes after head, made as it is read: lines
// of a YAML block sequence, or line, repeated.
type endless struct {
	head string
	n    int64
	line string
}

func (e *endless) Read(p []byte) (int, error) {
	if e.head != "" {
		k := copy(p, e.head)
		e.head = e.head[k:]
		return k, nil
	}
	if e.n <= 0 {
		return 0, io.EOF
	}
	line := e.line
	if line == "" {
		line = "  - " + strings.Repeat("x", 96) + "\n"
	}
	k := 0
	for k+len(line) <= len(p) && e.n > 0 {
		k += copy(p[k:], line)
		e.n -= int64(len(line))
	}
	return k, nil
}

// TestTooLargeMemory: a 256 MiB document is refused at the real limit
// (3 MiB) with memory bounded by the spill's threshold, not by the
// document: what is allocated to read it is under 48 MiB (32 MiB here)
// (before, decoding it whole took about 15 bytes per byte
// of input).
func TestTooLargeMemory(t *testing.T) {
	// not parallel: runtime.MemStats counts the whole process's
	// allocations, and parallel tests run only once the others are done
	t.Setenv("TMPDIR", t.TempDir())
	doc := &endless{head: "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: huge\nspec:\n  notes:\n", n: 256 << 20}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	objs := readLimited(t, io.MultiReader(doc, strings.NewReader("---\nkind: Widget\n")), MaxRequestBodyBytes)
	runtime.ReadMemStats(&after)
	if len(objs) != 2 || objs[0].TooLarge == nil || objs[0].TooLarge.Object() != "Widget huge" || objs[0].TooLarge.Bytes < 256<<20 {
		t.Fatalf("objects %+v; want huge refused, then one more", objs)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d MiB to refuse a %d MiB document", alloc>>20, objs[0].TooLarge.Bytes>>20)
	if alloc > 48<<20 {
		t.Errorf("allocated %d MiB to refuse a %d MiB document; want under 48 MiB", alloc>>20, objs[0].TooLarge.Bytes>>20)
	}
}

// TestTooLargeFlowMemory: a 256 MiB JSON value, and a 256 MiB YAML
// document in flow style, each on one line, are refused at the real limit
// with memory bounded as for block style: under 48 MiB allocated (before,
// each was decoded whole).
func TestTooLargeFlowMemory(t *testing.T) {
	if testing.Short() {
		// the block-style test before it keeps the limit in the unit tier
		t.Skip("-short: reads two 256 MiB documents (about 7 s): run without -short (make test-integration)")
	}
	t.Setenv("TMPDIR", t.TempDir())
	for _, tc := range []struct {
		name       string
		head, line string
		tail       string
	}{
		{"JSON", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"huge"},"spec":{"notes":[`, `"` + strings.Repeat("x", 96) + `",`, `"end"]}}{"kind":"Widget"}`},
		{"flow YAML", "# flow\n{apiVersion: example.com/v1, kind: Widget, metadata: {name: huge}, spec: {notes: [", strings.Repeat("x", 96) + ", ", "end]}}\n---\nkind: Widget\n"},
	} {
		doc := &endless{head: tc.head, n: 256 << 20, line: tc.line}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		objs := readLimited(t, io.MultiReader(doc, strings.NewReader(tc.tail)), MaxRequestBodyBytes)
		runtime.ReadMemStats(&after)
		if len(objs) != 2 || objs[0].TooLarge == nil || objs[0].TooLarge.Object() != "Widget huge" || objs[0].TooLarge.Bytes < 256<<20 {
			t.Fatalf("%s: objects %+v; want huge refused, then one more", tc.name, objs)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: allocated %d MiB to refuse a %d MiB document", tc.name, alloc>>20, objs[0].TooLarge.Bytes>>20)
		if alloc > 48<<20 {
			t.Errorf("%s: allocated %d MiB to refuse a %d MiB document; want under 48 MiB", tc.name, alloc>>20, objs[0].TooLarge.Bytes>>20)
		}
	}
}

// TestTooLargeTooDeep: a JSON value nested deeper than encoding/json reads
// (10000) is the decoder's error, not refused as too large, however
// large; at 10000 levels, it is refused.
func TestTooLargeTooDeep(t *testing.T) {
	t.Parallel()
	const limit = 1000
	w := `{"kind":"Widget"}` + "\n"
	for _, depth := range []int{maxFlowDepth, maxFlowDepth + 1} {
		in := w + strings.Repeat("[", depth) + `"` + strings.Repeat("x", 3000) + `"` + strings.Repeat("]", depth)
		r := NewReader("f", strings.NewReader(in))
		r.limit = limit
		o := readOutcome(r)
		refused := len(o.objects) == 2 && o.objects[1].TooLarge != nil
		if depth == maxFlowDepth && !refused || depth > maxFlowDepth && (refused || !strings.Contains(o.err, "exceeded max depth")) {
			t.Errorf("nested %d deep: %.300s", depth, describeOutcome(o))
		}
	}
}

// TestTooLargeBounds: a document is refused when its content passes twice
// the limit, not at it, in block style, in flow style and in JSON; a name
// of 253 characters is kept; a List whose items key is spelled with an
// escape is a List.
func TestTooLargeBounds(t *testing.T) {
	t.Parallel()
	const limit = 1000
	for _, tc := range []struct {
		name, head, tail string
		other            int // bytes of content not in head, pad and tail
	}{
		{"block", "kind: Widget\nspec: ", "\n", -2},            // the lines less their \n
		{"flow", "---\n{kind: Widget, spec: ", "}\n", -5},      // the line less its \n
		{"JSON", `{"kind":"Widget","spec":"`, `"}` + "\n", -1}, // the compact JSON
	} {
		for _, extra := range []int{0, 1} {
			pad := 2*limit + extra - len(tc.head) - len(tc.tail) - tc.other
			in := tc.head + strings.Repeat("x", pad) + tc.tail
			objs := readLimited(t, strings.NewReader(in), limit)
			if len(objs) != 1 || (objs[0].TooLarge != nil) != (extra == 1) {
				t.Errorf("%s, content 2 × limit + %d: %+v", tc.name, extra, objs)
			}
		}
	}
	name := strings.Repeat("n", 253)
	in := `{"kind":"Widget","metadata":{"name":"` + name + `"},"spec":"` + strings.Repeat("x", 3000) + `"}`
	if objs := readLimited(t, strings.NewReader(in), limit); len(objs) != 1 || objs[0].TooLarge == nil || objs[0].TooLarge.Name != name {
		t.Errorf("a name of 253 characters: %+v", objs)
	}
	list := `{"kind":"List","\u0069tems":[` + strings.Repeat(`{"kind":"Widget","metadata":{"name":"`+strings.Repeat("n", 50)+`"}},`, 40) + `{"kind":"Widget"}]}`
	if objs := readLimited(t, strings.NewReader(list), limit); len(objs) != 41 {
		t.Errorf("a List whose items key has an escape: %d objects, want 41", len(objs))
	}
}

// TestTooLargeLastLine: a document refused as too large whose last line,
// without its line break, ends at a multiple of the reader's buffer (the
// line YAMLReader drops, TestYAMLLastLine) is refused as any other: the
// dropped line is told to no List reader, since none reads a refused
// document.
func TestTooLargeLastLine(t *testing.T) {
	t.Parallel()
	const limit = 1000
	head := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: big\nspec:\n" +
		strings.Repeat("  n: "+strings.Repeat("x", 60)+"\n", 40)
	for _, n := range []int{4096, 8192} {
		last := "  notes: "
		in := head + last + strings.Repeat("y", n-len(last))
		objs := readLimited(t, strings.NewReader(in), limit)
		if len(objs) != 1 || objs[0].TooLarge == nil || objs[0].TooLarge.Object() != "Widget big" {
			t.Errorf("last line of %d bytes: %+v, want Widget big refused as too large", n, objs)
		}
	}
}

// TestTooLargeThenNotJSON: in a JSON stream, a document refused as too
// large counts as a value read when a value that is not JSON comes after
// it and kubectl's decoder takes over (it reads {a: 1} as YAML): the
// refused document is not decoded again as the next object.
func TestTooLargeThenNotJSON(t *testing.T) {
	t.Parallel()
	big := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"big"},"spec":{"notes":[` +
		strings.Repeat(`"`+strings.Repeat("x", 60)+`",`, 40) + `"y"]}}`
	r := NewReader("f", strings.NewReader(big+"\n{a: 1}\n"))
	r.limit = 1000
	var got []string
	for {
		o, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			got = append(got, "error")
			break
		}
		if o.TooLarge != nil {
			got = append(got, "too large "+o.TooLarge.Object())
			continue
		}
		got = append(got, fmt.Sprint(o.Object["metadata"]))
	}
	if len(got) != 2 || got[0] != "too large Widget big" || got[1] != "<nil>" {
		t.Errorf("read %q, want the big one refused, then {a: 1}, which kubectl's decoder reads", got)
	}
}

// TestTooLargeNames: a refused block-style document is named by its top
// lines' metadata.name up to 253 characters (a Kubernetes name's most),
// and a limit of 0 refuses nothing.
func TestTooLargeNames(t *testing.T) {
	t.Parallel()
	const limit = 1000
	body := "spec:\n" + strings.Repeat("  n: "+strings.Repeat("x", 60)+"\n", 40)
	for _, n := range []int{253, 254} {
		name := strings.Repeat("n", n)
		in := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\n" + body
		objs := readLimited(t, strings.NewReader(in), limit)
		want := name
		if n > 253 {
			want = ""
		}
		if len(objs) != 1 || objs[0].TooLarge == nil || objs[0].TooLarge.Name != want {
			t.Errorf("a name of %d characters: %+v, want it refused named %q", n, objs, want)
		}
	}
	big := "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: big\n" + body
	if objs := readLimited(t, strings.NewReader(big), 0); len(objs) != 1 || objs[0].TooLarge != nil {
		t.Errorf("limit 0: %+v, want the document read", objs)
	}
}

// TestTooLargeObject: a refused document's Object holds what its top lines
// say and nothing else: apiVersion, kind, and metadata with the name and
// namespace given, no metadata when neither is.
func TestTooLargeObject(t *testing.T) {
	t.Parallel()
	const limit = 1000
	body := "spec:\n" + strings.Repeat("  n: "+strings.Repeat("x", 60)+"\n", 40)
	for _, tc := range []struct {
		head string
		want map[string]any
	}{
		{"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\n  namespace: prod\n",
			map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "a", "namespace": "prod"}}},
		{"kind: Widget\nmetadata:\n  name: a\n", map[string]any{"kind": "Widget", "metadata": map[string]any{"name": "a"}}},
		{"apiVersion: example.com/v1\n", map[string]any{"apiVersion": "example.com/v1"}},
	} {
		objs := readLimited(t, strings.NewReader(tc.head+body), limit)
		if len(objs) != 1 || objs[0].TooLarge == nil || !reflect.DeepEqual(objs[0].Object, tc.want) {
			t.Errorf("%q: %+v, want the object %v", tc.head, objs, tc.want)
		}
	}
}

// TestTooLargeFlowRules: in flow style, items: ~, Null or NULL (YAML's
// nulls) is no List, so a large document is refused; a quote doubled in a
// single-quoted scalar is two bytes of the document; and a limit of 0
// refuses nothing, as in block style.
func TestTooLargeFlowRules(t *testing.T) {
	t.Parallel()
	const limit = 1000
	pad := strings.Repeat("x", 3000)
	for _, null := range []string{"~", "Null", "NULL", "null"} {
		in := "---\n{kind: Widget, items: " + null + ", spec: '" + pad + "'}\n"
		objs := readLimited(t, strings.NewReader(in), limit)
		if len(objs) != 1 || objs[0].TooLarge == nil {
			t.Errorf("items: %s: %+v, want the document refused as too large", null, objs)
		}
	}
	in := "---\n{kind: Widget, spec: '" + strings.Repeat("it''s ", 600) + "'}\n"
	objs := readLimited(t, strings.NewReader(in), limit)
	if len(objs) != 1 || objs[0].TooLarge == nil || objs[0].TooLarge.Bytes != int64(len(in)) {
		t.Errorf("doubled quotes: %+v, want refused with %d bytes", objs, len(in))
	}
	for _, big := range []string{"---\n{kind: Widget, spec: '" + pad + "'}\n", `{"kind":"Widget","spec":"` + pad + `"}`} {
		if objs := readLimited(t, strings.NewReader(big), 0); len(objs) != 1 || objs[0].TooLarge != nil {
			t.Errorf("limit 0: %+v, want the document read", objs)
		}
	}
}

package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// newOracle is NewReader as it was before Lists were streamed: every
// document split by utilyaml.NewYAMLOrJSONDecoder and decoded whole.
func newOracle(file string, r io.Reader) *Reader {
	r = transform.NewReader(r, unicode.BOMOverride(unicode.UTF8.NewDecoder()))
	read := &bytes.Buffer{}
	return &Reader{file: file, dec: utilyaml.NewYAMLOrJSONDecoder(io.TeeReader(r, read), 4096),
		read: read, docs: utilyaml.NewYAMLReader(bufio.NewReader(read)), oracle: true}
}

// outcome is everything a reader returns for an input.
type outcome struct {
	objects []Object
	err     string
	errAt   [2]int // the *Error's Doc and Item
}

func readOutcome(r *Reader) outcome {
	var o outcome
	for {
		obj, err := r.Next()
		if errors.Is(err, io.EOF) {
			return o
		}
		if err != nil {
			o.err = err.Error()
			var e *Error
			if errors.As(err, &e) {
				o.errAt = [2]int{e.Doc, e.Item}
			}
			return o
		}
		o.objects = append(o.objects, obj)
	}
}

// compare reads in with and without streaming, and fails unless both
// return the same; it returns the streaming reader.
func compare(t testing.TB, in []byte) *Reader {
	t.Helper()
	return compareSpill(t, in, spillOptions{})
}

// compareSpill is compare with the streaming reader's spills set to o.
func compareSpill(t testing.TB, in []byte, o spillOptions) *Reader {
	t.Helper()
	want := readOutcome(newOracle("f", bytes.NewReader(in)))
	r := NewReader("f", bytes.NewReader(in))
	r.spillOpts = o
	got := readOutcome(r)
	// Keys that would become one JSON key in Go's map order (1 and "1")
	// are refused in both paths (KeyCollisionError): nothing here is left
	// to chance.
	if lastLineRefused(t, in, got, want) {
		return r
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("streamed %s\nwhole    %s\ninput:\n%s", describeOutcome(got), describeOutcome(want), in)
	}
	return r
}

// lastLineRefused: where the reader refuses the line that YAMLReader
// drops (LastLineError), the whole path, which is YAMLReader, read the
// same objects before that document, and dropped the line: the input ends
// in a line, not blank, of a multiple of 4,096 bytes without a line break.
func lastLineRefused(t testing.TB, in []byte, got, want outcome) bool {
	t.Helper()
	if !strings.Contains(got.err, "kubectl's YAML reader drops such a line") {
		return false
	}
	last := bytes.TrimPrefix(in[bytes.LastIndexByte(in, '\n')+1:], []byte("\ufeff"))
	if len(last) == 0 || len(last)%4096 != 0 || len(bytes.TrimSpace(last)) == 0 || want.err != "" {
		t.Fatalf("refused a last line of %d bytes (whole: error %q)\ninput:\n%s", len(last), want.err, in)
	}
	var before []Object
	for _, o := range want.objects {
		if o.Doc < got.errAt[0] {
			before = append(before, o)
		}
	}
	if !reflect.DeepEqual(got.objects, before) {
		t.Fatalf("streamed %s\nwhole, before document %d: %d objects\ninput:\n%s", describeOutcome(got), got.errAt[0], len(before), in)
	}
	return true
}

func describeOutcome(o outcome) string {
	var b strings.Builder
	for _, obj := range o.objects {
		js, _ := json.Marshal(obj.Object)
		fmt.Fprintf(&b, "%s %s %q; ", obj.Source(), js, obj.Duplicates)
	}
	fmt.Fprintf(&b, "error %v %q", o.errAt, o.err)
	return b.String()
}

// gen makes random objects and renders them as YAML in the styles of
// kubectl and other tools, and as JSON, with duplicate fields and comments.
type gen struct {
	r *rand.Rand
	// style
	indentItems     bool // items at column 2 instead of 0
	comments        bool
	blockScalars    bool
	quotedKeys      bool
	dups            bool
	seqIndent       bool // a list under a key indented by 2
	listHeaderFirst bool
}

var words = []string{"a", "web", "x-y", "yes", "no", "on", "null", "~", "true", "1", "0x1f", "1e3", "-5", "3.25",
	"a: b", "- x", "#x", "x #y", "", " lead", "trail ", "quote'd", `dq"x`, "ünï", "{a}", "[b]", "&a", "*a", "!t", "|", ">",
	"%x", "@x", "`x", "---", "...", "a\tb", "back\\slash", "12:30", "2024-01-01", ".inf", "=", "<<"}

var lines = []string{"line one", "  indented", "", "# not a comment", "- not an item", "key: value", "tail"}

func (g *gen) str() string {
	if g.r.IntN(5) == 0 {
		n := 1 + g.r.IntN(4)
		var parts []string
		for range n {
			parts = append(parts, lines[g.r.IntN(len(lines))])
		}
		s := strings.Join(parts, "\n")
		switch g.r.IntN(3) {
		case 0:
			s += "\n"
		case 1:
			s += "\n\n"
		}
		return s
	}
	return words[g.r.IntN(len(words))]
}

func (g *gen) key() string {
	keys := []string{"name", "spec", "data", "ports", "seed", "labels", "a.b", "x-y", "items", "kind", "apiVersion", "1", "k e y", "é", "", "a[0]"}
	return keys[g.r.IntN(len(keys))]
}

func (g *gen) value(depth int) any {
	switch n := g.r.IntN(10); {
	case n < 3 || depth > 3:
		switch g.r.IntN(6) {
		case 0:
			return int64(g.r.IntN(2000) - 1000)
		case 1:
			return float64(g.r.IntN(1000)) / 8
		case 2:
			return g.r.IntN(2) == 0
		case 3:
			return nil
		}
		return g.str()
	case n < 7:
		m := map[string]any{}
		for range g.r.IntN(4) {
			m[g.key()] = g.value(depth + 1)
		}
		return m
	default:
		var l []any
		for range g.r.IntN(4) {
			l = append(l, g.value(depth+1))
		}
		return l
	}
}

func (g *gen) item(i int) map[string]any {
	m := map[string]any{"metadata": map[string]any{"name": "o" + strconv.Itoa(i)}}
	if g.r.IntN(4) != 0 {
		m["apiVersion"], m["kind"] = "example.com/v1", "Widget"
	}
	for range g.r.IntN(4) {
		m[g.key()] = g.value(1)
	}
	return m
}

func sortedKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// yamlScalar renders a scalar on one line (or a block scalar).
func (g *gen) yamlScalar(v any, indent int) string {
	switch v := v.(type) {
	case nil:
		return []string{"null", "~", ""}[g.r.IntN(3)]
	case bool, int64:
		return fmt.Sprint(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if strings.Contains(v, "\n") && g.blockScalars && !strings.HasPrefix(v, " ") && !strings.HasPrefix(v, "\n") {
			chomp := "-"
			if strings.HasSuffix(v, "\n\n") {
				chomp = "+"
			} else if strings.HasSuffix(v, "\n") {
				chomp = ""
			}
			pad := strings.Repeat(" ", indent+2)
			body := strings.TrimSuffix(v, "\n")
			if chomp == "+" {
				body = strings.TrimSuffix(body, "\n")
			}
			var b strings.Builder
			b.WriteString("|" + chomp)
			for _, l := range strings.Split(body, "\n") {
				b.WriteString("\n")
				if l != "" {
					b.WriteString(pad + l)
				}
			}
			if chomp == "+" {
				b.WriteString("\n")
			}
			return b.String()
		}
		switch g.r.IntN(3) {
		case 0:
			if !strings.ContainsAny(v, "\n\t") {
				return "'" + strings.ReplaceAll(v, "'", "''") + "'"
			}
		case 1:
			if v != "" && strings.IndexFunc(v, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '-') }) < 0 {
				return v // plain, as YAML resolves it
			}
		}
		js, _ := json.Marshal(v)
		return string(js)
	}
	panic(fmt.Sprintf("%T", v))
}

func (g *gen) yamlKey(k string) string {
	if g.quotedKeys && g.r.IntN(3) == 0 || strings.ContainsAny(k, " []") || k == "1" || k == "" {
		js, _ := json.Marshal(k)
		return string(js)
	}
	return k
}

func (g *gen) comment(b *strings.Builder, indent int) {
	if g.comments && g.r.IntN(6) == 0 {
		fmt.Fprintf(b, "%s# comment %d\n", strings.Repeat(" ", g.r.IntN(indent+3)), g.r.IntN(100))
	}
	if g.comments && g.r.IntN(10) == 0 {
		b.WriteString("\n")
	}
}

// yamlMap writes m's fields at indent; the first line's indentation is
// already written when first is set.
func (g *gen) yamlMap(b *strings.Builder, m map[string]any, indent int, first bool) {
	keys := sortedKeys(m)
	if g.dups && len(keys) > 0 && g.r.IntN(4) == 0 {
		keys = append([]string{keys[g.r.IntN(len(keys))]}, keys...)
	}
	for i, k := range keys {
		if !(first && i == 0) {
			g.comment(b, indent)
			b.WriteString(strings.Repeat(" ", indent))
		}
		v := m[k]
		if i == 0 && len(keys) > len(m) {
			v = g.value(3) // the value overridden by the duplicate
		}
		b.WriteString(g.yamlKey(k) + ":")
		g.yamlValue(b, v, indent)
	}
}

// yamlValue writes a value after a key and its colon.
func (g *gen) yamlValue(b *strings.Builder, v any, indent int) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n" + strings.Repeat(" ", indent+2))
		g.yamlMap(b, v, indent+2, true)
	case []any:
		if len(v) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		in := indent
		if g.seqIndent {
			in += 2
		}
		g.yamlSeq(b, v, in)
	default:
		s := g.yamlScalar(v, indent)
		if s != "" {
			b.WriteString(" " + s)
		}
		if g.comments && g.r.IntN(8) == 0 && !strings.HasPrefix(s, "|") {
			b.WriteString(" # trailing")
		}
		b.WriteString("\n")
	}
}

func (g *gen) yamlSeq(b *strings.Builder, l []any, indent int) {
	for _, e := range l {
		g.comment(b, indent)
		b.WriteString(strings.Repeat(" ", indent) + "-")
		switch e := e.(type) {
		case map[string]any:
			if len(e) == 0 {
				b.WriteString(" {}\n")
				continue
			}
			b.WriteString(" ")
			g.yamlMap(b, e, indent+2, true)
		case []any:
			if len(e) == 0 {
				b.WriteString(" []\n")
				continue
			}
			b.WriteString("\n")
			g.yamlSeq(b, e, indent+2)
		default:
			s := g.yamlScalar(e, indent)
			if s != "" {
				b.WriteString(" " + s)
			}
			b.WriteString("\n")
		}
	}
}

// list renders a List of n random items as YAML or JSON.
func (g *gen) list(n int, asJSON bool) []byte {
	items := make([]any, n)
	for i := range items {
		items[i] = g.item(i)
	}
	apiVersion, kind := "v1", "List"
	if g.r.IntN(2) == 0 {
		apiVersion, kind = "example.com/v1", "WidgetList"
	}
	if asJSON {
		var b strings.Builder
		g.json(&b, map[string]any{"apiVersion": apiVersion, "kind": kind, "items": items,
			"metadata": map[string]any{"resourceVersion": ""}}, g.r.IntN(2) == 0)
		return []byte(b.String())
	}
	var b strings.Builder
	header := "apiVersion: " + apiVersion + "\nkind: " + kind + "\n"
	if g.listHeaderFirst {
		b.WriteString(header)
	}
	b.WriteString("items:\n")
	in := 0
	if g.indentItems {
		in = 2
	}
	g.yamlSeq(&b, items, in)
	if !g.listHeaderFirst {
		b.WriteString(header)
	}
	b.WriteString("metadata:\n  resourceVersion: \"\"\n")
	return []byte(b.String())
}

// json renders v, with duplicate fields when g.dups.
func (g *gen) json(b *strings.Builder, v any, indent bool) {
	switch v := v.(type) {
	case map[string]any:
		keys := sortedKeys(v)
		g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			if indent {
				b.WriteString("\n  ")
			}
			kj, _ := json.Marshal(k)
			if g.dups && k != "items" && g.r.IntN(6) == 0 {
				b.Write(kj)
				b.WriteString(":")
				g.json(b, g.value(3), indent)
				b.WriteString(",")
			}
			b.Write(kj)
			b.WriteString(": ")
			g.json(b, v[k], indent)
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			g.json(b, e, indent)
		}
		b.WriteString("]")
	default:
		js, _ := json.Marshal(v)
		b.Write(js)
	}
}

func newGen(seed uint64) *gen {
	r := rand.New(rand.NewPCG(seed, 0))
	return &gen{r: r, indentItems: r.IntN(3) == 0, comments: r.IntN(2) == 0, blockScalars: r.IntN(2) == 0,
		quotedKeys: r.IntN(3) == 0, dups: r.IntN(2) == 0, seqIndent: r.IntN(3) == 0, listHeaderFirst: r.IntN(3) == 0}
}

// TestListStreamingProperty: random Lists, as YAML in several styles and as
// JSON, alone or among other documents, read streamed and whole, give the
// same objects, numbering, duplicates and errors; and most are streamed.
func TestListStreamingProperty(t *testing.T) {
	t.Parallel()
	for _, threshold := range []int{defaultSpillThreshold, 256} {
		t.Run("spill beyond "+strconv.Itoa(threshold), func(t *testing.T) {
			t.Parallel()
			o := spillOptions{threshold: threshold}
			streamed := 0
			const runs = 400
			for seed := range uint64(runs) {
				g := newGen(seed)
				asJSON := seed%4 == 3
				in := g.list(1+g.r.IntN(8), asJSON)
				switch {
				case !asJSON && g.r.IntN(3) == 0:
					in = append(append([]byte(w("before")+"---\n"), in...), "---\n"+w("after")...)
				case asJSON && g.r.IntN(2) == 0:
					// a JSON stream: another List, or an object
					next := g.list(1+g.r.IntN(3), true)
					if g.r.IntN(2) == 0 {
						next = []byte(`{"kind":"Widget","metadata":{"name":"after"}}`)
					}
					in = append(append(in, '\n'), next...)
				}
				r := compareSpill(t, in, o)
				streamed += r.streamed
			}
			// a property that never streams proves nothing
			if streamed < runs/2 {
				t.Errorf("%d of %d Lists streamed", streamed, runs)
			}
			t.Logf("%d of %d Lists streamed", streamed, runs)
		})
	}
}

// FuzzListStreaming: any input reads the same streamed and whole. The
// seeds are Lists of the property test's styles and the shapes that fall
// back; `go test -fuzz FuzzListStreaming -parallel 1` explores from them.
func FuzzListStreaming(f *testing.F) {
	for seed := range uint64(24) {
		g := newGen(seed)
		f.Add(g.list(3, seed%4 == 3))
	}
	for _, tc := range fallbacks {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		compare(t, in)
	})
}

const kubectlList = "apiVersion: v1\nitems:\n- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    name: a\n" +
	"- apiVersion: example.com/v1\n  kind: Widget\n  metadata:\n    name: b\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"

// fallbacks are Lists that are decoded whole, each for one reason.
var fallbacks = []struct{ name, in string }{
	{"flow style items", "apiVersion: v1\nkind: List\nitems: [{kind: Widget, metadata: {name: a}}]\n"},
	{"flow style items on the next line", "apiVersion: v1\nkind: List\nitems:\n  [{kind: Widget}]\n"},
	{"an anchor and an alias across items", "apiVersion: v1\nkind: List\nitems:\n- &w\n  kind: Widget\n- *w\n"},
	{"an anchor within an item", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  spec: &s {a: 1}\n  other: *s\n"},
	{"a merge key", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  <<: {a: 1}\n"},
	{"a tag", "apiVersion: v1\nkind: List\nitems:\n- !!map\n  kind: Widget\n"},
	{"a tag on items", "apiVersion: v1\nkind: List\nitems: !!seq\n- kind: Widget\n"},
	{"a complex key", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  ? [a, b]\n  : c\n"},
	{"a line less indented than the items", "apiVersion: v1\nkind: List\nitems:\n    - kind: Widget\n  x: 1\n"},
	{"a line between the dash and the item's content", "kind: A\nitems:\n  - 00:\n   0\n"},
	{"a tab in indentation", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n\tspec: 1\n"},
	{"a lone carriage return", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\r- kind: Gadget\n"},
	{"a byte order mark in an item", "apiVersion: v1\nkind: List\nitems:\n- \ufeffkind: Widget\n"},
	{"a line ending in a carriage return", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\r\r\n- kind: [\r\r\n"},
	{"a NEL", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\u0085- kind: Gadget\n"},
	{"items given twice", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\nitems:\n- kind: Gadget\n"},
	{"items quoted and plain", "apiVersion: v1\nkind: List\n\"items\": []\nitems:\n- kind: Widget\n"},
	{"another spelling of items", "apiVersion: v1\nkind: List\nItems: 1\nitems:\n- kind: Widget\n"},
	{"a duplicate among the List's own fields", "apiVersion: v1\nkind: List\nmetadata: {a: 1, a: 2}\nitems:\n- kind: Widget\n  spec: {a: 1, a: 2}\n"},
	{"kind given twice", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\nkind: WidgetList\n"},
	{"items null", "apiVersion: v1\nkind: List\nitems:\nmetadata: {}\n"},
	{"items empty", "apiVersion: v1\nkind: List\nitems: []\n"},
	{"items a mapping", "apiVersion: v1\nkind: List\nitems:\n  a: 1\n"},
	{"an item that is not an object", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n- 5\n"},
	{"an item that is not an object, then more items and the kind", "apiVersion: v1\nitems:\n- 00\n- kind: Widget\nkind: List\n"},
	{"an item that is not an object, then the kind", "items:\n- 00\nkind: A\n"},
	{"a null item", "apiVersion: example.com/v1\nkind: WidgetList\nitems:\n- metadata: {name: a}\n- null\n"},
	{"an empty item", "apiVersion: example.com/v1\nkind: WidgetList\nitems:\n- metadata: {name: a}\n-\n"},
	{"an item in flow style", "apiVersion: v1\nkind: List\nitems:\n- {kind: Widget}\n"},
	{"an item in flow style, then more", "items:\n- {}0\nkind: A\n"},
	{"an item that is a list", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n- - a\n"},
	{"a value JSON cannot hold in an item", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n- kind: Widget\n  spec: {f: .inf}\n"},
	{"an item that does not parse", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n- kind: [\n"},
	{"a quoted string across the items", "apiVersion: v1\nkind: List\nmetadata:\n  name: \"a\nitems:\n- kind: Widget\n  b\"\n"},
	{"a list without kind", "apiVersion: v1\nitems:\n- kind: Widget\n"},
	{"a document end marker", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n...\n"},
	{"a directive", "%YAML 1.1\napiVersion: v1\nkind: List\nitems:\n- kind: Widget\n"},
	{"deep nesting", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  spec: " + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + "\n"},
	{"json: items not an array", `{"apiVersion":"v1","kind":"List","items":{"a":1}}`},
	{"json: items null", `{"apiVersion":"v1","kind":"List","items":null}`},
	{"json: a field given twice", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget"}],"kind":"WidgetList"}`},
	{"json: a duplicate among the List's own fields", `{"apiVersion":"v1","kind":"List","metadata":{"a":1,"a":2},"items":[{"kind":"Widget"}]}`},
	{"json: another spelling of items", `{"apiVersion":"v1","kind":"List","ITEMS":[],"items":[{"kind":"Widget"}]}`},
	{"json: an item that is not an object", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget"},"x"]}`},
	{"json: a number out of range", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","f":1e400}]}`},
	{"json: no kind", `{"items":[{"kind":"Widget"}]}`},
	{"json: deep nesting", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","spec":` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}]}`},
}

// TestFallbacks: each shape that streaming does not handle exactly is
// decoded whole, with the same result, from memory or from the spill's
// file.
func TestFallbacks(t *testing.T) {
	t.Parallel()
	for _, threshold := range []int{defaultSpillThreshold, 16} {
		for _, tc := range fallbacks {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := compareSpill(t, []byte(tc.in), spillOptions{threshold: threshold})
				if r.streamed != 0 {
					t.Errorf("streamed, want decoded whole")
				}
			})
		}
	}
}

// TestStreamed: the shapes that kubectl and other tools print are
// streamed, with the same result as decoded whole.
func TestStreamed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in string }{
		{"kubectl get -o yaml", kubectlList},
		{"kubectl get -o yaml, spilled", kubectlList},
		{"apiVersion and kind first, items indented", "apiVersion: v1\nkind: List\nitems:\n  - kind: Widget\n    metadata: {name: a}\n  -   kind: Gadget\n"},
		{"a <Kind>List, items without kind", "apiVersion: example.com/v1\nkind: WidgetList\nitems:\n- metadata: {name: a}\n-\n  metadata: {name: b}\n- kind: Gadget\n"},
		{"comments and block scalars", "# head\napiVersion: v1\nitems: # the items\n\n# before\n- kind: Widget\n  data: |\n    - not an item\n    # not a comment\n\n  other: >-\n    folded\n    text\n# between\n  # indented\n- kind: Gadget\n  keep: |+\n    a\n\nkind: List\n"},
		{"quoted keys", "\"apiVersion\": v1\n'kind': List\nitems:\n- \"kind\": Widget\n  'metadata': {\"name\": a}\n"},
		{"duplicates in items", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  spec: {seed: 1, seed: 2}\n- kind: Widget\n  kind: Gadget\n"},
		{"duplicates under an empty key", "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  \"\": {a: 1, a: 2, \"\": {b: 1, b: 2}}\n"},
		{"json, duplicates under an empty key", `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","":{"a":1,"a":2,"":{"b":1,"b":2}}}]}`},
		{"CRLF", strings.ReplaceAll(kubectlList, "\n", "\r\n")},
		{"a UTF-8 BOM", "\xef\xbb\xbf" + kubectlList},
		{"among other documents", w("a") + "---\n" + kubectlList + "---\n" + w("b")},
		{"json", `{"apiVersion":"v1","items":[{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"seed":1,"seed":2}}],"kind":"List","metadata":{"resourceVersion":""}}`},
		{"json, kubectl's indentation", "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {\n            \"kind\": \"Widget\"\n        }\n    ],\n    \"kind\": \"List\"\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var o spillOptions
			if strings.HasSuffix(tc.name, "spilled") {
				o.threshold = 16
			}
			r := compareSpill(t, []byte(tc.in), o)
			if r.streamed != 1 {
				t.Errorf("decoded whole, want streamed")
			}
		})
	}
}

// TestDuplicatesLimit: the apiserver's limit of 100 duplicate fields holds
// for the whole List, streamed as decoded whole.
func TestDuplicatesLimit(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range 30 {
		fmt.Fprintf(&b, "- kind: Widget\n  metadata: {name: w%d}\n  spec: {a: 1, a: 2, b: 1, b: 2, c: 1, c: 2, d: 1, d: 2}\n", i)
	}
	r := compare(t, []byte(b.String()))
	if r.streamed != 1 {
		t.Errorf("decoded whole, want streamed")
	}
	n := 0
	for o, err := range All("f", strings.NewReader(b.String())) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(o.Duplicates)
	}
	if n != maxDuplicates {
		t.Errorf("%d duplicates, want %d", n, maxDuplicates)
	}

	// the same List in JSON, its items read by the JSON stream's decoder
	var js strings.Builder
	js.WriteString(`{"apiVersion":"v1","kind":"List","items":[`)
	for i := range 30 {
		if i > 0 {
			js.WriteString(",")
		}
		fmt.Fprintf(&js, `{"kind":"Widget","metadata":{"name":"w%d"},"spec":{"a":1,"a":2,"b":1,"b":2,"c":1,"c":2,"d":1,"d":2}}`, i)
	}
	js.WriteString("]}")
	for _, threshold := range []int{defaultSpillThreshold, 16} {
		r := compareSpill(t, []byte(js.String()), spillOptions{threshold: threshold})
		if r.streamed != 1 {
			t.Errorf("JSON: decoded whole, want streamed")
		}
		r = NewReader("f.json", strings.NewReader(js.String()))
		r.spillOpts.threshold = threshold
		got := readOutcome(r)
		if got.err != "" {
			t.Fatal(got.err)
		}
		n := 0
		for _, o := range got.objects {
			n += len(o.Duplicates)
		}
		if n != maxDuplicates || len(got.objects) != 30 {
			t.Errorf("JSON, spill beyond %d: %d duplicates in %d items, want %d in 30", threshold, n, len(got.objects), maxDuplicates)
		}
	}
}

// TestJSONDepth: the depth of the deepest object or list of a JSON value,
// brackets in strings (escaped quotes among them) not counted.
func TestJSONDepth(t *testing.T) {
	t.Parallel()
	for js, want := range map[string]int{
		`1`:                       0,
		`[]`:                      1,
		`[[],[]]`:                 2,
		`[[1],[2],[3]]`:           2,
		`{"a":[1],"b":{"c":[2]}}`: 3,
		`{"a":"[[{{","b":[]}`:     2,
		`{"a":"\"[[","b":"]]\\"}`: 1,
	} {
		if got := jsonDepth([]byte(js)); got != want {
			t.Errorf("jsonDepth(%s) = %d, want %d", js, got, want)
		}
	}
}

// TestSpillFile: a List, YAML or JSON, beyond the threshold set on its
// reader goes to a temporary file in TMPDIR, which is gone once the List
// is read.
func TestSpillFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir) // the default createTemp's directory: not parallel
	jsonList := `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","metadata":{"name":"a"}},{"kind":"Widget","metadata":{"name":"b"}}]}`
	for _, in := range []string{kubectlList, jsonList} {
		r := NewReader("f", strings.NewReader(in))
		r.spillOpts.threshold = 64
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if y, ok := r.list.(*jsonItems); !ok || !y.spill.inFile() {
			t.Fatalf("the List is not streamed from a file: %#v\n%s", r.list, in)
		}
		for {
			if _, err := r.Next(); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("left in TMPDIR: %v", entries)
		}
	}
}

// TestSpillWithoutTMPDIR: when no temporary file can be created (its
// directory, TMPDIR in production, is missing), a List is read all the
// same, from memory.
func TestSpillWithoutTMPDIR(t *testing.T) {
	t.Parallel()
	o := spillOptions{threshold: 16, createTemp: tempIn(filepath.Join(t.TempDir(), "missing"))}
	r := compareSpill(t, []byte(kubectlList+"---\n"+fallbacks[0].in), o)
	if r.streamed != 1 || r.whole != 1 {
		t.Errorf("%d Lists streamed, %d whole; want 1 and 1", r.streamed, r.whole)
	}
}

// TestJSONStreams: Lists of a JSON stream are read item by item until a
// document is anything else; the decoder of JSON streams then takes over
// where it would have been, falling back to YAML or failing as it would.
func TestJSONStreams(t *testing.T) {
	t.Parallel()
	list := `{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","metadata":{"name":"a"}},{"kind":"Widget","metadata":{"name":"b"}}]}`
	for _, tc := range []struct {
		name, in string
		streamed int
	}{
		{"two Lists", list + "\n" + list, 2},
		{"a List then an object", list + ` {"kind":"Widget"}`, 1},
		{"a List, null, a List (the decoder held)", list + " null " + list, 2},
		{"an object then a List", `{"kind":"Widget"} ` + list, 1},
		{"a List then YAML", list + "\n---\n" + w("a"), 1},
		{"a List then a syntax error", list + " {", 1},
		{"two Lists then a syntax error", list + list + " {", 2},
		{"a List then a flow List", list + ` {"kind":"List","items":[{"kind":"Widget"}],"kind":"List"}`, 1},
		{"a List not closed", strings.TrimSuffix(list, "}"), 0},
		{"a List then garbage", list + " ]", 1},
	} {
		for _, threshold := range []int{defaultSpillThreshold, 16} {
			t.Run(tc.name+"/"+strconv.Itoa(threshold), func(t *testing.T) {
				t.Parallel()
				r := compareSpill(t, []byte(tc.in), spillOptions{threshold: threshold})
				if r.streamed != tc.streamed {
					t.Errorf("%d Lists streamed, want %d", r.streamed, tc.streamed)
				}
			})
		}
	}
}

// fullFile is a temporary file on a file system that is full after limit
// bytes: a write past it writes what fits and fails with ENOSPC.
type fullFile struct {
	*os.File
	limit int64
}

func (f *fullFile) Write(p []byte) (int, error) {
	off, _ := f.Seek(0, io.SeekCurrent)
	if room := f.limit - off; int64(len(p)) > room {
		n, _ := f.File.Write(p[:max(room, 0)])
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return f.File.Write(p)
}

// TestSpillFullTMPDIR: when the temporary file fills TMPDIR (at its first
// write or later), a List is read all the same, from memory, as kubectl
// reads it: nothing is lost and no error is returned.
func TestSpillFullTMPDIR(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := newGen(4).list(1500, false)
	bigJSON := newGen(11).list(2500, true)
	if len(big) < 3*spillBuffer || len(bigJSON) < 3*spillBuffer {
		t.Fatalf("Lists of %d and %d bytes: too small to fill the file after some writes", len(big), len(bigJSON))
	}
	for _, limit := range []int64{0, 100, 2 * spillBuffer} {
		created := 0
		o := spillOptions{threshold: 16, createTemp: func() (tempFile, error) {
			f, err := os.CreateTemp(dir, "spill-*")
			created++
			return &fullFile{File: f, limit: limit}, err
		}}
		for i, in := range [][]byte{[]byte(kubectlList + "---\n" + fallbacks[0].in), big, bigJSON} {
			if r := compareSpill(t, in, o); r.streamed != 1 {
				t.Errorf("limit %d, input %d: %d Lists streamed, want 1", limit, i, r.streamed)
			}
		}
		if created == 0 {
			t.Errorf("limit %d: no temporary file was created", limit)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("left in TMPDIR: %v", entries)
		}
	}
}

// TestSpillTMPDIRIsAFile: a directory for temporary files (TMPDIR in
// production) that is a file (no temporary file can be created) reads a
// List over the threshold from memory.
func TestSpillTMPDIRIsAFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	o := spillOptions{threshold: 16, createTemp: tempIn(file)}
	if r := compareSpill(t, newGen(4).list(300, false), o); r.streamed != 1 {
		t.Errorf("%d Lists streamed, want 1", r.streamed)
	}
}

// TestJSONHeaderLimit: a JSON List's own fields are streamed up to
// maxHeader bytes of values, counted from the first field, and decoded
// whole beyond.
func TestJSONHeaderLimit(t *testing.T) {
	t.Parallel()
	// the header holds 33 bytes before x: its brace, apiVersion and kind
	const before = len(`{"apiVersion":"v1","kind":"List",`)
	for _, tc := range []struct {
		size     int // of x's value, quotes included
		streamed int
	}{
		{10, 1},
		{maxHeader - before, 1},
		{maxHeader - before + 1, 0},
		{maxHeader + 1, 0},
	} {
		in := `{"apiVersion":"v1","kind":"List","x":"` + strings.Repeat("a", tc.size-2) + `","items":[{"kind":"Widget","metadata":{"name":"a"}}]}`
		if r := compare(t, []byte(in)); r.streamed != tc.streamed {
			t.Errorf("own fields of %d bytes: %d Lists streamed, want %d", before+tc.size, r.streamed, tc.streamed)
		}
	}
	// a first field beyond the limit on its own
	in := `{"x":"` + strings.Repeat("a", maxHeader) + `","apiVersion":"v1","kind":"List","items":[]}`
	if r := compare(t, []byte(in)); r.streamed != 0 {
		t.Errorf("a first field of %d bytes: %d Lists streamed, want 0", maxHeader+2, r.streamed)
	}
}

// TestItemDepthLimit: a List whose items are nested up to maxItemDepth
// levels is streamed, one level deeper decoded whole, in JSON and YAML.
func TestItemDepthLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		depth    int // of the item: its object, then spec's lists
		streamed int
	}{
		{maxItemDepth, 1},
		{maxItemDepth + 1, 0},
	} {
		lists := strings.Repeat("[", tc.depth-1) + strings.Repeat("]", tc.depth-1)
		for _, in := range []string{
			`{"apiVersion":"v1","kind":"List","items":[{"kind":"Widget","spec":` + lists + `}]}`,
			"apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  spec: " + lists + "\n",
		} {
			if r := compare(t, []byte(in)); r.streamed != tc.streamed {
				t.Errorf("an item %d deep (%.20s…): %d Lists streamed, want %d", tc.depth, in, r.streamed, tc.streamed)
			}
		}
	}
}

// TestYAMLLines: a YAML List's line longer than the reader's buffer is
// read whole, and streamed; a line that starts with \r (a break YAML
// reads, not this reader) makes the List decoded whole.
func TestYAMLLines(t *testing.T) {
	t.Parallel()
	long := "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n  metadata: {name: a}\n  spec: {x: " + strings.Repeat("a", 200<<10) + "}\n"
	if r := compare(t, []byte(long)); r.streamed != 1 {
		t.Errorf("a line of 200 KiB: %d Lists streamed, want 1", r.streamed)
	}
	cr := "apiVersion: v1\nkind: List\nitems:\n- kind: Widget\n\r  metadata: {name: a}\n"
	if r := compare(t, []byte(cr)); r.streamed != 0 {
		t.Errorf("a line that starts with \\r: %d Lists streamed, want 0", r.streamed)
	}
}

// TestJSONStreamSplit: a JSON stream split value by value here reads as
// the decoder of JSON streams reads it: values side by side, nulls,
// scalars, arrays, Lists, and errors in the first, second and third value
// (before the second, the decoder falls back to YAML).
func TestJSONStreamSplit(t *testing.T) {
	t.Parallel()
	const w = `{"kind":"Widget","metadata":{"name":"a"}}`
	const list = `{"kind":"List","items":[{"kind":"Widget"},{"kind":"Widget","a":1,"a":2}]}`
	for _, in := range []string{
		w + w, w + "\n" + w + " \t\r\n", w + " null " + w, w + ` 5 "s" true [1,2] ` + w, w + " 12" + w, w + " 1.5e3",
		list + list, w + list + w, `{"kind":"List","items":null}`, `{"kind":"List","items":[]}` + w,
		`{"a":"\u0069tems","items":[{"kind":"Widget"}],"kind":"List"}`, `{"kind":"Widget","s":"a\"b\\"}` + w,
		w + "\nkind: Widget\n", "{a: 1}\n---\nkind: Widget\n", w + w + "\nkind: Widget\n", w + w + w + " {a: 1}",
		w + ` {"a":[}` + w, w + w + ` {"a":[}` + w, w + ` {"a":` + "\n", w + w + ` {"a":"` + "\x01" + `"}`,
		w + ` {"a" "b"}`, w + w + ` {"a" "b"}`, w + ` tru ` + w, w + w + ` nul`, w + w + ` 'x'`, w + " ]",
		w + "\n" + strings.Repeat("[", 10001) + strings.Repeat("]", 10001), w + w + "\n" + strings.Repeat("[", 10001),
		w + "\n# comment\n" + w,
	} {
		compare(t, []byte(in))
	}
}

// TestYAMLLastLine: a last line without its line break whose length is a
// multiple of the reader's buffer (4096), which YAMLReader drops, is
// refused (LastLineError), though this reader hands long lines out in
// parts: in one part or several, in an object or in a List's item; one
// byte shorter, it is read.
func TestYAMLLastLine(t *testing.T) {
	t.Parallel()
	for _, head := range []string{"kind: Widget\nmetadata:\n  name: a\n", "kind: List\nitems:\n- kind: Widget\n  a: 1\n"} {
		for _, n := range []int{4096, 8192, 4095, 8191} {
			key := "spec: "
			if strings.Contains(head, "List") {
				key = "  spec: "
			}
			in := head + key + strings.Repeat("x", n-len(key))
			r := compare(t, []byte(in))
			refused := strings.HasSuffix(readOutcome(r).err, (&LastLineError{Len: n}).Error())
			if refused != (n%4096 == 0) {
				t.Errorf("a last line of %d bytes: refused %v (%q)", n, refused, readOutcome(r).err)
			}
			if n%4096 == 0 {
				continue
			}
			if strings.Contains(head, "List") && r.streamed != 1 {
				t.Errorf("a last line of %d bytes in an item: %d Lists streamed, want 1", n, r.streamed)
			}
		}
	}
}

// TestYAMLHeaderLimit: a YAML List's own fields, before and after its
// items, are streamed up to maxHeader bytes of lines in all, and decoded
// whole beyond, as a JSON List's (TestJSONHeaderLimit).
func TestYAMLHeaderLimit(t *testing.T) {
	t.Parallel()
	const head = "apiVersion: v1\nkind: List\n"
	const items = "items:\n- kind: Widget\n  metadata:\n    name: a\n"
	field := func(key string, size int) string { // a line of size bytes
		return key + ": " + strings.Repeat("a", size-len(key)-3) + "\n"
	}
	for _, tc := range []struct {
		name     string
		in       string
		streamed int
	}{
		{"before, at the limit", head + field("x", maxHeader-len(head)) + items, 1},
		{"before, over", head + field("x", maxHeader-len(head)+1) + items, 0},
		{"one line over", field("x", maxHeader+1) + items, 0},
		{"after, at the limit", head + items + field("x", 1000) + field("y", maxHeader-len(head)-1000), 1},
		{"after, over", head + items + field("x", 1000) + field("y", maxHeader-len(head)-1000+1), 0},
	} {
		if r := compare(t, []byte(tc.in)); r.streamed != tc.streamed {
			t.Errorf("%s: %d Lists streamed, want %d", tc.name, r.streamed, tc.streamed)
		}
	}
}

// TestYAMLIndicatorKey: a List's own field whose key starts with an
// indicator at column 0 (`-x`, a plain key YAML reads) makes the List
// decoded whole, as every such line does.
func TestYAMLIndicatorKey(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"-x: 1\nkind: List\nitems:\n- kind: Widget\n",
		"kind: List\nitems:\n- kind: Widget\n-x: 1\n",
	} {
		if r := compare(t, []byte(in)); r.streamed != 0 {
			t.Errorf("%q: %d Lists streamed, want 0", in, r.streamed)
		}
	}
}

// TestItemsTwiceDuplicates: of a List that gives items twice, the
// duplicate fields of the first items' elements belong to no item of the
// List read (the last items), even at the index of one past its last.
func TestItemsTwiceDuplicates(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"kind: List\nitems:\n- kind: Widget\n- kind: Widget\n  a: 1\n  a: 2\nitems:\n- kind: Widget\n",
		`{"kind":"List","items":[{"kind":"Widget"},{"kind":"Widget","a":1,"a":2}],"items":[{"kind":"Widget"}]}`,
	} {
		o := readOutcome(NewReader("f", strings.NewReader(in)))
		if o.err != "" || len(o.objects) != 1 || len(o.objects[0].Duplicates) != 0 {
			t.Errorf("%q: %s; want one item without duplicates", in, describeOutcome(o))
		}
	}
}

// TestBareDashItem: an item whose dash stands alone on its line takes the
// column of its first line as its content's: a later line less indented
// (a plain scalar's continuation, which the List does not read) makes the
// List decoded whole, and kubectl's error.
func TestBareDashItem(t *testing.T) {
	t.Parallel()
	in := "kind: List\nitems:\n-\n    kind: Widget\n    s: a\n  b\n"
	if r := compare(t, []byte(in)); r.streamed != 0 {
		t.Errorf("%d Lists streamed, want 0", r.streamed)
	}
}

// TestJSONSpaceAcrossBuffers: white space between and after the values
// of a JSON stream that fills the reader's buffer (4096) on its own is
// skipped as any other: two objects, and the end of the stream, as the
// oracle reads them.
func TestJSONSpaceAcrossBuffers(t *testing.T) {
	t.Parallel()
	a := `{"kind":"Widget","metadata":{"name":"a"}}`
	b := `{"kind":"Widget","metadata":{"name":"b"}}`
	for _, space := range []string{strings.Repeat(" ", 5000), strings.Repeat("\n", 8192), strings.Repeat(" \t\r\n", 3000)} {
		in := a + space + b + space
		r := NewReader("f", strings.NewReader(in))
		if o := readOutcome(r); len(o.objects) != 2 || o.err != "" {
			t.Errorf("%d bytes of white space: %d objects, error %q; want 2 and the end", len(space), len(o.objects), o.err)
		}
		compare(t, []byte(in))
	}
}

// TestYAMLHeaderLineInParts: a line of the List's own fields (before or
// after its items) that comes in parts gives the List up as soon as it
// would hold more than maxHeader bytes, before the line is whole; an
// item's line is held whatever its length.
func TestYAMLHeaderLineInParts(t *testing.T) {
	t.Parallel()
	part := bytes.Repeat([]byte("a"), maxHeader/16)
	for _, tc := range []struct {
		state int
		parts int // fed before it gives up; 0: never
	}{
		{inHeader, 17}, {inSuffix, 17}, {inItems, 0},
	} {
		l := &yamlList{state: tc.state, content: -1}
		fed := 0
		for start := true; fed < 40 && l.state != gaveUp; start = false {
			l.feedPart(part, start)
			fed++
		}
		if tc.parts == 0 && l.state == gaveUp || tc.parts > 0 && (fed != tc.parts || l.why != "the List's own fields are too large") {
			t.Errorf("state %d: gave up after %d parts (%q), want %d", tc.state, fed, l.why, tc.parts)
		}
	}
}

// TestYAMLLineBreaks: a line that holds a line break YAML knows and this
// reader does not split at (\r, NEL, LS, PS) or a byte order mark gives
// the List up, wherever the line holds it.
func TestYAMLLineBreaks(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"\rkind: List\n", "kind:\r List\n", "a: \u0085\n", "\u2028a: b\n", "a: \u2029\n", "\ufeffa: b\n"} {
		for _, state := range []int{inHeader, inItems, inSuffix} {
			l := &yamlList{state: state, content: -1}
			l.feed([]byte(line))
			if l.state != gaveUp || l.why != "a line break other than \\n, or a byte order mark" {
				t.Errorf("%q in state %d: state %d, %q", line, state, l.state, l.why)
			}
		}
	}
}

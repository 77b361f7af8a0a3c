package manifest

import (
	"errors"
	"fmt"
	"io"
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
	want := fmt.Sprintf("Request entity too large: limit is 1000 (the document has %d bytes, 3034 of them content, more than 2 times the limit: not decoded)", len(big))
	if e.Error() != want {
		t.Errorf("error %q\nwant  %q", e.Error(), want)
	}

	// not refused: a List (its items are requests of their own), in block
	// or flow style, a flow-style object, and a document that is large
	// only by its indentation, blank lines and comments
	items := strings.Repeat("- kind: Widget\n  metadata:\n    name: "+strings.Repeat("n", 50)+"\n", 40)
	deep := "kind: Widget\nmetadata:\n  name: deep\nspec:\n" + strings.Repeat(strings.Repeat(" ", 200)+"# "+strings.Repeat("c", 50)+"\n\n", 20) + "  a: 1\n"
	flow := `{"kind": "Widget", "metadata": {"name": "flow"}, "spec": {"notes": ["` + strings.Repeat("x", 3000) + `"]}}` + "\n"
	for name, in := range map[string]string{
		"block List":  "apiVersion: v1\nkind: List\nitems:\n" + items,
		"flow List":   `{"kind": "List", "items": [` + strings.Repeat(`{"kind": "Widget", "metadata": {"name": "`+strings.Repeat("n", 50)+`"}},`, 40) + `{"kind": "Widget"}]}` + "\n---\n" + small,
		"flow object": flow + "---\n" + small,
		"indentation": deep,
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

// endless is a YAML document of n bytes after head, made as it is read.
type endless struct {
	head string
	n    int64
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
	line := "  - " + strings.Repeat("x", 96) + "\n"
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

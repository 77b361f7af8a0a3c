package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
)

// answering is a fake program's standard input: each request line it is
// written is answered, on lines, by answer with "UID" replaced by the
// request's UID (when it has one), cut at its first newline as the
// reader of the real program's output cuts it.
type answering struct {
	answer []byte
	lines  chan []byte
}

func (a *answering) Write(p []byte) (int, error) {
	var req struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	_ = json.Unmarshal(p, &req)
	line := bytes.ReplaceAll(a.answer, []byte("UID"), []byte(req.Request.UID))
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i+1]
	}
	a.lines <- line
	return len(p), nil
}

func (a *answering) Close() error { return nil }

// FuzzConvertAnswer: whatever line the conversion program answers a
// ConversionReview with, Convert returns an error, or as many objects as
// it sent, each a JSON object; it never panics.
func FuzzConvertAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"UID","convertedObjects":[{"apiVersion":"a.example.com/v2","kind":"K","metadata":{"name":"x"}}],"result":{"status":"Success"}}}`,
		`{"kind":"ConversionReview","response":{"uid":"UID","convertedObjects":[null],"result":{"status":"Success"}}}`,
		`{"kind":"ConversionReview","response":{"uid":"UID","convertedObjects":[[1]],"result":{"status":"Success"}}}`,
		`{"kind":"ConversionReview","response":{"uid":"UID","convertedObjects":[],"result":{"status":"Success"}}}`,
		`{"kind":"ConversionReview","response":{"uid":"UID","result":{"status":"Failure","message":"no"}}}`,
		`{"kind":"ConversionReview","response":{"uid":"other","result":{"status":"Success"}}}`,
		`{"kind":"ConversionReview"}`,
		`{"kind":"Error","message":"bad request"}`,
		`null`, `[]`, `{`, "noisy\n{}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, answer []byte) {
		if len(answer) == 0 || answer[0] == '\n' {
			t.Skip("the reader hands out no empty line")
		}
		a := &answering{answer: answer, lines: make(chan []byte, 1)}
		p := &Process{stdin: a, lines: a.lines, stderr: &tailBuffer{max: 1 << 10}}
		objs := []map[string]any{{"apiVersion": "a.example.com/v1", "kind": "K", "metadata": map[string]any{"name": "x"}}}
		out, err := p.Convert(context.Background(), objs, "a.example.com/v2")
		if err != nil {
			return
		}
		if len(out) != len(objs) {
			t.Fatalf("%d objects for %d", len(out), len(objs))
		}
		for i, o := range out {
			if o == nil {
				t.Fatalf("converted object %d is not an object", i)
			}
		}
	})
}

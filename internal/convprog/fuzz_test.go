package convprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"
)

// answering is a fake program's standard input: each request line it is
// written (an id, a space, JSON) is answered on out, the fake's standard
// output, with output, "UID" replaced by the request's UID (when it has
// one), then the token, the id, a space, the answer ("UID" replaced too)
// and a newline, as the program writes it after what the API's code
// printed.
type answering struct {
	output, answer, token []byte
	out                   *io.PipeWriter
}

func (a *answering) Write(p []byte) (int, error) {
	var req struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	id, body, _ := bytes.Cut(p, []byte(" "))
	_ = json.Unmarshal(body, &req)
	uid := []byte(req.Request.UID)
	line := bytes.ReplaceAll(a.output, []byte("UID"), uid)
	line = append(append(append(append(line, a.token...), id...), ' '), bytes.ReplaceAll(a.answer, []byte("UID"), uid)...)
	line = append(line, '\n')
	// fails only when the pipe is closed: the test is over
	go func() { _, _ = a.out.Write(line) }()
	return len(p), nil
}

func (a *answering) Close() error { return a.out.Close() }

// FuzzConvertAnswer: whatever the conversion program writes to its
// standard output for a ConversionReview (output the API's code printed,
// then the token and an answer), read as Start reads it (instance.read),
// Convert returns an error, or as many objects as it sent, each a JSON
// object; it never panics.
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
		`null`, `[]`, `{`, `{}`, ``,
	} {
		for _, output := range []string{"", "printed\n", "no newline ", "UID\nand more "} {
			f.Add([]byte(output), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, output, answer []byte) {
		token := []byte("\x1econvprog-fuzz:")
		if bytes.Contains(output, token) || bytes.IndexByte(answer, '\n') >= 0 {
			t.Skip("the token is the program's own, and its answers are one line of JSON")
		}
		r, w := io.Pipe()
		a := &answering{output: output, answer: answer, token: token, out: w}
		defer a.Close()
		in := newInstance(a, &tailBuffer{max: 1 << 10})
		p := &Process{cur: in}
		go in.read(r, token, p.lineLimit)
		objs := []map[string]any{{"apiVersion": "a.example.com/v1", "kind": "K", "metadata": map[string]any{"name": "x"}}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		out, err := p.Convert(ctx, objs, "a.example.com/v2")
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("no answer read: output %q, answer %q", output, answer)
		}
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

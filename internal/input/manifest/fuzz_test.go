package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"
)

// FuzzReader: any bytes give objects and then io.EOF or an *Error, never a
// panic or a hang, and every object is a JSON object that encodes again.
// The seed corpus is testdata/fuzz/FuzzReader; `go test` runs it, and
// `go test -fuzz FuzzReader -parallel 1` explores from it.
func FuzzReader(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			readAll(t, data)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("reading %d bytes takes more than 10s", len(data))
		}
	})
}

func readAll(t *testing.T, data []byte) {
	r := NewReader("fuzz", bytes.NewReader(data))
	lastDoc := 0
	for n := 0; ; n++ {
		o, err := r.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz" || e.Doc < 1 {
				t.Fatalf("error %T %v, want an *Error naming the document", err, err)
			}
			if _, again := r.Next(); again != err { //nolint:errorlint // the same error value again, not one that wraps it
				t.Fatalf("after %v, Next returned %v", err, again)
			}
			return
		}
		if o.Object == nil || o.Doc < lastDoc || o.Doc < 1 || o.Item < 0 {
			t.Fatalf("object %d: %+v", n, o)
		}
		lastDoc = o.Doc
		if _, err := json.Marshal(o.Object); err != nil {
			t.Fatalf("object %d does not encode: %v", n, err)
		}
	}
}

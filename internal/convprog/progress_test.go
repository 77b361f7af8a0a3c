package convprog

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgress: go build -v's package lines are counted, a line every 100
// packages when the log is no terminal, and the rest (errors) is kept.
func TestProgress(t *testing.T) {
	var log bytes.Buffer
	p := &progress{log: &log, total: 250}
	var in strings.Builder
	for i := 0; i < 230; i++ {
		in.WriteString("k8s.io/client-go/informers/apps/v1\n")
	}
	in.WriteString("# example.com/m/internal/conversion\n")
	in.WriteString("internal/conversion/gadget.go:12:2: undefined: x\n")
	// written in odd pieces, as a pipe delivers it
	s := in.String()
	for len(s) > 0 {
		n := min(7, len(s))
		if _, err := p.Write([]byte(s[:n])); err != nil {
			t.Fatal(err)
		}
		s = s[n:]
	}
	p.done()
	if p.compiled != 230 {
		t.Errorf("compiled = %d, want 230", p.compiled)
	}
	if want := "convprog: compiled 100 of about 250 packages\nconvprog: compiled 200 of about 250 packages\n"; log.String() != want {
		t.Errorf("log = %q, want %q", log.String(), want)
	}
	if want := "# example.com/m/internal/conversion\ninternal/conversion/gadget.go:12:2: undefined: x\n"; p.output.String() != want {
		t.Errorf("output = %q, want %q", p.output.String(), want)
	}
}

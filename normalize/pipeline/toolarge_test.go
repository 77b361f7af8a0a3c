package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTooLargeNotPrinted: a document refused unread as too large
// (manifest.TooLargeError) is a refused object (exit 1) named FILE:DOC
// and Kind namespace/name, with its size and the limit; it is not
// printed, and the objects after it are.
func TestTooLargeNotPrinted(t *testing.T) {
	in := filepath.Join(t.TempDir(), "big.yaml")
	var doc strings.Builder
	doc.WriteString("apiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: big\nspec:\n  notes:\n")
	for doc.Len() < 7<<20 {
		doc.WriteString("  - " + strings.Repeat("x", 96) + "\n")
	}
	doc.WriteString("---\napiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: small\nspec:\n  size: M\n")
	if err := os.WriteFile(in, []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := RunCLI([]string{"--crd", "../impact/testdata/new.yaml", in}, nil, &stdout, &stderr)
	want := in + ":1: Widget big: Request entity too large: limit is 3145728 (the document has "
	if code != ExitInvalid || !strings.HasPrefix(stderr.String(), want) ||
		strings.Contains(stdout.String(), "name: big") || !strings.Contains(stdout.String(), "name: small") || stdout.Len() > 1000 {
		t.Errorf("exit %d, stderr %q, stdout %d bytes:\n%.300s\nwant exit 1, %q..., and only small printed", code, stderr.String(), stdout.Len(), stdout.String(), want)
	}
}

package normalizecmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/normalize"
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
	code := Run([]string{"--crd", "../../impact/testdata/new.yaml", in}, nil, &stdout, &stderr)
	want := in + ":1: Widget big: Request entity too large: limit is 3145728 (the document has "
	if code != normalize.ExitInvalid || !strings.HasPrefix(stderr.String(), want) ||
		strings.Contains(stdout.String(), "name: big") || !strings.Contains(stdout.String(), "name: small") || stdout.Len() > 1000 {
		t.Errorf("exit %d, stderr %q, stdout %d bytes:\n%.300s\nwant exit 1, %q..., and only small printed", code, stderr.String(), stdout.Len(), stdout.String(), want)
	}
}

// TestTooLargeFlowNotPrinted: a JSON object, and a YAML document in flow
// style, far over the limit are refused unread as a block-style one is:
// FILE:DOC, Kind namespace/name, the size, the limit and how to fix it on
// stderr, exit 1, not printed (before, each was decoded, refused after
// decoding, and printed whole); the objects after them are read.
func TestTooLargeFlowNotPrinted(t *testing.T) {
	notes := strings.Repeat(`"`+strings.Repeat("x", 96)+`",`, 7<<20/99)
	big := `{"apiVersion": "impact.example.com/v1", "kind": "Widget", "metadata": {"name": "big", "namespace": "prod"}, "spec": {"notes": [` + notes + `"end"]}}`
	small := `{"apiVersion": "impact.example.com/v1", "kind": "Widget", "metadata": {"name": "small"}, "spec": {"size": "M"}}`
	for name, in := range map[string]string{
		"big.json":  big + "\n" + small + "\n",
		"flow.yaml": "# flow style\n" + strings.ReplaceAll(big, `"`, "") + "\n---\n" + small + "\n",
	} {
		file := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := Run([]string{"--crd", "../../impact/testdata/new.yaml", file}, nil, &stdout, &stderr)
		want := file + ":1: Widget prod/big: Request entity too large: limit is 3145728 (the document has "
		if code != normalize.ExitInvalid || !strings.HasPrefix(stderr.String(), want) || !strings.Contains(stderr.String(), "split its data among several objects") ||
			strings.Contains(stdout.String(), "name: big") || !strings.Contains(stdout.String(), "name: small") || stdout.Len() > 1000 {
			t.Errorf("%s: exit %d, stderr %.400q, stdout %d bytes:\n%.300s\nwant exit 1, %q..., and only small printed", name, code, stderr.String(), stdout.Len(), stdout.String(), want)
		}
	}
}

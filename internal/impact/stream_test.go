package impact

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestParallelIsSequential: the report of many objects, analyzed by
// several workers at once, is byte for byte the report of one worker, in
// text and in JSON: objects of every category, duplicate fields (warnings
// on stderr), and an unusable object at the end (the objects before it are
// reported, then the error).
func TestParallelIsSequential(t *testing.T) {
	objects, err := os.ReadFile("testdata/objects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list, err := os.ReadFile("testdata/list.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dup := "apiVersion: impact.example.com/v1\nkind: Widget\nmetadata:\n  name: dup\n  namespace: default\nspec:\n  size: S\n  size: M\n"
	var in strings.Builder
	for range 30 {
		in.Write(objects)
		in.WriteString("\n---\n")
		in.Write(list)
		in.WriteString("\n---\n" + dup + "---\n")
	}
	valid := in.String()
	orphan := "apiVersion: impact.example.com/v1\nkind: Sprocket\nmetadata: {name: orphan}\n"
	for _, tc := range []struct{ name, in string }{
		{"all usable", valid},
		{"an unusable object last", valid + orphan + "---\n" + valid},
	} {
		for _, format := range []string{"text", "text -v", "json"} {
			t.Run(tc.name+", "+format, func(t *testing.T) {
				format, verbose := strings.CutSuffix(format, " -v")
				run := func(n int) (string, string, int) {
					o := Options{Old: []string{"testdata/old.yaml"}, New: []string{"testdata/new.yaml"}, Output: format, Files: []string{"-"}}
					oldCRDs, newCRDs, err := loadBoth(context.Background(), o, nil)
					if err != nil {
						t.Fatal(err)
					}
					a, err := New(context.Background(), oldCRDs, newCRDs)
					if err != nil {
						t.Fatal(err)
					}
					var stdout, stderr bytes.Buffer
					p := newPrinter(o.Output, &stdout, &stderr)
					p.verbose = verbose
					code := streamReport(context.Background(), a, filesInputs(o.Files, strings.NewReader(tc.in)), false, p, n)
					return stdout.String(), stderr.String(), code
				}
				seqOut, seqErr, seqCode := run(1)
				parOut, parErr, parCode := run(8)
				if minLines := map[bool]int{true: 300, false: 20}[verbose || format == "json"]; strings.Count(seqOut, "\n") < minLines ||
					!strings.Contains(seqErr, `warning: duplicate field "spec.size"`) {
					t.Fatalf("the sequential run reports too little: %d lines, stderr %.300q", strings.Count(seqOut, "\n"), seqErr)
				}
				if parCode != seqCode || parOut != seqOut || parErr != seqErr {
					t.Errorf("8 workers: exit %d, %d bytes out, %d bytes err; 1 worker: exit %d, %d bytes out, %d bytes err",
						parCode, len(parOut), len(parErr), seqCode, len(seqOut), len(seqErr))
				}
			})
		}
	}
}

package impact

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/apiserver/crdcheck"
	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// dyingConvapi copies testdata/convapi with a ConvertTo that never
// returns on the Widget named "hangs", exits the program (os.Exit(3)) on
// "exits", and panics in a goroutine on "panics", and returns the copy.
func dyingConvapi(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := realapistest.CopyTree(convapi(t), dir); err != nil {
		t.Fatal(err)
	}
	conv := filepath.Join(dir, "api", "v1beta1", "widget_conversion.go")
	b, err := os.ReadFile(conv)
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "\tdst := dstRaw.(*v1.Widget)\n", `	switch src.Name {
	case "exits":
		fmt.Fprintln(os.Stderr, "fatal: cannot convert", src.Name)
		os.Exit(3)
	case "hangs":
		select {}
	case "panics":
		done := make(chan struct{})
		go func() { panic("converting " + src.Name) }()
		<-done
	}
	dst := dstRaw.(*v1.Widget)
`, 1)
	src = strings.Replace(src, "import (\n\t\"fmt\"\n", "import (\n\t\"fmt\"\n\t\"os\"\n", 1)
	if src == string(b) {
		t.Fatal("testdata/convapi's widget_conversion.go is not as the test expects: fix the test")
	}
	if err := os.WriteFile(conv, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestConvertWorkers: the report of objects converted by the API's code,
// one of which hangs its conversion, one exits the program and one panics
// in it, is byte for byte the same with 1, 2 and 8 workers: each of those
// three fails alone (the timeout; the exit status and message of its own
// exit), and every other object converts, whatever is in flight beside it.
func TestConvertWorkers(t *testing.T) {
	testConversion(t) // skips without a go command or module downloads
	dir := dyingConvapi(t)
	var objects strings.Builder
	for i, name := range []string{"hangs", "a", "b", "exits", "c", "d", "panics", "e", "f", "g", "h"} {
		objects.WriteString("---\napiVersion: conv.example.com/v1beta1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n  length: " + string(rune('1'+i%9)) + "\n")
	}
	data := filepath.Join(testdataDir(t), "convert")
	old, err := crdcheck.LoadCRDs(filepath.Join(data, "old-v1beta1-storage.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	new, err := crdcheck.LoadCRDs(filepath.Join(data, "new-v1beta1-not-served.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(n int) (string, string, int) {
		ctx := context.Background()
		c, err := startProgram(ctx, convprog.Options{Dir: dir, Patterns: []string{"./api/..."}})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.proc.Timeout = 3 * time.Second
		a, err := New(ctx, old, new)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.useConversion(c); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		p := newPrinter("text", &stdout, &stderr)
		p.converted = []string{"widgets.conv.example.com"}
		code := streamReport(ctx, a, filesInputs([]string{"-"}, strings.NewReader(objects.String())), false, p, n)
		return stdout.String(), stderr.String(), code
	}
	oneOut, oneErr, oneCode := run(1)
	for _, want := range []string{
		"Widget default/hangs (conv.example.com/v1beta1): conversion failed",
		"the conversion program did not answer: no answer within 3s",
		"Widget default/exits (conv.example.com/v1beta1): conversion failed",
		`the conversion program stopped (exit status 3):\nfatal: cannot convert exits`,
		"Widget default/panics (conv.example.com/v1beta1): conversion failed",
		`the conversion program stopped (exit status 2):\npanic: converting panics\n\ngoroutine N [running]`,
		"conversion failed                 3",
	} {
		if !strings.Contains(oneOut, want) {
			t.Errorf("1 worker: the report lacks %q:\n%s", want, oneOut)
		}
	}
	for _, n := range []int{2, 8} {
		out, errOut, code := run(n)
		if out != oneOut || errOut != oneErr || code != oneCode {
			t.Errorf("%d workers: exit %d, report:\n%s\nstderr: %s\n1 worker: exit %d, report:\n%s\nstderr: %s", n, code, out, errOut, oneCode, oneOut, oneErr)
		}
	}
}

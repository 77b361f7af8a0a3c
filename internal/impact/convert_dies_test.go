package impact

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// TestConvertProgramDies: when the API's ConvertTo exits the program
// (os.Exit) on one object, or never returns on another, only that
// object's conversion fails, with the exit status and what it printed, or
// the timeout; the objects after each are converted, by the program
// started again after the exit, and by the same program after the hang.
func TestConvertProgramDies(t *testing.T) {
	testConversion(t) // skips without a go command or module downloads
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
	var objects strings.Builder
	for _, name := range []string{"exits", "seven", "hangs", "seven-again"} {
		objects.WriteString("---\napiVersion: conv.example.com/v1beta1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n  length: 7\n")
	}
	input := filepath.Join(dir, "objects.yaml")
	if err := os.WriteFile(input, []byte(objects.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	c, err := startProgram(context.Background(), convprog.Options{Dir: dir, Patterns: []string{"./api/..."}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.proc.Timeout = 3 * time.Second
	data := filepath.Join(testdataDir(t), "convert")
	recs := analyzeFiles(t, c, filepath.Join(data, "old-v1beta1-storage.yaml"), filepath.Join(data, "new-v1beta1-not-served.yaml"), input)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	// the webhook's answer, as the apiserver quotes it
	for i, want := range []string{`the conversion program stopped (exit status 3):\nfatal: cannot convert exits`, "", "the conversion program did not answer: no answer within 3s", ""} {
		r := recs[i]
		got := ""
		if r.ConversionFailed != nil {
			got = r.ConversionFailed.Message
		}
		if want == "" && got != "" || !strings.Contains(got, want) {
			j, _ := json.Marshal(r.ConversionFailed)
			t.Errorf("object %d (%s): conversionFailed %s; want %q", i+1, r.Name, j, want)
		}
		if want == "" && (r.AtStorageVersion == nil || spec(r.AtStorageVersion.Object)["size"] != int64(7) && spec(r.AtStorageVersion.Object)["size"] != float64(7)) {
			t.Errorf("object %d (%s): not converted by the program started again: %+v", i+1, r.Name, r.AtStorageVersion)
		}
	}
}

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
)

// TestConvertProgramDies: when the API's ConvertTo exits the program
// (os.Exit) on one object, or never returns on another, only that
// object's conversion fails, with the exit status and what it printed, or
// the timeout; the objects after each are converted, by the program
// started again after the exit, and by the same program after the hang.
func TestConvertProgramDies(t *testing.T) {
	testConversion(t)      // skips without a go command or module downloads
	dir := dyingConvapi(t) // its ConvertTo exits on "exits" and never returns on "hangs"
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

package impact

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog/convprogtest"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// TestConvertDuplicateConverter: two WithConverter calls for one
// group/kind make --convert exit 2, naming both registrations, as the
// manager refuses to start (controller-runtime's Registry refuses the
// second); nothing is converted with the None strategy instead.
func TestConvertDuplicateConverter(t *testing.T) {
	testConversion(t) // skips without a go command or module downloads
	data := testdataDir(t)
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "convreg"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := realapistest.CopyTree(src, dir); err != nil {
		t.Fatal(err)
	}
	convprogtest.AddSecondConverter(t, dir)
	t.Chdir(dir)
	o := Options{Old: []string{filepath.Join(data, "old.yaml")}, New: []string{filepath.Join(data, "new.yaml")}}
	_, stderr, code := runImpact(t, "", withConvert(o, "./..."))
	want := "impact: --convert ./...: " + filepath.Join("internal", "webhooks", "again.go") + ":13:3: WithConverter registers a Converter for Gadget.reg.example.com, " +
		"which WithConverter at " + filepath.Join("internal", "webhooks", "gadget.go") + ":15:3 registers too: controller-runtime's Registry refuses the one registered second"
	if code != ExitUnusable || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want %d; stderr:\n%s\nwant it to contain:\n%s", code, ExitUnusable, stderr, want)
	}
	if strings.Contains(stderr, "()") {
		t.Errorf("empty parentheses on stderr:\n%s", stderr)
	}
}

// TestConvertNoKindConverts: when the API's code holds kinds but converts
// none (./api/v1 has the hub alone), --convert notes why for each kind
// and converts as with the None strategy; no warning with an empty list.
func TestConvertNoKindConverts(t *testing.T) {
	testConversion(t) // skips without a go command or module downloads
	data := testdataDir(t)
	o := Options{Old: []string{filepath.Join(data, "old.yaml")}, New: []string{filepath.Join(data, "new.yaml")}, Files: []string{filepath.Join(data, "objects.yaml")}}
	plain, _, plainCode := runImpact(t, "", o)
	t.Chdir(convapi(t))
	out, stderr, code := runImpact(t, "", withConvert(o, "./api/v1"))
	want := "impact: note: --convert ./api/v1: no kind the API's code holds converts between versions: Widget.conv.example.com: one version (v1); " +
		"versions are converted as with the None strategy\n"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "()") {
		t.Errorf("stderr:\n%s\nwant it to contain:\n%s", stderr, want)
	}
	if code != plainCode || out != plain {
		t.Errorf("exit %d (want %d), stdout differs from the run without --convert:\n%s", code, plainCode, out)
	}
}

package impact

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertNothing: --convert on packages where nothing converts is a
// note, builds nothing, and the run is the one without --convert. (That
// --setup needs --convert is the command's rule: impactcmd's
// TestCLIUnusable.)
func TestConvertNothing(t *testing.T) {
	data := testdataDir(t)
	o := Options{Old: []string{filepath.Join(data, "old.yaml")}, New: []string{filepath.Join(data, "new.yaml")}, Files: []string{filepath.Join(data, "objects.yaml")}}
	plain, _, plainCode := runImpact(t, "", o)

	t.Run("nothing converts", func(t *testing.T) {
		t.Chdir(convapi(t))
		// cmd/... is the webhook's main package: no conversion of its own
		out, stderr, code := runImpact(t, "", withConvert(o, "./cmd/..."))
		if !strings.Contains(stderr, "impact: note: --convert ./cmd/...: no conversion:") || strings.Contains(stderr, "convprog:") {
			t.Errorf("stderr:\n%s", stderr)
		}
		if code != plainCode || out != plain {
			t.Errorf("exit %d (want %d), stdout differs from the run without --convert:\n%s", code, plainCode, out)
		}
	})
}

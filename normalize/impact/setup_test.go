package impact

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestConvertNothingAndSetup: --setup needs --convert; --convert on
// packages where nothing converts is a note, builds nothing, and the run
// is the one without --convert.
func TestConvertNothingAndSetup(t *testing.T) {
	data := testdataDir(t)
	crds := []string{"--old", filepath.Join(data, "old.yaml"), "--new", filepath.Join(data, "new.yaml")}
	objects := filepath.Join(data, "objects.yaml")
	plain, _, plainCode := runCLI(t, "", append(slices.Clone(crds), objects)...)

	t.Run("setup without convert", func(t *testing.T) {
		_, stderr, code := runCLI(t, "", append(slices.Clone(crds), "--setup", "example.com/x.Setup", objects)...)
		if code != ExitUnusable || !strings.Contains(stderr, "--setup needs --convert") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	t.Run("nothing converts", func(t *testing.T) {
		t.Chdir(convapi(t))
		// cmd/... is the webhook's main package: no conversion of its own
		out, stderr, code := runCLI(t, "", append(slices.Clone(crds), "--convert", "./cmd/...", objects)...)
		if !strings.Contains(stderr, "impact: note: --convert ./cmd/...: no conversion:") || strings.Contains(stderr, "convprog:") {
			t.Errorf("stderr:\n%s", stderr)
		}
		if code != plainCode || out != plain {
			t.Errorf("exit %d (want %d), stdout differs from the run without --convert:\n%s", code, plainCode, out)
		}
	})
}

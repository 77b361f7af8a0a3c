package conversion

import (
	"strings"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog/convprogtest"
)

// TestControllerRuntimeV020: `conversion ./...` on a module that requires
// controller-runtime v0.20.4 (Hub/Convertible; no Converters before
// v0.23.0) builds its conversion program and reports the field v1beta1
// loses. The generated program once named webhookconversion.Converter on
// every release, and did not compile against this one.
func TestControllerRuntimeV020(t *testing.T) {
	skipBuilds(t, "builds the conversion program against controller-runtime v0.20.4")
	dir := convprogtest.Module(t, "v0.20.4", false, true)
	t.Chdir(dir)
	color := fieldPos(t, "api/v1/widget_types.go", "Color string")
	o := options("./...")
	o.Rounds = 20
	code, stdout, stderr := run(t, o)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFindings, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := color + `: error: WidgetSpec.Color (spec.color): lost in a round trip v1 → v1beta1 → v1: `
	if len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.HasSuffix(lines[0], "[conversion-lost-field]") {
		t.Errorf("findings:\n%s\nwant one:\n%s... [conversion-lost-field]\nstderr:\n%s", stdout, want, stderr)
	}
}

// TestControllerRuntimeTooOld: `conversion ./...` on a module that
// requires a controller-runtime older than v0.15.0 is refused in one line
// that names the version and the minimum, exit 2, before anything is
// generated or built.
func TestControllerRuntimeTooOld(t *testing.T) {
	dir := convprogtest.Module(t, convprogtest.TooOld, false, true)
	t.Chdir(dir)
	code, stdout, stderr := run(t, options("./..."))
	want := "controller-gen-default conversion: sigs.k8s.io/controller-runtime " + convprogtest.TooOld +
		" in example.com/crversions's build list is older than v0.15.0, the oldest the conversion program supports\n"
	if code != ExitUsage || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and stderr:\n%s", code, stdout, stderr, ExitUsage, want)
	}
}

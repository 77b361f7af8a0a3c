package convprog

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/controller-gen-default/controller-gen-default/internal/convprog/convprogtest"
)

// TestDuplicateConverter: two WithConverter calls for one group/kind
// (through two Go types of it) are refused as the manager refuses them
// (controller-runtime's Registry): Start fails with a *DuplicateError that
// names both registrations' file:line:col and says what to do; nothing is
// converted.
func TestDuplicateConverter(t *testing.T) {
	dir := copyModuleFrom(t, convreg)
	convprogtest.AddSecondConverter(t, dir)
	t.Chdir(dir)
	p := mustBuild(t, Options{Patterns: []string{"./..."}, Setup: "example.com/convreg/convsetup.Setup", CacheDir: t.TempDir()})
	proc, err := p.Start(context.Background())
	if err == nil {
		proc.Close()
		t.Fatalf("Start: no error; kinds %+v", proc.Kinds())
	}
	de, ok := errors.AsType[*DuplicateError](err)
	if !ok {
		t.Fatalf("Start: %v, want a *DuplicateError", err)
	}
	if de.GroupKind != (schema.GroupKind{Group: "reg.example.com", Kind: "Gadget"}) {
		t.Errorf("GroupKind = %v", de.GroupKind)
	}
	gadget, again := filepath.Join("internal", "webhooks", "gadget.go"), filepath.Join("internal", "webhooks", "again.go")
	want := again + ":13:3: WithConverter registers a Converter for Gadget.reg.example.com, which WithConverter at " + gadget + ":15:3 registers too: " +
		"controller-runtime's Registry refuses the one registered second (failed to register Converter for GroupKind Gadget.reg.example.com: converter already registered), " +
		"so WebhookBuilder.Complete returns that error and the manager does not start; register one Converter per kind"
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
	if strings.Contains(err.Error(), "()") {
		t.Errorf("empty parentheses in %q", err)
	}
}

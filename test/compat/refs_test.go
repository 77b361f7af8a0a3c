package compat

import (
	"context"
	"testing"

	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis"
	"github.com/controller-gen-default/controller-gen-default/internal/testsupport/realapis/realapistest"
)

// The one difference controller-gen-default makes on purpose with
// implicitDefaults=false: it evaluates `+default=ref(Constant)` markers,
// which controller-gen v0.23.0 drops. realapistest.RefDefaults finds the
// fields that carry one, and OnlyRefDefaults accepts exactly those added
// defaults (its test is realapistest's TestOnlyRefDefaults); the
// acceptance test uses the same two.

// refDefaults is realapistest.RefDefaults, failing t on an error.
func refDefaults(t *testing.T, ws *realapis.Workspace, patterns []string) map[string]bool {
	t.Helper()
	refs, err := realapistest.RefDefaults(context.Background(), ws, patterns)
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

var onlyRefDefaults = realapistest.OnlyRefDefaults

package testfiles

import "testing"

// Fixture is a test's type, in no CRD.
type Fixture struct {
	// +default={"name": "fixture"}
	Sub SubLevel `json:"sub,omitempty"`
}

func TestFixture(t *testing.T) { _ = Fixture{} }

// Package refs holds the constants that the markers tests name with
// +default=ref(...).
package refs

import "github.com/controller-gen-default/controller-gen-default/markers/testdata/refs/other"

type Protocol string

const (
	Str      Protocol = "TCP"
	Untyped           = "UDP"
	Int               = 3
	Negative          = -7
	Half              = 0.5
	Yes               = true
	Complex           = 1 + 2i
	// Tiny has an exact decimal of 43 significant digits.
	Tiny = 1.0 / (1 << 60)
)

// Var is a variable, not a constant.
var Var = "x"

// Type is a type, not a constant.
type Type struct{}

// Holder refers to a type of package other: the type checker then loads
// it, as the generators' does for the packages that field types come from.
type Holder struct {
	Port other.Port `json:"port"`
}

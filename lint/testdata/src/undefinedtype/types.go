// Package undefinedtype has a field of a type that does not exist: crd
// fails with controller-tools' "unknown type", and lint exits 2 with the
// type checker's error.
package undefinedtype

type Spec struct {
	Name Undefined `json:"name"`
}

// broken is a type error outside the struct types: no load error.
var broken int = "x"

// Package broken does not compile: its types load all the same, and lint,
// as crd, reads them (package syntax does not parse: lint exits 2).
package broken

type Spec struct {
	Name string `json:"name"`
}

var _ int = "not an int"

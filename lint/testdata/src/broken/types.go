// Package broken does not compile: lint exits 2.
package broken

type Spec struct {
	Name string `json:"name"`
}

var _ int = "not an int"

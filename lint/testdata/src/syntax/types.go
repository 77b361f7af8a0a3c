// Package syntax does not parse: lint exits 2, as crd does.
package syntax

type Spec struct {
	Name string `json:"name"`
	Size int32 json:"size"`
}

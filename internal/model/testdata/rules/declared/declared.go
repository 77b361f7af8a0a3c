// Package declared declares a struct type that package rules reaches only
// through an alias of package aliased: rules does not import declared.
package declared

type Deep struct {
	// +optional
	Count int32 `json:"count"`
}

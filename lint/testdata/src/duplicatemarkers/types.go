// Package duplicatemarkers: one marker written twice with one value.
//
// +kubebuilder:validation:Optional
package duplicatemarkers

type Spec struct {
	// +default=3
	// +default=3
	SameTwice int32 `json:"sameTwice,omitempty"` // want `^warning: Spec.SameTwice: \+default=3 is written 2 times; keep one \[duplicate-markers\]$`

	// +default=3
	Once int32 `json:"once,omitempty"`
}

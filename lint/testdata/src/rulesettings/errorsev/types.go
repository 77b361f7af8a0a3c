// Package errorsev: with -rules=omitempty-struct=error, omitempty-struct's
// findings are errors.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package errorsev

type Kind struct {
	Spec Spec `json:"spec,omitempty"` // want `^error: Kind.Spec: omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, which keeps the field optional \[omitempty-struct\]$`
}

type Spec struct {
	Size int `json:"size,omitempty"`
}

// Package off: with -rules=invalid-default=off, nothing is reported of
// invalid-default.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package off

type Spec struct {
	// +default=TCP
	Unquoted string `json:"unquoted,omitempty"`
}

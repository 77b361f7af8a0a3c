// Package conflictingdefaults: +default and +kubebuilder:default on one
// field agree.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package conflictingdefaults

type Spec struct {
	// +default=1
	// +kubebuilder:default=2
	Twice int32 `json:"twice,omitempty"` // want `^error: Spec.Twice: two different defaults: \+default=1 and \+kubebuilder:default=2; keep one \[conflicting-defaults\]$`

	// +default="a"
	// +kubebuilder:default="a"
	Agree string `json:"agree,omitempty"`

	// +default={"x": 1, "y": 2}
	// +kubebuilder:default={y: 2, x: 1}
	Same map[string]int `json:"same,omitempty"`
}

// Package defaultonrequired: an author's default on a field the schema
// requires, which the apiserver applies before it checks required.
package defaultonrequired

type Spec struct {
	// +kubebuilder:default=false
	NoUpper bool `json:"noUpper"` // want `^warning: Spec.NoUpper: \+kubebuilder:default=false on a field the schema requires \(it has no omitempty and no \+optional\): the apiserver applies the default before it checks required, so the field is never missing and a manifest that leaves it out or misspells it is accepted. If clients may leave the field out, mark it \+optional; if they must send it, remove the default \[default-on-required\]$`

	// +required
	// +default="x"
	Marked string `json:"marked,omitempty"` // want `^warning: Spec.Marked: \+default="x" on a field the schema requires \(it is \+required\)`

	// +optional
	// +kubebuilder:default=false
	Optional bool `json:"optional"`

	// +kubebuilder:default=3
	Omitted int32 `json:"omitted,omitempty"`
}

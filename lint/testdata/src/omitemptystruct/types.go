// Package omitemptystruct: KEP-1929 rule 2: omitempty does nothing on a
// non-pointer struct.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package omitemptystruct

type Kind struct {
	Spec Spec `json:"spec,omitempty"` // want `^warning: Kind.Spec: omitempty has no effect on a non-pointer struct: encoding/json always writes it. Use omitzero, which keeps the field optional \[omitempty-struct\]$`

	// Other keys and options stay as they are.
	Other Spec `yaml:"other,omitempty" json:"other,omitempty,string"` // want `^warning: Kind.Other: omitempty has no effect`

	// omitzero does what omitempty promised.
	Status Status `json:"status,omitempty,omitzero"`
	Zero   Status `json:"zero,omitzero"`

	// omitempty works on pointers.
	Pointer *Spec `json:"pointer,omitempty"`

	// and on scalars, lists and maps.
	Name   string            `json:"name,omitempty"`
	List   []Spec            `json:"list,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

type Spec struct {
	Size int `json:"size,omitempty"`
}

type Status struct {
	Ready bool `json:"ready,omitempty"`
}

// Package defaultneedsomitempty: KEP-1929 rule 3: a scalar whose default is
// not its zero value needs omitempty (or omitzero) or a pointer. The fix is
// omitempty only where the field's validation refuses the zero value, so
// that no Go client means it; elsewhere omitempty would store the default
// in place of a client's zero, and the fix is a pointer.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package defaultneedsomitempty

type Spec struct {
	// The KEP's Invalid example: "" is a valid name here.
	// +default="default-name"
	Name string `json:"name"` // want `^error: Spec.Name: \+default="default-name" is not the zero value "", and without omitempty Go clients always send "", so the default would never apply to them. Make the field a pointer: with omitempty, a Go client's "" would be left out and stored as "default-name", and "" is a valid value of the field \[default-needs-omitempty\]$`

	// Other keys of the tag stay as they are; 0 is refused, so omitempty.
	// +default=3
	// +kubebuilder:validation:Minimum=1
	Replicas int32 `protobuf:"varint,2,opt,name=replicas" json:"replicas"  yaml:"replicas"` // want `^error: Spec.Replicas: \+default=3 is not the zero value 0, and without omitempty Go clients always send 0, so the default would never apply to them. Add omitempty \(or omitzero\) to the json tag \(its minimum is 1, so no client means 0\), or make the field a pointer \[default-needs-omitempty\]$`

	// 0 is valid: a pointer.
	// +default=3
	// +kubebuilder:validation:Minimum=0
	Workers int32 `json:"workers"` // want `^error: Spec.Workers: \+default=3 is not the zero value 0, .* Make the field a pointer: with omitempty, a Go client's 0 would be left out and stored as 3`

	// The zero value needs nothing.
	// +default=0
	Zero int32 `json:"zero"`

	// omitzero counts as omitempty.
	// +default=5
	Weight int `json:"weight,omitzero"`

	// A pointer may have any default.
	// +default=true
	Enabled *bool `json:"enabled"`

	// controller-gen's marker keeps its meaning: a warning.
	// +kubebuilder:default="monitoring.coreos.com"
	Group string `json:"group"` // want `^warning: Spec.Group: \+kubebuilder:default="monitoring.coreos.com" is not the zero value ""`

	// A default on the field's type, whose enum refuses "".
	Tier Tier `json:"tier"` // want `^error: Spec.Tier: \+default on type Tier="gold" is not the zero value "", .* Add omitempty \(or omitzero\) to the json tag \(its enum does not hold it`

	// An interpreted string tag: no omitempty fix is offered, since the
	// edit would have to escape its quotes.
	// +default="x"
	// +kubebuilder:validation:MinLength=1
	Quoted string "json:\"quoted\"" // want `^error: Spec.Quoted: \+default="x" is not the zero value "", .* \(its minLength is 1`
}

// +default="gold"
// +kubebuilder:validation:Enum=gold;silver
type Tier string

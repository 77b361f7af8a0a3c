// Package defaultneedsomitempty: KEP-1929 rule 3: a scalar whose default is
// not its zero value needs omitempty (or omitzero) or a pointer.
//
// Fields are optional unless marked: the default-on-required rule has its own package.
// +kubebuilder:validation:Optional
package defaultneedsomitempty

type Spec struct {
	// The KEP's Invalid example.
	// +default="default-name"
	Name string `json:"name"` // want `^error: Spec.Name: \+default="default-name" is not the zero value "", and without omitempty Go clients always send "", so the default would never apply to them. Add omitempty \(or omitzero\) to the json tag, or make the field a pointer \[default-needs-omitempty\]$`

	// Other keys of the tag stay as they are.
	// +default=3
	Replicas int32 `protobuf:"varint,2,opt,name=replicas" json:"replicas"  yaml:"replicas"` // want `^error: Spec.Replicas: \+default=3 is not the zero value 0`

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

	// A default on the field's type.
	Tier Tier `json:"tier"` // want `^error: Spec.Tier: \+default on type Tier="gold" is not the zero value ""`

	// An interpreted string tag: no fix is offered, since the edit would
	// have to escape its quotes.
	// +default="x"
	Quoted string "json:\"quoted\"" // want `^error: Spec.Quoted: \+default="x" is not the zero value ""`
}

// +default="gold"
type Tier string

package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Mode is how a frigate moves.
// +kubebuilder:validation:Enum=Cruise;Anchor
type Mode string

// Frigate is the example of omitzero structs: absent and zero are one value
// for Go clients, so the CRD's default for each is what the apiserver stores
// for Go's zero struct, or nothing.
// +kubebuilder:subresource:status
// +kubebuilder:object:root=true
type Frigate struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// +required
	Spec FrigateSpec `json:"spec"`
	// +optional
	Status FrigateStatus `json:"status,omitzero"`
}

type FrigateSpec struct {
	// +required
	Mode Mode `json:"mode"`

	// A required child without a default: {} is refused, so the deck gets no
	// default, and the Go defaulter leaves a zero deck alone.
	// +optional
	Deck Deck `json:"deck,omitzero"`

	// MinProperties=1 refuses {}; {"fuel":"diesel"} is what the apiserver
	// stores for Go's zero engine, and it is accepted.
	// +optional
	Engine Engine `json:"engine,omitzero"`

	// MinProperties=1 and no defaults below: Go clients leave the zero hull
	// out and nothing would change it, so no default.
	// +optional
	Hull Hull `json:"hull,omitzero"`

	// No omitzero: Go clients always send the rigging, and the KEP's {} is
	// refused by MinProperties=1, so the default is {} with the defaults
	// below it applied.
	// +optional
	Rigging Rigging `json:"rigging"`
}

type Deck struct {
	// +required
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// +optional
	// +default="blue"
	Colour string `json:"colour,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Engine struct {
	// +optional
	Power *int32 `json:"power,omitempty"`
	// +optional
	// +default="diesel"
	Fuel string `json:"fuel,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Hull struct {
	// +optional
	Material string `json:"material,omitempty"`
	// +optional
	Length *int32 `json:"length,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Rigging struct {
	// +optional
	// +default=12
	Knots int32 `json:"knots,omitempty"`
	// +optional
	Masts *int32 `json:"masts,omitempty"`
}

type FrigateStatus struct {
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// FrigateList is a list of Frigates.
// +kubebuilder:object:root=true
type FrigateList struct {
	metav1.TypeMeta `json:",inline"`
	// +optional
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Frigate `json:"items"`
}

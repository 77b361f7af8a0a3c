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
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitzero"`

	// spec is the desired state.
	// +required
	Spec FrigateSpec `json:"spec"`
	// status is the observed state.
	// +optional
	Status FrigateStatus `json:"status,omitzero"`
}

type FrigateSpec struct {
	// mode is how the frigate moves.
	// +required
	Mode Mode `json:"mode,omitempty"`

	// deck has a required child without a default: {} is refused, so the deck
	// gets no default, and the Go defaulter leaves a zero deck alone.
	// +optional
	Deck Deck `json:"deck,omitzero"`

	// engine has MinProperties=1, which refuses {}; {"fuel":"diesel"} is what
	// the apiserver stores for Go's zero engine, and it is accepted.
	// +optional
	Engine Engine `json:"engine,omitzero"`

	// hull has MinProperties=1 and no defaults below: Go clients leave the zero
	// hull out and nothing would change it, so no default.
	// +optional
	Hull Hull `json:"hull,omitzero"`

	// rigging has no omitzero: Go clients always send it, and the KEP's {} is
	// refused by MinProperties=1, so the default is {} with the defaults
	// below it applied.
	// +optional
	Rigging Rigging `json:"rigging"`
}

type Deck struct {
	// name is the deck's name.
	// +required
	// +kubebuilder:validation:MinLength=1
	Name string `json:"name"`
	// colour defaults to "blue".
	// +optional
	// +default="blue"
	Colour string `json:"colour,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Engine struct {
	// power is the engine's power.
	// +optional
	Power *int32 `json:"power,omitempty"`
	// fuel defaults to "diesel".
	// +optional
	// +default="diesel"
	Fuel string `json:"fuel,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Hull struct {
	// material is what the hull is made of.
	// +optional
	Material string `json:"material,omitempty"`
	// length is the hull's length.
	// +optional
	Length *int32 `json:"length,omitempty"`
}

// +kubebuilder:validation:MinProperties=1
type Rigging struct {
	// knots defaults to 12.
	// +optional
	// +default=12
	Knots int32 `json:"knots,omitempty"`
	// masts is the number of masts.
	// +optional
	Masts *int32 `json:"masts,omitempty"`
}

type FrigateStatus struct {
	// conditions are the frigate's conditions.
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// FrigateList is a list of Frigates.
// +kubebuilder:object:root=true
type FrigateList struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitzero"`
	// items are the frigates.
	// +required
	Items []Frigate `json:"items"`
}

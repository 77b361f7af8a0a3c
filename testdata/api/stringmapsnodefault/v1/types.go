package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// StringMapNoDefault wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type StringMapNoDefault struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the KEP's Object type.
	// +optional
	Spec Object `json:"spec"`
}

type Object struct {
	// mapping is the KEP's string map.
	// +optional
	Mapping map[string]LabelValue `json:"mapping,omitempty"`
}

type LabelValue string

package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// StringMap wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type StringMap struct {
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

// +default="banana"
type LabelValue string

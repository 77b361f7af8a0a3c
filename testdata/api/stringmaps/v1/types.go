package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// StringMap wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type StringMap struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Object `json:"spec"`
}

type Object struct {
	Mapping map[string]LabelValue `json:"mapping,omitempty"`
}

// +default="banana"
type LabelValue string

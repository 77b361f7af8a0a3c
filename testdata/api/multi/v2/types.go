package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Multi struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MultiSpec `json:"spec"`
}

type MultiSpec struct {
	// +default="medium"
	Size     string `json:"size,omitempty"`
	Replicas int32  `json:"replicas"`
}

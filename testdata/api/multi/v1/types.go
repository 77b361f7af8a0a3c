package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Multi struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MultiSpec `json:"spec"`
}

type MultiSpec struct {
	// +default="small"
	Size    string `json:"size,omitempty"`
	Enabled bool   `json:"enabled"`
}

package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type Multi struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state.
	Spec MultiSpec `json:"spec"`
}

type MultiSpec struct {
	// size defaults to "medium" in this version.
	// +optional
	// +default="medium"
	Size string `json:"size,omitempty"`
	// replicas gets the implicit default 0.
	// +optional
	Replicas int32 `json:"replicas"`
}

package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Multi struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state.
	Spec MultiSpec `json:"spec"`
}

type MultiSpec struct {
	// size defaults to "small" in this version.
	// +optional
	// +default="small"
	Size string `json:"size,omitempty"`
	// enabled gets the implicit default false.
	// +optional
	Enabled bool `json:"enabled"`
}

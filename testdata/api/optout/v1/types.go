package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type OptOut struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec OptOutSpec `json:"spec"`
}

type OptOutSpec struct {
	Count int   `json:"count"`
	Inner Inner `json:"inner"`
	// +default="explicit"
	Name string `json:"name,omitempty"`
	// +implicitDefaults=true
	Loud Inner `json:"loud"`
}

type Inner struct {
	Enabled bool `json:"enabled"`
}

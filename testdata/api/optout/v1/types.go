package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
type OptOut struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state.
	Spec OptOutSpec `json:"spec"`
}

type OptOutSpec struct {
	// count gets no implicit default: the package opts out.
	Count int `json:"count"`
	// inner gets no implicit default: the package opts out.
	Inner Inner `json:"inner"`
	// name keeps its explicit default.
	// +optional
	// +default="explicit"
	Name string `json:"name,omitempty"`
	// loud opts back in: its subtree gets implicit defaults.
	// +implicitDefaults=true
	Loud Inner `json:"loud"`
}

type Inner struct {
	// enabled gets an implicit default only under loud.
	Enabled bool `json:"enabled"`
}

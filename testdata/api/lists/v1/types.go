package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ListExample wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type ListExample struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Object `json:"spec"`
}

type Object struct {
	// The KEP gives no json tag; omitempty keeps a nil list out of
	// `required` (Go writes it as null, which the apiserver drops).
	List []Item `json:"list,omitempty"`
}

// +default="apple"
type Item string

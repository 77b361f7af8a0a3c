package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ListNoDefault wraps the KEP's Object type as its spec.
// +kubebuilder:object:root=true
type ListNoDefault struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the KEP's Object type.
	// +optional
	Spec Object `json:"spec"`
}

type Object struct {
	// list is the KEP's list. The KEP gives no json tag; omitempty keeps a nil
	// list out of `required` (Go writes it as null, which the apiserver drops).
	// +optional
	List []Item `json:"list,omitempty"`
}

type Item string
